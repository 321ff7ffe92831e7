// A module that defines the runtime's attic_aot_call, which the library's
// entry calls (test/Aot/aot-entry-names.test).
func.func @runtime_clash(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = call @attic_aot_call(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
func.func @attic_aot_call(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// A private recursive helper (not inlined) named like the runtime's
// allocator, which attic-compile binds malloc to: the compiled code's
// allocations became calls of it, and the wrapped module did not verify.
func.func private @attic_rt_malloc(%x: tensor<4xf32>, %n: i32) -> tensor<4xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %p = arith.cmpi sgt, %n, %c0 : i32
  %r = scf.if %p -> tensor<4xf32> {
    %m = arith.subi %n, %c1 : i32
    %y = func.call @attic_rt_malloc(%x, %m) : (tensor<4xf32>, i32) -> tensor<4xf32>
    scf.yield %y : tensor<4xf32>
  } else {
    scf.yield %x : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
func.func @allocator_clash(%x: tensor<4xf32>, %n: tensor<i32>) -> tensor<4xf32> {
  %nn = tensor.extract %n[] : tensor<i32>
  %y = func.call @attic_rt_malloc(%x, %nn) : (tensor<4xf32>, i32) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
