// As nested-passes-self-invalid.mlir, for attic-tile-block-attention: run
// on the op itself (under any(...)), it replaced its own root.
// RUN: attic-opt %s --verify-diagnostics --pass-pipeline='builtin.module(func.func(any(attic-tile-block-attention)))'

func.func @tile_itself(%q: memref<1x4x64x16xf32>, %k: memref<1x4x64x16xf32>, %v: memref<1x4x64x16xf32>, %o: memref<1x4x64x16xf32>) {
  // expected-error @+1 {{'attic.block_attention' op is the op attic-tile-block-attention runs on: it lowers the attic ops inside the op it runs on (a function or module), so nest it on that op, not in any(...) below it}}
  attic.block_attention ins(%q, %k, %v : memref<1x4x64x16xf32>, memref<1x4x64x16xf32>, memref<1x4x64x16xf32>)
      outs(%o : memref<1x4x64x16xf32>)
      {layout = #attic.dense, scale = 0.25 : f32, block_q = 32 : i64, block_k = 32 : i64}
  return
}
