// A module that defines the runtime's attic_aot_call, which the library's
// entry calls (test/Aot/aot-entry-names.test).
func.func @runtime_clash(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = call @attic_aot_call(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
func.func @attic_aot_call(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
