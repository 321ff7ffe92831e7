// A scale that overflows the f32 logits of finite inputs (2.3e38, just
// below the largest scale accepted: 3e38 is refused since 2026-11-30, its
// product with log2(e) being inf).
func.func @big(%q: tensor<1x1x64x16xf32>, %k: tensor<1x1x64x16xf32>, %v: tensor<1x1x64x16xf32>) -> tensor<1x1x64x16xf32> {
  %o = attic.attention %q, %k, %v scale 2.3e38 : tensor<1x1x64x16xf32>, tensor<1x1x64x16xf32>, tensor<1x1x64x16xf32> -> tensor<1x1x64x16xf32>
  return %o : tensor<1x1x64x16xf32>
}
