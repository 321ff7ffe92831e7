// Sparse Transformer (Child et al. 2019), the two factorized patterns of
// the decoder (causal), each in one softmax:
//   strided: |i - j| < l or (i - j) a multiple of l, with l = 32;
//   fixed:   i and j in the same block of l = 128 keys, or j one of the
//            last c = 8 keys ("summary columns") of its block.
//
//   attic-run examples/sparse_transformer.mlir --entry=strided --check
//   attic-run examples/sparse_transformer.mlir --entry=fixed --check
//
// B=1, H=4, N=1024, D=64.

func.func @strided(%q: tensor<1x4x1024x64xf32>, %k: tensor<1x4x1024x64xf32>, %v: tensor<1x4x1024x64xf32>) -> tensor<1x4x1024x64xf32> {
  %o = attic.attention %q, %k, %v causal layout(#attic.strided<stride = 32>)
      : tensor<1x4x1024x64xf32>, tensor<1x4x1024x64xf32>, tensor<1x4x1024x64xf32> -> tensor<1x4x1024x64xf32>
  return %o : tensor<1x4x1024x64xf32>
}

func.func @fixed(%q: tensor<1x4x1024x64xf32>, %k: tensor<1x4x1024x64xf32>, %v: tensor<1x4x1024x64xf32>) -> tensor<1x4x1024x64xf32> {
  %o = attic.attention %q, %k, %v causal
      layout(#attic.fixed<block = 128, summary = 8>)
      : tensor<1x4x1024x64xf32>, tensor<1x4x1024x64xf32>, tensor<1x4x1024x64xf32> -> tensor<1x4x1024x64xf32>
  return %o : tensor<1x4x1024x64xf32>
}
