// RUN: attic-opt %s --split-input-file --attic-tile-block-attention --canonicalize --cse | FileCheck %s --check-prefix=TILED
// RUN: attic-opt %s --split-input-file --attic-tile-block-attention --canonicalize --cse --attic-cpu-map-tiles --canonicalize | FileCheck %s --check-prefix=CPU
// RUN: attic-opt %s --split-input-file --attic-tile-block-attention --canonicalize --attic-gpu-offload --canonicalize --cse --attic-gpu-map-tiles | FileCheck %s --check-prefix=GPU

// attic's passes embedded in a pipeline with upstream's cleanups between
// them: one batch, one head and one query block make every dimension of
// the tile grid a single iteration, and the single key block makes the
// key loop one too. Canonicalization folds the key loop and the constant
// indices, but the grid (an op of its own) stays whole, and both mapping
// passes take it. With the grid an scf.parallel marked attic.tile_grid,
// as before, canonicalization dissolved it into the function and the
// mapping passes failed with "is outside a tile grid".

// TILED-LABEL: func.func @one_block
// TILED: attic.tile.grid (%{{.*}}, %{{.*}}, %{{.*}}) in (%[[ONE:.*]], %[[ONE]], %[[ONE]]) {
// TILED-NOT: scf.for
// TILED: attic.tile.qk
// TILED: attic.tile.pv
// TILED: attic.tile.store
// TILED: return

// CPU-LABEL: func.func @one_block
// CPU-NOT: attic.
// CPU: vector.fma
// CPU-NOT: attic.
// CPU: return

// GPU-LABEL: func.func @one_block
// GPU-NOT: attic.
// GPU: gpu.launch
// GPU-NOT: attic.
// GPU: return
func.func @one_block(%q: memref<1x1x64x16xf32>, %k: memref<1x1x64x16xf32>, %v: memref<1x1x64x16xf32>, %o: memref<1x1x64x16xf32>) {
  attic.block_attention ins(%q, %k, %v : memref<1x1x64x16xf32>, memref<1x1x64x16xf32>, memref<1x1x64x16xf32>) outs(%o : memref<1x1x64x16xf32>) {layout = #attic.dense, scale = 0.25 : f32, block_q = 64 : i64, block_k = 64 : i64}
  return
}

// -----

// Causal with several query blocks: canonicalization leaves the grid's
// loops as they are (two of them have one iteration), and the tile ops
// keep their indices.
// TILED-LABEL: func.func @causal
// TILED: attic.tile.grid (%[[B:.*]], %[[H:.*]], %[[QB:.*]]) in (%{{.*}}, %{{.*}}, %{{.*}}) {
// TILED: scf.for
// TILED: attic.tile.qk %{{.*}}[%[[B]], %[[H]], %[[QB]]]

// CPU-LABEL: func.func @causal
// CPU-NOT: attic.
// CPU: return

// GPU-LABEL: func.func @causal
// GPU-NOT: attic.
// GPU: gpu.launch
// GPU-NOT: attic.
// GPU: return
func.func @causal(%q: memref<1x2x256x16xf32>, %k: memref<1x2x256x16xf32>, %v: memref<1x2x256x16xf32>, %o: memref<1x2x256x16xf32>) {
  attic.block_attention ins(%q, %k, %v : memref<1x2x256x16xf32>, memref<1x2x256x16xf32>, memref<1x2x256x16xf32>) outs(%o : memref<1x2x256x16xf32>) {layout = #attic.causal, scale = 0.25 : f32, block_q = 64 : i64, block_k = 64 : i64}
  return
}
