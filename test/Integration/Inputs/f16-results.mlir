// Input of ../f16-results.test: f16 and bf16 attention results read by a
// later op through an extf to f32.

func.func @f16_then_extf(%q: tensor<1x2x64x32xf16>, %k: tensor<1x2x48x32xf16>,
                         %v: tensor<1x2x48x16xf16>) -> tensor<1x2x64x16xf32> {
  %o = attic.attention %q, %k, %v causal
      : tensor<1x2x64x32xf16>, tensor<1x2x48x32xf16>, tensor<1x2x48x16xf16>
      -> tensor<1x2x64x16xf16>
  %f = arith.extf %o : tensor<1x2x64x16xf16> to tensor<1x2x64x16xf32>
  return %f : tensor<1x2x64x16xf32>
}

func.func @bf16_then_extf(%q: tensor<1x2x64x32xbf16>, %k: tensor<1x2x64x32xbf16>,
                          %v: tensor<1x2x64x32xbf16>) -> tensor<1x2x64x32xf32> {
  %o = attic.attention %q, %k, %v
      : tensor<1x2x64x32xbf16>, tensor<1x2x64x32xbf16>, tensor<1x2x64x32xbf16>
      -> tensor<1x2x64x32xbf16>
  %f = arith.extf %o : tensor<1x2x64x32xbf16> to tensor<1x2x64x32xf32>
  return %f : tensor<1x2x64x32xf32>
}

func.func @f16_in_f32_out(%q: tensor<1x2x64x32xf16>, %k: tensor<1x2x64x32xf16>,
                          %v: tensor<1x2x64x32xf16>) -> tensor<1x2x64x32xf32> {
  %qf = arith.extf %q : tensor<1x2x64x32xf16> to tensor<1x2x64x32xf32>
  %kf = arith.extf %k : tensor<1x2x64x32xf16> to tensor<1x2x64x32xf32>
  %vf = arith.extf %v : tensor<1x2x64x32xf16> to tensor<1x2x64x32xf32>
  %o = attic.attention %qf, %kf, %vf
      : tensor<1x2x64x32xf32>, tensor<1x2x64x32xf32>, tensor<1x2x64x32xf32>
      -> tensor<1x2x64x32xf32>
  return %o : tensor<1x2x64x32xf32>
}

func.func @casts_then_f32(%q: tensor<1x2x64x32xf32>, %k: tensor<1x2x64x32xf32>,
                          %v: tensor<1x2x64x32xf32>) -> tensor<1x2x64x32xf32> {
  %qh = arith.truncf %q : tensor<1x2x64x32xf32> to tensor<1x2x64x32xf16>
  %qf = arith.extf %qh : tensor<1x2x64x32xf16> to tensor<1x2x64x32xf32>
  %o = attic.attention %qf, %k, %v
      : tensor<1x2x64x32xf32>, tensor<1x2x64x32xf32>, tensor<1x2x64x32xf32>
      -> tensor<1x2x64x32xf32>
  return %o : tensor<1x2x64x32xf32>
}
