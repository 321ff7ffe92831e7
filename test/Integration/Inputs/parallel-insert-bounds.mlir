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
