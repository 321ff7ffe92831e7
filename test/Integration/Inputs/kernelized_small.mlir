// Inputs of ../kernelized-examples.test: small kernelized attentions for the
// GPU simulator (which interprets every thread), one per lowering path:
// the non-causal state with a padding mask, the causal chunked scan with
// the doubled cosFormer features, and FAVOR+ (random features, the per-row
// and per-head maxima).
func.func @linear_small(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x64x16xf32>,
                        %v: tensor<1x2x64x16xf32>, %m: tensor<1x64xi1>)
    -> tensor<1x2x64x16xf32> {
  %o = attic.kernelized_attention elu_plus_one %q, %k, %v mask(%m : tensor<1x64xi1>)
      : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>
      -> tensor<1x2x64x16xf32>
  return %o : tensor<1x2x64x16xf32>
}

func.func @cosformer_causal_small(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x64x16xf32>,
                                  %v: tensor<1x2x64x16xf32>) -> tensor<1x2x64x16xf32> {
  %o = attic.kernelized_attention cosformer %q, %k, %v {causal, chunk = 16 : i64}
      : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>
      -> tensor<1x2x64x16xf32>
  return %o : tensor<1x2x64x16xf32>
}

func.func @favor_plus_small(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x64x16xf32>,
                            %v: tensor<1x2x64x16xf32>) -> tensor<1x2x64x16xf32> {
  %o = attic.kernelized_attention favor_plus %q, %k, %v
      {features = 32 : i64, seed = 7 : i64, causal, chunk = 8 : i64}
      : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>
      -> tensor<1x2x64x16xf32>
  return %o : tensor<1x2x64x16xf32>
}
