// RUN: attic-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(attic-nvvm-extern-dynamic-shared))' | FileCheck %s

// The dynamic shared memory symbol of convert-gpu-to-nvvm (an internal
// zero-length array in address space 3) becomes external, which the NVPTX
// backend prints as `.extern .shared .align 16 .b8 __dynamic_shmem__0[]`;
// static shared arrays, zero-length arrays in other address spaces and
// globals of the host module are left alone.
// CHECK-LABEL: gpu.module @kernels
// CHECK: llvm.mlir.global external @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
// CHECK: llvm.mlir.global internal @static_tile() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<64 x f32>
// CHECK: llvm.mlir.global internal @empty_global() {addr_space = 1 : i32} : !llvm.array<0 x i8>
// CHECK: llvm.mlir.global internal @host_empty() {addr_space = 3 : i32} : !llvm.array<0 x i8>
module attributes {gpu.container_module} {
  gpu.module @kernels {
    llvm.mlir.global internal @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
    llvm.mlir.global internal @static_tile() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<64 x f32>
    llvm.mlir.global internal @empty_global() {addr_space = 1 : i32} : !llvm.array<0 x i8>
  }
  llvm.mlir.global internal @host_empty() {addr_space = 3 : i32} : !llvm.array<0 x i8>
}
