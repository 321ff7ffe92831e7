// RUN: attic-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" | FileCheck %s

// block_attention bufferizes in place into its destination: the memref form
// writes the new allocation and has no result; the destination is not read,
// so no copy is made.
// CHECK-LABEL: func.func @bufferize
// CHECK-SAME: (%[[Q:.*]]: memref<1x2x8x4xf32>, %[[K:.*]]: memref<1x2x8x4xf32>, %[[V:.*]]: memref<1x2x8x4xf32>, %[[M:.*]]: memref<1x8xi1>) -> memref<1x2x8x4xf32>
// CHECK: %[[OUT:.*]] = memref.alloc() {{.*}} : memref<1x2x8x4xf32>
// CHECK-NOT: memref.copy
// CHECK: attic.block_attention ins(%[[Q]], %[[K]], %[[V]] : memref<1x2x8x4xf32>, memref<1x2x8x4xf32>, memref<1x2x8x4xf32>) mask(%[[M]] : memref<1x8xi1>) outs(%[[OUT]] : memref<1x2x8x4xf32>)
// CHECK-NOT: ->
// CHECK: return %[[OUT]]
func.func @bufferize(%q: tensor<1x2x8x4xf32>, %k: tensor<1x2x8x4xf32>, %v: tensor<1x2x8x4xf32>, %m: tensor<1x8xi1>) -> tensor<1x2x8x4xf32> {
  %init = tensor.empty() : tensor<1x2x8x4xf32>
  %o = attic.block_attention ins(%q, %k, %v : tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>) mask(%m : tensor<1x8xi1>) outs(%init : tensor<1x2x8x4xf32>) {layout = #attic.dense, scale = 0.5 : f32, block_q = 4 : i64, block_k = 4 : i64} -> tensor<1x2x8x4xf32>
  return %o : tensor<1x2x8x4xf32>
}
