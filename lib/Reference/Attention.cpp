//===- Attention.cpp - Reference semantics of attic.attention -------------===//
//
// Straightforward double-precision attention. Correctness over speed: the only
// concession to size is that one row of logits is materialized at a time.
//
//===----------------------------------------------------------------------===//

#include "attic/Reference/Attention.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <vector>

using namespace attic::ref;

namespace {
constexpr double kNegInf = -std::numeric_limits<double>::infinity();

/// The per-key bias row for (b, h), or nullptr when there is no bias.
const double *keyBiasRow(const AttentionShape &shape,
                         const AttentionOptions &options, int64_t b,
                         int64_t h) {
  switch (options.biasKind) {
  case KeyBiasKind::None:
    return nullptr;
  case KeyBiasKind::PerBatch:
    return options.keyBias + b * shape.keyLen;
  case KeyBiasKind::PerHead:
    return options.keyBias + (b * shape.heads + h) * shape.keyLen;
  }
  return nullptr;
}

/// x, or -FLT_MAX / log2(e) where x is finite and below it.
double saturateLowest(double x) {
  const double lowest =
      -double(std::numeric_limits<float>::max()) / std::log2(std::exp(1.0));
  return x < lowest && x != kNegInf ? lowest : x;
}

/// The layout part of admissibility: `causal`, the layout, the block lists.
bool visible(const AttentionOptions &options, int64_t b, int64_t h, int64_t i,
             int64_t j, int64_t nq, int64_t nk) {
  bool pattern = !(options.causal && j > i);
  if (options.layout)
    pattern = pattern && options.layout->visible(b, h, i, j, nq, nk);
  if (options.mask)
    pattern = pattern && options.mask(b, h, i, j);
  if (!options.blocks)
    return pattern;
  const BlockLists &lists = *options.blocks;
  int kind = lists.lookup(b, h, i / lists.blockQ, j / lists.blockK);
  return kind == 2 || (kind == 1 && pattern);
}

double dot(const double *a, const double *b, int64_t n) {
  double sum = 0.0;
  for (int64_t i = 0; i < n; ++i)
    sum += a[i] * b[i];
  return sum;
}
} // namespace

void attic::ref::attention(const AttentionShape &shape, const double *q,
                           const double *k, const double *v,
                           const AttentionOptions &options, double *out,
                           double *lse) {
  assert((options.biasKind == KeyBiasKind::None || options.keyBias) &&
         "a bias kind was given without bias data");
  const int64_t nq = shape.queryLen, nk = shape.keyLen;
  const int64_t d = shape.headDim, dv = shape.valueDim;

  // Nothing to compute (a zero dim): return before anything is sized by
  // the other dims, which may then be arbitrarily large. With Dv = 0 the
  // log-sum-exp is still defined (it was left at 0: --check failed a right
  // lse of ln 3; an audit).
  if (shape.batch == 0 || shape.heads == 0 || nq == 0 || (dv == 0 && !lse))
    return;
  // Excluded keys get a -inf logit and are skipped when weighting.
  std::vector<double> logits(static_cast<size_t>(nk));
  const int64_t kvHeads = shape.kvHeads ? shape.kvHeads : shape.heads;
  assert(shape.heads % kvHeads == 0 && "Hq must be a multiple of Hkv");
  const int64_t group = shape.heads / kvHeads;
  for (int64_t b = 0; b < shape.batch; ++b) {
    const uint8_t *mask = options.keyMask ? options.keyMask + b * nk : nullptr;
    for (int64_t h = 0; h < shape.heads; ++h) {
      const int64_t slice = b * shape.heads + h;
      const int64_t kvSlice = b * kvHeads + h / group;
      const double *qs = q + slice * nq * d;
      const double *ks = k + kvSlice * nk * d;
      const double *vs = v + kvSlice * nk * dv;
      double *os = out + slice * nq * dv;
      const double *bias = keyBiasRow(shape, options, b, h);

      for (int64_t i = 0; i < nq; ++i) {
        double *outRow = os + i * dv;
        std::fill(outRow, outRow + dv, 0.0);
        double *lseOut = lse ? lse + slice * nq + i : nullptr;
        if (lseOut)
          *lseOut = kNegInf;

        double maxLogit = kNegInf;
        bool visibleNaN = false, visibleNegInf = false;
        for (int64_t j = 0; j < nk; ++j) {
          bool excluded = (mask && mask[j] == 0) ||
                          (bias && bias[j] == kNegInf) ||
                          !visible(options, b, h, i, j, nq, nk);
          if (excluded) {
            logits[j] = kNegInf;
            continue;
          }
          double logit = options.scale * dot(qs + i * d, ks + j * d, d);
          // A finite score or bias below -FLT_MAX / log2(e) is that bound,
          // as the compiled code's base-2 f32 logits hold it (never -inf,
          // which masks; docs/layouts.md, NaN policy): such keys are not
          // told apart, in both (a 2026-11-30 audit saw --check fail on
          // the lse of a row of such keys with large logits).
          if (options.score)
            logit = saturateLowest(options.score(logit, b, h, i, j));
          if (bias)
            logit += saturateLowest(bias[j]);
          logits[j] = logit;
          if (logit == kNegInf) {
            visibleNegInf = true;
            continue;
          }
          // std::max would drop a NaN (and a row of NaN logits would read
          // as a row without a visible key).
          visibleNaN = visibleNaN || std::isnan(logit);
          maxLogit = std::max(maxLogit, logit);
        }
        // A visible NaN logit makes the row NaN (docs/layouts.md, "NaN
        // policy"). So does a row whose visible logits are all -inf (an
        // input of -inf) without a bias, key mask or score region: nothing
        // can mask there, so such a logit is not a masked key; on every
        // target it is an f32 overflow, and PyTorch gives NaN too (it was
        // 0 here, a 2026-11-30 audit).
        bool allNegInf = maxLogit == kNegInf && visibleNegInf && !mask &&
                         !bias && !options.score;
        if (visibleNaN || allNegInf) {
          std::fill(outRow, outRow + dv,
                    std::numeric_limits<double>::quiet_NaN());
          if (lseOut)
            *lseOut = std::numeric_limits<double>::quiet_NaN();
          continue;
        }
        // No admissible key: the row stays zero rather than 0/0.
        if (maxLogit == kNegInf)
          continue;

        double sum = 0.0;
        for (int64_t j = 0; j < nk; ++j) {
          if (logits[j] == kNegInf)
            continue;
          double weight = std::exp(logits[j] - maxLogit);
          sum += weight;
          const double *vRow = vs + j * dv;
          for (int64_t c = 0; c < dv; ++c)
            outRow[c] += weight * vRow[c];
        }
        for (int64_t c = 0; c < dv; ++c)
          outRow[c] /= sum;
        // The compiled tile loop works in base-2 f32 logits, which cannot
        // go below -FLT_MAX: a row whose visible logits are all below
        // -FLT_MAX * ln 2 (biases such as finfo(float32).min) has that lse
        // there, as documented (docs/layouts.md, NaN policy); the outputs
        // are unaffected.
        if (lseOut)
          *lseOut = std::max(maxLogit + std::log(sum),
                             -double(std::numeric_limits<float>::max()) *
                                 std::log(2.0));
      }
    }
  }
}

double attic::ref::defaultScale(int64_t headDim) {
  assert(headDim > 0 && "head dimension must be positive");
  return 1.0 / std::sqrt(static_cast<double>(headDim));
}

ErrorStats attic::ref::compare(const double *actual, const double *expected,
                               int64_t n, double floor) {
  ErrorStats stats{0.0, 0.0, 0, n};
  double maxExpected = 0.0;
  for (int64_t i = 0; i < n; ++i) {
    // The same infinity on both sides (the lse of a row with no admissible
    // key is -inf) is an exact match, and so is NaN where the reference is
    // NaN (a row with a visible NaN logit; attic-run still reports
    // non-finite results of finite inputs apart).
    if (std::isinf(actual[i]) && actual[i] == expected[i])
      continue;
    if (std::isnan(actual[i]) && std::isnan(expected[i]))
      continue;
    if (!std::isfinite(actual[i]))
      ++stats.nonFinite;
    double diff = std::fabs(actual[i] - expected[i]);
    // A NaN difference must not vanish in std::max; report it as infinite.
    if (!std::isfinite(diff))
      diff = std::numeric_limits<double>::infinity();
    stats.maxAbs = std::max(stats.maxAbs, diff);
    if (std::isfinite(expected[i]))
      maxExpected = std::max(maxExpected, std::fabs(expected[i]));
  }
  stats.maxRel = stats.maxAbs / std::max({maxExpected, floor,
                                          std::numeric_limits<double>::min()});
  return stats;
}
