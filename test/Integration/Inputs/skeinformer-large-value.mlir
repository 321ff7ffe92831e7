// Inputs of skeinformer-large-value.test: one sampled value row of 1e8.
func.func @sk(%q: tensor<1x1x16x4xf32>, %k: tensor<1x1x9x4xf32>, %v: tensor<1x1x9x2xf32>) -> tensor<1x1x16x2xf32> {
  %o = attic.skeinformer_attention %q, %k, %v {samples = 5 : i64, seed = 11 : i64}
      : tensor<1x1x16x4xf32>, tensor<1x1x9x4xf32>, tensor<1x1x9x2xf32> -> tensor<1x1x16x2xf32>
  return %o : tensor<1x1x16x2xf32>
}
