// RUN: attic-opt %s --split-input-file --attic-decompose-aggregates -verify-diagnostics

// On buffers there are no destinations for the intermediate values.
func.func @softmax_buffers(%x: memref<2x8xf32>, %y: memref<2x8xf32>) {
  // expected-error @below {{'linalg.softmax' op is decomposed on tensors only (attic-decompose-aggregates runs before bufferization)}}
  linalg.softmax dimension(1) ins(%x : memref<2x8xf32>) outs(%y : memref<2x8xf32>)
  return
}

// -----

// A softmax of integers: upstream's decomposition took the float semantics
// of i32 and crashed (a 2026-11-30 audit).
func.func @softmax_i32(%x: tensor<2x8xi32>) -> tensor<2x8xi32> {
  %e = tensor.empty() : tensor<2x8xi32>
  // expected-error @+1 {{'linalg.softmax' op of 'i32' elements: a softmax is of floating-point values}}
  %r = linalg.softmax dimension(1) ins(%x : tensor<2x8xi32>) outs(%e : tensor<2x8xi32>) -> tensor<2x8xi32>
  return %r : tensor<2x8xi32>
}

// -----

func.func @softmax_index(%x: tensor<2x8xindex>) -> tensor<2x8xindex> {
  %e = tensor.empty() : tensor<2x8xindex>
  // expected-error @+1 {{'linalg.softmax' op of 'index' elements: a softmax is of floating-point values}}
  %r = linalg.softmax dimension(1) ins(%x : tensor<2x8xindex>) outs(%e : tensor<2x8xindex>) -> tensor<2x8xindex>
  return %r : tensor<2x8xindex>
}
