// Clustered attention (Vyas et al. 2020; ../shared/papers/xformer.md A5,
// docs/lsh.md): the queries of each head grouped into C clusters by K-means
// (seeded initialization, a fixed number of iterations), each centroid
// attending to every key through the shared block-attention core, and every
// query taking its cluster's row. B = 2, H = 4 heads of D = 64.
//
// @clustered: 1024 queries in 64 clusters, 10 iterations, with a key
// padding mask.
// @clustered_cross: 512 queries in 32 clusters on 2048 keys, 5 iterations.
// @improved_clustered (below): the improved variant with the top 32 keys.
//
//   build/tools/attic-run examples/clustered.mlir --entry=clustered --mask-keep=0.8 --check

func.func @clustered(%q: tensor<2x4x1024x64xf32>, %k: tensor<2x4x1024x64xf32>,
                     %v: tensor<2x4x1024x64xf32>, %m: tensor<2x1024xi1>)
    -> tensor<2x4x1024x64xf32> {
  %o = attic.clustered_attention %q, %k, %v mask(%m : tensor<2x1024xi1>)
      {clusters = 64 : i64, iterations = 10 : i64, seed = 1 : i64}
      : tensor<2x4x1024x64xf32>, tensor<2x4x1024x64xf32>, tensor<2x4x1024x64xf32>
      -> tensor<2x4x1024x64xf32>
  return %o : tensor<2x4x1024x64xf32>
}

func.func @clustered_cross(%q: tensor<2x4x512x64xf32>, %k: tensor<2x4x2048x64xf32>,
                           %v: tensor<2x4x2048x64xf32>) -> tensor<2x4x512x64xf32> {
  %o = attic.clustered_attention %q, %k, %v
      {clusters = 32 : i64, iterations = 5 : i64, seed = 2 : i64}
      : tensor<2x4x512x64xf32>, tensor<2x4x2048x64xf32>, tensor<2x4x2048x64xf32>
      -> tensor<2x4x512x64xf32>
  return %o : tensor<2x4x512x64xf32>
}

// @improved_clustered: the improved variant: each cluster's 32 keys of
// largest centroid attention recomputed exactly per query (their centroid
// mass kept), the others at the centroid's weights; 64 clusters, padded.
func.func @improved_clustered(%q: tensor<2x4x1024x64xf32>, %k: tensor<2x4x1024x64xf32>,
                              %v: tensor<2x4x1024x64xf32>, %m: tensor<2x1024xi1>)
    -> tensor<2x4x1024x64xf32> {
  %o = attic.clustered_attention %q, %k, %v mask(%m : tensor<2x1024xi1>)
      {clusters = 64 : i64, iterations = 10 : i64, seed = 1 : i64, topk = 32 : i64}
      : tensor<2x4x1024x64xf32>, tensor<2x4x1024x64xf32>, tensor<2x4x1024x64xf32>
      -> tensor<2x4x1024x64xf32>
  return %o : tensor<2x4x1024x64xf32>
}
