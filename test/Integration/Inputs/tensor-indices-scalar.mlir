// A scalar read and write at indices from an input
// (test/Integration/tensor-indices.test).

func.func @scalar(%t: tensor<4x8xf32>, %i: tensor<2xi64>) -> (tensor<f32>, tensor<4x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = tensor.extract %i[%c0] : tensor<2xi64>
  %b = tensor.extract %i[%c1] : tensor<2xi64>
  %ia = arith.index_cast %a : i64 to index
  %ib = arith.index_cast %b : i64 to index
  %x = tensor.extract %t[%ia, %ib] : tensor<4x8xf32>
  %e = tensor.from_elements %x : tensor<f32>
  %cst = arith.constant 7.0 : f32
  %u = tensor.insert %cst into %t[%ib, %ia] : tensor<4x8xf32>
  return %e, %u : tensor<f32>, tensor<4x8xf32>
}
