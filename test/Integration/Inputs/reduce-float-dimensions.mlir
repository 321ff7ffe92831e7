// fuzz-seed: skip (it crashes MLIR 22's own parser; test/fuzz/split_mlir_seeds.py)
// MLIR 22 reports an error for the float in `dimensions`, then crashes in
// linalg.reduce's parser (upstream mlir-opt too; found by attic's MLIR
// fuzzer).
func.func @f(%x: tensor<4x64x32xf32>, %z: tensor<4x32xf32>) -> tensor<4x32xf32> {
  %s = linalg.reduce ins(%x : tensor<4x64x32xf32>) outs(%z : tensor<4x32xf32>) dimensions = [1.5]
      (%in: f32, %acc: f32) {
        %r = arith.addf %in, %acc : f32
        linalg.yield %r : f32
      }
  return %s : tensor<4x32xf32>
}
