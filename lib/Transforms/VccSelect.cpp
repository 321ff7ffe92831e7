//===- VccSelect.cpp - tree_select (Algorithm 1) ----------------*- C++ -*-===//
//
// attic.tree_select as upstream ops on the tree's component tensors
// (VccLowering.h): per scored level, the candidates' means, their keys (LN
// and the key projection as one linalg.matmul), the P rows' votes (section
// 3.6, optionally weighted by vote_mask), the top h by a radix select; then
// a scan that writes the split candidates' children and the kept ones' ids
// into J.
//
//===----------------------------------------------------------------------===//

#include "VccLowering.h"

#include "attic/Transforms/RuntimeCalls.h"
#include "attic/runtime/Runtime.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <tuple>

using namespace mlir;
using namespace attic;
using namespace attic::detail;

//===--------------------------------------------------------------------===//
// tree_select (Algorithm 1). Levels from the root down, each with the
// indices of its candidates (the level-j nodes of J when level j is
// reached), cand [B, m_j] i64, ascending; m_L = 1 (the root), m_j =
// f_{j+1} * h_{j+1} below. A level that decides something (0 < h_j < m_j)
// is scored, for all sequences at once, into scratch built by loop nests:
//
//   means  [B, m, d]       node means read from the tree (0 when empty)
//   mu, rstd [B, m]        LayerNorm statistics (biased variance, 1e-5)
//   keys   [B, m, d]       LN(mean) * gamma + beta, times key_weight
//                          (one linalg.matmul on [B*m, d]: O(m d^2));
//                          key_bias is added in the logits
//   logits [B, H, n_p, m]  scale * q . key (head slice), -inf when empty
//   max, sum [B, H, n_p]   softmax over the candidates
//   scores [B, m]          mean over heads and P rows of the softmax;
//                          -inf for an empty candidate
//   split  [B, m] i1       rank < h_j, rank = candidates that score higher
//                          or equal with a lower index: a radix select
//                          of the h_j-th score, then a scan (topFlags):
//                          O(32 m)
//
// (h_j = m_j splits every candidate, h_j = 0 none: no scores.) Then one
// scan per sequence over the candidates, in order, writes the children of
// the split ones into the next level's candidates (ascending, since the
// candidates are) and the kept ones into J at their level's place, as
// global ids. The level-0 candidates are all kept.
//===--------------------------------------------------------------------===//
Value TreeLowering::selectNodes(Builder &b, func::FuncOp report,
                                const TreeParts &tree, Value query,
                                Value keyWeight, Value keyBias, Value gamma,
                                Value beta, Value voteMask,
                                ArrayRef<int64_t> budgets, int64_t heads,
                                float scale,
                                RankedTensorType resultType) const {
  int64_t batch = type.getBatch();
  Type i64 = b.getI64Type();
  auto i64Tensor = [&](ArrayRef<int64_t> shape) {
    return RankedTensorType::get(shape, i64);
  };
  // J holds the kept nodes level by level: level l starts at base[l].
  SmallVector<int64_t> kept = type.getSelectedNodesPerLevel(budgets);
  SmallVector<int64_t> base{0};
  for (int64_t l = 0; l < levels(); ++l)
    base.push_back(base.back() + kept[l]);

  Value result = tensor::EmptyOp::create(b, resultType.getShape(), i64);
  Value candidates =
      parallelTensor(b, i64Tensor({batch, 1}),
                     [&](Builder &nb, ValueRange) { return cI64(nb, 0); });
  int64_t m = 1;
  for (int64_t j = levels(); j >= 1 && m > 0; --j) {
    int64_t h = budgets[j - 1], fanout = type.getFanouts()[j - 1];
    int64_t next = fanout * h;
    Value split;
    if (h > 0 && h < m)
      split = splitFlags(b, report, tree, candidates, j, m, h, query, keyWeight,
                         keyBias, gamma, beta, voteMask, heads, scale);
    std::tie(result, candidates) =
        scanLevel(b, candidates, split, result, j, m, h, base[j]);
    m = next;
  }
  // Tokens are never split: the level-0 candidates are J's first nodes.
  if (m > 0 && parallelScans) {
    SmallVector<OpFoldResult> zeros{b.getIndexAttr(0), b.getIndexAttr(0)};
    SmallVector<OpFoldResult> sizes{b.getIndexAttr(batch), b.getIndexAttr(m)};
    SmallVector<OpFoldResult> ones{b.getIndexAttr(1), b.getIndexAttr(1)};
    result = tensor::InsertSliceOp::create(b, candidates, result, zeros, sizes,
                                           ones);
  } else if (m > 0) {
    Value tokens = candidates;
    result =
        forLoop(b, batch, result,
                [&](Builder &bb, Value bi, ValueRange batchArgs) {
                  return forLoop(bb, m, batchArgs,
                                 [&](Builder &xb, Value x, ValueRange acc) {
                                   Value index = extract(xb, tokens, {bi, x});
                                   return SmallVector<Value>{
                                       insert(xb, index, acc[0], {bi, x})};
                                 });
                })
            .front();
  }
  return result;
}

/// scanLevel for the GPU: the same J columns and children, with no loop
/// over the candidates. The scan splits candidate x when it is flagged and
/// budget is left, or when the candidates kept so far fill the level's
/// m - h kept columns; so the splits before x are
///   s(x) = x - min(x - min(F(x), h), m - h),
/// F(x) the flagged candidates before x (a chunk's count before it, then a
/// loop over at most 64 flags). s and the kept count x - s(x) do not
/// decrease, so child row r of the next level belongs to the last x with
/// s(x) <= r / f, and kept column p to the last x with x - s(x) <= p
/// (bisection). Exactly h splits whatever the flags, as in the scan.
std::pair<Value, Value>
TreeLowering::scanLevelParallel(Builder &b, Value candidates, Value split,
                                Value result, int64_t j, int64_t m, int64_t h,
                                int64_t base) const {
  int64_t batch = type.getBatch();
  Type i64 = b.getI64Type();
  int64_t fanout = type.getFanouts()[j - 1];
  int64_t next = fanout * h, keep = m - h;
  auto flagAt = [&](Builder &nb, Value bi, Value x) -> Value {
    return select(nb, extract(nb, split, {bi, x}), cIndex(nb, 1),
                  cIndex(nb, 0));
  };
  // The flagged candidates of each chunk and before it.
  ChunkCounts flags;
  if (split)
    flags = ChunkCounts::build(b, batch, m, flagAt);
  // s(x): the candidates split before candidate x (0 <= x < m).
  auto splitsBefore = [&](Builder &nb, Value bi, Value x) -> Value {
    if (h == 0)
      return cIndex(nb, 0);
    if (h == m)
      return x;
    Value flagged = flags.countBefore(nb, bi, x, flagAt);
    Value first = arith::MinSIOp::create(nb, flagged, cIndex(nb, h));
    Value kept = arith::MinSIOp::create(nb, arith::SubIOp::create(nb, x, first),
                                        cIndex(nb, keep));
    return arith::SubIOp::create(nb, x, kept);
  };
  auto atMost = [](Builder &nb, Value a, Value limit) -> Value {
    return arith::CmpIOp::create(nb, arith::CmpIPredicate::ule, a, limit);
  };
  // J columns [base, base + keep): the kept candidates' global ids.
  if (keep > 0) {
    Value kept = parallelTensor(
        b, RankedTensorType::get({batch, keep}, i64),
        [&](Builder &nb, ValueRange i) {
          Value x = lastTrue(nb, m, [&](Builder &lb, Value mid) -> Value {
            Value keptBefore =
                arith::SubIOp::create(lb, mid, splitsBefore(lb, i[0], mid));
            return atMost(lb, keptBefore, i[1]);
          });
          return arith::AddIOp::create(nb, extract(nb, candidates, {i[0], x}),
                                       cI64(nb, type.getNodeOffset(j)));
        });
    SmallVector<OpFoldResult> offsets{b.getIndexAttr(0), b.getIndexAttr(base)};
    SmallVector<OpFoldResult> sizes{b.getIndexAttr(batch),
                                    b.getIndexAttr(keep)};
    SmallVector<OpFoldResult> strides{b.getIndexAttr(1), b.getIndexAttr(1)};
    result =
        tensor::InsertSliceOp::create(b, kept, result, offsets, sizes, strides);
  }
  // The next level's candidates: the f children of each split candidate.
  Value children;
  if (next > 0)
    children = parallelTensor(
        b, RankedTensorType::get({batch, next}, i64),
        [&](Builder &nb, ValueRange i) {
          Value nth = arith::DivUIOp::create(nb, i[1], cIndex(nb, fanout));
          Value child = arith::RemUIOp::create(nb, i[1], cIndex(nb, fanout));
          Value x = lastTrue(nb, m, [&](Builder &lb, Value mid) -> Value {
            return atMost(lb, splitsBefore(lb, i[0], mid), nth);
          });
          Value first = arith::MulIOp::create(
              nb, extract(nb, candidates, {i[0], x}), cI64(nb, fanout));
          return arith::AddIOp::create(
              nb, first, arith::IndexCastOp::create(nb, i64, child));
        });
  return {result, children};
}

/// One level of Algorithm 1's scan: per sequence, over the m candidates in
/// order, the split ones' children go to the next level's candidates
/// (returned, null when the level splits nothing) and the kept ones' global
/// ids to J at columns base + position (the result).
std::pair<Value, Value> TreeLowering::scanLevel(Builder &b, Value candidates,
                                                Value split, Value result,
                                                int64_t j, int64_t m, int64_t h,
                                                int64_t base) const {
  if (parallelScans)
    return scanLevelParallel(b, candidates, split, result, j, m, h, base);
  int64_t batch = type.getBatch();
  Type i64 = b.getI64Type();
  int64_t fanout = type.getFanouts()[j - 1];
  int64_t next = fanout * h;
  Value children;
  if (next > 0)
    children = tensor::EmptyOp::create(b, ArrayRef<int64_t>{batch, next}, i64);
  Value levelCandidates = candidates;
  // The f children of candidate `index`, at rows [first, first + f).
  auto splitNode = [&](Builder &nb, Value bi, Value index, Value splitBefore,
                       Value dest) {
    Value first = arith::MulIOp::create(nb, splitBefore, cIndex(nb, fanout));
    Value firstChild = arith::MulIOp::create(nb, index, cI64(nb, fanout));
    return forLoop(nb, fanout, dest,
                   [&](Builder &cb, Value c, ValueRange acc) {
                     Value child = arith::AddIOp::create(
                         cb, firstChild,
                         arith::IndexCastOp::create(cb, i64, c));
                     Value row = arith::AddIOp::create(cb, first, c);
                     return SmallVector<Value>{
                         insert(cb, child, acc[0], {bi, row})};
                   })
        .front();
  };
  // Candidate `index` kept: global id at J column base + position.
  auto keepNode = [&](Builder &nb, Value bi, Value index, Value position,
                      Value dest) {
    Value id =
        arith::AddIOp::create(nb, index, cI64(nb, type.getNodeOffset(j)));
    Value column = arith::AddIOp::create(nb, position, cIndex(nb, base));
    return insert(nb, id, dest, {bi, column});
  };
  SmallVector<Value> inits{result};
  if (children)
    inits.push_back(children);
  SmallVector<Value> done = forLoop(
      b, batch, inits, [&](Builder &bb, Value bi, ValueRange batchArgs) {
        SmallVector<Value> scanInits(batchArgs);
        scanInits.push_back(cIndex(bb, 0)); // candidates split so far
        SmallVector<Value> scanned = forLoop(
            bb, m, scanInits, [&](Builder &xb, Value x, ValueRange args) {
              Value index = extract(xb, levelCandidates, {bi, x});
              Value dest = args[0], splitBefore = args.back();
              if (h == 0) // nothing split: every candidate is kept
                return SmallVector<Value>{keepNode(xb, bi, index, x, dest),
                                          splitBefore};
              Value one = cIndex(xb, 1);
              if (h == m) // every candidate split
                return SmallVector<Value>{
                    dest, splitNode(xb, bi, index, x, args[1]),
                    arith::AddIOp::create(xb, splitBefore, one)};
              // Exactly h splits whatever the flags say (NaN scores
              // would flag too many): a flagged candidate only while
              // budget is left, and every remaining one once the
              // remaining budget needs them all. So every row of the
              // children and every column of J is written once, in
              // bounds.
              Value budgetLeft = arith::CmpIOp::create(
                  xb, arith::CmpIPredicate::ult, splitBefore, cIndex(xb, h));
              Value needed = arith::CmpIOp::create(
                  xb, arith::CmpIPredicate::uge,
                  arith::AddIOp::create(xb, x, cIndex(xb, h)),
                  arith::AddIOp::create(xb, splitBefore, cIndex(xb, m)));
              Value isSplit = arith::OrIOp::create(
                  xb,
                  arith::AndIOp::create(xb, extract(xb, split, {bi, x}),
                                        budgetLeft),
                  needed);
              return ifElse(
                  xb, isSplit, args.getTypes(),
                  [&](Builder &tb) -> SmallVector<Value> {
                    return {dest,
                            splitNode(tb, bi, index, splitBefore, args[1]),
                            arith::AddIOp::create(tb, splitBefore, one)};
                  },
                  [&](Builder &eb) -> SmallVector<Value> {
                    Value position = arith::SubIOp::create(eb, x, splitBefore);
                    return {keepNode(eb, bi, index, position, dest), args[1],
                            splitBefore};
                  });
            });
        scanned.pop_back();
        return scanned;
      });
  return {done[0], next > 0 ? done[1] : Value()};
}

/// split[b, x] (i1): candidate x (of `candidates` [B, m], level `level`)
/// is among the h best of its sequence (see selectNodes): the candidates'
/// means, their keys, the P rows' votes, the top h.
Value TreeLowering::splitFlags(Builder &b, func::FuncOp report,
                               const TreeParts &tree, Value candidates,
                               int64_t level, int64_t m, int64_t h, Value query,
                               Value keyWeight, Value keyBias, Value gamma,
                               Value beta, Value voteMask, int64_t heads,
                               float scale) const {
  // Candidates without valid tokens take no part in the softmax.
  Value valid = parallelTensor(
      b, RankedTensorType::get({type.getBatch(), m}, b.getI1Type()),
      [&](Builder &nb, ValueRange i) {
        Value node = arith::IndexCastOp::create(nb, nb.getIndexType(),
                                                extract(nb, candidates, i));
        return positive(nb, extract(nb, tree.counts[level], {i[0], node}));
      });
  Value means = candidateMeans(b, tree, candidates, valid, level, m);
  Value keys = candidateKeys(b, means, keyWeight, gamma, beta, m);
  Value scores = votedScores(b, report, level, keys, keyBias, query, voteMask,
                             valid, m, heads, scale);
  return topFlags(b, scores, m, h);
}

/// [B, m, d]: the means of the level-`level` nodes `candidates`, the root
/// minus the deltas on the path; 0 when empty.
Value TreeLowering::candidateMeans(Builder &b, const TreeParts &tree,
                                   Value candidates, Value valid, int64_t level,
                                   int64_t m) const {
  return parallelTensor(
      b, f32Tensor(b, {type.getBatch(), m, type.getDim()}),
      [&](Builder &nb, ValueRange i) {
        Value node = arith::IndexCastOp::create(
            nb, nb.getIndexType(), extract(nb, candidates, {i[0], i[1]}));
        Value first = arith::MulIOp::create(
            nb, node, cIndex(nb, type.getNodeSize(level)));
        Value value = extract(nb, tree.root, {i[0], i[2]});
        for (int64_t l = levels() - 1; l >= level; --l)
          value = arith::SubFOp::create(
              nb, value,
              extract(nb, tree.deltas[l], {i[0], nodeAt(nb, first, l), i[2]}));
        return select(nb, extract(nb, valid, {i[0], i[1]}), value,
                      cF32(nb, 0.0));
      });
}

/// [B, m, d]: LN(means) * gamma + beta (biased variance, eps 1e-5) times
/// key_weight [d_in, d_out], as one linalg.matmul on [B*m, d] (a BLAS
/// call under attic-linalg-to-blas, loops otherwise). key_bias is added
/// with the logits.
Value TreeLowering::candidateKeys(Builder &b, Value means, Value keyWeight,
                                  Value gamma, Value beta, int64_t m) const {
  int64_t batch = type.getBatch(), dim = type.getDim();
  Value invDim = cF32(b, 1.0 / double(dim));
  Value mu = parallelTensor(
      b, f32Tensor(b, {batch, m}), [&](Builder &nb, ValueRange i) {
        Value sum = sumOver(nb, dim, [&](Builder &lb, Value e) {
          return extract(lb, means, {i[0], i[1], e});
        });
        return arith::MulFOp::create(nb, sum, invDim);
      });
  Value rstd = parallelTensor(
      b, f32Tensor(b, {batch, m}), [&](Builder &nb, ValueRange i) {
        Value center = extract(nb, mu, i);
        Value sum = sumOver(nb, dim, [&](Builder &lb, Value e) {
          Value diff = arith::SubFOp::create(
              lb, extract(lb, means, {i[0], i[1], e}), center);
          return arith::MulFOp::create(lb, diff, diff);
        });
        Value variance = arith::AddFOp::create(
            nb, arith::MulFOp::create(nb, sum, invDim), cF32(nb, 1e-5));
        return arith::DivFOp::create(nb, cF32(nb, 1.0),
                                     math::SqrtOp::create(nb, variance));
      });
  Value normed = parallelTensor(
      b, f32Tensor(b, {batch, m, dim}), [&](Builder &nb, ValueRange i) {
        Value diff = arith::SubFOp::create(nb, extract(nb, means, i),
                                           extract(nb, mu, {i[0], i[1]}));
        Value scaled =
            arith::MulFOp::create(nb, diff, extract(nb, rstd, {i[0], i[1]}));
        return arith::AddFOp::create(
            nb, arith::MulFOp::create(nb, scaled, extract(nb, gamma, i[2])),
            extract(nb, beta, i[2]));
      });
  SmallVector<ReassociationIndices> rowsThenDim{{0, 1}, {2}};
  Value flat = tensor::CollapseShapeOp::create(b, normed, rowsThenDim);
  Value zero = linalg::FillOp::create(
                   b, ValueRange{cF32(b, 0.0)},
                   ValueRange{tensor::EmptyOp::create(
                       b, ArrayRef<int64_t>{batch * m, dim}, b.getF32Type())})
                   .getResult(0);
  Value product =
      linalg::MatmulOp::create(b, ValueRange{flat, keyWeight}, ValueRange{zero})
          .getResult(0);
  return tensor::ExpandShapeOp::create(b, f32Tensor(b, {batch, m, dim}),
                                       product, rowsThenDim);
}

/// [B, m]: section 3.6's scores, the mean over heads and P rows of each P
/// row's softmax over the candidates of scale * q . (key + key_bias);
/// the rows vote_mask leaves out add 0 (the mean still divides by n_p).
/// -inf for a candidate that is not `valid`.
///
/// A valid candidate's score is NaN where its logits overflowed f32 (scale
/// * q . key beyond 3.4e38 with both signs, or +inf: exp(inf - inf)) or an
/// input is NaN: topFlags then splits exactly h candidates, but which ones
/// has no meaning, and J (integers) showed nothing; attic-run exited 0
/// with another selection than the reference's (a 2026-12-01 audit).
/// Each such candidate is reported (ATTIC_RT_VCC_SCORES: the sequence, the
/// level, the candidate), from the loop that computes the scores (a loop
/// of its own was one more GPU launch per scored level).
Value TreeLowering::votedScores(Builder &b, func::FuncOp report, int64_t level,
                                Value keys, Value keyBias, Value query,
                                Value voteMask, Value valid, int64_t m,
                                int64_t heads, float scale) const {
  int64_t batch = type.getBatch(), dim = type.getDim();
  int64_t numVip = cast<RankedTensorType>(query.getType()).getDimSize(2);
  int64_t headDim = dim / heads;
  Value negInf = cF32(b, -std::numeric_limits<double>::infinity());
  auto isValid = [&](Builder &nb, Value bi, Value x) {
    return extract(nb, valid, {bi, x});
  };
  Value logits = parallelTensor(
      b, f32Tensor(b, {batch, heads, numVip, m}),
      [&](Builder &nb, ValueRange i) {
        Value column = arith::MulIOp::create(nb, i[1], cIndex(nb, headDim));
        Value dot = sumOver(nb, headDim, [&](Builder &lb, Value e) {
          Value at = arith::AddIOp::create(lb, column, e);
          Value k =
              arith::AddFOp::create(lb, extract(lb, keys, {i[0], i[3], at}),
                                    extract(lb, keyBias, at));
          return arith::MulFOp::create(
              lb, extract(lb, query, {i[0], i[1], i[2], e}), k);
        });
        return select(nb, isValid(nb, i[0], i[3]),
                      arith::MulFOp::create(nb, dot, cF32(nb, scale)), negInf);
      });
  // Softmax over the candidates: max, then the sum of exponentials.
  auto expOf = [&](Builder &nb, ValueRange row, Value x, Value max) {
    Value logit = extract(nb, logits, {row[0], row[1], row[2], x});
    return math::ExpOp::create(nb, arith::SubFOp::create(nb, logit, max));
  };
  Value maxima = parallelTensor(
      b, f32Tensor(b, {batch, heads, numVip}), [&](Builder &nb, ValueRange i) {
        return forLoop(
                   nb, m, negInf,
                   [&](Builder &lb, Value x, ValueRange acc) {
                     Value logit = extract(lb, logits, {i[0], i[1], i[2], x});
                     return SmallVector<Value>{
                         arith::MaximumFOp::create(lb, acc[0], logit)};
                   })
            .front();
      });
  Value sums = parallelTensor(
      b, f32Tensor(b, {batch, heads, numVip}), [&](Builder &nb, ValueRange i) {
        Value max = extract(nb, maxima, i);
        return sumOver(nb, m, [&](Builder &lb, Value x) {
          return select(lb, isValid(lb, i[0], x), expOf(lb, i, x, max),
                        cF32(lb, 0.0));
        });
      });
  return parallelTensor(
      b, f32Tensor(b, {batch, m}), [&](Builder &nb, ValueRange i) {
        Value total = sumOver(nb, heads, [&](Builder &hb, Value e) {
          return sumOver(hb, numVip, [&](Builder &pb, Value p) {
            SmallVector<Value> row{i[0], e, p};
            Value max = extract(pb, maxima, row);
            Value prob = arith::DivFOp::create(pb, expOf(pb, row, i[1], max),
                                               extract(pb, sums, row));
            if (!voteMask)
              return prob;
            return select(pb, extract(pb, voteMask, {i[0], p}), prob,
                          cF32(pb, 0.0));
          });
        });
        Value mean = arith::MulFOp::create(
            nb, total, cF32(nb, 1.0 / double(heads * numVip)));
        Value isValidHere = isValid(nb, i[0], i[1]);
        Value nan =
            arith::CmpFOp::create(nb, arith::CmpFPredicate::UNO, mean, mean);
        emitReportErrorIf(nb, nb.getLoc(), report,
                          arith::AndIOp::create(nb, nan, isValidHere),
                          ATTIC_RT_VCC_SCORES, i[0], cIndex(nb, level), i[1]);
        return select(nb, isValidHere, mean, negInf);
      });
}

/// sum over i in [0, upper) of term(i), as an f32 loop.
Value TreeLowering::sumOver(Builder &b, int64_t upper,
                            llvm::function_ref<Value(Builder &, Value)> term) {
  return forLoop(b, upper, cF32(b, 0.0),
                 [&](Builder &lb, Value i, ValueRange acc) {
                   return SmallVector<Value>{
                       arith::AddFOp::create(lb, acc[0], term(lb, i))};
                 })
      .front();
}

/// split[b, x] (i1): whether scores[b, x] ([B, m] f32) ranks among the
/// h best of its sequence, where x ranks before y when its score is
/// higher, or the same with a lower index (-inf ties too): exactly the
/// candidates with fewer than h others ranked before them. O(32 m) per
/// sequence instead of comparing every pair:
///   1. keys: each score as an unsigned 32-bit key in the same order
///      (flip the sign bit of a non-negative float, every bit of a
///      negative one);
///   2. the h-th largest key T, by a radix select: from the top bit
///      down, count the keys that extend the prefix found so far with a
///      1; if at least the still-needed number do, the bit of T is 1,
///      otherwise those keys rank before T and are subtracted;
///   3. one scan in index order flags the keys above T and the first
///      `need = h - #(keys above T)` keys equal to T.
Value TreeLowering::topFlags(Builder &b, Value scores, int64_t m,
                             int64_t h) const {
  int64_t batch = type.getBatch();
  Type i32 = b.getI32Type();
  auto countOf = [&](Builder &nb,
                     llvm::function_ref<Value(Builder &, Value)> predicate) {
    return forLoop(nb, m, cIndex(nb, 0),
                   [&](Builder &lb, Value x, ValueRange acc) {
                     Value step = arith::SelectOp::create(
                         lb, predicate(lb, x), cIndex(lb, 1), cIndex(lb, 0));
                     return SmallVector<Value>{
                         arith::AddIOp::create(lb, acc[0], step)};
                   })
        .front();
  };
  Value keys = parallelTensor(b, RankedTensorType::get({batch, m}, i32),
                              [&](Builder &nb, ValueRange i) {
                                return orderKey(nb, extract(nb, scores, i));
                              });
  if (parallelScans && m <= kPairwiseRankLimit) {
    // Small levels on the GPU: no select at all. Candidate x is flagged when
    // fewer than h candidates come before it in the order (key descending,
    // index ascending), which is what the select and the scan below
    // compute: a thread per candidate and a loop over its sequence's m
    // keys, m dependent steps instead of 32 m in one thread per sequence.
    return parallelTensor(
        b, RankedTensorType::get({batch, m}, b.getI1Type()),
        [&](Builder &nb, ValueRange i) {
          Value key = extract(nb, keys, i);
          Value rank = countOf(nb, [&](Builder &cb, Value y) {
            Value other = extract(cb, keys, {i[0], y});
            Value higher = arith::CmpIOp::create(cb, arith::CmpIPredicate::ugt,
                                                 other, key);
            Value tiedBefore = arith::AndIOp::create(
                cb,
                arith::CmpIOp::create(cb, arith::CmpIPredicate::eq, other, key),
                arith::CmpIOp::create(cb, arith::CmpIPredicate::ult, y, i[1]));
            return arith::OrIOp::create(cb, higher, tiedBefore);
          });
          return arith::CmpIOp::create(nb, arith::CmpIPredicate::ult, rank,
                                       cIndex(nb, h));
        });
  }
  // The h-th largest key T of each sequence: 8 bits at a time in parallel
  // kernels on the GPU, bit by bit in a thread per sequence otherwise.
  Value thresholds;
  if (parallelScans)
    thresholds = radixSelect(b, keys, h);
  else
    thresholds = parallelTensor(
        b, RankedTensorType::get({batch}, i32), [&](Builder &nb, ValueRange i) {
          SmallVector<Value> init{cI32(nb, 0), cI32(nb, 0), cIndex(nb, h)};
          return forLoop(nb, 32, init,
                         [&](Builder &lb, Value step, ValueRange state) {
                           Value shift = arith::SubIOp::create(
                               lb, cI32(lb, 31),
                               arith::IndexCastOp::create(lb, i32, step));
                           Value bit =
                               arith::ShLIOp::create(lb, cI32(lb, 1), shift);
                           Value prefix =
                               arith::OrIOp::create(lb, state[0], bit);
                           Value mask = arith::OrIOp::create(lb, state[1], bit);
                           Value count = countOf(lb, [&](Builder &cb, Value x) {
                             Value key = extract(cb, keys, {i[0], x});
                             return arith::CmpIOp::create(
                                 cb, arith::CmpIPredicate::eq,
                                 arith::AndIOp::create(cb, key, mask), prefix);
                           });
                           Value enough = arith::CmpIOp::create(
                               lb, arith::CmpIPredicate::uge, count, state[2]);
                           return SmallVector<Value>{
                               arith::SelectOp::create(lb, enough, prefix,
                                                       state[0]),
                               mask,
                               arith::SelectOp::create(
                                   lb, enough, state[2],
                                   arith::SubIOp::create(lb, state[2], count))};
                         })
              .front();
        });
  if (parallelScans)
    return topFlagsAt(b, keys, thresholds, h);
  Value flags =
      tensor::EmptyOp::create(b, ArrayRef<int64_t>{batch, m}, b.getI1Type());
  return forLoop(b, batch, flags,
                 [&](Builder &bb, Value bi, ValueRange batchArgs) {
                   Value threshold = extract(bb, thresholds, {bi});
                   Value above = countOf(bb, [&](Builder &cb, Value x) {
                     return arith::CmpIOp::create(cb, arith::CmpIPredicate::ugt,
                                                  extract(cb, keys, {bi, x}),
                                                  threshold);
                   });
                   Value need = arith::SubIOp::create(bb, cIndex(bb, h), above);
                   SmallVector<Value> init{batchArgs[0], cIndex(bb, 0)};
                   SmallVector<Value> scanned = forLoop(
                       bb, m, init, [&](Builder &xb, Value x, ValueRange args) {
                         Value key = extract(xb, keys, {bi, x});
                         Value higher = arith::CmpIOp::create(
                             xb, arith::CmpIPredicate::ugt, key, threshold);
                         Value same = arith::CmpIOp::create(
                             xb, arith::CmpIPredicate::eq, key, threshold);
                         Value early = arith::CmpIOp::create(
                             xb, arith::CmpIPredicate::ult, args[1], need);
                         Value flag = arith::OrIOp::create(
                             xb, higher,
                             arith::AndIOp::create(xb, same, early));
                         Value seen = arith::AddIOp::create(
                             xb, args[1],
                             arith::SelectOp::create(xb, same, cIndex(xb, 1),
                                                     cIndex(xb, 0)));
                         return SmallVector<Value>{
                             insert(xb, flag, args[0], {bi, x}), seen};
                       });
                   return SmallVector<Value>{scanned[0]};
                 })
      .front();
}
