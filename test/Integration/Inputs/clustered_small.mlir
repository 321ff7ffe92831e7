// Input of ../clustered-examples.test: a small improved clustered attention
// with a padding mask for the GPU simulator (which interprets every thread).
func.func @improved_small(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x96x16xf32>,
                          %v: tensor<1x2x96x8xf32>, %m: tensor<1x96xi1>)
    -> tensor<1x2x64x8xf32> {
  %o = attic.clustered_attention %q, %k, %v mask(%m : tensor<1x96xi1>)
      {clusters = 8 : i64, iterations = 3 : i64, seed = 3 : i64, topk = 12 : i64}
      : tensor<1x2x64x16xf32>, tensor<1x2x96x16xf32>, tensor<1x2x96x8xf32>
      -> tensor<1x2x64x8xf32>
  return %o : tensor<1x2x64x8xf32>
}
