// A function named like the libm function that math.powf becomes (powf):
// refused, since the compiled code's call would be bound to it
// (test/Integration/bad-input.test, test/Aot/aot-bad-input.test).
func.func @powf(%x: tensor<8xf32>, %y: tensor<8xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %r = linalg.map ins(%x, %y : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>)
    (%a: f32, %b: f32, %o: f32) {
      %p = math.powf %a, %b : f32
      linalg.yield %p : f32
    }
  return %r : tensor<8xf32>
}
