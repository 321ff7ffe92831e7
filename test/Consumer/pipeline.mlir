// The consumer's own opt tool runs attic's passes and pipeline; attic's
// installed attic-compile builds a library the consumer's C program calls.

// RUN: consumer-opt %s --attic-decompose | FileCheck %s --check-prefix=L2
// RUN: consumer-opt %s --pass-pipeline="builtin.module(attic-cpu-pipeline)" | FileCheck %s --check-prefix=LLVM
// RUN: attic-compile %s --entry=small -o %t.so --header=-
// RUN: consumer-aot %t.so small | FileCheck %s --check-prefix=AOT

// L2-LABEL: func.func @small
// L2: attic.block_attention
// LLVM: llvm.func @small
// AOT: result #0 [0] = 1{{$}}
func.func @small(%q: tensor<1x1x8x4xf32>, %k: tensor<1x1x8x4xf32>, %v: tensor<1x1x8x4xf32>) -> tensor<1x1x8x4xf32> {
  %o = attic.attention %q, %k, %v causal : tensor<1x1x8x4xf32>, tensor<1x1x8x4xf32>, tensor<1x1x8x4xf32> -> tensor<1x1x8x4xf32>
  return %o : tensor<1x1x8x4xf32>
}
