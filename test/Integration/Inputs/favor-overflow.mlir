// FAVOR+ with keys whose |k|^2 overflows f32 (test/Integration/favor-overflow.test).
func.func @causal(%q: tensor<1x1x8x2xf32>, %k: tensor<1x1x8x2xf32>, %v: tensor<1x1x8x1xf32>) -> tensor<1x1x8x1xf32> {
  %o = attic.kernelized_attention favor_plus %q, %k, %v {features = 4 : i64, seed = 3 : i64, causal, chunk = 2 : i64}
      : tensor<1x1x8x2xf32>, tensor<1x1x8x2xf32>, tensor<1x1x8x1xf32> -> tensor<1x1x8x1xf32>
  return %o : tensor<1x1x8x1xf32>
}
func.func @full(%q: tensor<1x1x8x2xf32>, %k: tensor<1x1x8x2xf32>, %v: tensor<1x1x8x1xf32>) -> tensor<1x1x8x1xf32> {
  %o = attic.kernelized_attention favor_plus %q, %k, %v {features = 4 : i64, seed = 3 : i64}
      : tensor<1x1x8x2xf32>, tensor<1x1x8x2xf32>, tensor<1x1x8x1xf32> -> tensor<1x1x8x1xf32>
  return %o : tensor<1x1x8x1xf32>
}
