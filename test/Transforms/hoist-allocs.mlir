// RUN: attic-opt %s --split-input-file --attic-hoist-allocs | FileCheck %s
// RUN: attic-opt %s --split-input-file --attic-hoist-allocs --scf-parallel-loop-fusion | FileCheck %s --check-prefix=FUSED

// The allocation between two loops goes above the first (with the
// constants, which have no memory effect); the loops then fuse.
// CHECK-LABEL: func.func @between_loops
// CHECK-NEXT: %[[A:.*]] = memref.alloc() : memref<8xf32>
// CHECK-NEXT: %[[B:.*]] = memref.alloc() : memref<8xf32>
// CHECK: scf.parallel
// CHECK: memref.store %{{.*}}, %[[A]]
// CHECK: scf.parallel
// CHECK: memref.store %{{.*}}, %[[B]]
// FUSED-LABEL: func.func @between_loops
// FUSED: scf.parallel
// FUSED-NOT: scf.parallel
// FUSED: return
func.func @between_loops(%x: memref<8xf32>) -> memref<8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %a = memref.alloc() : memref<8xf32>
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    %v = memref.load %x[%i] : memref<8xf32>
    %w = arith.addf %v, %v : f32
    memref.store %w, %a[%i] : memref<8xf32>
    scf.reduce
  }
  %b = memref.alloc() : memref<8xf32>
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    %v = memref.load %a[%i] : memref<8xf32>
    %w = arith.mulf %v, %v : f32
    memref.store %w, %b[%i] : memref<8xf32>
    scf.reduce
  }
  memref.dealloc %a : memref<8xf32>
  return %b : memref<8xf32>
}

// -----

// Never above an op with a memory effect (here a deallocation): the buffer
// freed before could otherwise be live at the same time as the new one for
// no gain. The allocation moves only to the start of its own run.
// CHECK-LABEL: func.func @not_past_dealloc
// CHECK: scf.parallel
// CHECK: memref.dealloc %[[A:.*]] :
// CHECK-NEXT: %[[B:.*]] = memref.alloc() : memref<8xf32>
// CHECK-NEXT: %[[C:.*]] = memref.alloc() : memref<8xf32>
// CHECK-NEXT: scf.parallel
// CHECK: memref.store %{{.*}}, %[[B]]
// CHECK: scf.parallel
// CHECK: memref.store %{{.*}}, %[[C]]
func.func @not_past_dealloc(%x: memref<8xf32>) -> memref<8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %a = memref.alloc() : memref<8xf32>
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    %v = memref.load %x[%i] : memref<8xf32>
    memref.store %v, %a[%i] : memref<8xf32>
    scf.reduce
  }
  memref.dealloc %a : memref<8xf32>
  %b = memref.alloc() : memref<8xf32>
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    %v = memref.load %x[%i] : memref<8xf32>
    memref.store %v, %b[%i] : memref<8xf32>
    scf.reduce
  }
  %c = memref.alloc() : memref<8xf32>
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    %v = memref.load %b[%i] : memref<8xf32>
    memref.store %v, %c[%i] : memref<8xf32>
    scf.reduce
  }
  memref.dealloc %b : memref<8xf32>
  return %c : memref<8xf32>
}

// -----

// A dynamic size: never above the op that computes it.
// CHECK-LABEL: func.func @dynamic_size
// CHECK: scf.parallel
// CHECK: %[[N:.*]] = arith.muli
// CHECK-NEXT: %[[B:.*]] = memref.alloc(%[[N]]) : memref<?xf32>
// CHECK-NEXT: scf.parallel
func.func @dynamic_size(%x: memref<?xf32>, %n: index) -> memref<?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %x[%i] : memref<?xf32>
    %w = arith.addf %v, %v : f32
    memref.store %w, %x[%i] : memref<?xf32>
    scf.reduce
  }
  %m = arith.muli %n, %c2 : index
  %b = memref.alloc(%m) : memref<?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %x[%i] : memref<?xf32>
    memref.store %v, %b[%i] : memref<?xf32>
    scf.reduce
  }
  return %b : memref<?xf32>
}

// -----

// Inside a loop body, within that body only.
// CHECK-LABEL: func.func @nested
// CHECK: scf.for
// CHECK-NEXT: %[[B:.*]] = memref.alloc() : memref<8xf32>
// CHECK-NEXT: scf.parallel
// CHECK: scf.parallel
// CHECK: memref.dealloc %[[B]]
func.func @nested(%x: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %k = %c0 to %c8 step %c1 {
    scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
      %v = memref.load %x[%i] : memref<8xf32>
      memref.store %v, %x[%i] : memref<8xf32>
      scf.reduce
    }
    %b = memref.alloc() : memref<8xf32>
    scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
      %v = memref.load %x[%i] : memref<8xf32>
      memref.store %v, %b[%i] : memref<8xf32>
      scf.reduce
    }
    memref.dealloc %b : memref<8xf32>
  }
  return
}
