// RUN: attic-opt %s --attic-cpu-pipeline -o %t.1.mlir
// RUN: attic-opt %s --attic-cpu-pipeline -o %t.2.mlir
// RUN: attic-opt %s --attic-cpu-pipeline -o %t.3.mlir
// RUN: attic-opt %s --attic-cpu-pipeline -o %t.4.mlir
// RUN: diff %t.1.mlir %t.2.mlir
// RUN: diff %t.1.mlir %t.3.mlir
// RUN: diff %t.1.mlir %t.4.mlir
// RUN: FileCheck %s --input-file=%t.1.mlir

// The same input gives the same output, with constants in several
// functions: MLIR 22's one-shot-bufferize names and orders their globals
// differently from run to run (2 to 5 different outputs in 6 runs of
// examples/reformer.mlir until 2026-11-28); attic-order-constant-globals
// fixes both by first use.
// CHECK: llvm.mlir.global private constant @__constant_4xf32(dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]>
// CHECK-NEXT: llvm.mlir.global private constant @__constant_4xf32_1(dense<[5.000000e+00, 6.000000e+00, 7.000000e+00, 8.000000e+00]>
// CHECK-NEXT: llvm.mlir.global private constant @__constant_4xf32_2(dense<[9.000000e+00, 1.000000e+01, 1.100000e+01, 1.200000e+01]>

func.func @f1(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.add ins(%x, %c : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func @f2(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.constant dense<[5.0, 6.0, 7.0, 8.0]> : tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.add ins(%x, %c : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func @f3(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.constant dense<[9.0, 10.0, 11.0, 12.0]> : tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.add ins(%x, %c : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
