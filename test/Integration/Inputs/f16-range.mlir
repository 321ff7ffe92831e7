// Attention whose values are all 65504, f16's largest: the exact output is
// 65504 everywhere (cuda-simulated-f16-range.test).
func.func @mma(%q: tensor<1x1x16x16xf16>, %k: tensor<1x1x16x16xf16>, %v: tensor<1x1x16x16xf16>) -> tensor<1x1x16x16xf16> {
  %o = attic.attention %q, %k, %v scale 1.0 : tensor<1x1x16x16xf16>, tensor<1x1x16x16xf16>, tensor<1x1x16x16xf16> -> tensor<1x1x16x16xf16>
  return %o : tensor<1x1x16x16xf16>
}
func.func @wgmma(%q: tensor<1x1x16x64xf16>, %k: tensor<1x1x128x64xf16>, %v: tensor<1x1x128x64xf16>) -> tensor<1x1x16x64xf16> {
  %o = attic.attention %q, %k, %v scale 1.0 : tensor<1x1x16x64xf16>, tensor<1x1x128x64xf16>, tensor<1x1x128x64xf16> -> tensor<1x1x16x64xf16>
  return %o : tensor<1x1x16x64xf16>
}
