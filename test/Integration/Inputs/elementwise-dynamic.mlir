// One elementwise op on a dynamic vector (test/Integration/out-of-memory.test).
func.func @ew(%a: tensor<?xf32>) -> tensor<?xf32> {
  %c = arith.addf %a, %a : tensor<?xf32>
  return %c : tensor<?xf32>
}
