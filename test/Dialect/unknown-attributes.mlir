// RUN: attic-opt %s | attic-opt | FileCheck %s
// Upstream's own annotations ("__" names), e.g. One-Shot Bufferize's in its
// analysis mode, pass (they were refused as unknown for a while).
// RUN: attic-opt %s --attic-decompose | attic-opt --one-shot-bufferize="test-analysis-only print-conflicts" | FileCheck %s --check-prefix=ANALYSIS
// ANALYSIS: attic.block_attention {{.*}}__inplace_operands_attr__

// An attribute with a dialect prefix is the user's (discardable): kept,
// and round-tripped, beside the op's own.
// CHECK-LABEL: func.func @tagged
// CHECK: attic.attention %{{.*}}, %{{.*}}, %{{.*}} causal {mine.tag = 3 : i64}
func.func @tagged(%q: tensor<1x2x64x16xf32>) -> tensor<1x2x64x16xf32> {
  %o = attic.attention %q, %q, %q causal {mine.tag = 3 : i64} : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return %o : tensor<1x2x64x16xf32>
}
