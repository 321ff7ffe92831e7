// RUN: attic-opt %s --split-input-file --attic-gpu-check-streams | FileCheck %s

// attic-gpu-check-streams accepts ordered steps and changes nothing. Its
// errors are in gpu-check-streams-invalid.mlir; every CUDA input of the
// test suite runs it as part of the CUDA pipelines.

// One chain, as attic-gpu-merge-chains leaves it: the steps follow each
// other's tokens and one blocking wait ends them before the return.
// CHECK-LABEL: func.func @one_chain
// CHECK: gpu.alloc async
// CHECK: gpu.memcpy async
// CHECK: gpu.launch async
// CHECK: gpu.memcpy async
// CHECK: gpu.dealloc async
// CHECK: gpu.wait [
// CHECK-NEXT: return
func.func @one_chain(%in: memref<64xf32>, %n: index) -> memref<64xf32> {
  %c1 = arith.constant 1 : index
  %t0 = gpu.wait async
  %d, %t1 = gpu.alloc async [%t0] () : memref<64xf32>
  %t2 = gpu.memcpy async [%t1] %d, %in : memref<64xf32>, memref<64xf32>
  %t3 = gpu.launch async [%t2] blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1)
      threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %v = memref.load %d[%bx] : memref<64xf32>
    %w = arith.addf %v, %v : f32
    memref.store %w, %d[%bx] : memref<64xf32>
    gpu.terminator
  }
  %h = memref.alloc() : memref<64xf32>
  %t4 = gpu.memcpy async [%t3] %h, %d : memref<64xf32>, memref<64xf32>
  %t5 = gpu.dealloc async [%t4] %d : memref<64xf32>
  gpu.wait [%t5]
  return %h : memref<64xf32>
}

// -----

// A chain per step, each ended by a blocking wait (merge-chains=false):
// the host orders them. The host reads the copied-back record after its
// wait.
// CHECK-LABEL: func.func @chain_per_step
func.func @chain_per_step(%d: memref<1xi32>, %n: index) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t0 = gpu.wait async
  %t1 = gpu.launch async [%t0] blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1)
      threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %one = arith.constant 1 : i32
    memref.store %one, %d[%c0] : memref<1xi32>
    gpu.terminator
  }
  gpu.wait [%t1]
  %rec = memref.alloca() : memref<1xi32>
  %u0 = gpu.wait async
  %u1 = gpu.memcpy async [%u0] %rec, %d : memref<1xi32>, memref<1xi32>
  gpu.wait [%u1]
  %v = memref.load %rec[%c0] : memref<1xi32>
  return %v : i32
}

// -----

// Two kernels that only read one buffer may run at the same time; a join
// (gpu.wait async with two dependencies) orders the free after both. The
// join leaves the two streams live: the last wait destroys them.
// CHECK-LABEL: func.func @concurrent_reads
func.func @concurrent_reads(%d: memref<64xf32>, %a: memref<64xf32>, %b: memref<64xf32>, %n: index) {
  %c1 = arith.constant 1 : index
  %t0 = gpu.wait async
  %t1 = gpu.launch async [%t0] blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1)
      threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %v = memref.load %d[%bx] : memref<64xf32>
    memref.store %v, %a[%bx] : memref<64xf32>
    gpu.terminator
  }
  %u0 = gpu.wait async
  %u1 = gpu.launch async [%u0] blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1)
      threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %sub = memref.subview %d[0] [32] [1] : memref<64xf32> to memref<32xf32, strided<[1]>>
    %v = memref.load %sub[%bx] : memref<32xf32, strided<[1]>>
    memref.store %v, %b[%bx] : memref<64xf32>
    gpu.terminator
  }
  %j = gpu.wait async [%t1, %u1]
  %f = gpu.dealloc async [%j] %d : memref<64xf32>
  gpu.wait [%f, %t1, %u1]
  return
}

// -----

// Waits on both paths of an scf.if, and a step in one path that the same
// path waits for: nothing is pending after it.
// CHECK-LABEL: func.func @both_paths_wait
func.func @both_paths_wait(%c: i1, %d: memref<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.0 : f32
  %h = memref.alloc() : memref<4xf32>
  %t0 = gpu.wait async
  %t1 = gpu.memcpy async [%t0] %h, %d : memref<4xf32>, memref<4xf32>
  scf.if %c {
    %t2 = gpu.memset async [%t1] %d, %f : memref<4xf32>, f32
    gpu.wait [%t2]
  } else {
    gpu.wait [%t1]
  }
  %v = memref.load %h[%c0] : memref<4xf32>
  return %v : f32
}

// -----

// Each iteration of a loop is one chain that it waits for.
// CHECK-LABEL: func.func @loop_of_chains
func.func @loop_of_chains(%d: memref<4xf32>, %h: memref<4xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  scf.for %i = %c0 to %n step %c1 {
    %t0 = gpu.wait async
    %t1 = gpu.memset async [%t0] %d, %f : memref<4xf32>, f32
    %t2 = gpu.memcpy async [%t1] %h, %d : memref<4xf32>, memref<4xf32>
    gpu.wait [%t2]
    %v = memref.load %h[%c0] : memref<4xf32>
  }
  return
}

// -----

// Steps on one stream run in the order they are issued, whichever token
// they name; a blocking wait synchronizes the whole stream (the memset
// issued after the copy too).
// CHECK-LABEL: func.func @one_stream
func.func @one_stream(%d: memref<4xf32>, %e: memref<4xf32>, %h: memref<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.0 : f32
  %t0 = gpu.wait async
  %t1 = gpu.memset async [%t0] %d, %f : memref<4xf32>, f32
  %t2 = gpu.memcpy async [%t0] %h, %d : memref<4xf32>, memref<4xf32>
  %t3 = gpu.memset async [%t2] %e, %f : memref<4xf32>, f32
  gpu.wait [%t2]
  %v = memref.load %h[%c0] : memref<4xf32>
  return %v : f32
}

// -----

// scf.index_switch runs one case, scf.execute_region and
// memref.alloca_scope run once: each waits once on every path.
// CHECK-LABEL: func.func @run_once_regions
func.func @run_once_regions(%k: index, %d: memref<4xf32>) {
  %f = arith.constant 1.0 : f32
  %t0 = gpu.wait async
  %t1 = gpu.memset async [%t0] %d, %f : memref<4xf32>, f32
  scf.index_switch %k
  case 0 {
    gpu.wait [%t1]
    scf.yield
  }
  default {
    gpu.wait [%t1]
    scf.yield
  }
  %u0 = gpu.wait async
  %u1 = gpu.memset async [%u0] %d, %f : memref<4xf32>, f32
  scf.execute_region {
    gpu.wait [%u1]
    scf.yield
  }
  %v0 = gpu.wait async
  %v1 = gpu.memset async [%v0] %d, %f : memref<4xf32>, f32
  memref.alloca_scope {
    gpu.wait [%v1]
  }
  return
}

// -----

// Each iteration of an scf.parallel copies into a buffer of its own.
// CHECK-LABEL: func.func @parallel_private_buffers
func.func @parallel_private_buffers(%d: memref<64xf32>, %out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    %h = memref.alloc() : memref<64xf32>
    %t0 = gpu.wait async
    %t1 = gpu.memcpy async [%t0] %h, %d : memref<64xf32>, memref<64xf32>
    gpu.wait [%t1]
    %v = memref.load %h[%i] : memref<64xf32>
    memref.store %v, %out[%i] : memref<4xf32>
    memref.dealloc %h : memref<64xf32>
    scf.reduce
  }
  return
}

// -----

// Nested scf.parallel loops: each outer iteration's buffer stays its own
// while the inner loop is checked.
// CHECK-LABEL: func.func @nested_parallel
func.func @nested_parallel(%out: memref<4x4x64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %f = arith.constant 1.0 : f32
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    %h = memref.alloc() : memref<64xf32>
    %t0 = gpu.wait async
    %t1 = gpu.memset async [%t0] %h, %f : memref<64xf32>, f32
    gpu.wait [%t1]
    scf.parallel (%j) = (%c0) to (%c4) step (%c1) {
      %g = memref.alloc() : memref<64xf32>
      %s0 = gpu.wait async
      %s1 = gpu.memcpy async [%s0] %g, %h : memref<64xf32>, memref<64xf32>
      gpu.wait [%s1]
      memref.dealloc %g : memref<64xf32>
      scf.reduce
    }
    memref.dealloc %h : memref<64xf32>
    scf.reduce
  }
  return
}

// -----

// A kernel launch without a dependency starts a stream (gpu-to-llvm:
// mgpuStreamCreate); a join inside affine.if runs at most once.
#set = affine_set<(d0) : (d0 - 1 >= 0)>
module attributes {gpu.container_module} {
gpu.module @kernels {
  gpu.func @k() kernel {
    gpu.return
  }
}
// CHECK-LABEL: func.func @launch_starts_a_stream
func.func @launch_starts_a_stream(%d: memref<64xf32>, %e: memref<64xf32>, %n: index) {
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  %t = gpu.launch_func async @kernels::@k blocks in (%n, %c1, %c1) threads in (%c1, %c1, %c1)
  gpu.wait [%t]
  %t0 = gpu.wait async
  %t1 = gpu.memset async [%t0] %d, %f : memref<64xf32>, f32
  affine.if #set(%n) {
    %j = gpu.wait async [%t1]
    %k = gpu.memcpy async [%j] %e, %d : memref<64xf32>, memref<64xf32>
    gpu.wait [%k]
  }
  gpu.wait [%t1]
  return
}
}
