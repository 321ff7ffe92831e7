// tensor.dim with a dimension index from the data (tensor-indices.test).
func.func @dim(%q: tensor<3x4xf32>, %i: tensor<1xi64>) -> tensor<1xi64> {
  %c0 = arith.constant 0 : index
  %x = tensor.extract %i[%c0] : tensor<1xi64>
  %c = arith.index_cast %x : i64 to index
  %n = tensor.dim %q, %c : tensor<3x4xf32>
  %r = arith.index_cast %n : index to i64
  %t = tensor.from_elements %r : tensor<1xi64>
  return %t : tensor<1xi64>
}
