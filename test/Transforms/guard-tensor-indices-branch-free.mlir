// RUN: attic-opt %s --split-input-file --attic-guard-tensor-indices=branch-free | FileCheck %s

// With branch-free (the CUDA and emulated pipelines: attic-gpu-offload
// takes no allocation in a branch), a tensor.cast's replacement is
// allocated in front and chosen with arith.select; a memref.cast is only
// reported.
// CHECK-LABEL: func.func @cast_to_static
// CHECK: %[[SAME:.*]] = arith.cmpi eq
// CHECK: arith.constant 15 : i32
// CHECK: %[[OK:.*]] = arith.andi %{{.*}}, %[[SAME]] : i1
// CHECK: %[[E:.*]] = tensor.empty() : tensor<8x4xf32>
// CHECK: %[[C:.*]] = tensor.cast %{{.*}} {attic.in_bounds} : tensor<?x4xf32> to tensor<8x4xf32>
// CHECK: %[[R:.*]] = arith.select %[[OK]], %[[C]], %[[E]] : tensor<8x4xf32>
// CHECK: arith.constant 15 : i32
// CHECK: %[[M:.*]] = memref.cast %{{.*}} {attic.in_bounds} : memref<?xf32> to memref<4xf32>
// CHECK-NOT: scf.if %{{.*}} ->
// CHECK: return %[[R]], %[[M]]
func.func @cast_to_static(%a: tensor<?x4xf32>, %m: memref<?xf32>) -> (tensor<8x4xf32>, memref<4xf32>) {
  %c = tensor.cast %a : tensor<?x4xf32> to tensor<8x4xf32>
  %d = memref.cast %m : memref<?xf32> to memref<4xf32>
  return %c, %d : tensor<8x4xf32>, memref<4xf32>
}

// -----

// The same for tensor.expand_shape.
// CHECK-LABEL: func.func @expand_sizes
// CHECK: arith.constant 17 : i32
// CHECK: %[[E:.*]] = tensor.empty(%{{.*}}) : tensor<?x4xf32>
// CHECK: %[[X:.*]] = tensor.expand_shape {{.*}} {attic.in_bounds}
// CHECK: arith.select %{{.*}}, %[[X]], %[[E]] : tensor<?x4xf32>
func.func @expand_sizes(%t: tensor<?xf32>, %r: index) -> tensor<?x4xf32> {
  %e = tensor.expand_shape %t [[0, 1]] output_shape [%r, 4] : tensor<?xf32> into tensor<?x4xf32>
  return %e : tensor<?x4xf32>
}
