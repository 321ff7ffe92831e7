// Score regions that yield NaN (test/Integration/score-nan.test): a
// visible NaN logit makes its row NaN on every target and in the reference
// (docs/layouts.md, NaN policy).

// NaN for every key, a constant once folded.
func.func @nan_const(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x16xf32>) -> tensor<1x2x64x16xf32> {
  %o = attic.attention %q, %k, %v score_mod {
  ^bb0(%s: f32, %b: index, %h: index, %qi: index, %ki: index):
    %z = arith.constant 0.0 : f32
    %n = arith.divf %z, %z : f32
    attic.yield %n : f32
  } : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return %o : tensor<1x2x64x16xf32>
}

// NaN for every key, from the data: s / 0 - s / 0.
func.func @nan_data(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x16xf32>) -> tensor<1x2x64x16xf32> {
  %o = attic.attention %q, %k, %v score_mod {
  ^bb0(%s: f32, %b: index, %h: index, %qi: index, %ki: index):
    %z = arith.constant 0.0 : f32
    %a = arith.divf %s, %z : f32
    %n = arith.subf %a, %a : f32
    attic.yield %n : f32
  } : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return %o : tensor<1x2x64x16xf32>
}

// NaN for key 0 only: every row sees it.
func.func @nan_first_key(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x16xf32>) -> tensor<1x2x64x16xf32> {
  %o = attic.attention %q, %k, %v score_mod {
  ^bb0(%s: f32, %b: index, %h: index, %qi: index, %ki: index):
    %c0 = arith.constant 0 : index
    %first = arith.cmpi eq, %ki, %c0 : index
    %z = arith.constant 0.0 : f32
    %nan = arith.divf %z, %z : f32
    %n = arith.select %first, %nan, %s : f32
    attic.yield %n : f32
  } : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return %o : tensor<1x2x64x16xf32>
}

func.func @nan_const_f16(%q: tensor<1x2x64x16xf16>, %k: tensor<1x2x64x16xf16>, %v: tensor<1x2x64x16xf16>) -> tensor<1x2x64x16xf16> {
  %o = attic.attention %q, %k, %v score_mod {
  ^bb0(%s: f32, %b: index, %h: index, %qi: index, %ki: index):
    %z = arith.constant 0.0 : f32
    %n = arith.divf %z, %z : f32
    attic.yield %n : f32
  } : tensor<1x2x64x16xf16>, tensor<1x2x64x16xf16>, tensor<1x2x64x16xf16> -> tensor<1x2x64x16xf16>
  return %o : tensor<1x2x64x16xf16>
}
