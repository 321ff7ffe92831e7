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
  // expected-error @+1 {{'attic.attention' op operand #3 must be ranked tensor of 1-bit signless integer values, but got 'tensor<1x128xf32>'}}
  %o = attic.attention %q, %k, %v mask(%m : tensor<1x128xf32>) : tensor<1x4x128x64xf32>, tensor<1x4x128x64xf32>, tensor<1x4x128x64xf32> -> tensor<1x4x128x64xf32>
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
