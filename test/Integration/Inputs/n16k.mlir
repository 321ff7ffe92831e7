func.func @n16k(%q: tensor<1x1x16384x64xf32>, %k: tensor<1x1x16384x64xf32>, %v: tensor<1x1x16384x64xf32>) -> tensor<1x1x16384x64xf32> {
  %o = attic.attention %q, %k, %v : tensor<1x1x16384x64xf32>, tensor<1x1x16384x64xf32>, tensor<1x1x16384x64xf32> -> tensor<1x1x16384x64xf32>
  return %o : tensor<1x1x16384x64xf32>
}
