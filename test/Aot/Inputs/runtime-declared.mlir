// Declarations (no body) of libattic_rt.so's functions with other types
// (test/Aot/aot-entry-names.test): they were bound to the runtime's, and
// the wrapped module did not verify ("'llvm.call' op operand type
// mismatch"; a 2026-12-01 audit).
func.func private @attic_aot_call(f32) -> f32
func.func @declared_aot_call(%a: tensor<4xf32>) -> tensor<4xf32> {
  %r = tensor.generate {
  ^bb0(%i: index):
    %x = tensor.extract %a[%i] : tensor<4xf32>
    %y = func.call @attic_aot_call(%x) : (f32) -> f32
    tensor.yield %y : f32
  } : tensor<4xf32>
  return %r : tensor<4xf32>
}

func.func private @attic_rt_malloc(f32) -> f32
func.func @declared_malloc(%a: tensor<4xf32>) -> tensor<4xf32> {
  %r = tensor.generate {
  ^bb0(%i: index):
    %x = tensor.extract %a[%i] : tensor<4xf32>
    %y = func.call @attic_rt_malloc(%x) : (f32) -> f32
    tensor.yield %y : f32
  } : tensor<4xf32>
  %s = arith.addf %r, %a : tensor<4xf32>
  return %s : tensor<4xf32>
}
