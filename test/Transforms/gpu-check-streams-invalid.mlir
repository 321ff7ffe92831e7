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
  // expected-error @below {{'gpu.launch' op may run on the GPU at the same time as an earlier 'gpu.launch': both use argument #0, one writing it, and they are on two streams that no token or blocking gpu.wait orders}}
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
  // expected-error @below {{'memref.load' op uses the buffer of a 'memref.alloca' on the host while an earlier 'gpu.memcpy' may still be using it on the GPU, one of them writing it: no blocking gpu.wait on its stream comes before}}
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
  // expected-error @below {{'func.return' op returns while an earlier 'gpu.memcpy' may be pending on the GPU: no blocking gpu.wait on its stream comes before}}
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
  // expected-note @below {{the op that creates the stream}}
  %t0 = gpu.wait async
  // expected-error @below {{'func.return' op returns while a stream that a 'gpu.wait' created is live: no blocking gpu.wait synchronizes and destroys it}}
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

// -----

// A token of a stream that a wait on another of its tokens destroyed: the
// stream is the token's, not the token itself (gpu-to-llvm).
func.func @other_token_of_destroyed_stream(%d: memref<4xf32>, %e: memref<4xf32>) {
  %f = arith.constant 1.0 : f32
  %t0 = gpu.wait async
  %t1 = gpu.memset async [%t0] %d, %f : memref<4xf32>, f32
  // expected-note @below {{the blocking gpu.wait}}
  gpu.wait [%t1]
  // expected-error @below {{'gpu.memset' op uses async dependency #0, whose stream a blocking gpu.wait already synchronized and destroyed}}
  %t2 = gpu.memset async [%t0] %e, %f : memref<4xf32>, f32
  gpu.wait [%t2]
  return
}

// -----

// One stream synchronized and destroyed twice by one wait.
func.func @one_stream_twice(%d: memref<4xf32>) {
  %f = arith.constant 1.0 : f32
  %t0 = gpu.wait async
  %t1 = gpu.memset async [%t0] %d, %f : memref<4xf32>, f32
  // expected-error @below {{'gpu.wait' op uses async dependency #1, whose stream a blocking gpu.wait already synchronized and destroyed}}
  // expected-note @below {{the blocking gpu.wait}}
  gpu.wait [%t1, %t0]
  return
}

// -----

// The first iteration destroys the stream made before the loop; the
// second uses it.
func.func @loop_destroys_outer_stream(%d: memref<4xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  %t0 = gpu.wait async
  scf.for %i = %c0 to %n step %c1 {
    // expected-error @below {{'gpu.memset' op uses async dependency #0, whose stream a blocking gpu.wait already synchronized and destroyed}}
    %t1 = gpu.memset async [%t0] %d, %f : memref<4xf32>, f32
    // expected-note @below {{the blocking gpu.wait}}
    gpu.wait [%t1]
  }
  return
}

// -----

// A join waits for its dependencies' events but leaves their streams live.
func.func @join_leaves_streams(%d: memref<4xf32>, %e: memref<4xf32>) {
  %f = arith.constant 1.0 : f32
  // expected-note @below {{the op that creates the stream}}
  %t0 = gpu.wait async
  %t1 = gpu.memset async [%t0] %d, %f : memref<4xf32>, f32
  %u0 = gpu.wait async
  %u1 = gpu.memset async [%u0] %e, %f : memref<4xf32>, f32
  %j = gpu.wait async [%t1, %u1]
  gpu.wait [%j]
  // expected-error @below {{'func.return' op returns while a stream that a 'gpu.wait' created is live: no blocking gpu.wait synchronizes and destroys it}}
  return
}

// -----

// A host linalg op on a buffer a pending copy writes.
func.func @host_linalg(%h: memref<4xf32>, %d: memref<4xf32>, %o: memref<4xf32>) {
  %t0 = gpu.wait async
  // expected-note @below {{the earlier step}}
  %t1 = gpu.memcpy async [%t0] %h, %d : memref<4xf32>, memref<4xf32>
  // expected-error @below {{'linalg.copy' op uses argument #0 on the host while an earlier 'gpu.memcpy' may still be using it on the GPU}}
  linalg.copy ins(%h : memref<4xf32>) outs(%o : memref<4xf32>)
  gpu.wait [%t1]
  return
}

// -----

// A kernel writes through a select of two buffers: it may write either.
func.func @select_in_kernel(%c: i1, %a: memref<4xf32>, %b: memref<4xf32>, %h: memref<4xf32>, %n: index) {
  %c1 = arith.constant 1 : index
  %t0 = gpu.wait async
  // expected-note @below {{the earlier step}}
  %t1 = gpu.memcpy async [%t0] %h, %a : memref<4xf32>, memref<4xf32>
  %u0 = gpu.wait async
  // expected-error @below {{'gpu.launch' op may run on the GPU at the same time as an earlier 'gpu.memcpy': both use argument #1}}
  %u1 = gpu.launch async [%u0] blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1)
      threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %s = arith.select %c, %a, %b : memref<4xf32>
    %z = arith.constant 0.0 : f32
    memref.store %z, %s[%bx] : memref<4xf32>
    gpu.terminator
  }
  gpu.wait [%t1, %u1]
  return
}

// -----

// The host reads a buffer that may be the one a pending copy writes: a
// select, a region's result, another get_global of the same global.
func.func @host_select(%c: i1, %a: memref<4xf32>, %b: memref<4xf32>, %d: memref<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %t0 = gpu.wait async
  // expected-note @below {{the earlier step}}
  %t1 = gpu.memcpy async [%t0] %b, %d : memref<4xf32>, memref<4xf32>
  %s = arith.select %c, %a, %b : memref<4xf32>
  // expected-error @below {{'memref.load' op uses argument #2 on the host while an earlier 'gpu.memcpy' may still be using it}}
  %v = memref.load %s[%c0] : memref<4xf32>
  gpu.wait [%t1]
  return %v : f32
}

// -----

func.func @host_region_result(%c: i1, %a: memref<4xf32>, %b: memref<4xf32>, %d: memref<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %t0 = gpu.wait async
  // expected-note @below {{the earlier step}}
  %t1 = gpu.memcpy async [%t0] %a, %d : memref<4xf32>, memref<4xf32>
  %s = scf.if %c -> memref<4xf32> {
    scf.yield %a : memref<4xf32>
  } else {
    scf.yield %b : memref<4xf32>
  }
  // expected-error @below {{'memref.load' op uses argument #1 on the host while an earlier 'gpu.memcpy' may still be using it}}
  %v = memref.load %s[%c0] : memref<4xf32>
  gpu.wait [%t1]
  return %v : f32
}

// -----

memref.global "private" @g : memref<4xf32> = dense<0.0>
func.func @same_global(%d: memref<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %g1 = memref.get_global @g : memref<4xf32>
  %t0 = gpu.wait async
  // expected-note @below {{the earlier step}}
  %t1 = gpu.memcpy async [%t0] %g1, %d : memref<4xf32>, memref<4xf32>
  %g2 = memref.get_global @g : memref<4xf32>
  // expected-error @below {{'memref.load' op uses @g on the host while an earlier 'gpu.memcpy' may still be using it}}
  %v = memref.load %g2[%c0] : memref<4xf32>
  gpu.wait [%t1]
  return %v : f32
}

// -----

// The iterations of a host scf.parallel run at the same time: each one's
// copy into %d races the others', though each waits for its own.
func.func @parallel_iterations(%d: memref<4xf32>, %srcs: memref<?x4xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %s = memref.subview %srcs[%i, 0] [1, 4] [1, 1] : memref<?x4xf32> to memref<4xf32, strided<[1], offset: ?>>
    %t0 = gpu.wait async
    // expected-error @below {{'gpu.memcpy' op may run on the GPU at the same time as an earlier 'gpu.memcpy': both use argument #0}}
    // expected-note @below {{the earlier step}}
    %t1 = gpu.memcpy async [%t0] %d, %s : memref<4xf32>, memref<4xf32, strided<[1], offset: ?>>
    gpu.wait [%t1]
    scf.reduce
  }
  return
}

// -----

// Unstructured control flow is not followed: a warning, and no verdict.
// expected-warning @below {{attic-gpu-check-streams does not check host code with several blocks (unstructured control flow); @branches is not checked}}
func.func @branches(%c: i1, %d: memref<4xf32>) {
  %f = arith.constant 1.0 : f32
  %t0 = gpu.wait async
  %t1 = gpu.memset async [%t0] %d, %f : memref<4xf32>, f32
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  gpu.wait [%t1]
  return
^bb2:
  return
}

// -----

// A token through a loop's iteration arguments: scf-to-cf makes it a block
// argument, which gpu-to-llvm lowers as an event, not as its stream (the
// wait after the loop would synchronize the wrong object).
func.func @token_through_loop(%d: memref<4xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  %t0 = gpu.wait async
  // expected-error @below {{'scf.for' op passes an async token through its results: gpu-to-llvm (MLIR 22) lowers a token that reaches a block argument as an event, not as its stream, so a wait on it synchronizes the wrong object; keep a stream's steps and their wait in one region}}
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%t = %t0) -> (!gpu.async.token) {
    %t1 = gpu.memset async [%t] %d, %f : memref<4xf32>, f32
    scf.yield %t1 : !gpu.async.token
  }
  gpu.wait [%r]
  return
}

// -----

// expected-error @below {{'func.func' op takes an async token: gpu-to-llvm (MLIR 22) lowers a token argument as an event, not as a stream, so a wait on it synchronizes the wrong object}}
func.func @token_argument(%t: !gpu.async.token, %d: memref<4xf32>) {
  %f = arith.constant 1.0 : f32
  %t1 = gpu.memset async [%t] %d, %f : memref<4xf32>, f32
  gpu.wait [%t1]
  return
}

// -----

// A copy with two dependencies: gpu-to-llvm leaves it unconverted.
func.func @two_dependencies(%d: memref<4xf32>, %e: memref<4xf32>, %h: memref<4xf32>) {
  %f = arith.constant 1.0 : f32
  %t0 = gpu.wait async
  %u0 = gpu.wait async
  %u1 = gpu.memset async [%u0] %e, %f : memref<4xf32>, f32
  // expected-error @below {{'gpu.memcpy' op has 2 async dependencies; gpu-to-llvm lowers a step with one: join them with gpu.wait async first}}
  %t1 = gpu.memcpy async [%t0, %u1] %h, %d : memref<4xf32>, memref<4xf32>
  gpu.wait [%t1, %u1]
  return
}

// -----

// Buffers through scf.while's arguments and results, and through
// memref.alloca_scope's result.
func.func @while_result(%d: memref<4xf32>, %h: memref<4xf32>, %c: i1) -> f32 {
  %c0 = arith.constant 0 : index
  %t0 = gpu.wait async
  // expected-note @below {{the earlier step}}
  %t1 = gpu.memcpy async [%t0] %h, %d : memref<4xf32>, memref<4xf32>
  %r = scf.while (%m = %h) : (memref<4xf32>) -> memref<4xf32> {
    scf.condition(%c) %m : memref<4xf32>
  } do {
  ^bb0(%m2: memref<4xf32>):
    scf.yield %m2 : memref<4xf32>
  }
  // expected-error @below {{'memref.load' op uses argument #1 on the host while an earlier 'gpu.memcpy' may still be using it}}
  %v = memref.load %r[%c0] : memref<4xf32>
  gpu.wait [%t1]
  return %v : f32
}

// -----

func.func @alloca_scope_result(%d: memref<4xf32>, %h: memref<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %t0 = gpu.wait async
  // expected-note @below {{the earlier step}}
  %t1 = gpu.memcpy async [%t0] %h, %d : memref<4xf32>, memref<4xf32>
  %r = memref.alloca_scope -> (memref<4xf32>) {
    memref.alloca_scope.return %h : memref<4xf32>
  }
  // expected-error @below {{'memref.load' op uses argument #1 on the host while an earlier 'gpu.memcpy' may still be using it}}
  %v = memref.load %r[%c0] : memref<4xf32>
  gpu.wait [%t1]
  return %v : f32
}

// -----

// A buffer through a loop's iteration argument: the second iteration
// writes what the first yields (%b), which a kernel on another stream
// reads.
func.func @loop_rotates_buffer(%a: memref<64xf32>, %b: memref<64xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %u0 = gpu.wait async
  // expected-note @below {{the earlier step}}
  %u1 = gpu.launch async [%u0] blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1)
      threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %v = memref.load %b[%bx] : memref<64xf32>
    gpu.terminator
  }
  %r = scf.for %i = %c0 to %c2 step %c1 iter_args(%x = %a) -> (memref<64xf32>) {
    %t0 = gpu.wait async
    // expected-error @below {{'gpu.launch' op may run on the GPU at the same time as an earlier 'gpu.launch': both use argument #1}}
    %t1 = gpu.launch async [%t0] blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1)
        threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      %v = arith.constant 1.0 : f32
      memref.store %v, %x[%bx] : memref<64xf32>
      gpu.terminator
    }
    gpu.wait [%t1]
    scf.yield %b : memref<64xf32>
  }
  gpu.wait [%u1]
  return
}

// -----

// A loop of no iteration returns its initial value.
func.func @loop_zero_trips(%a: memref<64xf32>, %b: memref<64xf32>, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  %u0 = gpu.wait async
  // expected-note @below {{the earlier step}}
  %u1 = gpu.memset async [%u0] %a, %f : memref<64xf32>, f32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%x = %a) -> (memref<64xf32>) {
    scf.yield %b : memref<64xf32>
  }
  // expected-error @below {{'memref.load' op uses argument #0 on the host while an earlier 'gpu.memset' may still be using it}}
  %v = memref.load %r[%c0] : memref<64xf32>
  gpu.wait [%u1]
  return %v : f32
}

// -----

// A join in a loop on a token from before it: gpu-to-llvm records the
// event once and destroys it in the first iteration.
func.func @join_in_loop(%d: memref<64xf32>, %e: memref<64xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  %t0 = gpu.wait async
  %t1 = gpu.memset async [%t0] %d, %f : memref<64xf32>, f32
  scf.for %i = %c0 to %n step %c1 {
    // expected-error @below {{'gpu.wait' op joins a token from outside the enclosing 'scf.for': gpu-to-llvm records its event once, after the token's op, and destroys it in the first iteration; join outside the loop}}
    %j = gpu.wait async [%t1]
    %k = gpu.memcpy async [%j] %e, %d : memref<64xf32>, memref<64xf32>
    gpu.wait [%k]
  }
  gpu.wait [%t1]
  return
}

// -----

// A token that no gpu op made: gpu-to-llvm takes it as an event.
func.func @selected_token(%d: memref<64xf32>, %c: i1) {
  %f = arith.constant 1.0 : f32
  %a0 = gpu.wait async
  %b0 = gpu.wait async
  %s = arith.select %c, %a0, %b0 : !gpu.async.token
  // expected-error @below {{'gpu.memset' op uses async dependency #0, a token of 'arith.select', not of a gpu op: gpu-to-llvm (MLIR 22) lowers it as an event, not as a stream, so a wait on it synchronizes the wrong object}}
  %t1 = gpu.memset async [%s] %d, %f : memref<64xf32>, f32
  gpu.wait [%t1]
  gpu.wait [%a0, %b0]
  return
}

// -----

// Forms gpu-to-llvm leaves unconverted.
func.func @async_without_dependency(%d: memref<64xf32>) {
  %f = arith.constant 1.0 : f32
  // expected-error @below {{'gpu.memset' op is async without a dependency; gpu-to-llvm lowers an async step with one (start a stream with gpu.wait async)}}
  %t1 = gpu.memset async %d, %f : memref<64xf32>, f32
  gpu.wait [%t1]
  return
}

// -----

module attributes {gpu.container_module} {
gpu.module @kernels {
  gpu.func @k(%a: memref<4xf32>) kernel {
    gpu.return
  }
}
func.func @dependencies_without_token(%d: memref<4xf32>, %n: index) {
  %c1 = arith.constant 1 : index
  %t0 = gpu.wait async
  // expected-error @below {{'gpu.launch_func' op has async dependencies but no async token; gpu-to-llvm does not lower it (write it async, or wait for the dependencies first)}}
  gpu.launch_func [%t0] @kernels::@k blocks in (%n, %c1, %c1) threads in (%c1, %c1, %c1) args(%d : memref<4xf32>)
  gpu.wait [%t0]
  return
}
}

// -----

// A buffer of the iteration joined with a shared one (a select) is not the
// iteration's own: the read of %d races the other iteration's memset.
func.func @parallel_select_shared(%d: memref<64xf32>, %c: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %f = arith.constant 1.0 : f32
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    %h = memref.alloc() : memref<64xf32>
    %b = arith.select %c, %h, %d : memref<64xf32>
    // expected-error @below {{'memref.load' op uses argument #0 on the host while an earlier 'gpu.memset' may still be using it on the GPU}}
    %v = memref.load %b[%i] : memref<64xf32>
    %t0 = gpu.wait async
    // expected-note @below {{the earlier step}}
    %t1 = gpu.memset async [%t0] %d, %f : memref<64xf32>, f32
    gpu.wait [%t1]
    memref.dealloc %h : memref<64xf32>
    scf.reduce
  }
  return
}

// -----

// An scf.parallel of no iteration returns its initial value.
func.func @parallel_zero_trips(%a: memref<64xf32>, %b: memref<64xf32>, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  %u0 = gpu.wait async
  // expected-note @below {{the earlier step}}
  %u1 = gpu.memset async [%u0] %a, %f : memref<64xf32>, f32
  %r = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%a) -> memref<64xf32> {
    scf.reduce(%b : memref<64xf32>) {
    ^bb0(%l: memref<64xf32>, %rr: memref<64xf32>):
      scf.reduce.return %rr : memref<64xf32>
    }
  }
  // expected-error @below {{'memref.load' op uses argument #0 on the host while an earlier 'gpu.memset' may still be using it}}
  %v = memref.load %r[%c0] : memref<64xf32>
  gpu.wait [%u1]
  return %v : f32
}
