// RUN: attic-opt %s --split-input-file | FileCheck %s
// Round trip: print, parse again, print the same.
// RUN: attic-opt %s --split-input-file | attic-opt --split-input-file | FileCheck %s

// CHECK-LABEL: func.func @lsh
// CHECK: attic.lsh_attention %{{.*}}, %{{.*}} mask(%{{.*}} : tensor<2x256xi1>) {buckets = 16 : i64, causal, chunk = 32 : i64, rounds = 2 : i64, scale = 1.250000e-01 : f32, seed = 7 : i64} : tensor<2x4x256x64xf32>, tensor<2x4x256x32xf32> -> tensor<2x4x256x32xf32>
func.func @lsh(%qk: tensor<2x4x256x64xf32>, %v: tensor<2x4x256x32xf32>, %m: tensor<2x256xi1>) -> tensor<2x4x256x32xf32> {
  %o = attic.lsh_attention %qk, %v mask(%m : tensor<2x256xi1>) {buckets = 16 : i64, rounds = 2 : i64, chunk = 32 : i64, seed = 7 : i64, causal, scale = 0.125 : f32} : tensor<2x4x256x64xf32>, tensor<2x4x256x32xf32> -> tensor<2x4x256x32xf32>
  return %o : tensor<2x4x256x32xf32>
}

// -----

// One bucket: no hashing, no seed.
// CHECK-LABEL: func.func @one_bucket
// CHECK: attic.lsh_attention %{{.*}}, %{{.*}} {buckets = 1 : i64, chunk = 64 : i64} : tensor<1x1x64x8xf32>, tensor<1x1x64x8xf32> -> tensor<1x1x64x8xf32>
func.func @one_bucket(%qk: tensor<1x1x64x8xf32>) -> tensor<1x1x64x8xf32> {
  %o = attic.lsh_attention %qk, %qk {buckets = 1 : i64, chunk = 64 : i64} : tensor<1x1x64x8xf32>, tensor<1x1x64x8xf32> -> tensor<1x1x64x8xf32>
  return %o : tensor<1x1x64x8xf32>
}

// -----

// CHECK-LABEL: func.func @primitives
// CHECK: attic.lsh_hash %{{.*}}, %{{.*}} : tensor<1x2x64x16xf32>, tensor<16x4xf32> -> tensor<1x2x64xi64>
// CHECK: attic.bucket_sort %{{.*}} {num_buckets = 8 : i64} : tensor<1x2x64xi64> -> tensor<1x2x64xi64>, tensor<1x2x64xi64>
func.func @primitives(%x: tensor<1x2x64x16xf32>, %r: tensor<16x4xf32>) -> (tensor<1x2x64xi64>, tensor<1x2x64xi64>) {
  %h = attic.lsh_hash %x, %r : tensor<1x2x64x16xf32>, tensor<16x4xf32> -> tensor<1x2x64xi64>
  %p, %i = attic.bucket_sort %h {num_buckets = 8 : i64} : tensor<1x2x64xi64> -> tensor<1x2x64xi64>, tensor<1x2x64xi64>
  return %p, %i : tensor<1x2x64xi64>, tensor<1x2x64xi64>
}
