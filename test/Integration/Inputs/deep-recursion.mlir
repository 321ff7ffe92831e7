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
