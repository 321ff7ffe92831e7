// Input of ../aot-dynamic-elementwise.test: dynamic shapes that reach the
// result through elementwise ops after the attention.
!d = tensor<1x1x?x4xf32>
func.func @scaled(%q: !d, %k: !d, %v: !d, %w: !d) -> !d {
  %o = attic.attention %q, %k, %v : !d, !d, !d -> !d
  %p = arith.addf %o, %o : !d
  %e = math.exp %p : !d
  %r = arith.mulf %e, %w : !d
  return %r : !d
}

// Two arguments added: --shape sizes that disagree are named.
func.func @added(%a: tensor<?x4xf32>, %b: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %r = arith.addf %a, %b : tensor<?x4xf32>
  return %r : tensor<?x4xf32>
}
