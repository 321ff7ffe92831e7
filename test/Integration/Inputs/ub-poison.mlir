// A function's own ub.poison (test/Integration/unlowered-ops.test).
func.func @poison(%x: tensor<2xi64>) -> tensor<2xi64> {
  %c0 = arith.constant 0 : index
  %p = ub.poison : i64
  %t = tensor.insert %p into %x[%c0] : tensor<2xi64>
  return %t : tensor<2xi64>
}
