// RUN: attic-opt %s --split-input-file --verify-diagnostics

func.func @negative_window(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x16xf32>) {
  // expected-error @+1 {{#attic.window widths must be >= 0, got left = -1 and right = 0}}
  %0 = attic.attention %q, %k, %v layout(#attic.window<left = -1, right = 0>) : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

func.func @zero_dilation(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x16xf32>) {
  // expected-error @+1 {{#attic.dilated dilation must be >= 1, got 0}}
  %0 = attic.attention %q, %k, %v layout(#attic.dilated<left = 8, right = 8, dilation = 0>) : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

func.func @zero_stride(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x16xf32>) {
  // expected-error @+1 {{#attic.strided stride must be >= 1, got 0}}
  %0 = attic.attention %q, %k, %v layout(#attic.strided<stride = 0>) : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

func.func @fixed_summary(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x16xf32>) {
  // expected-error @+1 {{#attic.fixed summary must be in [0, block = 8], got 9}}
  %0 = attic.attention %q, %k, %v layout(#attic.fixed<block = 8, summary = 9>) : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

func.func @global_order(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x16xf32>) {
  // expected-error @+1 {{#attic.global tokens must be ascending and distinct, got 5 before 3}}
  %0 = attic.attention %q, %k, %v layout(#attic.global<tokens = [5, 3]>) : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

func.func @negative_sinks(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x16xf32>) {
  // expected-error @+1 {{#attic.sinks count must be >= 0, got -4}}
  %0 = attic.attention %q, %k, %v layout(#attic.sinks<count = -4>) : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

func.func @random_count(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x16xf32>) {
  // expected-error @+1 {{#attic.random count must be in [1, 16], got 40}}
  %0 = attic.attention %q, %k, %v layout(#attic.random<block = 8, count = 40, seed = 1>) : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

func.func @blocked_size(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x16xf32>) {
  // expected-error @+1 {{#attic.blocked size must be >= 1, got 0}}
  %0 = attic.attention %q, %k, %v layout(#attic.blocked<size = 0, layout = #attic.causal>) : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

func.func @blocked_documents(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x16xf32>, %ids: tensor<1x64xi32>) {
  // expected-error @+1 {{#attic.blocked applies its layout to block indices, but #attic.documents reads per-token ids}}
  %0 = attic.attention %q, %k, %v layout(#attic.blocked<size = 16, layout = #attic.union<[#attic.causal, #attic.documents<query_ids = 0, key_ids = 0>]>>) layout_operands(%ids : tensor<1x64xi32>) : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

func.func @empty_union(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x16xf32>) {
  // expected-error @+1 {{#attic.union needs at least one layout}}
  %0 = attic.attention %q, %k, %v layout(#attic.union<[]>) : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

func.func @not_a_layout(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x16xf32>) {
  // expected-error @+1 {{#attic.intersect combines layouts, but 3 : i64 is not one}}
  %0 = attic.attention %q, %k, %v layout(#attic.intersect<[#attic.causal, 3]>) : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

func.func @documents_missing_operand(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x16xf32>, %ids: tensor<1x64xi32>) {
  // expected-error @+1 {{'attic.attention' op #attic.documents key_ids = 1 names layout operand #1, but the op has 1 layout operand(s)}}
  %0 = attic.attention %q, %k, %v layout(#attic.documents<query_ids = 0, key_ids = 1>) layout_operands(%ids : tensor<1x64xi32>) : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

func.func @documents_shape(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x16xf32>, %ids: tensor<1x32xi32>) {
  // expected-error @+1 {{'attic.attention' op #attic.documents query_ids: layout operand #0 has shape 1x32 but [B, Nq] = 1x64 is expected}}
  %0 = attic.attention %q, %k, %v layout(#attic.documents<query_ids = 0, key_ids = 0>) layout_operands(%ids : tensor<1x32xi32>) : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

func.func @documents_type(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x16xf32>, %ids: tensor<1x64xf32>) {
  // expected-error @+1 {{'attic.attention' op #attic.documents query_ids: layout operand #0 must be [B, Nq] of i32 or i64, got 'tensor<1x64xf32>'}}
  %0 = attic.attention %q, %k, %v layout(#attic.documents<query_ids = 0, key_ids = 0>) layout_operands(%ids : tensor<1x64xf32>) : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

func.func @gqa_heads(%q: tensor<1x6x64x16xf32>, %k: tensor<1x4x64x16xf32>, %v: tensor<1x4x64x16xf32>) {
  // expected-error @+1 {{'attic.attention' op query has 6 heads and key/value 4: Hq must be a multiple of Hkv (grouped-query attention)}}
  %0 = attic.attention %q, %k, %v : tensor<1x6x64x16xf32>, tensor<1x4x64x16xf32>, tensor<1x4x64x16xf32> -> tensor<1x6x64x16xf32>
  return
}

// -----

func.func @zero_heads(%q: tensor<1x0x64x16xf32>, %k: tensor<1x0x64x16xf32>, %v: tensor<1x0x64x16xf32>) {
  // expected-error @+1 {{'attic.attention' op key/value have 0 heads: Hkv must be positive (query has 0 heads)}}
  %0 = attic.attention %q, %k, %v : tensor<1x0x64x16xf32>, tensor<1x0x64x16xf32>, tensor<1x0x64x16xf32> -> tensor<1x0x64x16xf32>
  return
}

// -----

func.func @gqa_bias(%q: tensor<1x8x64x16xf32>, %k: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x16xf32>, %b: tensor<1x2x64xf32>) {
  // expected-error @+1 {{'attic.attention' op key_bias has shape 1x2x64 but [B,Hq,Nk] = 1x8x64 is expected: dim 1 (Hq) is 2, query has 8}}
  %0 = attic.attention %q, %k, %v bias(%b : tensor<1x2x64xf32>) : tensor<1x8x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x8x64x16xf32>
  return
}

// -----

func.func @lists_without_sizes(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x16xf32>, %n: tensor<1x1x2xi32>, %i: tensor<1x1x2x2xi32>) {
  // expected-error @+1 {{block_sizes must be two positive sizes [block_q, block_k] (the blocks of the lists)}}
  %0 = attic.attention %q, %k, %v blocks(%n, %i, %n, %i : tensor<1x1x2xi32>, tensor<1x1x2x2xi32>, tensor<1x1x2xi32>, tensor<1x1x2x2xi32>) : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

func.func @lists_do_not_fit_blocks(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x16xf32>, %n: tensor<1x1x2xi32>, %i: tensor<1x1x2x2xi32>) {
  // expected-error @+1 {{'attic.attention' op kv_num_blocks has 2 query blocks but ceil(Nq/block_q) = ceil(64/16) = 4}}
  %0 = attic.attention %q, %k, %v blocks(%n, %i, %n, %i : tensor<1x1x2xi32>, tensor<1x1x2x2xi32>, tensor<1x1x2xi32>, tensor<1x1x2x2xi32>) block_sizes [16, 16] : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

func.func @lists_heads(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x16xf32>, %n: tensor<1x3x2xi32>, %i: tensor<1x3x2x2xi32>) {
  // expected-error @+1 {{'attic.attention' op kv_num_blocks has 3 heads but Hq is 2 (it must be 1 or Hq)}}
  %0 = attic.attention %q, %k, %v blocks(%n, %i, %n, %i : tensor<1x3x2xi32>, tensor<1x3x2x2xi32>, tensor<1x3x2xi32>, tensor<1x3x2x2xi32>) block_sizes [32, 32] : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

func.func @lists_element_type(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x16xf32>, %n: tensor<1x1x2xi32>, %i: tensor<1x1x2x2xi64>) {
  // expected-error @+1 {{'attic.attention' op operand #4 must be a block list, a ranked tensor of 32-bit signless integer values, but got 'tensor<1x1x2x2xi64>'}}
  %0 = attic.attention %q, %k, %v blocks(%n, %i, %n, %i : tensor<1x1x2xi32>, tensor<1x1x2x2xi64>, tensor<1x1x2xi32>, tensor<1x1x2x2xi64>) block_sizes [32, 32] : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

func.func @block_lists_incomplete(%q: memref<1x2x64x16xf32>, %k: memref<1x2x64x16xf32>, %v: memref<1x2x64x16xf32>, %o: memref<1x2x64x16xf32>, %n: memref<1x1x2xi32>) {
  // expected-error @+1 {{'attic.block_attention' op block lists come as four operands (kv_num_blocks, kv_indices, full_kv_num_blocks, full_kv_indices)}}
  "attic.block_attention"(%q, %k, %v, %n, %o) <{block_k = 32 : i64, block_q = 32 : i64, layout = #attic.dense, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0>, scale = 2.500000e-01 : f32}> ({}, {}) : (memref<1x2x64x16xf32>, memref<1x2x64x16xf32>, memref<1x2x64x16xf32>, memref<1x1x2xi32>, memref<1x2x64x16xf32>) -> ()
  return
}

// -----

func.func @block_mask_length(%ids: tensor<1x64xi32>) {
  %c = arith.constant -1 : index
  %c64 = arith.constant 64 : index
  %e3 = tensor.empty() : tensor<1x1x2xi32>
  %e4 = tensor.empty() : tensor<1x1x2x2xi32>
  // expected-error @+1 {{'attic.block_mask' op query_len and key_len must be >= 0, got -1 and 64}}
  %n, %i, %fn, %fi = attic.block_mask layout(#attic.causal) sizes(%c, %c64) outs(%e3, %e4, %e3, %e4 : tensor<1x1x2xi32>, tensor<1x1x2x2xi32>, tensor<1x1x2xi32>, tensor<1x1x2x2xi32>) {block_q = 32 : i64, block_k = 32 : i64} -> tensor<1x1x2xi32>, tensor<1x1x2x2xi32>, tensor<1x1x2xi32>, tensor<1x1x2x2xi32>
  return
}

// -----

func.func @block_mask_batch(%ids: tensor<2x64xi32>) {
  %c64 = arith.constant 64 : index
  %e3 = tensor.empty() : tensor<1x1x2xi32>
  %e4 = tensor.empty() : tensor<1x1x2x2xi32>
  // expected-error @+1 {{'attic.block_mask' op #attic.documents query_ids: layout operand #0 has shape 2x64 but [B, Nq] = 1x64 is expected}}
  %n, %i, %fn, %fi = attic.block_mask layout(#attic.documents<query_ids = 0, key_ids = 0>) layout_operands(%ids : tensor<2x64xi32>) sizes(%c64, %c64) outs(%e3, %e4, %e3, %e4 : tensor<1x1x2xi32>, tensor<1x1x2x2xi32>, tensor<1x1x2xi32>, tensor<1x1x2x2xi32>) {block_q = 32 : i64, block_k = 32 : i64} -> tensor<1x1x2xi32>, tensor<1x1x2x2xi32>, tensor<1x1x2xi32>, tensor<1x1x2x2xi32>
  return
}

// -----

func.func @tile_map_yield(%s: memref<8x8xf32>, %i: index) {
  // expected-error @+1 {{'attic.tile.map' op yielded value #0 must be 'f32' (the element type of output #0), got 'i1'}}
  attic.tile.map at(%i, %i) outs(%s : memref<8x8xf32>) {
  ^bb0(%q: index, %k: index, %old: f32):
    %t = arith.constant true
    attic.tile.yield %t : i1
  }
  return
}

// -----

func.func @tile_map_arguments(%s: memref<8x8xf32>, %r: memref<8xf32>, %i: index) {
  // expected-error @+1 {{'attic.tile.map' op region must take 4 arguments (2 index, then one element per operand), got 3}}
  attic.tile.map at(%i, %i) rows(%r : memref<8xf32>) outs(%s : memref<8x8xf32>) {
  ^bb0(%q: index, %k: index, %old: f32):
    attic.tile.yield %old : f32
  }
  return
}

// -----

func.func @tile_map_cols_size(%s: memref<8x8xf32>, %c: memref<4xf32>, %i: index) {
  // expected-error @+1 {{'attic.tile.map' op column operand 'memref<4xf32>' has 4 elements along dim 0 but C is 8}}
  attic.tile.map at(%i, %i) cols(%c : memref<4xf32>) outs(%s : memref<8x8xf32>) {
  ^bb0(%q: index, %k: index, %x: f32, %old: f32):
    attic.tile.yield %x : f32
  }
  return
}

// -----

func.func @tile_pv_columns(%p: memref<8x8xf32>, %v: memref<1x1x16x4xf32>, %r: memref<8xf32>, %acc: memref<8x8xf32>, %i: index) {
  // expected-error @+1 {{'attic.tile.pv' op acc has 8 columns but value has Dv = 4}}
  attic.tile.pv %p, %v[%i, %i, %i] rescale(%r) into %acc : memref<8x8xf32>, memref<1x1x16x4xf32>, memref<8xf32> into memref<8x8xf32>
  return
}

// -----

func.func @tile_qk_dims(%q: memref<1x1x16x4xf32>, %k: memref<1x1x16x8xf32>, %s: memref<8x8xf32>, %i: index) {
  // expected-error @+1 {{'attic.tile.qk' op key has 8 columns but query has 4}}
  attic.tile.qk %q[%i, %i, %i], %k[%i, %i, %i] into %s : memref<1x1x16x4xf32>, memref<1x1x16x8xf32> into memref<8x8xf32>
  return
}

// -----

func.func @tile_store_row_into_4d(%t: memref<32xf32>, %o: memref<1x2x64x8xf32>, %i: index) {
  // expected-error @+1 {{'attic.tile.store' op a 1-D tile (one value per row) goes into a [B,H,Nq] f32 out, got 'memref<1x2x64x8xf32>'}}
  attic.tile.store %t into %o[%i, %i, %i] : memref<32xf32> into memref<1x2x64x8xf32>
  return
}

// -----

func.func @dilated_width(%q: tensor<1x2x64x16xf32>) {
  // expected-error @+1 {{#attic.dilated widths must be >= 0, got left = 8 and right = -1}}
  %0 = attic.attention %q, %q, %q layout(#attic.dilated<left = 8, right = -1, dilation = 2>) : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

func.func @fixed_block(%q: tensor<1x2x64x16xf32>) {
  // expected-error @+1 {{#attic.fixed block must be >= 1, got 0}}
  %0 = attic.attention %q, %q, %q layout(#attic.fixed<block = 0, summary = 0>) : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

func.func @global_negative(%q: tensor<1x2x64x16xf32>) {
  // expected-error @+1 {{#attic.global tokens must be >= 0, got -1}}
  %0 = attic.attention %q, %q, %q layout(#attic.global<tokens = [-1, 3]>) : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

func.func @documents_negative(%q: tensor<1x2x64x16xf32>, %ids: tensor<1x64xi32>) {
  // expected-error @+1 {{#attic.documents operand positions must be >= 0, got query_ids = -1 and key_ids = 0}}
  %0 = attic.attention %q, %q, %q layout(#attic.documents<query_ids = -1, key_ids = 0>) layout_operands(%ids : tensor<1x64xi32>) : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

func.func @random_block(%q: tensor<1x2x64x16xf32>) {
  // expected-error @+1 {{#attic.random block must be >= 1, got 0}}
  %0 = attic.attention %q, %q, %q layout(#attic.random<block = 0, count = 2, seed = 1>) : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

func.func @block_diagonal_query(%q: tensor<1x2x64x16xf32>) {
  // expected-error @+1 {{#attic.block_diagonal query must be >= 1, got 0}}
  %0 = attic.attention %q, %q, %q layout(#attic.block_diagonal<query = 0, key = 8>) : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

// Layout parameters are bounded by 2^40: larger ones would overflow the
// classification's 64-bit index sums and mean nothing more.
func.func @window_right_past_2_40(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x16xf32>) {
  // expected-error @+1 {{#attic.window right must be at most 2^40 = 1099511627776 (more tokens than any tensor holds), got 9223372036854775806}}
  %0 = attic.attention %q, %k, %v layout(#attic.window<left = 0, right = 9223372036854775806>) : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

func.func @window_left_past_2_40(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x16xf32>) {
  // expected-error @+1 {{#attic.window left must be at most 2^40 = 1099511627776}}
  %0 = attic.attention %q, %k, %v layout(#attic.window<left = 1099511627777, right = 0, align = bottom_right>) : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

func.func @dilated_past_2_40(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x16xf32>) {
  // expected-error @+1 {{#attic.dilated dilation must be at most 2^40}}
  %0 = attic.attention %q, %k, %v layout(#attic.dilated<left = 1, right = 1, dilation = 9223372036854775807>) : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

func.func @strided_past_2_40(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x16xf32>) {
  // expected-error @+1 {{#attic.strided stride must be at most 2^40}}
  %0 = attic.attention %q, %k, %v layout(#attic.strided<stride = 1099511627777>) : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

func.func @fixed_past_2_40(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x16xf32>) {
  // expected-error @+1 {{#attic.fixed block must be at most 2^40}}
  %0 = attic.attention %q, %k, %v layout(#attic.fixed<block = 1099511627777, summary = 1>) : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

func.func @global_past_2_40(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x16xf32>) {
  // expected-error @+1 {{#attic.global tokens must be at most 2^40 = 1099511627776 (more tokens than any tensor holds), got 9223372036854775807}}
  %0 = attic.attention %q, %k, %v layout(#attic.global<tokens = [0, 9223372036854775807]>) : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

func.func @sinks_past_2_40(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x16xf32>) {
  // expected-error @+1 {{#attic.sinks count must be at most 2^40}}
  %0 = attic.attention %q, %k, %v layout(#attic.sinks<count = 1099511627777>) : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

func.func @random_past_2_40(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x16xf32>) {
  // expected-error @+1 {{#attic.random block must be at most 2^40}}
  %0 = attic.attention %q, %k, %v layout(#attic.random<block = 1099511627777, count = 1, seed = 1>) : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

func.func @blocked_past_2_40(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x16xf32>) {
  // expected-error @+1 {{#attic.blocked size must be at most 2^40}}
  %0 = attic.attention %q, %k, %v layout(#attic.blocked<size = 1099511627777, layout = #attic.causal>) : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

func.func @block_diagonal_past_2_40(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x16xf32>) {
  // expected-error @+1 {{#attic.block_diagonal key must be at most 2^40}}
  %0 = attic.attention %q, %k, %v layout(#attic.block_diagonal<query = 8, key = 1099511627777>) : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

// Lists with one head row stand for every head: with a layout that draws
// per head (#attic.random), its full blocks would be head 0's for all.
func.func @broadcast_lists_head_dependent_layout(%q: tensor<1x4x64x8xf32>, %n: tensor<1x1x4xi32>, %i: tensor<1x1x4x4xi32>) {
  // expected-error @+1 {{'attic.attention' op has block lists with one head row, which stand for all 4 heads, but its layout depends on the head: the lists' full blocks would be the first head's for every head; give lists with 4 head rows (attic.block_mask with outs of that shape)}}
  %0 = attic.attention %q, %q, %q layout(#attic.random<block = 16, count = 2, seed = 7>) blocks(%n, %i, %n, %i : tensor<1x1x4xi32>, tensor<1x1x4x4xi32>, tensor<1x1x4xi32>, tensor<1x1x4x4xi32>) block_sizes [16, 16] : tensor<1x4x64x8xf32>, tensor<1x4x64x8xf32>, tensor<1x4x64x8xf32> -> tensor<1x4x64x8xf32>
  return
}

// -----

// The same for a mask region that reads the head.
func.func @broadcast_lists_head_dependent_region(%q: tensor<1x4x64x8xf32>, %n: tensor<1x1x4xi32>, %i: tensor<1x1x4x4xi32>) {
  // expected-error @+1 {{'attic.attention' op has block lists with one head row, which stand for all 4 heads, but its mask region depends on the head}}
  %0 = attic.attention %q, %q, %q blocks(%n, %i, %n, %i : tensor<1x1x4xi32>, tensor<1x1x4x4xi32>, tensor<1x1x4xi32>, tensor<1x1x4x4xi32>) block_sizes [16, 16] mask_mod {
  ^bb0(%b: index, %h: index, %qi: index, %ki: index):
    %c0 = arith.constant 0 : index
    %even = arith.cmpi eq, %h, %c0 : index
    attic.yield %even : i1
  } : tensor<1x4x64x8xf32>, tensor<1x4x64x8xf32>, tensor<1x4x64x8xf32> -> tensor<1x4x64x8xf32>
  return
}

// -----

// Lists with one head row from an attic.block_mask whose layout draws per
// head, used by an attention without a layout of its own: head 0's random
// blocks for all four heads (an audit; the attention's own layout did not
// say so).
func.func @broadcast_lists_from_head_dependent_block_mask(%q: tensor<1x4x37x8xf32>) {
  %c37 = arith.constant 37 : index
  %e3 = tensor.empty() : tensor<1x1x5xi32>
  %e4 = tensor.empty() : tensor<1x1x5x5xi32>
  %n, %i, %fn, %fi = attic.block_mask layout(#attic.random<block = 3, count = 2, seed = 77>) sizes(%c37, %c37) outs(%e3, %e4, %e3, %e4 : tensor<1x1x5xi32>, tensor<1x1x5x5xi32>, tensor<1x1x5xi32>, tensor<1x1x5x5xi32>) {block_q = 8 : i64, block_k = 8 : i64} -> tensor<1x1x5xi32>, tensor<1x1x5x5xi32>, tensor<1x1x5xi32>, tensor<1x1x5x5xi32>
  // expected-error @+1 {{'attic.attention' op has block lists with one head row, which stand for all 4 heads, from an attic.block_mask whose layout depends on the head: they hold the first head's blocks only; give that attic.block_mask outs with 4 head rows}}
  %o = attic.attention %q, %q, %q blocks(%n, %i, %fn, %fi : tensor<1x1x5xi32>, tensor<1x1x5x5xi32>, tensor<1x1x5xi32>, tensor<1x1x5x5xi32>) block_sizes [8, 8] : tensor<1x4x37x8xf32>, tensor<1x4x37x8xf32>, tensor<1x4x37x8xf32> -> tensor<1x4x37x8xf32>
  return
}

// -----

// Through casts that make the head dim dynamic, and with the counts from a
// head-independent block_mask but the full lists from the random one (the
// check looked at kv_num_blocks itself only; a review).
func.func @broadcast_lists_through_casts(%q: tensor<1x4x37x8xf32>) {
  %c37 = arith.constant 37 : index
  %e3 = tensor.empty() : tensor<1x1x5xi32>
  %e4 = tensor.empty() : tensor<1x1x5x5xi32>
  %n, %i, %fn, %fi = attic.block_mask layout(#attic.random<block = 3, count = 2, seed = 77>) sizes(%c37, %c37) outs(%e3, %e4, %e3, %e4 : tensor<1x1x5xi32>, tensor<1x1x5x5xi32>, tensor<1x1x5xi32>, tensor<1x1x5x5xi32>) {block_q = 8 : i64, block_k = 8 : i64} -> tensor<1x1x5xi32>, tensor<1x1x5x5xi32>, tensor<1x1x5xi32>, tensor<1x1x5x5xi32>
  %n2 = tensor.cast %n : tensor<1x1x5xi32> to tensor<1x?x5xi32>
  %i2 = tensor.cast %i : tensor<1x1x5x5xi32> to tensor<1x?x5x5xi32>
  // expected-error @+1 {{'attic.attention' op has block lists with one head row, which stand for all 4 heads, from an attic.block_mask whose layout depends on the head}}
  %o = attic.attention %q, %q, %q blocks(%n2, %i2, %n2, %i2 : tensor<1x?x5xi32>, tensor<1x?x5x5xi32>, tensor<1x?x5xi32>, tensor<1x?x5x5xi32>) block_sizes [8, 8] : tensor<1x4x37x8xf32>, tensor<1x4x37x8xf32>, tensor<1x4x37x8xf32> -> tensor<1x4x37x8xf32>
  return
}

// -----

func.func @broadcast_lists_mixed_sources(%q: tensor<1x4x37x8xf32>) {
  %c37 = arith.constant 37 : index
  %e3 = tensor.empty() : tensor<1x1x5xi32>
  %e4 = tensor.empty() : tensor<1x1x5x5xi32>
  %n, %i, %fn, %fi = attic.block_mask layout(#attic.random<block = 3, count = 2, seed = 77>) sizes(%c37, %c37) outs(%e3, %e4, %e3, %e4 : tensor<1x1x5xi32>, tensor<1x1x5x5xi32>, tensor<1x1x5xi32>, tensor<1x1x5x5xi32>) {block_q = 8 : i64, block_k = 8 : i64} -> tensor<1x1x5xi32>, tensor<1x1x5x5xi32>, tensor<1x1x5xi32>, tensor<1x1x5x5xi32>
  %m, %j, %fm, %fj = attic.block_mask layout(#attic.dense) sizes(%c37, %c37) outs(%e3, %e4, %e3, %e4 : tensor<1x1x5xi32>, tensor<1x1x5x5xi32>, tensor<1x1x5xi32>, tensor<1x1x5x5xi32>) {block_q = 8 : i64, block_k = 8 : i64} -> tensor<1x1x5xi32>, tensor<1x1x5x5xi32>, tensor<1x1x5xi32>, tensor<1x1x5x5xi32>
  // expected-error @+1 {{'attic.attention' op has block lists with one head row, which stand for all 4 heads, from an attic.block_mask whose layout depends on the head}}
  %o = attic.attention %q, %q, %q blocks(%m, %j, %fn, %fi : tensor<1x1x5xi32>, tensor<1x1x5x5xi32>, tensor<1x1x5xi32>, tensor<1x1x5x5xi32>) block_sizes [8, 8] : tensor<1x4x37x8xf32>, tensor<1x4x37x8xf32>, tensor<1x4x37x8xf32> -> tensor<1x4x37x8xf32>
  return
}

// -----

// The same for a block_mask's mask region that reads the batch.
func.func @broadcast_lists_from_batch_dependent_block_mask(%q: tensor<2x1x37x8xf32>) {
  %c37 = arith.constant 37 : index
  %e3 = tensor.empty() : tensor<1x1x5xi32>
  %e4 = tensor.empty() : tensor<1x1x5x5xi32>
  %n, %i, %fn, %fi = attic.block_mask layout(#attic.dense) sizes(%c37, %c37) outs(%e3, %e4, %e3, %e4 : tensor<1x1x5xi32>, tensor<1x1x5x5xi32>, tensor<1x1x5xi32>, tensor<1x1x5x5xi32>) mask_mod {
  ^bb0(%b: index, %h: index, %qi: index, %ki: index):
    %le = arith.cmpi ule, %ki, %b : index
    attic.yield %le : i1
  } {block_q = 8 : i64, block_k = 8 : i64} -> tensor<1x1x5xi32>, tensor<1x1x5x5xi32>, tensor<1x1x5xi32>, tensor<1x1x5x5xi32>
  // expected-error @+1 {{'attic.attention' op has block lists with one batch row, which stand for all 2 batches, from an attic.block_mask whose mask region depends on the batch}}
  %o = attic.attention %q, %q, %q blocks(%n, %i, %fn, %fi : tensor<1x1x5xi32>, tensor<1x1x5x5xi32>, tensor<1x1x5xi32>, tensor<1x1x5x5xi32>) block_sizes [8, 8] : tensor<2x1x37x8xf32>, tensor<2x1x37x8xf32>, tensor<2x1x37x8xf32> -> tensor<2x1x37x8xf32>
  return
}

// -----

// One head, or a layout and region that do not read the head: fine.
func.func @broadcast_lists_ok(%q: tensor<1x1x64x8xf32>, %q4: tensor<1x4x64x8xf32>, %n: tensor<1x1x4xi32>, %i: tensor<1x1x4x4xi32>) {
  %0 = attic.attention %q, %q, %q layout(#attic.random<block = 16, count = 2, seed = 7>) blocks(%n, %i, %n, %i : tensor<1x1x4xi32>, tensor<1x1x4x4xi32>, tensor<1x1x4xi32>, tensor<1x1x4x4xi32>) block_sizes [16, 16] : tensor<1x1x64x8xf32>, tensor<1x1x64x8xf32>, tensor<1x1x64x8xf32> -> tensor<1x1x64x8xf32>
  %1 = attic.attention %q4, %q4, %q4 causal blocks(%n, %i, %n, %i : tensor<1x1x4xi32>, tensor<1x1x4x4xi32>, tensor<1x1x4xi32>, tensor<1x1x4x4xi32>) block_sizes [16, 16] : tensor<1x4x64x8xf32>, tensor<1x4x64x8xf32>, tensor<1x4x64x8xf32> -> tensor<1x4x64x8xf32>
  return
}

// -----

// Lists read in other blocks than the attic.block_mask made them in: keys
// 32-63 were never visited, with exit 0 and --check ok (an audit).
func.func @lists_of_other_block_sizes(%q: tensor<1x1x64x8xf32>) {
  %c64 = arith.constant 64 : index
  %e3 = tensor.empty() : tensor<1x1x4xi32>
  %e4 = tensor.empty() : tensor<1x1x4x8xi32>
  %n, %i, %fn, %fi = attic.block_mask layout(#attic.causal) sizes(%c64, %c64) outs(%e3, %e4, %e3, %e4 : tensor<1x1x4xi32>, tensor<1x1x4x8xi32>, tensor<1x1x4xi32>, tensor<1x1x4x8xi32>) {block_q = 16 : i64, block_k = 16 : i64} -> tensor<1x1x4xi32>, tensor<1x1x4x8xi32>, tensor<1x1x4xi32>, tensor<1x1x4x8xi32>
  // expected-error @+1 {{'attic.attention' op reads its block lists in blocks of 16x8, but they come from an attic.block_mask of 16x16 blocks; give both the same block sizes}}
  %o = attic.attention %q, %q, %q layout(#attic.causal) blocks(%n, %i, %fn, %fi : tensor<1x1x4xi32>, tensor<1x1x4x8xi32>, tensor<1x1x4xi32>, tensor<1x1x4x8xi32>) block_sizes [16, 8] : tensor<1x1x64x8xf32>, tensor<1x1x64x8xf32>, tensor<1x1x64x8xf32> -> tensor<1x1x64x8xf32>
  return
}

// -----

// Lists of a block_mask for 32 keys, read by an attention of 64.
func.func @lists_of_other_lengths(%q: tensor<1x1x64x8xf32>) {
  %c64 = arith.constant 64 : index
  %c32 = arith.constant 32 : index
  %e3 = tensor.empty() : tensor<1x1x4xi32>
  %e4 = tensor.empty() : tensor<1x1x4x2xi32>
  %n, %i, %fn, %fi = attic.block_mask layout(#attic.causal) sizes(%c64, %c32) outs(%e3, %e4, %e3, %e4 : tensor<1x1x4xi32>, tensor<1x1x4x2xi32>, tensor<1x1x4xi32>, tensor<1x1x4x2xi32>) {block_q = 16 : i64, block_k = 16 : i64} -> tensor<1x1x4xi32>, tensor<1x1x4x2xi32>, tensor<1x1x4xi32>, tensor<1x1x4x2xi32>
  // expected-error @+1 {{'attic.block_attention' op has Nk = 64, but its block lists come from an attic.block_mask with key_len 32; give the attic.block_mask the attention's lengths}}
  %o = attic.block_attention ins(%q, %q, %q : tensor<1x1x64x8xf32>, tensor<1x1x64x8xf32>, tensor<1x1x64x8xf32>) blocks(%n, %i, %fn, %fi : tensor<1x1x4xi32>, tensor<1x1x4x2xi32>, tensor<1x1x4xi32>, tensor<1x1x4x2xi32>) outs(%q : tensor<1x1x64x8xf32>) {layout = #attic.causal, scale = 1.0 : f32, block_q = 16 : i64, block_k = 16 : i64} -> tensor<1x1x64x8xf32>
  return
}

// -----

// A negative seed read as 2^64 - 1 without a word (an audit).
func.func @negative_seed(%q: tensor<1x2x64x16xf32>) {
  // expected-error @+2 {{a seed is an integer in [0, 2^64), got a negative one}}
  // expected-error @+1 {{failed to parse Attic_RandomLayoutAttr parameter 'seed'}}
  %0 = attic.attention %q, %q, %q layout(#attic.random<block = 8, count = 2, seed = -1>) : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

// `true` read as a 1-bit integer, then 2^64 - 1 (an audit).
func.func @boolean_seed(%q: tensor<1x2x64x16xf32>) {
  // expected-error @+2 {{a seed is an integer in [0, 2^64), got a boolean}}
  // expected-error @+1 {{failed to parse Attic_RandomLayoutAttr parameter 'seed'}}
  %0 = attic.attention %q, %q, %q layout(#attic.random<block = 8, count = 2, seed = true>) : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

// `true` and `false` were read as 1 and 0 by every integer parameter (an
// audit): one sink, a window of width 0, token 1.
func.func @boolean_count(%q: tensor<1x2x64x16xf32>) {
  // expected-error @+2 {{expected an integer, got a boolean}}
  // expected-error @+1 {{failed to parse Attic_SinksLayoutAttr parameter 'count'}}
  %0 = attic.attention %q, %q, %q layout(#attic.sinks<count = true>) : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

func.func @boolean_width(%q: tensor<1x2x64x16xf32>) {
  // expected-error @+2 {{expected an integer, got a boolean}}
  // expected-error @+1 {{failed to parse Attic_WindowLayoutAttr parameter 'left'}}
  %0 = attic.attention %q, %q, %q layout(#attic.window<left = false, right = 2>) : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

func.func @boolean_token(%q: tensor<1x2x64x16xf32>) {
  // expected-error @+2 {{expected an integer, got a boolean}}
  // expected-error @+1 {{failed to parse Attic_GlobalLayoutAttr parameter 'tokens'}}
  %0 = attic.attention %q, %q, %q layout(#attic.global<tokens = [0, true]>) : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

// A layout operand that no layout reads: document ids without their
// #attic.documents were accepted and ignored, attention across documents
// (an audit).
func.func @unread_layout_operand(%q: tensor<1x2x8x16xf32>, %ids: tensor<1x8xi32>) {
  // expected-error @+1 {{layout operand #0 ('tensor<1x8xi32>') is read by no layout (the layout is #attic.causal; #attic.documents reads its query_ids and key_ids operands): name it in the layout or remove it}}
  %0 = attic.attention %q, %q, %q causal layout_operands(%ids : tensor<1x8xi32>) : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32> -> tensor<1x2x8x16xf32>
  return
}

// -----

// The second of two: documents reads #0 for both.
func.func @second_layout_operand_unread(%q: tensor<1x2x8x16xf32>, %ids: tensor<1x8xi32>) {
  // expected-error @+1 {{layout operand #1 ('tensor<1x8xi32>') is read by no layout}}
  %0 = attic.attention %q, %q, %q layout(#attic.documents<query_ids = 0, key_ids = 0>) layout_operands(%ids, %ids : tensor<1x8xi32>, tensor<1x8xi32>) : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32> -> tensor<1x2x8x16xf32>
  return
}
