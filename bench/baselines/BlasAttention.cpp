//===- BlasAttention.cpp - OpenBLAS f32 attention -------------------------===//
//
// The usual "two GEMMs and a softmax" formulation, blocked over query rows so
// the score scratch is kBlockRows x Nk rather than Nq x Nk.
//
//===----------------------------------------------------------------------===//

#include "attic/bench/Baselines.h"

#include <cblas.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace {
constexpr int64_t kBlockRows = 256;

/// In-place softmax of one row of scores; the row always has a finite entry.
void softmaxRow(float *row, int64_t n) {
  float maxScore = -std::numeric_limits<float>::infinity();
  for (int64_t j = 0; j < n; ++j)
    maxScore = std::max(maxScore, row[j]);
  float sum = 0.0f;
  for (int64_t j = 0; j < n; ++j) {
    row[j] = std::exp(row[j] - maxScore);
    sum += row[j];
  }
  float inv = 1.0f / sum;
  for (int64_t j = 0; j < n; ++j)
    row[j] *= inv;
}
} // namespace

void attic::bench::blasAttention(int64_t B, int64_t H, int64_t Nq, int64_t Nk,
                                 int64_t D, int64_t Dv, const float *q,
                                 const float *k, const float *v, float scale,
                                 bool causal, float *out) {
  if (Nk == 0) {
    std::fill(out, out + B * H * Nq * Dv, 0.0f);
    return;
  }
  const float negInf = -std::numeric_limits<float>::infinity();
  std::vector<float> scores(static_cast<size_t>(std::min(Nq, kBlockRows) * Nk));

  for (int64_t slice = 0; slice < B * H; ++slice) {
    const float *qs = q + slice * Nq * D;
    const float *ks = k + slice * Nk * D;
    const float *vs = v + slice * Nk * Dv;
    float *os = out + slice * Nq * Dv;
    for (int64_t row0 = 0; row0 < Nq; row0 += kBlockRows) {
      int64_t rows = std::min(kBlockRows, Nq - row0);
      // The last row of the block sees keys [0, row0 + rows) when causal.
      int64_t visible = causal ? std::min(Nk, row0 + rows) : Nk;
      float *s = scores.data();

      // S[rows, visible] = scale * Q_blk K_prefix^T, leading dimension visible.
      cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, rows, visible, D,
                  scale, qs + row0 * D, D, ks, D, 0.0f, s, visible);
      for (int64_t r = 0; r < rows; ++r) {
        float *sRow = s + r * visible;
        if (causal)
          for (int64_t j = row0 + r + 1; j < visible; ++j)
            sRow[j] = negInf;
        softmaxRow(sRow, visible);
      }
      // O_blk[rows, Dv] = P V_prefix.
      cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, rows, Dv, visible,
                  1.0f, s, visible, vs, Dv, 0.0f, os + row0 * Dv, Dv);
    }
  }
}
