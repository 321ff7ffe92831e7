// Nested in any(...), the pass manager also runs a pass on each op of the
// function: attic-lower-block-mask replaced its own root under it (a use
// after free that valgrind showed in the verifier).
// RUN: attic-opt %s --verify-diagnostics --pass-pipeline='builtin.module(func.func(any(attic-lower-block-mask)))'

func.func @mask_itself(%o: memref<1x1x8xi32>, %p: memref<1x1x8x8xi32>, %r: memref<1x1x8xi32>, %s: memref<1x1x8x8xi32>) {
  %c1024 = arith.constant 1024 : index
  // expected-error @+1 {{'attic.block_mask' op is lowered by attic-lower-block-mask running on the op that holds it (a function or module), not on the op itself}}
  attic.block_mask layout(#attic.causal) sizes(%c1024, %c1024) outs(%o, %p, %r, %s : memref<1x1x8xi32>, memref<1x1x8x8xi32>, memref<1x1x8xi32>, memref<1x1x8x8xi32>) {block_q = 128 : i64, block_k = 128 : i64}
  return
}
