// Indices outside the tensor that are constants, or become constants only
// after folding (tensor-indices.test): the report then sits at the top level
// of the function, outside any loop.
func.func @direct(%x: tensor<4xf32>) -> tensor<1xf32> {
  %i = arith.constant -5 : index
  %v = tensor.extract %x[%i] : tensor<4xf32>
  %t = tensor.from_elements %v : tensor<1xf32>
  return %t : tensor<1xf32>
}

func.func @folded(%x: tensor<4xf32>) -> tensor<1xf32> {
  %c0 = arith.constant 0 : index
  %c5 = arith.constant 5 : index
  %i = arith.subi %c0, %c5 : index
  %v = tensor.extract %x[%i] : tensor<4xf32>
  %t = tensor.from_elements %v : tensor<1xf32>
  return %t : tensor<1xf32>
}

func.func private @at(%x: tensor<4xf32>, %i: index) -> tensor<1xf32> {
  %v = tensor.extract %x[%i] : tensor<4xf32>
  %t = tensor.from_elements %v : tensor<1xf32>
  return %t : tensor<1xf32>
}

func.func @inlined(%x: tensor<4xf32>) -> tensor<1xf32> {
  %c7 = arith.constant 7 : index
  %t = func.call @at(%x, %c7) : (tensor<4xf32>, index) -> tensor<1xf32>
  return %t : tensor<1xf32>
}

func.func @inside(%x: tensor<4xf32>) -> tensor<1xf32> {
  %c3 = arith.constant 3 : index
  %t = func.call @at(%x, %c3) : (tensor<4xf32>, index) -> tensor<1xf32>
  return %t : tensor<1xf32>
}
