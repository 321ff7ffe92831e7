// RUN: attic-opt %s --split-input-file --attic-gpu-check-streams -verify-diagnostics

// attic-gpu-check-streams: GPU steps that share a buffer, one of them
// writing it, must be ordered by async tokens or a blocking gpu.wait; the
// host waits before it touches what a step uses; no token is used after
// its stream was destroyed; nothing is pending at the return.

// The second kernel starts a stream of its own and writes the buffer that
// the first one (on another stream) reads.
func.func @two_streams(%d: memref<64xf32>, %n: index) {
  %c1 = arith.constant 1 : index
  %t0 = gpu.wait async
  // expected-note @below {{the earlier step}}
  %t2 = gpu.launch async [%t0] blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1)
      threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %v = memref.load %d[%bx] : memref<64xf32>
    gpu.terminator
  }
  %u0 = gpu.wait async
  // expected-error @below {{'gpu.launch' op may run on the GPU at the same time as an earlier 'gpu.launch': both use argument #0, one writing it, and no async token or blocking gpu.wait orders them}}
  %u1 = gpu.launch async [%u0] blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1)
      threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %zero = arith.constant 0.0 : f32
    memref.store %zero, %d[%bx] : memref<64xf32>
    gpu.terminator
  }
  gpu.wait [%t2, %u1]
  return
}

// -----

// A copy into a device buffer and a kernel that reads it on another stream.
func.func @copy_then_kernel(%in: memref<64xf32>, %d: memref<64xf32>, %n: index) {
  %c1 = arith.constant 1 : index
  %t0 = gpu.wait async
  // expected-note @below {{the earlier step}}
  %t2 = gpu.memcpy async [%t0] %d, %in : memref<64xf32>, memref<64xf32>
  %u0 = gpu.wait async
  // expected-error @below {{'gpu.launch' op may run on the GPU at the same time as an earlier 'gpu.memcpy': both use argument #1}}
  %u1 = gpu.launch async [%u0] blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1)
      threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %sub = memref.subview %d[0] [32] [1] : memref<64xf32> to memref<32xf32, strided<[1]>>
    %v = memref.load %sub[%bx] : memref<32xf32, strided<[1]>>
    gpu.terminator
  }
  gpu.wait [%t2, %u1]
  return
}

// -----

// The host reads the error record that a pending copy writes.
func.func @host_read_before_wait(%d: memref<1xi32>) -> i32 {
  %c0 = arith.constant 0 : index
  %rec = memref.alloca() : memref<1xi32>
  %t0 = gpu.wait async
  // expected-note @below {{the earlier step}}
  %t1 = gpu.memcpy async [%t0] %rec, %d : memref<1xi32>, memref<1xi32>
  // expected-error @below {{'memref.load' op uses the buffer of a 'memref.alloca' on the host while an earlier 'gpu.memcpy' may still be using it on the GPU, one of them writing it: no blocking gpu.wait on its token comes before}}
  %v = memref.load %rec[%c0] : memref<1xi32>
  gpu.wait [%t1]
  return %v : i32
}

// -----

// The copy back into the argument is not waited for.
func.func @return_pending(%out: memref<4xf32>, %d: memref<4xf32>) {
  %t0 = gpu.wait async
  // expected-note @below {{the pending step}}
  %t1 = gpu.memcpy async [%t0] %out, %d : memref<4xf32>, memref<4xf32>
  // expected-error @below {{'func.return' op returns while an earlier 'gpu.memcpy' may be pending on the GPU: no blocking gpu.wait on its token comes before (its stream stays live)}}
  return
}

// -----

// A token whose stream the blocking wait destroyed.
func.func @destroyed_token(%d: memref<4xf32>) {
  %f = arith.constant 1.0 : f32
  %t0 = gpu.wait async
  %t1 = gpu.memset async [%t0] %d, %f : memref<4xf32>, f32
  // expected-note @below {{the blocking gpu.wait}}
  gpu.wait [%t1]
  // expected-error @below {{'gpu.dealloc' op uses async dependency #0, whose stream a blocking gpu.wait already synchronized and destroyed}}
  %t2 = gpu.dealloc async [%t1] %d : memref<4xf32>
  gpu.wait [%t2]
  return
}

// -----

// Only one path of the scf.if waits: the step may be pending at the read.
func.func @one_path_waits(%c: i1, %d: memref<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %h = memref.alloc() : memref<4xf32>
  %t0 = gpu.wait async
  // expected-note @below {{the earlier step}}
  %t1 = gpu.memcpy async [%t0] %h, %d : memref<4xf32>, memref<4xf32>
  scf.if %c {
    gpu.wait [%t1]
  }
  // expected-error @below {{'memref.load' op uses the buffer of a 'memref.alloc' on the host while an earlier 'gpu.memcpy' may still be using it}}
  %v = memref.load %h[%c0] : memref<4xf32>
  return %v : f32
}

// -----

// Each iteration writes the buffer on a stream of its own and waits for
// all of them only after the loop: the second iteration races the first.
func.func @loop_streams(%d: memref<4xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  scf.for %i = %c0 to %n step %c1 {
    %t0 = gpu.wait async
    // expected-error @below {{'gpu.memset' op may run on the GPU at the same time as an earlier 'gpu.memset': both use argument #0}}
    // expected-note @below {{the earlier step}}
    %t1 = gpu.memset async [%t0] %d, %f : memref<4xf32>, f32
  }
  gpu.wait
  return
}

// -----

// A buffer from a stream-ordered allocation used on another stream before
// the allocation is known to be done.
func.func @alloc_other_stream(%in: memref<64xf32>) {
  %t0 = gpu.wait async
  // expected-note @below {{the earlier step}}
  %d, %t1 = gpu.alloc async [%t0] () : memref<64xf32>
  %u0 = gpu.wait async
  // expected-error @below {{'gpu.memcpy' op may run on the GPU at the same time as an earlier 'gpu.alloc': both use the buffer of a 'gpu.alloc'}}
  %u1 = gpu.memcpy async [%u0] %d, %in : memref<64xf32>, memref<64xf32>
  gpu.wait [%t1, %u1]
  return
}

// -----

// A stream created and never synchronized.
func.func @stream_left_live() {
  // expected-note @below {{the stream's gpu.wait async}}
  %t0 = gpu.wait async
  // expected-error @below {{'func.return' op returns while a stream that a 'gpu.wait async' created is live: no blocking gpu.wait synchronizes and destroys it}}
  return
}

// -----

// A TMA descriptor stands for its tensor's buffer: the kernel that loads
// through it reads the buffer that a copy on another stream writes.
func.func @tma_descriptor(%in: memref<128x64xf16>, %d: memref<128x64xf16>, %n: index) {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %t0 = gpu.wait async
  // expected-note @below {{the earlier step}}
  %t2 = gpu.memcpy async [%t0] %d, %in : memref<128x64xf16>, memref<128x64xf16>
  %u = memref.cast %d : memref<128x64xf16> to memref<*xf16>
  %desc = nvgpu.tma.create.descriptor %u box[%c128, %c64] : memref<*xf16> -> !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
  %v0 = gpu.wait async
  // expected-error @below {{'gpu.launch' op may run on the GPU at the same time as an earlier 'gpu.memcpy': both use argument #1}}
  %v1 = gpu.launch async [%v0] blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1)
      threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    nvgpu.tma.prefetch.descriptor %desc : !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
    gpu.terminator
  }
  gpu.wait [%t2, %v1]
  return
}

// -----

// An outlined kernel on a stream of its own, and a free of its argument.
module attributes {gpu.container_module} {
gpu.module @kernels {
  gpu.func @k(%a: memref<4xf32>) kernel {
    gpu.return
  }
}
func.func @launch_func_then_free(%d: memref<4xf32>, %n: index) {
  %c1 = arith.constant 1 : index
  %t0 = gpu.wait async
  // expected-note @below {{the earlier step}}
  %t2 = gpu.launch_func async [%t0] @kernels::@k blocks in (%n, %c1, %c1) threads in (%c1, %c1, %c1) args(%d : memref<4xf32>)
  %u0 = gpu.wait async
  // expected-error @below {{'gpu.dealloc' op may run on the GPU at the same time as an earlier 'gpu.launch_func'}}
  %u1 = gpu.dealloc async [%u0] %d : memref<4xf32>
  gpu.wait [%t2, %u1]
  return
}
}
