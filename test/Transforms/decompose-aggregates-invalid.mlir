// RUN: attic-opt %s --split-input-file --attic-decompose-aggregates -verify-diagnostics

// On buffers there are no destinations for the intermediate values.
func.func @softmax_buffers(%x: memref<2x8xf32>, %y: memref<2x8xf32>) {
  // expected-error @below {{'linalg.softmax' op is decomposed on tensors only (attic-decompose-aggregates runs before bufferization)}}
  linalg.softmax dimension(1) ins(%x : memref<2x8xf32>) outs(%y : memref<2x8xf32>)
  return
}
