//===- BaselinesTest.cpp - Benchmark baselines vs. the reference ----------===//

#include "attic/Reference/Attention.h"
#include "attic/bench/Baselines.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

namespace {
struct Case {
  int64_t b, h, nq, nk, d, dv;
  bool causal;
};

using AttentionFn = void (*)(int64_t, int64_t, int64_t, int64_t, int64_t,
                             int64_t, const float *, const float *,
                             const float *, float, bool, float *);

std::vector<float> randomValues(size_t n, std::mt19937 &rng) {
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> values(n);
  for (float &value : values)
    value = dist(rng);
  return values;
}

/// Runs `fn` on random inputs and returns maxRel against the reference.
double relativeError(AttentionFn fn, const Case &c, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<float> q = randomValues(c.b * c.h * c.nq * c.d, rng);
  std::vector<float> k = randomValues(c.b * c.h * c.nk * c.d, rng);
  std::vector<float> v = randomValues(c.b * c.h * c.nk * c.dv, rng);
  const size_t outSize = c.b * c.h * c.nq * c.dv;
  float scale = static_cast<float>(attic::ref::defaultScale(c.d));

  std::vector<float> out(outSize, NAN);
  fn(c.b, c.h, c.nq, c.nk, c.d, c.dv, q.data(), k.data(), v.data(), scale,
     c.causal, out.data());

  // The reference sees exactly the f32 inputs, widened.
  std::vector<double> qd(q.begin(), q.end()), kd(k.begin(), k.end()),
      vd(v.begin(), v.end()), expected(outSize);
  attic::ref::AttentionOptions options;
  options.scale = scale;
  options.causal = c.causal;
  attic::ref::attention({c.b, c.h, c.nq, c.nk, c.d, c.dv}, qd.data(),
                        kd.data(), vd.data(), options, expected.data());

  std::vector<double> actual(out.begin(), out.end());
  attic::ref::ErrorStats stats =
      attic::ref::compare(actual.data(), expected.data(), outSize);
  EXPECT_EQ(stats.nonFinite, 0);
  return stats.maxRel;
}

// Includes Nq > 256 so the BLAS version crosses a row-block boundary, and
// Nq > Nk / Nq < Nk for top-left causal alignment.
const Case kCases[] = {
    {1, 1, 1, 1, 1, 1, false},     {1, 1, 1, 1, 1, 1, true},
    {2, 3, 7, 7, 8, 8, false},     {2, 3, 7, 7, 8, 8, true},
    {1, 2, 5, 13, 16, 4, false},   {1, 2, 5, 13, 16, 4, true},
    {2, 1, 19, 6, 4, 12, false},   {2, 1, 19, 6, 4, 12, true},
    {1, 2, 300, 280, 32, 16, false}, {1, 2, 300, 280, 32, 16, true},
    {1, 1, 600, 520, 16, 24, true},  {1, 1, 520, 600, 16, 24, true},
};
} // namespace

TEST(Baselines, NaiveMatchesReference) {
  unsigned seed = 1;
  for (const Case &c : kCases)
    EXPECT_LE(relativeError(attic::bench::naiveAttention, c, seed++), 1e-5)
        << "B=" << c.b << " H=" << c.h << " Nq=" << c.nq << " Nk=" << c.nk
        << " D=" << c.d << " Dv=" << c.dv << " causal=" << c.causal;
}

TEST(Baselines, BlasMatchesReference) {
  unsigned seed = 1;
  for (const Case &c : kCases)
    EXPECT_LE(relativeError(attic::bench::blasAttention, c, seed++), 1e-5)
        << "B=" << c.b << " H=" << c.h << " Nq=" << c.nq << " Nk=" << c.nk
        << " D=" << c.d << " Dv=" << c.dv << " causal=" << c.causal;
}

TEST(Baselines, CausalDiffersFromFull) {
  // Guards against a causal flag that is silently ignored.
  Case full{1, 1, 6, 6, 4, 4, false}, causal{1, 1, 6, 6, 4, 4, true};
  for (AttentionFn fn :
       {attic::bench::naiveAttention, attic::bench::blasAttention}) {
    std::mt19937 rng(7);
    std::vector<float> q = randomValues(24, rng), k = randomValues(24, rng),
                       v = randomValues(24, rng);
    std::vector<float> outFull(24), outCausal(24);
    fn(1, 1, 6, 6, 4, 4, q.data(), k.data(), v.data(), 0.5f, full.causal,
       outFull.data());
    fn(1, 1, 6, 6, 4, 4, q.data(), k.data(), v.data(), 0.5f, causal.causal,
       outCausal.data());
    // Row 0 under causal is exactly v[0]; the last rows agree.
    for (int c = 0; c < 4; ++c) {
      EXPECT_NEAR(outCausal[c], v[c], 1e-6);
      EXPECT_NEAR(outCausal[20 + c], outFull[20 + c], 1e-5);
    }
    EXPECT_GT(std::fabs(outCausal[0] - outFull[0]), 1e-4);
  }
}

TEST(Baselines, HugeLogitsDoNotOverflow) {
  // Identical keys with logits near 1000: exp without max-subtraction would
  // overflow f32, while the right answer is the mean of the value rows.
  const int64_t nk = 5, d = 4, dv = 3;
  std::vector<float> q(d, 20.0f), k(nk * d, 12.5f), v(nk * dv);
  for (int64_t i = 0; i < nk * dv; ++i)
    v[i] = static_cast<float>(i % 7);
  for (AttentionFn fn :
       {attic::bench::naiveAttention, attic::bench::blasAttention}) {
    std::vector<float> out(dv, NAN);
    fn(1, 1, 1, nk, d, dv, q.data(), k.data(), v.data(), 1.0f, false,
       out.data());
    for (int64_t c = 0; c < dv; ++c) {
      float mean = 0.0f;
      for (int64_t j = 0; j < nk; ++j)
        mean += v[j * dv + c] / nk;
      EXPECT_NEAR(out[c], mean, 1e-5f);
    }
  }
}

TEST(Baselines, SgemmGflopsIsPositive) {
  double gflops = attic::bench::sgemmGflops(64, 3);
  EXPECT_TRUE(std::isfinite(gflops));
  EXPECT_GT(gflops, 0.0);
}
