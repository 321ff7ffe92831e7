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

// -----

// linalg indexing maps that reach outside their operand somewhere inside
// the iteration space (upstream's verifier checks the first and last loop
// points only; compiled, these read past the buffer and segfaulted).
func.func @mod_map(%a: tensor<1xf32>, %init: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'linalg.generic' op indexing map of operand #0 ('tensor<1xf32>'), result 0 (d0 mod 3) is 1 at loop indices (1), outside [0, 1) (the loop ranges are (4))}}
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i mod 3)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%a : tensor<1xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// A linear map: its extremes are at corners of the iteration space.
func.func @diff_map(%a: memref<4xf32>, %init: memref<4x4xf32>) {
  // expected-error @+1 {{'linalg.generic' op indexing map of operand #0 ('memref<4xf32>'), result 0 (d1 - d0 + 3) is 6 at loop indices (0, 3), outside [0, 4) (the loop ranges are (4, 4))}}
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (j - i + 3)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%a : memref<4xf32>) outs(%init : memref<4x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }
  return
}

// -----

// Not linear, not bounded inside by interval arithmetic, and more than
// 2^24 points: refused as unchecked.
func.func @too_many(%a: tensor<1000xf32>, %init: tensor<33554432xf32>) -> tensor<33554432xf32> {
  // expected-error @+1 {{'linalg.generic' op indexing map of operand #0 ('tensor<1000xf32>'), result 0 ((d0 * 7) mod 1001) could not be checked to stay inside [0, 1000) over the loop ranges (33554432) (more than 2^24 points of a map that is not linear)}}
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> ((i * 7) mod 1001)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%a : tensor<1000xf32>) outs(%init : tensor<33554432xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<33554432xf32>
  return %r : tensor<33554432xf32>
}
