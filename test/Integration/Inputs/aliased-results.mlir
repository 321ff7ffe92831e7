// Input of ../aliased-results.test and ../../Aot/aot-aliased-results.test:
// functions whose results share one buffer.

!t = tensor<1x2x64x32xf32>

// One attention returned twice.
func.func @same_result_twice(%q: !t, %k: !t, %v: !t) -> (!t, !t) {
  %o = attic.attention %q, %k, %v : !t, !t, !t -> !t
  return %o, %o : !t, !t
}

// A result and a reshape of it (the same buffer, another shape).
func.func @with_reshape(%a: !t) -> (!t, tensor<128x32xf32>) {
  %o = attic.attention %a, %a, %a : !t, !t, !t -> !t
  %c = tensor.collapse_shape %o [[0, 1, 2], [3]] : !t into tensor<128x32xf32>
  return %o, %c : !t, tensor<128x32xf32>
}

// No attic op: a linalg result returned twice, between an input.
func.func @add_twice(%a: !t) -> (!t, !t, !t) {
  %e = tensor.empty() : !t
  %r = linalg.add ins(%a, %a : !t, !t) outs(%e : !t) -> !t
  return %r, %a, %r : !t, !t, !t
}
