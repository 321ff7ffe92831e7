// RUN: attic-opt %s --split-input-file --verify-diagnostics

func.func @too_many_samples(%q: tensor<1x2x64x16xf32>) -> tensor<1x2x64x16xf32> {
  // expected-error @+1 {{'attic.skeinformer_attention' op samples must be in [1, Nk] = [1, 64] (Nk from key), got 65}}
  %o = attic.skeinformer_attention %q, %q, %q {samples = 65 : i64, seed = 1 : i64} : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return %o : tensor<1x2x64x16xf32>
}

// -----

func.func @zero_samples(%q: tensor<1x2x64x16xf32>) -> tensor<1x2x64x16xf32> {
  // expected-error @+1 {{'attic.skeinformer_attention' op samples must be in [1, Nk] = [1, 64] (Nk from key), got 0}}
  %o = attic.skeinformer_attention %q, %q, %q {samples = 0 : i64, seed = 1 : i64} : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return %o : tensor<1x2x64x16xf32>
}

// -----

func.func @skein_seed(%q: tensor<1x2x64x16xf32>) -> tensor<1x2x64x16xf32> {
  // expected-error @+1 {{'attic.skeinformer_attention' op needs a seed: samples = 16 < Nk = 64 draws the pilot rows and the sampled keys}}
  %o = attic.skeinformer_attention %q, %q, %q {samples = 16 : i64} : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return %o : tensor<1x2x64x16xf32>
}

// -----

func.func @skein_value(%q: tensor<1x2x64x16xf32>, %v: tensor<1x2x32x16xf32>) -> tensor<1x2x64x16xf32> {
  // expected-error @+1 {{'attic.skeinformer_attention' op value has shape 1x2x32x16 but [B,H,Nk,Dv] = 1x2x64x16 is expected: dim 2 (Nk) is 32, key has 64}}
  %o = attic.skeinformer_attention %q, %q, %v {samples = 16 : i64, seed = 1 : i64} : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x32x16xf32> -> tensor<1x2x64x16xf32>
  return %o : tensor<1x2x64x16xf32>
}

// -----

func.func @skein_scale(%q: tensor<1x2x64x16xf32>) -> tensor<1x2x64x16xf32> {
  // expected-error @+1 {{'attic.skeinformer_attention' op scale must be finite and positive, got -1}}
  %o = attic.skeinformer_attention %q, %q, %q {samples = 16 : i64, seed = 1 : i64, scale = -1.0 : f32} : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return %o : tensor<1x2x64x16xf32>
}

// -----

func.func @skein_scale_past_base2(%q: tensor<1x2x64x16xf32>) -> tensor<1x2x64x16xf32> {
  // expected-error @+1 {{'attic.skeinformer_attention' op scale must be at most 2.3586574e38 in magnitude (the kernels multiply it by log2(e) in f32), got 3.000000e+38}}
  %o = attic.skeinformer_attention %q, %q, %q {samples = 16 : i64, seed = 1 : i64, scale = 3.0e38 : f32} : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return %o : tensor<1x2x64x16xf32>
}

// -----

func.func @skein_sampling(%q: tensor<1x2x64x16xf32>) -> tensor<1x2x64x16xf32> {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'sampling' [importance, uniform]}}
  %o = attic.skeinformer_attention %q, %q, %q sampling random {samples = 16 : i64, seed = 1 : i64} : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return %o : tensor<1x2x64x16xf32>
}

// -----

func.func @informer_active(%q: tensor<1x2x64x16xf32>) -> tensor<1x2x64x16xf32> {
  // expected-error @+1 {{'attic.informer_attention' op active must be in [1, Nq] = [1, 64] (Nq from query), got 65}}
  %o = attic.informer_attention %q, %q, %q {active = 65 : i64, seed = 1 : i64} : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return %o : tensor<1x2x64x16xf32>
}

// -----

func.func @informer_samples(%q: tensor<1x2x64x16xf32>) -> tensor<1x2x64x16xf32> {
  // expected-error @+1 {{'attic.informer_attention' op samples must be in [1, Nk] = [1, 64] (Nk from key), got 0}}
  %o = attic.informer_attention %q, %q, %q {samples = 0 : i64, seed = 1 : i64} : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return %o : tensor<1x2x64x16xf32>
}

// -----

func.func @informer_seed(%q: tensor<1x2x64x16xf32>) -> tensor<1x2x64x16xf32> {
  // expected-error @+1 {{'attic.informer_attention' op needs a seed: 25 active queries of Nq = 64 are chosen from sampled keys}}
  %o = attic.informer_attention %q, %q, %q : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return %o : tensor<1x2x64x16xf32>
}

// -----

func.func @informer_factor(%q: tensor<1x2x64x16xf32>) -> tensor<1x2x64x16xf32> {
  // expected-error @+1 {{'attic.informer_attention' op factor must be in [1, 1000], got 0}}
  %o = attic.informer_attention %q, %q, %q {factor = 0 : i64, seed = 1 : i64} : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return %o : tensor<1x2x64x16xf32>
}

// -----

// A factor with both samples and active sizes nothing (accepted and
// ignored before; an audit).
func.func @informer_factor_unused(%q: tensor<1x2x64x16xf32>) -> tensor<1x2x64x16xf32> {
  // expected-error @+1 {{'attic.informer_attention' op factor = 7 has no effect: samples and active are both given (drop one of them or the factor)}}
  %o = attic.informer_attention %q, %q, %q {factor = 7 : i64, samples = 2 : i64, active = 2 : i64, seed = 1 : i64} : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return %o : tensor<1x2x64x16xf32>
}

// -----

func.func @linformer_heads(%q: tensor<1x4x64x16xf32>, %e: tensor<2x8x64xf32>) -> tensor<1x4x64x16xf32> {
  // expected-error @+1 {{'attic.linformer_attention' op key_projection has 2 heads; [Hp,P,Nk] needs Hp = 1 (shared) or H = 4 (from key)}}
  %o = attic.linformer_attention %q, %q, %q projection(%e : tensor<2x8x64xf32>) : tensor<1x4x64x16xf32>, tensor<1x4x64x16xf32>, tensor<1x4x64x16xf32> -> tensor<1x4x64x16xf32>
  return %o : tensor<1x4x64x16xf32>
}

// -----

func.func @linformer_length(%q: tensor<1x4x64x16xf32>, %e: tensor<1x8x32xf32>) -> tensor<1x4x64x16xf32> {
  // expected-error @+1 {{'attic.linformer_attention' op key_projection has shape 1x8x32 but [Hp,P,Nk] = 1x8x64 is expected: dim 2 (Nk) is 32, key has 64}}
  %o = attic.linformer_attention %q, %q, %q projection(%e : tensor<1x8x32xf32>) : tensor<1x4x64x16xf32>, tensor<1x4x64x16xf32>, tensor<1x4x64x16xf32> -> tensor<1x4x64x16xf32>
  return %o : tensor<1x4x64x16xf32>
}

// -----

func.func @linformer_value_projection(%q: tensor<1x4x64x16xf32>, %e: tensor<1x8x64xf32>, %f: tensor<1x16x64xf32>) -> tensor<1x4x64x16xf32> {
  // expected-error @+1 {{'attic.linformer_attention' op value_projection has shape 1x16x64 but [Hp,P,Nk] = 1x8x64 is expected: dim 1 (P) is 16, key_projection has 8}}
  %o = attic.linformer_attention %q, %q, %q projection(%e : tensor<1x8x64xf32>) value_projection(%f : tensor<1x16x64xf32>) : tensor<1x4x64x16xf32>, tensor<1x4x64x16xf32>, tensor<1x4x64x16xf32> -> tensor<1x4x64x16xf32>
  return %o : tensor<1x4x64x16xf32>
}

// -----

func.func @linformer_mask(%q: tensor<1x4x64x16xf32>, %e: tensor<1x8x64xf32>, %m: tensor<1x32xi1>) -> tensor<1x4x64x16xf32> {
  // expected-error @+1 {{'attic.linformer_attention' op mask has shape 1x32 but [B,Nk] = 1x64 is expected}}
  %o = attic.linformer_attention %q, %q, %q projection(%e : tensor<1x8x64xf32>) mask(%m : tensor<1x32xi1>) : tensor<1x4x64x16xf32>, tensor<1x4x64x16xf32>, tensor<1x4x64x16xf32> -> tensor<1x4x64x16xf32>
  return %o : tensor<1x4x64x16xf32>
}

// -----

func.func @nystrom_landmarks(%q: tensor<1x2x64x16xf32>) -> tensor<1x2x64x16xf32> {
  // expected-error @+1 {{'attic.nystrom_attention' op landmarks must be positive and divide Nq = 64 and Nk = 64 (segment means without padding), got 24}}
  %o = attic.nystrom_attention %q, %q, %q {landmarks = 24 : i64} : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return %o : tensor<1x2x64x16xf32>
}

// -----

func.func @nystrom_iterations(%q: tensor<1x2x64x16xf32>) -> tensor<1x2x64x16xf32> {
  // expected-error @+1 {{'attic.nystrom_attention' op iterations must be in [1, 100], got 0}}
  %o = attic.nystrom_attention %q, %q, %q {landmarks = 8 : i64, iterations = 0 : i64} : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return %o : tensor<1x2x64x16xf32>
}

// -----

func.func @nystrom_even_conv(%q: tensor<1x2x64x16xf32>, %w: tensor<2x4xf32>) -> tensor<1x2x64x16xf32> {
  // expected-error @+1 {{'attic.nystrom_attention' op conv width W must be odd (centered), got 4}}
  %o = attic.nystrom_attention %q, %q, %q conv(%w : tensor<2x4xf32>) {landmarks = 8 : i64} : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return %o : tensor<1x2x64x16xf32>
}

// -----

func.func @nystrom_conv_heads(%q: tensor<1x2x64x16xf32>, %w: tensor<3x5xf32>) -> tensor<1x2x64x16xf32> {
  // expected-error @+1 {{'attic.nystrom_attention' op conv has shape 3x5 but [H,W] = 2x5 is expected: dim 0 (H) is 3, query has 2}}
  %o = attic.nystrom_attention %q, %q, %q conv(%w : tensor<3x5xf32>) {landmarks = 8 : i64} : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return %o : tensor<1x2x64x16xf32>
}

// -----

func.func @synthesizer_rank(%r1: tensor<2x64x8xf32>, %r2: tensor<2x64x4xf32>, %v: tensor<1x2x64x16xf32>) -> tensor<1x2x64x16xf32> {
  // expected-error @+1 {{'attic.synthesizer_attention' op r2 has shape 2x64x4 but [H,Nk,k] = 2x64x8 is expected: dim 2 (k) is 4, r1 has 8}}
  %o = attic.synthesizer_attention %r1, %r2, %v : tensor<2x64x8xf32>, tensor<2x64x4xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return %o : tensor<1x2x64x16xf32>
}

// -----

func.func @synthesizer_heads(%r1: tensor<2x64x8xf32>, %v: tensor<1x4x64x16xf32>) -> tensor<1x4x64x16xf32> {
  // expected-error @+1 {{'attic.synthesizer_attention' op value has shape 1x4x64x16 but [B,H,Nk,Dv] = 1x2x64x16 is expected: dim 1 (H) is 4, r1 has 2}}
  %o = attic.synthesizer_attention %r1, %r1, %v : tensor<2x64x8xf32>, tensor<2x64x8xf32>, tensor<1x4x64x16xf32> -> tensor<1x4x64x16xf32>
  return %o : tensor<1x4x64x16xf32>
}

// -----

func.func @synthesizer_scale(%r1: tensor<2x64x8xf32>, %v: tensor<1x2x64x16xf32>) -> tensor<1x2x64x16xf32> {
  // expected-error @+1 {{'attic.synthesizer_attention' op scale must be finite and positive, got 0}}
  %o = attic.synthesizer_attention %r1, %r1, %v {scale = 0.0 : f32} : tensor<2x64x8xf32>, tensor<2x64x8xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return %o : tensor<1x2x64x16xf32>
}

// -----

func.func @conv_needs_square(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x32x16xf32>, %w: tensor<2x3xf32>) -> tensor<1x2x64x16xf32> {
  // expected-error @+1 {{'attic.nystrom_attention' op conv adds a convolution of value to the result: needs Nq = Nk, got 64 and 32}}
  %o = attic.nystrom_attention %q, %k, %k conv(%w : tensor<2x3xf32>) {landmarks = 8 : i64} : tensor<1x2x64x16xf32>, tensor<1x2x32x16xf32>, tensor<1x2x32x16xf32> -> tensor<1x2x64x16xf32>
  return %o : tensor<1x2x64x16xf32>
}
