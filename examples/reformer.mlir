// Reformer's LSH attention (Kitaev et al. 2020; ../shared/papers/xformer.md
// A4, docs/lsh.md): shared query/key rows hashed by random rotations
// h(x) = argmax([xR; -xR]) (R drawn from a Philox seed at compile time),
// sorted by (bucket, position), chunks attending to themselves and the
// previous chunk (a query's own key only when nothing else is visible),
// un-sorted, the rounds merged by their log-sum-exps. The chunked attention
// is the shared block-attention core over #attic.block_diagonal windows.
// B = 2, H = 4 heads of D = 64, N = 1024.
//
// @reformer: 32 buckets, 2 rounds, chunks of 32 (the LRA configuration at
// N = 1K), with a key padding mask.
// @reformer_causal: the decoder form (key j visible to query i only when
// j <= i in the original order), 16 buckets, 4 rounds, chunks of 64.
// @reformer_one_round: one round of 8 buckets, chunks of 128.
//
//   build/tools/attic-run examples/reformer.mlir --entry=reformer --mask-keep=0.8 --check

func.func @reformer(%qk: tensor<2x4x1024x64xf32>, %v: tensor<2x4x1024x64xf32>,
                    %m: tensor<2x1024xi1>) -> tensor<2x4x1024x64xf32> {
  %o = attic.lsh_attention %qk, %v mask(%m : tensor<2x1024xi1>)
      {buckets = 32 : i64, rounds = 2 : i64, chunk = 32 : i64, seed = 1 : i64}
      : tensor<2x4x1024x64xf32>, tensor<2x4x1024x64xf32> -> tensor<2x4x1024x64xf32>
  return %o : tensor<2x4x1024x64xf32>
}

func.func @reformer_causal(%qk: tensor<2x4x1024x64xf32>, %v: tensor<2x4x1024x64xf32>)
    -> tensor<2x4x1024x64xf32> {
  %o = attic.lsh_attention %qk, %v
      {buckets = 16 : i64, rounds = 4 : i64, chunk = 64 : i64, seed = 2 : i64, causal}
      : tensor<2x4x1024x64xf32>, tensor<2x4x1024x64xf32> -> tensor<2x4x1024x64xf32>
  return %o : tensor<2x4x1024x64xf32>
}

func.func @reformer_one_round(%qk: tensor<2x4x1024x64xf32>, %v: tensor<2x4x1024x64xf32>)
    -> tensor<2x4x1024x64xf32> {
  %o = attic.lsh_attention %qk, %v
      {buckets = 8 : i64, chunk = 128 : i64, seed = 3 : i64}
      : tensor<2x4x1024x64xf32>, tensor<2x4x1024x64xf32> -> tensor<2x4x1024x64xf32>
  return %o : tensor<2x4x1024x64xf32>
}
