// Logits spanning far more than 745 (scale 1e10): the softmax weights of
// all but the top keys underflow to 0, even in double. The top keys are
// the largest logits (the reference ranked the underflowed weights and
// broke their ties by index until 2026-11-28: a FAILED check of correct
// compiled code).
func.func @f(%q: tensor<1x2x16x4xf32>, %k: tensor<1x2x16x4xf32>, %v: tensor<1x2x16x4xf32>) -> tensor<1x2x16x4xf32> {
  %o = attic.clustered_attention %q, %k, %v {clusters = 4 : i64, iterations = 2 : i64, seed = 5 : i64, scale = 1.0e10 : f32, topk = 3 : i64}
      : tensor<1x2x16x4xf32>, tensor<1x2x16x4xf32>, tensor<1x2x16x4xf32> -> tensor<1x2x16x4xf32>
  return %o : tensor<1x2x16x4xf32>
}
