// RUN: attic-opt %s --split-input-file --attic-gpu-block-attention -verify-diagnostics
// RUN: not attic-opt %s --attic-gpu-block-attention="block-q=-1" 2>&1 | FileCheck %s --check-prefix=BADOPT

// BADOPT: attic-gpu-block-attention: block-q and block-k must be >= 0 (0: the op's block_q/block_k), got -1 and 0

// f32 has no tensor-core kernel (yet).
func.func @f32(%q: memref<1x2x64x64xf32>, %k: memref<1x2x64x64xf32>, %v: memref<1x2x64x64xf32>, %o: memref<1x2x64x64xf32>) {
  // expected-error @+1 {{cannot be lowered to the CUDA kernel: query element type must be f16 or bf16 (tensor-core mma.sync), got f32}}
  attic.block_attention ins(%q, %k, %v : memref<1x2x64x64xf32>, memref<1x2x64x64xf32>, memref<1x2x64x64xf32>) outs(%o : memref<1x2x64x64xf32>) {layout = #attic.dense, scale = 0.125 : f32, block_q = 64 : i64, block_k = 64 : i64}
  return
}

// -----

func.func @head_dim(%q: memref<1x2x64x40xf16>, %k: memref<1x2x64x40xf16>, %v: memref<1x2x64x64xf16>, %o: memref<1x2x64x64xf16>) {
  // expected-error @+1 {{query head dim D must be static and a multiple of 16 in [16, 128] (e.g. 64 or 128), got 40}}
  attic.block_attention ins(%q, %k, %v : memref<1x2x64x40xf16>, memref<1x2x64x40xf16>, memref<1x2x64x64xf16>) outs(%o : memref<1x2x64x64xf16>) {layout = #attic.dense, scale = 0.125 : f32, block_q = 64 : i64, block_k = 64 : i64}
  return
}

// -----

func.func @dynamic_head_dim(%q: memref<1x2x64x?xf16>, %k: memref<1x2x64x?xf16>, %v: memref<1x2x64x64xf16>, %o: memref<1x2x64x64xf16>) {
  // expected-error @+1 {{query head dim D must be static and a multiple of 16 in [16, 128] (e.g. 64 or 128), got ?}}
  attic.block_attention ins(%q, %k, %v : memref<1x2x64x?xf16>, memref<1x2x64x?xf16>, memref<1x2x64x64xf16>) outs(%o : memref<1x2x64x64xf16>) {layout = #attic.dense, scale = 0.125 : f32, block_q = 64 : i64, block_k = 64 : i64}
  return
}

// -----

func.func @value_dim(%q: memref<1x2x64x64xbf16>, %k: memref<1x2x64x64xbf16>, %v: memref<1x2x64x256xbf16>, %o: memref<1x2x64x256xbf16>) {
  // expected-error @+1 {{value head dim Dv must be static and a multiple of 16 in [16, 128] (e.g. 64 or 128), got 256}}
  attic.block_attention ins(%q, %k, %v : memref<1x2x64x64xbf16>, memref<1x2x64x64xbf16>, memref<1x2x64x256xbf16>) outs(%o : memref<1x2x64x256xbf16>) {layout = #attic.dense, scale = 0.125 : f32, block_q = 64 : i64, block_k = 64 : i64}
  return
}

// -----

func.func @block_q(%q: memref<1x2x64x64xf16>, %k: memref<1x2x64x64xf16>, %v: memref<1x2x64x64xf16>, %o: memref<1x2x64x64xf16>) {
  // expected-error @+1 {{block_q must be 16, 32, 64 or 128 (16 query rows per warp), got 48}}
  attic.block_attention ins(%q, %k, %v : memref<1x2x64x64xf16>, memref<1x2x64x64xf16>, memref<1x2x64x64xf16>) outs(%o : memref<1x2x64x64xf16>) {layout = #attic.dense, scale = 0.125 : f32, block_q = 48 : i64, block_k = 64 : i64}
  return
}

// -----

func.func @block_k(%q: memref<1x2x64x64xf16>, %k: memref<1x2x64x64xf16>, %v: memref<1x2x64x64xf16>, %o: memref<1x2x64x64xf16>) {
  // expected-error @+1 {{block_k must be a multiple of 16 in [16, 128], got 8}}
  attic.block_attention ins(%q, %k, %v : memref<1x2x64x64xf16>, memref<1x2x64x64xf16>, memref<1x2x64x64xf16>) outs(%o : memref<1x2x64x64xf16>) {layout = #attic.dense, scale = 0.125 : f32, block_q = 64 : i64, block_k = 8 : i64}
  return
}

// -----

// A key tile over 128 is an error, not halved to one that fits.
func.func @block_k_too_large(%q: memref<1x2x64x64xf16>, %k: memref<1x2x64x64xf16>, %v: memref<1x2x64x64xf16>, %o: memref<1x2x64x64xf16>) {
  // expected-error @+1 {{block_k must be a multiple of 16 in [16, 128], got 256}}
  attic.block_attention ins(%q, %k, %v : memref<1x2x64x64xf16>, memref<1x2x64x64xf16>, memref<1x2x64x64xf16>) outs(%o : memref<1x2x64x64xf16>) {layout = #attic.dense, scale = 0.125 : f32, block_q = 64 : i64, block_k = 256 : i64}
  return
}

// -----

func.func @strided(%q: memref<1x2x64x64xf16, strided<[16384, 8192, 128, 1]>>, %k: memref<1x2x64x64xf16>, %v: memref<1x2x64x64xf16>, %o: memref<1x2x64x64xf16>) {
  // expected-error @+1 {{query must have the identity layout (a contiguous buffer), got a strided layout}}
  attic.block_attention ins(%q, %k, %v : memref<1x2x64x64xf16, strided<[16384, 8192, 128, 1]>>, memref<1x2x64x64xf16>, memref<1x2x64x64xf16>) outs(%o : memref<1x2x64x64xf16>) {layout = #attic.dense, scale = 0.125 : f32, block_q = 64 : i64, block_k = 64 : i64}
  return
}

// -----

func.func @tensors(%q: tensor<1x2x64x64xf16>, %k: tensor<1x2x64x64xf16>, %v: tensor<1x2x64x64xf16>, %o: tensor<1x2x64x64xf16>) -> tensor<1x2x64x64xf16> {
  // expected-error @+1 {{cannot be lowered to the CUDA kernel: bufferize first (operands are tensors)}}
  %r = attic.block_attention ins(%q, %k, %v : tensor<1x2x64x64xf16>, tensor<1x2x64x64xf16>, tensor<1x2x64x64xf16>) outs(%o : tensor<1x2x64x64xf16>) {layout = #attic.dense, scale = 0.125 : f32, block_q = 64 : i64, block_k = 64 : i64} -> tensor<1x2x64x64xf16>
  return %r : tensor<1x2x64x64xf16>
}
