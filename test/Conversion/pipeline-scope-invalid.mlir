// RUN: attic-opt %s --split-input-file --attic-cpu-pipeline --verify-diagnostics
// RUN: not attic-opt %s --split-input-file --attic-cuda-pipeline="chip=sm_80 format=isa" 2>&1 | FileCheck %s --check-prefix=CUDA
// attic-check-scope alone names both pipelines, and its hint is valid
// syntax (it was "--pass-pipeline='builtin.module(builtin.module(attic's
// pipelines))'" until 2026-11-30).
// RUN: not attic-opt %s --split-input-file --attic-check-scope 2>&1 | FileCheck %s --check-prefix=DEFAULT
// DEFAULT: error: 'attic.attention' op is inside 'builtin.module', not in a function at the top level of the module that attic-cpu-pipeline or attic-cuda-pipeline lowers; such an op would be left unlowered (nest the pipeline on the inner module: --pass-pipeline='builtin.module(builtin.module(attic-cpu-pipeline))', or the same with attic-cuda-pipeline)
// An empty pipeline name is refused (it made "a step inside , which ...").
// RUN: not attic-opt %s --split-input-file --attic-check-scope=pipeline= 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: attic-check-scope: pipeline must name the pipeline for the messages (got an empty string)

// attic's pipelines lower the attic ops of the functions at the top level
// of the module they run on. An attic op anywhere else used to be left
// half lowered with exit 0 (a nested module) or abort the pass manager (a
// pipeline nested on func.func): now an error each (attic-check-scope,
// checkPipelineAnchor, test/Conversion/pipeline-anchor-invalid.mlir).
// CUDA: error: 'attic.attention' op is inside 'builtin.module', not in a function at the top level of the module that attic-cuda-pipeline lowers
// CUDA: error: 'attic.attention' op is inside 'gpu.module', not in a function at the top level of the module that attic-cuda-pipeline lowers
// CUDA: error: 'func.func' op is in a gpu.module, which attic-cuda-pipeline does not lower: it takes host functions at the top level of the module and makes the kernels itself
// CUDA: error: 'gpu.func' op is in a gpu.module, which attic-cuda-pipeline does not lower: it takes host functions at the top level of the module and makes the kernels itself
// CUDA-NOT: 'gpu.launch' op is a GPU kernel
// CUDA: error: 'attic.tile.map_rows' op is the tile loop of attic-tile-block-attention, a step inside attic-cuda-pipeline
// CUDA: error: 'memref.dealloc' op frees a buffer, but attic-cuda-pipeline places every deallocation itself
// CUDA: error: 'memref.dealloc' op frees the block classes of attic-lower-block-mask, a step inside attic-cuda-pipeline

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

// One error, on the attention: not also on its region's attic.yield, which
// was reported first (a post-order walk) until 2026-12-02.
module {
  module @inner {
    func.func @region(%q: tensor<1x2x64x32xf32>) -> tensor<1x2x64x32xf32> {
      // expected-error @+1 {{'attic.attention' op is inside 'builtin.module'}}
      %o = attic.attention %q, %q, %q causal
             score_mod {
             ^bb0(%s: f32, %b: index, %h: index, %i: index, %j: index):
               %r = arith.addf %s, %s : f32
               attic.yield %r : f32
             }
             : tensor<1x2x64x32xf32>, tensor<1x2x64x32xf32>, tensor<1x2x64x32xf32> -> tensor<1x2x64x32xf32>
      return %o : tensor<1x2x64x32xf32>
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

// -----

// A function with a body in a gpu.module, here with a gpu.launch: upstream's
// kernel outlining crashed on it in attic-cuda-pipeline, and
// attic-cpu-pipeline left it half lowered with exit 0.
module attributes {gpu.container_module} {
  gpu.module @gm {
    // expected-error @+1 {{'func.func' op is in a gpu.module, which attic-cpu-pipeline does not lower: it takes host functions at the top level of the module and makes the kernels itself}}
    func.func @f(%m: memref<4xindex>, %n: index) {
      %c1 = arith.constant 1 : index
      gpu.launch blocks(%bx, %by, %bz) in (%a = %c1, %b = %c1, %c = %c1)
                 threads(%tx, %ty, %tz) in (%d = %c1, %e = %c1, %f = %c1) {
        memref.store %n, %m[%c1] : memref<4xindex>
        gpu.terminator
      }
      return
    }
  }
}

// -----

// A gpu.func with a body: it got past the check, attic-cpu-pipeline left
// it half lowered with exit 0, and attic-cuda-pipeline compiled it into a
// binary (its launch from a host function failed with upstream's "ops with
// unknown memory side effects"; a 2026-11-30 audit).
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @+1 {{'gpu.func' op is in a gpu.module, which attic-cpu-pipeline does not lower: it takes host functions at the top level of the module and makes the kernels itself}}
    gpu.func @k(%m: memref<16xi32>) kernel {
      %t = gpu.thread_id x
      %v = memref.load %m[%t] : memref<16xi32>
      memref.store %v, %m[%t] : memref<16xi32>
      gpu.return
    }
  }
}

// -----

// A gpu.launch in a host function: attic-cpu-pipeline does not lower
// kernels, and left it half lowered with exit 0 (a 2026-11-30 audit);
// attic-cuda-pipeline takes it (its data is offloaded).
func.func @launch(%m: memref<16xf32>) {
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  // expected-error @+1 {{'gpu.launch' op is a GPU kernel, which attic-cpu-pipeline does not lower (attic-cuda-pipeline takes host functions with gpu.launch)}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c1, %sz = %c1) {
    %v = memref.load %m[%tx] : memref<16xf32>
    %w = arith.addf %v, %v : f32
    memref.store %w, %m[%tx] : memref<16xf32>
    gpu.terminator
  }
  return
}

// -----

// IR past the pipelines' own tiling step: upstream's ownership-based
// deallocation used to refuse it with "ops with unknown memory side
// effects are not supported", naming neither the step nor the way out.
func.func @tiled(%m: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'attic.tile.map_rows' op is the tile loop of attic-tile-block-attention, a step inside attic-cpu-pipeline, which takes attic ops before it (on tensors, or bufferized without deallocations); run the passes after it by name (docs/AtticPasses.md)}}
  attic.tile.map_rows at(%c0) outs(%m : memref<64xf32>) {
  ^bb0(%q: index, %old: f32):
    attic.tile.yield %old : f32
  }
  return
}

// -----

// A deallocation in the input (upstream: "memory free side-effect on
// MemRef value not supported!").
func.func @frees(%n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %a = memref.alloc(%n) : memref<?xf32>
  %x = memref.load %a[%c0] : memref<?xf32>
  // expected-error @+1 {{'memref.dealloc' op frees a buffer, but attic-cpu-pipeline places every deallocation itself (upstream's ownership-based deallocation) and takes input without any; leave the freeing to the pipeline}}
  memref.dealloc %a : memref<?xf32>
  return %x : f32
}

// -----

// The free of attic-lower-block-mask's classification buffer, in IR that
// a user's pipeline ran through that pass before attic-cpu-pipeline: the
// error named the user ("leave the freeing to the pipeline") for a free
// the pass wrote (a 2026-12-02 audit).
func.func @lowered_block_mask(%n: index) {
  %a = memref.alloc(%n) : memref<?xi8>
  // expected-error @+1 {{'memref.dealloc' op frees the block classes of attic-lower-block-mask, a step inside attic-cpu-pipeline, which takes attic.block_mask before it (on tensors, or bufferized without deallocations); run the passes after it by name (docs/AtticPasses.md)}}
  memref.dealloc %a {attic.block_classes} : memref<?xi8>
  return
}

// -----

// gpu.dealloc too (upstream: "memory free side-effect on MemRef value not
// supported!"; a 2026-11-30 audit).
func.func @gpu_frees(%m: memref<4xf32>) {
  %d = gpu.alloc () : memref<4xf32>
  gpu.memcpy %d, %m : memref<4xf32>, memref<4xf32>
  gpu.memcpy %m, %d : memref<4xf32>, memref<4xf32>
  // expected-error @+1 {{'gpu.dealloc' op frees a buffer, but attic-cpu-pipeline places every deallocation itself}}
  gpu.dealloc %d : memref<4xf32>
  return
}
