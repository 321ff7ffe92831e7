// RUN: attic-opt %s --split-input-file --attic-decompose-aggregates | FileCheck %s

// linalg.softmax along dimension 1: the maximum (maxnumf from a NaN fill,
// upstream's identity), exp(x - max), the sum, the division.
// CHECK-LABEL: func.func @softmax_rows
// CHECK-NOT: linalg.softmax
// CHECK: %[[NAN:.*]] = arith.constant 0xFFC00000 : f32
// CHECK: %[[INIT:.*]] = linalg.fill ins(%[[NAN]] : f32) outs(%{{.*}} : tensor<2xf32>)
// CHECK: %[[MAX:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%[[X:.*]] : tensor<2x8xf32>) outs(%[[INIT]] : tensor<2xf32>)
// CHECK: arith.maxnumf
// CHECK: %[[EXP:.*]] = linalg.generic {{.*}} ins(%[[X]], %[[MAX]] : tensor<2x8xf32>, tensor<2xf32>)
// CHECK: arith.subf
// CHECK: math.exp
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}} ins(%[[EXP]] : tensor<2x8xf32>)
// CHECK: arith.addf
// CHECK: %[[R:.*]] = linalg.generic {{.*}} ins(%[[EXP]], %[[SUM]] : tensor<2x8xf32>, tensor<2xf32>)
// CHECK: arith.divf
// CHECK: return %[[R]]
func.func @softmax_rows(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %e = tensor.empty() : tensor<2x8xf32>
  %r = linalg.softmax dimension(1) ins(%x : tensor<2x8xf32>) outs(%e : tensor<2x8xf32>) -> tensor<2x8xf32>
  return %r : tensor<2x8xf32>
}

// -----

// Dimension 0 of a rank-3 f16 tensor with a dynamic size: the reductions
// keep the other two dimensions.
// CHECK-LABEL: func.func @softmax_dynamic_f16
// CHECK-NOT: linalg.softmax
// CHECK: tensor.empty(%{{.*}}) : tensor<?x5xf16>
// CHECK: linalg.generic {{.*}} iterator_types = ["reduction", "parallel", "parallel"]} ins(%{{.*}} : tensor<3x?x5xf16>) outs(%{{.*}} : tensor<?x5xf16>)
// CHECK: math.exp %{{.*}} : f16
func.func @softmax_dynamic_f16(%x: tensor<3x?x5xf16>, %e: tensor<3x?x5xf16>) -> tensor<3x?x5xf16> {
  %r = linalg.softmax dimension(0) ins(%x : tensor<3x?x5xf16>) outs(%e : tensor<3x?x5xf16>) -> tensor<3x?x5xf16>
  return %r : tensor<3x?x5xf16>
}

// -----

// Other ops are left alone.
// CHECK-LABEL: func.func @no_aggregates
// CHECK: linalg.matmul
func.func @no_aggregates(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>, %c: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<4x4xf32>, tensor<4x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}
