// Slices at offsets, sizes and strides from an input
// (test/Integration/tensor-slices.test).

func.func @slices(%x: tensor<16xf32>, %p: tensor<4xi64>) -> (tensor<4xf32>, tensor<16xf32>, tensor<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %o = tensor.extract %p[%c0] : tensor<4xi64>
  %s = tensor.extract %p[%c1] : tensor<4xi64>
  %w = tensor.extract %p[%c2] : tensor<4xi64>
  %n = tensor.extract %p[%c3] : tensor<4xi64>
  %io = arith.index_cast %o : i64 to index
  %is = arith.index_cast %s : i64 to index
  %iw = arith.index_cast %w : i64 to index
  %in = arith.index_cast %n : i64 to index
  %r = tensor.extract_slice %x[%io] [4] [%is] : tensor<16xf32> to tensor<4xf32>
  %u = tensor.insert_slice %r into %x[%iw] [4] [1] : tensor<4xf32> into tensor<16xf32>
  %d = tensor.extract_slice %x[%io] [%in] [1] : tensor<16xf32> to tensor<?xf32>
  return %r, %u, %d : tensor<4xf32>, tensor<16xf32>, tensor<?xf32>
}

// A constant stride too long for the tensor: 0, 5, 10 (10 is past 8).
func.func @constant_stride(%x: tensor<8xf32>) -> tensor<3xf32> {
  %c0 = arith.constant 0 : index
  %c5 = arith.constant 5 : index
  %r = tensor.extract_slice %x[%c0] [3] [%c5] : tensor<8xf32> to tensor<3xf32>
  return %r : tensor<3xf32>
}

// Strides on dims of size 1 (a 2026-11-30 audit: the rank-reducing
// extract with stride 2 crashed MLIR 22's subview folding in the CPU
// pipeline, the one with stride 3 on a size-1 source failed to lower, and
// the insert of a 1x1 tile with stride 5 too). A dim of size 1 takes one
// element whatever its stride.
func.func @unit_size_strides(%x: tensor<3x4xf32>, %y: tensor<3x1xi32>)
    -> (tensor<1xf32>, tensor<1xi32>, tensor<3x4xf32>) {
  %r = tensor.extract_slice %x[1, 2] [1, 1] [2, 3] : tensor<3x4xf32> to tensor<1xf32>
  %s = tensor.extract_slice %y[1, 0] [1, 1] [1, 3] : tensor<3x1xi32> to tensor<1xi32>
  %u = tensor.insert_slice %r into %x[2, 3] [1, 1] [5, 5] : tensor<1xf32> into tensor<3x4xf32>
  return %r, %s, %u : tensor<1xf32>, tensor<1xi32>, tensor<3x4xf32>
}
