// RUN: attic-opt %s --split-input-file --verify-diagnostics

func.func @extension_even(%x: tensor<1x64x32xf32>, %w: tensor<32x32xf32>, %pl: tensor<32x32xf32>, %pg: tensor<4x32xf32>) {
  // expected-error @+1 {{'attic.slice_attention' op extension (alpha) must be 1 or 3 (whole neighbouring slices), got 2}}
  %y = attic.slice_attention %x weights(%w, %w, %w) positions(%pl, %pg) {slice = 16 : i64, extension = 2 : i64, heads = 2 : i64}
      : tensor<1x64x32xf32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<4x32xf32> -> tensor<1x64x32xf32>
  return
}

// -----

func.func @extension_above_3(%x: tensor<1x64x32xf32>, %w: tensor<32x32xf32>, %pl: tensor<80x32xf32>, %pg: tensor<4x32xf32>) {
  // expected-error @+1 {{extension (alpha) must be 1 or 3 (whole neighbouring slices), got 5}}
  %y = attic.slice_attention %x weights(%w, %w, %w) positions(%pl, %pg) {slice = 16 : i64, extension = 5 : i64, heads = 2 : i64}
      : tensor<1x64x32xf32>, tensor<32x32xf32>, tensor<80x32xf32>, tensor<4x32xf32> -> tensor<1x64x32xf32>
  return
}

// -----

func.func @length_not_multiple(%x: tensor<1x60x32xf32>, %w: tensor<32x32xf32>, %pl: tensor<16x32xf32>, %pg: tensor<4x32xf32>) {
  // expected-error @+1 {{input length N = 60 is not a multiple of the slice length L = 16 (pad the sequence to 64 tokens and mask the padding with `mask`)}}
  %y = attic.slice_attention %x weights(%w, %w, %w) positions(%pl, %pg) {slice = 16 : i64, extension = 1 : i64, heads = 2 : i64}
      : tensor<1x60x32xf32>, tensor<32x32xf32>, tensor<16x32xf32>, tensor<4x32xf32> -> tensor<1x60x32xf32>
  return
}

// -----

// A slice near 2^63: the padded length without overflow (it printed 0).
func.func @length_huge_slice(%x: tensor<1x64x32xf32>, %w: tensor<32x32xf32>, %pl: tensor<48x32xf32>, %pg: tensor<4x32xf32>) {
  // expected-error @+1 {{input length N = 64 is not a multiple of the slice length L = 9223372036854775807 (pad the sequence to 9223372036854775807 tokens and mask the padding with `mask`)}}
  %y = attic.slice_attention %x weights(%w, %w, %w) positions(%pl, %pg) {slice = 9223372036854775807 : i64, extension = 3 : i64, heads = 2 : i64}
      : tensor<1x64x32xf32>, tensor<32x32xf32>, tensor<48x32xf32>, tensor<4x32xf32> -> tensor<1x64x32xf32>
  return
}

// -----

func.func @pos_local_shape(%x: tensor<1x64x32xf32>, %w: tensor<32x32xf32>, %pl: tensor<16x32xf32>, %pg: tensor<4x32xf32>) {
  // expected-error @+1 {{pos_local has shape 16x32 but [alpha*L,D] = 48x32 is expected: dim 0 (alpha*L) is 16, slice and extension has 48}}
  %y = attic.slice_attention %x weights(%w, %w, %w) positions(%pl, %pg) {slice = 16 : i64, extension = 3 : i64, heads = 2 : i64}
      : tensor<1x64x32xf32>, tensor<32x32xf32>, tensor<16x32xf32>, tensor<4x32xf32> -> tensor<1x64x32xf32>
  return
}

// -----

func.func @pos_local_causal_shape(%x: tensor<1x64x32xf32>, %w: tensor<32x32xf32>, %pl: tensor<48x32xf32>, %pg: tensor<4x32xf32>) {
  // expected-error @+1 {{pos_local has shape 48x32 but [(alpha+1)L/2,D] = 32x32 is expected}}
  %y = attic.slice_attention %x weights(%w, %w, %w) positions(%pl, %pg) {slice = 16 : i64, extension = 3 : i64, heads = 2 : i64, causal}
      : tensor<1x64x32xf32>, tensor<32x32xf32>, tensor<48x32xf32>, tensor<4x32xf32> -> tensor<1x64x32xf32>
  return
}

// -----

func.func @pos_global_shape(%x: tensor<1x64x32xf32>, %w: tensor<32x32xf32>, %pl: tensor<16x32xf32>, %pg: tensor<8x32xf32>) {
  // expected-error @+1 {{pos_global has shape 8x32 but [N/L,D] = 4x32 is expected: dim 0 (N/L) is 8, input and slice has 4}}
  %y = attic.slice_attention %x weights(%w, %w, %w) positions(%pl, %pg) {slice = 16 : i64, extension = 1 : i64, heads = 2 : i64}
      : tensor<1x64x32xf32>, tensor<32x32xf32>, tensor<16x32xf32>, tensor<8x32xf32> -> tensor<1x64x32xf32>
  return
}

// -----

func.func @pos_global_width(%x: tensor<1x64x32xf32>, %w: tensor<32x32xf32>, %pl: tensor<16x32xf32>, %pg: tensor<4x16xf32>) {
  // expected-error @+1 {{pos_global has shape 4x16 but [N/L,D] = 4x32 is expected: dim 1 (D) is 16, input has 32}}
  %y = attic.slice_attention %x weights(%w, %w, %w) positions(%pl, %pg) {slice = 16 : i64, extension = 1 : i64, heads = 2 : i64}
      : tensor<1x64x32xf32>, tensor<32x32xf32>, tensor<16x32xf32>, tensor<4x16xf32> -> tensor<1x64x32xf32>
  return
}

// -----

func.func @heads_not_dividing(%x: tensor<1x64x30xf32>, %w: tensor<30x30xf32>, %pl: tensor<16x30xf32>, %pg: tensor<4x30xf32>) {
  // expected-error @+1 {{model width D = 30 is not a multiple of heads = 4}}
  %y = attic.slice_attention %x weights(%w, %w, %w) positions(%pl, %pg) {slice = 16 : i64, extension = 1 : i64, heads = 4 : i64}
      : tensor<1x64x30xf32>, tensor<30x30xf32>, tensor<16x30xf32>, tensor<4x30xf32> -> tensor<1x64x30xf32>
  return
}

// -----

func.func @weight_shape(%x: tensor<1x64x32xf32>, %w: tensor<32x16xf32>, %pl: tensor<16x32xf32>, %pg: tensor<4x32xf32>) {
  // expected-error @+1 {{wq has shape 32x16 but [D,D] = 32x32 is expected: dim 1 (D) is 16, input has 32}}
  %y = attic.slice_attention %x weights(%w, %w, %w) positions(%pl, %pg) {slice = 16 : i64, extension = 1 : i64, heads = 2 : i64}
      : tensor<1x64x32xf32>, tensor<32x16xf32>, tensor<16x32xf32>, tensor<4x32xf32> -> tensor<1x64x32xf32>
  return
}

// -----

func.func @mask_shape(%x: tensor<2x64x32xf32>, %w: tensor<32x32xf32>, %pl: tensor<16x32xf32>, %pg: tensor<4x32xf32>, %m: tensor<1x64xi1>) {
  // expected-error @+1 {{mask has shape 1x64 but [B,N] = 2x64 is expected: dim 0 (B) is 1, input has 2}}
  %y = attic.slice_attention %x weights(%w, %w, %w) positions(%pl, %pg) mask(%m : tensor<1x64xi1>) {slice = 16 : i64, extension = 1 : i64, heads = 2 : i64}
      : tensor<2x64x32xf32>, tensor<32x32xf32>, tensor<16x32xf32>, tensor<4x32xf32> -> tensor<2x64x32xf32>
  return
}

// -----

func.func @slice_zero(%x: tensor<1x64x32xf32>, %w: tensor<32x32xf32>, %pl: tensor<16x32xf32>, %pg: tensor<4x32xf32>) {
  // expected-error @+1 {{slice (L) must be >= 1, got 0}}
  %y = attic.slice_attention %x weights(%w, %w, %w) positions(%pl, %pg) {slice = 0 : i64, extension = 1 : i64, heads = 2 : i64}
      : tensor<1x64x32xf32>, tensor<32x32xf32>, tensor<16x32xf32>, tensor<4x32xf32> -> tensor<1x64x32xf32>
  return
}

// -----

func.func @dynamic_input(%x: tensor<1x?x32xf32>, %w: tensor<32x32xf32>, %pl: tensor<16x32xf32>, %pg: tensor<4x32xf32>) {
  // expected-error @+1 {{operand #0 must be statically shaped tensor of 32-bit float values}}
  %y = attic.slice_attention %x weights(%w, %w, %w) positions(%pl, %pg) {slice = 16 : i64, extension = 1 : i64, heads = 2 : i64}
      : tensor<1x?x32xf32>, tensor<32x32xf32>, tensor<16x32xf32>, tensor<4x32xf32> -> tensor<1x64x32xf32>
  return
}

// -----

func.func @block_diagonal_zero(%q: tensor<1x2x64x16xf32>) {
  // expected-error @+1 {{#attic.block_diagonal key must be >= 1, got 0}}
  %0 = attic.attention %q, %q, %q layout(#attic.block_diagonal<query = 16, key = 0>)
      : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

func.func @tile_sizes(%q: tensor<1x2x64x16xf32>) {
  // expected-error @+1 {{block_sizes must be two positive sizes [block_q, block_k] (the tile sizes)}}
  %0 = attic.attention %q, %q, %q block_sizes [16]
      : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

func.func @input_rank(%x: tensor<64x32xf32>, %w: tensor<32x32xf32>, %pl: tensor<16x32xf32>, %pg: tensor<4x32xf32>) {
  // expected-error @+1 {{'attic.slice_attention' op input must be [B,N,D], got rank 2}}
  %y = attic.slice_attention %x weights(%w, %w, %w) positions(%pl, %pg) {slice = 16 : i64, extension = 1 : i64, heads = 2 : i64}
      : tensor<64x32xf32>, tensor<32x32xf32>, tensor<16x32xf32>, tensor<4x32xf32> -> tensor<1x64x32xf32>
  return
}

// -----

func.func @zero_heads(%x: tensor<1x64x32xf32>, %w: tensor<32x32xf32>, %pl: tensor<16x32xf32>, %pg: tensor<4x32xf32>) {
  // expected-error @+1 {{'attic.slice_attention' op heads must be >= 1, got 0}}
  %y = attic.slice_attention %x weights(%w, %w, %w) positions(%pl, %pg) {slice = 16 : i64, extension = 1 : i64, heads = 0 : i64}
      : tensor<1x64x32xf32>, tensor<32x32xf32>, tensor<16x32xf32>, tensor<4x32xf32> -> tensor<1x64x32xf32>
  return
}

// -----

func.func @empty_input(%x: tensor<1x0x32xf32>, %w: tensor<32x32xf32>, %pl: tensor<16x32xf32>, %pg: tensor<0x32xf32>) {
  // expected-error @+1 {{'attic.slice_attention' op input [B,N,D] = 1x0x32 must have positive sizes}}
  %y = attic.slice_attention %x weights(%w, %w, %w) positions(%pl, %pg) {slice = 16 : i64, extension = 1 : i64, heads = 2 : i64}
      : tensor<1x0x32xf32>, tensor<32x32xf32>, tensor<16x32xf32>, tensor<0x32xf32> -> tensor<1x0x32xf32>
  return
}

// -----

// The windows are materialized, alpha times the input: at 3 * 2^62 rows
// their size wrapped inside attic-expand-cst (an upstream "unexpected
// result less than 0"; a 2026-11-30 audit).
func.func @too_many_elements(%x: tensor<1x4611686018427387904x1xf32>, %w: tensor<1x1xf32>, %pl: tensor<3x1xf32>, %pg: tensor<4611686018427387904x1xf32>) {
  // expected-error @+1 {{'attic.slice_attention' op input [B,N,D] = 1x4611686018427387904x1 with extension 3 gives windows of alpha * B * N * D elements, more than 2^40 = 1099511627776}}
  %y = attic.slice_attention %x weights(%w, %w, %w) positions(%pl, %pg) {slice = 1 : i64, extension = 3 : i64, heads = 1 : i64} : tensor<1x4611686018427387904x1xf32>, tensor<1x1xf32>, tensor<3x1xf32>, tensor<4611686018427387904x1xf32> -> tensor<1x4611686018427387904x1xf32>
  return
}
