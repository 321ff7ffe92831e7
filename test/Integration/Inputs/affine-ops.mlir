// The function's own affine ops (test/Integration/affine-ops.test): lowered
// to scf and arith first in both pipelines, so that their loops run and
// their divisions by a symbol from the data are guarded.

// affine.for 0 to 10 floordiv p[1], counting its iterations, plus
// affine.min(10 mod p[1], 7).
func.func @host(%p: tensor<2xi64>) -> tensor<1xi64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %y = tensor.extract %p[%c1] : tensor<2xi64>
  %s = arith.index_cast %y : i64 to index
  %z = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %r = affine.for %i = 0 to affine_map<()[s0, s1] -> (s0 floordiv s1)>()[%c10, %s] iter_args(%acc = %z) -> i64 {
    %n = arith.addi %acc, %one : i64
    affine.yield %n : i64
  }
  %m = affine.min affine_map<()[s0, s1] -> (s0 mod s1, 7)>()[%c10, %s]
  %mi = arith.index_cast %m : index to i64
  %sum = arith.addi %r, %mi : i64
  %init = arith.constant dense<0> : tensor<1xi64>
  %t = tensor.insert %sum into %init[%c0] : tensor<1xi64>
  return %t : tensor<1xi64>
}
