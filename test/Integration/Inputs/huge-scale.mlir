// A scale that overflows the f32 logits of finite inputs.
func.func @big(%q: tensor<1x1x64x16xf32>, %k: tensor<1x1x64x16xf32>, %v: tensor<1x1x64x16xf32>) -> tensor<1x1x64x16xf32> {
  %o = attic.attention %q, %k, %v scale 3.0e38 : tensor<1x1x64x16xf32>, tensor<1x1x64x16xf32>, tensor<1x1x64x16xf32> -> tensor<1x1x64x16xf32>
  return %o : tensor<1x1x64x16xf32>
}
