// Linear attention (Katharopoulos et al. 2020, "Transformers are RNNs";
// ../shared/papers/xformer.md A6, docs/kernelized.md): softmax replaced by
// the kernel phi(q) . phi(k) with phi = elu + 1, computed as
// phi(Q) (phi(K)^T V) in O(N D Dv) instead of O(N^2 D). B = 2 sequences of
// N = 1024 tokens, H = 4 heads of D = 64.
//
// @linear_attention: bidirectional, with a key padding mask.
// @linear_causal: autoregressive, in the chunkwise-parallel form (chunks of
// 64: a masked 64 x 64 product inside each chunk, a prefix scan of the
// 64 x 64 states across chunks).
// @relu_attention: phi = ReLU (the "mediocre choice" of the paper), causal
// with chunks of 128; a query whose visible keys all have phi(k) . phi(q)
// = 0 gets 0.
//
// Run one (inputs from a seed; --check compares with attic::ref::kernelized,
// the quadratic form sum_j (phi(q_i) . phi(k_j)) v_j in double):
//   build/tools/attic-run examples/linear_attention.mlir \
//       --entry=linear_attention --mask-keep=0.8 --check

func.func @linear_attention(%q: tensor<2x4x1024x64xf32>, %k: tensor<2x4x1024x64xf32>,
                            %v: tensor<2x4x1024x64xf32>, %m: tensor<2x1024xi1>)
    -> tensor<2x4x1024x64xf32> {
  %o = attic.kernelized_attention elu_plus_one %q, %k, %v mask(%m : tensor<2x1024xi1>)
      : tensor<2x4x1024x64xf32>, tensor<2x4x1024x64xf32>, tensor<2x4x1024x64xf32>
      -> tensor<2x4x1024x64xf32>
  return %o : tensor<2x4x1024x64xf32>
}

func.func @linear_causal(%q: tensor<2x4x1024x64xf32>, %k: tensor<2x4x1024x64xf32>,
                         %v: tensor<2x4x1024x64xf32>) -> tensor<2x4x1024x64xf32> {
  %o = attic.kernelized_attention elu_plus_one %q, %k, %v {causal, chunk = 64 : i64}
      : tensor<2x4x1024x64xf32>, tensor<2x4x1024x64xf32>, tensor<2x4x1024x64xf32>
      -> tensor<2x4x1024x64xf32>
  return %o : tensor<2x4x1024x64xf32>
}

func.func @relu_attention(%q: tensor<2x4x1024x64xf32>, %k: tensor<2x4x1024x64xf32>,
                          %v: tensor<2x4x1024x64xf32>) -> tensor<2x4x1024x64xf32> {
  %o = attic.kernelized_attention relu %q, %k, %v {causal, chunk = 128 : i64}
      : tensor<2x4x1024x64xf32>, tensor<2x4x1024x64xf32>, tensor<2x4x1024x64xf32>
      -> tensor<2x4x1024x64xf32>
  return %o : tensor<2x4x1024x64xf32>
}
