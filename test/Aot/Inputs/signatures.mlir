// Entry points for attic-compile's bad-input tests (aot-bad-input.test).

func.func @small(%q: tensor<1x1x8x4xf32>, %k: tensor<1x1x8x4xf32>, %v: tensor<1x1x8x4xf32>) -> tensor<1x1x8x4xf32> {
  %o = attic.attention %q, %k, %v : tensor<1x1x8x4xf32>, tensor<1x1x8x4xf32>, tensor<1x1x8x4xf32> -> tensor<1x1x8x4xf32>
  return %o : tensor<1x1x8x4xf32>
}

func.func @dynamic(%q: tensor<1x1x?x4xf32>, %k: tensor<1x1x?x4xf32>, %v: tensor<1x1x?x4xf32>) -> tensor<1x1x?x4xf32> {
  %o = attic.attention %q, %k, %v : tensor<1x1x?x4xf32>, tensor<1x1x?x4xf32>, tensor<1x1x?x4xf32> -> tensor<1x1x?x4xf32>
  return %o : tensor<1x1x?x4xf32>
}

func.func @scalar_arg(%x: f32) -> f32 {
  return %x : f32
}

func.func @i16_arg(%x: tensor<4xi16>) -> tensor<4xi16> {
  return %x : tensor<4xi16>
}

func.func @returns_input(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<3x2xf32>) {
  %t = tensor.empty() : tensor<3x2xf32>
  %r = linalg.transpose ins(%x : tensor<2x3xf32>) outs(%t : tensor<3x2xf32>) permutation = [1, 0]
  return %x, %y, %r : tensor<2x3xf32>, tensor<2x3xf32>, tensor<3x2xf32>
}

func.func private @external(tensor<4xf32>) -> tensor<4xf32>

func.func @i32_identity(%x: tensor<4xi32>) -> tensor<4xi32> {
  return %x : tensor<4xi32>
}

func.func @i64_identity(%x: tensor<4xi64>) -> tensor<4xi64> {
  return %x : tensor<4xi64>
}
