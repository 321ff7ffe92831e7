// Input of ../lsh-examples.test: a small causal LSH attention with a padding
// mask for the GPU simulator (which interprets every thread).
func.func @lsh_small(%qk: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x16xf32>,
                     %m: tensor<1x64xi1>) -> tensor<1x2x64x16xf32> {
  %o = attic.lsh_attention %qk, %v mask(%m : tensor<1x64xi1>)
      {buckets = 4 : i64, rounds = 2 : i64, chunk = 8 : i64, seed = 5 : i64, causal}
      : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return %o : tensor<1x2x64x16xf32>
}
