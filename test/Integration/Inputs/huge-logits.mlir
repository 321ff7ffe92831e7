// Huge logits that do not overflow f32 (scale 1e30: |logits| up to about
// 2e31): Nk is a multiple of block_k, so the scale is folded into the
// exponent, which must stay exact at each row's maximum.
func.func @huge_logits(%q: tensor<1x1x64x16xf32>, %k: tensor<1x1x128x16xf32>, %v: tensor<1x1x128x16xf32>) -> tensor<1x1x64x16xf32> {
  %o = attic.attention %q, %k, %v scale 1.0e30 : tensor<1x1x64x16xf32>, tensor<1x1x128x16xf32>, tensor<1x1x128x16xf32> -> tensor<1x1x64x16xf32>
  return %o : tensor<1x1x64x16xf32>
}
