// tree_select whose logits overflow f32 for large finite inputs
// (vcc-select-overflow.test).
func.func @select(%c: tensor<2x15x3xf32>, %valid: tensor<2x15xi1>, %q: tensor<2x1x2x3xf32>, %wk: tensor<3x3xf32>, %bk: tensor<3xf32>, %g: tensor<3xf32>, %b: tensor<3xf32>) -> tensor<2x9xi64> {
  %t = attic.tree_build %c, %valid : tensor<2x15x3xf32>, tensor<2x15xi1> -> !attic.tree<2x15x3xf32, fanouts = [3, 5]>
  %j = attic.tree_select %t, %q, %wk, %bk, %g, %b {budgets = [2, 1], heads = 1, scale = 0.5 : f32} : !attic.tree<2x15x3xf32, fanouts = [3, 5]>, tensor<2x1x2x3xf32>, tensor<3x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32> -> tensor<2x9xi64>
  return %j : tensor<2x9xi64>
}
