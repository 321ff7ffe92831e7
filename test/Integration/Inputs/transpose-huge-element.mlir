// fuzz-seed: skip (it crashes MLIR 22's own parser; test/fuzz/split_mlir_seeds.py)
// MLIR 22 reports "integer value too large" for an element of `permutation`
// beyond int64, then crashes in linalg.transpose's parser (upstream
// mlir-opt too; found by attic's MLIR fuzzer, 2026-11-26).
func.func @f(%a: tensor<2x3xf32>, %b: tensor<3x2xf32>) -> tensor<3x2xf32> {
  %t = linalg.transpose ins(%a : tensor<2x3xf32>) outs(%b : tensor<3x2xf32>) permutation = [99999999999999999999, 0]
  return %t : tensor<3x2xf32>
}
