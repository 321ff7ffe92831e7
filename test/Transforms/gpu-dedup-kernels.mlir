// RUN: attic-opt %s --split-input-file --attic-gpu-dedup-kernels | FileCheck %s

// Three launches of two distinct kernels: @f_kernel_0 has the ops of
// @f_kernel and goes; @f_kernel_1 differs in a constant and stays. The
// launches name the kept modules.

// CHECK-LABEL: func.func @f
// CHECK: gpu.launch_func @f_kernel::@f_kernel
// CHECK: gpu.launch_func @f_kernel::@f_kernel
// CHECK: gpu.launch_func @f_kernel_1::@f_kernel
// CHECK: gpu.module @f_kernel
// CHECK-NOT: gpu.module @f_kernel_0
// CHECK: gpu.module @f_kernel_1
// CHECK: arith.constant 2.000000e+00
module attributes {gpu.container_module} {
  func.func @f(%a: memref<4xf32>, %b: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    gpu.launch_func @f_kernel::@f_kernel blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%a : memref<4xf32>)
    gpu.launch_func @f_kernel_0::@f_kernel blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%b : memref<4xf32>)
    gpu.launch_func @f_kernel_1::@f_kernel blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%a : memref<4xf32>)
    return
  }
  gpu.module @f_kernel {
    gpu.func @f_kernel(%m: memref<4xf32>) kernel {
      %t = gpu.thread_id x
      %one = arith.constant 1.0 : f32
      memref.store %one, %m[%t] : memref<4xf32>
      gpu.return
    }
  }
  gpu.module @f_kernel_0 {
    gpu.func @f_kernel(%m: memref<4xf32>) kernel {
      %t = gpu.thread_id x
      %one = arith.constant 1.0 : f32
      memref.store %one, %m[%t] : memref<4xf32>
      gpu.return
    }
  }
  gpu.module @f_kernel_1 {
    gpu.func @f_kernel(%m: memref<4xf32>) kernel {
      %t = gpu.thread_id x
      %two = arith.constant 2.0 : f32
      memref.store %two, %m[%t] : memref<4xf32>
      gpu.return
    }
  }
}

// -----

// Equal ops for different targets (or other module attributes) stay apart.

// CHECK-LABEL: func.func @g
// CHECK: gpu.launch_func @g_kernel::@g_kernel
// CHECK: gpu.launch_func @g_kernel_0::@g_kernel
// CHECK: gpu.module @g_kernel [#nvvm.target<chip = "sm_80">]
// CHECK: gpu.module @g_kernel_0 [#nvvm.target<chip = "sm_90">]
module attributes {gpu.container_module} {
  func.func @g(%a: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @g_kernel::@g_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<4xf32>)
    gpu.launch_func @g_kernel_0::@g_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<4xf32>)
    return
  }
  gpu.module @g_kernel [#nvvm.target<chip = "sm_80">] {
    gpu.func @g_kernel(%m: memref<4xf32>) kernel {
      gpu.return
    }
  }
  gpu.module @g_kernel_0 [#nvvm.target<chip = "sm_90">] {
    gpu.func @g_kernel(%m: memref<4xf32>) kernel {
      gpu.return
    }
  }
}

// -----

// Kernels that differ only in their own names are not equal (a reference
// to a kernel by another name would not resolve in the kept module).

// CHECK-LABEL: func.func @h
// CHECK: gpu.launch_func @h_a::@a
// CHECK: gpu.launch_func @h_b::@b
module attributes {gpu.container_module} {
  func.func @h(%a: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @h_a::@a blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<4xf32>)
    gpu.launch_func @h_b::@b blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<4xf32>)
    return
  }
  gpu.module @h_a {
    gpu.func @a(%m: memref<4xf32>) kernel {
      gpu.return
    }
  }
  gpu.module @h_b {
    gpu.func @b(%m: memref<4xf32>) kernel {
      gpu.return
    }
  }
}
