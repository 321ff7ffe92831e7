// Nested in any(...), the pass manager also runs a pass on each op of the
// function: attic-lower-block-mask replaced its own root under it (a use
// after free that valgrind showed in the verifier).
// RUN: attic-opt %s --verify-diagnostics --pass-pipeline='builtin.module(func.func(any(attic-lower-block-mask)))'

func.func @mask_itself(%o: memref<1x1x8xi32>, %p: memref<1x1x8x8xi32>, %r: memref<1x1x8xi32>, %s: memref<1x1x8x8xi32>) {
  %c1024 = arith.constant 1024 : index
  // expected-error @+1 {{'attic.block_mask' op is the op attic-lower-block-mask runs on: it lowers the attic ops inside the op it runs on (a function or module), so nest it on that op, not in any(...) below it}}
  attic.block_mask layout(#attic.causal) sizes(%c1024, %c1024) outs(%o, %p, %r, %s : memref<1x1x8xi32>, memref<1x1x8x8xi32>, memref<1x1x8xi32>, memref<1x1x8x8xi32>) {block_q = 128 : i64, block_k = 128 : i64}
  return
}
