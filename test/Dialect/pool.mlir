// RUN: attic-opt %s --split-input-file | FileCheck %s
// Round trip: print, parse again, print the same.
// RUN: attic-opt %s --split-input-file | attic-opt --split-input-file | FileCheck %s

// The pool destination of attic.block_attention on tensors (with lse: the
// results are the output, the lse and the pooled rows) and attic.tile.pool.

// CHECK-LABEL: func.func @block_attention_pool
// CHECK: %{{.*}}:3 = attic.block_attention ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<1x2x40x8xf32>, tensor<1x2x40x8xf32>, tensor<1x2x40x8xf32>) pool(%{{.*}} : tensor<1x40xf32> into %{{.*}} : tensor<1x2x3x8xf32>) outs(%{{.*}} : tensor<1x2x40x8xf32>, lse %{{.*}} : tensor<1x2x40xf32>) {block_k = 16 : i64, block_q = 16 : i64, layout = #attic.dense, scale = 2.500000e-01 : f32} -> tensor<1x2x40x8xf32>, tensor<1x2x40xf32>, tensor<1x2x3x8xf32>
func.func @block_attention_pool(%q: tensor<1x2x40x8xf32>, %w: tensor<1x40xf32>, %init: tensor<1x2x40x8xf32>, %lse: tensor<1x2x40xf32>, %p: tensor<1x2x3x8xf32>) -> tensor<1x2x3x8xf32> {
  %o:3 = attic.block_attention ins(%q, %q, %q : tensor<1x2x40x8xf32>, tensor<1x2x40x8xf32>, tensor<1x2x40x8xf32>) pool(%w : tensor<1x40xf32> into %p : tensor<1x2x3x8xf32>) outs(%init : tensor<1x2x40x8xf32>, lse %lse : tensor<1x2x40xf32>) {layout = #attic.dense, scale = 0.25 : f32, block_q = 16 : i64, block_k = 16 : i64} -> tensor<1x2x40x8xf32>, tensor<1x2x40xf32>, tensor<1x2x3x8xf32>
  return %o#2 : tensor<1x2x3x8xf32>
}

// -----

// CHECK-LABEL: func.func @tile_pool
// CHECK: attic.tile.pool %{{.*}} stored(%{{.*}}) weights(%{{.*}}) into %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] : memref<16x16xf32>, memref<2x3x40x16xf16>, memref<2x40xf32> into memref<2x3x3x16xf32>
func.func @tile_pool(%t: memref<16x16xf32>, %o: memref<2x3x40x16xf16>, %w: memref<2x40xf32>, %p: memref<2x3x3x16xf32>, %i: index) {
  attic.tile.pool %t stored(%o) weights(%w) into %p[%i, %i, %i] : memref<16x16xf32>, memref<2x3x40x16xf16>, memref<2x40xf32> into memref<2x3x3x16xf32>
  return
}
