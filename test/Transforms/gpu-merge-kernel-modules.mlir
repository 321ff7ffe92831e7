// RUN: attic-opt %s --split-input-file --attic-gpu-merge-kernel-modules | FileCheck %s

// Three kernel modules, each kernel named @f_kernel in its own module (as
// gpu-kernel-outlining leaves them): one module; the moved kernels are
// named after their modules, and the launches follow. A global of the
// third module whose name the first has is renamed, with its use.

// CHECK-LABEL: func.func @f
// CHECK: gpu.launch_func @f_kernel::@f_kernel blocks
// CHECK: gpu.launch_func @f_kernel::@f_kernel_0 blocks
// CHECK: gpu.launch_func @f_kernel::@f_kernel_1 blocks
// CHECK: gpu.module @f_kernel {
// CHECK:   memref.global "private" @table : memref<4xf32> = dense<1.000000e+00>
// CHECK:   gpu.func @f_kernel(
// CHECK:     memref.get_global @table :
// CHECK:   gpu.func @f_kernel_0(
// CHECK:   memref.global "private" @[[T:table_[0-9]+]] : memref<4xf32> = dense<2.000000e+00>
// CHECK:   gpu.func @f_kernel_1(
// CHECK:     memref.get_global @[[T]] :
// CHECK-NOT: gpu.module
module attributes {gpu.container_module} {
  func.func @f(%a: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    gpu.launch_func @f_kernel::@f_kernel blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%a : memref<4xf32>)
    gpu.launch_func @f_kernel_0::@f_kernel blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%a : memref<4xf32>)
    gpu.launch_func @f_kernel_1::@f_kernel blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%a : memref<4xf32>)
    return
  }
  gpu.module @f_kernel {
    memref.global "private" @table : memref<4xf32> = dense<1.0>
    gpu.func @f_kernel(%m: memref<4xf32>) kernel {
      %t = gpu.thread_id x
      %g = memref.get_global @table : memref<4xf32>
      %x = memref.load %g[%t] : memref<4xf32>
      memref.store %x, %m[%t] : memref<4xf32>
      gpu.return
    }
  }
  gpu.module @f_kernel_0 {
    gpu.func @f_kernel(%m: memref<4xf32>) kernel {
      gpu.return
    }
  }
  gpu.module @f_kernel_1 {
    memref.global "private" @table : memref<4xf32> = dense<2.0>
    gpu.func @f_kernel(%m: memref<4xf32>) kernel {
      %t = gpu.thread_id x
      %g = memref.get_global @table : memref<4xf32>
      %x = memref.load %g[%t] : memref<4xf32>
      memref.store %x, %m[%t] : memref<4xf32>
      gpu.return
    }
  }
}

// -----

// Modules for different targets stay apart; a module with two kernels
// names them after itself and each kernel. The first module of each target
// keeps its kernels' names.

// CHECK-LABEL: func.func @g
// CHECK: gpu.launch_func @g_kernel::@g_kernel blocks
// CHECK: gpu.launch_func @g_sm90::@g_kernel blocks
// CHECK: gpu.launch_func @g_kernel::@g_two_a blocks
// CHECK: gpu.launch_func @g_kernel::@g_two_b blocks
// CHECK: gpu.module @g_kernel [#nvvm.target<chip = "sm_80">] {
// CHECK:   gpu.func @g_kernel(
// CHECK:   gpu.func @g_two_a(
// CHECK:   gpu.func @g_two_b(
// CHECK: gpu.module @g_sm90 [#nvvm.target<chip = "sm_90">] {
module attributes {gpu.container_module} {
  func.func @g(%a: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @g_kernel::@g_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<4xf32>)
    gpu.launch_func @g_sm90::@g_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<4xf32>)
    gpu.launch_func @g_two::@a blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<4xf32>)
    gpu.launch_func @g_two::@b blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<4xf32>)
    return
  }
  gpu.module @g_kernel [#nvvm.target<chip = "sm_80">] {
    gpu.func @g_kernel(%m: memref<4xf32>) kernel {
      gpu.return
    }
  }
  gpu.module @g_sm90 [#nvvm.target<chip = "sm_90">] {
    gpu.func @g_kernel(%m: memref<4xf32>) kernel {
      gpu.return
    }
  }
  gpu.module @g_two [#nvvm.target<chip = "sm_80">] {
    gpu.func @a(%m: memref<4xf32>) kernel {
      gpu.return
    }
    gpu.func @b(%m: memref<4xf32>) kernel {
      gpu.return
    }
  }
}
