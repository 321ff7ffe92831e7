// Input of ../lsh-examples.test: a small causal LSH attention with a padding
// mask for the GPU simulator (which interprets every thread).
func.func @lsh_small(%qk: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x16xf32>,
                     %m: tensor<1x64xi1>) -> tensor<1x2x64x16xf32> {
  %o = attic.lsh_attention %qk, %v mask(%m : tensor<1x64xi1>)
      {buckets = 4 : i64, rounds = 2 : i64, chunk = 8 : i64, seed = 5 : i64, causal}
      : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return %o : tensor<1x2x64x16xf32>
}

// 65536 buckets for 8 tokens: the GPU mappings' bucket sort summed, for
// each bucket, the buckets below it (2^31 steps; the simulator timed out
// after a minute; an audit): now a scan over the buckets.
func.func @many_buckets(%q: tensor<1x1x8x2xf32>, %v: tensor<1x1x8x2xf32>) -> tensor<1x1x8x2xf32> {
  %o = attic.lsh_attention %q, %v {buckets = 65536 : i64, chunk = 2 : i64, seed = 1 : i64}
      : tensor<1x1x8x2xf32>, tensor<1x1x8x2xf32> -> tensor<1x1x8x2xf32>
  return %o : tensor<1x1x8x2xf32>
}

// 64 rounds (the most the op takes), causal: one round's IR in a loop.
func.func @many_rounds(%qk: tensor<1x1x64x8xf32>, %v: tensor<1x1x64x8xf32>) -> tensor<1x1x64x8xf32> {
  %o = attic.lsh_attention %qk, %v {buckets = 4 : i64, rounds = 64 : i64, chunk = 8 : i64, seed = 3 : i64, causal} : tensor<1x1x64x8xf32>, tensor<1x1x64x8xf32> -> tensor<1x1x64x8xf32>
  return %o : tensor<1x1x64x8xf32>
}
