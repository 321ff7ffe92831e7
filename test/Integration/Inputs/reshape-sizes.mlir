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

// Two groups, sizes from the data.
func.func @groups(%a: tensor<?x?xf32>, %n: tensor<2xi64>) -> tensor<?x4x?x2xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = tensor.extract %n[%c0] : tensor<2xi64>
  %y = tensor.extract %n[%c1] : tensor<2xi64>
  %ix = arith.index_cast %x : i64 to index
  %iy = arith.index_cast %y : i64 to index
  %e = tensor.expand_shape %a [[0, 1], [2, 3]] output_shape [%ix, 4, %iy, 2] : tensor<?x?xf32> into tensor<?x4x?x2xf32>
  return %e : tensor<?x4x?x2xf32>
}

// A mismatch (the sizes always differ by one), then a read of the
// expanded tensor: the read of the replacement (empty) reports too, but the
// message names the cause.
func.func @read_after(%a: tensor<16xf32>, %n: tensor<1xi64>) -> tensor<f32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = tensor.extract %n[%c0] : tensor<1xi64>
  %ix = arith.index_cast %x : i64 to index
  %s = tensor.extract_slice %a[0] [%ix] [1] : tensor<16xf32> to tensor<?xf32>
  %r = arith.addi %ix, %c1 : index
  %e = tensor.expand_shape %s [[0, 1]] output_shape [1, %r] : tensor<?xf32> into tensor<1x?xf32>
  %c2 = arith.constant 2 : index
  %q = tensor.extract %e[%c0, %c2] : tensor<1x?xf32>
  %o = tensor.from_elements %q : tensor<f32>
  return %o : tensor<f32>
}
