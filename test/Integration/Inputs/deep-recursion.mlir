// A recursion as deep as the data says (test/Integration/deep-recursion.test):
// @rec(n, x) = x + n.

func.func @rec(%n: i64, %x: f32) -> f32 {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %done = arith.cmpi sle, %n, %c0 : i64
  %r = scf.if %done -> f32 {
    scf.yield %x : f32
  } else {
    %m = arith.subi %n, %c1 : i64
    %y = func.call @rec(%m, %x) : (i64, f32) -> f32
    %one = arith.constant 1.0 : f32
    %z = arith.addf %y, %one : f32
    scf.yield %z : f32
  }
  return %r : f32
}
func.func @f(%p: tensor<1xi64>, %x: tensor<1xf32>) -> tensor<1xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.extract %p[%c0] : tensor<1xi64>
  %v = tensor.extract %x[%c0] : tensor<1xf32>
  %r = func.call @rec(%n, %v) : (i64, f32) -> f32
  %t = tensor.insert %r into %x[%c0] : tensor<1xf32>
  return %t : tensor<1xf32>
}

// The same recursion in a parallel loop: element i recurses p[i] deep, on
// whichever thread of the OpenMP team runs it.
func.func @parallel(%p: tensor<8xi64>, %x: tensor<8xf32>) -> tensor<8xf32> {
  %init = tensor.empty() : tensor<8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%p, %x : tensor<8xi64>, tensor<8xf32>) outs(%init : tensor<8xf32>) {
  ^bb0(%n: i64, %v: f32, %o: f32):
    %y = func.call @rec(%n, %v) : (i64, f32) -> f32
    linalg.yield %y : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}
