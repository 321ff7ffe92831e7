// RUN: attic-opt %s --split-input-file --verify-diagnostics

func.func @zero_clusters(%q: tensor<1x2x64x16xf32>) -> tensor<1x2x64x16xf32> {
  // expected-error @+1 {{'attic.clustered_attention' op clusters must be in [1, N] = [1, 64], got 0}}
  %o = attic.clustered_attention %q, %q, %q {clusters = 0 : i64, seed = 1 : i64} : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return %o : tensor<1x2x64x16xf32>
}

// -----

func.func @too_many_clusters(%q: tensor<1x2x64x16xf32>) -> tensor<1x2x64x16xf32> {
  // expected-error @+1 {{'attic.clustered_attention' op clusters must be in [1, N] = [1, 64], got 65}}
  %o = attic.clustered_attention %q, %q, %q {clusters = 65 : i64, seed = 1 : i64} : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return %o : tensor<1x2x64x16xf32>
}

// -----

func.func @missing_seed(%q: tensor<1x2x64x16xf32>) -> tensor<1x2x64x16xf32> {
  // expected-error @+1 {{'attic.clustered_attention' op K-means with 8 clusters of 64 rows draws its initial centroids and needs a `seed`}}
  %o = attic.clustered_attention %q, %q, %q {clusters = 8 : i64} : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return %o : tensor<1x2x64x16xf32>
}

// -----

func.func @zero_iterations(%q: tensor<1x2x64x16xf32>) -> tensor<1x2x64x16xf32> {
  // expected-error @+1 {{'attic.clustered_attention' op iterations must be in [1, 100], got 0}}
  %o = attic.clustered_attention %q, %q, %q {clusters = 8 : i64, iterations = 0 : i64, seed = 1 : i64} : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return %o : tensor<1x2x64x16xf32>
}

// -----

func.func @key_dim(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x64x8xf32>) -> tensor<1x2x64x16xf32> {
  // expected-error @+1 {{'attic.clustered_attention' op key has shape 1x2x64x8 but [B,H,Nk,D] = 1x2x64x16 is expected: dim 3 (D) is 8, query has 16}}
  %o = attic.clustered_attention %q, %k, %q {clusters = 8 : i64, seed = 1 : i64} : tensor<1x2x64x16xf32>, tensor<1x2x64x8xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return %o : tensor<1x2x64x16xf32>
}

// -----

func.func @mask_shape(%q: tensor<1x2x64x16xf32>, %m: tensor<1x32xi1>) -> tensor<1x2x64x16xf32> {
  // expected-error @+1 {{'attic.clustered_attention' op mask has shape 1x32 but [B,Nk] = 1x64 is expected: dim 1 (Nk) is 32, key has 64}}
  %o = attic.clustered_attention %q, %q, %q mask(%m : tensor<1x32xi1>) {clusters = 8 : i64, seed = 1 : i64} : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return %o : tensor<1x2x64x16xf32>
}

// -----

func.func @kmeans_centroids(%q: tensor<1x4x256x64xf32>) -> (tensor<1x4x8x64xf32>, tensor<1x4x256xi64>) {
  // expected-error @+1 {{'attic.kmeans' op centroids has shape 1x4x8x64 but [B,H,C,D] = 1x4x16x64 is expected: dim 2 (C) is 8, clusters has 16}}
  %c, %a = attic.kmeans %q {clusters = 16 : i64, iterations = 5 : i64, seed = 1 : i64} : tensor<1x4x256x64xf32> -> tensor<1x4x8x64xf32>, tensor<1x4x256xi64>
  return %c, %a : tensor<1x4x8x64xf32>, tensor<1x4x256xi64>
}

// -----

func.func @topk_too_large(%q: tensor<1x2x64x16xf32>) -> tensor<1x2x64x16xf32> {
  // expected-error @+1 {{'attic.clustered_attention' op topk must be in [1, Nk] = [1, 64], got 65}}
  %o = attic.clustered_attention %q, %q, %q {clusters = 8 : i64, seed = 1 : i64, topk = 65 : i64} : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return %o : tensor<1x2x64x16xf32>
}

// -----

func.func @topk_zero(%q: tensor<1x2x64x16xf32>) -> tensor<1x2x64x16xf32> {
  // expected-error @+1 {{'attic.clustered_attention' op topk must be in [1, Nk] = [1, 64], got 0}}
  %o = attic.clustered_attention %q, %q, %q {clusters = 8 : i64, seed = 1 : i64, topk = 0 : i64} : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return %o : tensor<1x2x64x16xf32>
}
