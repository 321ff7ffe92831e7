// A scale whose logits overflow f32 for some keys (|q.k| > 2.4) while
// scale * log2(e) stays finite: Nk is a multiple of block_k, so the scale
// is folded into the exponent; a row whose maximum overflowed must still
// be NaN, never an empty row's 0, and the others exact.
func.func @big_folded(%q: tensor<1x1x64x16xf32>, %k: tensor<1x1x128x16xf32>, %v: tensor<1x1x128x16xf32>) -> tensor<1x1x64x16xf32> {
  %o = attic.attention %q, %k, %v scale 1.0e38 : tensor<1x1x64x16xf32>, tensor<1x1x128x16xf32>, tensor<1x1x128x16xf32> -> tensor<1x1x64x16xf32>
  return %o : tensor<1x1x64x16xf32>
}
