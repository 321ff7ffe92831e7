// RUN: attic-opt %s --split-input-file --attic-decompose | FileCheck %s
// RUN: attic-opt %s --split-input-file --attic-decompose --attic-lower-state | FileCheck %s --check-prefix=LOWER
// RUN: attic-opt %s --split-input-file --attic-decompose=parallel-scans --attic-lower-state="parallel-scans iteration-loops=false" | FileCheck %s --check-prefix=PAR
// RUN: attic-opt %s --split-input-file --attic-decompose --attic-lower-state=iteration-loops=false | FileCheck %s --check-prefix=UNROLLED

// K-means, the centroids' attention through the shared core (with the key
// padding mask), and the broadcast of each cluster's row to its queries.
// CHECK-LABEL: func.func @clustered
// CHECK: %[[C:.*]], %[[A:.*]] = attic.kmeans %{{.*}} {clusters = 8 : i64, iterations = 2 : i64, seed = 3 : i64} : tensor<1x2x64x32xf32> -> tensor<1x2x8x32xf32>, tensor<1x2x64xi64>
// CHECK: attic.block_attention ins(%[[C]], %{{.*}}, %{{.*}} : tensor<1x2x8x32xf32>, tensor<1x2x128x32xf32>, tensor<1x2x128x8xf32>) mask(%{{.*}} : tensor<1x128xi1>)
// CHECK: attic.gather_rows %{{.*}} : tensor<2x8x8xf32>, tensor<2x64xi64> -> tensor<2x64x8xf32>
// CHECK-NOT: attic.clustered_attention
// Two iterations, an scf.for over them carrying the centroids and the
// assignment (zeros before the first): distances by batch matmul (head dim
// 32), the nearest centroid, the sums in one loop over the rows, the new
// centroids. With iteration-loops=false (the GPU pipelines), one copy per
// iteration.
// LOWER-LABEL: func.func @clustered
// LOWER-NOT: attic.kmeans
// LOWER: %[[NONE:.*]] = linalg.fill ins(%c0_i64 : i64) outs(%{{.*}} : tensor<2x64xi64>)
// LOWER: %[[KM:.*]]:2 = scf.for %{{.*}} = %c0 to %c2 step %c1 iter_args(%[[CENT:.*]] = %{{.*}}, %{{.*}} = %[[NONE]]) -> (tensor<2x8x32xf32>, tensor<2x64xi64>)
// LOWER: linalg.batch_matmul {{.*}} ins(%{{.*}}, %[[CENT]] : tensor<2x64x32xf32>, tensor<2x8x32xf32>)
// LOWER-NOT: linalg.batch_matmul
// LOWER: scf.for %{{.*}} = %{{.*}} to %c128 step
// LOWER: scf.yield %{{.*}}, %{{.*}} : tensor<2x8x32xf32>, tensor<2x64xi64>
// LOWER-NOT: linalg.batch_matmul
// LOWER: attic.block_attention
// UNROLLED-LABEL: func.func @clustered
// UNROLLED-NOT: scf.for %{{.*}} = %c0 to %c2 step
// UNROLLED: linalg.batch_matmul
// UNROLLED: scf.for %{{.*}} = %{{.*}} to %c128 step
// UNROLLED: linalg.batch_matmul
// UNROLLED: scf.for %{{.*}} = %{{.*}} to %c128 step
// UNROLLED: attic.block_attention
// With parallel-scans (the GPU pipelines) each sum [2, 8, 32] and count
// [2, 8] is its own element, a loop over the 64 rows that adds only its
// cluster's (a select, so the order of the additions is the sequential
// loop's).
// PAR-LABEL: func.func @clustered
// PAR-NOT: attic.kmeans
// PAR: linalg.batch_matmul
// PAR: linalg.generic {{.*}} outs(%{{.*}} : tensor<2x8x32xf32>)
// PAR: scf.for %{{.*}} = %c0 to %c64 step %c1 iter_args(%[[ACC:.*]] = %{{.*}}) -> (f32)
// PAR: %[[SUM:.*]] = arith.addf %[[ACC]], %{{.*}} : f32
// PAR: arith.select %{{.*}}, %[[SUM]], %[[ACC]] : f32
// PAR: linalg.generic {{.*}} outs(%{{.*}} : tensor<2x8xf32>)
// PAR: linalg.batch_matmul
// PAR: attic.block_attention
func.func @clustered(%q: tensor<1x2x64x32xf32>, %k: tensor<1x2x128x32xf32>, %v: tensor<1x2x128x8xf32>, %m: tensor<1x128xi1>) -> tensor<1x2x64x8xf32> {
  %o = attic.clustered_attention %q, %k, %v mask(%m : tensor<1x128xi1>) {clusters = 8 : i64, iterations = 2 : i64, seed = 3 : i64} : tensor<1x2x64x32xf32>, tensor<1x2x128x32xf32>, tensor<1x2x128x8xf32> -> tensor<1x2x64x8xf32>
  return %o : tensor<1x2x64x8xf32>
}

// -----

// The improved variant: the centroids' attention matrix on tensors (batch
// matmul, softmax rows), the picks in loops, the queries sorted by cluster,
// one attention over the picked keys whose mask region compares clusters
// (classified at run time: an attic.block_mask in front), the inverse
// gather.
// CHECK-LABEL: func.func @improved
// CHECK: attic.kmeans
// CHECK: linalg.batch_matmul
// CHECK: math.exp
// CHECK: linalg.batch_matmul
// CHECK: scf.for
// CHECK: attic.bucket_sort %{{.*}} {num_buckets = 8 : i64}
// CHECK: attic.gather_rows %{{.*}} : tensor<2x64x16xf32>, tensor<2x64xi64> -> tensor<2x64x16xf32>
// CHECK: attic.gather_rows %{{.*}} : tensor<2x128x16xf32>, tensor<2x32xi64> -> tensor<2x32x16xf32>
// CHECK: attic.gather_rows %{{.*}} : tensor<2x128x8xf32>, tensor<2x32xi64> -> tensor<2x32x8xf32>
// CHECK: attic.block_mask
// CHECK: attic.block_attention ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<1x2x64x16xf32>, tensor<1x2x32x16xf32>, tensor<1x2x32x8xf32>) blocks(
// CHECK: mask_mod
// CHECK: arith.divui
// CHECK: arith.cmpi eq
// CHECK: attic.gather_rows %{{.*}} : tensor<2x64x8xf32>, tensor<2x64xi64> -> tensor<2x64x8xf32>
// With parallel-scans the top 4 keys of each of the 2 x 8 clusters are
// ranks of the 128 keys on their own (no scf.for over the clusters), and
// the sort of the queries by cluster is the parallel bucket sort:
// PAR-LABEL: func.func @improved
// PAR: linalg.batch_matmul
// PAR: math.exp
// PAR-NOT: -> (tensor<2x32xi64>)
// PAR: linalg.generic {{.*}} outs(%{{.*}} : tensor<16x128xi64>)
// PAR: scf.for %{{.*}} = %c0 to %c128 step %c1 iter_args(%{{.*}} = %c0_i64) -> (i64)
// PAR: linalg.generic {{.*}} outs(%{{.*}} : tensor<16x4xi64>)
// PAR-NOT: attic.bucket_sort
// PAR: tensor.parallel_insert_slice
// PAR: attic.block_attention
func.func @improved(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x128x16xf32>, %v: tensor<1x2x128x8xf32>) -> tensor<1x2x64x8xf32> {
  %o = attic.clustered_attention %q, %k, %v {clusters = 8 : i64, iterations = 2 : i64, seed = 3 : i64, topk = 4 : i64} : tensor<1x2x64x16xf32>, tensor<1x2x128x16xf32>, tensor<1x2x128x8xf32> -> tensor<1x2x64x8xf32>
  return %o : tensor<1x2x64x8xf32>
}

// -----

// Up to head dim 4 the distances are sum (x - c)^2 per row and centroid,
// no batch matmul (|c|^2 - 2 x.c rounded at the scale of |x|^2: at D = 1
// a row at distance 0 from its own centroid went to another).
// LOWER-LABEL: func.func @narrow
// LOWER-NOT: linalg.batch_matmul
// LOWER: scf.for %{{.*}} = %{{.*}} to %c8 step %{{.*}} iter_args({{.*}}) -> (f32, i64)
// LOWER-NEXT: arith.constant
// LOWER: scf.for %{{.*}} = %{{.*}} to %c4 step
// LOWER: arith.subf
// LOWER: arith.mulf
// LOWER: arith.addf
// LOWER-NOT: linalg.batch_matmul
// LOWER: attic.block_attention
func.func @narrow(%q: tensor<1x2x64x4xf32>, %k: tensor<1x2x128x4xf32>, %v: tensor<1x2x128x8xf32>) -> tensor<1x2x64x8xf32> {
  %o = attic.clustered_attention %q, %k, %v {clusters = 8 : i64, iterations = 2 : i64, seed = 3 : i64} : tensor<1x2x64x4xf32>, tensor<1x2x128x4xf32>, tensor<1x2x128x8xf32> -> tensor<1x2x64x8xf32>
  return %o : tensor<1x2x64x8xf32>
}

// -----

// Head dim 5, just past the threshold: the sgemm distances.
// LOWER-LABEL: func.func @past_narrow
// LOWER: linalg.batch_matmul
// LOWER: attic.block_attention
func.func @past_narrow(%q: tensor<1x2x64x5xf32>, %k: tensor<1x2x128x5xf32>, %v: tensor<1x2x128x8xf32>) -> tensor<1x2x64x8xf32> {
  %o = attic.clustered_attention %q, %k, %v {clusters = 8 : i64, iterations = 2 : i64, seed = 3 : i64} : tensor<1x2x64x5xf32>, tensor<1x2x128x5xf32>, tensor<1x2x128x8xf32> -> tensor<1x2x64x8xf32>
  return %o : tensor<1x2x64x8xf32>
}
