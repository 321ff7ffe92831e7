// A function that calls a declaration nothing provides.
func.func private @nowhere(f32) -> f32
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %x = tensor.extract %a[%c0] : tensor<4xf32>
  %y = func.call @nowhere(%x) : (f32) -> f32
  %r = tensor.insert %y into %a[%c0] : tensor<4xf32>
  return %r : tensor<4xf32>
}
