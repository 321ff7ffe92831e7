// Loops whose steps come from the data (test/Integration/loop-steps.test).

// Counts the iterations of 0 to 10 step p[1] on the host.
func.func @host(%p: tensor<2xi64>) -> tensor<1xi64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %y = tensor.extract %p[%c1] : tensor<2xi64>
  %s = arith.index_cast %y : i64 to index
  %z = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %r = scf.for %i = %c0 to %c10 step %s iter_args(%acc = %z) -> i64 {
    %n = arith.addi %acc, %one : i64
    scf.yield %n : i64
  }
  %init = arith.constant dense<0> : tensor<1xi64>
  %t = tensor.insert %r into %init[%c0] : tensor<1xi64>
  return %t : tensor<1xi64>
}

// The same count per element, with each element's own step, in a
// linalg.generic (a kernel on the GPU pipelines).
#id = affine_map<(i) -> (i)>
func.func @elementwise(%steps: tensor<4xi64>) -> tensor<4xi64> {
  %init = tensor.empty() : tensor<4xi64>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%steps : tensor<4xi64>) outs(%init : tensor<4xi64>) {
  ^bb0(%st: i64, %o: i64):
    %lb = arith.constant 0 : i64
    %ub = arith.constant 10 : i64
    %z = arith.constant 0 : i64
    %one = arith.constant 1 : i64
    %n = scf.for %i = %lb to %ub step %st iter_args(%acc = %z) -> i64 : i64 {
      %a = arith.addi %acc, %one : i64
      scf.yield %a : i64
    }
    linalg.yield %n : i64
  } -> tensor<4xi64>
  return %r : tensor<4xi64>
}

// Marks the elements 0, s, 2s, ... of 10 (s = p[1]) in an scf.forall, which
// the pipelines turn into an scf.parallel after bufferization; its step is
// guarded there.
func.func @forall(%p: tensor<2xi64>) -> tensor<10xi64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %y = tensor.extract %p[%c1] : tensor<2xi64>
  %s = arith.index_cast %y : i64 to index
  %init = arith.constant dense<0> : tensor<10xi64>
  %r = scf.forall (%i) = (%c0) to (%c10) step (%s) shared_outs(%o = %init) -> tensor<10xi64> {
    %one = arith.constant dense<1> : tensor<1xi64>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %one into %o[%i] [1] [1] : tensor<1xi64> into tensor<10xi64>
    }
  }
  return %r : tensor<10xi64>
}
