// Indices taken from the data (test/Integration/tensor-indices.test): an
// embedding lookup whose token ids may be outside the table.

func.func @embed(%table: tensor<100x8xf32>, %ids: tensor<16xi64>) -> tensor<16x8xf32> {
  %o = tensor.generate {
  ^bb0(%i: index, %j: index):
    %id = tensor.extract %ids[%i] : tensor<16xi64>
    %r = arith.index_cast %id : i64 to index
    %x = tensor.extract %table[%r, %j] : tensor<100x8xf32>
    tensor.yield %x : f32
  } : tensor<16x8xf32>
  return %o : tensor<16x8xf32>
}
