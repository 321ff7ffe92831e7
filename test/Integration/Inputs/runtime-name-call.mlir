// A function that calls attic's runtime allocator by its own name, which
// the JIT does not bind (it binds malloc to it).
func.func private @attic_rt_malloc(i64) -> i64
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %n = arith.constant 16 : i64
  %p = func.call @attic_rt_malloc(%n) : (i64) -> i64
  %x = arith.sitofp %p : i64 to f32
  %c0 = arith.constant 0 : index
  %r = tensor.insert %x into %a[%c0] : tensor<4xf32>
  return %r : tensor<4xf32>
}
