// A function named @"" (test/Integration/bad-input.test).
func.func @""(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
