//===- VccTest.cpp - Tests for the reference semantics of VCC ------------===//
//
// One test per invariant of ../shared/papers/vcc.md section 7 (named
// InvariantNN...), plus the error paths. Sizes are small (n_p = 3, n_c = 32,
// d = 8, 2 heads, ffn 16) and every input comes from a fixed-seed
// std::mt19937_64. Trees are the two-resolution {4, 8} and the binary
// {2, 2, 2, 2, 2}.
//
//===----------------------------------------------------------------------===//

#include "attic/Reference/Vcc.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

using namespace attic::ref::vcc;

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr int64_t kVip = 3, kTokens = 32, kDim = 8, kHeads = 2, kFfn = 16;

const std::vector<int64_t> kTwoLevel = {4, 8};
const std::vector<int64_t> kTwoLevelBudgets = {0, 3, 1}; // 3 of 8 blocks fine
const std::vector<int64_t> kBinary = {2, 2, 2, 2, 2};
const std::vector<int64_t> kBinaryBudgets = {0, 3, 3, 2, 2, 1};

//===----------------------------------------------------------------------===//
// Data
//===----------------------------------------------------------------------===//

class Random {
public:
  explicit Random(uint64_t seed) : engine(seed) {}
  double uniform(double lo = -1.0, double hi = 1.0) {
    return std::uniform_real_distribution<double>(lo, hi)(engine);
  }
  std::vector<double> values(int64_t n, double lo = -1.0, double hi = 1.0) {
    std::vector<double> out(n);
    for (double &v : out)
      v = uniform(lo, hi);
    return out;
  }
  Matrix matrix(int64_t rows, int64_t cols, double scale = 1.0) {
    Matrix m(rows, cols);
    for (double &v : m.data)
      v = scale * uniform();
    return m;
  }

private:
  std::mt19937_64 engine;
};

LayerWeights randomWeights(Random &random, int64_t d = kDim,
                           int64_t heads = kHeads, int64_t ffn = kFfn) {
  LayerWeights w;
  w.dim = d;
  w.heads = heads;
  w.ffnDim = ffn;
  // Uniform weights with variance about 1/fan-in keep activations O(1).
  const double scaleD = std::sqrt(3.0 / static_cast<double>(d));
  const double scaleF = std::sqrt(3.0 / static_cast<double>(ffn));
  w.ln1Gamma = random.values(d, 0.5, 1.5);
  w.ln1Beta = random.values(d, -0.2, 0.2);
  w.ln2Gamma = random.values(d, 0.5, 1.5);
  w.ln2Beta = random.values(d, -0.2, 0.2);
  w.wq = random.matrix(d, d, 2 * scaleD);
  w.wk = random.matrix(d, d, 2 * scaleD);
  w.wv = random.matrix(d, d, scaleD);
  w.wo = random.matrix(d, d, scaleD);
  w.bq = random.values(d, -0.2, 0.2);
  w.bk = random.values(d, -0.2, 0.2);
  w.bv = random.values(d, -0.2, 0.2);
  w.bo = random.values(d, -0.2, 0.2);
  w.w1 = random.matrix(d, ffn, scaleD);
  w.b1 = random.values(ffn, -0.2, 0.2);
  w.w2 = random.matrix(ffn, d, scaleF);
  w.b2 = random.values(d, -0.2, 0.2);
  return w;
}

/// Invalid: token 1, the aligned runs 8..11 (a k = 4 block, a binary
/// level-2 node) and 30..31 (a binary level-1 node), and token 14.
std::vector<bool> paddedValid() {
  std::vector<bool> valid(kTokens, true);
  for (int64_t t : {1, 8, 9, 10, 11, 14, 30, 31})
    valid[t] = false;
  return valid;
}

struct Problem {
  Matrix p, c;
  std::vector<bool> valid;
  std::vector<LayerWeights> layers;
};

Problem makeProblem(uint64_t seed, bool padded, int64_t numLayers = 1) {
  Random random(seed);
  Problem problem;
  problem.p = random.matrix(kVip, kDim);
  problem.c = random.matrix(kTokens, kDim);
  problem.valid = padded ? paddedValid() : std::vector<bool>(kTokens, true);
  for (int64_t l = 0; l < numLayers; ++l)
    problem.layers.push_back(randomWeights(random));
  return problem;
}

//===----------------------------------------------------------------------===//
// Matrix helpers (deliberately independent of the library's)
//===----------------------------------------------------------------------===//

Matrix rowsOf(const Matrix &x, int64_t begin, int64_t count) {
  Matrix out(count, x.cols);
  std::copy_n(x.data.begin() + begin * x.cols, count * x.cols,
              out.data.begin());
  return out;
}

Matrix concatRows(const Matrix &a, const Matrix &b) {
  Matrix out(a.rows + b.rows, a.cols);
  std::copy(a.data.begin(), a.data.end(), out.data.begin());
  std::copy(b.data.begin(), b.data.end(), out.data.begin() + a.data.size());
  return out;
}

Matrix multiply(const Matrix &a, const Matrix &b) {
  Matrix out(a.rows, b.cols);
  for (int64_t i = 0; i < a.rows; ++i)
    for (int64_t j = 0; j < b.cols; ++j)
      for (int64_t k = 0; k < a.cols; ++k)
        out.at(i, j) += a.at(i, k) * b.at(k, j);
  return out;
}

Matrix transpose(const Matrix &a) {
  Matrix out(a.cols, a.rows);
  for (int64_t i = 0; i < a.rows; ++i)
    for (int64_t j = 0; j < a.cols; ++j)
      out.at(j, i) = a.at(i, j);
  return out;
}

double maxAbs(const Matrix &a) {
  double m = 0.0;
  for (double v : a.data)
    m = std::max(m, std::fabs(v));
  return m;
}

/// max |a - b|; infinity where one is NaN or they are unequal infinities
/// (std::max would skip a NaN, and an all-NaN result would pass).
double maxAbsDiff(const std::vector<double> &a, const std::vector<double> &b) {
  EXPECT_EQ(a.size(), b.size());
  double m = 0.0;
  for (size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
    if (a[i] == b[i])
      continue;
    double d = std::fabs(a[i] - b[i]);
    m = std::isnan(d) ? kInf : std::max(m, d);
  }
  return m;
}

double maxAbsDiff(const Matrix &a, const Matrix &b) {
  EXPECT_EQ(a.rows, b.rows);
  EXPECT_EQ(a.cols, b.cols);
  if (a.rows != b.rows || a.cols != b.cols)
    return kInf;
  return maxAbsDiff(a.data, b.data);
}

/// max|a - b| / max|b|.
double relErr(const Matrix &a, const Matrix &b) {
  return maxAbsDiff(a, b) / std::max(maxAbs(b), 1e-300);
}

Matrix identity(int64_t n) {
  Matrix m(n, n);
  for (int64_t i = 0; i < n; ++i)
    m.at(i, i) = 1.0;
  return m;
}

// The test's own LayerNorm and affine map, independent of the reference's
// (attic::ref::vcc::layerNorm/affine) on purpose: the textbook layer below
// checks transformerLayer against them.
Matrix textbookLayerNorm(const Matrix &x, const std::vector<double> &gamma,
                         const std::vector<double> &beta) {
  Matrix out(x.rows, x.cols);
  for (int64_t i = 0; i < x.rows; ++i) {
    double mean = 0.0, var = 0.0;
    for (int64_t e = 0; e < x.cols; ++e)
      mean += x.at(i, e) / static_cast<double>(x.cols);
    for (int64_t e = 0; e < x.cols; ++e)
      var += (x.at(i, e) - mean) * (x.at(i, e) - mean) /
             static_cast<double>(x.cols);
    for (int64_t e = 0; e < x.cols; ++e)
      out.at(i, e) =
          (x.at(i, e) - mean) / std::sqrt(var + 1e-5) * gamma[e] + beta[e];
  }
  return out;
}

Matrix textbookAffine(const Matrix &x, const Matrix &w,
                      const std::vector<double> &b) {
  Matrix out = multiply(x, w);
  for (int64_t i = 0; i < out.rows; ++i)
    for (int64_t j = 0; j < out.cols; ++j)
      out.at(i, j) += b[j];
  return out;
}

/// [rows][heads * dh] -> [heads][rows][dh].
std::vector<double> headMajor(const Matrix &m, int64_t heads) {
  const int64_t dh = m.cols / heads;
  std::vector<double> out(m.rows * m.cols);
  for (int64_t h = 0; h < heads; ++h)
    for (int64_t i = 0; i < m.rows; ++i)
      for (int64_t e = 0; e < dh; ++e)
        out[(h * m.rows + i) * dh + e] = m.at(i, h * dh + e);
  return out;
}

//===----------------------------------------------------------------------===//
// Tree helpers
//===----------------------------------------------------------------------===//

int64_t sizeAt(const std::vector<int64_t> &fanouts, int64_t level) {
  int64_t s = 1;
  for (int64_t j = 0; j < level; ++j)
    s *= fanouts[j];
  return s;
}

/// Mean of the valid tokens of C in [index * s, (index + 1) * s), 0 if none.
std::vector<double> bruteMean(const Matrix &c, const std::vector<bool> &valid,
                              int64_t s, int64_t index) {
  std::vector<double> mean(c.cols, 0.0);
  int64_t count = 0;
  for (int64_t t = index * s; t < (index + 1) * s; ++t) {
    if (!valid[t])
      continue;
    ++count;
    for (int64_t e = 0; e < c.cols; ++e)
      mean[e] += c.at(t, e);
  }
  for (double &v : mean)
    v = count > 0 ? v / static_cast<double>(count) : 0.0;
  return mean;
}

/// For each token of C, the position of its J node in J.
std::vector<int64_t> ownerOf(const std::vector<Node> &j,
                             const std::vector<int64_t> &fanouts) {
  std::vector<int64_t> owner(kTokens, -1);
  for (int64_t k = 0; k < static_cast<int64_t>(j.size()); ++k) {
    const int64_t s = sizeAt(fanouts, j[k].level);
    for (int64_t t = j[k].index * s; t < (j[k].index + 1) * s; ++t)
      owner[t] = k;
  }
  return owner;
}

/// |J| = 1 + sum_j h_j (f_j - 1): each split replaces a node by its f
/// children; for the binary tree this is the paper's 1 + sum h_s.
int64_t expectedJSize(const std::vector<int64_t> &fanouts,
                      const std::vector<int64_t> &budgets) {
  int64_t size = 1;
  for (size_t level = 1; level < budgets.size(); ++level)
    size += budgets[level] * (fanouts[level - 1] - 1);
  return size;
}

std::vector<int64_t> countPerLevel(const std::vector<Node> &j, int64_t levels) {
  std::vector<int64_t> counts(levels + 1, 0);
  for (const Node &node : j)
    ++counts[node.level];
  return counts;
}

bool strictlyBelowJ(const Node &node, const std::vector<Node> &j,
                    const std::vector<int64_t> &fanouts) {
  const int64_t s = sizeAt(fanouts, node.level);
  for (const Node &owner : j) {
    if (owner.level <= node.level)
      continue;
    const int64_t so = sizeAt(fanouts, owner.level);
    if (node.index * s >= owner.index * so &&
        (node.index + 1) * s <= (owner.index + 1) * so)
      return true;
  }
  return false;
}

//===----------------------------------------------------------------------===//
// Selection by attention (section 3.6): the level's node means go through
// LN1 and the key projection and are scored against the projected VIP
// queries with segmentScores.
//===----------------------------------------------------------------------===//

struct AttentionScorer {
  const LayerWeights *weights = nullptr;
  std::vector<double> queries; // [H][n_p][dh]
  std::vector<bool> vipWeight;
  // Invariant 23: monotone per-level transformations of the scores.
  double factor = 1.0;
  bool addLogSize = false;
};

AttentionScorer makeScorer(const Matrix &p, const LayerWeights &w,
                           std::vector<bool> vipWeight = {}) {
  AttentionScorer scorer;
  scorer.weights = &w;
  scorer.queries = headMajor(
      textbookAffine(textbookLayerNorm(p, w.ln1Gamma, w.ln1Beta), w.wq, w.bq), w.heads);
  scorer.vipWeight =
      vipWeight.empty() ? std::vector<bool>(p.rows, true) : vipWeight;
  return scorer;
}

std::vector<double> scoreByAttention(const Tree &tree, int64_t level,
                                     const std::vector<int64_t> &indices,
                                     void *context) {
  const AttentionScorer &scorer = *static_cast<AttentionScorer *>(context);
  const LayerWeights &w = *scorer.weights;
  const int64_t m = static_cast<int64_t>(indices.size());
  Matrix means(m, tree.dim);
  std::vector<bool> valid(m);
  for (int64_t i = 0; i < m; ++i) {
    const std::vector<double> mean = nodeMean(tree, level, indices[i]);
    std::copy(mean.begin(), mean.end(), means.data.begin() + i * tree.dim);
    valid[i] = tree.count[level][indices[i]] > 0;
  }
  const std::vector<double> keys = headMajor(
      textbookAffine(textbookLayerNorm(means, w.ln1Gamma, w.ln1Beta), w.wk, w.bk), w.heads);
  const int64_t dh = w.dim / w.heads;
  const int64_t numVip = static_cast<int64_t>(scorer.vipWeight.size());
  std::vector<double> scores = segmentScores(
      scorer.queries, keys, w.heads, numVip, m, dh,
      1.0 / std::sqrt(static_cast<double>(dh)), valid, scorer.vipWeight);
  for (double &s : scores)
    if (std::isfinite(s))
      s = s * scorer.factor +
          (scorer.addLogSize
               ? std::log(static_cast<double>(tree.nodeSize(level)))
               : 0.0);
  return scores;
}

std::vector<Node> selectByAttention(const Matrix &p, const Tree &tree,
                                    const LayerWeights &w,
                                    const std::vector<int64_t> &budgets) {
  AttentionScorer scorer = makeScorer(p, w);
  return selectJ(tree, budgets, scoreByAttention, &scorer);
}

//===----------------------------------------------------------------------===//
// Pipelines
//===----------------------------------------------------------------------===//

struct TreeStep {
  Compressed compressed;
  Matrix y;
  int64_t rewritten = -1;
};

/// One VCC layer on the tree with a given J; p and tree are replaced by
/// their new values.
TreeStep treeLayer(Matrix &p, Tree &tree, const LayerWeights &w,
                   const std::vector<Node> &j) {
  TreeStep step;
  step.compressed = assemble(p, tree, j);
  step.y = transformerLayer(step.compressed.sx, step.compressed.keyBias, w);
  const int64_t np = p.rows;
  p = rowsOf(step.y, 0, np);
  tree = updateTree(tree, j, rowsOf(step.y, np, step.y.rows - np),
                    &step.rewritten);
  return step;
}

/// buildTree -> (selectJ -> assemble -> transformerLayer -> updateTree)* ->
/// materialize; returns [P; C].
Matrix treePipeline(const Problem &problem, const std::vector<int64_t> &fanouts,
                    const std::vector<int64_t> &budgets,
                    std::vector<std::vector<Node>> *js = nullptr) {
  Matrix p = problem.p;
  Tree tree = buildTree(problem.c, problem.valid, fanouts);
  for (const LayerWeights &w : problem.layers) {
    const std::vector<Node> j = selectByAttention(p, tree, w, budgets);
    if (js)
      js->push_back(j);
    treeLayer(p, tree, w, j);
  }
  return concatRows(p, materialize(tree));
}

/// Per layer: materialize X, rebuild the tree only to select J, then the
/// dense eq (7).
Matrix naivePipeline(const Problem &problem,
                     const std::vector<int64_t> &fanouts,
                     const std::vector<int64_t> &budgets,
                     std::vector<std::vector<Node>> *js = nullptr) {
  Matrix x = concatRows(problem.p, problem.c);
  for (const LayerWeights &w : problem.layers) {
    const Tree tree =
        buildTree(rowsOf(x, kVip, kTokens), problem.valid, fanouts);
    const std::vector<Node> j =
        selectByAttention(rowsOf(x, 0, kVip), tree, w, budgets);
    if (js)
      js->push_back(j);
    x = naiveVccLayer(x, kVip, problem.valid, fanouts, j, w);
  }
  return x;
}

/// Dense S ([n_p + |J'|] x n, J' = J nodes with valid tokens) and D.
struct DenseS {
  Matrix s;
  std::vector<double> d;
};

DenseS denseS(const std::vector<Node> &j, const std::vector<int64_t> &fanouts,
              const std::vector<bool> &valid) {
  std::vector<std::vector<int64_t>> members;
  for (const Node &node : j) {
    const int64_t s = sizeAt(fanouts, node.level);
    std::vector<int64_t> tokens;
    for (int64_t t = node.index * s; t < (node.index + 1) * s; ++t)
      if (valid[t])
        tokens.push_back(t);
    if (!tokens.empty())
      members.push_back(tokens);
  }
  DenseS out;
  const int64_t rows = kVip + static_cast<int64_t>(members.size());
  out.s = Matrix(rows, kVip + kTokens);
  out.d.assign(rows, 1.0);
  for (int64_t i = 0; i < kVip; ++i)
    out.s.at(i, i) = 1.0;
  for (size_t k = 0; k < members.size(); ++k) {
    const double count = static_cast<double>(members[k].size());
    out.d[kVip + k] = count;
    for (int64_t t : members[k])
      out.s.at(kVip + k, kVip + t) = 1.0 / count;
  }
  return out;
}

template <typename F> void expectError(F &&call, const std::string &fragment) {
  try {
    call();
    ADD_FAILURE() << "expected vcc::Error mentioning '" << fragment << "'";
  } catch (const Error &error) {
    EXPECT_NE(std::string(error.what()).find(fragment), std::string::npos)
        << "message: " << error.what() << "\nexpected to contain: " << fragment;
  }
}

//===----------------------------------------------------------------------===//
// The layer itself
//===----------------------------------------------------------------------===//

/// The pre-LN layer written out independently: logits as a full matrix and
/// the softmax as exp(logit + bias) / sum, without max-subtraction.
Matrix textbookLayer(const Matrix &x, const std::vector<double> &bias,
                     const LayerWeights &w) {
  const Matrix normed = textbookLayerNorm(x, w.ln1Gamma, w.ln1Beta);
  const Matrix q = textbookAffine(normed, w.wq, w.bq), k = textbookAffine(normed, w.wk, w.bk),
               v = textbookAffine(normed, w.wv, w.bv);
  const int64_t dh = w.dim / w.heads;
  Matrix context(x.rows, w.dim);
  for (int64_t h = 0; h < w.heads; ++h)
    for (int64_t i = 0; i < x.rows; ++i) {
      std::vector<double> weight(x.rows);
      double total = 0.0;
      for (int64_t j = 0; j < x.rows; ++j) {
        double dot = 0.0;
        for (int64_t e = 0; e < dh; ++e)
          dot += q.at(i, h * dh + e) * k.at(j, h * dh + e);
        weight[j] =
            std::exp(dot / std::sqrt(static_cast<double>(dh)) + bias[j]);
        total += weight[j];
      }
      for (int64_t j = 0; j < x.rows; ++j)
        for (int64_t e = 0; e < dh; ++e)
          context.at(i, h * dh + e) += weight[j] / total * v.at(j, h * dh + e);
    }
  const Matrix a = textbookAffine(context, w.wo, w.bo);
  Matrix hidden(x.rows, w.dim);
  for (size_t i = 0; i < hidden.data.size(); ++i)
    hidden.data[i] = x.data[i] + a.data[i];
  Matrix inner = textbookAffine(textbookLayerNorm(hidden, w.ln2Gamma, w.ln2Beta), w.w1, w.b1);
  // GELU written with erfc (x Phi(x)), independent of the reference's erf.
  for (double &value : inner.data)
    value = w.activation == Activation::Gelu
                ? value * 0.5 * std::erfc(-value / std::sqrt(2.0))
                : (value > 0.0 ? value : 0.0);
  const Matrix ffn = textbookAffine(inner, w.w2, w.b2);
  for (size_t i = 0; i < hidden.data.size(); ++i)
    hidden.data[i] += ffn.data[i];
  return hidden;
}

TEST(VccTest, TransformerLayerMatchesTextbook) {
  Random random(40);
  const LayerWeights w = randomWeights(random);
  const Matrix x = random.matrix(9, kDim, 2.0);
  std::vector<double> bias = random.values(9, -1.0, 2.0);
  EXPECT_LT(relErr(transformerLayer(x, bias, w), textbookLayer(x, bias, w)),
            1e-13);
  // With the exact GELU (the VCC authors' FFN), which differs from ReLU.
  LayerWeights gelu = w;
  gelu.activation = Activation::Gelu;
  EXPECT_LT(relErr(transformerLayer(x, bias, gelu),
                   textbookLayer(x, bias, gelu)),
            1e-13);
  EXPECT_GT(relErr(transformerLayer(x, bias, gelu), transformerLayer(x, bias, w)),
            1e-3);
  // A -inf key is the same as dropping it from the keys.
  bias[4] = -kInf;
  const Matrix y = transformerLayer(x, bias, w);
  Matrix xWithout(8, kDim);
  std::vector<double> biasWithout;
  for (int64_t i = 0, r = 0; i < 9; ++i) {
    if (i == 4)
      continue;
    std::copy_n(x.data.begin() + i * kDim, kDim,
                xWithout.data.begin() + r++ * kDim);
    biasWithout.push_back(bias[i]);
  }
  const Matrix yWithout = textbookLayer(xWithout, biasWithout, w);
  EXPECT_LT(maxAbsDiff(rowsOf(y, 0, 4), rowsOf(yWithout, 0, 4)), 1e-13);
  EXPECT_LT(maxAbsDiff(rowsOf(y, 5, 4), rowsOf(yWithout, 4, 4)), 1e-13);
}

//===----------------------------------------------------------------------===//
// Compression algebra
//===----------------------------------------------------------------------===//

TEST(VccTest, Invariant01PseudoInverseIsOneHotBroadcast) {
  for (bool padded : {false, true}) {
    const Problem problem = makeProblem(1, padded);
    const Tree tree = buildTree(problem.c, problem.valid, kBinary);
    const std::vector<Node> j =
        selectByAttention(problem.p, tree, problem.layers[0], kBinaryBudgets);
    const DenseS dense = denseS(j, kBinary, problem.valid);
    const Matrix &s = dense.s;
    Matrix sDagger = transpose(s); // S^T D
    for (int64_t i = 0; i < sDagger.rows; ++i)
      for (int64_t k = 0; k < sDagger.cols; ++k)
        sDagger.at(i, k) *= dense.d[k];

    // The four Moore-Penrose conditions make S^T D the pseudo-inverse.
    const Matrix sSd = multiply(s, sDagger), sdS = multiply(sDagger, s);
    EXPECT_LT(maxAbsDiff(sSd, identity(s.rows)), 1e-14);
    EXPECT_LT(maxAbsDiff(multiply(sSd, s), s), 1e-14);
    EXPECT_LT(maxAbsDiff(multiply(sdS, sDagger), sDagger), 1e-14);
    EXPECT_LT(maxAbsDiff(sdS, transpose(sdS)), 1e-14);

    // Every row of a valid token holds exactly one 1; padded rows are 0.
    int64_t nonzeros = 0;
    for (int64_t i = 0; i < sDagger.rows; ++i) {
      const bool isValid = i < kVip || problem.valid[i - kVip];
      int64_t rowNonzeros = 0;
      for (int64_t k = 0; k < sDagger.cols; ++k)
        if (sDagger.at(i, k) != 0.0) {
          ++rowNonzeros;
          EXPECT_NEAR(sDagger.at(i, k), 1.0, 1e-14);
        }
      EXPECT_EQ(rowNonzeros, isValid ? 1 : 0) << "row " << i;
      nonzeros += rowNonzeros;
    }
    const int64_t validCount =
        kVip + std::count(problem.valid.begin(), problem.valid.end(), true);
    EXPECT_EQ(nonzeros, validCount);

    // naiveVccLayer's Gauss-Jordan pseudo-inverse is that broadcast:
    // X_new[i] = X[i] + Y[owner(i)] - SX[owner(i)].
    const Compressed compressed = assemble(problem.p, tree, j);
    const Matrix y =
        transformerLayer(compressed.sx, compressed.keyBias, problem.layers[0]);
    const Matrix x = concatRows(problem.p, problem.c);
    const std::vector<int64_t> owner = ownerOf(j, kBinary);
    Matrix broadcast(x.rows, x.cols);
    for (int64_t i = 0; i < x.rows; ++i) {
      if (i >= kVip && !problem.valid[i - kVip])
        continue;
      const int64_t row = i < kVip ? i : kVip + owner[i - kVip];
      for (int64_t e = 0; e < x.cols; ++e)
        broadcast.at(i, e) =
            x.at(i, e) + y.at(row, e) - compressed.sx.at(row, e);
    }
    const Matrix naive =
        naiveVccLayer(x, kVip, problem.valid, kBinary, j, problem.layers[0]);
    EXPECT_LT(relErr(naive, broadcast), 1e-12) << "padded " << padded;
  }
}

TEST(VccTest, Invariant02BlockMeanProjector) {
  const Problem problem = makeProblem(2, /*padded=*/false);
  const Tree tree = buildTree(problem.c, problem.valid, kTwoLevel);
  const std::vector<Node> j =
      selectByAttention(problem.p, tree, problem.layers[0], kTwoLevelBudgets);
  const DenseS dense = denseS(j, kTwoLevel, problem.valid);
  Matrix sDagger = transpose(dense.s);
  for (int64_t i = 0; i < sDagger.rows; ++i)
    for (int64_t k = 0; k < sDagger.cols; ++k)
      sDagger.at(i, k) *= dense.d[k];
  const Matrix projector = multiply(sDagger, dense.s);
  EXPECT_LT(maxAbsDiff(projector, transpose(projector)), 1e-15);
  EXPECT_LT(maxAbsDiff(multiply(projector, projector), projector), 1e-15);
  const std::vector<int64_t> owner = ownerOf(j, kTwoLevel);
  Matrix blockMean(kVip + kTokens, kVip + kTokens);
  for (int64_t i = 0; i < kVip; ++i)
    blockMean.at(i, i) = 1.0;
  for (int64_t a = 0; a < kTokens; ++a)
    for (int64_t b = 0; b < kTokens; ++b)
      if (owner[a] == owner[b])
        blockMean.at(kVip + a, kVip + b) =
            1.0 / static_cast<double>(sizeAt(kTwoLevel, j[owner[a]].level));
  EXPECT_LT(maxAbsDiff(projector, blockMean), 1e-15);
}

TEST(VccTest, Invariant03CompressedRowsAreSegmentMeans) {
  for (bool padded : {false, true})
    for (const auto &[fanouts, budgets] :
         {std::pair{kTwoLevel, kTwoLevelBudgets},
          std::pair{kBinary, kBinaryBudgets}}) {
      const Problem problem = makeProblem(3, padded);
      const Tree tree = buildTree(problem.c, problem.valid, fanouts);
      const std::vector<Node> j =
          selectByAttention(problem.p, tree, problem.layers[0], budgets);
      const Compressed compressed = assemble(problem.p, tree, j);
      ASSERT_EQ(compressed.sx.rows, kVip + static_cast<int64_t>(j.size()));
      ASSERT_EQ(static_cast<int64_t>(compressed.keyBias.size()),
                compressed.sx.rows);
      EXPECT_EQ(maxAbsDiff(rowsOf(compressed.sx, 0, kVip), problem.p), 0.0);
      for (int64_t i = 0; i < kVip; ++i)
        EXPECT_EQ(compressed.keyBias[i], 0.0);
      for (size_t k = 0; k < j.size(); ++k) {
        const int64_t s = sizeAt(fanouts, j[k].level);
        const std::vector<double> expected =
            bruteMean(problem.c, problem.valid, s, j[k].index);
        const std::vector<double> row(
            compressed.sx.data.begin() + (kVip + k) * kDim,
            compressed.sx.data.begin() + (kVip + k + 1) * kDim);
        EXPECT_LT(maxAbsDiff(row, expected), 1e-14);
        if (tree.count[j[k].level][j[k].index] > 0)
          EXPECT_EQ(compressed.keyBias[kVip + k],
                    std::log(static_cast<double>(s)));
        else
          EXPECT_EQ(compressed.keyBias[kVip + k], -kInf);
      }
    }
}

TEST(VccTest, Invariant05JIsAPartition) {
  const Problem problem = makeProblem(5, /*padded=*/true);
  std::vector<
      std::pair<std::vector<int64_t>, std::vector<std::vector<int64_t>>>>
      cases = {{kTwoLevel, {{0, 0, 0}, {0, 0, 1}, {0, 3, 1}, {0, 8, 1}}},
               {kBinary,
                {{0, 0, 0, 0, 0, 0},
                 {0, 3, 3, 2, 2, 1},
                 {0, 1, 1, 1, 1, 1},
                 {0, 16, 8, 4, 2, 1},
                 {0, 0, 4, 4, 2, 1}}}};
  for (const auto &[fanouts, budgetList] : cases) {
    const Tree tree = buildTree(problem.c, problem.valid, fanouts);
    for (const std::vector<int64_t> &budgets : budgetList) {
      const std::vector<Node> j =
          selectByAttention(problem.p, tree, problem.layers[0], budgets);
      std::vector<int> covered(kTokens, 0);
      for (const Node &node : j) {
        const int64_t s = sizeAt(fanouts, node.level);
        for (int64_t t = node.index * s; t < (node.index + 1) * s; ++t)
          ++covered[t];
      }
      for (int64_t t = 0; t < kTokens; ++t)
        EXPECT_EQ(covered[t], 1) << "token " << t;
    }
  }
  const Tree tree = buildTree(problem.c, problem.valid, kTwoLevel);
  const std::vector<Node> j = twoLevelJ(tree, {6, 1, 3});
  std::vector<int> covered(kTokens, 0);
  for (const Node &node : j)
    for (int64_t t = node.index * (node.level ? 4 : 1);
         t < (node.index + 1) * (node.level ? 4 : 1); ++t)
      ++covered[t];
  EXPECT_TRUE(std::all_of(covered.begin(), covered.end(),
                          [](int c) { return c == 1; }));
}

TEST(VccTest, Invariant06JCountsPerLevel) {
  const Problem problem = makeProblem(6, /*padded=*/false);
  for (const auto &[fanouts, budgets] :
       {std::pair{kTwoLevel, kTwoLevelBudgets},
        std::pair{kBinary, kBinaryBudgets},
        std::pair{kBinary, std::vector<int64_t>{0, 0, 4, 4, 2, 1}}}) {
    const Tree tree = buildTree(problem.c, problem.valid, fanouts);
    const std::vector<Node> j =
        selectByAttention(problem.p, tree, problem.layers[0], budgets);
    const int64_t levels = static_cast<int64_t>(fanouts.size());
    EXPECT_EQ(static_cast<int64_t>(j.size()), expectedJSize(fanouts, budgets));
    if (fanouts == kBinary)
      EXPECT_EQ(
          static_cast<int64_t>(j.size()),
          1 + std::accumulate(budgets.begin(), budgets.end(), int64_t{0}));
    // |J_j| = f_j h_{j+1} - h_j, with h_{L+1} = 0 and one root.
    const std::vector<int64_t> counts = countPerLevel(j, levels);
    for (int64_t level = 0; level < levels; ++level)
      EXPECT_EQ(counts[level],
                fanouts[level] * budgets[level + 1] - budgets[level])
          << "level " << level;
    EXPECT_EQ(counts[levels], 1 - budgets[levels]);
  }
  // Two-resolution: r = n_p + (n_c/k - h) + h k.
  const Tree tree = buildTree(problem.c, problem.valid, kTwoLevel);
  const std::vector<Node> j =
      selectByAttention(problem.p, tree, problem.layers[0], kTwoLevelBudgets);
  const int64_t k = 4, h = 3;
  EXPECT_EQ(assemble(problem.p, tree, j).sx.rows,
            kVip + (kTokens / k - h) + h * k);
}

//===----------------------------------------------------------------------===//
// Layer equivalences
//===----------------------------------------------------------------------===//

TEST(VccTest, Invariant07NoCompressionIsExact) {
  for (bool padded : {false, true})
    for (const auto &[fanouts, budgets] :
         {std::pair{kTwoLevel, std::vector<int64_t>{0, 8, 1}},
          std::pair{kBinary, std::vector<int64_t>{0, 16, 8, 4, 2, 1}}}) {
      const Problem problem = makeProblem(7, padded);
      const LayerWeights &w = problem.layers[0];
      const Matrix x = concatRows(problem.p, problem.c);
      std::vector<double> bias(kVip + kTokens, 0.0);
      for (int64_t t = 0; t < kTokens; ++t)
        if (!problem.valid[t])
          bias[kVip + t] = -kInf;
      Matrix exact = transformerLayer(x, bias, w);
      for (int64_t t = 0; t < kTokens; ++t)
        if (!problem.valid[t])
          std::fill_n(exact.data.begin() + (kVip + t) * kDim, kDim, 0.0);

      std::vector<std::vector<Node>> js;
      const Matrix viaTree = treePipeline(problem, fanouts, budgets, &js);
      ASSERT_EQ(js[0].size(), static_cast<size_t>(kTokens));
      EXPECT_LT(relErr(viaTree, exact), 1e-9) << "padded " << padded;
      const Matrix naive = naivePipeline(problem, fanouts, budgets);
      EXPECT_LT(relErr(naive, exact), 1e-9) << "padded " << padded;
    }
  // h = n_c / k through twoLevelJ.
  const Problem problem = makeProblem(7, /*padded=*/false);
  Tree tree = buildTree(problem.c, problem.valid, kTwoLevel);
  Matrix p = problem.p;
  treeLayer(p, tree, problem.layers[0],
            twoLevelJ(tree, {7, 6, 5, 4, 3, 2, 1, 0}));
  const Matrix exact = transformerLayer(
      concatRows(problem.p, problem.c),
      std::vector<double>(kVip + kTokens, 0.0), problem.layers[0]);
  EXPECT_LT(relErr(concatRows(p, materialize(tree)), exact), 1e-9);
}

/// transformerLayer on the duplicated sequence S^+ S X (each J segment
/// replaced by copies of its mean), and the compressed output broadcast back.
struct Duplicated {
  Matrix exact, compressed;
};

Duplicated duplicatedLayer(const Problem &problem,
                           const std::vector<int64_t> &fanouts,
                           const std::vector<int64_t> &budgets, bool withBias) {
  const LayerWeights &w = problem.layers[0];
  const Tree tree = buildTree(problem.c, problem.valid, fanouts);
  const std::vector<Node> j = selectByAttention(problem.p, tree, w, budgets);
  const Compressed c = assemble(problem.p, tree, j);
  const std::vector<int64_t> owner = ownerOf(j, fanouts);
  std::vector<int64_t> rowOf(kVip + kTokens);
  for (int64_t i = 0; i < kVip + kTokens; ++i)
    rowOf[i] = i < kVip ? i : kVip + owner[i - kVip];
  Matrix xDup(kVip + kTokens, kDim);
  for (int64_t i = 0; i < xDup.rows; ++i)
    for (int64_t e = 0; e < kDim; ++e)
      xDup.at(i, e) = c.sx.at(rowOf[i], e);
  const std::vector<double> noBias(c.sx.rows, 0.0);
  const Matrix y = transformerLayer(c.sx, withBias ? c.keyBias : noBias, w);
  Duplicated out;
  out.exact = transformerLayer(xDup, std::vector<double>(xDup.rows, 0.0), w);
  out.compressed = Matrix(xDup.rows, kDim);
  for (int64_t i = 0; i < xDup.rows; ++i)
    for (int64_t e = 0; e < kDim; ++e)
      out.compressed.at(i, e) = y.at(rowOf[i], e);
  return out;
}

TEST(VccTest, Invariant08LogCountBiasEqualsDuplicatedSequence) {
  const Problem problem = makeProblem(8, /*padded=*/false);
  for (const auto &[fanouts, budgets] : {std::pair{kTwoLevel, kTwoLevelBudgets},
                                         std::pair{kBinary, kBinaryBudgets}}) {
    const Duplicated d = duplicatedLayer(problem, fanouts, budgets, true);
    EXPECT_LT(relErr(d.compressed, d.exact), 1e-9);
  }
}

TEST(VccTest, Invariant09WithoutBiasDuplicationDiffers) {
  const Problem problem = makeProblem(8, /*padded=*/false);
  for (const auto &[fanouts, budgets] : {std::pair{kTwoLevel, kTwoLevelBudgets},
                                         std::pair{kBinary, kBinaryBudgets}}) {
    const Duplicated d = duplicatedLayer(problem, fanouts, budgets, false);
    EXPECT_GT(relErr(d.compressed, d.exact), 1e-3);
  }
}

void expectTreeEqualsNaive(int64_t numLayers) {
  for (bool padded : {false, true})
    for (const auto &[fanouts, budgets] :
         {std::pair{kTwoLevel, kTwoLevelBudgets},
          std::pair{kBinary, kBinaryBudgets}}) {
      const Problem problem = makeProblem(10, padded, numLayers);
      std::vector<std::vector<Node>> treeJs, naiveJs;
      const Matrix viaTree = treePipeline(problem, fanouts, budgets, &treeJs);
      const Matrix naive = naivePipeline(problem, fanouts, budgets, &naiveJs);
      EXPECT_EQ(treeJs, naiveJs) << "padded " << padded;
      EXPECT_LT(relErr(viaTree, naive), 1e-9) << "padded " << padded;
      // The layers did something.
      EXPECT_GT(relErr(naive, concatRows(problem.p, problem.c)), 1e-2);
    }
}

TEST(VccTest, Invariant10TreePathEqualsNaiveOneLayer) {
  expectTreeEqualsNaive(1);
}

TEST(VccTest, Invariant11TreePathEqualsNaiveThreeLayers) {
  expectTreeEqualsNaive(3);
}

TEST(VccTest, Invariant12UnsplitSegmentsGetOneUpdate) {
  for (bool padded : {false, true})
    for (const auto &[fanouts, budgets] :
         {std::pair{kTwoLevel, kTwoLevelBudgets},
          std::pair{kBinary, kBinaryBudgets}}) {
      const Problem problem = makeProblem(12, padded);
      Tree tree = buildTree(problem.c, problem.valid, fanouts);
      const Matrix before = materialize(tree);
      Matrix p = problem.p;
      const std::vector<Node> j =
          selectByAttention(p, tree, problem.layers[0], budgets);
      const TreeStep step = treeLayer(p, tree, problem.layers[0], j);
      const Matrix after = materialize(tree);
      int64_t checked = 0;
      for (size_t k = 0; k < j.size(); ++k) {
        if (j[k].level == 0)
          continue;
        const int64_t s = sizeAt(fanouts, j[k].level);
        for (int64_t t = j[k].index * s; t < (j[k].index + 1) * s; ++t) {
          if (!problem.valid[t])
            continue;
          for (int64_t e = 0; e < kDim; ++e) {
            const double expected =
                step.y.at(kVip + k, e) - step.compressed.sx.at(kVip + k, e);
            EXPECT_NEAR(after.at(t, e) - before.at(t, e), expected, 1e-12);
          }
          ++checked;
        }
      }
      EXPECT_GT(checked, 0);
    }
}

TEST(VccTest, Invariant13SegmentMeansOfOutputAreLayerRows) {
  for (bool padded : {false, true})
    for (const auto &[fanouts, budgets] :
         {std::pair{kTwoLevel, kTwoLevelBudgets},
          std::pair{kBinary, kBinaryBudgets}}) {
      const Problem problem = makeProblem(13, padded);
      Tree tree = buildTree(problem.c, problem.valid, fanouts);
      Matrix p = problem.p;
      const std::vector<Node> j =
          selectByAttention(p, tree, problem.layers[0], budgets);
      const TreeStep step = treeLayer(p, tree, problem.layers[0], j);
      const Matrix after = materialize(tree);
      for (size_t k = 0; k < j.size(); ++k) {
        if (tree.count[j[k].level][j[k].index] == 0)
          continue; // an empty segment has no mean to compare
        const std::vector<double> mean = bruteMean(
            after, problem.valid, sizeAt(fanouts, j[k].level), j[k].index);
        const std::vector<double> row(step.y.data.begin() + (kVip + k) * kDim,
                                      step.y.data.begin() +
                                          (kVip + k + 1) * kDim);
        EXPECT_LT(maxAbsDiff(mean, row), 1e-12);
      }
    }
}

TEST(VccTest, Invariant14VipRowsSeeOnlySegmentMeans) {
  const Problem problem = makeProblem(14, /*padded=*/true);
  const LayerWeights &w = problem.layers[0];
  const Tree tree = buildTree(problem.c, problem.valid, kBinary);
  const std::vector<Node> j =
      selectByAttention(problem.p, tree, w, kBinaryBudgets);
  // Zero-mean (over the valid tokens) noise inside every unsplit segment.
  Random random(140);
  Matrix c2 = problem.c;
  for (const Node &node : j) {
    if (node.level == 0)
      continue;
    const int64_t s = sizeAt(kBinary, node.level);
    std::vector<int64_t> tokens;
    for (int64_t t = node.index * s; t < (node.index + 1) * s; ++t)
      if (problem.valid[t])
        tokens.push_back(t);
    for (int64_t e = 0; e < kDim; ++e) {
      std::vector<double> noise = random.values(tokens.size());
      double mean = 0.0;
      for (double v : noise)
        mean += v / static_cast<double>(noise.size());
      for (size_t i = 0; i < tokens.size(); ++i)
        c2.at(tokens[i], e) += noise[i] - mean;
    }
  }
  ASSERT_GT(maxAbsDiff(c2, problem.c), 0.1);
  const Compressed a = assemble(problem.p, tree, j);
  const Compressed b =
      assemble(problem.p, buildTree(c2, problem.valid, kBinary), j);
  const Matrix ya = transformerLayer(a.sx, a.keyBias, w);
  const Matrix yb = transformerLayer(b.sx, b.keyBias, w);
  EXPECT_LT(maxAbsDiff(rowsOf(ya, 0, kVip), rowsOf(yb, 0, kVip)), 1e-12);
}

//===----------------------------------------------------------------------===//
// Data structure
//===----------------------------------------------------------------------===//

TEST(VccTest, Invariant15RetrievalEqualsSegmentMean) {
  for (bool padded : {false, true})
    for (const std::vector<int64_t> &fanouts : {kTwoLevel, kBinary}) {
      const Problem problem = makeProblem(15, padded);
      const Tree tree = buildTree(problem.c, problem.valid, fanouts);
      for (int64_t level = 0; level <= tree.levels(); ++level) {
        const int64_t s = tree.nodeSize(level);
        EXPECT_EQ(s, sizeAt(fanouts, level));
        EXPECT_EQ(tree.nodesAt(level), kTokens / s);
        const Matrix means = levelMeans(tree, level);
        ASSERT_EQ(means.rows, kTokens / s);
        for (int64_t x = 0; x < kTokens / s; ++x) {
          const std::vector<double> mean = nodeMean(tree, level, x);
          EXPECT_LT(maxAbsDiff(mean, bruteMean(problem.c, problem.valid, s, x)),
                    1e-14);
          for (int64_t e = 0; e < kDim; ++e) {
            EXPECT_EQ(mean[e], means.at(x, e)); // same walk, same bits
            if (tree.count[level][x] == 0)
              EXPECT_EQ(mean[e], 0.0);
          }
        }
      }
    }
}

TEST(VccTest, Invariant16BuildMaterializeRoundTrip) {
  for (bool padded : {false, true})
    for (const std::vector<int64_t> &fanouts :
         {kTwoLevel, kBinary, std::vector<int64_t>{32},
          std::vector<int64_t>{1, 4, 1, 8}}) {
      const Problem problem = makeProblem(16, padded);
      const Matrix c =
          materialize(buildTree(problem.c, problem.valid, fanouts));
      for (int64_t t = 0; t < kTokens; ++t)
        for (int64_t e = 0; e < kDim; ++e) {
          if (problem.valid[t])
            EXPECT_NEAR(c.at(t, e), problem.c.at(t, e), 1e-14);
          else
            EXPECT_EQ(c.at(t, e), 0.0);
        }
    }
}

TEST(VccTest, Invariant17UpdateEqualsRebuild) {
  for (bool padded : {false, true})
    for (const auto &[fanouts, budgets] :
         {std::pair{kTwoLevel, kTwoLevelBudgets},
          std::pair{kBinary, kBinaryBudgets}}) {
      const Problem problem = makeProblem(17, padded, 3);
      Tree tree = buildTree(problem.c, problem.valid, fanouts);
      Matrix p = problem.p;
      for (const LayerWeights &w : problem.layers) {
        const std::vector<Node> j = selectByAttention(p, tree, w, budgets);
        treeLayer(p, tree, w, j);
        const Tree rebuilt =
            buildTree(materialize(tree), problem.valid, fanouts);
        EXPECT_LT(maxAbsDiff(tree.root, rebuilt.root), 1e-12);
        EXPECT_EQ(tree.count, rebuilt.count);
        for (int64_t level = 0; level < tree.levels(); ++level)
          for (int64_t x = 0; x < tree.nodesAt(level); ++x) {
            // An empty node strictly below J keeps its old delta: it is
            // never read (its mean is 0 by its count).
            if (tree.count[level][x] == 0 &&
                strictlyBelowJ({level, x}, j, fanouts))
              continue;
            for (int64_t e = 0; e < kDim; ++e)
              EXPECT_NEAR(tree.delta[level].at(x, e),
                          rebuilt.delta[level].at(x, e), 1e-12)
                  << "level " << level << " index " << x;
          }
      }
    }
}

TEST(VccTest, Invariant18DeltasBelowJUntouched) {
  for (bool padded : {false, true})
    for (const auto &[fanouts, budgets] :
         {std::pair{kTwoLevel, kTwoLevelBudgets},
          std::pair{kBinary, kBinaryBudgets}}) {
      const Problem problem = makeProblem(18, padded);
      const Tree before = buildTree(problem.c, problem.valid, fanouts);
      Tree tree = before;
      Matrix p = problem.p;
      const std::vector<Node> j =
          selectByAttention(p, tree, problem.layers[0], budgets);
      treeLayer(p, tree, problem.layers[0], j);
      int64_t below = 0, changed = 0;
      for (int64_t level = 0; level < tree.levels(); ++level)
        for (int64_t x = 0; x < tree.nodesAt(level); ++x) {
          const bool untouched = strictlyBelowJ({level, x}, j, fanouts);
          bool same = true;
          for (int64_t e = 0; e < kDim; ++e)
            same = same &&
                   tree.delta[level].at(x, e) == before.delta[level].at(x, e);
          if (untouched) {
            ++below;
            EXPECT_TRUE(same) << "level " << level << " index " << x;
          } else if (!same) {
            ++changed;
          }
        }
      EXPECT_GT(below, 0);
      EXPECT_GT(changed, 0);
    }
}

TEST(VccTest, Invariant19UpdateCount) {
  const Problem problem = makeProblem(19, /*padded=*/false);
  const LayerWeights &w = problem.layers[0];
  struct Case {
    std::vector<int64_t> fanouts, budgets;
    int64_t expected;
  };
  // Binary with the root split: 2|J| - 2 (|J| = 12). Two-level: every block
  // and the h k fine tokens, 8 + 3 * 4. Unsplit root: nothing.
  for (const Case &c : {Case{kBinary, kBinaryBudgets, 2 * 12 - 2},
                        Case{kTwoLevel, kTwoLevelBudgets, 8 + 3 * 4},
                        Case{kTwoLevel, {0, 0, 0}, 0},
                        Case{kBinary, {0, 16, 8, 4, 2, 1}, 62}}) {
    Tree tree = buildTree(problem.c, problem.valid, c.fanouts);
    Matrix p = problem.p;
    const std::vector<Node> j = selectByAttention(p, tree, w, c.budgets);
    const TreeStep step = treeLayer(p, tree, w, j);
    EXPECT_EQ(step.rewritten, c.expected);
    // |J| + the split nodes below the root.
    int64_t splitBelowRoot = 0;
    for (size_t level = 1; level + 1 < c.budgets.size(); ++level)
      splitBelowRoot += c.budgets[level];
    if (c.budgets.back() == 1)
      EXPECT_EQ(step.rewritten,
                static_cast<int64_t>(j.size()) + splitBelowRoot);
  }
}

TEST(VccTest, Invariant21MeanPreservation) {
  for (bool padded : {false, true})
    for (const auto &[fanouts, budgets] :
         {std::pair{kTwoLevel, kTwoLevelBudgets},
          std::pair{kBinary, kBinaryBudgets}}) {
      const Problem problem = makeProblem(21, padded);
      Tree tree = buildTree(problem.c, problem.valid, fanouts);
      Matrix p = problem.p;
      for (int pass = 0; pass < 2; ++pass) {
        for (int64_t level = 1; level <= tree.levels(); ++level) {
          const int64_t f = fanouts[level - 1];
          for (int64_t x = 0; x < tree.nodesAt(level); ++x) {
            std::vector<double> expected(kDim, 0.0);
            int64_t count = 0;
            for (int64_t child = x * f; child < (x + 1) * f; ++child) {
              const int64_t cc = tree.count[level - 1][child];
              const std::vector<double> m = nodeMean(tree, level - 1, child);
              for (int64_t e = 0; e < kDim; ++e)
                expected[e] += static_cast<double>(cc) * m[e];
              count += cc;
            }
            EXPECT_EQ(tree.count[level][x], count);
            for (double &v : expected)
              v = count ? v / static_cast<double>(count) : 0.0;
            EXPECT_LT(maxAbsDiff(nodeMean(tree, level, x), expected), 1e-12);
          }
        }
        // Second pass: after one Algorithm-2 update.
        treeLayer(p, tree, problem.layers[0],
                  selectByAttention(p, tree, problem.layers[0], budgets));
      }
    }
}

//===----------------------------------------------------------------------===//
// Selection
//===----------------------------------------------------------------------===//

TEST(VccTest, TopKTiesGoToLowerIndexAndNegInfLast) {
  const std::vector<double> scores = {1.0, 3.0, -kInf, 3.0, 2.0, -kInf, 0.5};
  EXPECT_EQ(topK(scores, 0), (std::vector<int64_t>{}));
  EXPECT_EQ(topK(scores, 1), (std::vector<int64_t>{1}));
  EXPECT_EQ(topK(scores, 2), (std::vector<int64_t>{1, 3}));
  EXPECT_EQ(topK(scores, 3), (std::vector<int64_t>{1, 3, 4}));
  EXPECT_EQ(topK(scores, 5), (std::vector<int64_t>{0, 1, 3, 4, 6}));
  EXPECT_EQ(topK(scores, 6), (std::vector<int64_t>{0, 1, 2, 3, 4, 6}));
  EXPECT_EQ(topK(scores, 7), (std::vector<int64_t>{0, 1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(topK({2.0, 2.0, 2.0}, 2), (std::vector<int64_t>{0, 1}));
}

TEST(VccTest, SegmentScoresAreAveragedProbabilities) {
  // heads = 1, numVip = 2, 3 candidates, headDim = 1, the middle invalid.
  const std::vector<double> q = {1.0, -2.0}, k = {0.5, 9.0, -1.0};
  const std::vector<double> scores =
      segmentScores(q, k, 1, 2, 3, 1, 2.0, {true, false, true}, {true, true});
  const double a0 = std::exp(1.0), a2 = std::exp(-2.0); // VIP 0
  const double b0 = std::exp(-2.0), b2 = std::exp(4.0); // VIP 1
  EXPECT_NEAR(scores[0], (a0 / (a0 + a2) + b0 / (b0 + b2)) / 2, 1e-15);
  EXPECT_EQ(scores[1], -kInf);
  EXPECT_NEAR(scores[2], (a2 / (a0 + a2) + b2 / (b0 + b2)) / 2, 1e-15);
  // A weight-0 VIP row still counts in the divisor n_p.
  const std::vector<double> masked =
      segmentScores(q, k, 1, 2, 3, 1, 2.0, {true, false, true}, {true, false});
  EXPECT_NEAR(masked[0], a0 / (a0 + a2) / 2, 1e-15);
  // No valid candidate: all -inf.
  for (double s : segmentScores(q, k, 1, 2, 3, 1, 2.0, {false, false, false},
                                {true, true}))
    EXPECT_EQ(s, -kInf);
}

TEST(VccTest, Invariant22SelectionIsDeterministic) {
  const Problem problem = makeProblem(22, /*padded=*/false);
  const LayerWeights &w = problem.layers[0];
  const Tree tree = buildTree(problem.c, problem.valid, kTwoLevel);
  AttentionScorer scorer = makeScorer(problem.p, w);
  std::vector<int64_t> blocks(8);
  std::iota(blocks.begin(), blocks.end(), 0);
  const std::vector<double> scores = scoreByAttention(tree, 1, blocks, &scorer);

  // Distinct scores: the fine set is the top 3 by an independent sort, and
  // selectJ agrees with twoLevelJ on it.
  std::vector<double> sorted = scores;
  std::sort(sorted.begin(), sorted.end());
  ASSERT_TRUE(std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end());
  std::vector<int64_t> order = blocks;
  std::sort(order.begin(), order.end(),
            [&](int64_t a, int64_t b) { return scores[a] > scores[b]; });
  std::vector<int64_t> fine(order.begin(), order.begin() + 3);
  std::sort(fine.begin(), fine.end());
  EXPECT_EQ(topK(scores, 3), fine);
  const std::vector<Node> j =
      selectJ(tree, kTwoLevelBudgets, scoreByAttention, &scorer);
  EXPECT_EQ(j, twoLevelJ(tree, fine));

  // Permuting the VIP rows does not change the scores or J.
  const Matrix permuted = gatherRows(problem.p, {2, 0, 1});
  AttentionScorer permutedScorer = makeScorer(permuted, w);
  EXPECT_LT(
      maxAbsDiff(scoreByAttention(tree, 1, blocks, &permutedScorer), scores),
      1e-15);
  EXPECT_EQ(selectJ(tree, kTwoLevelBudgets, scoreByAttention, &permutedScorer),
            j);

  // Permuting the heads (swap the column halves of the Q and K
  // projections) does not either.
  LayerWeights swapped = w;
  const int64_t dh = kDim / kHeads;
  for (int64_t r = 0; r < kDim; ++r)
    for (int64_t e = 0; e < dh; ++e) {
      std::swap(swapped.wq.at(r, e), swapped.wq.at(r, dh + e));
      std::swap(swapped.wk.at(r, e), swapped.wk.at(r, dh + e));
    }
  for (int64_t e = 0; e < dh; ++e) {
    std::swap(swapped.bq[e], swapped.bq[dh + e]);
    std::swap(swapped.bk[e], swapped.bk[dh + e]);
  }
  AttentionScorer swappedScorer = makeScorer(problem.p, swapped);
  EXPECT_LT(
      maxAbsDiff(scoreByAttention(tree, 1, blocks, &swappedScorer), scores),
      1e-15);
  EXPECT_EQ(selectJ(tree, kTwoLevelBudgets, scoreByAttention, &swappedScorer),
            j);

  // A masked VIP slot does not affect the ranking, whatever it holds.
  Matrix changed = problem.p;
  Random random(220);
  for (int64_t e = 0; e < kDim; ++e)
    changed.at(1, e) = 5.0 * random.uniform();
  AttentionScorer maskedA = makeScorer(problem.p, w, {true, false, true});
  AttentionScorer maskedB = makeScorer(changed, w, {true, false, true});
  const std::vector<double> scoresA =
      scoreByAttention(tree, 1, blocks, &maskedA);
  const std::vector<double> scoresB =
      scoreByAttention(tree, 1, blocks, &maskedB);
  EXPECT_EQ(scoresA, scoresB);
  EXPECT_EQ(selectJ(tree, kTwoLevelBudgets, scoreByAttention, &maskedA),
            selectJ(tree, kTwoLevelBudgets, scoreByAttention, &maskedB));
}

TEST(VccTest, Invariant23LevelLocalRanking) {
  const Problem problem = makeProblem(23, /*padded=*/true);
  const LayerWeights &w = problem.layers[0];
  for (const auto &[fanouts, budgets] : {std::pair{kTwoLevel, kTwoLevelBudgets},
                                         std::pair{kBinary, kBinaryBudgets}}) {
    const Tree tree = buildTree(problem.c, problem.valid, fanouts);
    AttentionScorer plain = makeScorer(problem.p, w);
    const std::vector<Node> j =
        selectJ(tree, budgets, scoreByAttention, &plain);
    for (const auto &[factor, addLogSize] :
         {std::pair{3.7, false}, std::pair{1.0, true}, std::pair{0.25, true}}) {
      AttentionScorer scaled = makeScorer(problem.p, w);
      scaled.factor = factor;
      scaled.addLogSize = addLogSize;
      EXPECT_EQ(selectJ(tree, budgets, scoreByAttention, &scaled), j);
    }
  }
}

//===----------------------------------------------------------------------===//
// Pipeline
//===----------------------------------------------------------------------===//

TEST(VccTest, Invariant25PermutationRoundTrip) {
  Random random(25);
  const int64_t n = kVip + kTokens;
  const Matrix x = random.matrix(n, kDim);
  std::vector<bool> vip(n, false);
  vip[5] = vip[17] = true; // two VIP tokens for three P slots
  const Reorder reorder = vipReorder(vip, kVip);
  EXPECT_EQ(reorder.perm[0], 5);
  EXPECT_EQ(reorder.perm[1], 17);
  EXPECT_EQ(reorder.perm[2], 0); // the first non-VIP fills the spare slot
  EXPECT_EQ(reorder.perm[3], 1);
  for (int64_t i = 0; i < n; ++i)
    EXPECT_EQ(reorder.inverse[reorder.perm[i]], i);
  const Matrix reordered = gatherRows(x, reorder.perm);
  EXPECT_EQ(maxAbsDiff(gatherRows(reordered, reorder.inverse), x), 0.0);

  // Zero VCC layers: reorder, build, materialize, un-reorder.
  const std::vector<bool> valid(kTokens, true);
  const Matrix c =
      materialize(buildTree(rowsOf(reordered, kVip, kTokens), valid, kBinary));
  EXPECT_LT(maxAbsDiff(gatherRows(concatRows(rowsOf(reordered, 0, kVip), c),
                                  reorder.inverse),
                       x),
            1e-14);

  // No compression: the VCC pipeline equals the vanilla layers run in the
  // original token order.
  Problem problem;
  problem.p = rowsOf(reordered, 0, kVip);
  problem.c = rowsOf(reordered, kVip, kTokens);
  problem.valid = valid;
  for (int l = 0; l < 2; ++l)
    problem.layers.push_back(randomWeights(random));
  const Matrix vcc =
      gatherRows(treePipeline(problem, kTwoLevel, {0, 8, 1}), reorder.inverse);
  Matrix vanilla = x;
  for (const LayerWeights &w : problem.layers)
    vanilla = transformerLayer(vanilla, std::vector<double>(n, 0.0), w);
  EXPECT_LT(relErr(vcc, vanilla), 1e-9);
}

TEST(VccTest, Invariant27ShapesAreStatic) {
  for (const auto &[fanouts, budgets] : {std::pair{kTwoLevel, kTwoLevelBudgets},
                                         std::pair{kBinary, kBinaryBudgets}}) {
    std::vector<std::vector<int64_t>> perLevel;
    std::vector<int64_t> rows, rewritten;
    for (uint64_t seed : {270, 271, 272, 273}) {
      const Problem problem = makeProblem(seed, /*padded=*/seed % 2 == 1);
      Tree tree = buildTree(problem.c, problem.valid, fanouts);
      Matrix p = problem.p;
      const std::vector<Node> j =
          selectByAttention(p, tree, problem.layers[0], budgets);
      perLevel.push_back(countPerLevel(j, tree.levels()));
      const TreeStep step = treeLayer(p, tree, problem.layers[0], j);
      rows.push_back(step.compressed.sx.rows);
      rewritten.push_back(step.rewritten);
    }
    for (size_t i = 1; i < perLevel.size(); ++i) {
      EXPECT_EQ(perLevel[i], perLevel[0]);
      EXPECT_EQ(rows[i], rows[0]);
      EXPECT_EQ(rewritten[i], rewritten[0]);
    }
    EXPECT_EQ(rows[0], kVip + expectedJSize(fanouts, budgets));
  }
}

TEST(VccTest, Invariant28Masking) {
  const Problem problem = makeProblem(28, /*padded=*/true);
  const LayerWeights &w = problem.layers[0];
  Tree tree = buildTree(problem.c, problem.valid, kTwoLevel);
  EXPECT_EQ(tree.count[1][2], 0); // tokens 8..11
  for (double v : nodeMean(tree, 1, 2))
    EXPECT_EQ(v, 0.0);

  // Excluded from selection: -inf score, split last.
  AttentionScorer scorer = makeScorer(problem.p, w);
  std::vector<int64_t> blocks(8);
  std::iota(blocks.begin(), blocks.end(), 0);
  const std::vector<double> scores = scoreByAttention(tree, 1, blocks, &scorer);
  EXPECT_EQ(scores[2], -kInf);
  for (int64_t b = 0; b < 8; ++b)
    if (b != 2)
      EXPECT_TRUE(std::isfinite(scores[b]));
  const std::vector<Node> j =
      selectJ(tree, {0, 7, 1}, scoreByAttention, &scorer);
  const auto coarse = std::find(j.begin(), j.end(), Node{1, 2});
  ASSERT_NE(coarse, j.end());
  EXPECT_EQ(j.end() - coarse, 1); // the only coarse block

  // Excluded from attention: -inf key bias, and the other rows equal the
  // layer without that row.
  const Compressed compressed = assemble(problem.p, tree, j);
  const int64_t masked = kVip + (coarse - j.begin());
  EXPECT_EQ(compressed.keyBias[masked], -kInf);
  const Matrix y = transformerLayer(compressed.sx, compressed.keyBias, w);
  const Matrix withoutRow = rowsOf(compressed.sx, 0, masked);
  const std::vector<double> biasWithout(compressed.keyBias.begin(),
                                        compressed.keyBias.begin() + masked);
  const Matrix yWithout = transformerLayer(withoutRow, biasWithout, w);
  EXPECT_LT(maxAbsDiff(rowsOf(y, 0, masked), yWithout), 1e-14);

  // Padded tokens materialize back to zeros.
  tree = updateTree(tree, j, rowsOf(y, kVip, y.rows - kVip));
  const Matrix c = materialize(tree);
  for (int64_t t = 0; t < kTokens; ++t)
    if (!problem.valid[t])
      for (int64_t e = 0; e < kDim; ++e)
        EXPECT_EQ(c.at(t, e), 0.0) << "token " << t;
  EXPECT_GT(maxAbs(c), 0.1);
}

//===----------------------------------------------------------------------===//
// Error paths
//===----------------------------------------------------------------------===//

TEST(VccTest, ErrorsVipReorder) {
  std::vector<bool> vip(6, false);
  vip[0] = vip[2] = vip[4] = true;
  expectError([&] { vipReorder(vip, 2); }, "3 tokens are VIP but numVip is 2");
  expectError([&] { vipReorder(vip, 7); }, "numVip is 7 (expected 0..6");
  expectError([&] { vipReorder(vip, -1); }, "numVip is -1");
  EXPECT_NO_THROW(vipReorder(vip, 3));
}

TEST(VccTest, ErrorsGatherRows) {
  const Matrix x(4, 2);
  expectError(
      [&] {
        gatherRows(x, {0, 4});
      },
      "gatherRows: perm[1] is 4 (expected 0..3");
  expectError([&] { gatherRows(x, {-1}); }, "perm[0] is -1");
  Matrix broken(4, 2);
  broken.data.pop_back();
  expectError([&] { gatherRows(broken, {0}); },
              "x holds 7 values but is 4 x 2");
}

TEST(VccTest, ErrorsBuildTree) {
  const Problem problem = makeProblem(30, false);
  const std::vector<bool> &valid = problem.valid;
  expectError(
      [&] {
        buildTree(problem.c, valid, {5, 6});
      },
      "buildTree: fanouts multiply to 30 but C has 32 rows");
  expectError(
      [&] {
        buildTree(problem.c, valid, {4, 4, 4});
      },
      "fanouts multiply to 64 but C has 32 rows");
  expectError([&] { buildTree(problem.c, valid, {}); }, "fanouts is empty");
  expectError(
      [&] {
        buildTree(problem.c, valid, {4, 0, 8});
      },
      "fanouts[1] is 0 (expected >= 1)");
  expectError(
      [&] {
        buildTree(problem.c, valid, {-4, -8});
      },
      "fanouts[0] is -4");
  expectError(
      [&] { buildTree(problem.c, std::vector<bool>(31, true), kTwoLevel); },
      "valid has 31 entries but C has 32 rows");
}

TEST(VccTest, ErrorsTreeAccess) {
  const Problem problem = makeProblem(31, false);
  const Tree tree = buildTree(problem.c, problem.valid, kTwoLevel);
  expectError([&] { nodeMean(tree, 3, 0); }, "nodeMean: level is 3");
  expectError([&] { nodeMean(tree, -1, 0); }, "level is -1");
  expectError([&] { nodeMean(tree, 1, 8); },
              "nodeMean: index is 8 (expected 0..7 at level 1)");
  expectError([&] { levelMeans(tree, 3); }, "levelMeans: level is 3");
  expectError([&] { tree.nodeSize(3); }, "Tree::nodeSize: level is 3");
  expectError([&] { tree.nodesAt(-1); }, "Tree::nodesAt: level is -1");

  // A malformed tree is rejected by every function taking one.
  Tree broken = tree;
  broken.delta[0] = Matrix(31, kDim);
  expectError([&] { materialize(broken); },
              "tree.delta[0] is 31 x 8 (expected 32 x 8)");
  broken = tree;
  broken.count[1][0] = 3;
  expectError([&] { nodeMean(broken, 0, 0); },
              "tree.count[1][0] is 3 but its children hold 4 valid tokens");
  broken = tree;
  broken.root.pop_back();
  expectError([&] { assemble(problem.p, broken, twoLevelJ(broken, {})); },
              "tree.root has 7 entries (expected 8)");
  broken = tree;
  broken.rows = 30;
  expectError([&] { twoLevelJ(broken, {}); },
              "fanouts multiply to 32 but tree.rows is 30");
}

TEST(VccTest, ErrorsSegmentScores) {
  const std::vector<double> q(2 * 3 * 4), k(2 * 5 * 4);
  const std::vector<bool> cv(5, true), vw(3, true);
  EXPECT_NO_THROW(segmentScores(q, k, 2, 3, 5, 4, 0.5, cv, vw));
  expectError([&] { segmentScores(q, k, 0, 3, 5, 4, 0.5, cv, vw); },
              "heads is 0");
  expectError([&] { segmentScores({}, k, 2, 0, 5, 4, 0.5, cv, {}); },
              "numVip is 0");
  expectError([&] { segmentScores(q, k, 2, 3, 5, 0, 0.5, cv, vw); },
              "headDim is 0");
  expectError([&] { segmentScores(q, k, 2, 3, -5, 4, 0.5, cv, vw); },
              "candidates is -5");
  expectError([&] { segmentScores(q, k, 2, 3, 5, 4, kInf, cv, vw); },
              "scale is inf");
  expectError([&] { segmentScores(q, k, 2, 3, 6, 4, 0.5, cv, vw); },
              "k has 40 entries (expected heads * candidates * headDim = 48)");
  expectError([&] { segmentScores(q, k, 2, 2, 5, 4, 0.5, cv, vw); },
              "q has 24 entries (expected heads * numVip * headDim = 16)");
  expectError([&] { segmentScores(q, k, 2, 3, 5, 4, 0.5, {true}, vw); },
              "candidateValid has 1 entries (expected candidates = 5)");
  expectError([&] { segmentScores(q, k, 2, 3, 5, 4, 0.5, cv, {true}); },
              "vipWeight has 1 entries (expected numVip = 3)");
}

TEST(VccTest, ErrorsTopK) {
  const std::vector<double> scores(8, 1.0);
  expectError([&] { topK(scores, 9); }, "topK: h is 9 but there are 8 scores");
  expectError([&] { topK(scores, -1); }, "h is -1");
  expectError([&] { topK({1.0, std::nan("")}, 1); }, "scores[1] is NaN");
}

std::vector<double> scoreWrongSize(const Tree &, int64_t,
                                   const std::vector<int64_t> &, void *) {
  return {1.0};
}

std::vector<double> scoreNaN(const Tree &, int64_t,
                             const std::vector<int64_t> &indices, void *) {
  return std::vector<double>(indices.size(), std::nan(""));
}

TEST(VccTest, ErrorsSelectJ) {
  const Problem problem = makeProblem(32, false);
  const Tree tree = buildTree(problem.c, problem.valid, kTwoLevel);
  AttentionScorer scorer = makeScorer(problem.p, problem.layers[0]);
  // h larger than the number of blocks.
  expectError(
      [&] {
        selectJ(tree, {0, 9, 1}, scoreByAttention, &scorer);
      },
      "selectJ: budgets[1] is 9 but J holds only 8 level-1 node(s)");
  // Blocks cannot be split when the root is not.
  expectError(
      [&] {
        selectJ(tree, {0, 1, 0}, scoreByAttention, &scorer);
      },
      "budgets[1] is 1 but J holds only 0 level-1 node(s)");
  expectError(
      [&] {
        selectJ(tree, {0, 1, 2}, scoreByAttention, &scorer);
      },
      "budgets[2] is 2 but J holds only 1 level-2 node(s)");
  expectError(
      [&] {
        selectJ(tree, {0, 3}, scoreByAttention, &scorer);
      },
      "budgets has 2 entries (expected 3, one per level 0..2)");
  expectError(
      [&] {
        selectJ(tree, {1, 3, 1}, scoreByAttention, &scorer);
      },
      "budgets[0] is 1 (expected 0");
  expectError(
      [&] {
        selectJ(tree, {0, -1, 1}, scoreByAttention, &scorer);
      },
      "budgets[1] is -1 (expected >= 0)");
  expectError(
      [&] {
        selectJ(tree, {0, 3, 1}, nullptr, &scorer);
      },
      "score is null");
  expectError(
      [&] {
        selectJ(tree, {0, 3, 1}, scoreWrongSize, nullptr);
      },
      "the scorer returned 1 scores for 8 level-1 candidates");
  expectError(
      [&] {
        selectJ(tree, {0, 3, 1}, scoreNaN, nullptr);
      },
      "the scorer returned NaN for level-1 node 0");
}

TEST(VccTest, ErrorsTwoLevelJ) {
  const Problem problem = makeProblem(33, false);
  const Tree tree = buildTree(problem.c, problem.valid, kTwoLevel);
  expectError(
      [&] {
        twoLevelJ(tree, {1, 8});
      },
      "twoLevelJ: fine[1] is 8 (expected 0..7");
  expectError([&] { twoLevelJ(tree, {3, 1, 3}); }, "fine[2] repeats block 3");
}

TEST(VccTest, ErrorsJNotAPartition) {
  const Problem problem = makeProblem(34, false);
  const LayerWeights &w = problem.layers[0];
  const Tree tree = buildTree(problem.c, problem.valid, kTwoLevel);
  const Matrix x = concatRows(problem.p, problem.c);
  const std::vector<Node> good = twoLevelJ(tree, {2});
  const Matrix y(static_cast<int64_t>(good.size()), kDim);
  struct Case {
    std::vector<Node> j;
    std::string message;
  };
  std::vector<Node> gap = good;
  gap.pop_back(); // block 7 uncovered
  std::vector<Node> overlap = good;
  overlap.insert(overlap.begin() + 4, Node{0, 12}); // token 12 in block 3
  std::vector<Node> unordered = good;
  std::swap(unordered[0], unordered[1]);
  std::vector<Node> outside = good;
  outside.back() = Node{3, 0};
  std::vector<Node> badIndex = good;
  badIndex.back() = Node{1, 8};
  for (const Case &c :
       {Case{gap, "J is not a partition: token 28 is covered by no node"},
        Case{overlap, "J is not a partition: token 12 is covered by J[4] = "
                      "(level 0, index 12) and by J[7] = (level 1, index 3)"},
        Case{unordered, "J is not in canonical order"},
        Case{outside, "J[10] = (level 3, index 0) has no such level (expected "
                      "0..2)"},
        Case{badIndex, "J[10] = (level 1, index 8) has no such index (level 1 "
                       "has 8 nodes)"},
        Case{{}, "J is not a partition: token 0 is covered by no node"}}) {
    expectError([&] { assemble(problem.p, tree, c.j); },
                "assemble: " + c.message);
    expectError(
        [&] {
          updateTree(tree, c.j, Matrix(static_cast<int64_t>(c.j.size()), kDim));
        },
        "updateTree: " + c.message);
    expectError(
        [&] { naiveVccLayer(x, kVip, problem.valid, kTwoLevel, c.j, w); },
        "naiveVccLayer: " + c.message);
  }
  EXPECT_NO_THROW(updateTree(tree, good, y));
}

TEST(VccTest, ErrorsAssembleAndUpdateShapes) {
  const Problem problem = makeProblem(35, false);
  const Tree tree = buildTree(problem.c, problem.valid, kTwoLevel);
  const std::vector<Node> j = twoLevelJ(tree, {2});
  expectError([&] { assemble(Matrix(kVip, kDim + 1), tree, j); },
              "assemble: P has 9 columns but the tree has dim 8");
  expectError([&] { updateTree(tree, j, Matrix(10, kDim)); },
              "updateTree: y has 10 rows but J has 11 nodes");
  expectError([&] { updateTree(tree, j, Matrix(11, kDim - 1)); },
              "updateTree: y has 7 columns but the tree has dim 8");
}

TEST(VccTest, ErrorsTransformerLayer) {
  Random random(36);
  const LayerWeights w = randomWeights(random);
  const Matrix x = random.matrix(5, kDim);
  const std::vector<double> bias(5, 0.0);
  EXPECT_NO_THROW(transformerLayer(x, bias, w));
  expectError([&] { transformerLayer(random.matrix(5, 6), bias, w); },
              "transformerLayer: weights.dim is 8 but x has 6 columns");
  expectError(
      [&] {
        transformerLayer(x, {0.0, 0.0}, w);
      },
      "keyBias has 2 entries but x has 5 rows");
  expectError([&] { transformerLayer(x, std::vector<double>(5, -kInf), w); },
              "every keyBias entry is -inf");
  expectError(
      [&] {
        transformerLayer(x, {0, 0, kInf, 0, 0}, w);
      },
      "keyBias[2] is inf");
  expectError(
      [&] {
        transformerLayer(x, {0, std::nan(""), 0, 0, 0}, w);
      },
      "keyBias[1] is nan");
  LayerWeights bad = w;
  bad.heads = 3;
  expectError([&] { transformerLayer(x, bias, bad); },
              "weights.heads is 3 (expected a divisor of dim = 8)");
  bad = w;
  bad.wk = Matrix(kDim, kDim - 1);
  expectError([&] { transformerLayer(x, bias, bad); },
              "weights.wk is 8 x 7 (expected 8 x 8)");
  bad = w;
  bad.b1.pop_back();
  expectError([&] { transformerLayer(x, bias, bad); },
              "weights.b1 has 15 entries (expected 16)");
  bad = w;
  bad.ffnDim = 0;
  expectError([&] { transformerLayer(x, bias, bad); },
              "weights.ffnDim is 0 (expected >= 1)");
  // Zero rows are a valid (empty) sequence.
  EXPECT_EQ(transformerLayer(Matrix(0, kDim), {}, w).rows, 0);
}

TEST(VccTest, ErrorsNaiveVccLayer) {
  const Problem problem = makeProblem(37, false);
  const LayerWeights &w = problem.layers[0];
  const Matrix x = concatRows(problem.p, problem.c);
  const Tree tree = buildTree(problem.c, problem.valid, kTwoLevel);
  const std::vector<Node> j = twoLevelJ(tree, {0});
  expectError([&] { naiveVccLayer(x, 36, problem.valid, kTwoLevel, j, w); },
              "naiveVccLayer: numVip is 36 (expected 0..35");
  expectError(
      [&] {
        naiveVccLayer(x, kVip, std::vector<bool>(30, true), kTwoLevel, j, w);
      },
      "validC has 30 entries but C has 32 rows");
  expectError(
      [&] {
        naiveVccLayer(x, kVip, problem.valid, {5, 6}, j, w);
      },
      "naiveVccLayer: fanouts multiply to 30 but C has 32 rows");
  expectError(
      [&] {
        naiveVccLayer(x, kVip + 1, std::vector<bool>(31, true), kTwoLevel, j,
                      w);
      },
      "fanouts multiply to 32 but C has 31 rows (x has 35 rows, numVip = 4)");
  Random random(370);
  const LayerWeights wide = randomWeights(random, kDim + 2);
  expectError(
      [&] { naiveVccLayer(x, kVip, problem.valid, kTwoLevel, j, wide); },
      "weights.dim is 10 but x has 8 columns");
}

} // namespace

//===----------------------------------------------------------------------===//
// The VCC authors' layer (mlpen/VCC, src/roberta/models: coarser.py,
// selector.py, finer.py, vcc.py VccEncoderLayer in evaluation mode),
// written out here in their terms: block means sum / (count + 1e-4), the
// difference cache, the selection by the importance-weighted attention
// probabilities, the rows [fine tokens; coarse blocks; VIP rows] with the
// bias -1000 (1 - mask) + log(state_score + 1e-4) + log(num_dups + 1e-4),
// the pre-LN layer with exact GELU, then fine = coarse - difference. It
// must equal attic's reference with the same epsilons (buildTree and
// updateTree meanEps, assemble biasEps), GELU and the votes: in float64.
//===----------------------------------------------------------------------===//

struct AuthorsOutput {
  Matrix p, c; // new VIP rows and tokens (padded tokens 0)
};

/// The authors' attention probabilities of query row i over the rows of k,
/// for the head at columns [col, col + dh): softmax of (q / dh^(1/4)) .
/// (k / dh^(1/4)) + bias (WeightedAttention.compute_attention_matrix).
std::vector<double> authorsSoftmax(const Matrix &q, int64_t i, const Matrix &k,
                                   const std::vector<double> &bias, int64_t col,
                                   int64_t dh) {
  const double quarter = std::sqrt(std::sqrt(static_cast<double>(dh)));
  std::vector<double> probs(k.rows);
  double max = -kInf, total = 0;
  for (int64_t j = 0; j < k.rows; ++j) {
    double dot = 0;
    for (int64_t e = col; e < col + dh; ++e)
      dot += (q.at(i, e) / quarter) * (k.at(j, e) / quarter);
    probs[j] = dot + bias[j];
    max = std::max(max, probs[j]);
  }
  for (double &p : probs)
    total += (p = std::exp(p - max));
  for (double &p : probs)
    p /= total;
  return probs;
}

AuthorsOutput authorsLayer(const Matrix &p, const Matrix &c,
                           const std::vector<bool> &mask,
                           const std::vector<bool> &importance,
                           const LayerWeights &w, int64_t blockSize,
                           int64_t fineBlocks) {
  const double eps = 1e-4;
  const int64_t d = w.dim, heads = w.heads, dh = d / heads;
  const int64_t blocks = c.rows / blockSize, np = p.rows;
  // Coarser.to_coarse.
  Matrix masked(c.rows, d), coarse(blocks, d);
  std::vector<double> coarseMask(blocks);
  for (int64_t i = 0; i < c.rows; ++i)
    for (int64_t e = 0; e < d; ++e)
      masked.at(i, e) = mask[i] ? c.at(i, e) : 0.0;
  for (int64_t b = 0; b < blocks; ++b) {
    double count = 0;
    for (int64_t i = b * blockSize; i < (b + 1) * blockSize; ++i)
      count += mask[i];
    for (int64_t e = 0; e < d; ++e) {
      double sum = 0;
      for (int64_t i = b * blockSize; i < (b + 1) * blockSize; ++i)
        sum += masked.at(i, e);
      coarse.at(b, e) = sum / (count + eps);
    }
    coarseMask[b] = count > 0;
  }
  // Selector: softmax over blocks of the VIP rows' attention (LN1, W_q,
  // W_k; q / dh^(1/4) and k / dh^(1/4)), mean over heads, times the
  // importance mask, mean over the VIP rows; blocks by decreasing score.
  const Matrix q = textbookAffine(textbookLayerNorm(p, w.ln1Gamma, w.ln1Beta),
                                  w.wq, w.bq);
  const Matrix k = textbookAffine(
      textbookLayerNorm(coarse, w.ln1Gamma, w.ln1Beta), w.wk, w.bk);
  std::vector<double> coarseBias(blocks);
  for (int64_t b = 0; b < blocks; ++b)
    coarseBias[b] = -1000.0 * (1.0 - coarseMask[b]);
  std::vector<double> average(blocks, 0.0);
  for (int64_t i = 0; i < np; ++i)
    for (int64_t h = 0; h < heads; ++h) {
      const std::vector<double> probs =
          authorsSoftmax(q, i, k, coarseBias, h * dh, dh);
      for (int64_t b = 0; b < blocks; ++b)
        average[b] += (importance[i] ? probs[b] : 0.0) /
                      static_cast<double>(heads * np);
    }
  std::vector<int64_t> order(blocks);
  for (int64_t b = 0; b < blocks; ++b)
    order[b] = b;
  // Descending, ties to the lower index (a stable sort of 0..blocks-1).
  std::sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
    const double la = std::log(average[a] + 1e-5),
                 lb = std::log(average[b] + 1e-5);
    return la > lb || (la == lb && a < b);
  });
  // Finer and the rows of VccEncoderLayer.forward.
  struct Row {
    std::vector<double> x;
    double mask, dups;
  };
  std::vector<Row> rows;
  for (int64_t f = 0; f < fineBlocks; ++f)
    for (int64_t i = order[f] * blockSize; i < (order[f] + 1) * blockSize;
         ++i) {
      Row row{std::vector<double>(d), mask[i] ? 1.0 : 0.0, 1.0};
      for (int64_t e = 0; e < d; ++e) // coarse - difference
        row.x[e] = coarse.at(order[f], e) -
                   (coarse.at(order[f], e) - masked.at(i, e));
      rows.push_back(row);
    }
  for (int64_t f = fineBlocks; f < blocks; ++f) {
    Row row{std::vector<double>(d), coarseMask[order[f]],
            static_cast<double>(blockSize)};
    for (int64_t e = 0; e < d; ++e)
      row.x[e] = coarse.at(order[f], e);
    rows.push_back(row);
  }
  for (int64_t i = 0; i < np; ++i) {
    Row row{std::vector<double>(d), 1.0, 1.0};
    for (int64_t e = 0; e < d; ++e)
      row.x[e] = p.at(i, e);
    rows.push_back(row);
  }
  // encode: a = dense(MHA(LN(x))), y = x + a + FFN(x + a).
  const int64_t r = static_cast<int64_t>(rows.size());
  Matrix x(r, d);
  std::vector<double> bias(r);
  for (int64_t i = 0; i < r; ++i) {
    std::copy(rows[i].x.begin(), rows[i].x.end(), x.data.begin() + i * d);
    bias[i] = -1000.0 * (1.0 - rows[i].mask) + std::log(1.0 + eps) +
              std::log(rows[i].dups + eps);
  }
  const Matrix normed = textbookLayerNorm(x, w.ln1Gamma, w.ln1Beta);
  const Matrix qs = textbookAffine(normed, w.wq, w.bq),
               ks = textbookAffine(normed, w.wk, w.bk),
               vs = textbookAffine(normed, w.wv, w.bv);
  Matrix context(r, d);
  for (int64_t h = 0; h < heads; ++h)
    for (int64_t i = 0; i < r; ++i) {
      const std::vector<double> probs =
          authorsSoftmax(qs, i, ks, bias, h * dh, dh);
      for (int64_t j = 0; j < r; ++j)
        for (int64_t e = h * dh; e < (h + 1) * dh; ++e)
          context.at(i, e) += probs[j] * vs.at(j, e);
    }
  const Matrix a = textbookAffine(context, w.wo, w.bo);
  Matrix h(r, d);
  for (int64_t i = 0; i < r * d; ++i)
    h.data[i] = x.data[i] + a.data[i];
  Matrix inner =
      textbookAffine(textbookLayerNorm(h, w.ln2Gamma, w.ln2Beta), w.w1, w.b1);
  for (double &v : inner.data)
    v = 0.5 * v * (1.0 + std::erf(v / std::sqrt(2.0)));
  const Matrix ffn = textbookAffine(inner, w.w2, w.b2);
  Matrix y(r, d);
  for (int64_t i = 0; i < r * d; ++i)
    y.data[i] = (ffn.data[i] + a.data[i]) * 1.0 + x.data[i];
  // Back to tokens: fine blocks' rows are their tokens, a coarse block's
  // tokens are its new state minus the difference; padded tokens 0.
  AuthorsOutput out{Matrix(np, d), Matrix(c.rows, d)};
  int64_t row = 0;
  for (int64_t f = 0; f < fineBlocks; ++f)
    for (int64_t i = order[f] * blockSize; i < (order[f] + 1) * blockSize;
         ++i, ++row)
      for (int64_t e = 0; e < d; ++e)
        out.c.at(i, e) = mask[i] ? y.at(row, e) : 0.0;
  for (int64_t f = fineBlocks; f < blocks; ++f, ++row)
    for (int64_t i = order[f] * blockSize; i < (order[f] + 1) * blockSize;
         ++i)
      for (int64_t e = 0; e < d; ++e)
        out.c.at(i, e) =
            mask[i] ? y.at(row, e) - (coarse.at(order[f], e) - masked.at(i, e))
                    : 0.0;
  for (int64_t i = 0; i < np; ++i, ++row)
    for (int64_t e = 0; e < d; ++e)
      out.p.at(i, e) = y.at(row, e);
  return out;
}

TEST(VccTest, AuthorsLayerEqualsTheReferenceWithTheirEpsilons) {
  for (bool padded : {false, true}) {
    SCOPED_TRACE(padded ? "padded" : "no padding");
    const Problem problem = makeProblem(padded ? 52 : 51, padded);
    LayerWeights w = problem.layers[0];
    w.activation = Activation::Gelu;
    // The third VIP slot is a spare one: it does not vote.
    const std::vector<bool> importance = {true, true, false};
    const AuthorsOutput authors = authorsLayer(
        problem.p, problem.c, problem.valid, importance, w, 4, 3);

    const double eps = 1e-4;
    const Tree tree = buildTree(problem.c, problem.valid, kTwoLevel, eps);
    AttentionScorer scorer = makeScorer(problem.p, w, importance);
    const std::vector<Node> j =
        selectJ(tree, kTwoLevelBudgets, scoreByAttention, &scorer);
    const Compressed compressed = assemble(problem.p, tree, j, eps);
    const Matrix y = transformerLayer(compressed.sx, compressed.keyBias, w);
    const Tree next = updateTree(tree, j, rowsOf(y, kVip, y.rows - kVip),
                                 nullptr, eps);
    const double pDiff = maxAbsDiff(rowsOf(y, 0, kVip), authors.p);
    const double cDiff = maxAbsDiff(materialize(next), authors.c);
    EXPECT_LT(pDiff, 1e-12);
    EXPECT_LT(cDiff, 1e-12);
    std::printf("[ measured ] authors' layer vs attic's reference with "
                "their epsilons (%s): max |diff| P %.1e, C %.1e\n",
                padded ? "padded" : "no padding", pDiff, cDiff);

    // Without the epsilons the layer is measurably different (the test can
    // fail), and so are the blocks selected with every P row voting.
    const Tree exact = buildTree(problem.c, problem.valid, kTwoLevel);
    const Compressed plain = assemble(problem.p, exact, j);
    const Matrix yExact = transformerLayer(plain.sx, plain.keyBias, w);
    EXPECT_GT(maxAbsDiff(rowsOf(yExact, 0, kVip), authors.p), 1e-9);
  }
}
