// tensor.parallel_insert_slice at offsets from the data
// (parallel-insert-bounds.test).
func.func @row(%a: tensor<8xf32>, %k: tensor<1xi64>) -> tensor<8xf32> {
  %c0 = arith.constant 0 : index
  %k64 = tensor.extract %k[%c0] : tensor<1xi64>
  %off = arith.index_cast %k64 : i64 to index
  %r = scf.forall (%i) in (1) shared_outs(%o = %a) -> tensor<8xf32> {
    %x = arith.constant dense<[100.0, 200.0, 300.0]> : tensor<3xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %x into %o[%off] [3] [1] : tensor<3xf32> into tensor<8xf32>
    }
  }
  return %r : tensor<8xf32>
}

// Rank-reduced: thread i writes [10 i, 10 i + 1] into row %k + i.
func.func @rows(%a: tensor<4x2xf32>, %k: tensor<1xi64>) -> tensor<4x2xf32> {
  %c0 = arith.constant 0 : index
  %k64 = tensor.extract %k[%c0] : tensor<1xi64>
  %base = arith.index_cast %k64 : i64 to index
  %r = scf.forall (%i) in (2) shared_outs(%o = %a) -> tensor<4x2xf32> {
    %row = arith.addi %base, %i : index
    %i64 = arith.index_cast %i : index to i64
    %f = arith.sitofp %i64 : i64 to f32
    %ten = arith.constant 10.0 : f32
    %one = arith.constant 1.0 : f32
    %x0 = arith.mulf %f, %ten : f32
    %x1 = arith.addf %x0, %one : f32
    %x = tensor.from_elements %x0, %x1 : tensor<2xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %x into %o[%row, 0] [1, 2] [1, 1] : tensor<2xf32> into tensor<4x2xf32>
    }
  }
  return %r : tensor<4x2xf32>
}

// Rows of an argument copied to row %k + i (a review: the first guard
// lost the data of an in-bounds insert whose source was not a constant).
func.func @copy(%a: tensor<4x2xf32>, %src: tensor<2x2xf32>, %k: tensor<1xi64>) -> tensor<4x2xf32> {
  %c0 = arith.constant 0 : index
  %k64 = tensor.extract %k[%c0] : tensor<1xi64>
  %base = arith.index_cast %k64 : i64 to index
  %r = scf.forall (%i) in (2) shared_outs(%o = %a) -> tensor<4x2xf32> {
    %row = arith.addi %base, %i : index
    %x = tensor.extract_slice %src[%i, 0] [1, 2] [1, 1] : tensor<2x2xf32> to tensor<2xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %x into %o[%row, 0] [1, 2] [1, 1] : tensor<2xf32> into tensor<4x2xf32>
    }
  }
  return %r : tensor<4x2xf32>
}

// Every dimension dropped: thread t writes t at [%k, t] (one element was
// written at [0, 0] outside; a review).
func.func @scalars(%a: tensor<2x4xf32>, %k: tensor<1xi64>) -> tensor<2x4xf32> {
  %c0 = arith.constant 0 : index
  %k64 = tensor.extract %k[%c0] : tensor<1xi64>
  %row = arith.index_cast %k64 : i64 to index
  %r = scf.forall (%t) in (4) shared_outs(%o = %a) -> tensor<2x4xf32> {
    %t64 = arith.index_cast %t : index to i64
    %f = arith.sitofp %t64 : i64 to f32
    %x = tensor.from_elements %f : tensor<f32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %x into %o[%row, %t] [1, 1] [1, 1] : tensor<f32> into tensor<2x4xf32>
    }
  }
  return %r : tensor<2x4xf32>
}
