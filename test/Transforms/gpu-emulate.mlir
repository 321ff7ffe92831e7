// RUN: attic-opt %s --split-input-file --attic-gpu-emulate | FileCheck %s
// RUN: attic-opt %s --split-input-file --attic-gpu-emulate | FileCheck %s --check-prefix=NOGPU

// No gpu op is left anywhere (only the caller's !gpu.async.token type).
// NOGPU-NOT: {{[^!]gpu\.[a-z_]+( |$)}}

// The host code attic-gpu-offload writes: one async token chain from
// gpu.wait async to a blocking gpu.wait. Data movement becomes memref ops
// (gpu.memcpy's destination comes first, memref.copy's source), the launch
// an scf.parallel over (block x, y, z, thread x, y, z), every token goes.
// CHECK-LABEL: func.func @chain_1d
// CHECK-SAME: (%[[IN:.*]]: memref<256xf32>, %[[OUT:.*]]: memref<256xf32>)
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[C128:.*]] = arith.constant 128 : index
// CHECK: %[[BUF:.*]] = memref.alloc() : memref<256xf32>
// CHECK: memref.copy %[[IN]], %[[BUF]] : memref<256xf32> to memref<256xf32>
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1 : index
// CHECK: scf.parallel (%[[BX:.*]], %[[BY:.*]], %[[BZ:.*]], %[[TX:.*]], %[[TY:.*]], %[[TZ:.*]]) = (%[[C0]], %[[C0]], %[[C0]], %[[C0]], %[[C0]], %[[C0]]) to (%[[C2]], %[[C1]], %[[C1]], %[[C128]], %[[C1]], %[[C1]]) step (%[[ONE]], %[[ONE]], %[[ONE]], %[[ONE]], %[[ONE]], %[[ONE]]) {
// CHECK:   %[[OFF:.*]] = arith.muli %[[BX]], %[[C128]] : index
// CHECK:   %[[I:.*]] = arith.addi %[[OFF]], %[[TX]] : index
// CHECK:   %[[V:.*]] = memref.load %[[BUF]][%[[I]]] : memref<256xf32>
// CHECK:   %[[W:.*]] = arith.addf %[[V]], %[[V]] : f32
// CHECK:   memref.store %[[W]], %[[BUF]][%[[I]]] : memref<256xf32>
// CHECK:   scf.reduce
// CHECK: }
// CHECK: memref.copy %[[BUF]], %[[OUT]] : memref<256xf32> to memref<256xf32>
// CHECK: memref.dealloc %[[BUF]] : memref<256xf32>
// CHECK-NEXT: return
// CHECK-NOT: gpu.
func.func @chain_1d(%in: memref<256xf32>, %out: memref<256xf32>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c128 = arith.constant 128 : index
  %t0 = gpu.wait async
  %buf, %t1 = gpu.alloc async [%t0] () : memref<256xf32>
  %t2 = gpu.memcpy async [%t1] %buf, %in : memref<256xf32>, memref<256xf32>
  %t3 = gpu.launch async [%t2] blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
    %off = arith.muli %bx, %sx : index
    %i = arith.addi %off, %tx : index
    %v = memref.load %buf[%i] : memref<256xf32>
    %w = arith.addf %v, %v : f32
    memref.store %w, %buf[%i] : memref<256xf32>
    gpu.terminator
  }
  %t4 = gpu.memcpy async [%t3] %out, %buf : memref<256xf32>, memref<256xf32>
  %t5 = gpu.dealloc async [%t4] %buf : memref<256xf32>
  gpu.wait [%t5]
  return
}

// -----

// A 2-D grid of 2-D blocks; the id and size ops (also inside nested
// regions) read the loop indices and the launch's sizes, gpu.global_id is
// block_id * block_dim + thread_id.
// CHECK-LABEL: func.func @grid_2d
// CHECK-SAME: (%[[M:.*]]: memref<?x?xf32>, %[[GX:.*]]: index, %[[GY:.*]]: index)
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG: %[[C16:.*]] = arith.constant 16 : index
// CHECK: scf.parallel (%[[BX:.*]], %[[BY:.*]], %{{.*}}, %[[TX:.*]], %[[TY:.*]], %{{.*}}) = ({{.*}}) to (%[[GX]], %[[GY]], %[[C1]], %[[C16]], %[[C8]], %[[C1]])
// CHECK:   %[[RO:.*]] = arith.muli %[[BY]], %[[C8]] : index
// CHECK:   %[[ROW:.*]] = arith.addi %[[RO]], %[[TY]] : index
// CHECK:   %[[CO:.*]] = arith.muli %[[BX]], %[[C16]] : index
// CHECK:   %[[COL:.*]] = arith.addi %[[CO]], %[[TX]] : index
// CHECK:   %[[ROWS:.*]] = arith.muli %[[GY]], %[[C8]] : index
// CHECK:   scf.for %{{.*}} = %[[TX]] to %[[ROWS]] step %[[C16]] {
// CHECK:     arith.index_cast %[[BX]] : index to i32
// CHECK:     arith.index_cast %[[GX]] : index to i32
// CHECK:     memref.store %{{.*}}, %[[M]][%[[ROW]], %[[COL]]] : memref<?x?xf32>
// CHECK-NOT: gpu.
func.func @grid_2d(%m: memref<?x?xf32>, %gx: index, %gy: index) {
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  gpu.launch blocks(%bx, %by, %bz) in (%sgx = %gx, %sgy = %gy, %sgz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c8, %sz = %c1) {
    %tidy = gpu.thread_id y
    %bidy = gpu.block_id y
    %bdimy = gpu.block_dim y
    %ro = arith.muli %bidy, %bdimy : index
    %row = arith.addi %ro, %tidy : index
    %col = gpu.global_id x
    %gdimy = gpu.grid_dim y
    %rows = arith.muli %gdimy, %sy : index
    scf.for %k = %tx to %rows step %sx {
      %b = gpu.block_id x
      %g = gpu.grid_dim x
      %bi = arith.index_cast %b : index to i32
      %gi = arith.index_cast %g : index to i32
      %s = arith.addi %bi, %gi : i32
      %f = arith.sitofp %s : i32 to f32
      memref.store %f, %m[%row, %col] : memref<?x?xf32>
    }
    gpu.terminator
  }
  return
}

// -----

// Dynamic and host_shared allocations, synchronous forms (no tokens), a
// token that comes from the caller, and gpu.memset as a loop of stores.
// CHECK-LABEL: func.func @memset_dynamic
// CHECK-SAME: (%[[N:.*]]: index, %[[T:.*]]: !gpu.async.token)
// CHECK: %[[A:.*]] = memref.alloc(%[[N]]) : memref<4x?xf32>
// CHECK: %[[B:.*]] = memref.alloc() : memref<4xi32>
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK: %[[D1:.*]] = memref.dim %[[A]], %{{.*}} : memref<4x?xf32>
// CHECK: scf.parallel (%[[I:.*]], %[[J:.*]]) = (%[[C0]], %[[C0]]) to (%[[C4]], %[[D1]])
// CHECK:   memref.store %{{.*}}, %[[A]][%[[I]], %[[J]]] : memref<4x?xf32>
// CHECK: scf.parallel (%[[K:.*]]) =
// CHECK:   memref.store %{{.*}}, %[[B]][%[[K]]] : memref<4xi32>
// CHECK: memref.dealloc %[[A]] : memref<4x?xf32>
// CHECK: memref.dealloc %[[B]] : memref<4xi32>
// CHECK-NEXT: return
// CHECK-NOT: gpu.
func.func @memset_dynamic(%n: index, %t: !gpu.async.token) {
  %zero = arith.constant 0.0 : f32
  %seven = arith.constant 7 : i32
  %a, %t1 = gpu.alloc async [%t] (%n) : memref<4x?xf32>
  %b = gpu.alloc host_shared () : memref<4xi32>
  %t2 = gpu.memset async [%t1] %a, %zero : memref<4x?xf32>, f32
  gpu.memset %b, %seven : memref<4xi32>, i32
  %t3 = gpu.dealloc async [%t2] %a : memref<4x?xf32>
  gpu.wait [%t3]
  gpu.dealloc %b : memref<4xi32>
  return
}

// -----

// Captured values, scratch allocas (one per thread) and atomics stay as
// they are; two launches on one chain run one after the other.
// CHECK-LABEL: func.func @two_launches
// CHECK: scf.parallel
// CHECK:   memref.alloca() : memref<4xf32>
// CHECK:   memref.atomic_rmw addf %{{.*}}, %{{.*}}[%{{.*}}] : (f32, memref<1xf32>) -> f32
// CHECK: scf.parallel
// CHECK:   memref.store
// CHECK-NOT: gpu.
func.func @two_launches(%acc: memref<1xf32>, %x: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %t0 = gpu.wait async
  %t1 = gpu.launch async [%t0] blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %scratch = memref.alloca() : memref<4xf32>
    memref.store %x, %scratch[%c0] : memref<4xf32>
    %v = memref.load %scratch[%c0] : memref<4xf32>
    %old = memref.atomic_rmw addf %v, %acc[%c0] : (f32, memref<1xf32>) -> f32
    gpu.terminator
  }
  %t2 = gpu.launch async [%t1] blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    memref.store %x, %acc[%c0] : memref<1xf32>
    gpu.terminator
  }
  gpu.wait [%t2]
  return
}
