// RUN: attic-opt %s --split-input-file --verify-diagnostics

// An attribute without a dialect prefix that is not one of the op's own is
// refused: `{causal}` on an op without causal masking (or a misspelled
// name) verified, round-tripped and was ignored, so the result was not
// what was written, and --check agreed (a 2026-11-30 audit).
func.func @nystrom_causal(%q: tensor<1x2x64x16xf32>) -> tensor<1x2x64x16xf32> {
  // expected-error @+1 {{'attic.nystrom_attention' op has no attribute 'causal' (its attributes: iterations, landmarks, scale); an attribute of another meaning needs a dialect prefix (e.g. 'mine.causal')}}
  %o = attic.nystrom_attention %q, %q, %q {causal, landmarks = 8 : i64} : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return %o : tensor<1x2x64x16xf32>
}

// -----

func.func @clustered_causal(%q: tensor<1x2x64x16xf32>) -> tensor<1x2x64x16xf32> {
  // expected-error @+1 {{'attic.clustered_attention' op has no attribute 'causal'}}
  %o = attic.clustered_attention %q, %q, %q {causal, clusters = 4 : i64, seed = 1 : i64} : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return %o : tensor<1x2x64x16xf32>
}

// -----

func.func @cosformer_period(%q: tensor<1x2x32x16xf32>) -> tensor<1x2x32x16xf32> {
  // expected-error @+1 {{'attic.kernelized_attention' op has no attribute 'period'}}
  %o = attic.kernelized_attention cosformer %q, %q, %q {period = 1000 : i64} : tensor<1x2x32x16xf32>, tensor<1x2x32x16xf32>, tensor<1x2x32x16xf32> -> tensor<1x2x32x16xf32>
  return %o : tensor<1x2x32x16xf32>
}

// -----

// A misspelling of one of the op's own attributes.
func.func @attention_typo(%q: tensor<1x2x64x16xf32>) -> tensor<1x2x64x16xf32> {
  // expected-error @+1 {{'attic.attention' op has no attribute 'casual' (its attributes: }}
  %o = attic.attention %q, %q, %q {casual} : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return %o : tensor<1x2x64x16xf32>
}
