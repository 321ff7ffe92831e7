// An elementwise addition on tensors, for pipelines of one's own
// (cleanups-between-passes.test).
func.func @add(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %r = arith.addf %a, %b : tensor<4xf32>
  return %r : tensor<4xf32>
}
