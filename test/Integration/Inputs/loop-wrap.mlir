// scf.for loops whose bounds and steps come from the data (loop-wrap.test):
// signed i8, unsigned i8 and index induction variables.
func.func @wrap_i8(%a: tensor<4xf32>, %b: tensor<3xi8>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %lb = tensor.extract %b[%c0] : tensor<3xi8>
  %ub = tensor.extract %b[%c1] : tensor<3xi8>
  %st = tensor.extract %b[%c2] : tensor<3xi8>
  %one = arith.constant dense<1.0> : tensor<4xf32>
  %r = scf.for %i = %lb to %ub step %st iter_args(%t = %a) -> tensor<4xf32> : i8 {
    %u = arith.addf %t, %one : tensor<4xf32>
    scf.yield %u : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

func.func @wrap_u8(%a: tensor<4xf32>, %b: tensor<3xi8>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %lb = tensor.extract %b[%c0] : tensor<3xi8>
  %ub = tensor.extract %b[%c1] : tensor<3xi8>
  %st = tensor.extract %b[%c2] : tensor<3xi8>
  %one = arith.constant dense<1.0> : tensor<4xf32>
  %r = scf.for unsigned %i = %lb to %ub step %st iter_args(%t = %a) -> tensor<4xf32> : i8 {
    %u = arith.addf %t, %one : tensor<4xf32>
    scf.yield %u : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

func.func @wrap_index(%a: tensor<4xf32>, %b: tensor<3xi64>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %lb64 = tensor.extract %b[%c0] : tensor<3xi64>
  %ub64 = tensor.extract %b[%c1] : tensor<3xi64>
  %st64 = tensor.extract %b[%c2] : tensor<3xi64>
  %lb = arith.index_cast %lb64 : i64 to index
  %ub = arith.index_cast %ub64 : i64 to index
  %st = arith.index_cast %st64 : i64 to index
  %one = arith.constant dense<1.0> : tensor<4xf32>
  %r = scf.for %i = %lb to %ub step %st iter_args(%t = %a) -> tensor<4xf32> {
    %u = arith.addf %t, %one : tensor<4xf32>
    scf.yield %u : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// The same in an scf.parallel (an scf.for in sequential code).
func.func @wrap_parallel(%a: tensor<4xf32>, %b: tensor<3xi64>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %lb64 = tensor.extract %b[%c0] : tensor<3xi64>
  %ub64 = tensor.extract %b[%c1] : tensor<3xi64>
  %st64 = tensor.extract %b[%c2] : tensor<3xi64>
  %lb = arith.index_cast %lb64 : i64 to index
  %ub = arith.index_cast %ub64 : i64 to index
  %st = arith.index_cast %st64 : i64 to index
  %m = bufferization.to_buffer %a : tensor<4xf32> to memref<4xf32>
  %o = memref.alloc() : memref<4xf32>
  memref.copy %m, %o : memref<4xf32> to memref<4xf32>
  %one = arith.constant 1.0 : f32
  scf.parallel (%i) = (%lb) to (%ub) step (%st) {
    %x = memref.load %o[%c0] : memref<4xf32>
    %y = arith.addf %x, %one : f32
    memref.store %y, %o[%c0] : memref<4xf32>
  }
  %r = bufferization.to_tensor %o restrict : memref<4xf32> to tensor<4xf32>
  return %r : tensor<4xf32>
}
