// A score region that yields a finite score below -FLT_MAX / log2(e)
// (about -2.36e38): finfo(float32).min on keys 0..39 (@min_keys; causal
// rows 0..39 see only such keys), and s - 3e38 on every key (@shifted).
// log2(e) * score overflows f32 and saturates to -FLT_MAX, as a key bias
// does (never -inf, which masks), so those rows are the average of their
// value rows, as in the reference; they were an empty row's 0 (relative
// error 1, exit 0; a 2026-11-30 audit).
func.func @min_keys(%q: tensor<1x2x100x16xf32>, %k: tensor<1x2x100x16xf32>, %v: tensor<1x2x100x16xf32>) -> tensor<1x2x100x16xf32> {
  %o = attic.attention %q, %k, %v causal score_mod {
  ^bb0(%s: f32, %b: index, %h: index, %i: index, %j: index):
    %c40 = arith.constant 40 : index
    %masked = arith.cmpi ult, %j, %c40 : index
    %min = arith.constant -3.40282347e+38 : f32
    %x = arith.select %masked, %min, %s : f32
    attic.yield %x : f32
  } : tensor<1x2x100x16xf32>, tensor<1x2x100x16xf32>, tensor<1x2x100x16xf32> -> tensor<1x2x100x16xf32>
  return %o : tensor<1x2x100x16xf32>
}

func.func @shifted(%q: tensor<1x2x100x16xf32>, %k: tensor<1x2x100x16xf32>, %v: tensor<1x2x100x16xf32>) -> tensor<1x2x100x16xf32> {
  %o = attic.attention %q, %k, %v score_mod {
  ^bb0(%s: f32, %b: index, %h: index, %i: index, %j: index):
    %c = arith.constant 3.0e+38 : f32
    %x = arith.subf %s, %c : f32
    attic.yield %x : f32
  } : tensor<1x2x100x16xf32>, tensor<1x2x100x16xf32>, tensor<1x2x100x16xf32> -> tensor<1x2x100x16xf32>
  return %o : tensor<1x2x100x16xf32>
}
