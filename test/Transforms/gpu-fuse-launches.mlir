// RUN: attic-opt %s --split-input-file --attic-gpu-fuse-launches | FileCheck %s
// RUN: attic-opt %s --split-input-file --attic-gpu-fuse-launches=levels=false | FileCheck %s --check-prefix=PLAIN

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

// -----

// Two chains, A1 -> B1 and A2 -> B2, emitted as A1 B1 A2 B2: of the
// neighbours only B1 and A2 are independent, three launches in program
// order (levels=false); the steps sink to the levels of the dependence
// graph (B1 below B2, A1 below A2), two launches.
// CHECK-LABEL: func.func @levels
// PLAIN-LABEL: func.func @levels
// PLAIN-COUNT-3: gpu.launch async
// PLAIN-NOT: gpu.launch
// PLAIN: return
// CHECK: gpu.launch async
// CHECK-DAG: memref.store {{.*}} {name = "A1"}
// CHECK-DAG: memref.store {{.*}} {name = "A2"}
// CHECK: gpu.terminator
// CHECK: gpu.launch async
// CHECK-DAG: memref.store {{.*}} {name = "B1"}
// CHECK-DAG: memref.store {{.*}} {name = "B2"}
// CHECK: gpu.terminator
// CHECK-NOT: gpu.launch
// CHECK: return
func.func @levels() {
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %f = arith.constant 1.0 : f32
  %w0 = gpu.wait async
  %a1, %t0 = gpu.alloc async [%w0] () : memref<256xf32>
  %b1, %t1 = gpu.alloc async [%t0] () : memref<256xf32>
  %a2, %t2 = gpu.alloc async [%t1] () : memref<256xf32>
  %b2, %t3 = gpu.alloc async [%t2] () : memref<256xf32>
  gpu.wait [%t3]
  %s0 = gpu.wait async
  %l0 = gpu.launch async [%s0] blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
      threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    memref.store %f, %a1[%tx] {name = "A1"} : memref<256xf32>
    gpu.terminator
  }
  gpu.wait [%l0]
  %s1 = gpu.wait async
  %l1 = gpu.launch async [%s1] blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
      threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %v = memref.load %a1[%tx] : memref<256xf32>
    memref.store %v, %b1[%tx] {name = "B1"} : memref<256xf32>
    gpu.terminator
  }
  gpu.wait [%l1]
  %s2 = gpu.wait async
  %l2 = gpu.launch async [%s2] blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
      threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    memref.store %f, %a2[%tx] {name = "A2"} : memref<256xf32>
    gpu.terminator
  }
  gpu.wait [%l2]
  %s3 = gpu.wait async
  %l3 = gpu.launch async [%s3] blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
      threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %v = memref.load %a2[%tx] : memref<256xf32>
    memref.store %v, %b2[%tx] {name = "B2"} : memref<256xf32>
    gpu.terminator
  }
  gpu.wait [%l3]
  return
}

// -----

// What a step may sink past and what stops it. All six steps are
// independent, of one height. P stops at the copy that reads its buffer,
// Q at a call (effects unknown), R at the dealloc of its buffer: each
// stays above what stopped it. X and Y sink past the store to host memory
// and the copy of another buffer, to the farthest step of their height
// they can reach, Q.
// CHECK-LABEL: func.func @sinking
// CHECK: memref.store %{{.*}}, %{{.*}}[%{{.*}}] {name = "host"}
// CHECK: gpu.launch async
// CHECK: {name = "P"}
// CHECK: gpu.terminator
// CHECK: gpu.memcpy
// CHECK: gpu.launch async
// CHECK-DAG: {name = "Q"}
// CHECK-DAG: {name = "X"}
// CHECK-DAG: {name = "Y"}
// CHECK: gpu.terminator
// CHECK: call @opaque
// CHECK: gpu.launch async
// CHECK: {name = "R"}
// CHECK: gpu.terminator
// CHECK: gpu.dealloc
// CHECK: gpu.launch async
// CHECK: {name = "Z"}
// CHECK: gpu.terminator
// CHECK-NOT: gpu.launch
// CHECK: return
func.func private @opaque()
func.func @sinking(%out: memref<256xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %f = arith.constant 1.0 : f32
  %host = memref.alloca() : memref<1xf32>
  %w0 = gpu.wait async
  %x, %t0 = gpu.alloc async [%w0] () : memref<256xf32>
  %y, %t1 = gpu.alloc async [%t0] () : memref<256xf32>
  %p, %t2 = gpu.alloc async [%t1] () : memref<256xf32>
  %q, %t3 = gpu.alloc async [%t2] () : memref<256xf32>
  %r, %t4 = gpu.alloc async [%t3] () : memref<256xf32>
  %z, %t5 = gpu.alloc async [%t4] () : memref<256xf32>
  gpu.wait [%t5]
  %s0 = gpu.wait async
  %l0 = gpu.launch async [%s0] blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
      threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    memref.store %f, %x[%tx] {name = "X"} : memref<256xf32>
    gpu.terminator
  }
  gpu.wait [%l0]
  memref.store %f, %host[%c0] {name = "host"} : memref<1xf32>
  %s1 = gpu.wait async
  %l1 = gpu.launch async [%s1] blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
      threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    memref.store %f, %y[%tx] {name = "Y"} : memref<256xf32>
    gpu.terminator
  }
  gpu.wait [%l1]
  %s2 = gpu.wait async
  %l2 = gpu.launch async [%s2] blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
      threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    memref.store %f, %p[%tx] {name = "P"} : memref<256xf32>
    gpu.terminator
  }
  gpu.wait [%l2]
  %c = gpu.wait async
  %cp = gpu.memcpy async [%c] %out, %p : memref<256xf32>, memref<256xf32>
  gpu.wait [%cp]
  %s3 = gpu.wait async
  %l3 = gpu.launch async [%s3] blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
      threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    memref.store %f, %q[%tx] {name = "Q"} : memref<256xf32>
    gpu.terminator
  }
  gpu.wait [%l3]
  func.call @opaque() : () -> ()
  %s4 = gpu.wait async
  %l4 = gpu.launch async [%s4] blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
      threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    memref.store %f, %r[%tx] {name = "R"} : memref<256xf32>
    gpu.terminator
  }
  gpu.wait [%l4]
  %d = gpu.wait async
  %dr = gpu.dealloc async [%d] %r : memref<256xf32>
  gpu.wait [%dr]
  %s5 = gpu.wait async
  %l5 = gpu.launch async [%s5] blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
      threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    memref.store %f, %z[%tx] {name = "Z"} : memref<256xf32>
    gpu.terminator
  }
  gpu.wait [%l5]
  return
}
