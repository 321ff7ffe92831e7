// Causal attention aligned to the bottom right (Nq < Nk): 128 new queries
// attend to a KV cache of 1024 keys whose last 128 are theirs (chunked
// prefill, decoding). Query i sees key j iff j <= i + (Nk - Nq), as
// FlashAttention's causal mask with Nq != Nk; top-left alignment (PyTorch
// SDPA's is_causal) would hide almost the whole cache.
//
//   attic-run examples/kv_cache.mlir --entry=kv_cache --check
//   attic-run examples/kv_cache.mlir --entry=kv_cache_window --check
//
// B=2, H=4, Nq=128, Nk=1024, D=64.

func.func @kv_cache(%q: tensor<2x4x128x64xf32>, %k: tensor<2x4x1024x64xf32>, %v: tensor<2x4x1024x64xf32>) -> tensor<2x4x128x64xf32> {
  %o = attic.attention %q, %k, %v layout(#attic.causal<bottom_right>)
      : tensor<2x4x128x64xf32>, tensor<2x4x1024x64xf32>, tensor<2x4x1024x64xf32> -> tensor<2x4x128x64xf32>
  return %o : tensor<2x4x128x64xf32>
}

// The same with a sliding window of 256 keys, bottom-right aligned too.
func.func @kv_cache_window(%q: tensor<2x4x128x64xf32>, %k: tensor<2x4x1024x64xf32>, %v: tensor<2x4x1024x64xf32>) -> tensor<2x4x128x64xf32> {
  %o = attic.attention %q, %k, %v
      layout(#attic.window<left = 255, right = 0, align = bottom_right>)
      : tensor<2x4x128x64xf32>, tensor<2x4x1024x64xf32>, tensor<2x4x1024x64xf32> -> tensor<2x4x128x64xf32>
  return %o : tensor<2x4x128x64xf32>
}
