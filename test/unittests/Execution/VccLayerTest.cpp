//===- VccLayerTest.cpp - whole VCC layers, compiled vs reference ---------===//
//
// examples/vcc_layer.mlir, examples/vcc_roberta_layer.mlir,
// examples/vcc_encoder.mlir and examples/vcc_encoder_loop.mlir (read from
// the source tree) JIT-compiled by attic-cpu-pipeline and run on deterministic
// inputs, against the plain-C++ reference (attic::ref::vcc, double):
//  - one VCC layer == the naive eq (7) with a dense S and its pseudo-inverse
//    (naiveVccLayer), J == Algorithm 1 (selectJ) exactly (digest invariant
//    10, with a real pre-LN transformer layer as the body);
//  - the 3-layer encoder == 3 naive layers in a row, each selecting J on the
//    previous output (invariant 11);
//  - no compression (budgets [15, 1]) == the exact layer on the whole
//    sequence in the original order (invariants 7 and 25), against the
//    double reference and against the same body compiled as a dense layer;
//  - every valid token of an unsplit block moves by the same amount
//    (invariant 12), padded tokens come back as 0 (28), and the P rows
//    depend on C only through the block means (14).
// The shapes are the examples': B = 2, n = 128, n_p = 8, d = 32, 2 heads,
// FFN 64, fanouts [8, 15], budgets [4, 1] (|J| = 43, r = 51). Errors are
// max |out - ref| / max |ref| per sequence; the f32 code measured about
// 3e-7 everywhere (printed as "[ measured ]"), the tests allow 1e-5.
//
//===----------------------------------------------------------------------===//

#include "CompiledHarness.h"
#include "attic/Builders/VccEncoder.h"
#include "attic/Execution/CpuExecutable.h"
#include "attic/Reference/Vcc.h"
#include "attic/runtime/Runtime.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace vcc = attic::ref::vcc;

constexpr int64_t kBatch = 2, kTokens = 128, kVip = 8, kDim = 32, kHeads = 2,
                  kFfn = 64, kC = 120, kBlockSize = 8, kBlocks = 15;
constexpr int64_t kHeadDim = kDim / kHeads;
const std::vector<int64_t> kFanouts = {kBlockSize, kBlocks};
constexpr double kInf = std::numeric_limits<double>::infinity();

//===----------------------------------------------------------------------===//
// Harness
//===----------------------------------------------------------------------===//

using attic::testing::Compiled;
using attic::testing::Tensor;

std::string readSource(const std::string &relative) {
  std::ifstream in(std::string(ATTIC_SOURCE_DIR) + "/" + relative);
  EXPECT_TRUE(in.good()) << "cannot read " << relative;
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

/// Replaces every occurrence of `from` (which must occur) by `to`.
std::string replaceAll(std::string text, const std::string &from,
                       const std::string &to) {
  EXPECT_NE(text.find(from), std::string::npos) << "no '" << from << "'";
  for (size_t at = text.find(from); at != std::string::npos;
       at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

/// splitmix64: deterministic on every platform.
struct Rng {
  uint64_t state;
  explicit Rng(uint64_t seed) : state(seed) {}
  uint64_t next() {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  double uniform(double lo, double hi) {
    return lo + (hi - lo) * static_cast<double>(next() >> 11) * 0x1.0p-53;
  }
};

/// Values are rounded to f32 so that both sides see the same inputs.
double f32(double v) { return static_cast<double>(static_cast<float>(v)); }

std::vector<double> randomVector(Rng &rng, int64_t n, double lo, double hi) {
  std::vector<double> v(n);
  for (double &x : v)
    x = f32(rng.uniform(lo, hi));
  return v;
}

vcc::Matrix randomMatrix(Rng &rng, int64_t rows, int64_t cols, double lo,
                         double hi) {
  vcc::Matrix m(rows, cols);
  m.data = randomVector(rng, rows * cols, lo, hi);
  return m;
}

/// Weights scaled by 1/sqrt(fan-in), so that projections keep unit scale and
/// the softmax is neither flat nor one-hot.
vcc::LayerWeights randomWeights(Rng &rng) {
  vcc::LayerWeights w;
  w.dim = kDim;
  w.heads = kHeads;
  w.ffnDim = kFfn;
  const double a = std::sqrt(3.0 / kDim), a2 = std::sqrt(3.0 / kFfn);
  w.ln1Gamma = randomVector(rng, kDim, 0.5, 1.5);
  w.ln1Beta = randomVector(rng, kDim, -0.2, 0.2);
  w.wq = randomMatrix(rng, kDim, kDim, -a, a);
  w.bq = randomVector(rng, kDim, -0.2, 0.2);
  w.wk = randomMatrix(rng, kDim, kDim, -a, a);
  w.bk = randomVector(rng, kDim, -0.2, 0.2);
  w.wv = randomMatrix(rng, kDim, kDim, -a, a);
  w.bv = randomVector(rng, kDim, -0.2, 0.2);
  w.wo = randomMatrix(rng, kDim, kDim, -a, a);
  w.bo = randomVector(rng, kDim, -0.2, 0.2);
  w.ln2Gamma = randomVector(rng, kDim, 0.5, 1.5);
  w.ln2Beta = randomVector(rng, kDim, -0.2, 0.2);
  w.w1 = randomMatrix(rng, kDim, kFfn, -a, a);
  w.b1 = randomVector(rng, kFfn, -0.2, 0.2);
  w.w2 = randomMatrix(rng, kFfn, kDim, -a2, a2);
  w.b2 = randomVector(rng, kDim, -0.2, 0.2);
  return w;
}

/// The 16 weight arguments of the examples, in LayerWeights order; with
/// several layers, each argument stacks them along a leading dim.
std::vector<Tensor> weightTensors(const std::vector<vcc::LayerWeights> &ws) {
  const int64_t layers = static_cast<int64_t>(ws.size());
  auto shapeOf = [&](std::vector<int64_t> s) {
    if (layers > 1)
      s.insert(s.begin(), layers);
    return s;
  };
  std::vector<Tensor> out;
  auto addVector = [&](std::vector<double> vcc::LayerWeights::*field) {
    const int64_t n = static_cast<int64_t>((ws[0].*field).size());
    Tensor t(ATTIC_F32, shapeOf({n}));
    for (int64_t l = 0; l < layers; ++l)
      for (int64_t i = 0; i < n; ++i)
        t.set(l * n + i, (ws[l].*field)[i]);
    out.push_back(std::move(t));
  };
  auto addMatrix = [&](vcc::Matrix vcc::LayerWeights::*field) {
    const vcc::Matrix &m0 = ws[0].*field;
    const int64_t n = m0.rows * m0.cols;
    Tensor t(ATTIC_F32, shapeOf({m0.rows, m0.cols}));
    for (int64_t l = 0; l < layers; ++l)
      for (int64_t i = 0; i < n; ++i)
        t.set(l * n + i, (ws[l].*field).data[i]);
    out.push_back(std::move(t));
  };
  using W = vcc::LayerWeights;
  addVector(&W::ln1Gamma);
  addVector(&W::ln1Beta);
  addMatrix(&W::wq);
  addVector(&W::bq);
  addMatrix(&W::wk);
  addVector(&W::bk);
  addMatrix(&W::wv);
  addVector(&W::bv);
  addMatrix(&W::wo);
  addVector(&W::bo);
  addVector(&W::ln2Gamma);
  addVector(&W::ln2Beta);
  addMatrix(&W::w1);
  addVector(&W::b1);
  addMatrix(&W::w2);
  addVector(&W::b2);
  return out;
}

/// One input batch: hidden states, VIP mask and padding mask per sequence.
struct Batch {
  std::vector<vcc::Matrix> x;               // [B] of [n][d]
  std::vector<std::vector<bool>> vip, keep; // [B] of [n]
};

/// Sequence 0: 5 VIP tokens (3 spare P slots), no padding. Sequence 1: 8
/// VIP tokens, the last 27 tokens padded (so, after the reorder, blocks of C
/// that are partly and wholly padded) plus a few padded tokens inside.
/// The VIP tokens and the first non-VIP tokens are real tokens, so every P
/// row is real (the examples' convention).
Batch makeBatch(uint64_t seed, bool padding) {
  Rng rng(seed);
  Batch batch;
  for (int64_t b = 0; b < kBatch; ++b) {
    batch.x.push_back(randomMatrix(rng, kTokens, kDim, -1.0, 1.0));
    std::vector<bool> vip(kTokens, false), keep(kTokens, true);
    const int64_t numVip = b == 0 ? 5 : 8;
    for (int64_t placed = 0; placed < numVip;) {
      const int64_t i = static_cast<int64_t>(rng.next() % 90);
      if (!vip[i]) {
        vip[i] = true;
        ++placed;
      }
    }
    if (padding && b == 1) {
      for (int64_t i = kTokens - 27; i < kTokens; ++i)
        keep[i] = false;
      for (int64_t i : {40, 41, 57, 77})
        if (!vip[i])
          keep[i] = false;
    }
    batch.vip.push_back(vip);
    batch.keep.push_back(keep);
  }
  return batch;
}

std::vector<Tensor> batchTensors(const Batch &batch) {
  std::vector<Tensor> out;
  Tensor x(ATTIC_F32, {kBatch, kTokens, kDim});
  Tensor vip(ATTIC_I1, {kBatch, kTokens}), keep(ATTIC_I1, {kBatch, kTokens});
  for (int64_t b = 0; b < kBatch; ++b) {
    for (int64_t i = 0; i < kTokens * kDim; ++i)
      x.set(b * kTokens * kDim + i, batch.x[b].data[i]);
    for (int64_t i = 0; i < kTokens; ++i) {
      vip.set(b * kTokens + i, batch.vip[b][i]);
      keep.set(b * kTokens + i, batch.keep[b][i]);
    }
  }
  out.push_back(std::move(x));
  out.push_back(std::move(vip));
  out.push_back(std::move(keep));
  return out;
}

std::vector<const Tensor *> pointers(const std::vector<Tensor> &a,
                                     const std::vector<Tensor> &b) {
  std::vector<const Tensor *> out;
  for (const Tensor &t : a)
    out.push_back(&t);
  for (const Tensor &t : b)
    out.push_back(&t);
  return out;
}

//===----------------------------------------------------------------------===//
// Reference side
//===----------------------------------------------------------------------===//

/// Section 3.6 scores with the layer's LN1 and projections, the P rows
/// weighted by `voters` (all true: attic.tree_select without vote_mask).
struct Scorer {
  const vcc::LayerWeights *w;
  std::vector<double> queries; // [H][n_p][dh]
  std::vector<bool> voters;    // [n_p]
};

std::vector<double> headMajor(const vcc::Matrix &m) {
  std::vector<double> out(m.rows * m.cols);
  for (int64_t i = 0; i < m.rows; ++i)
    for (int64_t h = 0; h < kHeads; ++h)
      for (int64_t e = 0; e < kHeadDim; ++e)
        out[(h * m.rows + i) * kHeadDim + e] = m.at(i, h * kHeadDim + e);
  return out;
}

std::vector<double> scoreLevel(const vcc::Tree &tree, int64_t level,
                               const std::vector<int64_t> &indices,
                               void *context) {
  const Scorer &s = *static_cast<Scorer *>(context);
  const int64_t m = static_cast<int64_t>(indices.size());
  vcc::Matrix means(m, tree.dim);
  std::vector<bool> valid(m);
  for (int64_t i = 0; i < m; ++i) {
    std::vector<double> mean = vcc::nodeMean(tree, level, indices[i]);
    std::copy(mean.begin(), mean.end(), means.data.begin() + i * tree.dim);
    valid[i] = tree.count[level][indices[i]] > 0;
  }
  std::vector<double> keys = headMajor(vcc::affine(
      vcc::layerNorm(means, s.w->ln1Gamma, s.w->ln1Beta), s.w->wk, s.w->bk));
  return vcc::segmentScores(s.queries, keys, kHeads, kVip, m, kHeadDim,
                            1.0 / std::sqrt(double(kHeadDim)), valid,
                            s.voters);
}

vcc::Matrix rows(const vcc::Matrix &x, int64_t begin, int64_t count) {
  vcc::Matrix out(count, x.cols);
  std::copy(x.data.begin() + begin * x.cols,
            x.data.begin() + (begin + count) * x.cols, out.data.begin());
  return out;
}

int64_t globalId(const vcc::Node &node) {
  return node.level == 0   ? node.index
         : node.level == 1 ? kC + node.index
                           : kC + kBlocks;
}

/// One sequence reordered into [P; C] with its validity of C.
struct Reordered {
  vcc::Reorder order;
  vcc::Matrix x;
  std::vector<bool> validC;
};

Reordered reorder(const Batch &batch, int64_t b) {
  Reordered r;
  r.order = vcc::vipReorder(batch.vip[b], kVip);
  r.x = vcc::gatherRows(batch.x[b], r.order.perm);
  for (int64_t i = kVip; i < kTokens; ++i)
    r.validC.push_back(batch.keep[b][r.order.perm[i]]);
  return r;
}

/// Algorithm 1 on the tree of x's C with x's P rows as the VIP rows.
/// `voters`: the P rows that vote (all of them when empty).
/// `meanEps`: the tree's (tree_build's mean_eps).
std::vector<vcc::Node> selectReference(const vcc::Matrix &x,
                                       const std::vector<bool> &validC,
                                       const vcc::LayerWeights &w,
                                       int64_t fineBlocks,
                                       std::vector<bool> voters = {},
                                       double meanEps = 0.0) {
  vcc::Tree tree =
      vcc::buildTree(rows(x, kVip, kC), validC, kFanouts, meanEps);
  if (voters.empty())
    voters.assign(kVip, true);
  Scorer scorer{&w,
                headMajor(vcc::affine(
                    vcc::layerNorm(rows(x, 0, kVip), w.ln1Gamma, w.ln1Beta),
                    w.wq, w.bq)),
                voters};
  return vcc::selectJ(tree, {0, fineBlocks, 1}, scoreLevel, &scorer);
}

/// max |actual - expected| / max |expected| over one sequence (the metric of
/// attic-run --check), in the original token order.
struct Error {
  double maxAbs = 0, maxRef = 0;
  int64_t nonFinite = 0;
  double relative() const { return maxRef > 0 ? maxAbs / maxRef : maxAbs; }
  void add(double actual, double expected) {
    if (!std::isfinite(actual)) {
      ++nonFinite;
      return;
    }
    maxAbs = std::max(maxAbs, std::fabs(actual - expected));
    maxRef = std::max(maxRef, std::fabs(expected));
  }
};

/// Compares output sequence b ([n][d] in the original order) with the
/// reference rows given in the reordered order.
void compareSequence(const Tensor &out, int64_t b, const vcc::Matrix &expected,
                     const std::vector<int64_t> &perm, Error &error) {
  for (int64_t i = 0; i < kTokens; ++i)
    for (int64_t e = 0; e < kDim; ++e)
      error.add(out[(b * kTokens + perm[i]) * kDim + e], expected.at(i, e));
}

/// J of sequence b at element `base` + b * 43 of `j` ([B, 43], or one layer
/// of [layers, B, 43]).
void expectJ(const Tensor &j, int64_t b, const std::vector<vcc::Node> &nodes,
             const char *what, int64_t base = 0) {
  ASSERT_EQ(static_cast<int64_t>(nodes.size()), 43) << what;
  for (int64_t i = 0; i < 43; ++i)
    EXPECT_EQ(static_cast<int64_t>(j[base + b * 43 + i]), globalId(nodes[i]))
        << what << ": sequence " << b << ", J entry " << i;
}

struct CompiledExamples {
  Compiled layer{readSource("examples/vcc_layer.mlir"), "vcc_layer"};
};

CompiledExamples &examples() {
  // Compiled once for the tests that share it, and never destroyed: a JIT
  // (ExecutionEngine, with libomp's threads alive) torn down by a static
  // destructor after main returns crashed the process at exit in about one
  // run in six; the tests' own Compiled objects are destroyed in the test.
  static CompiledExamples *compiled = new CompiledExamples;
  return *compiled;
}

/// The example's layer with budgets [15, 1]: every block split, r = n.
std::string fullBudgetLayer() {
  std::string text = readSource("examples/vcc_layer.mlir");
  text = replaceAll(text, "budgets = [4, 1]", "budgets = [15, 1]");
  text = replaceAll(text, "x43x", "x120x");
  text = replaceAll(text, "[2, 43, 32]", "[2, 120, 32]");
  text = replaceAll(text, "2x51x", "2x128x");
  text = replaceAll(text, "output_shape [2, 51,", "output_shape [2, 128,");
  text = replaceAll(text, "102x", "256x");
  return text;
}

/// The example's transformer body alone (between the compressed rows %sx
/// and %layer_out), on all n rows with a key bias: the dense layer.
std::string denseLayer() {
  std::string full = fullBudgetLayer();
  const size_t maps = full.find("#rows = ");
  const size_t mapsEnd = full.find("func.func");
  const size_t begin = full.find("  %x2 = tensor.collapse_shape %sx");
  const size_t endLine = full.find("  %layer_out = ");
  const size_t end = full.find("\n\n", endLine);
  EXPECT_TRUE(maps != std::string::npos && begin != std::string::npos &&
              endLine != std::string::npos && end != std::string::npos);
  std::string text = full.substr(maps, mapsEnd - maps);
  text +=
      R"mlir(func.func @dense_layer(%sx: tensor<2x128x32xf32>, %bias: tensor<2x128xf32>,
    %ln1_gamma: tensor<32xf32>, %ln1_beta: tensor<32xf32>,
    %wq: tensor<32x32xf32>, %bq: tensor<32xf32>, %wk: tensor<32x32xf32>, %bk: tensor<32xf32>,
    %wv: tensor<32x32xf32>, %bv: tensor<32xf32>, %wo: tensor<32x32xf32>, %bo: tensor<32xf32>,
    %ln2_gamma: tensor<32xf32>, %ln2_beta: tensor<32xf32>,
    %w1: tensor<32x64xf32>, %b1: tensor<64xf32>, %w2: tensor<64x32xf32>, %b2: tensor<32xf32>)
    -> tensor<2x128x32xf32> {
  %zero = arith.constant 0.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %dim = arith.constant 32.0 : f32
)mlir";
  text += full.substr(begin, end - begin);
  text += "\n  return %layer_out : tensor<2x128x32xf32>\n}\n";
  return text;
}

//===----------------------------------------------------------------------===//
// One layer (invariant 10)
//===----------------------------------------------------------------------===//

TEST(VccLayerExample, EqualsNaiveEq7WithTheSelectedJ) {
  for (bool padding : {false, true}) {
    SCOPED_TRACE(padding ? "with padding" : "no padding");
    Rng wrng(11);
    const vcc::LayerWeights w = randomWeights(wrng);
    const Batch batch = makeBatch(padding ? 21 : 20, padding);
    std::vector<Tensor> inputs = batchTensors(batch);
    std::vector<Tensor> weights = weightTensors({w});
    std::vector<Tensor> out = examples().layer.run(pointers(inputs, weights));
    ASSERT_EQ(out.size(), 2u);

    double worst = 0;
    for (int64_t b = 0; b < kBatch; ++b) {
      Reordered r = reorder(batch, b);
      std::vector<vcc::Node> j = selectReference(r.x, r.validC, w, 4);
      expectJ(out[1], b, j, "J");
      vcc::Matrix expected =
          vcc::naiveVccLayer(r.x, kVip, r.validC, kFanouts, j, w);
      Error error;
      compareSequence(out[0], b, expected, r.order.perm, error);
      EXPECT_EQ(error.nonFinite, 0);
      EXPECT_LE(error.relative(), 1e-5) << "sequence " << b;
      worst = std::max(worst, error.relative());

      // A different J gives a clearly different layer: the comparison can
      // fail (the selected J matters, not only the shapes).
      std::vector<int64_t> other;
      for (int64_t i = 0; i < kBlocks && other.size() < 4; ++i)
        if (std::find(j.begin(), j.end(), vcc::Node{1, i}) != j.end())
          other.push_back(i);
      vcc::Tree tree = vcc::buildTree(rows(r.x, kVip, kC), r.validC, kFanouts);
      vcc::Matrix wrong = vcc::naiveVccLayer(r.x, kVip, r.validC, kFanouts,
                                             vcc::twoLevelJ(tree, other), w);
      Error wrongError;
      compareSequence(out[0], b, wrong, r.order.perm, wrongError);
      EXPECT_GT(wrongError.relative(), 1e-2) << "sequence " << b;
    }
    std::printf("[ measured ] one VCC layer vs naive eq (7), %s: max rel "
                "err %.2e\n",
                padding ? "padding" : "no padding", worst);
  }
}

//===----------------------------------------------------------------------===//
// Invariants 12, 28 and 14 on the compiled layer
//===----------------------------------------------------------------------===//

TEST(VccLayerExample, UnsplitBlocksMoveTogetherAndPaddingIsZero) {
  Rng wrng(12);
  const vcc::LayerWeights w = randomWeights(wrng);
  const Batch batch = makeBatch(22, /*padding=*/true);
  std::vector<Tensor> inputs = batchTensors(batch);
  std::vector<Tensor> weights = weightTensors({w});
  std::vector<Tensor> out = examples().layer.run(pointers(inputs, weights));
  ASSERT_EQ(out.size(), 2u);
  int64_t checkedBlocks = 0, paddedTokens = 0;
  for (int64_t b = 0; b < kBatch; ++b) {
    Reordered r = reorder(batch, b);
    // J's coarse blocks: ids 120..134 after the 32 tokens.
    for (int64_t i = 32; i < 43; ++i) {
      const int64_t block = static_cast<int64_t>(out[1][b * 43 + i]) - kC;
      ASSERT_GE(block, 0);
      ASSERT_LT(block, kBlocks);
      std::vector<double> shift;
      for (int64_t t = block * kBlockSize; t < (block + 1) * kBlockSize; ++t) {
        if (!r.validC[t])
          continue;
        const int64_t original = r.order.perm[kVip + t];
        std::vector<double> delta(kDim);
        for (int64_t e = 0; e < kDim; ++e)
          delta[e] = out[0][(b * kTokens + original) * kDim + e] -
                     batch.x[b].at(original, e);
        if (shift.empty()) {
          shift = delta;
          continue;
        }
        for (int64_t e = 0; e < kDim; ++e)
          EXPECT_NEAR(delta[e], shift[e], 1e-5)
              << "sequence " << b << ", block " << block << ", token " << t;
      }
      checkedBlocks += !shift.empty();
    }
    for (int64_t t = 0; t < kC; ++t) {
      if (r.validC[t])
        continue;
      ++paddedTokens;
      const int64_t original = r.order.perm[kVip + t];
      for (int64_t e = 0; e < kDim; ++e)
        EXPECT_EQ(out[0][(b * kTokens + original) * kDim + e], 0.0);
    }
  }
  EXPECT_GE(checkedBlocks, 15);
  EXPECT_GE(paddedTokens, 20);
}

TEST(VccLayerExample, VipRowsSeeCoarseBlocksOnlyThroughTheirMeans) {
  Rng wrng(13);
  const vcc::LayerWeights w = randomWeights(wrng);
  const Batch batch = makeBatch(23, /*padding=*/false);
  std::vector<Tensor> inputs = batchTensors(batch);
  std::vector<Tensor> weights = weightTensors({w});
  std::vector<Tensor> out = examples().layer.run(pointers(inputs, weights));
  ASSERT_EQ(out.size(), 2u);

  // Zero-mean noise inside every coarse block (not split by J): the block
  // means, hence J and the P rows, stay; the tokens of those blocks move.
  Batch noisy = batch;
  Rng nrng(99);
  for (int64_t b = 0; b < kBatch; ++b) {
    Reordered r = reorder(batch, b);
    for (int64_t i = 32; i < 43; ++i) {
      const int64_t block = static_cast<int64_t>(out[1][b * 43 + i]) - kC;
      for (int64_t e = 0; e < kDim; ++e) {
        std::vector<double> noise(kBlockSize);
        double mean = 0;
        for (double &v : noise) {
          v = nrng.uniform(-0.5, 0.5);
          mean += v / kBlockSize;
        }
        for (int64_t t = 0; t < kBlockSize; ++t) {
          const int64_t original = r.order.perm[kVip + block * kBlockSize + t];
          noisy.x[b].at(original, e) += noise[t] - mean;
        }
      }
    }
  }
  std::vector<Tensor> noisyInputs = batchTensors(noisy);
  std::vector<Tensor> noisyOut =
      examples().layer.run(pointers(noisyInputs, weights));
  ASSERT_EQ(noisyOut.size(), 2u);
  for (int64_t i = 0; i < kBatch * 43; ++i)
    EXPECT_EQ(noisyOut[1][i], out[1][i]) << "J entry " << i;
  Error pError, cChange;
  for (int64_t b = 0; b < kBatch; ++b) {
    Reordered r = reorder(batch, b);
    for (int64_t i = 0; i < kTokens; ++i)
      for (int64_t e = 0; e < kDim; ++e) {
        const int64_t at = (b * kTokens + r.order.perm[i]) * kDim + e;
        if (i < kVip)
          pError.add(noisyOut[0][at], out[0][at]);
        else
          cChange.add(noisyOut[0][at], out[0][at]);
      }
  }
  // Only rounding (the noisy block means are the same up to f32 sums).
  EXPECT_EQ(pError.nonFinite, 0);
  EXPECT_EQ(cChange.nonFinite, 0);
  EXPECT_LE(pError.relative(), 1e-5);
  EXPECT_GT(cChange.relative(), 1e-2);
}

//===----------------------------------------------------------------------===//
// No compression == the exact layer (invariants 7 and 25)
//===----------------------------------------------------------------------===//

TEST(VccLayerExample, NoCompressionEqualsTheExactLayer) {
  Compiled full(fullBudgetLayer(), "vcc_layer");
  Compiled dense(denseLayer(), "dense_layer");
  for (bool padding : {false, true}) {
    SCOPED_TRACE(padding ? "with padding" : "no padding");
    Rng wrng(14);
    const vcc::LayerWeights w = randomWeights(wrng);
    const Batch batch = makeBatch(padding ? 25 : 24, padding);
    std::vector<Tensor> inputs = batchTensors(batch);
    std::vector<Tensor> weights = weightTensors({w});
    std::vector<Tensor> out = full.run(pointers(inputs, weights));
    ASSERT_EQ(out.size(), 2u);

    // The dense layer compiled from the same body, on the original order,
    // with -inf for padded keys.
    std::vector<Tensor> denseInputs;
    denseInputs.push_back(std::move(inputs[0]));
    Tensor bias(ATTIC_F32, {kBatch, kTokens});
    for (int64_t b = 0; b < kBatch; ++b)
      for (int64_t i = 0; i < kTokens; ++i)
        bias.set(b * kTokens + i, batch.keep[b][i] ? 0.0 : -kInf);
    denseInputs.push_back(std::move(bias));
    std::vector<Tensor> denseOut = dense.run(pointers(denseInputs, weights));
    ASSERT_EQ(denseOut.size(), 1u);

    Error vsExact, vsDense;
    for (int64_t b = 0; b < kBatch; ++b) {
      std::vector<double> keyBias(kTokens);
      for (int64_t i = 0; i < kTokens; ++i)
        keyBias[i] = batch.keep[b][i] ? 0.0 : -kInf;
      vcc::Matrix exact = vcc::transformerLayer(batch.x[b], keyBias, w);
      for (int64_t i = 0; i < kTokens; ++i)
        for (int64_t e = 0; e < kDim; ++e) {
          const int64_t at = (b * kTokens + i) * kDim + e;
          if (!batch.keep[b][i]) {
            EXPECT_EQ(out[0][at], 0.0); // padded rows come back as 0
            continue;
          }
          vsExact.add(out[0][at], exact.at(i, e));
          vsDense.add(out[0][at], denseOut[0][at]);
        }
      for (int64_t i = 0; i < kC; ++i) // J = every token, in order
        EXPECT_EQ(out[1][b * kC + i], static_cast<double>(i));
    }
    EXPECT_EQ(vsExact.nonFinite, 0);
    EXPECT_LE(vsExact.relative(), 1e-5);
    EXPECT_LE(vsDense.relative(), 1e-5);
    std::printf("[ measured ] no compression, %s: vs exact layer (double) "
                "max rel err %.2e, vs compiled dense layer (f32) %.2e\n",
                padding ? "padding" : "no padding", vsExact.relative(),
                vsDense.relative());
  }
}

//===----------------------------------------------------------------------===//
// Three layers on one tree (invariant 11)
//===----------------------------------------------------------------------===//

//===----------------------------------------------------------------------===//
// The VCC authors' layer (examples/vcc_roberta_layer.mlir, issue 19)
//===----------------------------------------------------------------------===//

/// The example against the float64 reference of the same formulas: the
/// authors' epsilons (mean_eps = bias_eps = 1e-4: buildTree, assemble and
/// updateTree with them), exact GELU in the FFN, J selected with only the
/// VIP tokens voting. Sequence 0 has 5 VIP tokens for 8 P slots, so 3
/// spare P rows do not vote.
TEST(VccRobertaLayerExample, EqualsTheAuthorsFormulasInTheReference) {
  Compiled roberta(readSource("examples/vcc_roberta_layer.mlir"),
                   "vcc_roberta_layer");
  const double eps = 1e-4;
  int64_t differentJ = 0;
  for (uint64_t seed : {30, 31, 32, 33}) {
    const bool padding = seed % 2 == 1;
    SCOPED_TRACE("seed " + std::to_string(seed));
    Rng wrng(seed + 100);
    vcc::LayerWeights w = randomWeights(wrng);
    w.activation = vcc::Activation::Gelu;
    const Batch batch = makeBatch(seed, padding);
    std::vector<Tensor> inputs = batchTensors(batch);
    std::vector<Tensor> weights = weightTensors({w});
    std::vector<Tensor> out = roberta.run(pointers(inputs, weights));
    ASSERT_EQ(out.size(), 2u);
    double worst = 0;
    for (int64_t b = 0; b < kBatch; ++b) {
      Reordered r = reorder(batch, b);
      std::vector<bool> voters(kVip);
      for (int64_t i = 0; i < kVip; ++i)
        voters[i] = batch.vip[b][r.order.perm[i]];
      std::vector<vcc::Node> j =
          selectReference(r.x, r.validC, w, 4, voters, eps);
      expectJ(out[1], b, j, "J with the importance votes");
      // Spare P rows voting (attic's default) can select other blocks.
      differentJ += selectReference(r.x, r.validC, w, 4, {}, eps) != j;

      // The layer on [P; J] with the epsilons, written back, materialized.
      auto layer = [&](const vcc::LayerWeights &weights, double e) {
        vcc::Tree tree =
            vcc::buildTree(rows(r.x, kVip, kC), r.validC, kFanouts, e);
        vcc::Compressed c = vcc::assemble(rows(r.x, 0, kVip), tree, j, e);
        vcc::Matrix y = vcc::transformerLayer(c.sx, c.keyBias, weights);
        vcc::Tree next =
            vcc::updateTree(tree, j, rows(y, kVip, y.rows - kVip), nullptr, e);
        vcc::Matrix tokens = vcc::materialize(next);
        vcc::Matrix all(kTokens, kDim);
        std::copy(y.data.begin(), y.data.begin() + kVip * kDim,
                  all.data.begin());
        std::copy(tokens.data.begin(), tokens.data.end(),
                  all.data.begin() + kVip * kDim);
        return all;
      };
      Error error;
      compareSequence(out[0], b, layer(w, eps), r.order.perm, error);
      EXPECT_EQ(error.nonFinite, 0);
      EXPECT_LE(error.relative(), 1e-5) << "sequence " << b;
      worst = std::max(worst, error.relative());

      // The same layer with ReLU is clearly different: GELU is compiled.
      vcc::LayerWeights relu = w;
      relu.activation = vcc::Activation::Relu;
      Error reluError;
      compareSequence(out[0], b, layer(relu, eps), r.order.perm, reluError);
      EXPECT_GT(reluError.relative(), 1e-3) << "sequence " << b;
    }
    std::printf("[ measured ] the authors' layer (GELU, importance votes, "
                "eps 1e-4) vs the float64 reference, seed %d: max rel err "
                "%.2e\n",
                static_cast<int>(seed), worst);
  }
  // The vote weights decide something in these inputs (the test can fail).
  EXPECT_GE(differentJ, 1);
}

/// The encoder attic::buildVccEncoder builds with its default spec (the
/// sizes of these tests), printed as text.
std::string builtEncoderSource() {
  mlir::DialectRegistry registry;
  attic::registerExecutionDialects(registry);
  mlir::MLIRContext context(registry);
  context.loadAllAvailableDialects();
  mlir::OpBuilder builder(&context);
  mlir::Location loc = mlir::UnknownLoc::get(&context);
  mlir::OwningOpRef<mlir::ModuleOp> module = mlir::ModuleOp::create(loc);
  builder.setInsertionPointToEnd(module->getBody());
  std::string error;
  EXPECT_TRUE(attic::buildVccEncoder(builder, loc, "built_encoder",
                                     attic::VccEncoderSpec(), error))
      << error;
  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os);
  return text;
}

/// examples/vcc_encoder.mlir (three copies of the layer; J's as three
/// results), examples/vcc_encoder_loop.mlir (one copy in an scf.for that
/// carries the tree; J's as one [3, B, 43] result) and the same loop built
/// by attic::buildVccEncoder (attic-gen vcc-encoder).
TEST(VccEncoderExample, EqualsThreeNaiveLayersInARow) {
  for (int form : {0, 1, 2}) {
    bool loop = form != 0;
    const char *name = form == 0   ? "vcc_encoder"
                       : form == 1 ? "vcc_encoder_loop"
                                   : "built_encoder";
    SCOPED_TRACE(name);
    Compiled encoder(form == 2 ? builtEncoderSource()
                               : readSource(loop
                                                ? "examples/vcc_encoder_loop.mlir"
                                                : "examples/vcc_encoder.mlir"),
                     name);
    for (bool padding : {false, true}) {
      SCOPED_TRACE(padding ? "with padding" : "no padding");
      Rng wrng(15);
      std::vector<vcc::LayerWeights> ws;
      for (int l = 0; l < 3; ++l)
        ws.push_back(randomWeights(wrng));
      const Batch batch = makeBatch(padding ? 27 : 26, padding);
      std::vector<Tensor> inputs = batchTensors(batch);
      std::vector<Tensor> weights = weightTensors(ws);
      std::vector<Tensor> out = encoder.run(pointers(inputs, weights));
      ASSERT_EQ(out.size(), loop ? 2u : 4u);

      double worst = 0;
      for (int64_t b = 0; b < kBatch; ++b) {
        Reordered r = reorder(batch, b);
        vcc::Matrix x = r.x;
        for (int l = 0; l < 3; ++l) {
          std::vector<vcc::Node> j = selectReference(x, r.validC, ws[l], 4);
          const char *what = l == 0 ? "J1" : l == 1 ? "J2" : "J3";
          if (loop)
            expectJ(out[1], b, j, what, l * kBatch * 43);
          else
            expectJ(out[1 + l], b, j, what);
          x = vcc::naiveVccLayer(x, kVip, r.validC, kFanouts, j, ws[l]);
        }
        Error error;
        compareSequence(out[0], b, x, r.order.perm, error);
        EXPECT_EQ(error.nonFinite, 0);
        EXPECT_LE(error.relative(), 1e-5) << "sequence " << b;
        worst = std::max(worst, error.relative());
      }
      std::printf("[ measured ] 3-layer VCC encoder (%s) vs 3 naive layers, "
                  "%s: max rel err %.2e\n",
                  name, padding ? "padding" : "no padding", worst);
    }
  }
}

/// A spec the builder rejects leaves the module as it was.
TEST(VccEncoderBuilder, RejectedSpecsBuildNothing) {
  mlir::DialectRegistry registry;
  attic::registerExecutionDialects(registry);
  mlir::MLIRContext context(registry);
  context.loadAllAvailableDialects();
  mlir::OpBuilder builder(&context);
  mlir::Location loc = mlir::UnknownLoc::get(&context);
  mlir::OwningOpRef<mlir::ModuleOp> module = mlir::ModuleOp::create(loc);
  builder.setInsertionPointToEnd(module->getBody());
  attic::VccEncoderSpec spec;
  spec.fanouts = {8, 16}; // 128 leaves for 120 tokens
  std::string error;
  EXPECT_FALSE(attic::buildVccEncoder(builder, loc, "e", spec, error));
  EXPECT_NE(error.find("product of the fanouts"), std::string::npos) << error;
  EXPECT_TRUE(module->getBody()->empty());
  // Fanouts whose product wraps int64 to tokens - num-vip (2^64 + 4 = 4)
  // were accepted until 2026-11-28 (the compiled encoder then crashed).
  // (Since 2026-12-02 each fanout is bounded by tokens - num-vip, which
  // catches these; the product's own bound is checked with large ones.)
  spec = attic::VccEncoderSpec();
  spec.tokens = 384777;
  spec.numVip = 384773;
  spec.fanouts = {2, 2, 5, 5581, 8681, 49477, 384773};
  spec.budgets = {0, 0, 0, 0, 0, 0, 0};
  EXPECT_FALSE(attic::buildVccEncoder(builder, loc, "e", spec, error));
  EXPECT_NE(error.find("every fanout must be in [2, tokens - num-vip]"),
            std::string::npos)
      << error;
  spec = attic::VccEncoderSpec();
  spec.tokens = 1 << 20;
  spec.numVip = 1;
  spec.fanouts = {(1 << 20) - 1, (1 << 20) - 1, (1 << 20) - 1};
  spec.budgets = {0, 0, 0};
  EXPECT_FALSE(attic::buildVccEncoder(builder, loc, "e", spec, error));
  EXPECT_NE(error.find("product of the fanouts (at least"), std::string::npos)
      << error;
  // An empty function name printed as @<<INVALID EMPTY SYMBOL>>.
  spec = attic::VccEncoderSpec();
  EXPECT_FALSE(attic::buildVccEncoder(builder, loc, "", spec, error));
  EXPECT_EQ(error, "the function needs a name");
  EXPECT_TRUE(module->getBody()->empty());
  // Every valid three-level tree of the 120 tokens builds a verified
  // function with one J per layer.
  for (auto [fanouts, budgets] :
       {std::pair<llvm::SmallVector<int64_t>, llvm::SmallVector<int64_t>>{
            {4, 5, 6}, {6, 2, 1}},
        {{2, 3, 20}, {0, 0, 0}},
        {{10, 12}, {12, 1}},
        {{120}, {1}}}) {
    spec = attic::VccEncoderSpec();
    spec.fanouts = fanouts;
    spec.budgets = budgets;
    spec.layers = 2;
    ASSERT_EQ(attic::checkVccEncoderSpec(spec), "");
    mlir::func::FuncOp f =
        attic::buildVccEncoder(builder, loc, "e", spec, error);
    ASSERT_TRUE(f) << error;
    EXPECT_EQ(f.getFunctionType().getNumInputs(), 19u);
    f.erase();
  }
}

} // namespace
