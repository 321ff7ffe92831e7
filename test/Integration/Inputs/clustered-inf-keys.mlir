// Clustered attention whose keys hold an infinity (nan-inputs.test).
func.func @clu(%q: tensor<1x1x16x4xf32>, %k: tensor<1x1x16x4xf32>, %v: tensor<1x1x16x4xf32>) -> tensor<1x1x16x4xf32> {
  %o = attic.clustered_attention %q, %k, %v {clusters = 2 : i64, iterations = 2 : i64, seed = 3 : i64}
      : tensor<1x1x16x4xf32>, tensor<1x1x16x4xf32>, tensor<1x1x16x4xf32> -> tensor<1x1x16x4xf32>
  return %o : tensor<1x1x16x4xf32>
}

// The same with topk (the reference gave 0 for +inf keys).
func.func @clu_topk(%q: tensor<1x1x16x4xf32>, %k: tensor<1x1x16x4xf32>, %v: tensor<1x1x16x4xf32>) -> tensor<1x1x16x4xf32> {
  %o = attic.clustered_attention %q, %k, %v {clusters = 2 : i64, iterations = 2 : i64, seed = 3 : i64, topk = 3 : i64}
      : tensor<1x1x16x4xf32>, tensor<1x1x16x4xf32>, tensor<1x1x16x4xf32> -> tensor<1x1x16x4xf32>
  return %o : tensor<1x1x16x4xf32>
}
