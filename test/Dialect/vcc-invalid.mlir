// RUN: attic-opt %s --split-input-file --verify-diagnostics
// One case per verifier message of !attic.tree and the VCC ops.

// expected-error @+1 {{fanouts [4, 4] multiply to 16 but the tree has 32 rows}}
func.func @fanout_product(%t: !attic.tree<2x32x8xf32, fanouts = [4, 4]>) {
  return
}

// -----

// expected-error @+1 {{fanouts [4294967296, 4294967296] multiply to more than 9223372036854775807 but the tree has 32 rows}}
func.func @fanout_overflow(%t: !attic.tree<2x32x8xf32, fanouts = [4294967296, 4294967296]>) {
  return
}

// -----

// expected-error @+1 {{tree fanouts[0] is 1 but every fanout must be at least 2}}
func.func @fanout_one(%t: !attic.tree<2x32x8xf32, fanouts = [1, 32]>) {
  return
}

// -----

// A boolean fanout was read as 1 (an audit).
// expected-error @+1 {{expected an integer, got a boolean}}
func.func @fanout_boolean(%t: !attic.tree<2x32x8xf32, fanouts = [true, 32]>) {
  return
}

// -----

// expected-error @+1 {{tree fanouts must not be empty (the root is at level L = number of fanouts >= 1)}}
func.func @fanouts_empty(%t: !attic.tree<2x32x8xf32, fanouts = []>) {
  return
}

// -----

// expected-error @+1 {{tree sizes BxNCxD must be positive, got 2x0x8}}
func.func @zero_size(%t: !attic.tree<2x0x8xf32, fanouts = [2]>) {
  return
}

// -----

// A sign stops the dimension list: the size is still named as negative.
// expected-error @+1 {{tree sizes BxNCxD must be positive, got 2x-8}}
func.func @negative_size(%t: !attic.tree<2x-8x4xf32, fanouts = [2, 4]>) {
  return
}

// -----

// expected-error @+1 {{tree element type must be f32, got 'f16'}}
func.func @element_type(%t: !attic.tree<2x32x8xf16, fanouts = [32]>) {
  return
}

// -----

// expected-error @+1 {{expected three sizes BxNCxD before the element type, got 2}}
func.func @two_sizes(%t: !attic.tree<32x8xf32, fanouts = [32]>) {
  return
}

// -----

func.func @vip_rank(%vip: tensor<2x10x1xi1>) {
  // expected-error @+1 {{'attic.vip_order' op vip must have rank 2 ([B,N]), got 'tensor<2x10x1xi1>'}}
  %perm, %inverse = attic.vip_order %vip {num_vip = 4 : i64} : tensor<2x10x1xi1> -> tensor<2x10xi64>, tensor<2x10xi64>
  return
}

// -----

func.func @vip_dynamic(%vip: tensor<2x?xi1>) {
  // expected-error @+1 {{'attic.vip_order' op operand #0 must be statically shaped tensor of 1-bit signless integer values, but got 'tensor<2x?xi1>'}}
  %perm, %inverse = attic.vip_order %vip {num_vip = 4 : i64} : tensor<2x?xi1> -> tensor<2x10xi64>, tensor<2x10xi64>
  return
}

// -----

func.func @perm_shape(%vip: tensor<2x10xi1>) {
  // expected-error @+1 {{'attic.vip_order' op perm has shape 2x9 but [B,N] = 2x10 is expected: dim 1 (N) is 9, vip has 10}}
  %perm, %inverse = attic.vip_order %vip {num_vip = 4 : i64} : tensor<2x10xi1> -> tensor<2x9xi64>, tensor<2x10xi64>
  return
}

// -----

func.func @inverse_shape(%vip: tensor<2x10xi1>) {
  // expected-error @+1 {{'attic.vip_order' op inverse has shape 3x10 but [B,N] = 2x10 is expected: dim 0 (B) is 3, vip has 2}}
  %perm, %inverse = attic.vip_order %vip {num_vip = 4 : i64} : tensor<2x10xi1> -> tensor<2x10xi64>, tensor<3x10xi64>
  return
}

// -----

func.func @num_vip_zero(%vip: tensor<2x10xi1>) {
  // expected-error @+1 {{'attic.vip_order' op num_vip must be in [1, N] = [1, 10], got 0}}
  %perm, %inverse = attic.vip_order %vip {num_vip = 0 : i64} : tensor<2x10xi1> -> tensor<2x10xi64>, tensor<2x10xi64>
  return
}

// -----

func.func @num_vip_too_large(%vip: tensor<2x10xi1>) {
  // expected-error @+1 {{'attic.vip_order' op num_vip must be in [1, N] = [1, 10], got 11}}
  %perm, %inverse = attic.vip_order %vip {num_vip = 11 : i64} : tensor<2x10xi1> -> tensor<2x10xi64>, tensor<2x10xi64>
  return
}

// -----

func.func @gather_x_rank(%x: tensor<2x10x4x4xf32>, %idx: tensor<2x6xi64>) {
  // expected-error @+1 {{'attic.gather_rows' op x must have rank 2 ([B,N]) or 3 ([B,N,D]), got 'tensor<2x10x4x4xf32>'}}
  %r = attic.gather_rows %x[%idx] : tensor<2x10x4x4xf32>, tensor<2x6xi64> -> tensor<2x6x4x4xf32>
  return
}

// -----

func.func @gather_x_f64(%x: tensor<2x10x4xf64>, %idx: tensor<2x6xi64>) {
  // expected-error @+1 {{'attic.gather_rows' op operand #0 must be statically shaped tensor of 32-bit float or 16-bit float or bfloat16 type or 1-bit signless integer values, but got 'tensor<2x10x4xf64>'}}
  %r = attic.gather_rows %x[%idx] : tensor<2x10x4xf64>, tensor<2x6xi64> -> tensor<2x6x4xf64>
  return
}

// -----

func.func @gather_indices_batch(%x: tensor<2x10x4xf32>, %idx: tensor<3x6xi64>) {
  // expected-error @+1 {{'attic.gather_rows' op indices has shape 3x6 but [B,M] = 2x6 is expected: dim 0 (B) is 3, x has 2}}
  %r = attic.gather_rows %x[%idx] : tensor<2x10x4xf32>, tensor<3x6xi64> -> tensor<2x6x4xf32>
  return
}

// -----

func.func @gather_indices_rank(%x: tensor<2x10x4xf32>, %idx: tensor<12xi64>) {
  // expected-error @+1 {{'attic.gather_rows' op indices must have rank 2 ([B,M] = 2x?), got 'tensor<12xi64>'}}
  %r = attic.gather_rows %x[%idx] : tensor<2x10x4xf32>, tensor<12xi64> -> tensor<2x6x4xf32>
  return
}

// -----

func.func @gather_result_element(%x: tensor<2x10x4xf32>, %idx: tensor<2x6xi64>) {
  // expected-error @+1 {{'attic.gather_rows' op result element type 'f16' differs from x element type 'f32'}}
  %r = attic.gather_rows %x[%idx] : tensor<2x10x4xf32>, tensor<2x6xi64> -> tensor<2x6x4xf16>
  return
}

// -----

func.func @gather_result_dim(%x: tensor<2x10x16xf32>, %idx: tensor<2x6xi64>) {
  // expected-error @+1 {{'attic.gather_rows' op result has shape 2x6x8 but [B,M,D] = 2x6x16 is expected: dim 2 (D) is 8, x has 16}}
  %r = attic.gather_rows %x[%idx] : tensor<2x10x16xf32>, tensor<2x6xi64> -> tensor<2x6x8xf32>
  return
}

// -----

func.func @gather_mask_rows(%x: tensor<2x10xi1>, %idx: tensor<2x6xi64>) {
  // expected-error @+1 {{'attic.gather_rows' op result has shape 2x5 but [B,M] = 2x6 is expected: dim 1 (M) is 5, indices has 6}}
  %r = attic.gather_rows %x[%idx] : tensor<2x10xi1>, tensor<2x6xi64> -> tensor<2x5xi1>
  return
}

// -----

func.func @build_dim(%c: tensor<2x128x32xf32>, %valid: tensor<2x128xi1>) {
  // expected-error @+1 {{'attic.tree_build' op tokens has shape 2x128x32 but [B,NC,D] = 2x128x64 is expected: dim 2 (D) is 32, tree has 64}}
  %t = attic.tree_build %c, %valid : tensor<2x128x32xf32>, tensor<2x128xi1> -> !attic.tree<2x128x64xf32, fanouts = [16, 8]>
  return
}

// -----

func.func @build_rows(%c: tensor<2x64x64xf32>, %valid: tensor<2x64xi1>) {
  // expected-error @+1 {{'attic.tree_build' op tokens has shape 2x64x64 but [B,NC,D] = 2x128x64 is expected: dim 1 (NC) is 64, tree has 128}}
  %t = attic.tree_build %c, %valid : tensor<2x64x64xf32>, tensor<2x64xi1> -> !attic.tree<2x128x64xf32, fanouts = [16, 8]>
  return
}

// -----

func.func @build_valid(%c: tensor<2x128x64xf32>, %valid: tensor<1x128xi1>) {
  // expected-error @+1 {{'attic.tree_build' op valid has shape 1x128 but [B,NC] = 2x128 is expected: dim 0 (B) is 1, tree has 2}}
  %t = attic.tree_build %c, %valid : tensor<2x128x64xf32>, tensor<1x128xi1> -> !attic.tree<2x128x64xf32, fanouts = [16, 8]>
  return
}

// -----

func.func @build_f16(%c: tensor<2x128x64xf16>, %valid: tensor<2x128xi1>) {
  // expected-error @+1 {{'attic.tree_build' op operand #0 must be statically shaped tensor of 32-bit float values, but got 'tensor<2x128x64xf16>'}}
  %t = attic.tree_build %c, %valid : tensor<2x128x64xf16>, tensor<2x128xi1> -> !attic.tree<2x128x64xf32, fanouts = [16, 8]>
  return
}

// -----

func.func @budgets_count(%t: !attic.tree<2x128x64xf32, fanouts = [16, 8]>, %q: tensor<2x4x8x16xf32>, %wk: tensor<64x64xf32>, %bk: tensor<64xf32>, %g: tensor<64xf32>, %b: tensor<64xf32>) {
  // expected-error @+1 {{'attic.tree_select' op budgets has 3 entries but the tree has L = 2 levels (fanouts [16, 8]): one budget h_j per level j = 1..L is expected}}
  %j = attic.tree_select %t, %q, %wk, %bk, %g, %b {budgets = [3, 1, 0], heads = 4, scale = 0.25 : f32} : !attic.tree<2x128x64xf32, fanouts = [16, 8]>, tensor<2x4x8x16xf32>, tensor<64x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32> -> tensor<2x53xi64>
  return
}

// -----

func.func @budgets_type(%t: !attic.tree<2x128x64xf32, fanouts = [16, 8]>, %q: tensor<2x4x8x16xf32>, %wk: tensor<64x64xf32>, %bk: tensor<64xf32>, %g: tensor<64xf32>, %b: tensor<64xf32>) {
  // expected-error @+1 {{'attic.tree_select' op attribute 'budgets' failed to satisfy constraint: 64-bit integer array attribute}}
  %j = attic.tree_select %t, %q, %wk, %bk, %g, %b {budgets = [3.0, 1.0], heads = 4, scale = 0.25 : f32} : !attic.tree<2x128x64xf32, fanouts = [16, 8]>, tensor<2x4x8x16xf32>, tensor<64x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32> -> tensor<2x53xi64>
  return
}

// -----

func.func @budget_negative(%t: !attic.tree<2x128x64xf32, fanouts = [16, 8]>, %q: tensor<2x4x8x16xf32>, %wk: tensor<64x64xf32>, %bk: tensor<64xf32>, %g: tensor<64xf32>, %b: tensor<64xf32>) {
  // expected-error @+1 {{'attic.tree_select' op budgets[0] (h_1) is -1 but a budget must be non-negative}}
  %j = attic.tree_select %t, %q, %wk, %bk, %g, %b {budgets = [-1, 1], heads = 4, scale = 0.25 : f32} : !attic.tree<2x128x64xf32, fanouts = [16, 8]>, tensor<2x4x8x16xf32>, tensor<64x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32> -> tensor<2x53xi64>
  return
}

// -----

func.func @budget_root(%t: !attic.tree<2x128x64xf32, fanouts = [16, 8]>, %q: tensor<2x4x8x16xf32>, %wk: tensor<64x64xf32>, %bk: tensor<64xf32>, %g: tensor<64xf32>, %b: tensor<64xf32>) {
  // expected-error @+1 {{'attic.tree_select' op budgets[1] (h_2) is 2 but level 2 has only the root: at most 1 is expected}}
  %j = attic.tree_select %t, %q, %wk, %bk, %g, %b {budgets = [3, 2], heads = 4, scale = 0.25 : f32} : !attic.tree<2x128x64xf32, fanouts = [16, 8]>, tensor<2x4x8x16xf32>, tensor<64x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32> -> tensor<2x53xi64>
  return
}

// -----

func.func @budget_blocks(%t: !attic.tree<2x128x64xf32, fanouts = [16, 8]>, %q: tensor<2x4x8x16xf32>, %wk: tensor<64x64xf32>, %bk: tensor<64xf32>, %g: tensor<64xf32>, %b: tensor<64xf32>) {
  // expected-error @+1 {{'attic.tree_select' op budgets[0] (h_1) is 9 but level 1 has only f_2 * h_2 = 8 * 1 = 8 nodes in J to split}}
  %j = attic.tree_select %t, %q, %wk, %bk, %g, %b {budgets = [9, 1], heads = 4, scale = 0.25 : f32} : !attic.tree<2x128x64xf32, fanouts = [16, 8]>, tensor<2x4x8x16xf32>, tensor<64x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32> -> tensor<2x53xi64>
  return
}

// -----

func.func @budget_root_kept(%t: !attic.tree<2x128x64xf32, fanouts = [16, 8]>, %q: tensor<2x4x8x16xf32>, %wk: tensor<64x64xf32>, %bk: tensor<64xf32>, %g: tensor<64xf32>, %b: tensor<64xf32>) {
  // expected-error @+1 {{'attic.tree_select' op budgets[0] (h_1) is 1 but level 1 has only f_2 * h_2 = 8 * 0 = 0 nodes in J to split}}
  %j = attic.tree_select %t, %q, %wk, %bk, %g, %b {budgets = [1, 0], heads = 4, scale = 0.25 : f32} : !attic.tree<2x128x64xf32, fanouts = [16, 8]>, tensor<2x4x8x16xf32>, tensor<64x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32> -> tensor<2x53xi64>
  return
}

// -----

func.func @budget_middle(%t: !attic.tree<1x8x4xf32, fanouts = [2, 2, 2]>, %q: tensor<1x1x3x4xf32>, %wk: tensor<4x4xf32>, %bk: tensor<4xf32>, %g: tensor<4xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{'attic.tree_select' op budgets[1] (h_2) is 3 but level 2 has only f_3 * h_3 = 2 * 1 = 2 nodes in J to split}}
  %j = attic.tree_select %t, %q, %wk, %bk, %g, %b {budgets = [0, 3, 1], heads = 1, scale = 0.5 : f32} : !attic.tree<1x8x4xf32, fanouts = [2, 2, 2]>, tensor<1x1x3x4xf32>, tensor<4x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32> -> tensor<1x4xi64>
  return
}

// -----

func.func @wrong_j(%t: !attic.tree<2x128x64xf32, fanouts = [16, 8]>, %q: tensor<2x4x8x16xf32>, %wk: tensor<64x64xf32>, %bk: tensor<64xf32>, %g: tensor<64xf32>, %b: tensor<64xf32>) {
  // expected-error @+1 {{'attic.tree_select' op result has J = 5 but 1 + sum_j h_j * (f_j - 1) = 53 is expected: budgets [3, 1] leave [48, 5, 0] nodes at levels 0..2}}
  %j = attic.tree_select %t, %q, %wk, %bk, %g, %b {budgets = [3, 1], heads = 4, scale = 0.25 : f32} : !attic.tree<2x128x64xf32, fanouts = [16, 8]>, tensor<2x4x8x16xf32>, tensor<64x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32> -> tensor<2x5xi64>
  return
}

// -----

func.func @wrong_j_binary(%t: !attic.tree<1x8x4xf32, fanouts = [2, 2, 2]>, %q: tensor<1x1x3x4xf32>, %wk: tensor<4x4xf32>, %bk: tensor<4xf32>, %g: tensor<4xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{'attic.tree_select' op result has J = 5 but 1 + sum_j h_j * (f_j - 1) = 6 is expected: budgets [2, 2, 1] leave [4, 2, 0, 0] nodes at levels 0..3}}
  %j = attic.tree_select %t, %q, %wk, %bk, %g, %b {budgets = [2, 2, 1], heads = 1, scale = 0.5 : f32} : !attic.tree<1x8x4xf32, fanouts = [2, 2, 2]>, tensor<1x1x3x4xf32>, tensor<4x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32> -> tensor<1x5xi64>
  return
}

// -----

func.func @result_batch(%t: !attic.tree<2x128x64xf32, fanouts = [16, 8]>, %q: tensor<2x4x8x16xf32>, %wk: tensor<64x64xf32>, %bk: tensor<64xf32>, %g: tensor<64xf32>, %b: tensor<64xf32>) {
  // expected-error @+1 {{'attic.tree_select' op result has shape 3x53 but [B,J] = 2x53 is expected: dim 0 (B) is 3, tree has 2}}
  %j = attic.tree_select %t, %q, %wk, %bk, %g, %b {budgets = [3, 1], heads = 4, scale = 0.25 : f32} : !attic.tree<2x128x64xf32, fanouts = [16, 8]>, tensor<2x4x8x16xf32>, tensor<64x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32> -> tensor<3x53xi64>
  return
}

// -----

func.func @heads_zero(%t: !attic.tree<2x128x64xf32, fanouts = [16, 8]>, %q: tensor<2x4x8x16xf32>, %wk: tensor<64x64xf32>, %bk: tensor<64xf32>, %g: tensor<64xf32>, %b: tensor<64xf32>) {
  // expected-error @+1 {{'attic.tree_select' op heads must be positive, got 0}}
  %j = attic.tree_select %t, %q, %wk, %bk, %g, %b {budgets = [3, 1], heads = 0, scale = 0.25 : f32} : !attic.tree<2x128x64xf32, fanouts = [16, 8]>, tensor<2x4x8x16xf32>, tensor<64x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32> -> tensor<2x53xi64>
  return
}

// -----

func.func @heads_not_dividing(%t: !attic.tree<2x128x64xf32, fanouts = [16, 8]>, %q: tensor<2x3x8x21xf32>, %wk: tensor<64x64xf32>, %bk: tensor<64xf32>, %g: tensor<64xf32>, %b: tensor<64xf32>) {
  // expected-error @+1 {{'attic.tree_select' op heads = 3 does not divide the tree's dim D = 64}}
  %j = attic.tree_select %t, %q, %wk, %bk, %g, %b {budgets = [3, 1], heads = 3, scale = 0.25 : f32} : !attic.tree<2x128x64xf32, fanouts = [16, 8]>, tensor<2x3x8x21xf32>, tensor<64x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32> -> tensor<2x53xi64>
  return
}

// -----

func.func @query_heads(%t: !attic.tree<2x128x64xf32, fanouts = [16, 8]>, %q: tensor<2x4x8x16xf32>, %wk: tensor<64x64xf32>, %bk: tensor<64xf32>, %g: tensor<64xf32>, %b: tensor<64xf32>) {
  // expected-error @+1 {{'attic.tree_select' op query has shape 2x4x8x16 but [B,H,NP,DH] = 2x2x8x32 is expected: dim 1 (H) is 4, heads has 2}}
  %j = attic.tree_select %t, %q, %wk, %bk, %g, %b {budgets = [3, 1], heads = 2, scale = 0.25 : f32} : !attic.tree<2x128x64xf32, fanouts = [16, 8]>, tensor<2x4x8x16xf32>, tensor<64x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32> -> tensor<2x53xi64>
  return
}

// -----

func.func @query_head_dim(%t: !attic.tree<2x128x64xf32, fanouts = [16, 8]>, %q: tensor<2x4x8x8xf32>, %wk: tensor<64x64xf32>, %bk: tensor<64xf32>, %g: tensor<64xf32>, %b: tensor<64xf32>) {
  // expected-error @+1 {{'attic.tree_select' op query has shape 2x4x8x8 but [B,H,NP,DH] = 2x4x8x16 is expected: dim 3 (DH) is 8, D / heads has 16}}
  %j = attic.tree_select %t, %q, %wk, %bk, %g, %b {budgets = [3, 1], heads = 4, scale = 0.25 : f32} : !attic.tree<2x128x64xf32, fanouts = [16, 8]>, tensor<2x4x8x8xf32>, tensor<64x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32> -> tensor<2x53xi64>
  return
}

// -----

func.func @query_batch(%t: !attic.tree<2x128x64xf32, fanouts = [16, 8]>, %q: tensor<1x4x8x16xf32>, %wk: tensor<64x64xf32>, %bk: tensor<64xf32>, %g: tensor<64xf32>, %b: tensor<64xf32>) {
  // expected-error @+1 {{'attic.tree_select' op query has shape 1x4x8x16 but [B,H,NP,DH] = 2x4x8x16 is expected: dim 0 (B) is 1, tree has 2}}
  %j = attic.tree_select %t, %q, %wk, %bk, %g, %b {budgets = [3, 1], heads = 4, scale = 0.25 : f32} : !attic.tree<2x128x64xf32, fanouts = [16, 8]>, tensor<1x4x8x16xf32>, tensor<64x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32> -> tensor<2x53xi64>
  return
}

// -----

func.func @query_rank(%t: !attic.tree<2x128x64xf32, fanouts = [16, 8]>, %q: tensor<2x8x64xf32>, %wk: tensor<64x64xf32>, %bk: tensor<64xf32>, %g: tensor<64xf32>, %b: tensor<64xf32>) {
  // expected-error @+1 {{'attic.tree_select' op query must have rank 4 ([B,H,NP,DH] = 2x4x?x16), got 'tensor<2x8x64xf32>'}}
  %j = attic.tree_select %t, %q, %wk, %bk, %g, %b {budgets = [3, 1], heads = 4, scale = 0.25 : f32} : !attic.tree<2x128x64xf32, fanouts = [16, 8]>, tensor<2x8x64xf32>, tensor<64x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32> -> tensor<2x53xi64>
  return
}

// -----

func.func @key_weight_shape(%t: !attic.tree<2x128x64xf32, fanouts = [16, 8]>, %q: tensor<2x4x8x16xf32>, %wk: tensor<64x32xf32>, %bk: tensor<64xf32>, %g: tensor<64xf32>, %b: tensor<64xf32>) {
  // expected-error @+1 {{'attic.tree_select' op key_weight has shape 64x32 but [D,D] = 64x64 is expected: dim 1 (D) is 32, tree has 64}}
  %j = attic.tree_select %t, %q, %wk, %bk, %g, %b {budgets = [3, 1], heads = 4, scale = 0.25 : f32} : !attic.tree<2x128x64xf32, fanouts = [16, 8]>, tensor<2x4x8x16xf32>, tensor<64x32xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32> -> tensor<2x53xi64>
  return
}

// -----

func.func @key_bias_shape(%t: !attic.tree<2x128x64xf32, fanouts = [16, 8]>, %q: tensor<2x4x8x16xf32>, %wk: tensor<64x64xf32>, %bk: tensor<32xf32>, %g: tensor<64xf32>, %b: tensor<64xf32>) {
  // expected-error @+1 {{'attic.tree_select' op key_bias has shape 32 but [D] = 64 is expected: dim 0 (D) is 32, tree has 64}}
  %j = attic.tree_select %t, %q, %wk, %bk, %g, %b {budgets = [3, 1], heads = 4, scale = 0.25 : f32} : !attic.tree<2x128x64xf32, fanouts = [16, 8]>, tensor<2x4x8x16xf32>, tensor<64x64xf32>, tensor<32xf32>, tensor<64xf32>, tensor<64xf32> -> tensor<2x53xi64>
  return
}

// -----

func.func @ln_gamma_shape(%t: !attic.tree<2x128x64xf32, fanouts = [16, 8]>, %q: tensor<2x4x8x16xf32>, %wk: tensor<64x64xf32>, %bk: tensor<64xf32>, %g: tensor<32xf32>, %b: tensor<64xf32>) {
  // expected-error @+1 {{'attic.tree_select' op ln_gamma has shape 32 but [D] = 64 is expected: dim 0 (D) is 32, tree has 64}}
  %j = attic.tree_select %t, %q, %wk, %bk, %g, %b {budgets = [3, 1], heads = 4, scale = 0.25 : f32} : !attic.tree<2x128x64xf32, fanouts = [16, 8]>, tensor<2x4x8x16xf32>, tensor<64x64xf32>, tensor<64xf32>, tensor<32xf32>, tensor<64xf32> -> tensor<2x53xi64>
  return
}

// -----

func.func @ln_beta_shape(%t: !attic.tree<2x128x64xf32, fanouts = [16, 8]>, %q: tensor<2x4x8x16xf32>, %wk: tensor<64x64xf32>, %bk: tensor<64xf32>, %g: tensor<64xf32>, %b: tensor<1x64xf32>) {
  // expected-error @+1 {{'attic.tree_select' op ln_beta must have rank 1 ([D] = 64), got 'tensor<1x64xf32>'}}
  %j = attic.tree_select %t, %q, %wk, %bk, %g, %b {budgets = [3, 1], heads = 4, scale = 0.25 : f32} : !attic.tree<2x128x64xf32, fanouts = [16, 8]>, tensor<2x4x8x16xf32>, tensor<64x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<1x64xf32> -> tensor<2x53xi64>
  return
}

// -----

func.func @scale_zero(%t: !attic.tree<2x128x64xf32, fanouts = [16, 8]>, %q: tensor<2x4x8x16xf32>, %wk: tensor<64x64xf32>, %bk: tensor<64xf32>, %g: tensor<64xf32>, %b: tensor<64xf32>) {
  // expected-error @+1 {{'attic.tree_select' op scale must be finite and positive, got 0.000000e+00}}
  %j = attic.tree_select %t, %q, %wk, %bk, %g, %b {budgets = [3, 1], heads = 4, scale = 0.0 : f32} : !attic.tree<2x128x64xf32, fanouts = [16, 8]>, tensor<2x4x8x16xf32>, tensor<64x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32> -> tensor<2x53xi64>
  return
}

// -----

func.func @scale_inf(%t: !attic.tree<2x128x64xf32, fanouts = [16, 8]>, %q: tensor<2x4x8x16xf32>, %wk: tensor<64x64xf32>, %bk: tensor<64xf32>, %g: tensor<64xf32>, %b: tensor<64xf32>) {
  // expected-error @+1 {{'attic.tree_select' op scale must be finite and positive, got INF}}
  %j = attic.tree_select %t, %q, %wk, %bk, %g, %b {budgets = [3, 1], heads = 4, scale = 0x7F800000 : f32} : !attic.tree<2x128x64xf32, fanouts = [16, 8]>, tensor<2x4x8x16xf32>, tensor<64x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32> -> tensor<2x53xi64>
  return
}

// -----

func.func @scale_past_base2(%t: !attic.tree<2x128x64xf32, fanouts = [16, 8]>, %q: tensor<2x4x8x16xf32>, %wk: tensor<64x64xf32>, %bk: tensor<64xf32>, %g: tensor<64xf32>, %b: tensor<64xf32>) {
  // expected-error @+1 {{'attic.tree_select' op scale must be at most 2.3586574e38 in magnitude (the kernels multiply it by log2(e) in f32), got 3.000000e+38}}
  %j = attic.tree_select %t, %q, %wk, %bk, %g, %b {budgets = [3, 1], heads = 4, scale = 3.0e38 : f32} : !attic.tree<2x128x64xf32, fanouts = [16, 8]>, tensor<2x4x8x16xf32>, tensor<64x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32> -> tensor<2x53xi64>
  return
}

// -----

func.func @compress_vip_dim(%p: tensor<2x8x32xf32>, %t: !attic.tree<2x128x64xf32, fanouts = [16, 8]>, %j: tensor<2x53xi64>) {
  // expected-error @+1 {{'attic.vcc_compress' op vip_rows has shape 2x8x32 but [B,NP,D] = 2x8x64 is expected: dim 2 (D) is 32, tree has 64}}
  %sx, %bias = attic.vcc_compress %p, %t, %j : tensor<2x8x32xf32>, !attic.tree<2x128x64xf32, fanouts = [16, 8]>, tensor<2x53xi64> -> tensor<2x61x64xf32>, tensor<2x61xf32>
  return
}

// -----

func.func @compress_vip_batch(%p: tensor<1x8x64xf32>, %t: !attic.tree<2x128x64xf32, fanouts = [16, 8]>, %j: tensor<2x53xi64>) {
  // expected-error @+1 {{'attic.vcc_compress' op vip_rows has shape 1x8x64 but [B,NP,D] = 2x8x64 is expected: dim 0 (B) is 1, tree has 2}}
  %sx, %bias = attic.vcc_compress %p, %t, %j : tensor<1x8x64xf32>, !attic.tree<2x128x64xf32, fanouts = [16, 8]>, tensor<2x53xi64> -> tensor<2x61x64xf32>, tensor<2x61xf32>
  return
}

// -----

func.func @compress_nodes_batch(%p: tensor<2x8x64xf32>, %t: !attic.tree<2x128x64xf32, fanouts = [16, 8]>, %j: tensor<1x53xi64>) {
  // expected-error @+1 {{'attic.vcc_compress' op nodes has shape 1x53 but [B,J] = 2x53 is expected: dim 0 (B) is 1, tree has 2}}
  %sx, %bias = attic.vcc_compress %p, %t, %j : tensor<2x8x64xf32>, !attic.tree<2x128x64xf32, fanouts = [16, 8]>, tensor<1x53xi64> -> tensor<2x61x64xf32>, tensor<2x61xf32>
  return
}

// -----

func.func @compress_no_nodes(%p: tensor<2x8x64xf32>, %t: !attic.tree<2x128x64xf32, fanouts = [16, 8]>, %j: tensor<2x0xi64>) {
  // expected-error @+1 {{'attic.vcc_compress' op nodes has J = 0 but a partition of the tree's 128 tokens has 1 to 128 nodes}}
  %sx, %bias = attic.vcc_compress %p, %t, %j : tensor<2x8x64xf32>, !attic.tree<2x128x64xf32, fanouts = [16, 8]>, tensor<2x0xi64> -> tensor<2x8x64xf32>, tensor<2x8xf32>
  return
}

// -----

func.func @compress_too_many_nodes(%p: tensor<2x8x64xf32>, %t: !attic.tree<2x128x64xf32, fanouts = [16, 8]>, %j: tensor<2x129xi64>) {
  // expected-error @+1 {{'attic.vcc_compress' op nodes has J = 129 but a partition of the tree's 128 tokens has 1 to 128 nodes}}
  %sx, %bias = attic.vcc_compress %p, %t, %j : tensor<2x8x64xf32>, !attic.tree<2x128x64xf32, fanouts = [16, 8]>, tensor<2x129xi64> -> tensor<2x137x64xf32>, tensor<2x137xf32>
  return
}

// -----

func.func @compress_rows(%p: tensor<2x8x64xf32>, %t: !attic.tree<2x128x64xf32, fanouts = [16, 8]>, %j: tensor<2x53xi64>) {
  // expected-error @+1 {{'attic.vcc_compress' op compressed has shape 2x60x64 but [B,NP+J,D] = 2x61x64 is expected: dim 1 (NP+J) is 60, vip_rows + nodes has 61}}
  %sx, %bias = attic.vcc_compress %p, %t, %j : tensor<2x8x64xf32>, !attic.tree<2x128x64xf32, fanouts = [16, 8]>, tensor<2x53xi64> -> tensor<2x60x64xf32>, tensor<2x61xf32>
  return
}

// -----

func.func @compress_bias(%p: tensor<2x8x64xf32>, %t: !attic.tree<2x128x64xf32, fanouts = [16, 8]>, %j: tensor<2x53xi64>) {
  // expected-error @+1 {{'attic.vcc_compress' op key_bias has shape 2x53 but [B,NP+J] = 2x61 is expected: dim 1 (NP+J) is 53, vip_rows + nodes has 61}}
  %sx, %bias = attic.vcc_compress %p, %t, %j : tensor<2x8x64xf32>, !attic.tree<2x128x64xf32, fanouts = [16, 8]>, tensor<2x53xi64> -> tensor<2x61x64xf32>, tensor<2x53xf32>
  return
}

// -----

func.func @update_rows_count(%t: !attic.tree<2x128x64xf32, fanouts = [16, 8]>, %j: tensor<2x53xi64>, %y: tensor<2x52x64xf32>) {
  // expected-error @+1 {{'attic.tree_update' op rows has shape 2x52x64 but [B,J,D] = 2x53x64 is expected: dim 1 (J) is 52, nodes has 53}}
  %t2 = attic.tree_update %t, %j, %y : !attic.tree<2x128x64xf32, fanouts = [16, 8]>, tensor<2x53xi64>, tensor<2x52x64xf32> -> !attic.tree<2x128x64xf32, fanouts = [16, 8]>
  return
}

// -----

func.func @update_rows_dim(%t: !attic.tree<2x128x64xf32, fanouts = [16, 8]>, %j: tensor<2x53xi64>, %y: tensor<2x53x32xf32>) {
  // expected-error @+1 {{'attic.tree_update' op rows has shape 2x53x32 but [B,J,D] = 2x53x64 is expected: dim 2 (D) is 32, tree has 64}}
  %t2 = attic.tree_update %t, %j, %y : !attic.tree<2x128x64xf32, fanouts = [16, 8]>, tensor<2x53xi64>, tensor<2x53x32xf32> -> !attic.tree<2x128x64xf32, fanouts = [16, 8]>
  return
}

// -----

func.func @update_nodes_batch(%t: !attic.tree<2x128x64xf32, fanouts = [16, 8]>, %j: tensor<3x53xi64>, %y: tensor<2x53x64xf32>) {
  // expected-error @+1 {{'attic.tree_update' op nodes has shape 3x53 but [B,J] = 2x53 is expected: dim 0 (B) is 3, tree has 2}}
  %t2 = attic.tree_update %t, %j, %y : !attic.tree<2x128x64xf32, fanouts = [16, 8]>, tensor<3x53xi64>, tensor<2x53x64xf32> -> !attic.tree<2x128x64xf32, fanouts = [16, 8]>
  return
}

// -----

func.func @update_nodes_rank(%t: !attic.tree<2x128x64xf32, fanouts = [16, 8]>, %j: tensor<106xi64>, %y: tensor<2x53x64xf32>) {
  // expected-error @+1 {{'attic.tree_update' op nodes must have rank 2 ([B,J] = 2x?), got 'tensor<106xi64>'}}
  %t2 = attic.tree_update %t, %j, %y : !attic.tree<2x128x64xf32, fanouts = [16, 8]>, tensor<106xi64>, tensor<2x53x64xf32> -> !attic.tree<2x128x64xf32, fanouts = [16, 8]>
  return
}

// -----

func.func @update_result_type(%t: !attic.tree<2x128x64xf32, fanouts = [16, 8]>, %j: tensor<2x53xi64>, %y: tensor<2x53x64xf32>) {
  // expected-error @+1 {{'attic.tree_update' op result type '!attic.tree<2x128x64xf32, fanouts = [8, 16]>' differs from the tree type '!attic.tree<2x128x64xf32, fanouts = [16, 8]>'}}
  %t2 = attic.tree_update %t, %j, %y : !attic.tree<2x128x64xf32, fanouts = [16, 8]>, tensor<2x53xi64>, tensor<2x53x64xf32> -> !attic.tree<2x128x64xf32, fanouts = [8, 16]>
  return
}

// -----

func.func @materialize_rows(%t: !attic.tree<2x128x64xf32, fanouts = [16, 8]>) {
  // expected-error @+1 {{'attic.tree_materialize' op result has shape 2x136x64 but [B,NC,D] = 2x128x64 is expected: dim 1 (NC) is 136, tree has 128}}
  %c = attic.tree_materialize %t : !attic.tree<2x128x64xf32, fanouts = [16, 8]> -> tensor<2x136x64xf32>
  return
}

// -----

func.func @materialize_element(%t: !attic.tree<2x128x64xf32, fanouts = [16, 8]>) {
  // expected-error @+1 {{'attic.tree_materialize' op result #0 must be statically shaped tensor of 32-bit float values, but got 'tensor<2x128x64xf16>'}}
  %c = attic.tree_materialize %t : !attic.tree<2x128x64xf32, fanouts = [16, 8]> -> tensor<2x128x64xf16>
  return
}

// -----

func.func @vote_mask_shape(%t: !attic.tree<2x128x64xf32, fanouts = [16, 8]>, %q: tensor<2x4x8x16xf32>, %wk: tensor<64x64xf32>, %bk: tensor<64xf32>, %g: tensor<64xf32>, %b: tensor<64xf32>, %votes: tensor<2x7xi1>) {
  // expected-error @+1 {{'attic.tree_select' op vote_mask has shape 2x7 but [B,NP] = 2x8 is expected: dim 1 (NP) is 7, query has 8}}
  %j = attic.tree_select %t, %q, %wk, %bk, %g, %b vote_mask(%votes : tensor<2x7xi1>) {budgets = [3, 1], heads = 4, scale = 0.25 : f32} : !attic.tree<2x128x64xf32, fanouts = [16, 8]>, tensor<2x4x8x16xf32>, tensor<64x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32> -> tensor<2x53xi64>
  return
}

// -----

func.func @vote_mask_type(%t: !attic.tree<2x128x64xf32, fanouts = [16, 8]>, %q: tensor<2x4x8x16xf32>, %wk: tensor<64x64xf32>, %bk: tensor<64xf32>, %g: tensor<64xf32>, %b: tensor<64xf32>, %votes: tensor<2x8xf32>) {
  // expected-error @+1 {{'attic.tree_select' op operand #6 must be statically shaped tensor of 1-bit signless integer values, but got 'tensor<2x8xf32>'}}
  %j = attic.tree_select %t, %q, %wk, %bk, %g, %b vote_mask(%votes : tensor<2x8xf32>) {budgets = [3, 1], heads = 4, scale = 0.25 : f32} : !attic.tree<2x128x64xf32, fanouts = [16, 8]>, tensor<2x4x8x16xf32>, tensor<64x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32> -> tensor<2x53xi64>
  return
}

// -----

func.func @negative_mean_eps(%c: tensor<2x32x16xf32>, %valid: tensor<2x32xi1>) -> !attic.tree<2x32x16xf32, fanouts = [4, 8]> {
  // expected-error @below {{'attic.tree_build' op mean_eps is -1.000000e-04 (expected a finite value >= 0)}}
  %t = attic.tree_build %c, %valid {mean_eps = -1.0e-4 : f32} : tensor<2x32x16xf32>, tensor<2x32xi1> -> !attic.tree<2x32x16xf32, fanouts = [4, 8]>
  return %t : !attic.tree<2x32x16xf32, fanouts = [4, 8]>
}

// -----

func.func @nan_bias_eps(%p: tensor<2x3x16xf32>, %t: !attic.tree<2x32x16xf32, fanouts = [4, 8]>, %j: tensor<2x14xi64>) -> tensor<2x17xf32> {
  // expected-error @below {{'attic.vcc_compress' op bias_eps is nan (expected a finite value >= 0)}}
  %sx, %bias = attic.vcc_compress %p, %t, %j {bias_eps = 0x7FC00000 : f32} : tensor<2x3x16xf32>, !attic.tree<2x32x16xf32, fanouts = [4, 8]>, tensor<2x14xi64> -> tensor<2x17x16xf32>, tensor<2x17xf32>
  return %bias : tensor<2x17xf32>
}

// -----

func.func @inf_update_eps(%t: !attic.tree<2x32x16xf32, fanouts = [4, 8]>, %j: tensor<2x14xi64>, %rows: tensor<2x14x16xf32>) -> !attic.tree<2x32x16xf32, fanouts = [4, 8]> {
  // expected-error @below {{'attic.tree_update' op mean_eps is INF (expected a finite value >= 0)}}
  %t2 = attic.tree_update %t, %j, %rows {mean_eps = 0x7F800000 : f32} : !attic.tree<2x32x16xf32, fanouts = [4, 8]>, tensor<2x14xi64>, tensor<2x14x16xf32> -> !attic.tree<2x32x16xf32, fanouts = [4, 8]>
  return %t2 : !attic.tree<2x32x16xf32, fanouts = [4, 8]>
}

// -----

// No VIP query to score the nodes (the reference refuses it too).
func.func @select_no_vip(%t: !attic.tree<2x128x64xf32, fanouts = [16, 8]>, %q: tensor<2x4x0x16xf32>, %wk: tensor<64x64xf32>, %bk: tensor<64xf32>, %g: tensor<64xf32>, %b: tensor<64xf32>) {
  // expected-error @+1 {{'attic.tree_select' op query has no VIP rows (NP = 0): the nodes are scored by the VIP queries' attention}}
  %j = attic.tree_select %t, %q, %wk, %bk, %g, %b {budgets = [3, 1], heads = 4, scale = 0.25 : f32} : !attic.tree<2x128x64xf32, fanouts = [16, 8]>, tensor<2x4x0x16xf32>, tensor<64x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32> -> tensor<2x53xi64>
  return
}

// -----

// Gathering from no rows: nothing to clamp the indices to (the compiled
// code read row -1 until 2026-11-28).
func.func @gather_no_rows(%x: tensor<2x0x3xf32>, %idx: tensor<2x2xi64>) {
  // expected-error @+1 {{'attic.gather_rows' op x has no rows (N = 0) to gather 2 rows from}}
  %r = attic.gather_rows %x[%idx] : tensor<2x0x3xf32>, tensor<2x2xi64> -> tensor<2x2x3xf32>
  return
}

// -----

// At most 2^40 elements, as the attention ops' operands: a tree of 2^66
// and gathers of as many compiled with exit 0, and NP + J wrapped in
// vcc_compress's verifier (a 2026-11-30 audit).
// expected-error @+1 {{tree sizes BxNCxD = 4611686018427387904x4x4 must have at most 2^40 = 1099511627776 elements}}
func.func @huge_tree(%t: !attic.tree<4611686018427387904x4x4xf32, fanouts = [4]>) {
  return
}

// -----

func.func @huge_gather(%x: tensor<4611686018427387904x4x4xf32>, %i: tensor<4611686018427387904x2xi64>) {
  // expected-error @+1 {{'attic.gather_rows' op x 'tensor<4611686018427387904x4x4xf32>' must have at most 2^40 = 1099511627776 elements}}
  %r = attic.gather_rows %x[%i] : tensor<4611686018427387904x4x4xf32>, tensor<4611686018427387904x2xi64> -> tensor<4611686018427387904x2x4xf32>
  return
}

// -----

func.func @huge_vip(%v: tensor<1x4611686018427387904xi1>) {
  // expected-error @+1 {{'attic.vip_order' op vip 'tensor<1x4611686018427387904xi1>' must have at most 2^40 = 1099511627776 elements}}
  %p, %i = attic.vip_order %v {num_vip = 1 : i64} : tensor<1x4611686018427387904xi1> -> tensor<1x4611686018427387904xi64>, tensor<1x4611686018427387904xi64>
  return
}

// -----

func.func @huge_vip_rows(%p: tensor<1x9223372036854775000x1xf32>, %t: !attic.tree<1x1024x1xf32, fanouts = [1024]>, %j: tensor<1x1024xi64>) {
  // expected-error @+1 {{'attic.vcc_compress' op vip_rows 'tensor<1x9223372036854775000x1xf32>' must have at most 2^40 = 1099511627776 elements}}
  %sx, %b = attic.vcc_compress %p, %t, %j : tensor<1x9223372036854775000x1xf32>, !attic.tree<1x1024x1xf32, fanouts = [1024]>, tensor<1x1024xi64> -> tensor<1x1024x1xf32>, tensor<1x1024xf32>
  return
}
