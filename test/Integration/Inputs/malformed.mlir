func.func @broken(%q: tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32> {
  %o = attic.attention %q, %q : tensor<1x1x4x4xf32>
  return %o : tensor<1x1x4x4xf32>
}
