// attic as a plugin of upstream mlir-opt: the dialect plugin makes attic ops
// parse and verify, the pass plugin adds attic's passes and pipelines
// (mlir-opt registers plugin passes after its command line is parsed, so
// they are reached through --pass-pipeline).
// RUN: mlir-opt --load-dialect-plugin=%attic_obj/lib/AtticPlugin.so --load-pass-plugin=%attic_obj/lib/AtticPlugin.so %s --split-input-file | FileCheck %s --check-prefix=ROUND
// RUN: mlir-opt --load-dialect-plugin=%attic_obj/lib/AtticPlugin.so --load-pass-plugin=%attic_obj/lib/AtticPlugin.so %s --split-input-file --pass-pipeline="builtin.module(func.func(attic-decompose))" | FileCheck %s --check-prefix=DECOMPOSE
// RUN: mlir-opt --load-dialect-plugin=%attic_obj/lib/AtticPlugin.so --load-pass-plugin=%attic_obj/lib/AtticPlugin.so %s --split-input-file --pass-pipeline="builtin.module(attic-cpu-pipeline{parallel=false})" | FileCheck %s --check-prefix=LLVM
// Without the dialect plugin the attic ops are unknown.
// RUN: not mlir-opt %s --split-input-file 2>&1 | FileCheck %s --check-prefix=NOPLUGIN

// UNSUPPORTED: sanitizers
// (An instrumented plugin cannot load into the uninstrumented upstream
// mlir-opt: the sanitizer runtime is missing there.)

// ROUND-LABEL: func.func @attention
// ROUND: attic.attention %{{.*}}, %{{.*}}, %{{.*}} causal
// DECOMPOSE-LABEL: func.func @attention
// DECOMPOSE: attic.block_attention
// DECOMPOSE-SAME: layout = #attic.causal
// LLVM-LABEL: llvm.func @attention
// LLVM-NOT: attic.
// NOPLUGIN: error: Dialect `attic' not found
func.func @attention(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x16xf32>) -> tensor<1x2x64x16xf32> {
  %o = attic.attention %q, %k, %v causal : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return %o : tensor<1x2x64x16xf32>
}

// -----

// The VCC ops and the tree type come with the dialect plugin too.
// ROUND-LABEL: func.func @tree
// ROUND: attic.tree_build {{.*}} -> !attic.tree<1x8x4xf32, fanouts = [2, 4]>
// LLVM-LABEL: llvm.func @tree
func.func @tree(%c: tensor<1x8x4xf32>, %valid: tensor<1x8xi1>) -> tensor<1x8x4xf32> {
  %t = attic.tree_build %c, %valid : tensor<1x8x4xf32>, tensor<1x8xi1> -> !attic.tree<1x8x4xf32, fanouts = [2, 4]>
  %m = attic.tree_materialize %t : !attic.tree<1x8x4xf32, fanouts = [2, 4]> -> tensor<1x8x4xf32>
  return %m : tensor<1x8x4xf32>
}
