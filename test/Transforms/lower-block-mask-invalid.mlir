// RUN: attic-opt %s --attic-lower-block-mask --verify-diagnostics

// Tensors: bufferize first.
func.func @on_tensors(%e3: tensor<1x1x4xi32>, %e4: tensor<1x1x4x4xi32>) {
  %c100 = arith.constant 100 : index
  // expected-error @+1 {{'attic.block_mask' op attic-lower-block-mask needs the memref form (bufferize first)}}
  %0:4 = attic.block_mask layout(#attic.causal) sizes(%c100, %c100) outs(%e3, %e4, %e3, %e4 : tensor<1x1x4xi32>, tensor<1x1x4x4xi32>, tensor<1x1x4xi32>, tensor<1x1x4x4xi32>) {block_q = 32 : i64, block_k = 32 : i64} -> tensor<1x1x4xi32>, tensor<1x1x4x4xi32>, tensor<1x1x4xi32>, tensor<1x1x4x4xi32>
  return
}
