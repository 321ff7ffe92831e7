// RUN: attic-opt %s --split-input-file --attic-gpu-fuse-launches | FileCheck %s

// Two independent steps (each writes its own buffer): one launch of 3 + 2
// blocks; blocks 0-2 run the first body, blocks 3-4 the second with their
// index less 3. The grid sizes computed between the steps move above.
// CHECK-LABEL: func.func @independent
// CHECK: %[[A:.*]], %{{.*}} = gpu.alloc
// CHECK: %[[B:.*]], %{{.*}} = gpu.alloc
// CHECK: %[[N2:.*]] = arith.constant 2 : index
// CHECK: %[[START:.*]] = gpu.wait async
// CHECK: %[[T:.*]] = gpu.launch async [%[[START]]] blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[TOTAL:.*]], %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c256
// CHECK: %[[FIRST:.*]] = arith.cmpi ult, %[[BX]], %{{.*}} : index
// CHECK: scf.if %[[FIRST]] {
// CHECK: memref.store %{{.*}}, %[[A]][%[[TX]]]
// CHECK: } else {
// CHECK: %[[LOCAL:.*]] = arith.subi %[[BX]], %{{.*}} : index
// CHECK: memref.store %{{.*}}, %[[B]][%[[LOCAL]]]
// CHECK: }
// CHECK: gpu.terminator
// CHECK: gpu.wait [%[[T]]]
// CHECK-NOT: gpu.launch
// CHECK: return
func.func @independent() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c256 = arith.constant 256 : index
  %f = arith.constant 1.0 : f32
  %w0 = gpu.wait async
  %a, %ta = gpu.alloc async [%w0] () : memref<768xf32>
  gpu.wait [%ta]
  %w1 = gpu.wait async
  %b, %tb = gpu.alloc async [%w1] () : memref<2xf32>
  gpu.wait [%tb]
  %s0 = gpu.wait async
  %l0 = gpu.launch async [%s0] blocks(%bx, %by, %bz) in (%gx = %c3, %gy = %c1, %gz = %c1)
      threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    memref.store %f, %a[%tx] : memref<768xf32>
    gpu.terminator
  }
  gpu.wait [%l0]
  %n2 = arith.constant 2 : index
  %s1 = gpu.wait async
  %l1 = gpu.launch async [%s1] blocks(%bx, %by, %bz) in (%gx = %n2, %gy = %c1, %gz = %c1)
      threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    memref.store %f, %b[%bx] : memref<2xf32>
    gpu.terminator
  }
  gpu.wait [%l1]
  return
}

// -----

// The second step reads what the first writes: two launches, in order.
// CHECK-LABEL: func.func @dependent
// CHECK: gpu.launch
// CHECK: memref.store
// CHECK: gpu.launch
// CHECK: memref.load
// CHECK: return
func.func @dependent() {
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %f = arith.constant 1.0 : f32
  %w0 = gpu.wait async
  %a, %ta = gpu.alloc async [%w0] () : memref<256xf32>
  gpu.wait [%ta]
  %w1 = gpu.wait async
  %b, %tb = gpu.alloc async [%w1] () : memref<256xf32>
  gpu.wait [%tb]
  %s0 = gpu.wait async
  %l0 = gpu.launch async [%s0] blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
      threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    memref.store %f, %a[%tx] : memref<256xf32>
    gpu.terminator
  }
  gpu.wait [%l0]
  %s1 = gpu.wait async
  %l1 = gpu.launch async [%s1] blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
      threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %v = memref.load %a[%tx] : memref<256xf32>
    memref.store %v, %b[%tx] : memref<256xf32>
    gpu.terminator
  }
  gpu.wait [%l1]
  return
}

// -----

// Left alone: another block size; a buffer that is not a gpu.alloc (an
// argument may alias another); a host copy between two steps; a write of
// a buffer through a view of what the other reads.
// CHECK-LABEL: func.func @left_alone
// CHECK-COUNT-5: gpu.launch async
// CHECK-NOT: gpu.launch
// CHECK: return
func.func @left_alone(%arg: memref<256xf32>) {
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %f = arith.constant 1.0 : f32
  %w0 = gpu.wait async
  %a, %ta = gpu.alloc async [%w0] () : memref<256xf32>
  gpu.wait [%ta]
  %w1 = gpu.wait async
  %b, %tb = gpu.alloc async [%w1] () : memref<256xf32>
  gpu.wait [%tb]
  %s0 = gpu.wait async
  %l0 = gpu.launch async [%s0] blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
      threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    memref.store %f, %a[%tx] : memref<256xf32>
    gpu.terminator
  }
  gpu.wait [%l0]
  %s1 = gpu.wait async
  %l1 = gpu.launch async [%s1] blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
      threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
    memref.store %f, %b[%tx] : memref<256xf32>
    gpu.terminator
  }
  gpu.wait [%l1]
  %s2 = gpu.wait async
  %l2 = gpu.launch async [%s2] blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
      threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
    memref.store %f, %arg[%tx] : memref<256xf32>
    gpu.terminator
  }
  gpu.wait [%l2]
  %c0 = gpu.wait async
  %cp = gpu.memcpy async [%c0] %a, %b : memref<256xf32>, memref<256xf32>
  gpu.wait [%cp]
  %s3 = gpu.wait async
  %l3 = gpu.launch async [%s3] blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
      threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
    %v = memref.load %a[%tx] : memref<256xf32>
    memref.store %v, %b[%tx] : memref<256xf32>
    gpu.terminator
  }
  gpu.wait [%l3]
  %s4 = gpu.wait async
  %l4 = gpu.launch async [%s4] blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
      threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
    %view = memref.subview %b[0] [128] [1] : memref<256xf32> to memref<128xf32, strided<[1]>>
    memref.store %f, %view[%tx] : memref<128xf32, strided<[1]>>
    gpu.terminator
  }
  gpu.wait [%l4]
  return
}

// -----

// Three independent steps: block ranges [0, 1), [1, 3), [3, 6).
// CHECK-LABEL: func.func @three
// CHECK: gpu.launch async
// CHECK: scf.if
// CHECK: memref.store %{{.*}}, %[[X:.*]][
// CHECK: } else {
// CHECK: scf.if
// CHECK: memref.store
// CHECK: } else {
// CHECK: memref.store
// CHECK-NOT: gpu.launch
// CHECK: return
func.func @three() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c64 = arith.constant 64 : index
  %f = arith.constant 1.0 : f32
  %w0 = gpu.wait async
  %x, %tx0 = gpu.alloc async [%w0] () : memref<64xf32>
  %y, %ty0 = gpu.alloc async [%tx0] () : memref<64xf32>
  %z, %tz0 = gpu.alloc async [%ty0] () : memref<64xf32>
  gpu.wait [%tz0]
  %s0 = gpu.wait async
  %l0 = gpu.launch async [%s0] blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
      threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    memref.store %f, %x[%tx] : memref<64xf32>
    gpu.terminator
  }
  gpu.wait [%l0]
  %s1 = gpu.wait async
  %l1 = gpu.launch async [%s1] blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
      threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    memref.store %f, %y[%tx] : memref<64xf32>
    gpu.terminator
  }
  gpu.wait [%l1]
  %s2 = gpu.wait async
  %l2 = gpu.launch async [%s2] blocks(%bx, %by, %bz) in (%gx = %c3, %gy = %c1, %gz = %c1)
      threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    memref.store %f, %z[%tx] : memref<64xf32>
    gpu.terminator
  }
  gpu.wait [%l2]
  return
}
