//===- VccInvariantsTest.cpp - VCC invariants on compiled code ------------===//
//
// The invariants of the VCC digest (/shared/papers/vcc.md section 7) that
// the compiled VCC ops must keep, checked on code JIT-compiled by
// attic-cpu-pipeline (CpuExecutable), with the plain-C++ reference
// (attic::ref::vcc) where one side needs an oracle. Each test names the
// invariants it covers. The whole-layer invariants with a transformer body
// (7, 10, 11 with LayerNorm/FFN) are in the examples' tests.
//
//===----------------------------------------------------------------------===//

#include "CompiledHarness.h"
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
#include <limits>
#include <memory>
#include <numeric>
#include <random>
#include <string>
#include <vector>

namespace {

namespace vcc = attic::ref::vcc;

using attic::testing::Compiled;
using attic::testing::Tensor;


Tensor uniform(std::mt19937 &rng, std::vector<int64_t> shape, double lo = -1,
               double hi = 1) {
  Tensor t(ATTIC_F32, shape);
  std::uniform_real_distribution<double> dist(lo, hi);
  for (int64_t i = 0; i < t.numel(); ++i)
    t.set(i, dist(rng));
  return t;
}

/// Validity [B][n_c]: random tokens invalid with probability `drop`, and the
/// blocks listed in `emptyBlocks` (of `blockSize` tokens, in every
/// sequence) wholly invalid.
Tensor validity(std::mt19937 &rng, int64_t batch, int64_t tokens, double drop,
                const std::vector<int64_t> &emptyBlocks, int64_t blockSize) {
  Tensor t(ATTIC_I1, {batch, tokens});
  std::bernoulli_distribution keep(1.0 - drop);
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t i = 0; i < tokens; ++i) {
      bool empty = std::count(emptyBlocks.begin(), emptyBlocks.end(),
                              i / blockSize) > 0;
      t.set(b * tokens + i, !empty && keep(rng));
    }
  return t;
}

/// Node sizes s_j (tokens per level-j node) of a tree with these fanouts.
std::vector<int64_t> nodeSizes(const std::vector<int64_t> &fanouts) {
  std::vector<int64_t> sizes{1};
  for (int64_t f : fanouts)
    sizes.push_back(sizes.back() * f);
  return sizes;
}

struct NodeRef {
  int64_t level, index, size;
};

/// Decodes a global node id (docs/vcc.md: level-0 ids first, then level 1...).
NodeRef decode(int64_t id, const std::vector<int64_t> &fanouts,
               int64_t tokens) {
  std::vector<int64_t> sizes = nodeSizes(fanouts);
  for (size_t level = 0; level < sizes.size(); ++level) {
    int64_t count = tokens / sizes[level];
    if (id < count)
      return {int64_t(level), id, sizes[level]};
    id -= count;
  }
  ADD_FAILURE() << "node id out of range";
  return {0, 0, 1};
}

/// J = every node of one level, as global ids: [B][n_c/s_level].
Tensor levelIds(int64_t batch, const std::vector<int64_t> &fanouts,
                int64_t tokens, int64_t level) {
  std::vector<int64_t> sizes = nodeSizes(fanouts);
  int64_t offset = 0;
  for (int64_t j = 0; j < level; ++j)
    offset += tokens / sizes[j];
  int64_t count = tokens / sizes[level];
  Tensor t(ATTIC_I64, {batch, count});
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t i = 0; i < count; ++i)
      t.set(b * count + i, offset + i);
  return t;
}

/// Mean of the valid tokens of c[b] in [begin, end), and their count.
std::vector<double> segmentMean(const Tensor &c, const Tensor &valid, int64_t b,
                                int64_t begin, int64_t end, int64_t &count) {
  int64_t tokens = c.dim(1), dim = c.dim(2);
  std::vector<double> mean(dim, 0.0);
  count = 0;
  for (int64_t i = begin; i < end; ++i) {
    if (!valid[b * tokens + i])
      continue;
    ++count;
    for (int64_t e = 0; e < dim; ++e)
      mean[e] += c[(b * tokens + i) * dim + e];
  }
  for (double &m : mean)
    m = count ? m / count : 0.0;
  return mean;
}

vcc::Matrix sequence(const Tensor &t, int64_t b) {
  int64_t rows = t.dim(1), cols = t.dim(2);
  vcc::Matrix m(rows, cols);
  for (int64_t i = 0; i < rows * cols; ++i)
    m.data[i] = t[b * rows * cols + i];
  return m;
}

std::vector<bool> validOf(const Tensor &valid, int64_t b) {
  int64_t tokens = valid.dim(1);
  std::vector<bool> v(tokens);
  for (int64_t i = 0; i < tokens; ++i)
    v[i] = valid[b * tokens + i] != 0;
  return v;
}

//===----------------------------------------------------------------------===//
// Invariants 3, 15, 16, 28: retrieval of every segment mean, the round trip,
// and fully padded blocks.
//===----------------------------------------------------------------------===//

const char *kMeansBinary = R"mlir(
!T = !attic.tree<2x16x8xf32, fanouts = [2, 2, 2, 2]>
func.func @means(%c: tensor<2x16x8xf32>, %valid: tensor<2x16xi1>, %p: tensor<2x3x8xf32>,
                 %j0: tensor<2x16xi64>, %j1: tensor<2x8xi64>, %j2: tensor<2x4xi64>,
                 %j3: tensor<2x2xi64>, %j4: tensor<2x1xi64>)
    -> (tensor<2x16x8xf32>, tensor<2x19x8xf32>, tensor<2x19xf32>, tensor<2x11x8xf32>, tensor<2x11xf32>,
        tensor<2x7x8xf32>, tensor<2x7xf32>, tensor<2x5x8xf32>, tensor<2x5xf32>, tensor<2x4x8xf32>, tensor<2x4xf32>) {
  %t = attic.tree_build %c, %valid : tensor<2x16x8xf32>, tensor<2x16xi1> -> !T
  %m = attic.tree_materialize %t : !T -> tensor<2x16x8xf32>
  %s0, %b0 = attic.vcc_compress %p, %t, %j0 : tensor<2x3x8xf32>, !T, tensor<2x16xi64> -> tensor<2x19x8xf32>, tensor<2x19xf32>
  %s1, %b1 = attic.vcc_compress %p, %t, %j1 : tensor<2x3x8xf32>, !T, tensor<2x8xi64> -> tensor<2x11x8xf32>, tensor<2x11xf32>
  %s2, %b2 = attic.vcc_compress %p, %t, %j2 : tensor<2x3x8xf32>, !T, tensor<2x4xi64> -> tensor<2x7x8xf32>, tensor<2x7xf32>
  %s3, %b3 = attic.vcc_compress %p, %t, %j3 : tensor<2x3x8xf32>, !T, tensor<2x2xi64> -> tensor<2x5x8xf32>, tensor<2x5xf32>
  %s4, %b4 = attic.vcc_compress %p, %t, %j4 : tensor<2x3x8xf32>, !T, tensor<2x1xi64> -> tensor<2x4x8xf32>, tensor<2x4xf32>
  return %m, %s0, %b0, %s1, %b1, %s2, %b2, %s3, %b3, %s4, %b4
      : tensor<2x16x8xf32>, tensor<2x19x8xf32>, tensor<2x19xf32>, tensor<2x11x8xf32>, tensor<2x11xf32>,
        tensor<2x7x8xf32>, tensor<2x7xf32>, tensor<2x5x8xf32>, tensor<2x5xf32>, tensor<2x4x8xf32>, tensor<2x4xf32>
}
)mlir";

TEST(VccCompiled, RetrievalRoundTripAndPaddedBlocks) {
  Compiled f(kMeansBinary, "means");
  std::vector<int64_t> fanouts{2, 2, 2, 2};
  const int64_t batch = 2, tokens = 16, dim = 8, numVip = 3;
  for (unsigned seed : {1u, 2u, 3u}) {
    std::mt19937 rng(seed);
    Tensor c = uniform(rng, {batch, tokens, dim});
    // Blocks of 4 tokens number 1 wholly padded; other tokens dropped at 30%.
    Tensor valid = validity(rng, batch, tokens, 0.3, {1}, 4);
    Tensor p = uniform(rng, {batch, numVip, dim});
    std::vector<Tensor> ids;
    for (int64_t level = 0; level <= 4; ++level)
      ids.push_back(levelIds(batch, fanouts, tokens, level));
    std::vector<Tensor> out =
        f.run({&c, &valid, &p, &ids[0], &ids[1], &ids[2], &ids[3], &ids[4]});
    ASSERT_EQ(out.size(), 11u);
    // 16 (and 28): materialize(build(C)) == C on valid rows, 0 elsewhere.
    for (int64_t b = 0; b < batch; ++b)
      for (int64_t i = 0; i < tokens; ++i)
        for (int64_t e = 0; e < dim; ++e) {
          int64_t at = (b * tokens + i) * dim + e;
          double expected = valid[b * tokens + i] ? c[at] : 0.0;
          EXPECT_NEAR(out[0][at], expected, 1e-6) << "token " << i;
        }
    // 3, 15: row (s, x) of the compressed sequence is the mean of the
    // segment's valid tokens, read from the tree; P rows are exact; the
    // bias is log s (the node's size, also for a partly padded node, as the
    // paper's code does: docs/vcc.md), -inf for an empty segment (28).
    std::vector<int64_t> sizes = nodeSizes(fanouts);
    for (int64_t level = 0; level <= 4; ++level) {
      const Tensor &sx = out[1 + 2 * level], &bias = out[2 + 2 * level];
      int64_t nodes = tokens / sizes[level], rows = numVip + nodes;
      for (int64_t b = 0; b < batch; ++b) {
        for (int64_t r = 0; r < numVip; ++r) {
          EXPECT_EQ(bias[b * rows + r], 0.0);
          for (int64_t e = 0; e < dim; ++e)
            EXPECT_EQ(sx[(b * rows + r) * dim + e],
                      p[(b * numVip + r) * dim + e]);
        }
        for (int64_t x = 0; x < nodes; ++x) {
          int64_t count = 0;
          std::vector<double> mean = segmentMean(
              c, valid, b, x * sizes[level], (x + 1) * sizes[level], count);
          double bx = bias[b * rows + numVip + x];
          if (count == 0)
            EXPECT_TRUE(std::isinf(bx) && bx < 0) << "level " << level;
          else
            EXPECT_NEAR(bx, std::log(double(sizes[level])), 1e-6);
          for (int64_t e = 0; e < dim; ++e)
            EXPECT_NEAR(sx[(b * rows + numVip + x) * dim + e], mean[e], 1e-5)
                << "level " << level << " node " << x;
        }
      }
    }
  }
}

//===----------------------------------------------------------------------===//
// Invariants 5, 6, 22, 27, 28: tree_select's J is a partition of static
// size, in canonical order, independent of the order of heads and VIP rows,
// and never splits a padded block while valid ones remain.
//===----------------------------------------------------------------------===//

const char *kSelect = R"mlir(
!T = !attic.tree<2x32x8xf32, fanouts = [4, 8]>
func.func @select(%c: tensor<2x32x8xf32>, %valid: tensor<2x32xi1>, %q: tensor<2x2x3x4xf32>,
                  %wk: tensor<8x8xf32>, %bk: tensor<8xf32>, %g: tensor<8xf32>, %be: tensor<8xf32>)
    -> tensor<2x17xi64> {
  %t = attic.tree_build %c, %valid : tensor<2x32x8xf32>, tensor<2x32xi1> -> !T
  %j = attic.tree_select %t, %q, %wk, %bk, %g, %be {budgets = [3, 1], heads = 2, scale = 0.5 : f32}
      : !T, tensor<2x2x3x4xf32>, tensor<8x8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32> -> tensor<2x17xi64>
  return %j : tensor<2x17xi64>
}
)mlir";

TEST(VccCompiled, SelectionPartitionOrderAndDeterminism) {
  Compiled f(kSelect, "select");
  std::vector<int64_t> fanouts{4, 8};
  const int64_t batch = 2, tokens = 32, dim = 8, heads = 2, numVip = 3, dh = 4;
  // 6: |J| = 1 + sum h_j (f_j - 1) = 1 + 3*3 + 1*7 = 17, static (27).
  ASSERT_TRUE(f.exe);
  EXPECT_EQ(f.exe->signature().results[0].shape[1], 17);
  for (unsigned seed : {4u, 5u, 6u, 7u}) {
    std::mt19937 rng(seed);
    Tensor c = uniform(rng, {batch, tokens, dim}, -2, 2);
    // Blocks 2 and 5 padded: with 6 valid blocks and h = 3, never split.
    Tensor valid = validity(rng, batch, tokens, 0.2, {2, 5}, 4);
    Tensor q = uniform(rng, {batch, heads, numVip, dh}, -3, 3);
    Tensor wk = uniform(rng, {dim, dim}), bk = uniform(rng, {dim}, -0.1, 0.1);
    Tensor g = uniform(rng, {dim}, 0.5, 1.5), be = uniform(rng, {dim}, -0.1, 0.1);
    std::vector<Tensor> out = f.run({&c, &valid, &q, &wk, &bk, &g, &be});
    ASSERT_EQ(out.size(), 1u);
    const Tensor &j = out[0];
    for (int64_t b = 0; b < batch; ++b) {
      std::vector<int> covered(tokens, 0);
      int64_t previous = -1, perLevel[3] = {0, 0, 0};
      for (int64_t r = 0; r < 17; ++r) {
        int64_t id = static_cast<int64_t>(j[b * 17 + r]);
        EXPECT_GT(id, previous) << "J not in canonical (ascending) order";
        previous = id;
        NodeRef node = decode(id, fanouts, tokens);
        ++perLevel[node.level];
        for (int64_t i = node.index * node.size;
             i < (node.index + 1) * node.size; ++i)
          ++covered[i];
        // 28: a padded block is never split (its tokens never in J).
        if (node.level == 0) {
          EXPECT_NE(node.index / 4, 2);
          EXPECT_NE(node.index / 4, 5);
        }
      }
      // 5: every token covered exactly once.
      for (int64_t i = 0; i < tokens; ++i)
        EXPECT_EQ(covered[i], 1) << "token " << i;
      // 6: per level, f_{j+1} h_{j+1} - h_j nodes: 12 tokens, 5 blocks, no root.
      EXPECT_EQ(perLevel[0], 12);
      EXPECT_EQ(perLevel[1], 5);
      EXPECT_EQ(perLevel[2], 0);
    }
    // 22: permuting the heads, or the VIP rows, leaves J unchanged.
    Tensor qHeads(ATTIC_F32, {batch, heads, numVip, dh});
    Tensor qRows(ATTIC_F32, {batch, heads, numVip, dh});
    for (int64_t b = 0; b < batch; ++b)
      for (int64_t h = 0; h < heads; ++h)
        for (int64_t i = 0; i < numVip; ++i)
          for (int64_t e = 0; e < dh; ++e) {
            int64_t at = ((b * heads + h) * numVip + i) * dh + e;
            qHeads.set(((b * heads + (heads - 1 - h)) * numVip + i) * dh + e,
                       q[at]);
            qRows.set(((b * heads + h) * numVip + (i + 1) % numVip) * dh + e,
                      q[at]);
          }
    // The heads are permuted consistently: the key projection's output
    // columns (head h owns columns [h*dh, (h+1)*dh)) move with them.
    Tensor wkHeads(ATTIC_F32, {dim, dim}), bkHeads(ATTIC_F32, {dim});
    for (int64_t col = 0; col < dim; ++col) {
      int64_t moved = (heads - 1 - col / dh) * dh + col % dh;
      bkHeads.set(moved, bk[col]);
      for (int64_t row = 0; row < dim; ++row)
        wkHeads.set(row * dim + moved, wk[row * dim + col]);
    }
    for (auto [permuted, wkUsed, bkUsed] :
         {std::tuple<const Tensor *, const Tensor *, const Tensor *>{
              &qHeads, &wkHeads, &bkHeads},
          {&qRows, &wk, &bk}}) {
      std::vector<Tensor> again =
          f.run({&c, &valid, permuted, wkUsed, bkUsed, &g, &be});
      ASSERT_EQ(again.size(), 1u);
      for (int64_t i = 0; i < batch * 17; ++i)
        EXPECT_EQ(again[0][i], j[i]) << "J changed under a permutation";
    }
  }
}

//===----------------------------------------------------------------------===//
// Invariants 1, 12, 13, 17, 18, 21 and the reference's Algorithm 2: one layer
// with an attention body, then the tree update.
//===----------------------------------------------------------------------===//

const char *kLayer = R"mlir(
!T = !attic.tree<2x32x8xf32, fanouts = [4, 8]>
func.func @layer(%c: tensor<2x32x8xf32>, %valid: tensor<2x32xi1>, %p: tensor<2x3x8xf32>, %q: tensor<2x2x3x4xf32>,
                 %wk: tensor<8x8xf32>, %bk: tensor<8xf32>, %g: tensor<8xf32>, %be: tensor<8xf32>,
                 %j0: tensor<2x32xi64>, %j1: tensor<2x8xi64>, %j2: tensor<2x1xi64>)
    -> (tensor<2x17xi64>, tensor<2x20x8xf32>, tensor<2x20xf32>, tensor<2x1x20x8xf32>, tensor<2x32x8xf32>,
        tensor<2x35x8xf32>, tensor<2x11x8xf32>, tensor<2x11xf32>, tensor<2x4x8xf32>,
        tensor<2x35x8xf32>, tensor<2x11x8xf32>, tensor<2x4x8xf32>, tensor<2x20x8xf32>) {
  %t = attic.tree_build %c, %valid : tensor<2x32x8xf32>, tensor<2x32xi1> -> !T
  %j = attic.tree_select %t, %q, %wk, %bk, %g, %be {budgets = [3, 1], heads = 2, scale = 0.5 : f32}
      : !T, tensor<2x2x3x4xf32>, tensor<8x8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32> -> tensor<2x17xi64>
  %sx, %bias = attic.vcc_compress %p, %t, %j : tensor<2x3x8xf32>, !T, tensor<2x17xi64> -> tensor<2x20x8xf32>, tensor<2x20xf32>
  %x = tensor.expand_shape %sx [[0], [1, 2], [3]] output_shape [2, 1, 20, 8] : tensor<2x20x8xf32> into tensor<2x1x20x8xf32>
  %y = attic.attention %x, %x, %x bias(%bias : tensor<2x20xf32>) : tensor<2x1x20x8xf32>, tensor<2x1x20x8xf32>, tensor<2x1x20x8xf32> -> tensor<2x1x20x8xf32>
  %y3 = tensor.collapse_shape %y [[0], [1, 2], [3]] : tensor<2x1x20x8xf32> into tensor<2x20x8xf32>
  %rows = tensor.extract_slice %y3[0, 3, 0] [2, 17, 8] [1, 1, 1] : tensor<2x20x8xf32> to tensor<2x17x8xf32>
  %u = attic.tree_update %t, %j, %rows : !T, tensor<2x17xi64>, tensor<2x17x8xf32> -> !T
  %cnew = attic.tree_materialize %u : !T -> tensor<2x32x8xf32>
  // Node means of every level of the updated tree ...
  %u0, %ub0 = attic.vcc_compress %p, %u, %j0 : tensor<2x3x8xf32>, !T, tensor<2x32xi64> -> tensor<2x35x8xf32>, tensor<2x35xf32>
  %u1, %ub1 = attic.vcc_compress %p, %u, %j1 : tensor<2x3x8xf32>, !T, tensor<2x8xi64> -> tensor<2x11x8xf32>, tensor<2x11xf32>
  %u2, %ub2 = attic.vcc_compress %p, %u, %j2 : tensor<2x3x8xf32>, !T, tensor<2x1xi64> -> tensor<2x4x8xf32>, tensor<2x4xf32>
  // ... and of a tree rebuilt from scratch from C_new, also over J.
  %r = attic.tree_build %cnew, %valid : tensor<2x32x8xf32>, tensor<2x32xi1> -> !T
  %r0, %rb0 = attic.vcc_compress %p, %r, %j0 : tensor<2x3x8xf32>, !T, tensor<2x32xi64> -> tensor<2x35x8xf32>, tensor<2x35xf32>
  %r1, %rb1 = attic.vcc_compress %p, %r, %j1 : tensor<2x3x8xf32>, !T, tensor<2x8xi64> -> tensor<2x11x8xf32>, tensor<2x11xf32>
  %r2, %rb2 = attic.vcc_compress %p, %r, %j2 : tensor<2x3x8xf32>, !T, tensor<2x1xi64> -> tensor<2x4x8xf32>, tensor<2x4xf32>
  %rj, %rbj = attic.vcc_compress %p, %r, %j : tensor<2x3x8xf32>, !T, tensor<2x17xi64> -> tensor<2x20x8xf32>, tensor<2x20xf32>
  return %j, %sx, %bias, %y, %cnew, %u0, %u1, %ub1, %u2, %r0, %r1, %r2, %rj
      : tensor<2x17xi64>, tensor<2x20x8xf32>, tensor<2x20xf32>, tensor<2x1x20x8xf32>, tensor<2x32x8xf32>,
        tensor<2x35x8xf32>, tensor<2x11x8xf32>, tensor<2x11xf32>, tensor<2x4x8xf32>,
        tensor<2x35x8xf32>, tensor<2x11x8xf32>, tensor<2x4x8xf32>, tensor<2x20x8xf32>
}
)mlir";

TEST(VccCompiled, UpdateInvariantsAfterAnAttentionLayer) {
  Compiled f(kLayer, "layer");
  std::vector<int64_t> fanouts{4, 8};
  const int64_t batch = 2, tokens = 32, dim = 8, numVip = 3, r = 20, nj = 17;
  for (unsigned seed : {8u, 9u, 10u}) {
    std::mt19937 rng(seed);
    Tensor c = uniform(rng, {batch, tokens, dim}, -2, 2);
    Tensor valid = validity(rng, batch, tokens, 0.25, {6}, 4);
    Tensor p = uniform(rng, {batch, numVip, dim}, -2, 2);
    Tensor q = uniform(rng, {batch, 2, numVip, 4}, -3, 3);
    Tensor wk = uniform(rng, {dim, dim}), bk = uniform(rng, {dim}, -0.1, 0.1);
    Tensor g = uniform(rng, {dim}, 0.5, 1.5), be = uniform(rng, {dim}, -0.1, 0.1);
    Tensor j0 = levelIds(batch, fanouts, tokens, 0);
    Tensor j1 = levelIds(batch, fanouts, tokens, 1);
    Tensor j2 = levelIds(batch, fanouts, tokens, 2);
    std::vector<Tensor> out =
        f.run({&c, &valid, &p, &q, &wk, &bk, &g, &be, &j0, &j1, &j2});
    ASSERT_EQ(out.size(), 13u);
    const Tensor &j = out[0], &sx = out[1], &bias = out[2], &y = out[3],
                 &cnew = out[4], &u0 = out[5], &u1 = out[6], &ub1 = out[7],
                 &u2 = out[8], &r0 = out[9], &r1 = out[10], &r2 = out[11],
                 &rj = out[12];
    for (int64_t b = 0; b < batch; ++b) {
      std::vector<NodeRef> nodes;
      for (int64_t x = 0; x < nj; ++x)
        nodes.push_back(decode(int64_t(j[b * nj + x]), fanouts, tokens));
      for (int64_t x = 0; x < nj; ++x) {
        const NodeRef &n = nodes[x];
        int64_t begin = n.index * n.size, end = begin + n.size, count = 0;
        segmentMean(c, valid, b, begin, end, count);
        for (int64_t i = begin; i < end; ++i) {
          if (!valid[b * tokens + i])
            continue;
          for (int64_t e = 0; e < dim; ++e) {
            // 12: every valid token of a J segment gets the same update,
            // Y_seg - c_seg (1: S^dagger is a one-hot broadcast).
            double update = cnew[(b * tokens + i) * dim + e] -
                            c[(b * tokens + i) * dim + e];
            double expected = y[(b * r + numVip + x) * dim + e] -
                              sx[(b * r + numVip + x) * dim + e];
            EXPECT_NEAR(update, expected, 2e-5) << "token " << i;
          }
        }
        // 13 (and 1: S_c S_c^dagger = I): the segment means of C_new are
        // the layer's rows.
        if (count > 0)
          for (int64_t e = 0; e < dim; ++e)
            EXPECT_NEAR(rj[(b * r + numVip + x) * dim + e],
                        y[(b * r + numVip + x) * dim + e], 2e-5);
      }
      // 17: the updated tree's node means equal a rebuilt tree's, at every
      // level.
      for (auto [updated, rebuilt, nodesAt] :
           {std::tuple<const Tensor *, const Tensor *, int64_t>{&u0, &r0, 32},
            {&u1, &r1, 8},
            {&u2, &r2, 1}}) {
        int64_t rows = numVip + nodesAt;
        for (int64_t x = 0; x < rows * dim; ++x)
          EXPECT_NEAR((*updated)[b * rows * dim + x],
                      (*rebuilt)[b * rows * dim + x], 2e-5);
      }
      // 18: below a J block, the tokens' deltas (block mean minus token)
      // are untouched by the update (read back through the means, so up to
      // the rounding of the root walk).
      for (const NodeRef &n : nodes) {
        if (n.level != 1)
          continue;
        int64_t count = 0;
        std::vector<double> oldMean =
            segmentMean(c, valid, b, 4 * n.index, 4 * n.index + 4, count);
        for (int64_t i = 4 * n.index; i < 4 * n.index + 4; ++i) {
          if (!valid[b * tokens + i])
            continue;
          for (int64_t e = 0; e < dim; ++e) {
            double before = oldMean[e] - c[(b * tokens + i) * dim + e];
            double after = u1[(b * 11 + numVip + n.index) * dim + e] -
                           u0[(b * 35 + numVip + i) * dim + e];
            EXPECT_NEAR(after, before, 2e-5) << "token " << i;
          }
        }
      }
      // 21: each block's mean is the mean of its valid tokens', and the
      // root's the valid-count-weighted mean of its blocks'.
      for (int64_t x = 0; x < 8; ++x) {
        double blockBias = ub1[b * 11 + numVip + x];
        if (std::isinf(blockBias))
          continue;
        for (int64_t e = 0; e < dim; ++e) {
          double sum = 0;
          int64_t count = 0;
          for (int64_t i = 4 * x; i < 4 * x + 4; ++i)
            if (valid[b * tokens + i]) {
              sum += u0[(b * 35 + numVip + i) * dim + e];
              ++count;
            }
          EXPECT_NEAR(u1[(b * 11 + numVip + x) * dim + e], sum / count, 2e-5);
        }
      }
      for (int64_t e = 0; e < dim; ++e) {
        double sum = 0, total = 0;
        for (int64_t x = 0; x < 8; ++x) {
          int64_t count = 0;
          segmentMean(c, valid, b, 4 * x, 4 * x + 4, count);
          sum += count * u1[(b * 11 + numVip + x) * dim + e];
          total += count;
        }
        EXPECT_NEAR(u2[(b * 4 + numVip) * dim + e], sum / total, 2e-5);
      }
      // The reference's Algorithm 2 on the same J and rows gives the same
      // C_new.
      vcc::Tree tree = vcc::buildTree(sequence(c, b), validOf(valid, b), fanouts);
      std::vector<vcc::Node> refJ;
      for (const NodeRef &n : nodes)
        refJ.push_back({n.level, n.index});
      vcc::Matrix rows(nj, dim);
      for (int64_t x = 0; x < nj; ++x)
        for (int64_t e = 0; e < dim; ++e)
          rows.at(x, e) = y[(b * r + numVip + x) * dim + e];
      vcc::Matrix expected = vcc::materialize(vcc::updateTree(tree, refJ, rows));
      for (int64_t i = 0; i < tokens * dim; ++i)
        EXPECT_NEAR(cnew[b * tokens * dim + i], expected.data[i], 2e-5);
      // Attention rows: bias 0 for P, log s for J nodes (-inf when empty).
      for (int64_t x = 0; x < nj; ++x) {
        int64_t begin = nodes[x].index * nodes[x].size, count = 0;
        segmentMean(c, valid, b, begin, begin + nodes[x].size, count);
        double bx = bias[b * r + numVip + x];
        if (count == 0)
          EXPECT_TRUE(std::isinf(bx) && bx < 0);
        else
          EXPECT_NEAR(bx, std::log(double(nodes[x].size)), 1e-6);
      }
    }
  }
}

//===----------------------------------------------------------------------===//
// Invariants 7 and 8: attention over the compressed rows with the log-count
// bias equals attention over the sequence in which every J node's mean is
// repeated once per token (S^dagger S X), and with J = the tokens it is the
// exact attention.
//===----------------------------------------------------------------------===//

const char *kDuplicated = R"mlir(
!T = !attic.tree<1x32x8xf32, fanouts = [4, 8]>
func.func @compressed(%c: tensor<1x32x8xf32>, %valid: tensor<1x32xi1>, %p: tensor<1x3x8xf32>, %j: tensor<1x17xi64>)
    -> tensor<1x1x20x8xf32> {
  %t = attic.tree_build %c, %valid : tensor<1x32x8xf32>, tensor<1x32xi1> -> !T
  %sx, %bias = attic.vcc_compress %p, %t, %j : tensor<1x3x8xf32>, !T, tensor<1x17xi64> -> tensor<1x20x8xf32>, tensor<1x20xf32>
  %x = tensor.expand_shape %sx [[0], [1, 2], [3]] output_shape [1, 1, 20, 8] : tensor<1x20x8xf32> into tensor<1x1x20x8xf32>
  %y = attic.attention %x, %x, %x bias(%bias : tensor<1x20xf32>) : tensor<1x1x20x8xf32>, tensor<1x1x20x8xf32>, tensor<1x1x20x8xf32> -> tensor<1x1x20x8xf32>
  return %y : tensor<1x1x20x8xf32>
}
func.func @uncompressed(%c: tensor<1x32x8xf32>, %valid: tensor<1x32xi1>, %p: tensor<1x3x8xf32>, %j: tensor<1x32xi64>)
    -> tensor<1x1x35x8xf32> {
  %t = attic.tree_build %c, %valid : tensor<1x32x8xf32>, tensor<1x32xi1> -> !T
  %sx, %bias = attic.vcc_compress %p, %t, %j : tensor<1x3x8xf32>, !T, tensor<1x32xi64> -> tensor<1x35x8xf32>, tensor<1x35xf32>
  %x = tensor.expand_shape %sx [[0], [1, 2], [3]] output_shape [1, 1, 35, 8] : tensor<1x35x8xf32> into tensor<1x1x35x8xf32>
  %y = attic.attention %x, %x, %x bias(%bias : tensor<1x35xf32>) : tensor<1x1x35x8xf32>, tensor<1x1x35x8xf32>, tensor<1x1x35x8xf32> -> tensor<1x1x35x8xf32>
  return %y : tensor<1x1x35x8xf32>
}
func.func @dense(%x: tensor<1x1x35x8xf32>) -> tensor<1x1x35x8xf32> {
  %y = attic.attention %x, %x, %x : tensor<1x1x35x8xf32>, tensor<1x1x35x8xf32>, tensor<1x1x35x8xf32> -> tensor<1x1x35x8xf32>
  return %y : tensor<1x1x35x8xf32>
}
)mlir";

TEST(VccCompiled, CountBiasEqualsDuplicatedSequence) {
  Compiled compressed(kDuplicated, "compressed");
  Compiled uncompressed(kDuplicated, "uncompressed");
  Compiled dense(kDuplicated, "dense");
  std::vector<int64_t> fanouts{4, 8};
  const int64_t tokens = 32, dim = 8, numVip = 3;
  std::mt19937 rng(11);
  Tensor c = uniform(rng, {1, tokens, dim}, -2, 2);
  Tensor valid = validity(rng, 1, tokens, 0.0, {}, 4); // all valid
  Tensor p = uniform(rng, {1, numVip, dim}, -2, 2);
  // J: blocks 1, 4, 6 split into tokens (12 tokens), the other 5 blocks.
  Tensor j(ATTIC_I64, {1, 17});
  std::vector<int64_t> ids;
  for (int64_t blk : {1, 4, 6})
    for (int64_t i = 4 * blk; i < 4 * blk + 4; ++i)
      ids.push_back(i);
  for (int64_t blk : {0, 2, 3, 5, 7})
    ids.push_back(32 + blk);
  for (int64_t x = 0; x < 17; ++x)
    j.set(x, ids[x]);
  std::vector<Tensor> y = compressed.run({&c, &valid, &p, &j});
  ASSERT_EQ(y.size(), 1u);
  // S^dagger S X: P, then every token replaced by its J node's mean.
  Tensor dup(ATTIC_F32, {1, 1, numVip + tokens, dim});
  std::vector<int64_t> rowOfToken(tokens);
  for (int64_t x = 0; x < 17; ++x) {
    NodeRef n = decode(ids[x], fanouts, tokens);
    for (int64_t i = n.index * n.size; i < (n.index + 1) * n.size; ++i)
      rowOfToken[i] = x;
  }
  for (int64_t r = 0; r < numVip; ++r)
    for (int64_t e = 0; e < dim; ++e)
      dup.set(r * dim + e, p[r * dim + e]);
  for (int64_t i = 0; i < tokens; ++i) {
    NodeRef n = decode(ids[rowOfToken[i]], fanouts, tokens);
    int64_t count = 0;
    std::vector<double> mean = segmentMean(c, valid, 0, n.index * n.size,
                                           (n.index + 1) * n.size, count);
    for (int64_t e = 0; e < dim; ++e)
      dup.set((numVip + i) * dim + e, mean[e]);
  }
  std::vector<Tensor> yd = dense.run({&dup});
  ASSERT_EQ(yd.size(), 1u);
  // 8: the P rows agree, and every token's row equals its node's row.
  for (int64_t r = 0; r < numVip; ++r)
    for (int64_t e = 0; e < dim; ++e)
      EXPECT_NEAR(y[0][r * dim + e], yd[0][r * dim + e], 1e-5);
  for (int64_t i = 0; i < tokens; ++i)
    for (int64_t e = 0; e < dim; ++e)
      EXPECT_NEAR(y[0][(numVip + rowOfToken[i]) * dim + e],
                  yd[0][(numVip + i) * dim + e], 1e-5)
          << "token " << i;
  // 7: J = all tokens is no compression: exact attention over [P; C].
  Tensor tokensJ = levelIds(1, fanouts, tokens, 0);
  std::vector<Tensor> yu = uncompressed.run({&c, &valid, &p, &tokensJ});
  Tensor full(ATTIC_F32, {1, 1, numVip + tokens, dim});
  for (int64_t r = 0; r < numVip; ++r)
    for (int64_t e = 0; e < dim; ++e)
      full.set(r * dim + e, p[r * dim + e]);
  for (int64_t i = 0; i < tokens * dim; ++i)
    full.set(numVip * dim + i, c[i]);
  std::vector<Tensor> yf = dense.run({&full});
  ASSERT_EQ(yu.size(), 1u);
  ASSERT_EQ(yf.size(), 1u);
  for (int64_t i = 0; i < yf[0].numel(); ++i)
    EXPECT_NEAR(yu[0][i], yf[0][i], 1e-6);
}

} // namespace
