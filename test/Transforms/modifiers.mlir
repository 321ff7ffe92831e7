// RUN: attic-opt %s --split-input-file --attic-decompose="block-q=32 block-k=32" | FileCheck %s --check-prefix=DECOMPOSE
// RUN: attic-opt %s --split-input-file --attic-decompose="block-q=32 block-k=32" --one-shot-bufferize="bufferize-function-boundaries" | FileCheck %s --check-prefix=BUFFERIZE
// RUN: attic-opt %s --split-input-file --attic-decompose="block-q=32 block-k=32" --one-shot-bufferize="bufferize-function-boundaries" --attic-lower-block-mask --attic-tile-block-attention --canonicalize --cse | FileCheck %s --check-prefix=TILE

// An affine mask region: classified by the compiler, no block_mask.
// DECOMPOSE-LABEL: func.func @affine
// DECOMPOSE-NOT: attic.block_mask
// DECOMPOSE: attic.block_attention
// DECOMPOSE-SAME: captures(%{{.*}} : tensor<2xf32>)
// DECOMPOSE: mask_mod {
// DECOMPOSE: } score_mod {
// DECOMPOSE: block_k = 32 : i64, block_q = 32 : i64, layout = #attic.causal

// The regions become private functions at bufferization.
// BUFFERIZE: func.func private @affine_mask_mod(%{{.*}}: index, %{{.*}}: index, %{{.*}}: index, %{{.*}}: index, %{{.*}}: memref<2xf32, strided<[?], offset: ?>>) -> i1 attributes {attic.modifier}
// BUFFERIZE: func.func private @affine_score_mod(%{{.*}}: f32, %{{.*}}: index, %{{.*}}: index, %{{.*}}: index, %{{.*}}: index, %[[S:.*]]: memref<2xf32, strided<[?], offset: ?>>) -> f32 attributes {attic.modifier}
// BUFFERIZE: memref.load %[[S]]
// BUFFERIZE-LABEL: func.func @affine
// BUFFERIZE: attic.block_attention
// BUFFERIZE-SAME: mask_fn = @affine_mask_mod
// BUFFERIZE-SAME: score_fn = @affine_score_mod

// In the tile loop: the mask in the key-block classification and in the
// partial blocks' predicate, the score (its capture read clamped into the
// capture) on every element; the reads are provably inside the capture
// (slopes[h], h < 2), so no check runs; the functions are gone.
// TILE-NOT: func.func private @affine_mask_mod
// TILE-NOT: func.func private @affine_score_mod
// TILE-LABEL: func.func @affine
// TILE-NOT: func.call @attic_rt_report_error
// TILE: attic.tile.grid
// TILE: scf.for
// TILE: attic.tile.map
// TILE: arith.minsi %{{.*}}, %c1 : index
// TILE: memref.load %arg3
// TILE: arith.addf
func.func @affine(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x16xf32>, %slopes: tensor<2xf32>) -> tensor<1x2x64x16xf32> {
  %o = attic.attention %q, %k, %v causal captures(%slopes : tensor<2xf32>)
      mask_mod {
      ^bb0(%b: index, %h: index, %qi: index, %ki: index, %s: tensor<2xf32>):
        %w = arith.constant 8 : index
        %d = arith.subi %qi, %ki : index
        %p = arith.cmpi sle, %d, %w : index
        attic.yield %p : i1
      } score_mod {
      ^bb0(%x: f32, %b: index, %h: index, %qi: index, %ki: index, %s: tensor<2xf32>):
        %slope = tensor.extract %s[%h] : tensor<2xf32>
        %y = arith.addf %x, %slope : f32
        attic.yield %y : f32
      }
      : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return %o : tensor<1x2x64x16xf32>
}

// -----

// A mask that reads data: a block_mask in front classifies it at run
// time, element by element; the index of the table read comes from data,
// so a check loop over the domain reports reads outside the table.
// DECOMPOSE-LABEL: func.func @data_dependent
// DECOMPOSE: attic.block_mask layout(#attic.dense) captures(%{{.*}}, %{{.*}} : tensor<1x64xi32>, tensor<4xi32>)
// DECOMPOSE: mask_mod {
// DECOMPOSE: attic.block_attention
// DECOMPOSE-SAME: blocks(

// TILE-LABEL: func.func @data_dependent
// The block_mask: the check (a loop over the domain: the table index is
// data), then per block pair a loop over its rows (until the pair is known
// partial) and one over its keys.
// TILE: scf.parallel
// TILE: scf.for
// TILE: func.call @attic_rt_report_error(%c5_i32
// TILE: scf.parallel
// TILE: scf.while
// TILE: scf.condition
// TILE: scf.for {{.*}} iter_args
// TILE: memref.load %arg3
// The attention: the same check in front of its grid.
// TILE: func.call @attic_rt_report_error(%c5_i32
// TILE: attic.tile.qk
func.func @data_dependent(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x16xf32>, %doc: tensor<1x64xi32>, %table: tensor<4xi32>) -> tensor<1x2x64x16xf32> {
  %o = attic.attention %q, %k, %v captures(%doc, %table : tensor<1x64xi32>, tensor<4xi32>)
      mask_mod {
      ^bb0(%b: index, %h: index, %qi: index, %ki: index, %d: tensor<1x64xi32>, %t: tensor<4xi32>):
        %x = tensor.extract %d[%b, %qi] : tensor<1x64xi32>
        %xi = arith.index_cast %x : i32 to index
        %group = tensor.extract %t[%xi] : tensor<4xi32>
        %y = tensor.extract %d[%b, %ki] : tensor<1x64xi32>
        %yi = arith.index_cast %y : i32 to index
        %group2 = tensor.extract %t[%yi] : tensor<4xi32>
        %p = arith.cmpi eq, %group, %group2 : i32
        attic.yield %p : i1
      }
      : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return %o : tensor<1x2x64x16xf32>
}

// -----

// A user function already named like the outlined region (@clash_score_mod,
// called by @clash): the region is outlined as @clash_score_mod_0 and the
// user's function keeps its name and body. Before, the new function took
// the name too, and bufferizing the call crashed.
// BUFFERIZE-LABEL: func.func private @clash_score_mod_0(
// BUFFERIZE-SAME: attributes {attic.modifier}
// BUFFERIZE-LABEL: func.func @clash(
// BUFFERIZE: score_fn = @clash_score_mod_0
// BUFFERIZE: call @clash_score_mod(%{{.*}}) : (memref<1x2x40x16xf32{{.*}}>) -> memref<1x2x40x16xf32{{.*}}>
// BUFFERIZE-LABEL: func.func private @clash_score_mod(
// BUFFERIZE: linalg.add
func.func @clash(%q: tensor<1x2x40x16xf32>, %k: tensor<1x2x40x16xf32>, %v: tensor<1x2x40x16xf32>, %c: tensor<2xf32>) -> tensor<1x2x40x16xf32> {
  %o = attic.attention %q, %k, %v captures(%c : tensor<2xf32>) score_mod {
      ^bb0(%s: f32, %b: index, %h: index, %qi: index, %ki: index, %t: tensor<2xf32>):
        %x = tensor.extract %t[%h] : tensor<2xf32>
        %r = arith.addf %s, %x : f32
        attic.yield %r : f32
      } : tensor<1x2x40x16xf32>, tensor<1x2x40x16xf32>, tensor<1x2x40x16xf32> -> tensor<1x2x40x16xf32>
  %o2 = call @clash_score_mod(%o) : (tensor<1x2x40x16xf32>) -> tensor<1x2x40x16xf32>
  return %o2 : tensor<1x2x40x16xf32>
}
func.func private @clash_score_mod(%x: tensor<1x2x40x16xf32>) -> tensor<1x2x40x16xf32> {
  %e = tensor.empty() : tensor<1x2x40x16xf32>
  %r = linalg.add ins(%x, %x : tensor<1x2x40x16xf32>, tensor<1x2x40x16xf32>) outs(%e : tensor<1x2x40x16xf32>) -> tensor<1x2x40x16xf32>
  return %r : tensor<1x2x40x16xf32>
}
