// RUN: attic-opt %s --split-input-file --attic-gpu-merge-chains | FileCheck %s

// attic-gpu-merge-chains: a chain (gpu.wait async, steps, blocking
// gpu.wait) continues the one before it when nothing in between needs the
// device's work done. Fresh allocations and pure ops may sit in between;
// host loads and stores, calls, returns and ops with regions that touch
// memory keep the blocking wait.

// Three chains with a host allocation and index arithmetic in between: one
// stream, one blocking wait at the end.
// CHECK-LABEL: func.func @straight_line
// CHECK: %[[T0:.*]] = gpu.wait async
// CHECK-NOT: gpu.wait
// CHECK: %[[D:.*]], %[[T1:.*]] = gpu.alloc async [%[[T0]]] ()
// CHECK-NOT: gpu.wait
// CHECK: %[[T2:.*]] = gpu.memcpy async [%[[T1]]] %[[D]], %arg0
// CHECK-NOT: gpu.wait
// CHECK: %[[T3:.*]] = gpu.launch async [%[[T2]]]
// CHECK: gpu.terminator
// CHECK-NOT: gpu.wait
// CHECK: %[[H:.*]] = memref.alloc()
// CHECK: %[[T4:.*]] = gpu.memcpy async [%[[T3]]] %[[H]], %[[D]]
// CHECK: %[[T5:.*]] = gpu.dealloc async [%[[T4]]] %[[D]]
// CHECK-NEXT: gpu.wait [%[[T5]]]
// CHECK-NEXT: return %[[H]]
func.func @straight_line(%in: memref<64xf32>) -> memref<64xf32> {
  %c1 = arith.constant 1 : index
  %t0 = gpu.wait async
  %d, %t1 = gpu.alloc async [%t0] () : memref<64xf32>
  %t2 = gpu.memcpy async [%t1] %d, %in : memref<64xf32>, memref<64xf32>
  gpu.wait [%t2]
  %n = arith.addi %c1, %c1 : index
  %u0 = gpu.wait async
  %u1 = gpu.launch async [%u0] blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1)
      threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    gpu.terminator
  }
  gpu.wait [%u1]
  %h = memref.alloc() : memref<64xf32>
  %v0 = gpu.wait async
  %v1 = gpu.memcpy async [%v0] %h, %d : memref<64xf32>, memref<64xf32>
  %v2 = gpu.dealloc async [%v1] %d : memref<64xf32>
  gpu.wait [%v2]
  return %h : memref<64xf32>
}

// -----

// The host reads a copied-back value before the next chain: the wait
// before the read stays; the chains after it are joined again.
// CHECK-LABEL: func.func @host_read_keeps_the_wait
// CHECK: %[[T1:.*]] = gpu.memcpy async
// CHECK-NEXT: gpu.wait [%[[T1]]]
// CHECK-NEXT: memref.load
// CHECK: %[[U0:.*]] = gpu.wait async
// CHECK: %[[U1:.*]] = gpu.memset async [%[[U0]]]
// CHECK-NOT: gpu.wait
// CHECK: %[[U2:.*]] = gpu.dealloc async [%[[U1]]]
// CHECK-NEXT: gpu.wait [%[[U2]]]
func.func @host_read_keeps_the_wait(%d: memref<4xi64>) -> i64 {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0 : i64
  %h = memref.alloca() : memref<4xi64>
  %t0 = gpu.wait async
  %t1 = gpu.memcpy async [%t0] %h, %d : memref<4xi64>, memref<4xi64>
  gpu.wait [%t1]
  %x = memref.load %h[%c0] : memref<4xi64>
  %u0 = gpu.wait async
  %u1 = gpu.memset async [%u0] %d, %zero : memref<4xi64>, i64
  gpu.wait [%u1]
  %v0 = gpu.wait async
  %v1 = gpu.dealloc async [%v0] %d : memref<4xi64>
  gpu.wait [%v1]
  return %x : i64
}

// -----

// A call, a host store and an scf.if with memory effects between two chains
// keep the wait; an scf.if without them does not. Chains inside the scf.if
// are joined within its block, never with the chains around it.
// CHECK-LABEL: func.func @separators
// CHECK: gpu.memset
// CHECK-NEXT: gpu.wait [
// CHECK-NEXT: call @host_work()
// CHECK: gpu.memset
// CHECK-NEXT: gpu.wait [
// CHECK-NEXT: memref.store
// CHECK: gpu.memset
// CHECK-NEXT: gpu.wait [
// CHECK-NEXT: scf.if
// CHECK-NEXT: %[[I0:.*]] = gpu.wait async
// CHECK-NEXT: %[[I1:.*]] = gpu.memset async [%[[I0]]]
// CHECK-NEXT: %[[I2:.*]] = gpu.memset async [%[[I1]]]
// CHECK-NEXT: gpu.wait [%[[I2]]]
// CHECK-NEXT: }
// CHECK-NEXT: %[[P0:.*]] = gpu.wait async
// CHECK: %[[P1:.*]] = gpu.memset async [%[[P0]]]
// CHECK-NOT: gpu.wait
// CHECK: scf.if
// CHECK-NEXT: arith.addi
// CHECK: %[[P2:.*]] = gpu.memset async [%[[P1]]]
// CHECK-NEXT: gpu.wait [%[[P2]]]
// CHECK-NEXT: return
func.func private @host_work()
func.func @separators(%d: memref<4xi32>, %c: i1) {
  %c0 = arith.constant 0 : index
  %v = arith.constant 7 : i32
  %h = memref.alloca() : memref<1xi32>
  %t0 = gpu.wait async
  %t1 = gpu.memset async [%t0] %d, %v : memref<4xi32>, i32
  gpu.wait [%t1]
  call @host_work() : () -> ()
  %u0 = gpu.wait async
  %u1 = gpu.memset async [%u0] %d, %v : memref<4xi32>, i32
  gpu.wait [%u1]
  memref.store %v, %h[%c0] : memref<1xi32>
  %v0 = gpu.wait async
  %v1 = gpu.memset async [%v0] %d, %v : memref<4xi32>, i32
  gpu.wait [%v1]
  scf.if %c {
    %i0 = gpu.wait async
    %i1 = gpu.memset async [%i0] %d, %v : memref<4xi32>, i32
    gpu.wait [%i1]
    %j0 = gpu.wait async
    %j1 = gpu.memset async [%j0] %d, %v : memref<4xi32>, i32
    gpu.wait [%j1]
  }
  %w0 = gpu.wait async
  %w1 = gpu.memset async [%w0] %d, %v : memref<4xi32>, i32
  gpu.wait [%w1]
  scf.if %c {
    %k = arith.addi %c0, %c0 : index
  }
  %x0 = gpu.wait async
  %x1 = gpu.memset async [%x0] %d, %v : memref<4xi32>, i32
  gpu.wait [%x1]
  return
}

// -----

// A blocking wait on two tokens and a chain that starts with dependencies
// are left as they are.
// CHECK-LABEL: func.func @other_forms
// CHECK: gpu.wait [%{{.*}}, %{{.*}}]
// CHECK-NEXT: %[[U0:.*]] = gpu.wait async
// CHECK: gpu.wait [%
// CHECK-NEXT: %[[V0:.*]] = gpu.wait async [%
// CHECK: gpu.wait [%
// CHECK-NEXT: return
func.func @other_forms(%d: memref<4xi32>) {
  %v = arith.constant 7 : i32
  %a = gpu.wait async
  %b = gpu.wait async
  %a1 = gpu.memset async [%a] %d, %v : memref<4xi32>, i32
  gpu.wait [%a1, %b]
  %u0 = gpu.wait async
  %u1 = gpu.memset async [%u0] %d, %v : memref<4xi32>, i32
  gpu.wait [%u1]
  %v0 = gpu.wait async [%u1]
  %v1 = gpu.memset async [%v0] %d, %v : memref<4xi32>, i32
  gpu.wait [%v1]
  return
}
