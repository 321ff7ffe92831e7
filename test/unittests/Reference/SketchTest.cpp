//===- SketchTest.cpp - reference semantics of sketched attention ---------===//
//
// The exact and statistical properties of attic::ref::sketch
// (docs/sketches.md), against a plain softmax attention written here:
//  - Skeinformer: d = Nk is exact (every variant); V = 1 gives 1; Q = 0
//    gives mean(V); rows are convex combinations of V; pilot rows are exact
//    and the other rows do not depend on pilot reuse; the pilot rows and the
//    sampled keys are the spec's Philox draws (recomputed here), the sampled
//    keys distinct, w = 0 keys last; the output is the spec's adaptive (or
//    simple) normalization over the sampled keys; the first sampled key is
//    distributed as w (Gumbel-max); seed determinism; the mean relative
//    error over 20 seeds falls as d = 32, 64, 128, 256 at N = 1024 and beats
//    the uniform-sampling ablation at d = 128;
//  - Drineas' column-sampling estimator (Def. 3.1) is unbiased: the mean of
//    T estimates is within its exact variance / T, the mean squared error of
//    one estimate is the exact variance; a biased variant is far outside;
//  - Informer: u = Nq is exact, the other rows are mean(V), the active
//    queries are the spec's measure's top u; the default counts;
//  - Nystromformer: p = N landmarks is exact (1e-4); p < N is exact when K is
//    constant over each segment; the pseudo-inverse iteration converges to
//    the inverse and, on a rank-deficient matrix, to the Moore-Penrose
//    pseudo-inverse; the convolution skip adds shifted V;
//  - Linformer: identity and permutation projections are exact, F scales the
//    values, per-head projections are per head, padded rows do not count;
//  - Synthesizer: softmax(R1 R2^T) V with causal and key masks;
//  - bad input throws std::invalid_argument naming the argument.
//
//===----------------------------------------------------------------------===//

#include "attic/Reference/Sketch.h"
#include "attic/runtime/Runtime.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <numeric>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

namespace sk = attic::ref::sketch;

std::vector<double> gaussian(std::mt19937_64 &rng, size_t n, double scale) {
  std::normal_distribution<double> dist(0.0, scale);
  std::vector<double> v(n);
  for (double &x : v)
    x = dist(rng);
  return v;
}

/// Key j visible to query i of batch b.
using Visible = std::function<bool(int64_t b, int64_t i, int64_t j)>;

/// Exact softmax attention, written here: [B,H,Nq,Dv]; a row with no
/// visible key is 0.
std::vector<double> exact(const sk::Dims &d, const std::vector<double> &q,
                          const std::vector<double> &k,
                          const std::vector<double> &v, double scale,
                          const Visible &visible = nullptr) {
  std::vector<double> out(size_t(d.batch * d.heads * d.queries * d.valueDim));
  std::vector<double> s(static_cast<size_t>(d.keys));
  for (int64_t b = 0; b < d.batch; ++b)
    for (int64_t h = 0; h < d.heads; ++h) {
      int64_t bh = b * d.heads + h;
      for (int64_t i = 0; i < d.queries; ++i) {
        double top = -HUGE_VAL, sum = 0;
        for (int64_t j = 0; j < d.keys; ++j) {
          if (visible && !visible(b, i, j)) {
            s[size_t(j)] = -HUGE_VAL;
            continue;
          }
          double x = 0;
          for (int64_t e = 0; e < d.dim; ++e)
            x += q[size_t((bh * d.queries + i) * d.dim + e)] *
                 k[size_t((bh * d.keys + j) * d.dim + e)];
          s[size_t(j)] = scale * x;
          top = std::max(top, s[size_t(j)]);
        }
        if (top == -HUGE_VAL)
          continue;
        for (double &x : s) {
          x = std::exp(x - top);
          sum += x;
        }
        for (int64_t j = 0; j < d.keys; ++j)
          for (int64_t e = 0; e < d.valueDim; ++e)
            out[size_t((bh * d.queries + i) * d.valueDim + e)] +=
                s[size_t(j)] / sum *
                v[size_t((bh * d.keys + j) * d.valueDim + e)];
      }
    }
  return out;
}

/// max |a - b|; infinity where one is NaN or they are unequal infinities
/// (std::max would skip a NaN, and an all-NaN result would pass).
double maxDiff(const std::vector<double> &a, const std::vector<double> &b) {
  EXPECT_EQ(a.size(), b.size());
  double m = 0;
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
    if (a[i] == b[i])
      continue;
    double d = std::abs(a[i] - b[i]);
    m = std::isnan(d) ? INFINITY : std::max(m, d);
  }
  return m;
}

double relFrobenius(const std::vector<double> &a,
                    const std::vector<double> &b) {
  double num = 0, den = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    num += (a[i] - b[i]) * (a[i] - b[i]);
    den += b[i] * b[i];
  }
  return std::sqrt(num / den);
}

sk::Dims dims(int64_t batch, int64_t heads, int64_t queries, int64_t keys,
              int64_t dim, int64_t valueDim) {
  sk::Dims d;
  d.batch = batch;
  d.heads = heads;
  d.queries = queries;
  d.keys = keys;
  d.dim = dim;
  d.valueDim = valueDim;
  return d;
}

struct Qkv {
  std::vector<double> q, k, v;
};

Qkv randomQkv(const sk::Dims &d, uint64_t seed, double scale = 1.0) {
  std::mt19937_64 rng(seed);
  int64_t bh = d.batch * d.heads;
  Qkv in;
  in.q = gaussian(rng, size_t(bh * d.queries * d.dim), scale);
  in.k = gaussian(rng, size_t(bh * d.keys * d.dim), scale);
  in.v = gaussian(rng, size_t(bh * d.keys * d.valueDim), 1.0);
  return in;
}

/// Word 0 of the runtime's Philox, as docs/sketches.md draws it.
uint32_t philox(uint64_t seed, uint64_t stream, uint64_t counter) {
  uint32_t out[4];
  attic_philox4x32(seed, stream, counter, out);
  return out[0];
}

/// Per (b, h) and column e: the mean of V over the keys.
double meanV(const sk::Dims &d, const std::vector<double> &v, int64_t bh,
             int64_t e) {
  double mean = 0;
  for (int64_t j = 0; j < d.keys; ++j)
    mean += v[size_t((bh * d.keys + j) * d.valueDim + e)];
  return mean / double(d.keys);
}

/// Expects `call` to throw std::invalid_argument whose message contains
/// `name`.
void expectInvalid(const std::function<void()> &call, const std::string &name) {
  try {
    call();
    ADD_FAILURE() << "no exception; expected one naming '" << name << "'";
  } catch (const std::invalid_argument &error) {
    EXPECT_NE(std::string(error.what()).find(name), std::string::npos)
        << "message '" << error.what() << "' does not name '" << name << "'";
  }
}

//===----------------------------------------------------------------------===//
// Skeinformer
//===----------------------------------------------------------------------===//

TEST(SketchReference, SkeinformerAllKeysIsExact) {
  // Cross attention (Nq != Nk), two batches and heads, every variant.
  sk::Dims d = dims(2, 2, 96, 128, 16, 8);
  Qkv in = randomQkv(d, 1);
  std::vector<double> ref = exact(d, in.q, in.k, in.v, 0.25);
  for (bool uniform : {false, true})
    for (bool simple : {false, true})
      for (bool reuse : {false, true}) {
        sk::SkeinOptions o;
        o.samples = 128;
        o.seed = 17;
        o.uniformSampling = uniform;
        o.simpleNormalization = simple;
        o.pilotReuse = reuse;
        EXPECT_LT(maxDiff(sk::skeinformer(d, o, in.q, in.k, in.v), ref), 1e-12)
            << "uniform " << uniform << " simple " << simple << " reuse "
            << reuse;
      }
}

TEST(SketchReference, SkeinformerConvexCombinations) {
  sk::Dims d = dims(1, 2, 128, 128, 16, 8);
  Qkv in = randomQkv(d, 2, 2.0);
  std::vector<double> ones(in.v.size(), 1.0);
  std::vector<double> zeros(in.q.size(), 0.0);
  for (bool uniform : {false, true})
    for (bool reuse : {true, false}) {
      sk::SkeinOptions o;
      o.samples = 16;
      o.seed = 3;
      o.uniformSampling = uniform;
      o.pilotReuse = reuse;
      for (double x : sk::skeinformer(d, o, in.q, in.k, ones))
        ASSERT_NEAR(x, 1.0, 1e-12);
      // Q = 0: every logit is 0, the fill is exact, the result mean(V).
      std::vector<double> out = sk::skeinformer(d, o, zeros, in.k, in.v);
      for (int64_t h = 0; h < 2; ++h)
        for (int64_t e = 0; e < 8; ++e)
          for (int64_t i = 0; i < 128; ++i)
            ASSERT_NEAR(out[size_t((h * 128 + i) * 8 + e)],
                        meanV(d, in.v, h, e), 1e-12);
      // Per coordinate within [min_j v_je, max_j v_je].
      out = sk::skeinformer(d, o, in.q, in.k, in.v);
      for (int64_t h = 0; h < 2; ++h)
        for (int64_t e = 0; e < 8; ++e) {
          double lo = HUGE_VAL, hi = -HUGE_VAL;
          for (int64_t j = 0; j < 128; ++j) {
            lo = std::min(lo, in.v[size_t((h * 128 + j) * 8 + e)]);
            hi = std::max(hi, in.v[size_t((h * 128 + j) * 8 + e)]);
          }
          for (int64_t i = 0; i < 128; ++i) {
            EXPECT_GE(out[size_t((h * 128 + i) * 8 + e)], lo - 1e-12);
            EXPECT_LE(out[size_t((h * 128 + i) * 8 + e)], hi + 1e-12);
          }
        }
    }
}

TEST(SketchReference, SkeinformerPilotRowsAreExact) {
  sk::Dims d = dims(2, 2, 128, 128, 16, 8);
  Qkv in = randomQkv(d, 4);
  sk::SkeinOptions o;
  o.samples = 24;
  o.seed = 9;
  std::vector<double> out = sk::skeinformer(d, o, in.q, in.k, in.v);
  std::vector<double> ref = exact(d, in.q, in.k, in.v, 0.25);
  std::vector<int64_t> rows = sk::skeinformerPilotRows(d, o);
  ASSERT_EQ(rows.size(), 24u);
  std::set<int64_t> pilot(rows.begin(), rows.end());
  // The spec's draw: philox(seed, 48, k)[0] * Nq >> 32.
  for (int64_t k = 0; k < 24; ++k)
    EXPECT_EQ(rows[size_t(k)],
              int64_t((uint64_t(philox(9, 48, uint64_t(k))) * 128) >> 32));
  o.pilotReuse = false;
  std::vector<double> noReuse = sk::skeinformer(d, o, in.q, in.k, in.v);
  double pilotChange = 0;
  for (int64_t bh = 0; bh < 4; ++bh)
    for (int64_t i = 0; i < 128; ++i)
      for (int64_t e = 0; e < 8; ++e) {
        size_t at = size_t((bh * 128 + i) * 8 + e);
        if (pilot.count(i)) {
          // Exact with reuse, the sketch without it.
          EXPECT_NEAR(out[at], ref[at], 1e-12);
          pilotChange = std::max(pilotChange, std::abs(noReuse[at] - ref[at]));
        } else {
          EXPECT_EQ(out[at], noReuse[at]);
        }
      }
  EXPECT_GT(pilotChange, 1e-3);
}

TEST(SketchReference, SkeinformerColumnsAreTheSpecDraws) {
  // J' recomputed here from the spec: B_J from the exact softmax, w_j =
  // |B_J[:, j]| |v_j|, keys ln w_j + G_j with G_j from philox(seed, 49,
  // r * Nk + j), the d largest in decreasing order.
  sk::Dims d = dims(2, 2, 64, 96, 16, 8);
  Qkv in = randomQkv(d, 5);
  sk::SkeinOptions o;
  o.samples = 20;
  o.seed = 123;
  std::vector<int64_t> cols = sk::skeinformerColumns(d, o, in.q, in.k, in.v);
  std::vector<int64_t> rows = sk::skeinformerPilotRows(d, o);
  ASSERT_EQ(cols.size(), 4u * 20u);
  // Each pilot row's softmax: exact() with V = the identity columns.
  sk::Dims probe = d;
  probe.valueDim = d.keys;
  std::vector<double> eye(size_t(4 * 96 * 96), 0.0);
  for (int64_t bh = 0; bh < 4; ++bh)
    for (int64_t j = 0; j < 96; ++j)
      eye[size_t((bh * 96 + j) * 96 + j)] = 1.0;
  std::vector<double> probs = exact(probe, in.q, in.k, eye, 0.25);
  for (int64_t bh = 0; bh < 4; ++bh) {
    std::vector<double> keys(96);
    for (int64_t j = 0; j < 96; ++j) {
      double colSq = 0, vSq = 0;
      for (int64_t r : rows) {
        double b = probs[size_t((bh * 64 + r) * 96 + j)];
        colSq += b * b;
      }
      for (int64_t e = 0; e < 8; ++e)
        vSq += in.v[size_t((bh * 96 + j) * 8 + e)] *
               in.v[size_t((bh * 96 + j) * 8 + e)];
      double u =
          ((philox(123, 49, uint64_t(bh * 96 + j)) >> 8) + 0.5) / 16777216.0;
      keys[size_t(j)] =
          std::log(std::sqrt(colSq * vSq)) - std::log(-std::log(u));
    }
    std::vector<int64_t> order(96);
    std::iota(order.begin(), order.end(), 0);
    // Stable: the lower index first on ties.
    std::sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
      double ka = keys[size_t(a)], kb = keys[size_t(b)];
      return ka > kb || (ka == kb && a < b);
    });
    std::vector<int64_t> head(cols.begin() + bh * 20,
                              cols.begin() + bh * 20 + 20);
    EXPECT_EQ(head, std::vector<int64_t>(order.begin(), order.begin() + 20))
        << "head row " << bh;
    std::set<int64_t> distinct(head.begin(), head.end());
    EXPECT_EQ(distinct.size(), 20u);
    EXPECT_GE(*distinct.begin(), 0);
    EXPECT_LT(*distinct.rbegin(), 96);
  }
  // w = 0 (v_j = 0): ln 0 = -inf, so with d = Nk those keys come last, the
  // lower index first.
  for (int64_t j : {70, 3, 41})
    for (int64_t e = 0; e < 8; ++e)
      in.v[size_t(j * 8 + e)] = 0.0; // batch 0, head 0
  o.samples = 96;
  cols = sk::skeinformerColumns(d, o, in.q, in.k, in.v);
  EXPECT_EQ(std::vector<int64_t>(cols.begin() + 93, cols.begin() + 96),
            (std::vector<int64_t>{3, 41, 70}));
  EXPECT_EQ(std::set<int64_t>(cols.begin(), cols.begin() + 96).size(), 96u);
}

TEST(SketchReference, SkeinformerIsTheNormalizationOverItsSamples) {
  // Given J', the output (without pilot reuse) is the spec's step 5,
  // computed here plainly (logits are small: no shift needed).
  sk::Dims d = dims(1, 2, 48, 64, 16, 4);
  Qkv in = randomQkv(d, 6);
  for (bool simple : {false, true}) {
    sk::SkeinOptions o;
    o.samples = 10;
    o.seed = 77;
    o.pilotReuse = false;
    o.simpleNormalization = simple;
    std::vector<double> out = sk::skeinformer(d, o, in.q, in.k, in.v);
    std::vector<int64_t> cols = sk::skeinformerColumns(d, o, in.q, in.k, in.v);
    for (int64_t h = 0; h < 2; ++h) {
      std::vector<int64_t> set(cols.begin() + h * 10,
                               cols.begin() + h * 10 + 10);
      for (int64_t i = 0; i < 48; ++i) {
        std::vector<double> s(64);
        double g = 0;
        for (int64_t j = 0; j < 64; ++j) {
          double x = 0;
          for (int64_t e = 0; e < 16; ++e)
            x += in.q[size_t((h * 48 + i) * 16 + e)] *
                 in.k[size_t((h * 64 + j) * 16 + e)];
          s[size_t(j)] = 0.25 * x;
        }
        for (int64_t j : set)
          g += s[size_t(j)] / 10.0;
        for (int64_t e = 0; e < 4; ++e) {
          double num = 0, den = 0;
          for (int64_t j = 0; j < 64; ++j) {
            bool in_ = std::find(set.begin(), set.end(), j) != set.end();
            if (!in_ && simple)
              continue;
            double a = std::exp(in_ ? s[size_t(j)] : g);
            num += a * in.v[size_t((h * 64 + j) * 4 + e)];
            den += a;
          }
          EXPECT_NEAR(out[size_t((h * 48 + i) * 4 + e)], num / den, 1e-12);
        }
      }
    }
  }
}

TEST(SketchReference, SkeinformerSeedDeterminism) {
  sk::Dims d = dims(1, 2, 128, 128, 16, 8);
  Qkv in = randomQkv(d, 7);
  sk::SkeinOptions o;
  o.samples = 24;
  o.seed = 9;
  std::vector<double> out = sk::skeinformer(d, o, in.q, in.k, in.v);
  EXPECT_EQ(out, sk::skeinformer(d, o, in.q, in.k, in.v));
  o.seed = 10;
  EXPECT_GT(maxDiff(out, sk::skeinformer(d, o, in.q, in.k, in.v)), 1e-6);
  o.uniformSampling = true;
  std::vector<double> uniform = sk::skeinformer(d, o, in.q, in.k, in.v);
  EXPECT_EQ(uniform, sk::skeinformer(d, o, in.q, in.k, in.v));
  o.seed = 9;
  EXPECT_GT(maxDiff(uniform, sk::skeinformer(d, o, in.q, in.k, in.v)), 1e-6);
}

TEST(SketchReference, SkeinformerFirstSampleFollowsTheWeights) {
  // Q = 0: B_J is uniform, so w_j is proportional to |v_j|; the largest
  // ln w_j + G_j (J'[0]) is key j with probability w_j / sum w (Gumbel-max).
  // Chi-square over T seeds, 7 degrees of freedom (99.9% quantile 24.3).
  const int64_t N = 8, T = 8000;
  sk::Dims d = dims(1, 1, N, N, 4, 1);
  std::vector<double> q(N * 4, 0.0), k(N * 4, 0.0), v(N);
  double total = 0;
  for (int64_t j = 0; j < N; ++j) {
    v[size_t(j)] = (j % 2 ? -1.0 : 1.0) * double(j + 1); // |v_j| = j + 1
    total += double(j + 1);
  }
  for (bool uniform : {false, true}) {
    std::vector<double> counts(N, 0.0);
    for (int64_t seed = 0; seed < T; ++seed) {
      sk::SkeinOptions o;
      o.samples = 2;
      o.seed = uint64_t(seed);
      o.uniformSampling = uniform;
      counts[size_t(sk::skeinformerColumns(d, o, q, k, v)[0])] += 1;
    }
    double chi2 = 0, chi2Other = 0;
    for (int64_t j = 0; j < N; ++j) {
      double weighted = T * double(j + 1) / total, flat = double(T) / N;
      double want = uniform ? flat : weighted,
             other = uniform ? weighted : flat;
      chi2 += (counts[size_t(j)] - want) * (counts[size_t(j)] - want) / want;
      chi2Other +=
          (counts[size_t(j)] - other) * (counts[size_t(j)] - other) / other;
    }
    std::printf("%s: chi2 %.2f against its law, %.1f against the other\n",
                uniform ? "uniform" : "importance", chi2, chi2Other);
    EXPECT_LT(chi2, 24.3) << (uniform ? "uniform" : "importance");
    EXPECT_GT(chi2Other, 500.0) << (uniform ? "uniform" : "importance");
  }
}

TEST(SketchReference, SkeinformerErrorFallsWithSamples) {
  // N = 1024, D = 32, Gaussian rows (std::mt19937_64 seed 5): the mean
  // relative Frobenius error over seeds 0..19. Measured (adaptive
  // normalization, pilot reuse): d = 32: 0.7298, 64: 0.7114, 128: 0.6736,
  // 256: 0.5857. At d = 128 (per-seed range in brackets): Skeinformer
  // 0.6736 [0.656, 0.691]; the uniform-sampling ablation 0.7230 [0.712,
  // 0.739]; Skeinformer without pilot reuse 0.7160 [0.695, 0.731], so most
  // of the gain over uniform sampling here is the 128 exact pilot rows; the
  // simple-normalization ablation 2.2724 [2.10, 2.50]. Asserted: the falls
  // (each step within 0.005 of the previous, d = 256 below d = 32 by 0.05)
  // and the ablations' order with margins well outside the seed spread.
  sk::Dims d = dims(1, 1, 1024, 1024, 32, 32);
  Qkv in = randomQkv(d, 5);
  std::vector<double> ref = exact(d, in.q, in.k, in.v, 1.0 / std::sqrt(32.0));
  auto meanError = [&](int64_t samples, bool uniform, bool simple) {
    double sum = 0;
    for (uint64_t seed = 0; seed < 20; ++seed) {
      sk::SkeinOptions o;
      o.samples = samples;
      o.seed = seed;
      o.uniformSampling = uniform;
      o.simpleNormalization = simple;
      sum += relFrobenius(sk::skeinformer(d, o, in.q, in.k, in.v), ref);
    }
    return sum / 20;
  };
  std::vector<double> means;
  for (int64_t samples : {32, 64, 128, 256}) {
    means.push_back(meanError(samples, false, false));
    std::printf("d = %lld: mean relative error %.4f\n", (long long)samples,
                means.back());
  }
  for (size_t i = 1; i < means.size(); ++i)
    EXPECT_LE(means[i], means[i - 1] + 0.005) << "d index " << i;
  EXPECT_LT(means.back(), means.front() - 0.05);
  double uniform = meanError(128, true, false);
  double simple = meanError(128, false, true);
  std::printf("d = 128: uniform sampling %.4f, simple normalization %.4f\n",
              uniform, simple);
  EXPECT_LT(means[2], uniform - 0.02);
  EXPECT_GT(simple, 2 * means[2]);
}

//===----------------------------------------------------------------------===//
// Drineas et al.'s estimator
//===----------------------------------------------------------------------===//

TEST(SketchReference, ColumnSamplingIsUnbiased) {
  // B = softmax rows, C Gaussian; p = the optimal Drineas probabilities.
  const int64_t m = 64, n = 256, c = 16, d = 16, T = 2000;
  std::mt19937_64 rng(6);
  std::vector<double> logits = gaussian(rng, size_t(m * n), 1.5);
  std::vector<double> b(size_t(m * n));
  for (int64_t i = 0; i < m; ++i) {
    double sum = 0;
    for (int64_t j = 0; j < n; ++j)
      sum += b[size_t(i * n + j)] = std::exp(logits[size_t(i * n + j)]);
    for (int64_t j = 0; j < n; ++j)
      b[size_t(i * n + j)] /= sum;
  }
  std::vector<double> cm = gaussian(rng, size_t(n * c), 1.0);
  std::vector<double> p(n), colSq(n), rowSq(n);
  double total = 0;
  for (int64_t j = 0; j < n; ++j) {
    double s = 0, r = 0;
    for (int64_t i = 0; i < m; ++i)
      s += b[size_t(i * n + j)] * b[size_t(i * n + j)];
    for (int64_t e = 0; e < c; ++e)
      r += cm[size_t(j * c + e)] * cm[size_t(j * c + e)];
    colSq[size_t(j)] = s;
    rowSq[size_t(j)] = r;
    total += p[size_t(j)] = std::sqrt(s * r);
  }
  for (double &x : p)
    x /= total;
  std::vector<double> bc(size_t(m * c), 0.0);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j)
      for (int64_t e = 0; e < c; ++e)
        bc[size_t(i * c + e)] += b[size_t(i * n + j)] * cm[size_t(j * c + e)];
  double bcNorm = 0, weighted = 0;
  for (double x : bc)
    bcNorm += x * x;
  for (int64_t j = 0; j < n; ++j)
    weighted += colSq[size_t(j)] * rowSq[size_t(j)] / p[size_t(j)];
  const double variance = (weighted - bcNorm) / double(d); // E|est - BC|_F^2
  // The biased variant (weights without 1/p): the estimator applied to
  // B' = B diag(p), so that B'[:, i] / p_i = B[:, i], with the same draws.
  std::vector<double> bp(b);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j)
      bp[size_t(i * n + j)] *= p[size_t(j)];
  std::vector<double> mean(size_t(m * c), 0.0), biasedMean(size_t(m * c), 0.0);
  double meanSquared = 0;
  for (int64_t t = 0; t < T; ++t) {
    std::vector<double> est =
        sk::columnSamplingEstimate(m, n, c, b, cm, p, d, uint64_t(t));
    std::vector<double> biased =
        sk::columnSamplingEstimate(m, n, c, bp, cm, p, d, uint64_t(t));
    for (size_t i = 0; i < mean.size(); ++i) {
      mean[i] += est[i] / double(T);
      biasedMean[i] += biased[i] / double(T);
      meanSquared += (est[i] - bc[i]) * (est[i] - bc[i]) / double(T);
    }
  }
  double err = 0, biasedErr = 0;
  for (size_t i = 0; i < mean.size(); ++i) {
    err += (mean[i] - bc[i]) * (mean[i] - bc[i]);
    biasedErr += (biasedMean[i] - bc[i]) * (biasedMean[i] - bc[i]);
  }
  const double bound = variance / double(T);
  std::printf("|BC|^2 %.4g, variance %.6g, E|est - BC|^2 measured %.6g; "
              "|mean - BC|^2 = %.3f x variance / T; biased: %.3g x\n",
              bcNorm, variance, meanSquared, err / bound, biasedErr / bound);
  // Measured: variance 321.77, one estimate's mean squared error 322.40,
  // |mean - BC|^2 = 1.041 x variance / T.
  // Unbiased: E|mean - BC|^2 = variance / T, a sum of m c = 1024 terms.
  EXPECT_GT(err, 0.5 * bound);
  EXPECT_LT(err, 1.5 * bound);
  // One estimate's mean squared error is the exact variance.
  EXPECT_NEAR(meanSquared / variance, 1.0, 0.1);
  // The bound has power: the same mean is far from 1.2 B C. (|BC|_F^2 is
  // about 26 here against one estimate's variance 322, so a bias much
  // below 10% would go unseen at T = 2000.)
  double scaledErr = 0;
  for (size_t i = 0; i < mean.size(); ++i)
    scaledErr += (mean[i] - 1.2 * bc[i]) * (mean[i] - 1.2 * bc[i]);
  EXPECT_GT(scaledErr, 3 * bound);
  // Without 1/p the estimator is far off (measured: 158 x variance / T).
  EXPECT_GT(biasedErr, 20 * bound);
}

TEST(SketchReference, ColumnSamplingDrawsAreTheSpecInverseCdf) {
  // p uniform over n = 2^20 (its partial sums are exact): draw 0 is the first
  // i with (i + 1) / n >= u, u = ((w >> 8) + 0.5) 2^-24, w = philox(seed,
  // 51, 0)[0]; B[0, i] = i and C = 1 make the estimate (d = 1) i / p_i.
  const int64_t n = int64_t(1) << 20;
  std::vector<double> b(static_cast<size_t>(n)), cm(size_t(n), 1.0),
      p(size_t(n), 1.0 / double(n));
  std::iota(b.begin(), b.end(), 0.0);
  for (uint64_t seed = 0; seed < 200; ++seed) {
    double u = ((philox(seed, 51, 0) >> 8) + 0.5) / 16777216.0;
    int64_t want = int64_t(std::ceil(u * double(n))) - 1;
    std::vector<double> est =
        sk::columnSamplingEstimate(1, n, 1, b, cm, p, 1, seed);
    ASSERT_EQ(est.size(), 1u);
    EXPECT_EQ(est[0], double(want) * double(n)) << "seed " << seed;
  }
}

//===----------------------------------------------------------------------===//
// Informer
//===----------------------------------------------------------------------===//

TEST(SketchReference, InformerAllActiveIsExactAndTheRestIsTheMean) {
  sk::Dims d = dims(1, 2, 64, 48, 16, 8);
  Qkv in = randomQkv(d, 7);
  std::vector<double> ref = exact(d, in.q, in.k, in.v, 0.25);
  sk::InformerOptions o;
  o.active = 64;
  EXPECT_LT(maxDiff(sk::informer(d, o, in.q, in.k, in.v), ref), 1e-12);
  o.active = 10;
  o.seed = 4;
  std::vector<double> out = sk::informer(d, o, in.q, in.k, in.v);
  std::vector<int64_t> active = sk::informerActive(d, o, in.q, in.k);
  ASSERT_EQ(active.size(), 20u);
  for (int64_t h = 0; h < 2; ++h) {
    std::set<int64_t> set(active.begin() + h * 10,
                          active.begin() + h * 10 + 10);
    EXPECT_EQ(set.size(), 10u);
    for (int64_t i = 0; i < 64; ++i)
      for (int64_t e = 0; e < 8; ++e) {
        size_t at = size_t((h * 64 + i) * 8 + e);
        EXPECT_NEAR(out[at], set.count(i) ? ref[at] : meanV(d, in.v, h, e),
                    1e-12);
      }
  }
}

TEST(SketchReference, InformerActiveAreTheSpecMeasure) {
  // M_i = max_t q_i.k_{j_t} - sum_t q_i.k_{j_t} / Nk with j_t =
  // philox(seed, 50, i * U + t)[0] * Nk >> 32, unscaled; the top u in
  // decreasing order, recomputed here.
  sk::Dims d = dims(2, 1, 40, 56, 8, 4);
  Qkv in = randomQkv(d, 8);
  sk::InformerOptions o;
  o.active = 7;
  o.samples = 9;
  o.seed = 31;
  std::vector<int64_t> active = sk::informerActive(d, o, in.q, in.k);
  ASSERT_EQ(active.size(), 14u);
  for (int64_t bh = 0; bh < 2; ++bh) {
    std::vector<double> measure(40);
    for (int64_t i = 0; i < 40; ++i) {
      double top = -HUGE_VAL, sum = 0;
      for (int64_t t = 0; t < 9; ++t) {
        int64_t j =
            int64_t((uint64_t(philox(31, 50, uint64_t(i * 9 + t))) * 56) >> 32);
        double s = 0;
        for (int64_t e = 0; e < 8; ++e)
          s += in.q[size_t((bh * 40 + i) * 8 + e)] *
               in.k[size_t((bh * 56 + j) * 8 + e)];
        top = std::max(top, s);
        sum += s;
      }
      measure[size_t(i)] = top - sum / 56.0;
    }
    std::vector<int64_t> order(40);
    std::iota(order.begin(), order.end(), 0);
    // Stable: the lower index first on ties.
    std::sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
      double ma = measure[size_t(a)], mb = measure[size_t(b)];
      return ma > mb || (ma == mb && a < b);
    });
    EXPECT_EQ(std::vector<int64_t>(active.begin() + bh * 7,
                                   active.begin() + bh * 7 + 7),
              std::vector<int64_t>(order.begin(), order.begin() + 7));
  }
  // The defaults: u = min(Nq, 5 ceil(ln Nq)), U = min(Nk, 5 ceil(ln Nk)).
  int64_t u = 0, U = 0;
  sk::informerCounts(dims(1, 1, 1000, 30, 4, 4), sk::InformerOptions(), u, U);
  EXPECT_EQ(u, 35); // ceil(6.91) = 7
  EXPECT_EQ(U, 20); // 5 ceil(3.40) = 20 <= 30
  sk::informerCounts(dims(1, 1, 16, 1, 4, 4), sk::InformerOptions(), u, U);
  EXPECT_EQ(u, 15); // 5 ceil(2.77) = 15
  EXPECT_EQ(U, 1);  // ln 1 = 0: at least 1
}

//===----------------------------------------------------------------------===//
// Nystromformer
//===----------------------------------------------------------------------===//

TEST(SketchReference, NystromWithEveryRowALandmarkIsExact) {
  // Q = K = 3 x Gaussian rows (D = 16, scale 1/4): softmax(Q K^T) is
  // diagonally dominant and well conditioned.
  sk::Dims d = dims(2, 2, 64, 64, 16, 8);
  Qkv in = randomQkv(d, 8, 3.0);
  in.k = in.q;
  sk::NystromOptions o;
  o.landmarks = 64;
  o.iterations = 30;
  double diff = maxDiff(sk::nystrom(d, o, in.q, in.k, in.v, {}),
                        exact(d, in.q, in.k, in.v, 0.25));
  std::printf("p = N, Q = K = 3 x Gaussian: max diff %.3g\n", diff);
  EXPECT_LT(diff, 1e-4);
  // Milder logits (0.8 x Gaussian): off-diagonal mass, still exact.
  in = randomQkv(d, 8, 0.8);
  in.k = in.q;
  diff = maxDiff(sk::nystrom(d, o, in.q, in.k, in.v, {}),
                 exact(d, in.q, in.k, in.v, 0.25));
  std::printf("p = N, Q = K = 0.8 x Gaussian: max diff %.3g\n", diff);
  EXPECT_LT(diff, 1e-4);
}

TEST(SketchReference, NystromIsExactWhenKeysAreConstantOverSegments) {
  // K constant over each of the p segments: softmax(s(Qt, K)) V =
  // A Vbar (Vbar: segment means of V) and exact attention is
  // softmax(s(Q, Kt)) Vbar, so out = F1 pinv(A) A Vbar is exact for any Q
  // once A = softmax(s(Qt, Kt)) is invertible. Nq = 48, Nk = 64, p = 8.
  sk::Dims d = dims(1, 2, 48, 64, 16, 4);
  std::mt19937_64 rng(9);
  std::vector<double> segments = gaussian(rng, 2 * 8 * 16, 2.0);
  std::vector<double> q = gaussian(rng, 2 * 48 * 16, 0.5);
  std::vector<double> k(2 * 64 * 16), v = gaussian(rng, 2 * 64 * 4, 1.0);
  for (int64_t h = 0; h < 2; ++h)
    for (int64_t e = 0; e < 16; ++e) {
      for (int64_t j = 0; j < 64; ++j)
        k[size_t((h * 64 + j) * 16 + e)] =
            segments[size_t((h * 8 + j / 8) * 16 + e)];
      for (int64_t i = 0; i < 48; ++i) // near the segment's keys
        q[size_t((h * 48 + i) * 16 + e)] +=
            segments[size_t((h * 8 + i / 6) * 16 + e)];
    }
  sk::NystromOptions o;
  o.landmarks = 8;
  o.iterations = 30;
  std::vector<double> ref = exact(d, q, k, v, 0.25);
  double diff = maxDiff(sk::nystrom(d, o, q, k, v, {}), ref);
  std::printf("p = 8 < N, keys constant over segments: max diff %.3g\n", diff);
  EXPECT_LT(diff, 1e-8);
  // Keys that vary within segments break it (the test can fail).
  std::vector<double> noise = gaussian(rng, k.size(), 1.0);
  for (size_t i = 0; i < k.size(); ++i)
    k[i] += noise[i];
  EXPECT_GT(maxDiff(sk::nystrom(d, o, q, k, v, {}), exact(d, q, k, v, 0.25)),
            1e-3);
}

/// Z = A^-1 by Gauss-Jordan with partial pivoting, written here.
std::vector<double> inverse(int64_t p, std::vector<double> a) {
  std::vector<double> z(size_t(p * p), 0.0);
  for (int64_t i = 0; i < p; ++i)
    z[size_t(i * p + i)] = 1.0;
  for (int64_t c = 0; c < p; ++c) {
    int64_t pivot = c;
    for (int64_t r = c + 1; r < p; ++r)
      if (std::abs(a[size_t(r * p + c)]) > std::abs(a[size_t(pivot * p + c)]))
        pivot = r;
    for (int64_t x = 0; x < p; ++x) {
      std::swap(a[size_t(c * p + x)], a[size_t(pivot * p + x)]);
      std::swap(z[size_t(c * p + x)], z[size_t(pivot * p + x)]);
    }
    double f = a[size_t(c * p + c)];
    for (int64_t x = 0; x < p; ++x) {
      a[size_t(c * p + x)] /= f;
      z[size_t(c * p + x)] /= f;
    }
    for (int64_t r = 0; r < p; ++r)
      if (r != c) {
        double g = a[size_t(r * p + c)];
        for (int64_t x = 0; x < p; ++x) {
          a[size_t(r * p + x)] -= g * a[size_t(c * p + x)];
          z[size_t(r * p + x)] -= g * z[size_t(c * p + x)];
        }
      }
  }
  return z;
}

std::vector<double> product(int64_t p, const std::vector<double> &a,
                            const std::vector<double> &b) {
  std::vector<double> c(size_t(p * p), 0.0);
  for (int64_t i = 0; i < p; ++i)
    for (int64_t t = 0; t < p; ++t)
      for (int64_t j = 0; j < p; ++j)
        c[size_t(i * p + j)] += a[size_t(i * p + t)] * b[size_t(t * p + j)];
  return c;
}

std::vector<double> transposed(int64_t p, const std::vector<double> &a) {
  std::vector<double> t(a.size());
  for (int64_t i = 0; i < p; ++i)
    for (int64_t j = 0; j < p; ++j)
      t[size_t(j * p + i)] = a[size_t(i * p + j)];
  return t;
}

TEST(SketchReference, PseudoInverseConverges) {
  const int64_t p = 16;
  std::mt19937_64 rng(9);
  std::vector<double> a = gaussian(rng, size_t(p * p), 0.1);
  for (int64_t i = 0; i < p; ++i)
    a[size_t(i * p + i)] += 1.0;
  std::vector<double> z = sk::pseudoInverse(p, a, 20);
  EXPECT_LT(maxDiff(product(p, product(p, a, z), a), a), 1e-8);
  EXPECT_LT(maxDiff(z, inverse(p, a)), 1e-8);
  // Z_0 = A^T / (|A|_1 |A|_inf) and two iterations are not there yet.
  EXPECT_GT(maxDiff(sk::pseudoInverse(p, a, 2), z), 1e-3);
  std::vector<double> z0 = sk::pseudoInverse(p, a, 0);
  double rows = 0, columns = 0;
  for (int64_t i = 0; i < p; ++i) {
    double r = 0, c = 0;
    for (int64_t j = 0; j < p; ++j) {
      r += std::abs(a[size_t(i * p + j)]);
      c += std::abs(a[size_t(j * p + i)]);
    }
    rows = std::max(rows, r);
    columns = std::max(columns, c);
  }
  for (int64_t i = 0; i < p; ++i)
    for (int64_t j = 0; j < p; ++j)
      EXPECT_DOUBLE_EQ(z0[size_t(i * p + j)],
                       a[size_t(j * p + i)] / (rows * columns));
}

TEST(SketchReference, PseudoInverseOfARankDeficientMatrix) {
  // A = U W^T of rank 3 (8 x 8): the iteration from Z_0 = c A^T converges to
  // the Moore-Penrose pseudo-inverse: the four Penrose conditions hold after
  // 6 to 20 iterations (measured: |ZAZ - Z| 2.7e-15 at 6, 3.0e-13 at 10).
  // Not beyond: along A's null space the iteration multiplies Z by 13/4, so
  // rounding noise there grows (|ZAZ - Z| 3.9e-8 at 20, 5e-3 at 30, 7e2 at
  // 40). Softmax matrices are nonsingular, and the op's default is 6.
  const int64_t p = 8, r = 3;
  std::mt19937_64 rng(10);
  std::vector<double> u = gaussian(rng, size_t(p * r), 1.0);
  std::vector<double> w = gaussian(rng, size_t(p * r), 1.0);
  std::vector<double> a(size_t(p * p), 0.0);
  for (int64_t i = 0; i < p; ++i)
    for (int64_t j = 0; j < p; ++j)
      for (int64_t t = 0; t < r; ++t)
        a[size_t(i * p + j)] += u[size_t(i * r + t)] * w[size_t(j * r + t)];
  std::vector<double> z = sk::pseudoInverse(p, a, 10);
  std::vector<double> az = product(p, a, z), za = product(p, z, a);
  EXPECT_LT(maxDiff(product(p, az, a), a), 1e-8);
  EXPECT_LT(maxDiff(product(p, za, z), z), 1e-8);
  EXPECT_LT(maxDiff(transposed(p, az), az), 1e-8);
  EXPECT_LT(maxDiff(transposed(p, za), za), 1e-8);
}

TEST(SketchReference, NystromIsTheFormulaWithAnExactInverse) {
  // The spec's formula computed here, with segment means, the three
  // softmaxes and A^-1 by Gauss-Jordan: with 30 iterations the reference's
  // pseudo-inverse has converged. Nq = 16, Nk = 24, p = 4; rows near their
  // segment's center so that A = softmax(s(Qt, Kt)) is well conditioned,
  // with noise so that no segment is constant.
  const int64_t Nq = 16, Nk = 24, p = 4, D = 8, Dv = 3;
  sk::Dims d = dims(1, 1, Nq, Nk, D, Dv);
  std::mt19937_64 rng(18);
  std::vector<double> centers = gaussian(rng, p * D, 2.0);
  std::vector<double> q = gaussian(rng, Nq * D, 0.5);
  std::vector<double> k = gaussian(rng, Nk * D, 0.5);
  std::vector<double> v = gaussian(rng, Nk * Dv, 1.0);
  for (int64_t e = 0; e < D; ++e) {
    for (int64_t i = 0; i < Nq; ++i)
      q[size_t(i * D + e)] += centers[size_t((i / (Nq / p)) * D + e)];
    for (int64_t j = 0; j < Nk; ++j)
      k[size_t(j * D + e)] += centers[size_t((j / (Nk / p)) * D + e)];
  }
  auto means = [&](const std::vector<double> &x, int64_t n) {
    std::vector<double> m(size_t(p * D), 0.0);
    for (int64_t i = 0; i < n; ++i)
      for (int64_t e = 0; e < D; ++e)
        m[size_t((i / (n / p)) * D + e)] += x[size_t(i * D + e)] / (n / p);
    return m;
  };
  std::vector<double> qt = means(q, Nq), kt = means(k, Nk);
  const double scale = 1.0 / std::sqrt(double(D));
  // softmax(scale X Y^T) as exact() with V = the identity.
  auto softmax = [&](const std::vector<double> &x, int64_t n,
                     const std::vector<double> &y, int64_t m) {
    std::vector<double> eye(size_t(m * m), 0.0);
    for (int64_t j = 0; j < m; ++j)
      eye[size_t(j * m + j)] = 1.0;
    return exact(dims(1, 1, n, m, D, m), x, y, eye, scale);
  };
  std::vector<double> f1 = softmax(q, Nq, kt, p), a = softmax(qt, p, kt, p),
                      f3 = softmax(qt, p, k, Nk);
  std::vector<double> z = inverse(p, a), want(size_t(Nq * Dv), 0.0);
  for (int64_t i = 0; i < Nq; ++i)
    for (int64_t s = 0; s < p; ++s)
      for (int64_t t = 0; t < p; ++t)
        for (int64_t j = 0; j < Nk; ++j)
          for (int64_t e = 0; e < Dv; ++e)
            want[size_t(i * Dv + e)] +=
                f1[size_t(i * p + s)] * z[size_t(s * p + t)] *
                f3[size_t(t * Nk + j)] * v[size_t(j * Dv + e)];
  sk::NystromOptions o;
  o.landmarks = p;
  o.iterations = 30;
  std::vector<double> out = sk::nystrom(d, o, q, k, v, {});
  EXPECT_LT(maxDiff(out, want), 1e-9);
  // Not exact attention (the test is not vacuous).
  EXPECT_GT(maxDiff(out, exact(d, q, k, v, scale)), 1e-3);
  // One landmark: A = [1], F1 = 1, so every row is the attention of the
  // mean query over all keys.
  o.landmarks = 1;
  std::vector<double> qbar(static_cast<size_t>(D), 0.0);
  for (int64_t i = 0; i < Nq; ++i)
    for (int64_t e = 0; e < D; ++e)
      qbar[size_t(e)] += q[size_t(i * D + e)] / Nq;
  std::vector<double> row = exact(dims(1, 1, 1, Nk, D, Dv), qbar, k, v, scale);
  out = sk::nystrom(d, o, q, k, v, {});
  for (int64_t i = 0; i < Nq; ++i)
    for (int64_t e = 0; e < Dv; ++e)
      EXPECT_NEAR(out[size_t(i * Dv + e)], row[size_t(e)], 1e-12);
}

TEST(SketchReference, NystromConvolutionAddsShiftedV) {
  sk::Dims d = dims(2, 2, 64, 64, 16, 8);
  Qkv in = randomQkv(d, 10);
  sk::NystromOptions o;
  o.landmarks = 8;
  std::vector<double> plain = sk::nystrom(d, o, in.q, in.k, in.v, {});
  o.convWidth = 5;
  // Head 0: a delta at W/2 (adds v_i); head 1: 2 at W/2 + 1 (adds 2 v_{i+1},
  // zero past the end).
  std::vector<double> conv(10, 0.0);
  conv[2] = 1.0;
  conv[5 + 3] = 2.0;
  std::vector<double> skip = sk::nystrom(d, o, in.q, in.k, in.v, conv);
  for (int64_t b = 0; b < 2; ++b)
    for (int64_t h = 0; h < 2; ++h)
      for (int64_t i = 0; i < 64; ++i)
        for (int64_t e = 0; e < 8; ++e) {
          int64_t bh = b * 2 + h;
          size_t at = size_t((bh * 64 + i) * 8 + e);
          double add = h == 0 ? in.v[at]
                       : i + 1 < 64
                           ? 2.0 * in.v[size_t((bh * 64 + i + 1) * 8 + e)]
                           : 0.0;
          EXPECT_NEAR(skip[at], plain[at] + add, 1e-12);
        }
}

//===----------------------------------------------------------------------===//
// Linformer
//===----------------------------------------------------------------------===//

TEST(SketchReference, LinformerExactProjections) {
  sk::Dims d = dims(2, 2, 24, 32, 16, 8);
  Qkv in = randomQkv(d, 11);
  std::vector<double> ref = exact(d, in.q, in.k, in.v, 0.25);
  std::vector<double> eye(32 * 32, 0.0), twice(32 * 32, 0.0),
      perm(32 * 32, 0.0);
  for (int64_t i = 0; i < 32; ++i) {
    eye[size_t(i * 32 + i)] = 1.0;
    twice[size_t(i * 32 + i)] = 2.0;
    perm[size_t(i * 32 + (i * 7 + 3) % 32)] = 1.0; // 7 is prime to 32
  }
  sk::LinformerOptions o;
  o.projected = 32;
  EXPECT_LT(maxDiff(sk::linformer(d, o, in.q, in.k, in.v, eye, {}, {}), ref),
            1e-12);
  // Softmax attention does not depend on the order of the keys.
  EXPECT_LT(maxDiff(sk::linformer(d, o, in.q, in.k, in.v, perm, {}, {}), ref),
            1e-12);
  // F = 2 I projects only the values: twice the result.
  std::vector<double> doubled =
      sk::linformer(d, o, in.q, in.k, in.v, eye, twice, {});
  for (size_t i = 0; i < ref.size(); ++i)
    EXPECT_NEAR(doubled[i], 2.0 * ref[i], 1e-12);
}

TEST(SketchReference, LinformerProjectionPerHead) {
  // Hp = H: head h uses e[h]; the same as Hp = 1 with e[h] on that head.
  sk::Dims d = dims(2, 2, 16, 32, 8, 4);
  Qkv in = randomQkv(d, 12);
  std::mt19937_64 rng(13);
  std::vector<double> e = gaussian(rng, 2 * 8 * 32, 0.3);
  std::vector<double> f = gaussian(rng, 2 * 8 * 32, 0.3);
  sk::LinformerOptions o;
  o.projected = 8;
  o.projectionHeads = 2;
  std::vector<double> both = sk::linformer(d, o, in.q, in.k, in.v, e, f, {});
  o.projectionHeads = 1;
  for (int64_t h = 0; h < 2; ++h) {
    std::vector<double> eh(e.begin() + h * 256, e.begin() + (h + 1) * 256);
    std::vector<double> fh(f.begin() + h * 256, f.begin() + (h + 1) * 256);
    std::vector<double> shared =
        sk::linformer(d, o, in.q, in.k, in.v, eh, fh, {});
    for (int64_t b = 0; b < 2; ++b)
      for (int64_t i = 0; i < 16 * 4; ++i) {
        size_t at = size_t((b * 2 + h) * 16 * 4 + i);
        EXPECT_NEAR(both[at], shared[at], 1e-12);
      }
  }
}

TEST(SketchReference, LinformerPaddingIsZero) {
  sk::Dims d = dims(2, 2, 32, 32, 16, 8);
  Qkv in = randomQkv(d, 14);
  std::vector<bool> mask(64, true);
  for (int64_t j = 24; j < 32; ++j)
    mask[size_t(j)] = false; // batch 0: keys 24..31 padded
  for (int64_t j = 0; j < 5; ++j)
    mask[size_t(32 + j)] = false; // batch 1: keys 0..4 padded
  auto padded = [&](int64_t bh, int64_t j) {
    return !mask[size_t((bh / 2) * 32 + j)];
  };
  // Identity projections: padded key rows are 0, so they are keys with
  // logit 0 and value 0 (they still count in the softmax's denominator).
  std::vector<double> eye(32 * 32, 0.0);
  for (int64_t i = 0; i < 32; ++i)
    eye[size_t(i * 32 + i)] = 1.0;
  Qkv zeroed = in;
  for (int64_t bh = 0; bh < 4; ++bh)
    for (int64_t j = 0; j < 32; ++j)
      if (padded(bh, j)) {
        std::fill_n(zeroed.k.begin() + (bh * 32 + j) * 16, 16, 0.0);
        std::fill_n(zeroed.v.begin() + (bh * 32 + j) * 8, 8, 0.0);
      }
  sk::LinformerOptions o;
  o.projected = 32;
  EXPECT_LT(maxDiff(sk::linformer(d, o, in.q, in.k, in.v, eye, {}, mask),
                    exact(d, zeroed.q, zeroed.k, zeroed.v, 0.25)),
            1e-12);
  // A random projection: what the padded rows hold does not matter.
  std::mt19937_64 rng(15);
  o.projected = 8;
  std::vector<double> e = gaussian(rng, 8 * 32, 0.3);
  std::vector<double> before =
      sk::linformer(d, o, in.q, in.k, in.v, e, {}, mask);
  Qkv changed = in;
  for (int64_t bh = 0; bh < 4; ++bh)
    for (int64_t j = 0; j < 32; ++j)
      if (padded(bh, j)) {
        std::fill_n(changed.k.begin() + (bh * 32 + j) * 16, 16, 100.0);
        std::fill_n(changed.v.begin() + (bh * 32 + j) * 8, 8, -100.0);
      }
  EXPECT_EQ(before,
            sk::linformer(d, o, changed.q, changed.k, changed.v, e, {}, mask));
  // Without the mask they do (the test can fail).
  EXPECT_GT(
      maxDiff(sk::linformer(d, o, in.q, in.k, in.v, e, {}, {}),
              sk::linformer(d, o, changed.q, changed.k, changed.v, e, {}, {})),
      1.0);
}

//===----------------------------------------------------------------------===//
// Synthesizer
//===----------------------------------------------------------------------===//

TEST(SketchReference, SynthesizerIsSoftmaxOfTheFactors) {
  // R1, R2 per head, broadcast over the batch: exact() on copies.
  const int64_t B = 2, H = 2, Nq = 24, Nk = 32, R = 8, Dv = 4;
  sk::Dims d = dims(B, H, Nq, Nk, R, Dv);
  std::mt19937_64 rng(16);
  std::vector<double> r1 = gaussian(rng, H * Nq * R, 1.0);
  std::vector<double> r2 = gaussian(rng, H * Nk * R, 1.0);
  std::vector<double> v = gaussian(rng, B * H * Nk * Dv, 1.0);
  std::vector<double> q, k;
  for (int64_t b = 0; b < B; ++b) {
    q.insert(q.end(), r1.begin(), r1.end());
    k.insert(k.end(), r2.begin(), r2.end());
  }
  sk::SynthesizerOptions o;
  o.rank = R;
  o.scale = 0.7;
  EXPECT_LT(
      maxDiff(sk::synthesizer(d, o, r1, r2, v, {}), exact(d, q, k, v, 0.7)),
      1e-12);
  o.causal = true;
  std::vector<double> causal = sk::synthesizer(d, o, r1, r2, v, {});
  EXPECT_LT(maxDiff(causal, exact(d, q, k, v, 0.7,
                                  [](int64_t, int64_t i, int64_t j) {
                                    return j <= i;
                                  })),
            1e-12);
  for (int64_t bh = 0; bh < B * H; ++bh)
    for (int64_t e = 0; e < Dv; ++e) // row 0 sees key 0 only
      EXPECT_NEAR(causal[size_t(bh * Nq * Dv + e)], v[size_t(bh * Nk * Dv + e)],
                  1e-12);
  // A key mask, with causal: batch 1 has key 0 padded, so its row 0 sees no
  // key and is 0.
  std::vector<bool> mask(B * Nk, true);
  mask[size_t(Nk + 0)] = false;
  mask[size_t(Nk + 5)] = false;
  mask[size_t(17)] = false;
  auto visible = [&](int64_t b, int64_t i, int64_t j) {
    return mask[size_t(b * Nk + j)] && j <= i;
  };
  std::vector<double> masked = sk::synthesizer(d, o, r1, r2, v, mask);
  EXPECT_LT(maxDiff(masked, exact(d, q, k, v, 0.7, visible)), 1e-12);
  for (int64_t h = 0; h < H; ++h)
    for (int64_t e = 0; e < Dv; ++e)
      EXPECT_EQ(masked[size_t(((1 * H + h) * Nq + 0) * Dv + e)], 0.0);
}

//===----------------------------------------------------------------------===//
// Bad input
//===----------------------------------------------------------------------===//

TEST(SketchReference, BadInputThrows) {
  sk::Dims d = dims(1, 2, 64, 64, 16, 8);
  Qkv in = randomQkv(d, 17);
  std::vector<double> shortKey(in.k.begin(), in.k.end() - 1);
  std::vector<double> shortValue(in.v.begin(), in.v.end() - 1);

  sk::SkeinOptions s;
  s.samples = 65;
  expectInvalid([&] { sk::skeinformer(d, s, in.q, in.k, in.v); }, "samples");
  expectInvalid([&] { sk::skeinformerPilotRows(d, s); }, "samples");
  s.samples = 0;
  expectInvalid([&] { sk::skeinformer(d, s, in.q, in.k, in.v); }, "samples");
  s.samples = -3;
  expectInvalid([&] { sk::skeinformerColumns(d, s, in.q, in.k, in.v); },
                "samples");
  s.samples = 8;
  expectInvalid([&] { sk::skeinformer(d, s, in.q, shortKey, in.v); }, "key");
  expectInvalid([&] { sk::skeinformer(d, s, in.q, in.k, shortValue); },
                "value");
  expectInvalid([&] { sk::skeinformer(d, s, {}, in.k, in.v); }, "query");
  s.scale = -1;
  expectInvalid([&] { sk::skeinformer(d, s, in.q, in.k, in.v); }, "scale");

  sk::InformerOptions i;
  expectInvalid([&] { sk::informer(d, i, in.q, shortKey, in.v); }, "key");
  expectInvalid([&] { sk::informerActive(d, i, in.q, shortKey); }, "key");
  i.active = 65;
  expectInvalid([&] { sk::informer(d, i, in.q, in.k, in.v); }, "active");
  i.active = 0;
  i.samples = 65;
  expectInvalid([&] { sk::informer(d, i, in.q, in.k, in.v); }, "samples");
  i.samples = 0;
  i.factor = 0;
  expectInvalid([&] { sk::informer(d, i, in.q, in.k, in.v); }, "factor");

  sk::NystromOptions n;
  n.landmarks = 24;
  expectInvalid([&] { sk::nystrom(d, n, in.q, in.k, in.v, {}); }, "landmarks");
  n.landmarks = 0;
  expectInvalid([&] { sk::nystrom(d, n, in.q, in.k, in.v, {}); }, "landmarks");
  n.landmarks = 8;
  n.convWidth = 4;
  expectInvalid(
      [&] { sk::nystrom(d, n, in.q, in.k, in.v, std::vector<double>(8)); },
      "convWidth");
  n.convWidth = 5;
  expectInvalid(
      [&] { sk::nystrom(d, n, in.q, in.k, in.v, std::vector<double>(5)); },
      "conv");
  n.convWidth = 0;
  n.iterations = 0;
  expectInvalid([&] { sk::nystrom(d, n, in.q, in.k, in.v, {}); }, "iterations");
  expectInvalid([] { sk::pseudoInverse(3, std::vector<double>(8, 1.0), 6); },
                "a");
  expectInvalid([] { sk::pseudoInverse(2, std::vector<double>(4, 0.0), 6); },
                "a");
  expectInvalid([] { sk::pseudoInverse(2, std::vector<double>(4, 1.0), -1); },
                "iterations");

  sk::LinformerOptions l;
  l.projected = 8;
  std::vector<double> e(8 * 64, 0.1);
  expectInvalid(
      [&] {
        sk::linformer(d, l, in.q, in.k, in.v, {1.0, 2.0}, {}, {});
      },
      "e (key projection");
  expectInvalid([&] { sk::linformer(d, l, in.q, in.k, in.v, e, {1.0}, {}); },
                "f (value projection");
  expectInvalid(
      [&] {
        sk::linformer(d, l, in.q, in.k, in.v, e, {},
                      std::vector<bool>(3, true));
      },
      "mask");
  l.projectionHeads = 3;
  expectInvalid([&] { sk::linformer(d, l, in.q, in.k, in.v, e, {}, {}); },
                "projectionHeads");
  l.projectionHeads = 1;
  l.projected = 0;
  expectInvalid([&] { sk::linformer(d, l, in.q, in.k, in.v, {}, {}, {}); },
                "projected");

  sk::SynthesizerOptions y;
  y.rank = 4;
  std::vector<double> r1(2 * 64 * 4, 0.1), r2(2 * 64 * 4, 0.1);
  expectInvalid([&] { sk::synthesizer(d, y, {0.0}, r2, in.v, {}); }, "r1");
  expectInvalid([&] { sk::synthesizer(d, y, r1, {0.0}, in.v, {}); }, "r2");
  expectInvalid([&] { sk::synthesizer(d, y, r1, r2, shortValue, {}); },
                "value");
  expectInvalid(
      [&] { sk::synthesizer(d, y, r1, r2, in.v, std::vector<bool>(3)); },
      "mask");
  y.rank = 0;
  expectInvalid([&] { sk::synthesizer(d, y, r1, r2, in.v, {}); }, "rank");
  y.rank = 4;
  y.scale = 0;
  expectInvalid([&] { sk::synthesizer(d, y, r1, r2, in.v, {}); }, "scale");

  std::vector<double> b(4 * 8, 1.0), c(8 * 2, 1.0), p(8, 0.125);
  expectInvalid([&] { sk::columnSamplingEstimate(4, 8, 2, b, c, p, 0, 1); },
                "d");
  expectInvalid(
      [&] {
        sk::columnSamplingEstimate(4, 8, 2, b, c, std::vector<double>(7, 0.1),
                                   4, 1);
      },
      "p");
  expectInvalid(
      [&] {
        sk::columnSamplingEstimate(4, 8, 2, b, c, std::vector<double>(8, 0.5),
                                   4, 1);
      },
      "p");
  expectInvalid([&] { sk::columnSamplingEstimate(4, 8, 2, {1.0}, c, p, 4, 1); },
                "b");

  sk::Dims bad = d;
  bad.dim = 0;
  expectInvalid([&] { sk::skeinformer(bad, s, in.q, in.k, in.v); }, "sizes");
}

} // namespace
