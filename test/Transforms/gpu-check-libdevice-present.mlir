// REQUIRES: libdevice
// RUN: attic-opt %s --attic-gpu-check-libdevice | FileCheck %s

// With the default toolkit's libdevice, calls of it are fine.
// CHECK: gpu.module @calls
gpu.module @calls {
  llvm.func @__nv_expf(f32) -> f32
}
