// f32: x * 1e-30 * 1e-30 underflows to 0 (the double reference: 1e-60).
func.func @f32(%x: tensor<8xf32>) -> tensor<8xf32> {
  %c = arith.constant dense<1.0e-30> : tensor<8xf32>
  %y = arith.mulf %x, %c : tensor<8xf32>
  %z = arith.mulf %y, %c : tensor<8xf32>
  return %z : tensor<8xf32>
}
// f16: x * 1e-3 * 1e-3 is subnormal in f16 (below 6.1e-5).
func.func @f16(%x: tensor<8xf16>) -> tensor<8xf16> {
  %c = arith.constant dense<1.0e-3> : tensor<8xf16>
  %y = arith.mulf %x, %c : tensor<8xf16>
  %z = arith.mulf %y, %c : tensor<8xf16>
  return %z : tensor<8xf16>
}
