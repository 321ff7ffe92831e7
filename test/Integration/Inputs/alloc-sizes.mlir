// Allocations whose sizes come from the data (alloc-sizes.test).
func.func @empty(%s: tensor<1xi64>) -> tensor<f32> {
  %c0 = arith.constant 0 : index
  %n64 = tensor.extract %s[%c0] : tensor<1xi64>
  %n = arith.index_cast %n64 : i64 to index
  %e = tensor.empty(%n) : tensor<?xf32>
  %one = arith.constant 1.0 : f32
  %f = linalg.fill ins(%one : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %z = arith.constant dense<0.0> : tensor<f32>
  %r = linalg.reduce ins(%f : tensor<?xf32>) outs(%z : tensor<f32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %t = arith.addf %in, %acc : f32
      linalg.yield %t : f32
    }
  return %r : tensor<f32>
}

func.func @splat(%x: tensor<1xf32>, %s: tensor<2xi64>) -> tensor<?x4x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m64 = tensor.extract %s[%c0] : tensor<2xi64>
  %n64 = tensor.extract %s[%c1] : tensor<2xi64>
  %m = arith.index_cast %m64 : i64 to index
  %n = arith.index_cast %n64 : i64 to index
  %v = tensor.extract %x[%c0] : tensor<1xf32>
  %sp = tensor.splat %v[%m, %n] : tensor<?x4x?xf32>
  return %sp : tensor<?x4x?xf32>
}

func.func @generate(%s: tensor<1xi64>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %n64 = tensor.extract %s[%c0] : tensor<1xi64>
  %n = arith.index_cast %n64 : i64 to index
  %g = tensor.generate %n {
  ^bb0(%i: index):
    %i64 = arith.index_cast %i : index to i64
    %f = arith.sitofp %i64 : i64 to f32
    tensor.yield %f : f32
  } : tensor<?xf32>
  return %g : tensor<?xf32>
}

func.func @alloc_tensor(%s: tensor<1xi64>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %n64 = tensor.extract %s[%c0] : tensor<1xi64>
  %n = arith.index_cast %n64 : i64 to index
  %e = bufferization.alloc_tensor(%n) : tensor<?xf32>
  %one = arith.constant 1.0 : f32
  %f = linalg.fill ins(%one : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  return %f : tensor<?xf32>
}

// Static sizes that take 2^64 bytes (4 * 2^62): the byte count of the
// static sizes wrapped to 0 and every check passed (a review).
func.func @static_overflow(%s: tensor<1xi64>) -> tensor<?x4611686018427387904xf32> {
  %c0 = arith.constant 0 : index
  %n64 = tensor.extract %s[%c0] : tensor<1xi64>
  %n = arith.index_cast %n64 : i64 to index
  %e = tensor.empty(%n) : tensor<?x4611686018427387904xf32>
  return %e : tensor<?x4611686018427387904xf32>
}

// Padding from the data (a negative one shifted the result, and one run in
// three corrupted the heap; an audit).
func.func @pad(%a: tensor<2x3xf32>, %n: tensor<1xi64>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %p64 = tensor.extract %n[%c0] : tensor<1xi64>
  %p = arith.index_cast %p64 : i64 to index
  %z = arith.constant 7.0 : f32
  %r = tensor.pad %a low[%p, 1] high[1, %p] {
  ^bb0(%i: index, %j: index):
    tensor.yield %z : f32
  } : tensor<2x3xf32> to tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// A static result size with a padding from the data: it must be the padded
// size (a padding of 1000000 into tensor<5xf32> wrote there: a segfault).
func.func @pad_static(%a: tensor<3xf32>, %n: tensor<1xi64>) -> tensor<5xf32> {
  %c0 = arith.constant 0 : index
  %p64 = tensor.extract %n[%c0] : tensor<1xi64>
  %p = arith.index_cast %p64 : i64 to index
  %z = arith.constant 7.0 : f32
  %r = tensor.pad %a low[%p] high[0] {
  ^bb0(%i: index):
    tensor.yield %z : f32
  } : tensor<3xf32> to tensor<5xf32>
  return %r : tensor<5xf32>
}

// A static result size from a dynamic source with static paddings.
func.func @pad_source(%a: tensor<?xf32>) -> tensor<5xf32> {
  %z = arith.constant 7.0 : f32
  %r = tensor.pad %a low[1] high[1] {
  ^bb0(%i: index):
    tensor.yield %z : f32
  } : tensor<?xf32> to tensor<5xf32>
  return %r : tensor<5xf32>
}
