// RUN: attic-opt %s --split-input-file | FileCheck %s
// Round trip: print, parse again, print the same.
// RUN: attic-opt %s --split-input-file | attic-opt --split-input-file | FileCheck %s

// CHECK-LABEL: func.func @clustered
// CHECK: attic.clustered_attention %{{.*}}, %{{.*}}, %{{.*}} mask(%{{.*}} : tensor<2x512xi1>) {clusters = 16 : i64, iterations = 3 : i64, scale = 1.250000e-01 : f32, seed = 7 : i64} : tensor<2x4x256x64xf32>, tensor<2x4x512x64xf32>, tensor<2x4x512x32xf32> -> tensor<2x4x256x32xf32>
func.func @clustered(%q: tensor<2x4x256x64xf32>, %k: tensor<2x4x512x64xf32>, %v: tensor<2x4x512x32xf32>, %m: tensor<2x512xi1>) -> tensor<2x4x256x32xf32> {
  %o = attic.clustered_attention %q, %k, %v mask(%m : tensor<2x512xi1>) {clusters = 16 : i64, iterations = 3 : i64, seed = 7 : i64, scale = 0.125 : f32} : tensor<2x4x256x64xf32>, tensor<2x4x512x64xf32>, tensor<2x4x512x32xf32> -> tensor<2x4x256x32xf32>
  return %o : tensor<2x4x256x32xf32>
}

// -----

// As many clusters as queries: no seed needed (every query is a centroid).
// CHECK-LABEL: func.func @every_query
// CHECK: attic.clustered_attention %{{.*}}, %{{.*}}, %{{.*}} {clusters = 64 : i64} : tensor<1x1x64x8xf32>, tensor<1x1x64x8xf32>, tensor<1x1x64x8xf32> -> tensor<1x1x64x8xf32>
func.func @every_query(%q: tensor<1x1x64x8xf32>) -> tensor<1x1x64x8xf32> {
  %o = attic.clustered_attention %q, %q, %q {clusters = 64 : i64} : tensor<1x1x64x8xf32>, tensor<1x1x64x8xf32>, tensor<1x1x64x8xf32> -> tensor<1x1x64x8xf32>
  return %o : tensor<1x1x64x8xf32>
}

// -----

// CHECK-LABEL: func.func @kmeans
// CHECK: attic.kmeans %{{.*}} {clusters = 16 : i64, iterations = 5 : i64, seed = 1 : i64} : tensor<1x4x256x64xf32> -> tensor<1x4x16x64xf32>, tensor<1x4x256xi64>
func.func @kmeans(%q: tensor<1x4x256x64xf32>) -> (tensor<1x4x16x64xf32>, tensor<1x4x256xi64>) {
  %c, %a = attic.kmeans %q {clusters = 16 : i64, iterations = 5 : i64, seed = 1 : i64} : tensor<1x4x256x64xf32> -> tensor<1x4x16x64xf32>, tensor<1x4x256xi64>
  return %c, %a : tensor<1x4x16x64xf32>, tensor<1x4x256xi64>
}

// -----

// The improved variant.
// CHECK-LABEL: func.func @improved
// CHECK: attic.clustered_attention %{{.*}}, %{{.*}}, %{{.*}} {clusters = 4 : i64, seed = 2 : i64, topk = 16 : i64} : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
func.func @improved(%q: tensor<1x2x64x16xf32>) -> tensor<1x2x64x16xf32> {
  %o = attic.clustered_attention %q, %q, %q {clusters = 4 : i64, seed = 2 : i64, topk = 16 : i64} : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return %o : tensor<1x2x64x16xf32>
}
