// Casts to static sizes that the operand may not have at run time
// (cast-sizes.test).
func.func @slice_cast(%a: tensor<8xf32>, %n: tensor<1xi64>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %x = tensor.extract %n[%c0] : tensor<1xi64>
  %ix = arith.index_cast %x : i64 to index
  %s = tensor.extract_slice %a[0] [%ix] [1] : tensor<8xf32> to tensor<?xf32>
  %c = tensor.cast %s : tensor<?xf32> to tensor<4xf32>
  return %c : tensor<4xf32>
}

func.func @filled_cast(%n: tensor<1xi64>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %x = tensor.extract %n[%c0] : tensor<1xi64>
  %ix = arith.index_cast %x : i64 to index
  %e = tensor.empty(%ix) : tensor<?xf32>
  %f = arith.constant 7.0 : f32
  %r = linalg.fill ins(%f : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %c = tensor.cast %r : tensor<?xf32> to tensor<4xf32>
  return %c : tensor<4xf32>
}

func.func @unranked(%a: tensor<2x4xf32>) -> tensor<8xf32> {
  %u = tensor.cast %a : tensor<2x4xf32> to tensor<*xf32>
  %c = tensor.cast %u : tensor<*xf32> to tensor<8xf32>
  return %c : tensor<8xf32>
}

func.func @argument(%a: tensor<?x4xf32>) -> tensor<8x4xf32> {
  %c = tensor.cast %a : tensor<?x4xf32> to tensor<8x4xf32>
  %e = tensor.empty() : tensor<8x4xf32>
  %r = linalg.add ins(%c, %c : tensor<8x4xf32>, tensor<8x4xf32>) outs(%e : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}

// A memref.cast of a view whose stride (or offset) comes from the data to
// the identity layout: the stride (offset) is checked too.
func.func @stride(%a: tensor<16xf32>, %s: tensor<1xi64>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %x = tensor.extract %s[%c0] : tensor<1xi64>
  %st = arith.index_cast %x : i64 to index
  %m = bufferization.to_buffer %a read_only : tensor<16xf32> to memref<16xf32>
  %sv = memref.subview %m[0] [4] [%st] : memref<16xf32> to memref<4xf32, strided<[?]>>
  %c = memref.cast %sv : memref<4xf32, strided<[?]>> to memref<4xf32>
  %out = memref.alloc() : memref<4xf32>
  linalg.copy ins(%c : memref<4xf32>) outs(%out : memref<4xf32>)
  %t = bufferization.to_tensor %out restrict : memref<4xf32> to tensor<4xf32>
  return %t : tensor<4xf32>
}

func.func @offset(%a: tensor<16xf32>, %s: tensor<1xi64>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %x = tensor.extract %s[%c0] : tensor<1xi64>
  %o = arith.index_cast %x : i64 to index
  %m = bufferization.to_buffer %a read_only : tensor<16xf32> to memref<16xf32>
  %sv = memref.subview %m[%o] [4] [1] : memref<16xf32> to memref<4xf32, strided<[1], offset: ?>>
  %c = memref.cast %sv : memref<4xf32, strided<[1], offset: ?>> to memref<4xf32>
  %out = memref.alloc() : memref<4xf32>
  linalg.copy ins(%c : memref<4xf32>) outs(%out : memref<4xf32>)
  %t = bufferization.to_tensor %out restrict : memref<4xf32> to tensor<4xf32>
  return %t : tensor<4xf32>
}

func.func @unranked_stride(%a: tensor<16xf32>, %s: tensor<1xi64>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %x = tensor.extract %s[%c0] : tensor<1xi64>
  %st = arith.index_cast %x : i64 to index
  %m = bufferization.to_buffer %a read_only : tensor<16xf32> to memref<16xf32>
  %sv = memref.subview %m[0] [4] [%st] : memref<16xf32> to memref<4xf32, strided<[?]>>
  %u = memref.cast %sv : memref<4xf32, strided<[?]>> to memref<*xf32>
  %c = memref.cast %u : memref<*xf32> to memref<4xf32>
  %out = memref.alloc() : memref<4xf32>
  linalg.copy ins(%c : memref<4xf32>) outs(%out : memref<4xf32>)
  %t = bufferization.to_tensor %out restrict : memref<4xf32> to tensor<4xf32>
  return %t : tensor<4xf32>
}

// Row s of a 4x4 view: its stride 4 on a dimension of size 1 differs from
// the cast's 8 but addresses nothing.
func.func @unit_row(%a: tensor<16xf32>, %s: tensor<1xi64>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %x = tensor.extract %s[%c0] : tensor<1xi64>
  %r = arith.index_cast %x : i64 to index
  %m = bufferization.to_buffer %a read_only : tensor<16xf32> to memref<16xf32>
  %e = memref.expand_shape %m [[0, 1]] output_shape [4, 4] : memref<16xf32> into memref<4x4xf32>
  %row = memref.subview %e[%r, 0] [1, 4] [1, 1] : memref<4x4xf32> to memref<1x4xf32, strided<[4, 1], offset: ?>>
  %d = memref.cast %row : memref<1x4xf32, strided<[4, 1], offset: ?>> to memref<1x4xf32, strided<[?, 1], offset: ?>>
  %c = memref.cast %d : memref<1x4xf32, strided<[?, 1], offset: ?>> to memref<1x4xf32, strided<[8, 1], offset: ?>>
  %out = memref.alloc() : memref<1x4xf32>
  linalg.copy ins(%c : memref<1x4xf32, strided<[8, 1], offset: ?>>) outs(%out : memref<1x4xf32>)
  %t = bufferization.to_tensor %out restrict : memref<1x4xf32> to tensor<1x4xf32>
  %flat = tensor.collapse_shape %t [[0, 1]] : tensor<1x4xf32> into tensor<4xf32>
  return %flat : tensor<4xf32>
}

// A cast to a size the argument does not have, in a branch that runs only
// when %c holds true.
func.func @branch(%a: tensor<?xf32>, %c: tensor<i1>) -> tensor<?xf32> {
  %cv = tensor.extract %c[] : tensor<i1>
  %r = scf.if %cv -> tensor<?xf32> {
    %x = tensor.cast %a : tensor<?xf32> to tensor<8xf32>
    %y = tensor.cast %x : tensor<8xf32> to tensor<?xf32>
    scf.yield %y : tensor<?xf32>
  } else {
    scf.yield %a : tensor<?xf32>
  }
  return %r : tensor<?xf32>
}
