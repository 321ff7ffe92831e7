// RUN: attic-opt %s --split-input-file --attic-gpu-simt-attention -verify-diagnostics
// RUN: not attic-opt %s --split-input-file --attic-gpu-simt-attention="chunk=0" 2>&1 | FileCheck %s --check-prefix=CHUNK0
// RUN: not attic-opt %s --split-input-file --attic-gpu-simt-attention="chunk=65" 2>&1 | FileCheck %s --check-prefix=CHUNK65
// RUN: not attic-opt %s --split-input-file --attic-gpu-simt-attention="block-k=-16" 2>&1 | FileCheck %s --check-prefix=BLOCK

// CHUNK0: attic-gpu-simt-attention: chunk must be in [1, 64] (f32 accumulators per thread), got 0
// CHUNK65: attic-gpu-simt-attention: chunk must be in [1, 64] (f32 accumulators per thread), got 65
// BLOCK: attic-gpu-simt-attention: block-q and block-k must be >= 0 (0: the op's block_q/block_k), got 0 and -16

func.func @tensors(%q: tensor<1x2x64x64xf32>, %k: tensor<1x2x64x64xf32>, %v: tensor<1x2x64x64xf32>, %o: tensor<1x2x64x64xf32>) -> tensor<1x2x64x64xf32> {
  // expected-error @+1 {{cannot be lowered to SIMT loops: bufferize first (operands are tensors)}}
  %r = attic.block_attention ins(%q, %k, %v : tensor<1x2x64x64xf32>, tensor<1x2x64x64xf32>, tensor<1x2x64x64xf32>) outs(%o : tensor<1x2x64x64xf32>) {layout = #attic.dense, scale = 0.125 : f32, block_q = 64 : i64, block_k = 64 : i64} -> tensor<1x2x64x64xf32>
  return %r : tensor<1x2x64x64xf32>
}

// -----

// Also with f16 D = 64, which the tensor-core kernel would take once
// bufferized.
func.func @tensors_f16(%q: tensor<1x2x64x64xf16>, %k: tensor<1x2x64x64xf16>, %v: tensor<1x2x64x64xf16>, %o: tensor<1x2x64x64xf16>) -> tensor<1x2x64x64xf16> {
  // expected-error @+1 {{cannot be lowered to SIMT loops: bufferize first (operands are tensors)}}
  %r = attic.block_attention ins(%q, %k, %v : tensor<1x2x64x64xf16>, tensor<1x2x64x64xf16>, tensor<1x2x64x64xf16>) outs(%o : tensor<1x2x64x64xf16>) {layout = #attic.dense, scale = 0.125 : f32, block_q = 64 : i64, block_k = 64 : i64} -> tensor<1x2x64x64xf16>
  return %r : tensor<1x2x64x64xf16>
}
