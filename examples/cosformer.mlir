// cosFormer (Zhen et al. 2022; ../shared/papers/xformer.md A7,
// docs/kernelized.md): phi = ReLU with the cos-based re-weighting
// cos((i - j) / m * pi / 2), realised as one kernelized attention over the
// doubled features [relu(x) sin a_t, relu(x) cos a_t], a_t = pi (t+1) / (2m),
// m = max(Nq, Nk). B = 1, H = 8 heads of D = 64, N = 2048.
//
// @cosformer: bidirectional with a key padding mask.
// @cosformer_causal: autoregressive, chunks of 128.
// @cosformer_cross: 512 queries over 2048 keys (m = 2048).
//
//   build/tools/attic-run examples/cosformer.mlir --entry=cosformer \
//       --mask-keep=0.9 --check

func.func @cosformer(%q: tensor<1x8x2048x64xf32>, %k: tensor<1x8x2048x64xf32>,
                     %v: tensor<1x8x2048x64xf32>, %m: tensor<1x2048xi1>)
    -> tensor<1x8x2048x64xf32> {
  %o = attic.kernelized_attention cosformer %q, %k, %v mask(%m : tensor<1x2048xi1>)
      : tensor<1x8x2048x64xf32>, tensor<1x8x2048x64xf32>, tensor<1x8x2048x64xf32>
      -> tensor<1x8x2048x64xf32>
  return %o : tensor<1x8x2048x64xf32>
}

func.func @cosformer_causal(%q: tensor<1x8x2048x64xf32>, %k: tensor<1x8x2048x64xf32>,
                            %v: tensor<1x8x2048x64xf32>) -> tensor<1x8x2048x64xf32> {
  %o = attic.kernelized_attention cosformer %q, %k, %v {causal, chunk = 128 : i64}
      : tensor<1x8x2048x64xf32>, tensor<1x8x2048x64xf32>, tensor<1x8x2048x64xf32>
      -> tensor<1x8x2048x64xf32>
  return %o : tensor<1x8x2048x64xf32>
}

func.func @cosformer_cross(%q: tensor<1x8x512x64xf32>, %k: tensor<1x8x2048x64xf32>,
                           %v: tensor<1x8x2048x64xf32>) -> tensor<1x8x512x64xf32> {
  %o = attic.kernelized_attention cosformer %q, %k, %v
      : tensor<1x8x512x64xf32>, tensor<1x8x2048x64xf32>, tensor<1x8x2048x64xf32>
      -> tensor<1x8x512x64xf32>
  return %o : tensor<1x8x512x64xf32>
}
