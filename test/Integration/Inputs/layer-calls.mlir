// A loop over layers that calls the layer (test/Integration/layer-calls.test).
func.func private @one_layer(%g: tensor<1x2x8x4xf32>) -> tensor<1x2x8x4xf32> {
  %a = attic.attention %g, %g, %g causal : tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32> -> tensor<1x2x8x4xf32>
  return %a : tensor<1x2x8x4xf32>
}
func.func @f(%x: tensor<1x2x8x4xf32>) -> tensor<1x2x8x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %r = scf.for %l = %c0 to %c3 step %c1 iter_args(%h = %x) -> (tensor<1x2x8x4xf32>) {
    %a = func.call @one_layer(%h) : (tensor<1x2x8x4xf32>) -> tensor<1x2x8x4xf32>
    scf.yield %a : tensor<1x2x8x4xf32>
  }
  return %r : tensor<1x2x8x4xf32>
}
