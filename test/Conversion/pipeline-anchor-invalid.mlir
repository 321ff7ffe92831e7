// RUN: not attic-opt %s --pass-pipeline='builtin.module(func.func(attic-cpu-pipeline))' 2>&1 | FileCheck %s --check-prefix=FUNC
// RUN: not attic-opt %s --pass-pipeline='builtin.module(func.func(attic-cuda-pipeline{chip=sm_80 format=isa}))' 2>&1 | FileCheck %s --check-prefix=FUNC-CUDA
// RUN: not attic-opt %s --pass-pipeline='builtin.module(gpu.module(attic-cpu-pipeline))' 2>&1 | FileCheck %s --check-prefix=GPU
// RUN: attic-opt %s --pass-pipeline='builtin.module(builtin.module(attic-cpu-pipeline))' | FileCheck %s --check-prefix=NESTED

// attic's pipelines are module pipelines. Nested on func.func or gpu.module
// the pass manager used to abort ("LLVM ERROR: Can't add pass
// 'OneShotBufferizePass' restricted to 'builtin.module'"); now the pipeline
// reports where it runs and how to nest it (checkPipelineAnchor, through
// attic-fail, which runs on any op). Nested on an inner module it lowers
// that module.

// FUNC: error: attic-cpu-pipeline runs on a builtin.module, not on 'func.func': nest it as --pass-pipeline='builtin.module(attic-cpu-pipeline)'
// FUNC-NOT: LLVM ERROR
// FUNC-CUDA: error: attic-cuda-pipeline runs on a builtin.module, not on 'func.func': nest it as --pass-pipeline='builtin.module(attic-cuda-pipeline)'
// GPU: error: attic-cpu-pipeline runs on a builtin.module, not on 'gpu.module'

// NESTED: module attributes {gpu.container_module}
// NESTED: func.func @outer_attention
// NESTED: attic.attention
// NESTED: module @inner
// NESTED: llvm.func @inner_attention
// NESTED-NOT: attic.

module attributes {gpu.container_module} {
  func.func @outer_attention(%q: tensor<1x2x64x32xf32>) -> tensor<1x2x64x32xf32> {
    %o = attic.attention %q, %q, %q causal : tensor<1x2x64x32xf32>, tensor<1x2x64x32xf32>, tensor<1x2x64x32xf32> -> tensor<1x2x64x32xf32>
    return %o : tensor<1x2x64x32xf32>
  }
  gpu.module @g {
    gpu.func @kernel() kernel {
      gpu.return
    }
  }
  module @inner {
    func.func @inner_attention(%q: tensor<1x2x64x32xf32>) -> tensor<1x2x64x32xf32> {
      %o = attic.attention %q, %q, %q causal : tensor<1x2x64x32xf32>, tensor<1x2x64x32xf32>, tensor<1x2x64x32xf32> -> tensor<1x2x64x32xf32>
      return %o : tensor<1x2x64x32xf32>
    }
  }
}
