func.func @small(%q: tensor<1x2x8x4xf32>, %k: tensor<1x2x8x4xf32>, %v: tensor<1x2x8x4xf32>) -> tensor<1x2x8x4xf32> {
  %o = attic.attention %q, %k, %v : tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32> -> tensor<1x2x8x4xf32>
  return %o : tensor<1x2x8x4xf32>
}

func.func @dynamic(%q: tensor<?x?x?x4xf32>, %k: tensor<?x?x?x4xf32>, %v: tensor<?x?x?x4xf32>) -> tensor<?x?x?x4xf32> {
  %o = attic.attention %q, %k, %v : tensor<?x?x?x4xf32>, tensor<?x?x?x4xf32>, tensor<?x?x?x4xf32> -> tensor<?x?x?x4xf32>
  return %o : tensor<?x?x?x4xf32>
}

func.func @not_tensors(%x: f32) -> f32 {
  return %x : f32
}
