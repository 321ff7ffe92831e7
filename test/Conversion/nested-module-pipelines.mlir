// A nested module's functions are lowered by the pipeline nested on it,
// before the outer one; the outer pipeline alone refuses them (it left them
// half lowered: linalg on tensors with llvm ops inside, exit 0) and leaves
// a lowered nested module alone (attic-gpu-check-host rejected its
// llvm.func as host code).
// RUN: not attic-opt %s --attic-cpu-pipeline 2>&1 | FileCheck %s --check-prefix=REFUSED
// RUN: not attic-opt %s --attic-cuda-pipeline="chip=sm_80 format=isa" 2>&1 | FileCheck %s --check-prefix=REFUSED-CUDA
// RUN: attic-opt %s --pass-pipeline='builtin.module(builtin.module(attic-cpu-pipeline), attic-cpu-pipeline)' | FileCheck %s
// RUN: attic-opt %s --pass-pipeline='builtin.module(builtin.module(attic-cuda-pipeline{chip=sm_80 format=isa}), attic-cuda-pipeline{chip=sm_80 format=isa})' | FileCheck %s --check-prefix=CUDA

// REFUSED: error: 'func.func' op is in a nested module (@inner), which attic-cpu-pipeline would leave half lowered: lower nested modules first, the innermost first (one level: --pass-pipeline='builtin.module(builtin.module(attic-cpu-pipeline), attic-cpu-pipeline)')
// REFUSED-CUDA: error: 'func.func' op is in a nested module (@inner), which attic-cuda-pipeline would leave half lowered

// CHECK-LABEL: module @outer
// CHECK: llvm.func @o(
// CHECK: module @inner
// CHECK: llvm.func @plain(
// CHECK-NOT: func.func
// CHECK-NOT: linalg.

// CUDA-LABEL: module @outer
// CUDA: llvm.func @o(
// CUDA: module @inner
// CUDA: llvm.func @a(

module @outer {
  func.func @o(%q: tensor<1x2x64x16xf32>) -> tensor<1x2x64x16xf32> {
    %o = attic.attention %q, %q, %q causal : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
    return %o : tensor<1x2x64x16xf32>
  }
  module @inner {
    func.func @a(%q: tensor<1x2x64x16xf32>) -> tensor<1x2x64x16xf32> {
      %o = attic.attention %q, %q, %q : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
      return %o : tensor<1x2x64x16xf32>
    }
    func.func @plain(%a: tensor<4xf32>, %d: i32, %n: i32) -> (tensor<4xf32>, i32) {
      %b = arith.addf %a, %a : tensor<4xf32>
      %q = arith.divsi %n, %d : i32
      return %b, %q : tensor<4xf32>, i32
    }
  }
}
