// Improved clustered attention with topk = Nk = 4100 (exact attention);
// inputs q, k in {-1, 0, 1} and v uniform in [-1, 1) (clustered-long-rows.test).
func.func @f(%q: tensor<1x1x16x2xf32>, %k: tensor<1x1x4100x2xf32>, %v: tensor<1x1x4100x2xf32>) -> tensor<1x1x16x2xf32> {
  %o = attic.clustered_attention %q, %k, %v  {clusters = 3 : i64, seed = 4 : i64, topk = 4100 : i64}
      : tensor<1x1x16x2xf32>, tensor<1x1x4100x2xf32>, tensor<1x1x4100x2xf32> -> tensor<1x1x16x2xf32>
  return %o : tensor<1x1x16x2xf32>
}
