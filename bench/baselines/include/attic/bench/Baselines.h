//===- Baselines.h - CPU attention baselines for benchmarks -----*- C++ -*-===//
//
// f32 attention implementations that compiled kernels are timed against: the
// straightforward loops, and an OpenBLAS version built from two sgemm calls
// per block of query rows. Neither supports bias or masks.
//
//===----------------------------------------------------------------------===//

#ifndef ATTIC_BENCH_BASELINES_H
#define ATTIC_BENCH_BASELINES_H

#include <cstdint>

namespace attic::bench {

/// Dense f32 attention. q: [B,H,Nq,D], k: [B,H,Nk,D], v: [B,H,Nk,Dv],
/// out: [B,H,Nq,Dv], all row-major. logits = scale * q.k; when causal, key j
/// is visible to query i iff j <= i (top-left aligned). Plain loops holding
/// one row of Nk logits at a time.
void naiveAttention(int64_t B, int64_t H, int64_t Nq, int64_t Nk, int64_t D,
                    int64_t Dv, const float *q, const float *k, const float *v,
                    float scale, bool causal, float *out);

/// Same contract as naiveAttention, computed per (b, h) and per block of query
/// rows with cblas_sgemm for S = scale * Q K^T and O = P V; the softmax is done
/// in f32. Causal blocks only touch the key prefix they can see.
void blasAttention(int64_t B, int64_t H, int64_t Nq, int64_t Nk, int64_t D,
                   int64_t Dv, const float *q, const float *k, const float *v,
                   float scale, bool causal, float *out);

/// Times cblas_sgemm on n x n x n and returns the median GFLOP/s over
/// `repeats` runs (counting 2 n^3 flops per run), after one warm-up run.
double sgemmGflops(int64_t n, int repeats);

} // namespace attic::bench

#endif // ATTIC_BENCH_BASELINES_H
