//===- NaiveAttention.cpp - Straightforward f32 attention -----------------===//

#include "attic/bench/Baselines.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

void attic::bench::naiveAttention(int64_t B, int64_t H, int64_t Nq, int64_t Nk,
                                  int64_t D, int64_t Dv, const float *q,
                                  const float *k, const float *v, float scale,
                                  bool causal, float *out) {
  std::vector<float> logits(static_cast<size_t>(Nk));
  for (int64_t slice = 0; slice < B * H; ++slice) {
    const float *qs = q + slice * Nq * D;
    const float *ks = k + slice * Nk * D;
    const float *vs = v + slice * Nk * Dv;
    float *os = out + slice * Nq * Dv;
    for (int64_t i = 0; i < Nq; ++i) {
      float *outRow = os + i * Dv;
      std::fill(outRow, outRow + Dv, 0.0f);
      // Keys [0, visible) are attended; top-left causal keeps j <= i.
      int64_t visible = causal ? std::min(Nk, i + 1) : Nk;
      if (visible == 0)
        continue;

      float maxLogit = -std::numeric_limits<float>::infinity();
      for (int64_t j = 0; j < visible; ++j) {
        float dot = 0.0f;
        for (int64_t c = 0; c < D; ++c)
          dot += qs[i * D + c] * ks[j * D + c];
        logits[j] = scale * dot;
        maxLogit = std::max(maxLogit, logits[j]);
      }
      float sum = 0.0f;
      for (int64_t j = 0; j < visible; ++j) {
        float weight = std::exp(logits[j] - maxLogit);
        sum += weight;
        for (int64_t c = 0; c < Dv; ++c)
          outRow[c] += weight * vs[j * Dv + c];
      }
      for (int64_t c = 0; c < Dv; ++c)
        outRow[c] /= sum;
    }
  }
}
