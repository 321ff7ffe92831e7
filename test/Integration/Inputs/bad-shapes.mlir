func.func @bad(%q: tensor<1x4x128x64xf32>, %k: tensor<1x4x128x32xf32>, %v: tensor<1x4x128x64xf32>) -> tensor<1x4x128x64xf32> {
  %o = attic.attention %q, %k, %v : tensor<1x4x128x64xf32>, tensor<1x4x128x32xf32>, tensor<1x4x128x64xf32> -> tensor<1x4x128x64xf32>
  return %o : tensor<1x4x128x64xf32>
}
