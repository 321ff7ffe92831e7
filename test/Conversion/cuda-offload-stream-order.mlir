// RUN: attic-opt %s --split-input-file --attic-cuda-pipeline="format=isa" --mlir-print-ir-after=attic-gpu-merge-chains -o /dev/null 2>&1 | FileCheck %s

// A kernel, then sequential host code in a kernel of one thread, then a
// deallocation: the sequential kernel runs after the first on one stream.
// attic-gpu-offload once moved the deallocation's chain start above the
// sequential kernel (with the allocations it hoists there), and
// attic-gpu-merge-chains then started that kernel on a new stream,
// unordered with the first kernel and the input's copy (a 2026-11-30
// review; the emulator and the simulator run in issue order and passed).
// CHECK-LABEL: func.func @scan
// CHECK: %[[ADD:.*]] = gpu.launch async [%{{.*}}]
// CHECK-NOT: gpu.wait async
// CHECK: %[[SCAN:.*]] = gpu.launch async [%[[ADD]]]
// CHECK-NOT: gpu.wait async
// CHECK: gpu.dealloc async [%[[SCAN]]]
func.func @scan(%x: tensor<8xf32>) -> tensor<8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %y = linalg.add ins(%x, %x : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %init = tensor.empty() : tensor<8xf32>
  %r:2 = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %init, %s = %zero) -> (tensor<8xf32>, f32) {
    %v = tensor.extract %y[%i] : tensor<8xf32>
    %s2 = arith.addf %s, %v : f32
    %acc2 = tensor.insert %s2 into %acc[%i] : tensor<8xf32>
    scf.yield %acc2, %s2 : tensor<8xf32>, f32
  }
  return %r#0 : tensor<8xf32>
}

// -----

// The same through a global's copy chain (wait async, gpu.alloc,
// gpu.memcpy): its start and allocation moved above the sequential kernel,
// which then ran on a new stream, unordered with the parallel kernel that
// wrote the buffer it reads (a second 2026-11-30 review). Only an
// allocation-only chain moves.
// CHECK-LABEL: func.func @global_copy
// CHECK: %[[PAR:.*]] = gpu.launch async [%{{.*}}]
// CHECK-NOT: gpu.wait async
// CHECK: %[[SEQ:.*]] = gpu.launch async [%[[PAR]]]
memref.global "private" constant @cst : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>
func.func @global_copy(%x: memref<4xf32>, %out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    %v = memref.load %x[%i] : memref<4xf32>
    %w = arith.addf %v, %v : f32
    memref.store %w, %out[%i] : memref<4xf32>
    scf.reduce
  }
  %s = memref.load %out[%c1] : memref<4xf32>
  memref.store %s, %out[%c0] : memref<4xf32>
  %g = memref.get_global @cst : memref<4xf32>
  memref.copy %g, %x : memref<4xf32> to memref<4xf32>
  return
}
