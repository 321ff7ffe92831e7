// RUN: not attic-opt %s --split-input-file --attic-cuda-pipeline="chip=sm_80 format=isa" 2>&1 | FileCheck %s
// Conversions between floats and integers wider than 64 bits in a kernel:
// NVPTX lowers them to compiler-rt calls it does not have, and LLVM
// aborted the process in gpu-module-to-binary (exit 70; a 2026-12-02
// audit). attic-gpu-check-libdevice refuses them first, at the user's op.

// CHECK: cuda-wide-conversions.mlir:[[@LINE+9]]:{{[0-9]+}}: error: 'llvm.sitofp' op converts between a float and i128 in kernel module 'to_float_kernel': the NVPTX backend converts integers of at most 64 bits
#map = affine_map<(d0) -> (d0)>
func.func @to_float(%x: tensor<64xi64>) -> tensor<64xf32> {
  %e = tensor.empty() : tensor<64xf32>
  %r = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%x : tensor<64xi64>) outs(%e : tensor<64xf32>) {
  ^bb0(%a: i64, %o: f32):
    %h = arith.extsi %a : i64 to i128
    %s = arith.constant 64 : i128
    %v = arith.shli %h, %s : i128
    %b = arith.sitofp %v : i128 to f32
    linalg.yield %b : f32
  } -> tensor<64xf32>
  return %r : tensor<64xf32>
}

// -----

// CHECK: cuda-wide-conversions.mlir:[[@LINE+6]]:{{[0-9]+}}: error: 'llvm.fptoui' op converts between a float and i128 in kernel module 'to_integer_kernel'
#map = affine_map<(d0) -> (d0)>
func.func @to_integer(%x: tensor<64xf32>) -> tensor<64xi64> {
  %e = tensor.empty() : tensor<64xi64>
  %r = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%x : tensor<64xf32>) outs(%e : tensor<64xi64>) {
  ^bb0(%a: f32, %o: i64):
    %v = arith.fptoui %a : f32 to i128
    %s = arith.constant 64 : i128
    %h = arith.shrui %v, %s : i128
    %t = arith.trunci %h : i128 to i64
    linalg.yield %t : i64
  } -> tensor<64xi64>
  return %r : tensor<64xi64>
}
