// Host code that calls a function nobody provides: a clear one-line error
// before the JIT runs anything (not ORC's materialization failure, and the
// kernels are never left silently unloaded).
// REQUIRES: fake-cuda-driver
// RUN: env ATTIC_CUDA_DRIVER=%fake_cuda_driver ATTIC_FAKE_CUDA_MODE=device-noop-kernels not attic-run %s --target=cuda --cuda-pipeline='one-shot-bufferize{bufferize-function-boundaries},gpu-lower-to-nvvm-pipeline{cubin-chip=sm_80 cubin-features=+ptx80 cubin-format=isa}' 2>&1 | FileCheck %s
// CHECK-NOT: JIT session error
// CHECK: attic-run: error: the CUDA host code calls @attic_no_such_runtime_function, which neither attic's runtime nor the process provides
// CHECK-NOT: compiled

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @nothing() kernel {
      gpu.return
    }
  }
  func.func private @attic_no_such_runtime_function()
  func.func @call_unknown(%x: tensor<16xf32>) -> tensor<16xf32> {
    func.call @attic_no_such_runtime_function() : () -> ()
    %c1 = arith.constant 1 : index
    %t0 = gpu.wait async
    %t1 = gpu.launch_func async [%t0] @kernels::@nothing blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.wait [%t1]
    return %x : tensor<16xf32>
  }
}
