// RUN: attic-opt --attic-linalg-to-blas --split-input-file -verify-diagnostics %s

// expected-error @+1 {{'attic_rt_sgemm' is reserved for the runtime's sgemm and must be a func.func of type '(index, index, index, index, index, index, index, index, index, index, index, index, index, index) -> ()'}}
func.func private @attic_rt_sgemm(index, index)
func.func @wrong_declaration(%a: memref<4x4xf32>, %c: memref<4x4xf32>) {
  linalg.matmul ins(%a, %a : memref<4x4xf32>, memref<4x4xf32>) outs(%c : memref<4x4xf32>)
  return
}
