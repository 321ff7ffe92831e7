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

// Two dynamic sizes in one group: upstream's expand-strided-metadata
// crashed on the bufferized op (attic-expand-strided-metadata). Sizes from
// the data; constant sizes in a dynamic type; sizes from shapes (which the
// GPU targets can compute on the host), with a static size `1` in a
// dimension the type leaves dynamic (upstream's canonicalization crashed on
// that: attic::normalizeExpandShapes).
func.func @two_dynamic(%a: tensor<?xf32>, %n: tensor<2xi64>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = tensor.extract %n[%c0] : tensor<2xi64>
  %y = tensor.extract %n[%c1] : tensor<2xi64>
  %ix = arith.index_cast %x : i64 to index
  %iy = arith.index_cast %y : i64 to index
  %e = tensor.expand_shape %a [[0, 1]] output_shape [%ix, %iy] : tensor<?xf32> into tensor<?x?xf32>
  return %e : tensor<?x?xf32>
}

func.func @constant_sizes(%a: tensor<16xf32>, %n: tensor<1xi64>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %x = tensor.extract %n[%c0] : tensor<1xi64>
  %ix = arith.index_cast %x : i64 to index
  %s = tensor.extract_slice %a[0] [%ix] [1] : tensor<16xf32> to tensor<?xf32>
  %e = tensor.expand_shape %s [[0, 1]] output_shape [%c4, %c4] : tensor<?xf32> into tensor<?x?xf32>
  return %e : tensor<?x?xf32>
}

func.func @from_shapes(%a: tensor<?x?xf32>, %b: tensor<?xf32>) -> tensor<?x?x?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %a, %c1 : tensor<?x?xf32>
  %m = tensor.dim %b, %c0 : tensor<?xf32>
  %k = arith.divui %n, %m : index
  %d = tensor.dim %a, %c0 : tensor<?x?xf32>
  %e = tensor.expand_shape %a [[0, 1], [2, 3]] output_shape [%d, 1, %m, %k] : tensor<?x?xf32> into tensor<?x?x?x?xf32>
  return %e : tensor<?x?x?x?xf32>
}

// tensor.reshape with a shape from the data.
func.func @reshape(%a: tensor<2x3xf32>, %s: tensor<2xi64>) -> tensor<?x?xf32> {
  %r = tensor.reshape %a(%s) : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

func.func @reshape_static(%a: tensor<?xf32>, %s: tensor<2xi64>) -> tensor<2x?xf32> {
  %r = tensor.reshape %a(%s) : (tensor<?xf32>, tensor<2xi64>) -> tensor<2x?xf32>
  return %r : tensor<2x?xf32>
}

// An unranked operand: not checked (the guard hung on it, casting the
// unranked type to a ranked one; a review), and run as written.
func.func @reshape_unranked(%a: tensor<2x3xf32>, %s: tensor<2xi64>) -> tensor<?x?xf32> {
  %u = tensor.cast %a : tensor<2x3xf32> to tensor<*xf32>
  %r = tensor.reshape %u(%s) : (tensor<*xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// An output size operand in a dimension the type makes static (the
// verifier accepts it): it must be that size at run time. %y = 5 with the
// type's 4 and %x * %y = the operand's 10 passed the group check, and the
// result read 8 of the 10 elements as 2x4 with exit 0 (a review).
func.func @static_dim_operand(%a: tensor<?xf32>, %n: tensor<2xi64>) -> tensor<?x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = tensor.extract %n[%c0] : tensor<2xi64>
  %y = tensor.extract %n[%c1] : tensor<2xi64>
  %ix = arith.index_cast %x : i64 to index
  %iy = arith.index_cast %y : i64 to index
  %e = tensor.expand_shape %a [[0, 1]] output_shape [%ix, %iy] : tensor<?xf32> into tensor<?x4xf32>
  return %e : tensor<?x4xf32>
}

// A rank-0 operand expanded into dynamic sizes (the tensor verifier
// accepts it): each size must be 1. The lowering failed with upstream's
// memref message "rank 0 memrefs can only be extended/collapsed with/from
// ones" (a review).
func.func @from_scalar(%a: tensor<f32>, %n: tensor<2xi64>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = tensor.extract %n[%c0] : tensor<2xi64>
  %y = tensor.extract %n[%c1] : tensor<2xi64>
  %ix = arith.index_cast %x : i64 to index
  %iy = arith.index_cast %y : i64 to index
  %e = tensor.expand_shape %a [] output_shape [%ix, %iy] : tensor<f32> into tensor<?x?xf32>
  return %e : tensor<?x?xf32>
}
