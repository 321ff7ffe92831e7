// K-means alone and clustered attention (B=1, H=8, N=4096, 64 clusters,
// 10 iterations) at head dims 8 and 16: the distances' form changed at
// D <= 16 (sum (x - c)^2 per row instead of |c|^2 - 2 x.c by sgemm).
func.func @kmeans_d16(%x: tensor<1x8x4096x16xf32>) -> (tensor<1x8x64x16xf32>, tensor<1x8x4096xi64>) {
  %c, %a = attic.kmeans %x {clusters = 64 : i64, iterations = 10 : i64, seed = 1 : i64} : tensor<1x8x4096x16xf32> -> tensor<1x8x64x16xf32>, tensor<1x8x4096xi64>
  return %c, %a : tensor<1x8x64x16xf32>, tensor<1x8x4096xi64>
}
func.func @kmeans_d8(%x: tensor<1x8x4096x8xf32>) -> (tensor<1x8x64x8xf32>, tensor<1x8x4096xi64>) {
  %c, %a = attic.kmeans %x {clusters = 64 : i64, iterations = 10 : i64, seed = 1 : i64} : tensor<1x8x4096x8xf32> -> tensor<1x8x64x8xf32>, tensor<1x8x4096xi64>
  return %c, %a : tensor<1x8x64x8xf32>, tensor<1x8x4096xi64>
}
func.func @clustered_d16(%q: tensor<1x8x4096x16xf32>, %k: tensor<1x8x4096x16xf32>, %v: tensor<1x8x4096x16xf32>) -> tensor<1x8x4096x16xf32> {
  %o = attic.clustered_attention %q, %k, %v {clusters = 64 : i64, iterations = 10 : i64, seed = 1 : i64} : tensor<1x8x4096x16xf32>, tensor<1x8x4096x16xf32>, tensor<1x8x4096x16xf32> -> tensor<1x8x4096x16xf32>
  return %o : tensor<1x8x4096x16xf32>
}
func.func @kmeans_d4(%x: tensor<1x8x4096x4xf32>) -> (tensor<1x8x64x4xf32>, tensor<1x8x4096xi64>) {
  %c, %a = attic.kmeans %x {clusters = 64 : i64, iterations = 10 : i64, seed = 1 : i64} : tensor<1x8x4096x4xf32> -> tensor<1x8x64x4xf32>, tensor<1x8x4096xi64>
  return %c, %a : tensor<1x8x64x4xf32>, tensor<1x8x4096xi64>
}
func.func @clustered_d4(%q: tensor<1x8x4096x4xf32>, %k: tensor<1x8x4096x4xf32>, %v: tensor<1x8x4096x4xf32>) -> tensor<1x8x4096x4xf32> {
  %o = attic.clustered_attention %q, %k, %v {clusters = 64 : i64, iterations = 10 : i64, seed = 1 : i64} : tensor<1x8x4096x4xf32>, tensor<1x8x4096x4xf32>, tensor<1x8x4096x4xf32> -> tensor<1x8x4096x4xf32>
  return %o : tensor<1x8x4096x4xf32>
}
