// attic.block_mask with lengths from the data (test/Integration/block-mask-lengths.test).
func.func @f(%lens: tensor<2xi32>) -> (tensor<1x1x4xi32>, tensor<1x1x4x4xi32>, tensor<1x1x4xi32>, tensor<1x1x4x4xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = tensor.extract %lens[%c0] : tensor<2xi32>
  %b = tensor.extract %lens[%c1] : tensor<2xi32>
  %nq = arith.index_cast %a : i32 to index
  %nk = arith.index_cast %b : i32 to index
  %e3 = tensor.empty() : tensor<1x1x4xi32>
  %e4 = tensor.empty() : tensor<1x1x4x4xi32>
  %r:4 = attic.block_mask layout(#attic.causal) sizes(%nq, %nk)
      outs(%e3, %e4, %e3, %e4 : tensor<1x1x4xi32>, tensor<1x1x4x4xi32>, tensor<1x1x4xi32>, tensor<1x1x4x4xi32>)
      {block_q = 16 : i64, block_k = 16 : i64} -> tensor<1x1x4xi32>, tensor<1x1x4x4xi32>, tensor<1x1x4xi32>, tensor<1x1x4x4xi32>
  return %r#0, %r#1, %r#2, %r#3 : tensor<1x1x4xi32>, tensor<1x1x4x4xi32>, tensor<1x1x4xi32>, tensor<1x1x4x4xi32>
}
