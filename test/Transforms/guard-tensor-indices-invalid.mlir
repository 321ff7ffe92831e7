// RUN: attic-opt %s --split-input-file --attic-guard-tensor-indices --verify-diagnostics

// A constant dimension index outside the rank: refused (upstream it is
// undefined, and MLIR's folding crashed on -1 in the CUDA pipeline).
func.func @negative(%q: tensor<?x?xf32>) -> index {
  %c = arith.constant -1 : index
  // expected-error @+1 {{'tensor.dim' op dimension index -1 is outside [0, 2) (the rank of 'tensor<?x?xf32>')}}
  %n = tensor.dim %q, %c : tensor<?x?xf32>
  return %n : index
}

// -----

func.func @past_rank(%q: tensor<3x4xf32>) -> index {
  %c = arith.constant 2 : index
  // expected-error @+1 {{'tensor.dim' op dimension index 2 is outside [0, 2) (the rank of 'tensor<3x4xf32>')}}
  %n = tensor.dim %q, %c : tensor<3x4xf32>
  return %n : index
}

// -----

func.func @memref_past_rank(%m: memref<3x4xf32>) -> index {
  %c = arith.constant 5 : index
  // expected-error @+1 {{'memref.dim' op dimension index 5 is outside [0, 2) (the rank of 'memref<3x4xf32>')}}
  %n = memref.dim %m, %c : memref<3x4xf32>
  return %n : index
}
