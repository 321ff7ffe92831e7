// RUN: attic-opt %s --split-input-file --verify-diagnostics

func.func @pool_weights_shape(%q: tensor<1x2x64x16xf32>, %init: tensor<1x2x64x16xf32>, %w: tensor<1x32xf32>, %p: tensor<1x2x4x16xf32>) -> (tensor<1x2x64x16xf32>, tensor<1x2x4x16xf32>) {
  // expected-error @+1 {{'attic.block_attention' op pool weights must be [B,Nq] = [1,64] of f32, got 'tensor<1x32xf32>'}}
  %o:2 = attic.block_attention ins(%q, %q, %q : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>) pool(%w : tensor<1x32xf32> into %p : tensor<1x2x4x16xf32>) outs(%init : tensor<1x2x64x16xf32>) {layout = #attic.dense, scale = 0.25 : f32, block_q = 16 : i64, block_k = 16 : i64} -> tensor<1x2x64x16xf32>, tensor<1x2x4x16xf32>
  return %o#0, %o#1 : tensor<1x2x64x16xf32>, tensor<1x2x4x16xf32>
}

// -----

func.func @pool_blocks(%q: tensor<1x2x64x16xf32>, %init: tensor<1x2x64x16xf32>, %w: tensor<1x64xf32>, %p: tensor<1x2x2x16xf32>) -> (tensor<1x2x64x16xf32>, tensor<1x2x2x16xf32>) {
  // expected-error @+1 {{'attic.block_attention' op pool must be [B,Hq,ceil(Nq/block_q),Dv] = [1,2,4,16] of f32 (block_q = 16), got 'tensor<1x2x2x16xf32>'}}
  %o:2 = attic.block_attention ins(%q, %q, %q : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>) pool(%w : tensor<1x64xf32> into %p : tensor<1x2x2x16xf32>) outs(%init : tensor<1x2x64x16xf32>) {layout = #attic.dense, scale = 0.25 : f32, block_q = 16 : i64, block_k = 16 : i64} -> tensor<1x2x64x16xf32>, tensor<1x2x2x16xf32>
  return %o#0, %o#1 : tensor<1x2x64x16xf32>, tensor<1x2x2x16xf32>
}

// -----

func.func @pool_f16(%q: tensor<1x2x64x16xf32>, %init: tensor<1x2x64x16xf32>, %w: tensor<1x64xf32>, %p: tensor<1x2x4x16xf16>) -> (tensor<1x2x64x16xf32>, tensor<1x2x4x16xf16>) {
  // expected-error @+1 {{'attic.block_attention' op pool must be [B,Hq,ceil(Nq/block_q),Dv] = [1,2,4,16] of f32 (block_q = 16), got 'tensor<1x2x4x16xf16>'}}
  %o:2 = attic.block_attention ins(%q, %q, %q : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>) pool(%w : tensor<1x64xf32> into %p : tensor<1x2x4x16xf16>) outs(%init : tensor<1x2x64x16xf32>) {layout = #attic.dense, scale = 0.25 : f32, block_q = 16 : i64, block_k = 16 : i64} -> tensor<1x2x64x16xf32>, tensor<1x2x4x16xf16>
  return %o#0, %o#1 : tensor<1x2x64x16xf32>, tensor<1x2x4x16xf16>
}

// -----

func.func @pool_missing_result(%q: tensor<1x2x64x16xf32>, %init: tensor<1x2x64x16xf32>, %w: tensor<1x64xf32>, %p: tensor<1x2x4x16xf32>) -> tensor<1x2x64x16xf32> {
  // expected-error @+1 {{'attic.block_attention' op on tensors, expects 2 result(s) of the destination types (init, pool) 'tensor<1x2x64x16xf32>', 'tensor<1x2x4x16xf32>'}}
  %o = attic.block_attention ins(%q, %q, %q : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>) pool(%w : tensor<1x64xf32> into %p : tensor<1x2x4x16xf32>) outs(%init : tensor<1x2x64x16xf32>) {layout = #attic.dense, scale = 0.25 : f32, block_q = 16 : i64, block_k = 16 : i64} -> tensor<1x2x64x16xf32>
  return %o : tensor<1x2x64x16xf32>
}

// -----

// The generic form can give the destination without the weights.
func.func @pool_without_weights(%q: memref<1x2x64x16xf32>, %o: memref<1x2x64x16xf32>, %p: memref<1x2x4x16xf32>) {
  // expected-error @+1 {{'attic.block_attention' op pool weights and the pool destination come together; got only the destination}}
  "attic.block_attention"(%q, %q, %q, %o, %p) <{block_k = 16 : i64, block_q = 16 : i64, layout = #attic.dense, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1>, scale = 2.500000e-01 : f32}> ({}, {}) : (memref<1x2x64x16xf32>, memref<1x2x64x16xf32>, memref<1x2x64x16xf32>, memref<1x2x64x16xf32>, memref<1x2x4x16xf32>) -> ()
  return
}

// -----

func.func @tile_pool_columns(%t: memref<16x8xf32>, %o: memref<2x3x40x16xf32>, %w: memref<2x40xf32>, %p: memref<2x3x3x16xf32>, %i: index) {
  // expected-error @+1 {{'attic.tile.pool' op tile has 8 columns but stored has Dv = 16}}
  attic.tile.pool %t stored(%o) weights(%w) into %p[%i, %i, %i] : memref<16x8xf32>, memref<2x3x40x16xf32>, memref<2x40xf32> into memref<2x3x3x16xf32>
  return
}

// -----

func.func @tile_pool_weights(%t: memref<16x16xf32>, %o: memref<2x3x40x16xf32>, %w: memref<2x39xf32>, %p: memref<2x3x3x16xf32>, %i: index) {
  // expected-error @+1 {{'attic.tile.pool' op weights must be [B,Nq] of stored 'memref<2x3x40x16xf32>', got 'memref<2x39xf32>'}}
  attic.tile.pool %t stored(%o) weights(%w) into %p[%i, %i, %i] : memref<16x16xf32>, memref<2x3x40x16xf32>, memref<2x39xf32> into memref<2x3x3x16xf32>
  return
}

// -----

func.func @tile_pool_blocks(%t: memref<16x16xf32>, %o: memref<2x3x40x16xf32>, %w: memref<2x40xf32>, %p: memref<2x3x2x16xf32>, %i: index) {
  // expected-error @+1 {{'attic.tile.pool' op pooled must be [B,H,ceil(Nq/R),Dv] of stored 'memref<2x3x40x16xf32>' in blocks of R = 16, got 'memref<2x3x2x16xf32>'}}
  attic.tile.pool %t stored(%o) weights(%w) into %p[%i, %i, %i] : memref<16x16xf32>, memref<2x3x40x16xf32>, memref<2x40xf32> into memref<2x3x2x16xf32>
  return
}
