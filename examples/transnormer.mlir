// TransNormer (Qin et al. 2022; ../shared/papers/xformer.md A12,
// docs/kernelized.md): the early layers use DiagAttention (softmax inside
// blocks on the diagonal: the shared block-attention core with
// #attic.block_diagonal), the later ones NormAttention (phi = elu + 1,
// RMSNorm of phi(Q) (phi(K)^T V) instead of the denominator, eps 1e-8 as in
// the authors' SimpleRMSNorm). A 4-layer stack on x [256 tokens, 64] with
// H = 2 heads of 32: two DiagAttention layers (blocks of 32), then two
// NormAttention layers, each layer x + attention(x Wq, x Wk, x Wv) with the
// heads split from the projections; the weights are shared between layers
// here to keep the example short.
//
// @transnormer: bidirectional.
// @transnormer_causal: the autoregressive variant (causal inside the
// diagonal blocks; NormAttention with chunks of 32).
//
//   build/tools/attic-run examples/transnormer.mlir --entry=transnormer \
//       --range-lo=-0.5 --range-hi=0.5 --check

func.func private @heads(%x: tensor<256x64xf32>, %w: tensor<64x64xf32>) -> tensor<1x2x256x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<256x64xf32>) -> tensor<256x64xf32>
  %p = linalg.matmul ins(%x, %w : tensor<256x64xf32>, tensor<64x64xf32>)
      outs(%z : tensor<256x64xf32>) -> tensor<256x64xf32>
  %r = tensor.expand_shape %p [[0, 1], [2, 3]] output_shape [1, 256, 2, 32]
      : tensor<256x64xf32> into tensor<1x256x2x32xf32>
  %t0 = tensor.empty() : tensor<1x2x256x32xf32>
  %t = linalg.transpose ins(%r : tensor<1x256x2x32xf32>) outs(%t0 : tensor<1x2x256x32xf32>)
      permutation = [0, 2, 1, 3]
  return %t : tensor<1x2x256x32xf32>
}

func.func private @residual(%x: tensor<256x64xf32>, %o: tensor<1x2x256x32xf32>) -> tensor<256x64xf32> {
  %t0 = tensor.empty() : tensor<1x256x2x32xf32>
  %t = linalg.transpose ins(%o : tensor<1x2x256x32xf32>) outs(%t0 : tensor<1x256x2x32xf32>)
      permutation = [0, 2, 1, 3]
  %c = tensor.collapse_shape %t [[0, 1], [2, 3]] : tensor<1x256x2x32xf32> into tensor<256x64xf32>
  %e = tensor.empty() : tensor<256x64xf32>
  %y = linalg.add ins(%x, %c : tensor<256x64xf32>, tensor<256x64xf32>)
      outs(%e : tensor<256x64xf32>) -> tensor<256x64xf32>
  return %y : tensor<256x64xf32>
}

func.func private @diag(%x: tensor<256x64xf32>, %wq: tensor<64x64xf32>,
                        %wk: tensor<64x64xf32>, %wv: tensor<64x64xf32>) -> tensor<256x64xf32> {
  %q = func.call @heads(%x, %wq) : (tensor<256x64xf32>, tensor<64x64xf32>) -> tensor<1x2x256x32xf32>
  %k = func.call @heads(%x, %wk) : (tensor<256x64xf32>, tensor<64x64xf32>) -> tensor<1x2x256x32xf32>
  %v = func.call @heads(%x, %wv) : (tensor<256x64xf32>, tensor<64x64xf32>) -> tensor<1x2x256x32xf32>
  %o = attic.attention %q, %k, %v layout(#attic.block_diagonal<query = 32, key = 32>)
      : tensor<1x2x256x32xf32>, tensor<1x2x256x32xf32>, tensor<1x2x256x32xf32> -> tensor<1x2x256x32xf32>
  %y = func.call @residual(%x, %o) : (tensor<256x64xf32>, tensor<1x2x256x32xf32>) -> tensor<256x64xf32>
  return %y : tensor<256x64xf32>
}

func.func private @norm(%x: tensor<256x64xf32>, %wq: tensor<64x64xf32>,
                        %wk: tensor<64x64xf32>, %wv: tensor<64x64xf32>) -> tensor<256x64xf32> {
  %q = func.call @heads(%x, %wq) : (tensor<256x64xf32>, tensor<64x64xf32>) -> tensor<1x2x256x32xf32>
  %k = func.call @heads(%x, %wk) : (tensor<256x64xf32>, tensor<64x64xf32>) -> tensor<1x2x256x32xf32>
  %v = func.call @heads(%x, %wv) : (tensor<256x64xf32>, tensor<64x64xf32>) -> tensor<1x2x256x32xf32>
  %o = attic.kernelized_attention elu_plus_one %q, %k, %v normalize rmsnorm {eps = 1.0e-8 : f32}
      : tensor<1x2x256x32xf32>, tensor<1x2x256x32xf32>, tensor<1x2x256x32xf32> -> tensor<1x2x256x32xf32>
  %y = func.call @residual(%x, %o) : (tensor<256x64xf32>, tensor<1x2x256x32xf32>) -> tensor<256x64xf32>
  return %y : tensor<256x64xf32>
}

func.func private @diag_causal(%x: tensor<256x64xf32>, %wq: tensor<64x64xf32>,
                        %wk: tensor<64x64xf32>, %wv: tensor<64x64xf32>) -> tensor<256x64xf32> {
  %q = func.call @heads(%x, %wq) : (tensor<256x64xf32>, tensor<64x64xf32>) -> tensor<1x2x256x32xf32>
  %k = func.call @heads(%x, %wk) : (tensor<256x64xf32>, tensor<64x64xf32>) -> tensor<1x2x256x32xf32>
  %v = func.call @heads(%x, %wv) : (tensor<256x64xf32>, tensor<64x64xf32>) -> tensor<1x2x256x32xf32>
  %o = attic.attention %q, %k, %v causal layout(#attic.block_diagonal<query = 32, key = 32>)
      : tensor<1x2x256x32xf32>, tensor<1x2x256x32xf32>, tensor<1x2x256x32xf32> -> tensor<1x2x256x32xf32>
  %y = func.call @residual(%x, %o) : (tensor<256x64xf32>, tensor<1x2x256x32xf32>) -> tensor<256x64xf32>
  return %y : tensor<256x64xf32>
}

func.func private @norm_causal(%x: tensor<256x64xf32>, %wq: tensor<64x64xf32>,
                        %wk: tensor<64x64xf32>, %wv: tensor<64x64xf32>) -> tensor<256x64xf32> {
  %q = func.call @heads(%x, %wq) : (tensor<256x64xf32>, tensor<64x64xf32>) -> tensor<1x2x256x32xf32>
  %k = func.call @heads(%x, %wk) : (tensor<256x64xf32>, tensor<64x64xf32>) -> tensor<1x2x256x32xf32>
  %v = func.call @heads(%x, %wv) : (tensor<256x64xf32>, tensor<64x64xf32>) -> tensor<1x2x256x32xf32>
  %o = attic.kernelized_attention elu_plus_one %q, %k, %v normalize rmsnorm {eps = 1.0e-8 : f32, causal, chunk = 32 : i64}
      : tensor<1x2x256x32xf32>, tensor<1x2x256x32xf32>, tensor<1x2x256x32xf32> -> tensor<1x2x256x32xf32>
  %y = func.call @residual(%x, %o) : (tensor<256x64xf32>, tensor<1x2x256x32xf32>) -> tensor<256x64xf32>
  return %y : tensor<256x64xf32>
}

func.func @transnormer(%x: tensor<256x64xf32>, %wq: tensor<64x64xf32>,
                       %wk: tensor<64x64xf32>, %wv: tensor<64x64xf32>) -> tensor<256x64xf32> {
  %x1 = func.call @diag(%x, %wq, %wk, %wv) : (tensor<256x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<256x64xf32>
  %x2 = func.call @diag(%x1, %wq, %wk, %wv) : (tensor<256x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<256x64xf32>
  %x3 = func.call @norm(%x2, %wq, %wk, %wv) : (tensor<256x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<256x64xf32>
  %x4 = func.call @norm(%x3, %wq, %wk, %wv) : (tensor<256x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<256x64xf32>
  return %x4 : tensor<256x64xf32>
}

func.func @transnormer_causal(%x: tensor<256x64xf32>, %wq: tensor<64x64xf32>,
                       %wk: tensor<64x64xf32>, %wv: tensor<64x64xf32>) -> tensor<256x64xf32> {
  %x1 = func.call @diag_causal(%x, %wq, %wk, %wv) : (tensor<256x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<256x64xf32>
  %x2 = func.call @diag_causal(%x1, %wq, %wk, %wv) : (tensor<256x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<256x64xf32>
  %x3 = func.call @norm_causal(%x2, %wq, %wk, %wv) : (tensor<256x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<256x64xf32>
  %x4 = func.call @norm_causal(%x3, %wq, %wk, %wv) : (tensor<256x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<256x64xf32>
  return %x4 : tensor<256x64xf32>
}
