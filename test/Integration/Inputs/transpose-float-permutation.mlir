// fuzz-seed: skip (it crashes MLIR 22's own parser; test/fuzz/split_mlir_seeds.py)
// MLIR 22 reports an error for the float in `permutation`, then crashes in
// its parser (upstream mlir-opt too).
func.func @f(%a: tensor<2x3xf32>, %b: tensor<3x2xf32>) -> tensor<3x2xf32> {
  %t = linalg.transpose ins(%a : tensor<2x3xf32>) outs(%b : tensor<3x2xf32>) permutation = [1.5, 0]
  return %t : tensor<3x2xf32>
}
