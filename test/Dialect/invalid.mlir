// RUN: attic-opt %s --split-input-file --verify-diagnostics

func.func @head_dim_mismatch(%q: tensor<1x4x128x64xf32>, %k: tensor<1x4x128x32xf32>, %v: tensor<1x4x128x64xf32>) -> tensor<1x4x128x64xf32> {
  // expected-error @+1 {{'attic.attention' op key has shape 1x4x128x32 but [B,Hkv,Nk,D] = 1x4x128x64 is expected: dim 3 (D) is 32, query has 64}}
  %o = attic.attention %q, %k, %v : tensor<1x4x128x64xf32>, tensor<1x4x128x32xf32>, tensor<1x4x128x64xf32> -> tensor<1x4x128x64xf32>
  return %o : tensor<1x4x128x64xf32>
}

// -----

func.func @value_length(%q: tensor<1x4x128x64xf32>, %k: tensor<1x4x128x64xf32>, %v: tensor<1x4x100x64xf32>) -> tensor<1x4x128x64xf32> {
  // expected-error @+1 {{'attic.attention' op value has shape 1x4x100x64 but [B,Hkv,Nk,Dv] = 1x4x128x64 is expected: dim 2 (Nk) is 100, key has 128}}
  %o = attic.attention %q, %k, %v : tensor<1x4x128x64xf32>, tensor<1x4x128x64xf32>, tensor<1x4x100x64xf32> -> tensor<1x4x128x64xf32>
  return %o : tensor<1x4x128x64xf32>
}

// -----

func.func @batch_mismatch(%q: tensor<2x4x128x64xf32>, %k: tensor<1x4x128x64xf32>, %v: tensor<1x4x128x64xf32>) -> tensor<2x4x128x64xf32> {
  // expected-error @+1 {{'attic.attention' op key has shape 1x4x128x64 but [B,Hkv,Nk,D] = 2x4x128x64 is expected: dim 0 (B) is 1, query has 2}}
  %o = attic.attention %q, %k, %v : tensor<2x4x128x64xf32>, tensor<1x4x128x64xf32>, tensor<1x4x128x64xf32> -> tensor<2x4x128x64xf32>
  return %o : tensor<2x4x128x64xf32>
}

// -----

func.func @result_shape(%q: tensor<1x4x128x64xf32>, %k: tensor<1x4x256x64xf32>, %v: tensor<1x4x256x32xf32>) -> tensor<1x4x128x64xf32> {
  // expected-error @+1 {{'attic.attention' op result has shape 1x4x128x64 but [B,Hq,Nq,Dv] = 1x4x128x32 is expected: dim 3 (Dv) is 64, value has 32}}
  %o = attic.attention %q, %k, %v : tensor<1x4x128x64xf32>, tensor<1x4x256x64xf32>, tensor<1x4x256x32xf32> -> tensor<1x4x128x64xf32>
  return %o : tensor<1x4x128x64xf32>
}

// -----

func.func @rank(%q: tensor<4x128x64xf32>, %k: tensor<1x4x128x64xf32>, %v: tensor<1x4x128x64xf32>) -> tensor<1x4x128x64xf32> {
  // expected-error @+1 {{'attic.attention' op query must have rank 4 ([B,H,N,D]), got 'tensor<4x128x64xf32>'}}
  %o = attic.attention %q, %k, %v : tensor<4x128x64xf32>, tensor<1x4x128x64xf32>, tensor<1x4x128x64xf32> -> tensor<1x4x128x64xf32>
  return %o : tensor<1x4x128x64xf32>
}

// -----

func.func @mixed_elements(%q: tensor<1x4x128x64xf16>, %k: tensor<1x4x128x64xf32>, %v: tensor<1x4x128x64xf32>) -> tensor<1x4x128x64xf16> {
  // expected-error @+1 {{'attic.attention' op key element type 'f32' differs from query element type 'f16'}}
  %o = attic.attention %q, %k, %v : tensor<1x4x128x64xf16>, tensor<1x4x128x64xf32>, tensor<1x4x128x64xf32> -> tensor<1x4x128x64xf16>
  return %o : tensor<1x4x128x64xf16>
}

// -----

func.func @integer_query(%q: tensor<1x4x128x64xi32>, %k: tensor<1x4x128x64xf32>, %v: tensor<1x4x128x64xf32>) -> tensor<1x4x128x64xf32> {
  // expected-error @+1 {{'attic.attention' op operand #0 must be ranked tensor of 32-bit float or 16-bit float or bfloat16 type values, but got 'tensor<1x4x128x64xi32>'}}
  %o = attic.attention %q, %k, %v : tensor<1x4x128x64xi32>, tensor<1x4x128x64xf32>, tensor<1x4x128x64xf32> -> tensor<1x4x128x64xf32>
  return %o : tensor<1x4x128x64xf32>
}

// -----

func.func @bias_rank(%q: tensor<1x4x128x64xf32>, %k: tensor<1x4x128x64xf32>, %v: tensor<1x4x128x64xf32>, %b: tensor<1x4x128x128xf32>) -> tensor<1x4x128x64xf32> {
  // expected-error @+1 {{'attic.attention' op key_bias must be [B,Nk] or [B,Hq,Nk], got 'tensor<1x4x128x128xf32>'}}
  %o = attic.attention %q, %k, %v bias(%b : tensor<1x4x128x128xf32>) : tensor<1x4x128x64xf32>, tensor<1x4x128x64xf32>, tensor<1x4x128x64xf32> -> tensor<1x4x128x64xf32>
  return %o : tensor<1x4x128x64xf32>
}

// -----

func.func @bias_length(%q: tensor<1x4x128x64xf32>, %k: tensor<1x4x128x64xf32>, %v: tensor<1x4x128x64xf32>, %b: tensor<1x4x64xf32>) -> tensor<1x4x128x64xf32> {
  // expected-error @+1 {{'attic.attention' op key_bias has shape 1x4x64 but [B,Hq,Nk] = 1x4x128 is expected: dim 2 (Nk) is 64, key has 128}}
  %o = attic.attention %q, %k, %v bias(%b : tensor<1x4x64xf32>) : tensor<1x4x128x64xf32>, tensor<1x4x128x64xf32>, tensor<1x4x128x64xf32> -> tensor<1x4x128x64xf32>
  return %o : tensor<1x4x128x64xf32>
}

// -----

func.func @mask_shape(%q: tensor<1x4x128x64xf32>, %k: tensor<1x4x128x64xf32>, %v: tensor<1x4x128x64xf32>, %m: tensor<2x128xi1>) -> tensor<1x4x128x64xf32> {
  // expected-error @+1 {{'attic.attention' op key_mask has shape 2x128 but [B,Nk] = 1x128 is expected: dim 0 (B) is 2, query has 1}}
  %o = attic.attention %q, %k, %v mask(%m : tensor<2x128xi1>) : tensor<1x4x128x64xf32>, tensor<1x4x128x64xf32>, tensor<1x4x128x64xf32> -> tensor<1x4x128x64xf32>
  return %o : tensor<1x4x128x64xf32>
}

// -----

func.func @mask_element(%q: tensor<1x4x128x64xf32>, %k: tensor<1x4x128x64xf32>, %v: tensor<1x4x128x64xf32>, %m: tensor<1x128xf32>) -> tensor<1x4x128x64xf32> {
  // expected-error @+1 {{'attic.attention' op operand #3 must be the key mask, a ranked tensor of 1-bit signless integer values, but got 'tensor<1x128xf32>'}}
  %o = attic.attention %q, %k, %v mask(%m : tensor<1x128xf32>) : tensor<1x4x128x64xf32>, tensor<1x4x128x64xf32>, tensor<1x4x128x64xf32> -> tensor<1x4x128x64xf32>
  return %o : tensor<1x4x128x64xf32>
}

// -----

// The optional operands' messages name them: #3 is the key mask above and
// the key bias here (ODS numbers the operands given).
func.func @bias_element(%q: tensor<1x4x128x64xf32>, %b: tensor<1x128xi32>) -> tensor<1x4x128x64xf32> {
  // expected-error @+1 {{'attic.attention' op operand #3 must be the key bias, a ranked tensor of 32-bit float or 16-bit float or bfloat16 type values, but got 'tensor<1x128xi32>'}}
  %o = attic.attention %q, %q, %q bias(%b : tensor<1x128xi32>) : tensor<1x4x128x64xf32>, tensor<1x4x128x64xf32>, tensor<1x4x128x64xf32> -> tensor<1x4x128x64xf32>
  return %o : tensor<1x4x128x64xf32>
}

// -----

func.func @dynamic_head_dim_needs_scale(%q: tensor<1x4x128x?xf32>, %k: tensor<1x4x128x?xf32>, %v: tensor<1x4x128x64xf32>) -> tensor<1x4x128x64xf32> {
  // expected-error @+1 {{'attic.attention' op scale is required when the query head dim (dim 3) is dynamic: the default 1/sqrt(D) needs a static D}}
  %o = attic.attention %q, %k, %v : tensor<1x4x128x?xf32>, tensor<1x4x128x?xf32>, tensor<1x4x128x64xf32> -> tensor<1x4x128x64xf32>
  return %o : tensor<1x4x128x64xf32>
}

// -----

func.func @infinite_scale(%q: tensor<1x4x128x64xf32>, %k: tensor<1x4x128x64xf32>, %v: tensor<1x4x128x64xf32>) -> tensor<1x4x128x64xf32> {
  // expected-error @+1 {{'attic.attention' op scale must be finite, got INF}}
  %o = attic.attention %q, %k, %v scale 0x7F800000 : tensor<1x4x128x64xf32>, tensor<1x4x128x64xf32>, tensor<1x4x128x64xf32> -> tensor<1x4x128x64xf32>
  return %o : tensor<1x4x128x64xf32>
}

// -----

// scale * log2(e) overflows f32 (the kernels' base-2 logits).
func.func @scale_past_base2(%q: tensor<1x4x128x64xf32>, %k: tensor<1x4x128x64xf32>, %v: tensor<1x4x128x64xf32>) -> tensor<1x4x128x64xf32> {
  // expected-error @+1 {{'attic.attention' op scale must be at most 2.3586574e38 in magnitude (the kernels multiply it by log2(e) in f32), got -2.400000e+38}}
  %o = attic.attention %q, %k, %v scale -2.4e38 : tensor<1x4x128x64xf32>, tensor<1x4x128x64xf32>, tensor<1x4x128x64xf32> -> tensor<1x4x128x64xf32>
  return %o : tensor<1x4x128x64xf32>
}

// -----

func.func @block_mixed(%q: tensor<1x2x8x4xf32>, %k: tensor<1x2x8x4xf32>, %v: tensor<1x2x8x4xf32>, %o: memref<1x2x8x4xf32>) {
  // expected-error @+1 {{'attic.block_attention' op operands must be all tensors or all memrefs, but init is a memref and an operand is 'tensor<1x2x8x4xf32>'}}
  attic.block_attention ins(%q, %k, %v : tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>) outs(%o : memref<1x2x8x4xf32>) {layout = #attic.dense, scale = 0.5 : f32, block_q = 4 : i64, block_k = 4 : i64}
  return
}

// -----

func.func @block_size(%q: memref<1x2x8x4xf32>, %k: memref<1x2x8x4xf32>, %v: memref<1x2x8x4xf32>, %o: memref<1x2x8x4xf32>) {
  // expected-error @+1 {{'attic.block_attention' op attribute 'block_q' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive}}
  attic.block_attention ins(%q, %k, %v : memref<1x2x8x4xf32>, memref<1x2x8x4xf32>, memref<1x2x8x4xf32>) outs(%o : memref<1x2x8x4xf32>) {layout = #attic.dense, scale = 0.5 : f32, block_q = 0 : i64, block_k = 4 : i64}
  return
}

// -----

func.func @block_init_shape(%q: memref<1x2x8x4xf32>, %k: memref<1x2x8x4xf32>, %v: memref<1x2x8x4xf32>, %o: memref<1x2x9x4xf32>) {
  // expected-error @+1 {{'attic.block_attention' op init has shape 1x2x9x4 but [B,Hq,Nq,Dv] = 1x2x8x4 is expected: dim 2 (Nq) is 9, query has 8}}
  attic.block_attention ins(%q, %k, %v : memref<1x2x8x4xf32>, memref<1x2x8x4xf32>, memref<1x2x8x4xf32>) outs(%o : memref<1x2x9x4xf32>) {layout = #attic.dense, scale = 0.5 : f32, block_q = 4 : i64, block_k = 4 : i64}
  return
}

// -----

func.func @block_layout(%q: memref<1x2x8x4xf32>, %k: memref<1x2x8x4xf32>, %v: memref<1x2x8x4xf32>, %o: memref<1x2x8x4xf32>) {
  // expected-error @+1 {{'attic.block_attention' op attribute 'layout' failed to satisfy constraint: attention layout (an attribute of LayoutAttrInterface)}}
  attic.block_attention ins(%q, %k, %v : memref<1x2x8x4xf32>, memref<1x2x8x4xf32>, memref<1x2x8x4xf32>) outs(%o : memref<1x2x8x4xf32>) {layout = 3 : i64, scale = 0.5 : f32, block_q = 4 : i64, block_k = 4 : i64}
  return
}

// -----

func.func @block_too_large(%q: memref<1x2x8x4xf32>, %k: memref<1x2x8x4xf32>, %v: memref<1x2x8x4xf32>, %o: memref<1x2x8x4xf32>) {
  // expected-error @+1 {{'attic.block_attention' op block_q and block_k must be at most 1024, got 4 and 2048}}
  attic.block_attention ins(%q, %k, %v : memref<1x2x8x4xf32>, memref<1x2x8x4xf32>, memref<1x2x8x4xf32>) outs(%o : memref<1x2x8x4xf32>) {layout = #attic.dense, scale = 0.5 : f32, block_q = 4 : i64, block_k = 2048 : i64}
  return
}

// -----

func.func @lse_wrong_shape(%q: tensor<1x2x64x16xf32>, %init: tensor<1x2x64x16xf32>, %lse: tensor<1x2x32xf32>) -> (tensor<1x2x64x16xf32>, tensor<1x2x32xf32>) {
  // expected-error @+1 {{'attic.block_attention' op lse must be [B,Hq,Nq] = [1,2,64] of f32 (the init's leading dims), got 'tensor<1x2x32xf32>'}}
  %o, %l = attic.block_attention ins(%q, %q, %q : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>) outs(%init : tensor<1x2x64x16xf32>, lse %lse : tensor<1x2x32xf32>) {layout = #attic.dense, scale = 0.25 : f32, block_q = 16 : i64, block_k = 16 : i64} -> tensor<1x2x64x16xf32>, tensor<1x2x32xf32>
  return %o, %l : tensor<1x2x64x16xf32>, tensor<1x2x32xf32>
}

// -----

func.func @lse_missing_result(%q: tensor<1x2x64x16xf32>, %init: tensor<1x2x64x16xf32>, %lse: tensor<1x2x64xf32>) -> tensor<1x2x64x16xf32> {
  // expected-error @+1 {{'attic.block_attention' op on tensors, expects 2 result(s) of the destination types (init, lse) 'tensor<1x2x64x16xf32>', 'tensor<1x2x64xf32>'}}
  %o = attic.block_attention ins(%q, %q, %q : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>) outs(%init : tensor<1x2x64x16xf32>, lse %lse : tensor<1x2x64xf32>) {layout = #attic.dense, scale = 0.25 : f32, block_q = 16 : i64, block_k = 16 : i64} -> tensor<1x2x64x16xf32>
  return %o : tensor<1x2x64x16xf32>
}

// -----

func.func @lse_f16(%q: tensor<1x2x64x16xf32>, %init: tensor<1x2x64x16xf32>, %lse: tensor<1x2x64xf16>) -> (tensor<1x2x64x16xf32>, tensor<1x2x64xf16>) {
  // expected-error @+1 {{'attic.block_attention' op lse must be [B,Hq,Nq] = [1,2,64] of f32 (the init's leading dims), got 'tensor<1x2x64xf16>'}}
  %o, %l = attic.block_attention ins(%q, %q, %q : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>) outs(%init : tensor<1x2x64x16xf32>, lse %lse : tensor<1x2x64xf16>) {layout = #attic.dense, scale = 0.25 : f32, block_q = 16 : i64, block_k = 16 : i64} -> tensor<1x2x64x16xf32>, tensor<1x2x64xf16>
  return %o, %l : tensor<1x2x64x16xf32>, tensor<1x2x64xf16>
}

// -----

func.func @block_query_element(%q: tensor<1x2x8x4xi32>, %k: tensor<1x2x8x4xf32>, %o: tensor<1x2x8x4xf32>) -> tensor<1x2x8x4xf32> {
  // expected-error @+1 {{'attic.block_attention' op query element type must be f32, f16 or bf16, got 'i32'}}
  %r = attic.block_attention ins(%q, %k, %k : tensor<1x2x8x4xi32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>) outs(%o : tensor<1x2x8x4xf32>) {layout = #attic.dense, scale = 0.5 : f32, block_q = 4 : i64, block_k = 4 : i64} -> tensor<1x2x8x4xf32>
  return %r : tensor<1x2x8x4xf32>
}

// -----

func.func @value_element(%q: tensor<1x2x8x4xf16>, %v: tensor<1x2x8x4xf32>) -> tensor<1x2x8x4xf16> {
  // expected-error @+1 {{'attic.attention' op value element type 'f32' differs from query element type 'f16'}}
  %r = attic.attention %q, %q, %v : tensor<1x2x8x4xf16>, tensor<1x2x8x4xf16>, tensor<1x2x8x4xf32> -> tensor<1x2x8x4xf16>
  return %r : tensor<1x2x8x4xf16>
}

// -----

func.func @block_bias_element(%q: tensor<1x2x8x4xf32>, %b: tensor<1x8xi32>, %o: tensor<1x2x8x4xf32>) -> tensor<1x2x8x4xf32> {
  // expected-error @+1 {{'attic.block_attention' op key_bias element type must be f32, f16 or bf16, got 'i32'}}
  %r = attic.block_attention ins(%q, %q, %q : tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>) bias(%b : tensor<1x8xi32>) outs(%o : tensor<1x2x8x4xf32>) {layout = #attic.dense, scale = 0.5 : f32, block_q = 4 : i64, block_k = 4 : i64} -> tensor<1x2x8x4xf32>
  return %r : tensor<1x2x8x4xf32>
}

// -----

func.func @block_mask_element(%q: tensor<1x2x8x4xf32>, %m: tensor<1x8xf32>, %o: tensor<1x2x8x4xf32>) -> tensor<1x2x8x4xf32> {
  // expected-error @+1 {{'attic.block_attention' op key_mask element type must be i1, got 'f32'}}
  %r = attic.block_attention ins(%q, %q, %q : tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>) mask(%m : tensor<1x8xf32>) outs(%o : tensor<1x2x8x4xf32>) {layout = #attic.dense, scale = 0.5 : f32, block_q = 4 : i64, block_k = 4 : i64} -> tensor<1x2x8x4xf32>
  return %r : tensor<1x2x8x4xf32>
}

// -----

func.func @block_init_element(%q: tensor<1x2x8x4xf32>, %o: tensor<1x2x8x4xf16>) -> tensor<1x2x8x4xf16> {
  // expected-error @+1 {{'attic.block_attention' op init element type 'f16' differs from query element type 'f32'}}
  %r = attic.block_attention ins(%q, %q, %q : tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>) outs(%o : tensor<1x2x8x4xf16>) {layout = #attic.dense, scale = 0.5 : f32, block_q = 4 : i64, block_k = 4 : i64} -> tensor<1x2x8x4xf16>
  return %r : tensor<1x2x8x4xf16>
}

// -----

func.func @result_element(%q: tensor<1x2x8x4xf32>) -> tensor<1x2x8x4xf16> {
  // expected-error @+1 {{'attic.attention' op result element type 'f16' differs from query element type 'f32'}}
  %r = attic.attention %q, %q, %q : tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32> -> tensor<1x2x8x4xf16>
  return %r : tensor<1x2x8x4xf16>
}

// -----

func.func @block_list_element(%q: tensor<1x2x8x4xf32>, %n: tensor<1x1x2xi64>, %i: tensor<1x1x2x2xi32>, %o: tensor<1x2x8x4xf32>) -> tensor<1x2x8x4xf32> {
  // expected-error @+1 {{'attic.block_attention' op kv_num_blocks must hold i32, got 'i64'}}
  %r = attic.block_attention ins(%q, %q, %q : tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>) blocks(%n, %i, %n, %i : tensor<1x1x2xi64>, tensor<1x1x2x2xi32>, tensor<1x1x2xi64>, tensor<1x1x2x2xi32>) outs(%o : tensor<1x2x8x4xf32>) {layout = #attic.dense, scale = 0.5 : f32, block_q = 4 : i64, block_k = 4 : i64} -> tensor<1x2x8x4xf32>
  return %r : tensor<1x2x8x4xf32>
}

// -----

func.func @block_list_rank(%q: tensor<1x2x8x4xf32>, %n: tensor<1x1x2xi32>, %i: tensor<1x1x2xi32>) -> tensor<1x2x8x4xf32> {
  // expected-error @+1 {{'attic.attention' op kv_indices must have rank 4 ([B|1, Hq|1, ceil(Nq/block_q), L]), got 'tensor<1x1x2xi32>'}}
  %r = attic.attention %q, %q, %q blocks(%n, %i, %n, %i : tensor<1x1x2xi32>, tensor<1x1x2xi32>, tensor<1x1x2xi32>, tensor<1x1x2xi32>) block_sizes [4, 4] : tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32> -> tensor<1x2x8x4xf32>
  return %r : tensor<1x2x8x4xf32>
}

// -----

func.func @block_list_rank3(%q: tensor<1x2x8x4xf32>, %n: tensor<1x2xi32>, %i: tensor<1x1x2x2xi32>) -> tensor<1x2x8x4xf32> {
  // expected-error @+1 {{'attic.attention' op kv_num_blocks must have rank 3 ([B|1, Hq|1, ceil(Nq/block_q)]), got 'tensor<1x2xi32>'}}
  %r = attic.attention %q, %q, %q blocks(%n, %i, %n, %i : tensor<1x2xi32>, tensor<1x1x2x2xi32>, tensor<1x2xi32>, tensor<1x1x2x2xi32>) block_sizes [4, 4] : tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32> -> tensor<1x2x8x4xf32>
  return %r : tensor<1x2x8x4xf32>
}

// -----

func.func @block_list_batch(%q: tensor<2x2x8x4xf32>, %n: tensor<3x1x2xi32>, %i: tensor<3x1x2x2xi32>) -> tensor<2x2x8x4xf32> {
  // expected-error @+1 {{'attic.attention' op kv_num_blocks has 3 batch rows but B is 2 (it must be 1 or B)}}
  %r = attic.attention %q, %q, %q blocks(%n, %i, %n, %i : tensor<3x1x2xi32>, tensor<3x1x2x2xi32>, tensor<3x1x2xi32>, tensor<3x1x2x2xi32>) block_sizes [4, 4] : tensor<2x2x8x4xf32>, tensor<2x2x8x4xf32>, tensor<2x2x8x4xf32> -> tensor<2x2x8x4xf32>
  return %r : tensor<2x2x8x4xf32>
}

// -----

func.func @block_lists_disagree(%q: tensor<1x2x8x4xf32>, %n: tensor<1x1x2xi32>, %i: tensor<1x2x2x2xi32>) -> tensor<1x2x8x4xf32> {
  // expected-error @+1 {{'attic.attention' op kv_indices has shape 1x2x2x2 but kv_num_blocks has 1x1x2: the lists must share their batch and head dims}}
  %r = attic.attention %q, %q, %q blocks(%n, %i, %n, %i : tensor<1x1x2xi32>, tensor<1x2x2x2xi32>, tensor<1x1x2xi32>, tensor<1x2x2x2xi32>) block_sizes [4, 4] : tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32> -> tensor<1x2x8x4xf32>
  return %r : tensor<1x2x8x4xf32>
}

// -----

func.func @block_sizes_too_large(%q: tensor<1x2x8x4xf32>) -> tensor<1x2x8x4xf32> {
  // expected-error @+1 {{'attic.attention' op block_sizes must be at most 1024, got 2048 and 16}}
  %r = attic.attention %q, %q, %q block_sizes [2048, 16] : tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32> -> tensor<1x2x8x4xf32>
  return %r : tensor<1x2x8x4xf32>
}

// -----

func.func @zero_head_dim(%q: tensor<1x2x8x0xf32>, %v: tensor<1x2x8x4xf32>) -> tensor<1x2x8x4xf32> {
  // expected-error @+1 {{'attic.attention' op scale is required when the query head dim is 0}}
  %r = attic.attention %q, %q, %v : tensor<1x2x8x0xf32>, tensor<1x2x8x0xf32>, tensor<1x2x8x4xf32> -> tensor<1x2x8x4xf32>
  return %r : tensor<1x2x8x4xf32>
}

// -----

func.func @block_tensor_init_memref_operand(%q: memref<1x2x8x4xf32>, %o: tensor<1x2x8x4xf32>) -> tensor<1x2x8x4xf32> {
  // expected-error @+1 {{'attic.block_attention' op operands must be all tensors or all memrefs, but init is a tensor and an operand is 'memref<1x2x8x4xf32>'}}
  %r = attic.block_attention ins(%q, %q, %q : memref<1x2x8x4xf32>, memref<1x2x8x4xf32>, memref<1x2x8x4xf32>) outs(%o : tensor<1x2x8x4xf32>) {layout = #attic.dense, scale = 0.5 : f32, block_q = 4 : i64, block_k = 4 : i64} -> tensor<1x2x8x4xf32>
  return %r : tensor<1x2x8x4xf32>
}

// -----

func.func @block_memref_result(%q: memref<1x2x8x4xf32>, %o: memref<1x2x8x4xf32>) -> tensor<1x2x8x4xf32> {
  // expected-error @+1 {{'attic.block_attention' op on memrefs, expects no result (init is written)}}
  %r = attic.block_attention ins(%q, %q, %q : memref<1x2x8x4xf32>, memref<1x2x8x4xf32>, memref<1x2x8x4xf32>) outs(%o : memref<1x2x8x4xf32>) {layout = #attic.dense, scale = 0.5 : f32, block_q = 4 : i64, block_k = 4 : i64} -> tensor<1x2x8x4xf32>
  return %r : tensor<1x2x8x4xf32>
}

// -----

func.func @block_memref_region(%q: memref<1x2x8x4xf32>, %o: memref<1x2x8x4xf32>) {
  // expected-error @+1 {{'attic.block_attention' op on memrefs, the modifiers are functions (mask_fn, score_fn), not regions}}
  attic.block_attention ins(%q, %q, %q : memref<1x2x8x4xf32>, memref<1x2x8x4xf32>, memref<1x2x8x4xf32>) outs(%o : memref<1x2x8x4xf32>) mask_mod {
      ^bb0(%b: index, %h: index, %qi: index, %ki: index):
        %t = arith.constant true
        attic.yield %t : i1
      } {layout = #attic.dense, scale = 0.5 : f32, block_q = 4 : i64, block_k = 4 : i64}
  return
}

// -----

func.func @mask_lists_tensors_operand_memref(%ids: memref<1x8xi32>, %e3: tensor<1x1x2xi32>, %e4: tensor<1x1x2x2xi32>) {
  %c8 = arith.constant 8 : index
  // expected-error @+1 {{'attic.block_mask' op operands must be all tensors or all memrefs, but the lists are tensors and an operand is 'memref<1x8xi32>'}}
  %n, %i, %fn, %fi = attic.block_mask layout(#attic.documents<query_ids = 0, key_ids = 0>) layout_operands(%ids : memref<1x8xi32>) sizes(%c8, %c8) outs(%e3, %e4, %e3, %e4 : tensor<1x1x2xi32>, tensor<1x1x2x2xi32>, tensor<1x1x2xi32>, tensor<1x1x2x2xi32>) {block_q = 4 : i64, block_k = 4 : i64} -> tensor<1x1x2xi32>, tensor<1x1x2x2xi32>, tensor<1x1x2xi32>, tensor<1x1x2x2xi32>
  return
}

// -----

func.func @mask_lists_memrefs_operand_tensor(%ids: tensor<1x8xi32>, %e3: memref<1x1x2xi32>, %e4: memref<1x1x2x2xi32>) {
  %c8 = arith.constant 8 : index
  // expected-error @+1 {{'attic.block_mask' op operands must be all tensors or all memrefs, but the lists are memrefs and an operand is 'tensor<1x8xi32>'}}
  attic.block_mask layout(#attic.documents<query_ids = 0, key_ids = 0>) layout_operands(%ids : tensor<1x8xi32>) sizes(%c8, %c8) outs(%e3, %e4, %e3, %e4 : memref<1x1x2xi32>, memref<1x1x2x2xi32>, memref<1x1x2xi32>, memref<1x1x2x2xi32>) {block_q = 4 : i64, block_k = 4 : i64}
  return
}

// -----

func.func @mask_tensor_no_results(%e3: tensor<1x1x2xi32>, %e4: tensor<1x1x2x2xi32>) {
  %c8 = arith.constant 8 : index
  // expected-error @+1 {{'attic.block_mask' op on tensors, expects the four lists as results}}
  attic.block_mask layout(#attic.causal) sizes(%c8, %c8) outs(%e3, %e4, %e3, %e4 : tensor<1x1x2xi32>, tensor<1x1x2x2xi32>, tensor<1x1x2xi32>, tensor<1x1x2x2xi32>) {block_q = 4 : i64, block_k = 4 : i64}
  return
}

// -----

func.func @mask_result_type(%e3: tensor<1x1x2xi32>, %e4: tensor<1x1x2x2xi32>) {
  %c8 = arith.constant 8 : index
  // expected-error @+1 {{'attic.block_mask' op result type 'tensor<1x1x2x3xi32>' differs from its destination's 'tensor<1x1x2x2xi32>'}}
  %n, %i, %fn, %fi = attic.block_mask layout(#attic.causal) sizes(%c8, %c8) outs(%e3, %e4, %e3, %e4 : tensor<1x1x2xi32>, tensor<1x1x2x2xi32>, tensor<1x1x2xi32>, tensor<1x1x2x2xi32>) {block_q = 4 : i64, block_k = 4 : i64} -> tensor<1x1x2xi32>, tensor<1x1x2x3xi32>, tensor<1x1x2xi32>, tensor<1x1x2x2xi32>
  return
}

// -----

func.func @mask_memref_results(%e3: memref<1x1x2xi32>, %e4: memref<1x1x2x2xi32>) {
  %c8 = arith.constant 8 : index
  // expected-error @+1 {{'attic.block_mask' op on memrefs, expects no results (the lists are written)}}
  %n, %i, %fn, %fi = attic.block_mask layout(#attic.causal) sizes(%c8, %c8) outs(%e3, %e4, %e3, %e4 : memref<1x1x2xi32>, memref<1x1x2x2xi32>, memref<1x1x2xi32>, memref<1x1x2x2xi32>) {block_q = 4 : i64, block_k = 4 : i64} -> tensor<1x1x2xi32>, tensor<1x1x2x2xi32>, tensor<1x1x2xi32>, tensor<1x1x2x2xi32>
  return
}

// -----

func.func @mask_block_too_large(%e3: memref<1x1x1xi32>, %e4: memref<1x1x1x1xi32>) {
  %c8 = arith.constant 8 : index
  // expected-error @+1 {{'attic.block_mask' op block_q and block_k must be at most 1024, got 2048 and 4}}
  attic.block_mask layout(#attic.causal) sizes(%c8, %c8) outs(%e3, %e4, %e3, %e4 : memref<1x1x1xi32>, memref<1x1x1x1xi32>, memref<1x1x1xi32>, memref<1x1x1x1xi32>) {block_q = 2048 : i64, block_k = 4 : i64}
  return
}

// -----

func.func @mask_num_blocks_rank(%e2: memref<1x2xi32>, %e4: memref<1x1x2x2xi32>) {
  %c8 = arith.constant 8 : index
  // expected-error @+1 {{'attic.block_mask' op kv_num_blocks must have rank 3 ([B', H', ceil(query_len/block_q)]), got 'memref<1x2xi32>'}}
  attic.block_mask layout(#attic.causal) sizes(%c8, %c8) outs(%e2, %e4, %e2, %e4 : memref<1x2xi32>, memref<1x1x2x2xi32>, memref<1x2xi32>, memref<1x1x2x2xi32>) {block_q = 4 : i64, block_k = 4 : i64}
  return
}

// -----

func.func @mask_memref_region(%e3: memref<1x1x2xi32>, %e4: memref<1x1x2x2xi32>) {
  %c8 = arith.constant 8 : index
  // expected-error @+1 {{'attic.block_mask' op on memrefs, the mask modifier is a function (mask_fn), not a region}}
  attic.block_mask layout(#attic.dense) sizes(%c8, %c8) outs(%e3, %e4, %e3, %e4 : memref<1x1x2xi32>, memref<1x1x2x2xi32>, memref<1x1x2xi32>, memref<1x1x2x2xi32>) mask_mod {
      ^bb0(%b: index, %h: index, %qi: index, %ki: index):
        %t = arith.constant true
        attic.yield %t : i1
      } {block_q = 4 : i64, block_k = 4 : i64}
  return
}

// -----

func.func @zero_length(%qk: tensor<1x2x0x16xf32>) -> tensor<1x2x0x16xf32> {
  // expected-error @+1 {{'attic.lsh_attention' op qk [B,H,N,D] = 1x2x0x16 must have positive sizes}}
  %o = attic.lsh_attention %qk, %qk {buckets = 1 : i64, chunk = 8 : i64} : tensor<1x2x0x16xf32>, tensor<1x2x0x16xf32> -> tensor<1x2x0x16xf32>
  return %o : tensor<1x2x0x16xf32>
}

// -----

// init's rank is checked before the lse and pool destinations, whose
// expected shapes are read from init's dims.
func.func @lse_rank1_init(%q: tensor<1x2x8x4xf32>, %init: tensor<8xf32>, %lse: tensor<1x2x8xf32>) -> (tensor<8xf32>, tensor<1x2x8xf32>) {
  // expected-error @+1 {{'attic.block_attention' op init must have rank 4 ([B,Hq,Nq,Dv] = 1x2x8x4), got 'tensor<8xf32>'}}
  %o, %l = attic.block_attention ins(%q, %q, %q : tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>) outs(%init : tensor<8xf32>, lse %lse : tensor<1x2x8xf32>) {layout = #attic.dense, scale = 0.5 : f32, block_q = 4 : i64, block_k = 4 : i64} -> tensor<8xf32>, tensor<1x2x8xf32>
  return %o, %l : tensor<8xf32>, tensor<1x2x8xf32>
}

// -----

func.func @pool_rank1_init(%q: tensor<1x2x8x4xf32>, %init: tensor<8xf32>, %w: tensor<1x8xf32>, %p: tensor<1x2x2x4xf32>) -> (tensor<8xf32>, tensor<1x2x2x4xf32>) {
  // expected-error @+1 {{'attic.block_attention' op init must have rank 4 ([B,Hq,Nq,Dv] = 1x2x8x4), got 'tensor<8xf32>'}}
  %o:2 = attic.block_attention ins(%q, %q, %q : tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>) pool(%w : tensor<1x8xf32> into %p : tensor<1x2x2x4xf32>) outs(%init : tensor<8xf32>) {layout = #attic.dense, scale = 0.5 : f32, block_q = 4 : i64, block_k = 4 : i64} -> tensor<8xf32>, tensor<1x2x2x4xf32>
  return %o#0, %o#1 : tensor<8xf32>, tensor<1x2x2x4xf32>
}

// -----

// Memref layout operands and captures verified on attic.attention, and
// attic-decompose then made ops that failed their verifiers.
func.func @attention_memref_layout_operand(%q: tensor<1x2x37x8xf32>, %ids: memref<1x37xi32>) {
  // expected-error @+1 {{'attic.attention' op takes tensors, but layout operand #0 is 'memref<1x37xi32>' (memrefs are for attic.block_attention's memref form)}}
  %o = attic.attention %q, %q, %q layout(#attic.documents<query_ids = 0, key_ids = 0>) layout_operands(%ids : memref<1x37xi32>) : tensor<1x2x37x8xf32>, tensor<1x2x37x8xf32>, tensor<1x2x37x8xf32> -> tensor<1x2x37x8xf32>
  return
}

// -----

func.func @attention_memref_capture(%q: tensor<1x2x37x8xf32>, %c: memref<4xf32>) {
  // expected-error @+1 {{'attic.attention' op takes tensors, but capture #0 is 'memref<4xf32>'}}
  %o = attic.attention %q, %q, %q captures(%c : memref<4xf32>) score_mod {
  ^bb0(%s: f32, %b: index, %h: index, %qi: index, %ki: index, %t: memref<4xf32>):
    %x = memref.load %t[%h] : memref<4xf32>
    %r = arith.addf %s, %x : f32
    attic.yield %r : f32
  } : tensor<1x2x37x8xf32>, tensor<1x2x37x8xf32>, tensor<1x2x37x8xf32> -> tensor<1x2x37x8xf32>
  return
}
