// Sketched and low-rank attention (docs/sketches.md): Skeinformer, Informer
// ProbSparse, Linformer, Nystromformer and the factorized random
// Synthesizer, each lowered into the shared block-attention core.
// B = 1, H = 4 heads of D = 64, N = 1024.
//
// @skeinformer: d = 256 sampled keys and pilot rows (the paper's setting).
// @skeinformer_uniform: the "w/o column sampling" ablation.
// @skeinformer_simple: the "w/ simple row normalization" ablation.
// @informer: ProbSparse, u = U = 5 ceil(ln N) = 35.
// @linformer: P = 256, one projection shared by the heads, keys and values.
// @linformer_per_head: one projection per head, separate for the values,
// with a key padding mask.
// @nystromformer: 64 landmarks, 6 pseudo-inverse iterations, the
// depthwise-convolution skip (width 33) on V.
// @synthesizer: softmax(R1 R2^T) V with rank-8 factors per head, causal.
//
//   build/tools/attic-run examples/sketches.mlir --entry=skeinformer --check

func.func @skeinformer(%q: tensor<1x4x1024x64xf32>, %k: tensor<1x4x1024x64xf32>,
                       %v: tensor<1x4x1024x64xf32>) -> tensor<1x4x1024x64xf32> {
  %o = attic.skeinformer_attention %q, %k, %v {samples = 256 : i64, seed = 7 : i64}
      : tensor<1x4x1024x64xf32>, tensor<1x4x1024x64xf32>, tensor<1x4x1024x64xf32>
      -> tensor<1x4x1024x64xf32>
  return %o : tensor<1x4x1024x64xf32>
}

func.func @skeinformer_uniform(%q: tensor<1x4x1024x64xf32>, %k: tensor<1x4x1024x64xf32>,
                               %v: tensor<1x4x1024x64xf32>) -> tensor<1x4x1024x64xf32> {
  %o = attic.skeinformer_attention %q, %k, %v sampling uniform
      {samples = 256 : i64, seed = 7 : i64}
      : tensor<1x4x1024x64xf32>, tensor<1x4x1024x64xf32>, tensor<1x4x1024x64xf32>
      -> tensor<1x4x1024x64xf32>
  return %o : tensor<1x4x1024x64xf32>
}

func.func @skeinformer_simple(%q: tensor<1x4x1024x64xf32>, %k: tensor<1x4x1024x64xf32>,
                              %v: tensor<1x4x1024x64xf32>) -> tensor<1x4x1024x64xf32> {
  %o = attic.skeinformer_attention %q, %k, %v normalization simple
      {samples = 256 : i64, seed = 7 : i64, pilot_reuse = false}
      : tensor<1x4x1024x64xf32>, tensor<1x4x1024x64xf32>, tensor<1x4x1024x64xf32>
      -> tensor<1x4x1024x64xf32>
  return %o : tensor<1x4x1024x64xf32>
}

func.func @informer(%q: tensor<1x4x1024x64xf32>, %k: tensor<1x4x1024x64xf32>,
                    %v: tensor<1x4x1024x64xf32>) -> tensor<1x4x1024x64xf32> {
  %o = attic.informer_attention %q, %k, %v {factor = 5 : i64, seed = 3 : i64}
      : tensor<1x4x1024x64xf32>, tensor<1x4x1024x64xf32>, tensor<1x4x1024x64xf32>
      -> tensor<1x4x1024x64xf32>
  return %o : tensor<1x4x1024x64xf32>
}

func.func @linformer(%q: tensor<1x4x1024x64xf32>, %k: tensor<1x4x1024x64xf32>,
                     %v: tensor<1x4x1024x64xf32>, %e: tensor<1x256x1024xf32>)
    -> tensor<1x4x1024x64xf32> {
  %o = attic.linformer_attention %q, %k, %v projection(%e : tensor<1x256x1024xf32>)
      : tensor<1x4x1024x64xf32>, tensor<1x4x1024x64xf32>, tensor<1x4x1024x64xf32>
      -> tensor<1x4x1024x64xf32>
  return %o : tensor<1x4x1024x64xf32>
}

func.func @linformer_per_head(%q: tensor<2x4x512x64xf32>, %k: tensor<2x4x512x64xf32>,
                              %v: tensor<2x4x512x64xf32>, %e: tensor<4x128x512xf32>,
                              %f: tensor<4x128x512xf32>, %m: tensor<2x512xi1>)
    -> tensor<2x4x512x64xf32> {
  %o = attic.linformer_attention %q, %k, %v projection(%e : tensor<4x128x512xf32>)
      value_projection(%f : tensor<4x128x512xf32>) mask(%m : tensor<2x512xi1>)
      : tensor<2x4x512x64xf32>, tensor<2x4x512x64xf32>, tensor<2x4x512x64xf32>
      -> tensor<2x4x512x64xf32>
  return %o : tensor<2x4x512x64xf32>
}

func.func @nystromformer(%q: tensor<1x4x1024x64xf32>, %k: tensor<1x4x1024x64xf32>,
                         %v: tensor<1x4x1024x64xf32>, %w: tensor<4x33xf32>)
    -> tensor<1x4x1024x64xf32> {
  %o = attic.nystrom_attention %q, %k, %v conv(%w : tensor<4x33xf32>)
      {landmarks = 64 : i64, iterations = 6 : i64}
      : tensor<1x4x1024x64xf32>, tensor<1x4x1024x64xf32>, tensor<1x4x1024x64xf32>
      -> tensor<1x4x1024x64xf32>
  return %o : tensor<1x4x1024x64xf32>
}

func.func @synthesizer(%r1: tensor<4x1024x8xf32>, %r2: tensor<4x1024x8xf32>,
                       %v: tensor<2x4x1024x64xf32>) -> tensor<2x4x1024x64xf32> {
  %o = attic.synthesizer_attention %r1, %r2, %v {causal}
      : tensor<4x1024x8xf32>, tensor<4x1024x8xf32>, tensor<2x4x1024x64xf32>
      -> tensor<2x4x1024x64xf32>
  return %o : tensor<2x4x1024x64xf32>
}
