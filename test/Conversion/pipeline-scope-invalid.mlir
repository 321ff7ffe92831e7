// RUN: attic-opt %s --split-input-file --attic-cpu-pipeline --verify-diagnostics
// RUN: not attic-opt %s --split-input-file --attic-cuda-pipeline="chip=sm_80 format=isa" 2>&1 | FileCheck %s --check-prefix=CUDA

// attic's pipelines lower the attic ops of the functions at the top level
// of the module they run on. An attic op anywhere else used to be left
// half lowered with exit 0 (a nested module) or abort the pass manager (a
// pipeline nested on func.func): now an error each (attic-check-scope,
// checkPipelineAnchor, test/Conversion/pipeline-anchor-invalid.mlir).
// CUDA: error: 'attic.attention' op is inside 'builtin.module', not in a function at the top level of the module that attic-cuda-pipeline lowers
// CUDA: error: 'attic.attention' op is inside 'gpu.module', not in a function at the top level of the module that attic-cuda-pipeline lowers

module {
  module @inner {
    func.func @attention(%q: tensor<1x2x64x32xbf16>) -> tensor<1x2x64x32xbf16> {
      // expected-error @+1 {{'attic.attention' op is inside 'builtin.module', not in a function at the top level of the module that attic-cpu-pipeline lowers; such an op would be left unlowered (nest the pipeline on the inner module: --pass-pipeline='builtin.module(builtin.module(attic-cpu-pipeline))')}}
      %o = attic.attention %q, %q, %q causal : tensor<1x2x64x32xbf16>, tensor<1x2x64x32xbf16>, tensor<1x2x64x32xbf16> -> tensor<1x2x64x32xbf16>
      return %o : tensor<1x2x64x32xbf16>
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @g {
    func.func @attention(%q: tensor<1x2x64x32xbf16>) -> tensor<1x2x64x32xbf16> {
      // expected-error @+1 {{'attic.attention' op is inside 'gpu.module', not in a function at the top level of the module that attic-cpu-pipeline lowers; such an op would be left unlowered}}
      %o = attic.attention %q, %q, %q causal : tensor<1x2x64x32xbf16>, tensor<1x2x64x32xbf16>, tensor<1x2x64x32xbf16> -> tensor<1x2x64x32xbf16>
      return %o : tensor<1x2x64x32xbf16>
    }
  }
}
