// RUN: attic-opt --attic-linalg-to-blas --split-input-file -verify-diagnostics %s

// expected-error @+1 {{@attic_rt_sgemm is the runtime's sgemm, which attic-linalg-to-blas calls, but the module declares it as '(index, index) -> ()', not '(index, index, index, index, index, index, index, index, index, index, index, index, index, index) -> ()'; rename it}}
func.func private @attic_rt_sgemm(index, index)
func.func @wrong_declaration(%a: memref<4x4xf32>, %c: memref<4x4xf32>) {
  linalg.matmul ins(%a, %a : memref<4x4xf32>, memref<4x4xf32>) outs(%c : memref<4x4xf32>)
  return
}

// -----

// A definition of the runtime's name would take the calls (it did until
// 2026-12-01).
// expected-error @+1 {{@attic_rt_sgemm is the runtime's sgemm, which attic-linalg-to-blas calls, but the module defines a function of that name (with a body), which would take the calls instead; rename it}}
func.func @attic_rt_sgemm(%ta: index, %tb: index, %m: index, %n: index, %k: index, %a: index, %ao: index, %lda: index, %b: index, %bo: index, %ldb: index, %c: index, %co: index, %ldc: index) {
  return
}
func.func @own_definition(%a: memref<4x4xf32>, %c: memref<4x4xf32>) {
  linalg.matmul ins(%a, %a : memref<4x4xf32>, memref<4x4xf32>) outs(%c : memref<4x4xf32>)
  return
}
