// RUN: attic-opt %s --split-input-file --attic-gpu-check-libdevice="toolkit=/nonexistent" -verify-diagnostics | FileCheck %s

// Kernels that call no libdevice function need no toolkit.
// CHECK-LABEL: gpu.module @plain
gpu.module @plain {
  llvm.func @k(%x: f32) -> f32 {
    %y = llvm.fadd %x, %x : f32
    llvm.return %y : f32
  }
}

// -----

// expected-error @below {{kernel module 'calls' calls libdevice (__nv_expf, __nv_fmaxf), but /nonexistent/nvvm/libdevice/libdevice.10.bc does not exist: install the CUDA toolkit's nvvm/libdevice or pass toolkit=PATH to attic-cuda-pipeline}}
gpu.module @calls {
  llvm.func @__nv_fmaxf(f32, f32) -> f32
  llvm.func @__nv_expf(f32) -> f32
  llvm.func @k(%x: f32) -> f32 {
    %y = llvm.call @__nv_expf(%x) : (f32) -> f32
    %z = llvm.call @__nv_fmaxf(%x, %y) : (f32, f32) -> f32
    llvm.return %z : f32
  }
}
