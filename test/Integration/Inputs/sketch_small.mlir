// Input of ../sketch-examples.test: small Skeinformer and Nystromformer
// attentions for the GPU simulator (which interprets every thread).
func.func @skeinformer_small(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x64x16xf32>,
                             %v: tensor<1x2x64x16xf32>) -> tensor<1x2x64x16xf32> {
  %o = attic.skeinformer_attention %q, %k, %v {samples = 16 : i64, seed = 5 : i64}
      : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return %o : tensor<1x2x64x16xf32>
}

func.func @nystrom_small(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x64x16xf32>,
                         %v: tensor<1x2x64x16xf32>) -> tensor<1x2x64x16xf32> {
  %o = attic.nystrom_attention %q, %k, %v {landmarks = 8 : i64, iterations = 4 : i64}
      : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return %o : tensor<1x2x64x16xf32>
}
