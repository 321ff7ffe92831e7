//===- AttentionTest.cpp - Tests for the reference attention -------------===//

#include "attic/Reference/Attention.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

using namespace attic::ref;

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();

struct Problem {
  AttentionShape shape;
  std::vector<double> q, k, v;

  std::vector<double> run(const AttentionOptions &options) const {
    std::vector<double> out(shape.batch * shape.heads * shape.queryLen *
                                shape.valueDim,
                            -12345.0);
    attention(shape, q.data(), k.data(), v.data(), options, out.data());
    return out;
  }
};

AttentionOptions withScale(double scale) {
  AttentionOptions options;
  options.scale = scale;
  return options;
}

/// Deterministic, varied values in [-1, 1).
std::vector<double> pattern(size_t n, unsigned seed) {
  std::vector<double> values(n);
  unsigned state = seed * 2654435761u + 1;
  for (double &value : values) {
    state = state * 1664525u + 1013904223u;
    value = static_cast<double>(state >> 8) / (1u << 23) - 1.0;
  }
  return values;
}

/// An independent formulation: materialize the whole logits matrix and apply
/// the textbook softmax without max-subtraction (inputs here are small).
std::vector<double> textbookAttention(const Problem &p, double scale,
                                      bool causal) {
  const AttentionShape &s = p.shape;
  std::vector<double> out(s.batch * s.heads * s.queryLen * s.valueDim, 0.0);
  for (int64_t bh = 0; bh < s.batch * s.heads; ++bh) {
    std::vector<std::vector<double>> w(s.queryLen,
                                       std::vector<double>(s.keyLen, 0.0));
    for (int64_t i = 0; i < s.queryLen; ++i) {
      double total = 0.0;
      for (int64_t j = 0; j < s.keyLen; ++j) {
        if (causal && j > i)
          continue;
        double dot = 0.0;
        for (int64_t c = 0; c < s.headDim; ++c)
          dot += p.q[(bh * s.queryLen + i) * s.headDim + c] *
                 p.k[(bh * s.keyLen + j) * s.headDim + c];
        w[i][j] = std::exp(scale * dot);
        total += w[i][j];
      }
      for (int64_t j = 0; j < s.keyLen; ++j)
        for (int64_t c = 0; c < s.valueDim; ++c)
          out[(bh * s.queryLen + i) * s.valueDim + c] +=
              w[i][j] / total * p.v[(bh * s.keyLen + j) * s.valueDim + c];
    }
  }
  return out;
}

void expectAllNear(const std::vector<double> &actual,
                   const std::vector<double> &expected, double tol) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i)
    EXPECT_NEAR(actual[i], expected[i], tol) << "at index " << i;
}
} // namespace

TEST(ReferenceAttention, DefaultScale) {
  EXPECT_DOUBLE_EQ(defaultScale(64), 0.125);
  EXPECT_DOUBLE_EQ(defaultScale(1), 1.0);
  EXPECT_DOUBLE_EQ(defaultScale(2), 1.0 / std::sqrt(2.0));
}

// One query, two keys, logits 0 and ln 3: weights 1/4 and 3/4.
TEST(ReferenceAttention, HandComputedOneQueryTwoKeys) {
  Problem p{{1, 1, 1, 2, 1, 2},
            {1.0},
            {0.0, std::log(3.0)},
            {10.0, 2.0, /*key 1*/ 2.0, 6.0}};
  std::vector<double> out = p.run(withScale(1.0));
  EXPECT_NEAR(out[0], 0.25 * 10.0 + 0.75 * 2.0, 1e-12);
  EXPECT_NEAR(out[1], 0.25 * 2.0 + 0.75 * 6.0, 1e-12);
}

// The scale multiplies q.k: D = 2, scale 0.5, q.k = (0, 2) -> logits (0, 1).
TEST(ReferenceAttention, HandComputedScale) {
  Problem p{{1, 1, 1, 2, 2, 1}, {1.0, 1.0}, {1.0, -1.0, 1.0, 1.0}, {0.0, 1.0}};
  std::vector<double> out = p.run(withScale(0.5));
  double e = std::exp(1.0);
  EXPECT_NEAR(out[0], e / (1.0 + e), 1e-12);
}

TEST(ReferenceAttention, EqualLogitsGiveUniformWeights) {
  // Every key is identical, so all logits are equal whatever q is.
  Problem p{{1, 1, 2, 4, 3, 2}, pattern(6, 1), {}, {}};
  for (int j = 0; j < 4; ++j)
    p.k.insert(p.k.end(), {0.3, -0.7, 0.2});
  p.v = {1.0, 0.0, 2.0, 4.0, 3.0, 8.0, 6.0, -4.0};
  std::vector<double> out = p.run(withScale(defaultScale(3)));
  for (int i = 0; i < 2; ++i) {
    EXPECT_NEAR(out[i * 2 + 0], 3.0, 1e-12);
    EXPECT_NEAR(out[i * 2 + 1], 2.0, 1e-12);
  }
}

TEST(ReferenceAttention, CausalRowsSeeOnlyEarlierKeys) {
  // Nq = Nk = 3, D = 1, q = k = 0 so visible keys are weighted uniformly.
  Problem p{{1, 1, 3, 3, 1, 1},
            {0.0, 0.0, 0.0},
            {0.0, 0.0, 0.0},
            {3.0, 5.0, 10.0}};
  AttentionOptions options = withScale(1.0);
  options.causal = true;
  std::vector<double> out = p.run(options);
  EXPECT_DOUBLE_EQ(out[0], 3.0);
  EXPECT_NEAR(out[1], 4.0, 1e-12);
  EXPECT_NEAR(out[2], 6.0, 1e-12);
}

TEST(ReferenceAttention, CausalFirstRowIsFirstValue) {
  Problem p{{2, 2, 5, 5, 4, 3}, pattern(80, 2), pattern(80, 3),
            pattern(60, 4)};
  AttentionOptions options = withScale(defaultScale(4));
  options.causal = true;
  std::vector<double> out = p.run(options);
  for (int64_t bh = 0; bh < 4; ++bh)
    for (int64_t c = 0; c < 3; ++c)
      EXPECT_DOUBLE_EQ(out[bh * 5 * 3 + c], p.v[bh * 5 * 3 + c]);
}

// Top-left alignment holds for Nq != Nk: query i sees keys [0, min(i, Nk-1)].
TEST(ReferenceAttention, CausalTopLeftWithUnequalLengths) {
  Problem wide{{1, 2, 3, 7, 2, 3}, pattern(12, 5), pattern(28, 6),
               pattern(42, 7)};
  Problem tall{{1, 2, 9, 4, 2, 3}, pattern(36, 8), pattern(16, 9),
               pattern(24, 10)};
  for (const Problem *p : {&wide, &tall}) {
    AttentionOptions options = withScale(0.7);
    options.causal = true;
    expectAllNear(p->run(options), textbookAttention(*p, 0.7, true), 1e-12);
  }
}

TEST(ReferenceAttention, FullyMaskedRowIsZero) {
  // Batch 0 masks every key, batch 1 keeps them all.
  Problem p{{2, 1, 2, 3, 2, 2}, pattern(8, 11), pattern(12, 12),
            pattern(12, 13)};
  std::vector<uint8_t> mask = {0, 0, 0, 1, 1, 1};
  AttentionOptions options = withScale(1.0);
  options.keyMask = mask.data();
  std::vector<double> out = p.run(options);
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(out[i], 0.0) << "at index " << i;
  std::vector<double> reference = textbookAttention(p, 1.0, false);
  for (int i = 4; i < 8; ++i)
    EXPECT_NEAR(out[i], reference[i], 1e-12);
}

TEST(ReferenceAttention, MaskExcludesKeys) {
  Problem p{{1, 1, 1, 3, 1, 1}, {1.0}, {5.0, 0.0, 0.0}, {100.0, 1.0, 3.0}};
  std::vector<uint8_t> mask = {0, 7, 1}; // Any nonzero admits the key.
  AttentionOptions options = withScale(1.0);
  options.keyMask = mask.data();
  EXPECT_NEAR(p.run(options)[0], 2.0, 1e-12);
}

TEST(ReferenceAttention, AllMinusInfBiasRowIsZero) {
  Problem p{{1, 2, 2, 2, 1, 1}, pattern(4, 14), pattern(4, 15),
            pattern(4, 16)};
  // Head 0 excludes every key through the bias; head 1 only key 0.
  std::vector<double> bias = {-kInf, -kInf, -kInf, 0.5};
  AttentionOptions options = withScale(1.0);
  options.biasKind = KeyBiasKind::PerHead;
  options.keyBias = bias.data();
  std::vector<double> out = p.run(options);
  EXPECT_EQ(out[0], 0.0);
  EXPECT_EQ(out[1], 0.0);
  EXPECT_DOUBLE_EQ(out[2], p.v[3]);
  EXPECT_DOUBLE_EQ(out[3], p.v[3]);
}

TEST(ReferenceAttention, CausalAndMaskCombineToEmptyRow) {
  // Row 0 sees only key 0 causally, and the mask removes key 0.
  Problem p{{1, 1, 2, 2, 1, 1}, {1.0, 1.0}, {1.0, 2.0}, {4.0, 8.0}};
  std::vector<uint8_t> mask = {0, 1};
  AttentionOptions options = withScale(1.0);
  options.causal = true;
  options.keyMask = mask.data();
  std::vector<double> out = p.run(options);
  EXPECT_EQ(out[0], 0.0);
  EXPECT_DOUBLE_EQ(out[1], 8.0);
}

TEST(ReferenceAttention, HugeLogitsDoNotOverflow) {
  // Logits 1e4, 9e3 and -1e4: exp without max-subtraction would overflow.
  Problem p{{1, 1, 1, 3, 1, 2},
            {100.0},
            {90.0, 100.0, -100.0},
            {1.0, 2.0, 3.0, 4.0, 5.0, 6.0}};
  std::vector<double> out = p.run(withScale(1.0));
  EXPECT_TRUE(std::isfinite(out[0]) && std::isfinite(out[1]));
  EXPECT_DOUBLE_EQ(out[0], 3.0);
  EXPECT_DOUBLE_EQ(out[1], 4.0);

  // Two maximal keys share the weight equally.
  p.k = {100.0, 100.0, -100.0};
  out = p.run(withScale(1.0));
  EXPECT_NEAR(out[0], 2.0, 1e-12);
  EXPECT_NEAR(out[1], 3.0, 1e-12);
}

TEST(ReferenceAttention, LogSumExpOfAdmissibleLogits) {
  // One query, three keys, logits 1e4, 9e3 and -1e4 (exp overflows without
  // the max), then key 0 masked; row 1 has no admissible key.
  Problem p{
      {1, 1, 2, 3, 1, 1}, {100.0, 1.0}, {90.0, 100.0, -100.0}, {1.0, 2.0, 3.0}};
  std::vector<double> out(2), lse(2, -12345.0);
  std::vector<uint8_t> mask = {1, 1, 1};
  AttentionOptions options = withScale(1.0);
  options.keyMask = mask.data();
  options.mask = [](int64_t, int64_t, int64_t q, int64_t) { return q == 0; };
  attention(p.shape, p.q.data(), p.k.data(), p.v.data(), options, out.data(),
            lse.data());
  EXPECT_DOUBLE_EQ(lse[0], 1e4 + std::log1p(std::exp(-1e3) + std::exp(-2e4)));
  EXPECT_EQ(lse[1], -kInf);
  EXPECT_EQ(out[1], 0.0);

  // With a bias: lse = log(sum exp(scale q.k + bias)), by hand.
  Problem small{{1, 1, 1, 2, 1, 1}, {2.0}, {1.0, 0.5}, {4.0, 8.0}};
  std::vector<double> bias = {0.25, -1.0};
  AttentionOptions biased = withScale(0.5);
  biased.biasKind = KeyBiasKind::PerBatch;
  biased.keyBias = bias.data();
  attention(small.shape, small.q.data(), small.k.data(), small.v.data(), biased,
            out.data(), lse.data());
  EXPECT_NEAR(lse[0], std::log(std::exp(1.0 + 0.25) + std::exp(0.5 - 1.0)),
              1e-14);
}

TEST(ReferenceAttention, BiasShiftsLogits) {
  // Equal q.k; a bias of ln 3 on key 1 gives weights 1/4 and 3/4.
  Problem p{{1, 1, 1, 2, 1, 1}, {2.0}, {1.0, 1.0}, {4.0, 8.0}};
  std::vector<double> bias = {0.0, std::log(3.0)};
  AttentionOptions options = withScale(1.0);
  options.biasKind = KeyBiasKind::PerBatch;
  options.keyBias = bias.data();
  EXPECT_NEAR(p.run(options)[0], 7.0, 1e-12);

  // The same constant added to every key changes nothing.
  Problem r{{1, 2, 3, 4, 2, 2}, pattern(12, 17), pattern(16, 18),
            pattern(16, 19)};
  std::vector<double> constant(4, 123.0);
  options.keyBias = constant.data();
  expectAllNear(r.run(options), r.run(withScale(1.0)), 1e-12);
}

TEST(ReferenceAttention, PerBatchAndPerHeadBias) {
  // B = 2, H = 2, Nk = 3.
  Problem p{{2, 2, 2, 3, 2, 2}, pattern(16, 20), pattern(24, 21),
            pattern(24, 22)};
  std::vector<double> perBatch = {0.5, -1.0, 2.0, /*b1*/ -3.0, 0.0, 1.0};
  // Per-head data that repeats the per-batch row for each head.
  std::vector<double> perHead;
  for (int b = 0; b < 2; ++b)
    for (int h = 0; h < 2; ++h)
      perHead.insert(perHead.end(), perBatch.begin() + b * 3,
                     perBatch.begin() + b * 3 + 3);

  AttentionOptions batchOptions = withScale(0.9);
  batchOptions.biasKind = KeyBiasKind::PerBatch;
  batchOptions.keyBias = perBatch.data();
  AttentionOptions headOptions = withScale(0.9);
  headOptions.biasKind = KeyBiasKind::PerHead;
  headOptions.keyBias = perHead.data();
  std::vector<double> byBatch = p.run(batchOptions);
  expectAllNear(p.run(headOptions), byBatch, 1e-12);

  // Changing only head 1 of batch 1 changes only that slice of the output.
  perHead[9] += 5.0;
  std::vector<double> changed = p.run(headOptions);
  const int64_t sliceSize = 2 * 2;
  for (int64_t i = 0; i < 3 * sliceSize; ++i)
    EXPECT_DOUBLE_EQ(changed[i], byBatch[i]);
  bool differs = false;
  for (int64_t i = 3 * sliceSize; i < 4 * sliceSize; ++i)
    differs |= std::fabs(changed[i] - byBatch[i]) > 1e-6;
  EXPECT_TRUE(differs);
}

TEST(ReferenceAttention, UnequalLengthsAndValueDim) {
  // Nq = 2, Nk = 3, D = 1, Dv = 2; logits q*k = (0, 1, 2) and (0, -1, -2).
  Problem p{{1, 1, 2, 3, 1, 2},
            {1.0, -1.0},
            {0.0, 1.0, 2.0},
            {1.0, 0.0, 0.0, 1.0, 1.0, 1.0}};
  std::vector<double> out = p.run(withScale(1.0));
  double e1 = std::exp(1.0), e2 = std::exp(2.0);
  double z0 = 1.0 + e1 + e2;
  EXPECT_NEAR(out[0], (1.0 + e2) / z0, 1e-12);
  EXPECT_NEAR(out[1], (e1 + e2) / z0, 1e-12);
  double z1 = 1.0 + 1.0 / e1 + 1.0 / e2;
  EXPECT_NEAR(out[2], (1.0 + 1.0 / e2) / z1, 1e-12);
  EXPECT_NEAR(out[3], (1.0 / e1 + 1.0 / e2) / z1, 1e-12);
}

TEST(ReferenceAttention, MatchesTextbookOnRandomShapes) {
  const AttentionShape shapes[] = {
      {2, 3, 5, 7, 4, 6}, {1, 2, 8, 3, 5, 2}, {3, 1, 4, 4, 8, 8}};
  unsigned seed = 30;
  for (const AttentionShape &shape : shapes) {
    Problem p{shape,
              pattern(shape.batch * shape.heads * shape.queryLen *
                          shape.headDim,
                      seed++),
              pattern(shape.batch * shape.heads * shape.keyLen * shape.headDim,
                      seed++),
              pattern(shape.batch * shape.heads * shape.keyLen *
                          shape.valueDim,
                      seed++)};
    for (bool causal : {false, true}) {
      AttentionOptions options = withScale(defaultScale(shape.headDim));
      options.causal = causal;
      expectAllNear(p.run(options),
                    textbookAttention(p, options.scale, causal), 1e-12);
    }
  }
}

TEST(ReferenceCompare, Figures) {
  std::vector<double> expected = {1.0, -4.0, 2.0, 0.5};
  std::vector<double> actual = {1.0, -3.5, 2.25, 0.5};
  ErrorStats stats = compare(actual.data(), expected.data(), 4);
  EXPECT_DOUBLE_EQ(stats.maxAbs, 0.5);
  EXPECT_DOUBLE_EQ(stats.maxRel, 0.5 / 4.0);
  EXPECT_EQ(stats.nonFinite, 0);
  EXPECT_EQ(stats.count, 4);
}

TEST(ReferenceCompare, IdenticalIsZero) {
  std::vector<double> values = {0.0, 1.0, -2.0};
  ErrorStats stats = compare(values.data(), values.data(), 3);
  EXPECT_EQ(stats.maxAbs, 0.0);
  EXPECT_EQ(stats.maxRel, 0.0);
  EXPECT_EQ(stats.nonFinite, 0);
  EXPECT_EQ(stats.count, 3);
}

TEST(ReferenceCompare, ZeroExpectedDoesNotDivideByZero) {
  std::vector<double> expected = {0.0, 0.0};
  std::vector<double> actual = {0.0, 1e-300};
  ErrorStats stats = compare(actual.data(), expected.data(), 2);
  EXPECT_DOUBLE_EQ(stats.maxAbs, 1e-300);
  EXPECT_TRUE(std::isfinite(stats.maxRel));
  EXPECT_GT(stats.maxRel, 1.0);
}

TEST(ReferenceCompare, NonFiniteIsCountedAndNotHidden) {
  std::vector<double> expected = {1.0, 2.0, 3.0, 4.0};
  std::vector<double> actual = {std::nan(""), 2.0, kInf, 4.0};
  ErrorStats stats = compare(actual.data(), expected.data(), 4);
  EXPECT_EQ(stats.nonFinite, 2);
  EXPECT_EQ(stats.count, 4);
  EXPECT_EQ(stats.maxAbs, kInf);
  EXPECT_EQ(stats.maxRel, kInf);

  // The same infinity on both sides is a match (the lse of a row with no
  // admissible key); any other infinity is an error, and a reference
  // infinity does not make the relative error NaN.
  expected = {-kInf, 2.0, kInf, 4.0};
  actual = {-kInf, 2.0, kInf, 4.0};
  stats = compare(actual.data(), expected.data(), 4);
  EXPECT_EQ(stats.nonFinite, 0);
  EXPECT_EQ(stats.maxAbs, 0.0);
  EXPECT_EQ(stats.maxRel, 0.0);
  actual = {-3.0, 2.0, kInf, 4.0};
  stats = compare(actual.data(), expected.data(), 4);
  EXPECT_EQ(stats.nonFinite, 0);
  EXPECT_EQ(stats.maxAbs, kInf);
  EXPECT_EQ(stats.maxRel, kInf);
  actual = {kInf, 2.0, kInf, 4.0};
  stats = compare(actual.data(), expected.data(), 4);
  EXPECT_EQ(stats.nonFinite, 1);
  EXPECT_EQ(stats.maxRel, kInf);
  expected = {1.0, 2.0, 3.0, 4.0};

  // A NaN alone must not be swallowed by max (NaN compares false).
  actual = {std::nan(""), 2.0, 3.0, 4.0};
  stats = compare(actual.data(), expected.data(), 4);
  EXPECT_EQ(stats.nonFinite, 1);
  EXPECT_EQ(stats.maxAbs, kInf);
}
