// f32: x * 1e-30 * 1e-30 underflows to 0 (the double reference: 1e-60).
func.func @f32(%x: tensor<8xf32>) -> tensor<8xf32> {
  %c = arith.constant dense<1.0e-30> : tensor<8xf32>
  %y = arith.mulf %x, %c : tensor<8xf32>
  %z = arith.mulf %y, %c : tensor<8xf32>
  return %z : tensor<8xf32>
}
// f16: attention over values scaled into f16's subnormal range (1e-6 is
// below 6.1e-5): the outputs are subnormal, the reference's are not
// rounded to f16 (the scaling is: an f16 op's result is an f16).
func.func @f16(%q: tensor<1x1x8x16xf16>, %k: tensor<1x1x8x16xf16>, %v: tensor<1x1x8x16xf16>) -> tensor<1x1x8x16xf16> {
  %c = arith.constant dense<1.0e-6> : tensor<1x1x8x16xf16>
  %vs = arith.mulf %v, %c : tensor<1x1x8x16xf16>
  %o = attic.attention %q, %k, %vs : tensor<1x1x8x16xf16>, tensor<1x1x8x16xf16>, tensor<1x1x8x16xf16> -> tensor<1x1x8x16xf16>
  return %o : tensor<1x1x8x16xf16>
}
