// Grouped-query attention (Ainslie et al. 2023): 8 query heads share 2
// key/value heads (query head h reads kv head h / 4); multi-query attention
// is the case of 1 kv head. Any layout applies; here causal, f16.
//
//   attic-run examples/gqa.mlir --entry=gqa --check
//   attic-run examples/gqa.mlir --entry=mqa_window --check
//
// B=1, Hq=8, Hkv=2 (1), N=1024, D=64.

func.func @gqa(%q: tensor<1x8x1024x64xf16>, %k: tensor<1x2x1024x64xf16>, %v: tensor<1x2x1024x64xf16>) -> tensor<1x8x1024x64xf16> {
  %o = attic.attention %q, %k, %v causal
      : tensor<1x8x1024x64xf16>, tensor<1x2x1024x64xf16>, tensor<1x2x1024x64xf16> -> tensor<1x8x1024x64xf16>
  return %o : tensor<1x8x1024x64xf16>
}

func.func @mqa_window(%q: tensor<1x8x1024x64xf32>, %k: tensor<1x1x1024x64xf32>, %v: tensor<1x1x1024x64xf32>) -> tensor<1x8x1024x64xf32> {
  %o = attic.attention %q, %k, %v causal layout(#attic.window<left = 127, right = 0>)
      : tensor<1x8x1024x64xf32>, tensor<1x1x1024x64xf32>, tensor<1x1x1024x64xf32> -> tensor<1x8x1024x64xf32>
  return %o : tensor<1x8x1024x64xf32>
}
