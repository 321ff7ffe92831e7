// The runtime side of --target=cuda on upstream's own GPU lowering (no attic
// kernel involved): gpu.alloc/memcpy/launch_func/dealloc/wait become mgpu*
// calls and a gpu.binary (PTX here, a fatbin with the toolkit) that the JIT
// links against attic's runtime. With the fake driver the kernel load fails
// cleanly; with the no-op fake the host code runs to the end (the kernel does
// nothing, so the result is the input); on a GPU the kernel doubles x.
// REQUIRES: fake-cuda-driver, numpy

// RUN: env ATTIC_CUDA_DRIVER=%fake_cuda_driver ATTIC_FAKE_CUDA_MODE=device not attic-run %s --target=cuda --cuda-pipeline='one-shot-bufferize{bufferize-function-boundaries},gpu-lower-to-nvvm-pipeline{cubin-chip=sm_80 cubin-features=+ptx80 cubin-format=isa}' 2>&1 | FileCheck %s --check-prefix=PTX
// PTX: attic-run: error: loading the CUDA kernels failed: mgpuModuleLoadJIT: cuModuleLoadDataEx (PTX JIT) failed: CUDA_ERROR_INVALID_PTX (a PTX JIT compilation failed): ptxas fatal: the fake driver compiles no PTX

// RUN: %python -c "import numpy as np; np.save('%t.x.npy', np.arange(16, dtype=np.float32))"
// RUN: env ATTIC_CUDA_DRIVER=%fake_cuda_driver ATTIC_FAKE_CUDA_MODE=device-noop-kernels attic-run %s --target=cuda --input=%t.x.npy --output=%t.y.npy --cuda-pipeline='one-shot-bufferize{bufferize-function-boundaries},gpu-lower-to-nvvm-pipeline{cubin-chip=sm_80 cubin-features=+ptx80 cubin-format=isa}' | FileCheck %s --check-prefix=NOOP
// NOOP: @twice: compiled for attic fake CUDA device (8.0, sm_80)
// RUN: %python -c "import numpy as np; y = np.load('%t.y.npy'); assert (y == np.arange(16, dtype=np.float32)).all(), y"

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @twice(%arg0: memref<16xf32>) kernel {
      %tid = gpu.thread_id x
      %v = memref.load %arg0[%tid] : memref<16xf32>
      %r = arith.addf %v, %v : f32
      memref.store %r, %arg0[%tid] : memref<16xf32>
      gpu.return
    }
  }
  func.func @twice(%x: tensor<16xf32>) -> tensor<16xf32> {
    %h = bufferization.to_buffer %x : tensor<16xf32> to memref<16xf32>
    %out = memref.alloc() : memref<16xf32>
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %t0 = gpu.wait async
    %d, %t1 = gpu.alloc async [%t0] () : memref<16xf32>
    %t2 = gpu.memcpy async [%t1] %d, %h : memref<16xf32>, memref<16xf32>
    %t3 = gpu.launch_func async [%t2] @kernels::@twice blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%d : memref<16xf32>)
    %t4 = gpu.memcpy async [%t3] %out, %d : memref<16xf32>, memref<16xf32>
    %t5 = gpu.dealloc async [%t4] %d : memref<16xf32>
    gpu.wait [%t5]
    %r = bufferization.to_tensor %out restrict : memref<16xf32> to tensor<16xf32>
    return %r : tensor<16xf32>
  }
}
