// Dense softmax attention (attic.attention), the foundation example.
//
//   attic-run examples/attention.mlir --entry=attention_f32 --check --bench=3
//
// One function per variant: f32 non-causal and causal, f16 and bf16, and a
// masked / biased one. B=1, H=4, N=4096, D=64 (the acceptance shapes).

func.func @attention_f32(%q: tensor<1x4x4096x64xf32>, %k: tensor<1x4x4096x64xf32>, %v: tensor<1x4x4096x64xf32>) -> tensor<1x4x4096x64xf32> {
  %o = attic.attention %q, %k, %v : tensor<1x4x4096x64xf32>, tensor<1x4x4096x64xf32>, tensor<1x4x4096x64xf32> -> tensor<1x4x4096x64xf32>
  return %o : tensor<1x4x4096x64xf32>
}

func.func @attention_f32_causal(%q: tensor<1x4x4096x64xf32>, %k: tensor<1x4x4096x64xf32>, %v: tensor<1x4x4096x64xf32>) -> tensor<1x4x4096x64xf32> {
  %o = attic.attention %q, %k, %v causal : tensor<1x4x4096x64xf32>, tensor<1x4x4096x64xf32>, tensor<1x4x4096x64xf32> -> tensor<1x4x4096x64xf32>
  return %o : tensor<1x4x4096x64xf32>
}

func.func @attention_f16(%q: tensor<1x4x4096x64xf16>, %k: tensor<1x4x4096x64xf16>, %v: tensor<1x4x4096x64xf16>) -> tensor<1x4x4096x64xf16> {
  %o = attic.attention %q, %k, %v : tensor<1x4x4096x64xf16>, tensor<1x4x4096x64xf16>, tensor<1x4x4096x64xf16> -> tensor<1x4x4096x64xf16>
  return %o : tensor<1x4x4096x64xf16>
}

func.func @attention_bf16_causal(%q: tensor<1x4x4096x64xbf16>, %k: tensor<1x4x4096x64xbf16>, %v: tensor<1x4x4096x64xbf16>) -> tensor<1x4x4096x64xbf16> {
  %o = attic.attention %q, %k, %v causal : tensor<1x4x4096x64xbf16>, tensor<1x4x4096x64xbf16>, tensor<1x4x4096x64xbf16> -> tensor<1x4x4096x64xbf16>
  return %o : tensor<1x4x4096x64xbf16>
}

// Key padding mask [B,Nk] and a per-head additive key bias [B,H,Nk].
func.func @attention_f32_masked(%q: tensor<1x4x4096x64xf32>, %k: tensor<1x4x4096x64xf32>, %v: tensor<1x4x4096x64xf32>, %bias: tensor<1x4x4096xf32>, %mask: tensor<1x4096xi1>) -> tensor<1x4x4096x64xf32> {
  %o = attic.attention %q, %k, %v bias(%bias : tensor<1x4x4096xf32>) mask(%mask : tensor<1x4096xi1>) : tensor<1x4x4096x64xf32>, tensor<1x4x4096x64xf32>, tensor<1x4x4096x64xf32> -> tensor<1x4x4096x64xf32>
  return %o : tensor<1x4x4096x64xf32>
}
