// RUN: attic-opt %s --split-input-file --verify-diagnostics

// The custom forms refuse, in the attribute dictionary, the attributes they
// write with keywords and the operand segment sizes they derive from the
// operands. The ODS-generated parser let the dictionary's value replace the
// keyword's without a word (an audit): the first case ran dense with
// scale 2, and the operandSegmentSizes case turned the bias into a capture.

func.func @scale_both_ways(%q: tensor<1x2x8x4xf32>) -> tensor<1x2x8x4xf32> {
  // expected-error @+1 {{`scale` is written with its keyword before the attribute dictionary, not in it (the dictionary's value would replace the keyword's)}}
  %o = attic.attention %q, %q, %q scale 0.5 layout(#attic.causal) {scale = 2.0 : f32} : tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32> -> tensor<1x2x8x4xf32>
  return %o : tensor<1x2x8x4xf32>
}

// -----

func.func @layout_both_ways(%q: tensor<1x2x8x4xf32>) -> tensor<1x2x8x4xf32> {
  // expected-error @+1 {{`layout` is written with its keyword before the attribute dictionary}}
  %o = attic.attention %q, %q, %q layout(#attic.causal) {layout = #attic.dense} : tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32> -> tensor<1x2x8x4xf32>
  return %o : tensor<1x2x8x4xf32>
}

// -----

// In the dictionary alone it is refused too: the form has one spelling.
func.func @causal_in_dictionary(%q: tensor<1x2x8x4xf32>) -> tensor<1x2x8x4xf32> {
  // expected-error @+1 {{`causal` is written with its keyword before the attribute dictionary}}
  %o = attic.attention %q, %q, %q {causal} : tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32> -> tensor<1x2x8x4xf32>
  return %o : tensor<1x2x8x4xf32>
}

// -----

func.func @block_sizes_in_dictionary(%q: tensor<1x2x8x4xf32>) -> tensor<1x2x8x4xf32> {
  // expected-error @+1 {{`block_sizes` is written with its keyword before the attribute dictionary}}
  %o = attic.attention %q, %q, %q {block_sizes = array<i64: 4, 4>} : tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32> -> tensor<1x2x8x4xf32>
  return %o : tensor<1x2x8x4xf32>
}

// -----

func.func @segments_in_dictionary(%q: tensor<1x2x8x4xf32>, %b: tensor<1x8xf32>) -> tensor<1x2x8x4xf32> {
  // expected-error @+1 {{`operandSegmentSizes` is derived from the operands; it cannot be given in the attribute dictionary}}
  %o = attic.attention %q, %q, %q bias(%b : tensor<1x8xf32>) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 1, 0, 0, 0, 0>} : tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32> -> tensor<1x2x8x4xf32>
  return %o : tensor<1x2x8x4xf32>
}

// -----

func.func @block_attention_segments(%q: memref<1x2x8x4xf32>, %o: memref<1x2x8x4xf32>) {
  // expected-error @+1 {{`operandSegmentSizes` is derived from the operands}}
  attic.block_attention ins(%q, %q, %q : memref<1x2x8x4xf32>, memref<1x2x8x4xf32>, memref<1x2x8x4xf32>) outs(%o : memref<1x2x8x4xf32>) {layout = #attic.dense, scale = 0.5 : f32, block_q = 4 : i64, block_k = 4 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0>}
  return
}

// -----

func.func @block_mask_layout(%e0: tensor<1x1x2xi32>, %e1: tensor<1x1x2x2xi32>) {
  %c8 = arith.constant 8 : index
  // expected-error @+1 {{`layout` is written with its keyword before the attribute dictionary}}
  %n, %i, %fn, %fi = attic.block_mask layout(#attic.causal) sizes(%c8, %c8)
      outs(%e0, %e1, %e0, %e1 : tensor<1x1x2xi32>, tensor<1x1x2x2xi32>, tensor<1x1x2xi32>, tensor<1x1x2x2xi32>)
      {block_q = 4 : i64, block_k = 4 : i64, layout = #attic.dense}
      -> tensor<1x1x2xi32>, tensor<1x1x2x2xi32>, tensor<1x1x2xi32>, tensor<1x1x2x2xi32>
  return
}

// -----

func.func @kernelized_feature_map(%q: tensor<1x2x64x16xf32>) {
  // expected-error @+1 {{`feature_map` is written with its keyword before the attribute dictionary}}
  %o = attic.kernelized_attention elu_plus_one %q, %q, %q {feature_map = 0 : i32}
      : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

func.func @feature_map_map(%x: tensor<1x2x64x16xf32>) {
  // expected-error @+1 {{`map` is written with its keyword before the attribute dictionary}}
  %phi = attic.feature_map elu_plus_one %x {map = 0 : i32} : tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

func.func @skeinformer_sampling(%q: tensor<1x2x64x16xf32>) {
  // expected-error @+1 {{`sampling` is written with its keyword before the attribute dictionary}}
  %o = attic.skeinformer_attention %q, %q, %q {samples = 16 : i64, seed = 1 : i64, sampling = 0 : i32} : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

func.func @tile_reduce_kind(%t: memref<8x8xf32>, %o: memref<8xf32>) {
  // expected-error @+1 {{`kind` is written with its keyword before the attribute dictionary}}
  attic.tile.reduce max %t into %o {kind = #attic<tile_reduce add>} : memref<8x8xf32> into memref<8xf32>
  return
}

// -----

func.func @state_reduce_segments(%f: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x8xf32>) {
  // expected-error @+1 {{`operandSegmentSizes` is derived from the operands}}
  %s, %z = attic.state_reduce %f, %v {operandSegmentSizes = array<i32: 1, 1, 0>}
      : tensor<1x2x64x16xf32>, tensor<1x2x64x8xf32> -> tensor<1x2x16x8xf32>, tensor<1x2x16xf32>
  return
}

// -----

// A modifier region where the syntax takes none is named as such: it was
// "cannot name an operation with no results" (or "custom op 'score_mod' is
// unknown"), the parser having ended the op before the keyword.
func.func @block_mask_score_mod(%e0: tensor<1x1x2xi32>, %e1: tensor<1x1x2x2xi32>) {
  %c8 = arith.constant 8 : index
  %n, %i, %fn, %fi = attic.block_mask layout(#attic.causal) sizes(%c8, %c8)
      outs(%e0, %e1, %e0, %e1 : tensor<1x1x2xi32>, tensor<1x1x2x2xi32>, tensor<1x1x2xi32>, tensor<1x1x2x2xi32>)
      // expected-error @+1 {{`score_mod` is not accepted here: the modifier regions come before the attribute dictionary, `mask_mod` then `score_mod`, each at most once (attic.block_mask takes only `mask_mod`}}
      score_mod {
      ^bb0(%s: f32, %b: index, %h: index, %q: index, %k: index):
        attic.yield %s : f32
      }
      {block_q = 4 : i64, block_k = 4 : i64}
      -> tensor<1x1x2xi32>, tensor<1x1x2x2xi32>, tensor<1x1x2xi32>, tensor<1x1x2x2xi32>
  return
}
