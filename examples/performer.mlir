// Performer (Choromanski et al. 2020; ../shared/papers/xformer.md A8,
// docs/kernelized.md): random feature maps phi(x) = f(x W^T) with W the
// [p, D] positive orthogonal random features drawn from a Philox seed at
// compile time (blocks of D orthonormal rows scaled by chi(D) norms; a
// redraw is a new seed) or given as the `projection` operand.
// B = 2, H = 4 heads of D = 64, N = 1024.
//
// @performer_relu: the generalized ReLU kernel relu(D^-1/4 x W^T) + 0.001,
// p = 128 features (the LRA configuration), bidirectional with a mask.
// @favor_plus: FAVOR+, the unbiased softmax-kernel estimator
// exp(D^-1/4 x.w - |x|^2 / (2 sqrt(D))) / sqrt(p), p = 256, causal with
// chunks of 64.
// @favor_plus_given: FAVOR+ with the random features as an input (redrawn
// by the caller; --check uses the same tensor).
//
//   build/tools/attic-run examples/performer.mlir --entry=favor_plus --check

func.func @performer_relu(%q: tensor<2x4x1024x64xf32>, %k: tensor<2x4x1024x64xf32>,
                          %v: tensor<2x4x1024x64xf32>, %m: tensor<2x1024xi1>)
    -> tensor<2x4x1024x64xf32> {
  %o = attic.kernelized_attention performer_relu %q, %k, %v mask(%m : tensor<2x1024xi1>)
      {features = 128 : i64, seed = 42 : i64}
      : tensor<2x4x1024x64xf32>, tensor<2x4x1024x64xf32>, tensor<2x4x1024x64xf32>
      -> tensor<2x4x1024x64xf32>
  return %o : tensor<2x4x1024x64xf32>
}

func.func @favor_plus(%q: tensor<2x4x1024x64xf32>, %k: tensor<2x4x1024x64xf32>,
                      %v: tensor<2x4x1024x64xf32>) -> tensor<2x4x1024x64xf32> {
  %o = attic.kernelized_attention favor_plus %q, %k, %v
      {features = 256 : i64, seed = 7 : i64, causal, chunk = 64 : i64}
      : tensor<2x4x1024x64xf32>, tensor<2x4x1024x64xf32>, tensor<2x4x1024x64xf32>
      -> tensor<2x4x1024x64xf32>
  return %o : tensor<2x4x1024x64xf32>
}

func.func @favor_plus_given(%q: tensor<2x4x1024x64xf32>, %k: tensor<2x4x1024x64xf32>,
                            %v: tensor<2x4x1024x64xf32>, %w: tensor<96x64xf32>)
    -> tensor<2x4x1024x64xf32> {
  %o = attic.kernelized_attention favor_plus %q, %k, %v projection(%w : tensor<96x64xf32>)
      : tensor<2x4x1024x64xf32>, tensor<2x4x1024x64xf32>, tensor<2x4x1024x64xf32>
      -> tensor<2x4x1024x64xf32>
  return %o : tensor<2x4x1024x64xf32>
}
