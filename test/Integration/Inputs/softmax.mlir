// linalg.softmax, decomposed by attic-decompose-aggregates.

func.func @rows_f32(%x: tensor<3x40xf32>) -> tensor<3x40xf32> {
  %e = tensor.empty() : tensor<3x40xf32>
  %r = linalg.softmax dimension(1) ins(%x : tensor<3x40xf32>) outs(%e : tensor<3x40xf32>) -> tensor<3x40xf32>
  return %r : tensor<3x40xf32>
}

// The middle dimension of a rank-3 tensor, then the scores of an
// attention written by hand (scaled Q K^T, softmax, P V).
func.func @middle_f32(%x: tensor<2x17x5xf32>) -> tensor<2x17x5xf32> {
  %e = tensor.empty() : tensor<2x17x5xf32>
  %r = linalg.softmax dimension(1) ins(%x : tensor<2x17x5xf32>) outs(%e : tensor<2x17x5xf32>) -> tensor<2x17x5xf32>
  return %r : tensor<2x17x5xf32>
}

func.func @rows_f16(%x: tensor<4x33xf16>) -> tensor<4x33xf16> {
  %e = tensor.empty() : tensor<4x33xf16>
  %r = linalg.softmax dimension(1) ins(%x : tensor<4x33xf16>) outs(%e : tensor<4x33xf16>) -> tensor<4x33xf16>
  return %r : tensor<4x33xf16>
}

func.func @attention_by_hand(%q: tensor<8x16xf32>, %k: tensor<16x24xf32>, %v: tensor<24x16xf32>) -> tensor<8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<8x24xf32>
  %fs = linalg.fill ins(%zero : f32) outs(%es : tensor<8x24xf32>) -> tensor<8x24xf32>
  %s = linalg.matmul ins(%q, %k : tensor<8x16xf32>, tensor<16x24xf32>) outs(%fs : tensor<8x24xf32>) -> tensor<8x24xf32>
  %p = linalg.softmax dimension(1) ins(%s : tensor<8x24xf32>) outs(%es : tensor<8x24xf32>) -> tensor<8x24xf32>
  %eo = tensor.empty() : tensor<8x16xf32>
  %fo = linalg.fill ins(%zero : f32) outs(%eo : tensor<8x16xf32>) -> tensor<8x16xf32>
  %o = linalg.matmul ins(%p, %v : tensor<8x24xf32>, tensor<24x16xf32>) outs(%fo : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %o : tensor<8x16xf32>
}

// Rows with non-finite values: all -inf (NaN: -inf - -inf), one NaN, one
// +inf (NaN through the sum), -inf next to finite values (weight 0).
func.func @non_finite() -> tensor<5x3xf32> {
  %x = arith.constant dense<[[0xFF800000, 0xFF800000, 0xFF800000], [1.0, 0x7FC00000, 2.0], [1.0, 0x7F800000, 2.0], [0xFF800000, 0.0, 0.0], [3.0, 1.0, -2.0]]> : tensor<5x3xf32>
  %e = tensor.empty() : tensor<5x3xf32>
  %r = linalg.softmax dimension(1) ins(%x : tensor<5x3xf32>) outs(%e : tensor<5x3xf32>) -> tensor<5x3xf32>
  return %r : tensor<5x3xf32>
}
