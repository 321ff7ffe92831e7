// RUN: attic-opt %s --attic-cuda-pipeline="format=isa" --mlir-print-ir-after=attic-gpu-merge-chains -o /dev/null 2>&1 | FileCheck %s

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
