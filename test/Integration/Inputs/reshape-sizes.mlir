// tensor.expand_shape whose dynamic sizes do not match (reshape-sizes.test).
func.func @expand(%a: tensor<16xf32>, %n: tensor<1xi64>) -> tensor<?x4xf32> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %x = tensor.extract %n[%c0] : tensor<1xi64>
  %ix = arith.index_cast %x : i64 to index
  %s = tensor.extract_slice %a[0] [%ix] [1] : tensor<16xf32> to tensor<?xf32>
  %r = arith.ceildivui %ix, %c4 : index
  %e = tensor.expand_shape %s [[0, 1]] output_shape [%r, 4] : tensor<?xf32> into tensor<?x4xf32>
  return %e : tensor<?x4xf32>
}
