// RUN: attic-opt %s --split-input-file --verify-diagnostics

func.func @features_zero(%q: tensor<1x2x64x16xf32>) {
  // expected-error @+1 {{'attic.kernelized_attention' op features must be >= 1, got 0}}
  %o = attic.kernelized_attention favor_plus %q, %q, %q {features = 0 : i64, seed = 1 : i64}
      : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

func.func @features_negative(%q: tensor<1x2x64x16xf32>) {
  // expected-error @+1 {{features must be >= 1, got -4}}
  %o = attic.kernelized_attention performer_relu %q, %q, %q {features = -4 : i64, seed = 1 : i64}
      : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

func.func @missing_seed(%q: tensor<1x2x64x16xf32>) {
  // expected-error @+1 {{feature map 'favor_plus' draws random features and needs a `seed` (or a `projection` operand)}}
  %o = attic.kernelized_attention favor_plus %q, %q, %q {features = 16 : i64}
      : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

func.func @missing_features(%q: tensor<1x2x64x16xf32>) {
  // expected-error @+1 {{feature map 'performer_relu' needs `features` (the number of random features) and `seed`, or a `projection` operand}}
  %o = attic.kernelized_attention performer_relu %q, %q, %q
      : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

func.func @seed_and_projection(%q: tensor<1x2x64x16xf32>, %w: tensor<8x16xf32>) {
  // expected-error @+1 {{takes its random features from `projection`; `features` and `seed` are for drawing them (give one or the other)}}
  %o = attic.kernelized_attention favor_plus %q, %q, %q projection(%w : tensor<8x16xf32>) {seed = 3 : i64}
      : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

func.func @projection_width(%q: tensor<1x2x64x16xf32>, %w: tensor<8x12xf32>) {
  // expected-error @+1 {{projection has shape 8x12 but [p,D] = 8x16 is expected: dim 1 (D) is 12, query has 16}}
  %o = attic.kernelized_attention favor_plus %q, %q, %q projection(%w : tensor<8x12xf32>)
      : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

func.func @seed_deterministic_map(%q: tensor<1x2x64x16xf32>) {
  // expected-error @+1 {{feature map 'elu_plus_one' is deterministic: `projection`, `features` and `seed` are only for performer_relu and favor_plus}}
  %o = attic.kernelized_attention elu_plus_one %q, %q, %q {seed = 3 : i64}
      : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

func.func @chunk_not_dividing(%q: tensor<1x2x60x16xf32>) {
  // expected-error @+1 {{chunk = 16 does not divide the sequence length N = 60 (choose a divisor of N, or pad the sequence and mask the padding)}}
  %o = attic.kernelized_attention elu_plus_one %q, %q, %q {causal, chunk = 16 : i64}
      : tensor<1x2x60x16xf32>, tensor<1x2x60x16xf32>, tensor<1x2x60x16xf32> -> tensor<1x2x60x16xf32>
  return
}

// -----

// (Without `chunk`, N = 100 takes 50, the largest divisor up to 64:
// decompose-kernelized.mlir.)
func.func @chunk_not_dividing(%q: tensor<1x2x100x16xf32>) {
  // expected-error @+1 {{chunk = 64 does not divide the sequence length N = 100}}
  %o = attic.kernelized_attention elu_plus_one %q, %q, %q {causal, chunk = 64 : i64}
      : tensor<1x2x100x16xf32>, tensor<1x2x100x16xf32>, tensor<1x2x100x16xf32> -> tensor<1x2x100x16xf32>
  return
}

// -----

func.func @chunk_zero(%q: tensor<1x2x64x16xf32>) {
  // expected-error @+1 {{chunk must be >= 1, got 0}}
  %o = attic.kernelized_attention elu_plus_one %q, %q, %q {causal, chunk = 0 : i64}
      : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

func.func @chunk_without_causal(%q: tensor<1x2x64x16xf32>) {
  // expected-error @+1 {{chunk is the causal form's chunk length; it needs `causal`}}
  %o = attic.kernelized_attention elu_plus_one %q, %q, %q {chunk = 16 : i64}
      : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

func.func @causal_cross(%q: tensor<1x2x32x16xf32>, %k: tensor<1x2x64x16xf32>) {
  // expected-error @+1 {{causal needs as many queries as keys, got Nq = 32 and Nk = 64}}
  %o = attic.kernelized_attention relu %q, %k, %k {causal}
      : tensor<1x2x32x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x32x16xf32>
  return
}

// -----

func.func @eps_zero(%q: tensor<1x2x64x16xf32>) {
  // expected-error @+1 {{eps must be a positive finite number, got 0}}
  %o = attic.kernelized_attention relu %q, %q, %q {eps = 0.0 : f32}
      : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

func.func @key_width(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x64x8xf32>) {
  // expected-error @+1 {{key has shape 1x2x64x8 but [B,H,Nk,D] = 1x2x64x16 is expected: dim 3 (D) is 8, query has 16}}
  %o = attic.kernelized_attention relu %q, %k, %q
      : tensor<1x2x64x16xf32>, tensor<1x2x64x8xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

func.func @value_length(%q: tensor<1x2x64x16xf32>, %v: tensor<1x2x32x16xf32>) {
  // expected-error @+1 {{value has shape 1x2x32x16 but [B,H,Nk,Dv] = 1x2x64x16 is expected: dim 2 (Nk) is 32, key has 64}}
  %o = attic.kernelized_attention relu %q, %q, %v
      : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x32x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

func.func @mask_shape(%q: tensor<1x2x64x16xf32>, %m: tensor<1x32xi1>) {
  // expected-error @+1 {{mask has shape 1x32 but [B,Nk] = 1x64 is expected: dim 1 (Nk) is 32, key has 64}}
  %o = attic.kernelized_attention relu %q, %q, %q mask(%m : tensor<1x32xi1>)
      : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

func.func @result_shape(%q: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x8xf32>) {
  // expected-error @+1 {{result has shape 1x2x64x16 but [B,H,Nq,Dv] = 1x2x64x8 is expected: dim 3 (Dv) is 16, value has 8}}
  %o = attic.kernelized_attention relu %q, %q, %v
      : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x8xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

func.func @rank(%q: tensor<2x64x16xf32>) {
  // expected-error @+1 {{query must be [B,H,Nq,D], got rank 3}}
  %o = attic.kernelized_attention relu %q, %q, %q
      : tensor<2x64x16xf32>, tensor<2x64x16xf32>, tensor<2x64x16xf32> -> tensor<2x64x16xf32>
  return
}

// -----

func.func @dynamic(%q: tensor<1x2x?x16xf32>) {
  // expected-error @+1 {{operand #0 must be statically shaped tensor of 32-bit float values}}
  %o = attic.kernelized_attention relu %q, %q, %q
      : tensor<1x2x?x16xf32>, tensor<1x2x?x16xf32>, tensor<1x2x?x16xf32> -> tensor<1x2x?x16xf32>
  return
}

// -----

func.func @feature_map_width(%x: tensor<1x2x64x16xf32>) {
  // expected-error @+1 {{result has shape 1x2x64x16 but [B,H,N,F] = 1x2x64x32 is expected: dim 3 (F) is 16, feature map has 32}}
  %phi = attic.feature_map cosformer %x {period = 64 : i64} : tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

func.func @feature_map_period(%x: tensor<1x2x64x16xf32>) {
  // expected-error @+1 {{period m = 32 must be at least the sequence length N = 64}}
  %phi = attic.feature_map cosformer %x {period = 32 : i64} : tensor<1x2x64x16xf32> -> tensor<1x2x64x32xf32>
  return
}

// -----

func.func @feature_map_no_period(%x: tensor<1x2x64x16xf32>) {
  // expected-error @+1 {{feature map 'cosformer' needs `period` (m, at least the sequence length)}}
  %phi = attic.feature_map cosformer %x : tensor<1x2x64x16xf32> -> tensor<1x2x64x32xf32>
  return
}

// -----

func.func @feature_map_projection(%x: tensor<1x2x64x16xf32>) {
  // expected-error @+1 {{feature map 'favor_plus' needs a `projection` [p,D]}}
  %phi = attic.feature_map favor_plus %x : tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

func.func @feature_map_keys(%x: tensor<1x2x64x16xf32>) {
  // expected-error @+1 {{result `stabilizer` is FAVOR+'s; feature map 'relu' has none}}
  %phi, %c = attic.feature_map relu %x : tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>, tensor<1x2x64xf32>
  return
}

// -----

func.func @feature_map_stabilizer_shape(%x: tensor<1x2x64x16xf32>, %w: tensor<24x16xf32>) {
  // expected-error @+1 {{stabilizer has shape 1x2x32 but [B,H,N] = 1x2x64 is expected: dim 2 (N) is 32, input has 64}}
  %phi, %c = attic.feature_map favor_plus %x projection(%w : tensor<24x16xf32>) : tensor<1x2x64x16xf32> -> tensor<1x2x64x24xf32>, tensor<1x2x32xf32>
  return
}

// -----

func.func @state_reduce_stabilizer(%f: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x8xf32>, %c: tensor<1x1x64xf32>) {
  // expected-error @+1 {{stabilizer has shape 1x1x64 but [B,H,N] = 1x2x64 is expected: dim 1 (H) is 1, features has 2}}
  %s, %z = attic.state_reduce %f, %v stabilizer(%c : tensor<1x1x64xf32>)
      : tensor<1x2x64x16xf32>, tensor<1x2x64x8xf32> -> tensor<1x2x16x8xf32>, tensor<1x2x16xf32>
  return
}

// -----

func.func @state_scan_stabilizer(%f: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x8xf32>, %c: tensor<1x2x64x1xf32>) {
  // expected-error @+1 {{stabilizer must have rank 3 ([B,H,N] = 1x2x64), got 'tensor<1x2x64x1xf32>'}}
  %n, %d = attic.state_scan %f, %f, %v stabilizer(%c : tensor<1x2x64x1xf32>) {chunk = 16 : i64}
      : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x8xf32> -> tensor<1x2x64x8xf32>, tensor<1x2x64xf32>
  return
}

// -----

func.func @state_reduce_value(%f: tensor<1x2x64x16xf32>, %v: tensor<1x2x32x8xf32>) {
  // expected-error @+1 {{value has shape 1x2x32x8 but [B,H,N,Dv] = 1x2x64x8 is expected: dim 2 (N) is 32, features has 64}}
  %s, %z = attic.state_reduce %f, %v : tensor<1x2x64x16xf32>, tensor<1x2x32x8xf32> -> tensor<1x2x16x8xf32>, tensor<1x2x16xf32>
  return
}

// -----

func.func @state_reduce_state(%f: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x8xf32>) {
  // expected-error @+1 {{state has shape 1x2x8x16 but [B,H,F,Dv] = 1x2x16x8 is expected: dim 2 (F) is 8, features has 16}}
  %s, %z = attic.state_reduce %f, %v : tensor<1x2x64x16xf32>, tensor<1x2x64x8xf32> -> tensor<1x2x8x16xf32>, tensor<1x2x16xf32>
  return
}

// -----

func.func @state_scan_chunk(%f: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x8xf32>) {
  // expected-error @+1 {{chunk = 48 does not divide the sequence length N = 64}}
  %n, %d = attic.state_scan %f, %f, %v {chunk = 48 : i64}
      : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x8xf32> -> tensor<1x2x64x8xf32>, tensor<1x2x64xf32>
  return
}

// -----

func.func @state_scan_keys(%f: tensor<1x2x64x16xf32>, %g: tensor<1x2x64x8xf32>, %v: tensor<1x2x64x8xf32>) {
  // expected-error @+1 {{key_features has shape 1x2x64x8 but [B,H,N,F] = 1x2x64x16 is expected: dim 3 (F) is 8, query_features has 16}}
  %n, %d = attic.state_scan %f, %g, %v {chunk = 16 : i64}
      : tensor<1x2x64x16xf32>, tensor<1x2x64x8xf32>, tensor<1x2x64x8xf32> -> tensor<1x2x64x8xf32>, tensor<1x2x64xf32>
  return
}

// -----

func.func @projection_no_rows(%q: tensor<1x2x64x16xf32>, %w: tensor<0x16xf32>) {
  // expected-error @+1 {{'attic.kernelized_attention' op projection must be [p,D] with p >= 1, got 0x16}}
  %o = attic.kernelized_attention favor_plus %q, %q, %q projection(%w : tensor<0x16xf32>)
      : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

func.func @too_many_features(%q: tensor<1x2x64x16xf32>) {
  // expected-error @+1 {{'attic.kernelized_attention' op features must be at most 2^20, got 2097152}}
  %o = attic.kernelized_attention favor_plus %q, %q, %q {features = 2097152 : i64, seed = 1 : i64}
      : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

// The drawn projection is a compile-time constant: 2^20 features of D = 1024
// (4.3 GB and 2^40 orthogonalization steps) ran out of memory in
// attic-decompose.
func.func @projection_too_large(%q: tensor<1x1x64x1024xf32>) {
  // expected-error @+1 {{'attic.kernelized_attention' op features = 1048576 with D = 1024 draws a projection at compile time of features * D = 1073741824 values and features * D^2 = 1099511627776 steps, above 2^24 and 2^32; pass a `projection` operand}}
  %o = attic.kernelized_attention favor_plus %q, %q, %q {features = 1048576 : i64, seed = 1 : i64}
      : tensor<1x1x64x1024xf32>, tensor<1x1x64x1024xf32>, tensor<1x1x64x1024xf32> -> tensor<1x1x64x1024xf32>
  return
}

// -----

// 8192 features of D = 1024: few values (2^23) but 2^33 steps.
func.func @orthogonalization_too_long(%q: tensor<1x1x64x1024xf32>) {
  // expected-error @+1 {{features = 8192 with D = 1024 draws a projection}}
  %o = attic.kernelized_attention performer_relu %q, %q, %q {features = 8192 : i64, seed = 1 : i64}
      : tensor<1x1x64x1024xf32>, tensor<1x1x64x1024xf32>, tensor<1x1x64x1024xf32> -> tensor<1x1x64x1024xf32>
  return
}

// -----

func.func @feature_map_projection_rank(%x: tensor<1x2x64x16xf32>, %w: tensor<16xf32>) {
  // expected-error @+1 {{'attic.feature_map' op projection must be [p,D] with p >= 1, got 16}}
  %phi = attic.feature_map performer_relu %x projection(%w : tensor<16xf32>) : tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

func.func @feature_map_deterministic_projection(%x: tensor<1x2x64x16xf32>, %w: tensor<8x16xf32>) {
  // expected-error @+1 {{'attic.feature_map' op feature map 'relu' takes no projection}}
  %phi = attic.feature_map relu %x projection(%w : tensor<8x16xf32>) : tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

func.func @feature_map_period_not_cosformer(%x: tensor<1x2x64x16xf32>) {
  // expected-error @+1 {{'attic.feature_map' op period is cosformer's m; feature map 'elu_plus_one' takes none}}
  %phi = attic.feature_map elu_plus_one %x {period = 64 : i64} : tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

func.func @state_scan_zero_chunk(%f: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x8xf32>) {
  // expected-error @+1 {{'attic.state_scan' op chunk must be >= 1, got 0}}
  %n, %d = attic.state_scan %f, %f, %v {chunk = 0 : i64}
      : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x8xf32> -> tensor<1x2x64x8xf32>, tensor<1x2x64xf32>
  return
}

// -----

// 2^37 tokens of 8 random features: 2^40 elements in each operand, 2^43 in
// the feature maps (refused on the attic.state_reduce the decomposition
// made until 2026-11-30).
func.func @feature_maps_too_large(%q: tensor<1x1x137438953472x8xf32>) -> tensor<1x1x137438953472x8xf32> {
  // expected-error @+1 {{'attic.kernelized_attention' op the feature maps [B,H,N,F] = [1,1,137438953472,64] must have at most 2^40 = 1099511627776 elements}}
  %o = attic.kernelized_attention favor_plus %q, %q, %q {features = 64 : i64, seed = 1 : i64} : tensor<1x1x137438953472x8xf32>, tensor<1x1x137438953472x8xf32>, tensor<1x1x137438953472x8xf32> -> tensor<1x1x137438953472x8xf32>
  return %o : tensor<1x1x137438953472x8xf32>
}
