//===- Blas.h - the runtime's GEMM entry point for compiled code -*- C++ -*-===//

#ifndef ATTIC_EXECUTION_BLAS_H
#define ATTIC_EXECUTION_BLAS_H

#include <cstdint>

extern "C" {
/// C += op(A) op(B) on f32, all matrices row-major: op(A) is m x k (A is
/// stored k x m when transA != 0), op(B) is k x n (stored n x k when
/// transB != 0), C is m x n. `a`, `b`, `c` are the aligned base addresses
/// of the buffers, the offsets are in elements, ld* are the row strides.
/// Calls OpenBLAS's cblas_sgemm (beta = 1); leading strides BLAS cannot
/// take (smaller than a row, e.g. broadcasts) use a plain loop. The code of
/// attic-linalg-to-blas calls it; CpuExecutable binds the symbol.
void attic_rt_sgemm(int64_t transA, int64_t transB, int64_t m, int64_t n,
                    int64_t k, intptr_t a, int64_t aOffset, int64_t lda,
                    intptr_t b, int64_t bOffset, int64_t ldb, intptr_t c,
                    int64_t cOffset, int64_t ldc);
}

namespace attic {
/// Makes OpenBLAS use `threads` threads (the count of setCpuThreads).
void setBlasThreads(int threads);
} // namespace attic

#endif // ATTIC_EXECUTION_BLAS_H
