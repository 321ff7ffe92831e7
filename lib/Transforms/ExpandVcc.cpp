//===- ExpandVcc.cpp - VCC ops into upstream ops on tensors -----*- C++ -*-===//
//
// Rewrites the VIP-token-centric compression ops (docs/vcc.md) into upstream
// ops on tensors (tensor.generate, tensor.empty/extract/insert, scf.for with
// tensor iter_args, scf.if, arith, math), before bufferization.
//
// A value of !attic.tree type is replaced by its component tensors (a 1:N
// replacement, done with a walk over each function in program order and a
// map from tree values to components):
//
//   root        [B, d]          f32  mean of the root
//   deltas[j]   [B, N_j, d]     f32  parent mean - node mean, j < L
//   counts[j]   [B, N_j]        f32  valid tokens of the node, j <= L
//   valid       [B, n_c]        i1   token validity
//
// with N_j = n_c / s_j nodes at level j. Node ids in index tensors (J) are
// global ids; they are decoded into (level, first token t0 = index * s_level)
// after clamping to [0, number of nodes), so that no id, not even one of a J
// that is not a partition, makes the compiled code read or write out of
// bounds. The ancestor of that node at level l >= level is t0 / s_l.
//
// Tree components and other scratch that is read many times are built with
// linalg.generic ops that have no inputs (each element from linalg.index;
// parallel loops after bufferization), not tensor.generate: upstream
// canonicalization folds tensor.extract of a tensor.generate by inlining the
// producer's body at the read, which would recompute whole subtrees at every
// read of a component. Results of the ops
// (compressed rows, key bias, gathered rows, materialized tokens) are
// tensor.generate, which bufferizes to linalg.map (parallel loops after
// bufferization). tree_select's intermediates (means, keys, logits,
// scores, ranks) are read many times, so they are linalg.generic ops with
// no inputs (parallel loops after bufferization, never inlined into their
// readers), the key projection is a linalg.matmul, and its J is written by
// a scan over the candidates.
//
//===----------------------------------------------------------------------===//

#include "attic/Dialect/Attic/AtticDialect.h"
#include "attic/Transforms/Passes.h"
#include "attic/Transforms/RuntimeCalls.h"

#include "TensorBuilders.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"

#include <cassert>
#include <cmath>
#include <functional>
#include <limits>

namespace attic {
#define GEN_PASS_DEF_ATTICEXPANDVCC
#include "AtticPasses.h.inc"
} // namespace attic

using namespace mlir;
using namespace attic;

namespace {
//===----------------------------------------------------------------------===//
// Building blocks
//===----------------------------------------------------------------------===//

using namespace attic::detail;
using Builder = attic::detail::Builder;

//===----------------------------------------------------------------------===//
// Tree components
//===----------------------------------------------------------------------===//

/// The component tensors of one tree value. As a flat list (the value of the
/// tree map): root, deltas[0..L), counts[0..L], valid.
struct TreeParts {
  Value root;
  SmallVector<Value> deltas, counts;
  Value valid;

  SmallVector<Value> flatten() const {
    SmallVector<Value> flat{root};
    flat.append(deltas.begin(), deltas.end());
    flat.append(counts.begin(), counts.end());
    flat.push_back(valid);
    return flat;
  }
  static TreeParts unflatten(TreeType type, ArrayRef<Value> flat) {
    int64_t levels = type.getLevels();
    assert(static_cast<int64_t>(flat.size()) == 2 * levels + 3);
    TreeParts parts;
    parts.root = flat.front();
    parts.deltas.assign(flat.begin() + 1, flat.begin() + 1 + levels);
    parts.counts.assign(flat.begin() + 1 + levels,
                        flat.begin() + 2 + 2 * levels);
    parts.valid = flat.back();
    return parts;
  }
};

/// A node of the tree decoded from a global id: its level and its first
/// token t0 (both index). Its ancestor at level l >= level is t0 / s_l.
struct NodeRef {
  Value level, firstToken;
};

/// Lowers the ops of one tree type: sizes and the index arithmetic of node
/// ids are static per type.
class TreeLowering {
public:
  explicit TreeLowering(TreeType type) : type(type) {}

  int64_t levels() const { return type.getLevels(); }

  /// Decodes global id `id` (i64), clamped to [0, number of nodes).
  NodeRef decode(Builder &b, Value id) const {
    Value g = clampIndex(b, id, type.getNumNodes());
    Value level = cIndex(b, 0), offset = cIndex(b, 0), size = cIndex(b, 1);
    for (int64_t l = 1; l <= levels(); ++l) {
      Value above = arith::CmpIOp::create(b, arith::CmpIPredicate::uge, g,
                                          cIndex(b, type.getNodeOffset(l)));
      level = select(b, above, cIndex(b, l), level);
      offset = select(b, above, cIndex(b, type.getNodeOffset(l)), offset);
      size = select(b, above, cIndex(b, type.getNodeSize(l)), size);
    }
    Value index = arith::SubIOp::create(b, g, offset);
    return {level, arith::MulIOp::create(b, index, size)};
  }

  /// Index within level `l` of the level-l node that holds token t0.
  Value nodeAt(Builder &b, Value firstToken, int64_t l) const {
    if (l == 0)
      return firstToken;
    if (l == levels())
      return cIndex(b, 0);
    return arith::DivUIOp::create(b, firstToken,
                                  cIndex(b, type.getNodeSize(l)));
  }

  Value levelIs(Builder &b, Value level, int64_t l,
                arith::CmpIPredicate predicate) const {
    return arith::CmpIOp::create(b, predicate, level, cIndex(b, l));
  }

  /// The valid-token count (f32) of `node` in sequence `batch`.
  Value count(Builder &b, const TreeParts &tree, Value batch,
              const NodeRef &node) const {
    Value result = cF32(b, 0.0);
    for (int64_t l = 0; l <= levels(); ++l) {
      Value value =
          extract(b, tree.counts[l], {batch, nodeAt(b, node.firstToken, l)});
      result = select(b, levelIs(b, node.level, l, arith::CmpIPredicate::eq),
                      value, result);
    }
    return result;
  }

  /// Feature `e` of the mean of `node` (eq 16/63): the root minus the deltas
  /// on the path down; 0 for a node without valid tokens.
  Value mean(Builder &b, const TreeParts &tree, Value batch,
             const NodeRef &node, Value e) const {
    Value value = extract(b, tree.root, {batch, e});
    for (int64_t l = levels() - 1; l >= 0; --l) {
      Value delta =
          extract(b, tree.deltas[l], {batch, nodeAt(b, node.firstToken, l), e});
      Value onPath = levelIs(b, node.level, l, arith::CmpIPredicate::ule);
      value = select(b, onPath, arith::SubFOp::create(b, value, delta), value);
    }
    return select(b, positive(b, count(b, tree, batch, node)), value,
                  cF32(b, 0.0));
  }

  //===--------------------------------------------------------------------===//
  // tree_build: counts and means bottom-up (count-weighted means of the
  // children), then deltas and the root. O(B n_c d).
  //===--------------------------------------------------------------------===//
  TreeParts build(Builder &b, Value tokens, Value valid) const {
    int64_t batch = type.getBatch(), dim = type.getDim();
    TreeParts tree;
    tree.valid = valid;
    SmallVector<Value> means;
    tree.counts.push_back(parallelTensor(b, f32Tensor(b, {batch, type.getRows()}),
                                      [&](Builder &nb, ValueRange i) {
                                        return select(nb, extract(nb, valid, i),
                                                      cF32(nb, 1.0),
                                                      cF32(nb, 0.0));
                                      }));
    means.push_back(parallelTensor(b, f32Tensor(b, {batch, type.getRows(), dim}),
                                [&](Builder &nb, ValueRange i) {
                                  return select(
                                      nb, extract(nb, valid, {i[0], i[1]}),
                                      extract(nb, tokens, i), cF32(nb, 0.0));
                                }));
    for (int64_t l = 0; l < levels(); ++l) {
      int64_t fanout = type.getFanouts()[l], nodes = type.getNodesAt(l + 1);
      Value childCounts = tree.counts[l], childMeans = means[l];
      // The index of child c of node x: x * fanout + c.
      auto child = [&](Builder &nb, Value x, Value c) -> Value {
        return arith::AddIOp::create(
            nb, arith::MulIOp::create(nb, x, cIndex(nb, fanout)), c);
      };
      Value counts = parallelTensor(
          b, f32Tensor(b, {batch, nodes}), [&](Builder &nb, ValueRange i) {
            return forLoop(nb, fanout, cF32(nb, 0.0),
                           [&](Builder &lb, Value c, ValueRange sum) {
                             Value n = extract(lb, childCounts,
                                               {i[0], child(lb, i[1], c)});
                             return SmallVector<Value>{
                                 arith::AddFOp::create(lb, sum[0], n)};
                           })
                .front();
          });
      tree.counts.push_back(counts);
      means.push_back(parallelTensor(
          b, f32Tensor(b, {batch, nodes, dim}), [&](Builder &nb, ValueRange i) {
            Value sum =
                forLoop(nb, fanout, cF32(nb, 0.0),
                        [&](Builder &lb, Value c, ValueRange acc) {
                          Value x = child(lb, i[1], c);
                          Value n = extract(lb, childCounts, {i[0], x});
                          Value m = extract(lb, childMeans, {i[0], x, i[2]});
                          Value weighted = arith::MulFOp::create(lb, n, m);
                          return SmallVector<Value>{
                              arith::AddFOp::create(lb, acc[0], weighted)};
                        })
                    .front();
            return meanOrZero(nb, sum, extract(nb, counts, {i[0], i[1]}));
          }));
    }
    for (int64_t l = 0; l < levels(); ++l) {
      int64_t fanout = type.getFanouts()[l];
      Value parents = means[l + 1], children = means[l];
      tree.deltas.push_back(parallelTensor(
          b, f32Tensor(b, {batch, type.getNodesAt(l), dim}),
          [&](Builder &nb, ValueRange i) {
            Value parent = arith::DivUIOp::create(nb, i[1], cIndex(nb, fanout));
            return arith::SubFOp::create(
                nb, extract(nb, parents, {i[0], parent, i[2]}),
                extract(nb, children, i));
          }));
    }
    Value top = means.back();
    tree.root = parallelTensor(
        b, f32Tensor(b, {batch, dim}), [&](Builder &nb, ValueRange i) {
          return extract(nb, top, {i[0], cIndex(nb, 0), i[1]});
        });
    return tree;
  }

  //===--------------------------------------------------------------------===//
  // tree_materialize: level by level from the root down (eq 66), invalid
  // tokens 0. O(B n_c d).
  //===--------------------------------------------------------------------===//
  Value materialize(Builder &b, const TreeParts &tree,
                    RankedTensorType resultType) const {
    int64_t batch = type.getBatch(), dim = type.getDim();
    Value parents = tree.root; // [B, d] at level L, then [B, N_l, d]
    for (int64_t l = levels() - 1; l >= 0; --l) {
      int64_t fanout = type.getFanouts()[l];
      bool fromRoot = l == levels() - 1;
      Value delta = tree.deltas[l], above = parents;
      auto element = [&](Builder &nb, ValueRange i) -> Value {
        Value parent =
            fromRoot
                ? extract(nb, above, {i[0], i[2]})
                : extract(nb, above,
                          {i[0],
                           arith::DivUIOp::create(nb, i[1], cIndex(nb, fanout)),
                           i[2]});
        Value value = arith::SubFOp::create(nb, parent, extract(nb, delta, i));
        if (l != 0)
          return value;
        return select(nb, extract(nb, tree.valid, {i[0], i[1]}), value,
                      cF32(nb, 0.0));
      };
      parents =
          l == 0
              ? generate(b, resultType, element)
              : parallelTensor(b, f32Tensor(b, {batch, type.getNodesAt(l), dim}),
                            element);
    }
    return parents;
  }

  //===--------------------------------------------------------------------===//
  // vcc_compress: [P; means of J] and the key bias. O(B r d L).
  //===--------------------------------------------------------------------===//
  std::pair<Value, Value> compress(Builder &b, const TreeParts &tree,
                                   Value vipRows, Value nodes,
                                   RankedTensorType compressedType,
                                   RankedTensorType biasType) const {
    int64_t numVip = cast<RankedTensorType>(vipRows.getType()).getDimSize(1);
    Type f32 = b.getF32Type();
    auto nodeOfRow = [&](Builder &nb, Value batch, Value row) {
      Value k = arith::SubIOp::create(nb, row, cIndex(nb, numVip));
      return decode(nb, extract(nb, nodes, {batch, k}));
    };
    auto isVipRow = [&](Builder &nb, Value row) -> Value {
      return arith::CmpIOp::create(nb, arith::CmpIPredicate::ult, row,
                                   cIndex(nb, numVip));
    };
    Value compressed =
        generate(b, compressedType, [&](Builder &nb, ValueRange i) {
          return ifElse(
                     nb, isVipRow(nb, i[1]), f32,
                     [&](Builder &tb) -> SmallVector<Value> {
                       return {extract(tb, vipRows, i)};
                     },
                     [&](Builder &eb) -> SmallVector<Value> {
                       NodeRef node = nodeOfRow(eb, i[0], i[1]);
                       return {mean(eb, tree, i[0], node, i[2])};
                     })
              .front();
        });
    Value bias = generate(b, biasType, [&](Builder &nb, ValueRange i) {
      return ifElse(
                 nb, isVipRow(nb, i[1]), f32,
                 [&](Builder &tb) -> SmallVector<Value> {
                   return {cF32(tb, 0.0)};
                 },
                 [&](Builder &eb) -> SmallVector<Value> {
                   NodeRef node = nodeOfRow(eb, i[0], i[1]);
                   // log(s_level), -inf for a node without valid tokens.
                   Value logSize = cF32(eb, 0.0);
                   for (int64_t l = 1; l <= levels(); ++l)
                     logSize = select(
                         eb,
                         levelIs(eb, node.level, l, arith::CmpIPredicate::eq),
                         cF32(eb, std::log(double(type.getNodeSize(l)))),
                         logSize);
                   Value empty =
                       cF32(eb, -std::numeric_limits<double>::infinity());
                   return {select(eb, positive(eb, count(eb, tree, i[0], node)),
                                  logSize, empty)};
                 })
          .front();
    });
    return {compressed, bias};
  }

  //===--------------------------------------------------------------------===//
  // tree_update (Algorithm 2). The new mean of a dirty node above J is the
  // count-weighted mean of its children's new means, which is the sum of
  // count * row over the J nodes below it divided by its count. Per sequence,
  // with scratch sums[l] [B, N_l, d] for the levels 0 < l < L (uninitialized:
  // only the entries of dirty nodes are written and read) and rootSum [B, d]:
  //
  //   1. for each J node, for each level l in (level, L): sums[l][anc] = 0
  //   2. for each J node with count c > 0, for each level l in (level, L]:
  //        sums[l][anc] += c * row          (rootSum at l = L)
  //   3. root = root in J ? row : rootSum / count   (0 when the count is 0)
  //   4. for each J node, for each level l in [level, L): the delta of the
  //        level-l node on its path is (new mean of its parent) - (new mean
  //        of the node), with new means row (the J node, 0 when empty), sum /
  //        count (nodes above J) or the new root.
  //
  // Deltas strictly below J are untouched; counts and validity are kept.
  // O(B |J| d L).
  //===--------------------------------------------------------------------===//
  TreeParts update(Builder &b, const TreeParts &tree, Value nodes,
                   Value rows) const {
    int64_t batch = type.getBatch(), dim = type.getDim();
    int64_t selected = cast<RankedTensorType>(nodes.getType()).getDimSize(1);
    int64_t top = levels();
    auto ancestorIs = [&](Builder &nb, const NodeRef &node, int64_t l) {
      return levelIs(nb, node.level, l, arith::CmpIPredicate::ult);
    };

    // Scratch for the levels strictly between the tokens and the root.
    SmallVector<Value> sums;
    for (int64_t l = 1; l < top; ++l)
      sums.push_back(tensor::EmptyOp::create(
          b, ArrayRef<int64_t>{batch, type.getNodesAt(l), dim},
          b.getF32Type()));
    Value rootSum =
        parallelTensor(b, f32Tensor(b, {batch, dim}),
                    [&](Builder &nb, ValueRange) { return cF32(nb, 0.0); });

    // For each J node of each sequence: body(builder, batch, k, node, args).
    using NodeFn = llvm::function_ref<SmallVector<Value>(
        Builder &, Value, Value, const NodeRef &, ValueRange)>;
    auto forEachNode = [&](Builder &nb, ValueRange inits, NodeFn body) {
      return forLoop(
          nb, batch, inits, [&](Builder &bb, Value bi, ValueRange batchArgs) {
            return forLoop(
                bb, selected, batchArgs,
                [&](Builder &kb, Value k, ValueRange args) {
                  NodeRef node = decode(kb, extract(kb, nodes, {bi, k}));
                  return body(kb, bi, k, node, args);
                });
          });
    };
    // scf.if cond { for e: tensor = update(e) } else { tensor }.
    auto updateRowIf =
        [&](Builder &nb, Value cond, Value tensor,
            llvm::function_ref<Value(Builder &, Value, Value)> updateElement) {
          return ifElse(
                     nb, cond, tensor.getType(),
                     [&](Builder &tb) -> SmallVector<Value> {
                       return forLoop(
                           tb, dim, tensor,
                           [&](Builder &eb, Value e, ValueRange acc) {
                             return SmallVector<Value>{
                                 updateElement(eb, e, acc[0])};
                           });
                     },
                     [&](Builder &) -> SmallVector<Value> { return {tensor}; })
              .front();
        };

    // 1. Zero the sums of the dirty nodes above J (below the root).
    if (!sums.empty())
      sums = forEachNode(
          b, sums,
          [&](Builder &nb, Value bi, Value, const NodeRef &node,
              ValueRange args) {
            SmallVector<Value> next;
            for (int64_t l = 1; l < top; ++l) {
              Value anc = nodeAt(nb, node.firstToken, l);
              next.push_back(updateRowIf(
                  nb, ancestorIs(nb, node, l), args[l - 1],
                  [&](Builder &eb, Value e, Value acc) {
                    return insert(eb, cF32(eb, 0.0), acc, {bi, anc, e});
                  }));
            }
            return next;
          });

    // 2. Accumulate count * row into every ancestor of each J node.
    SmallVector<Value> accumulators(sums);
    accumulators.push_back(rootSum);
    accumulators = forEachNode(
        b, accumulators,
        [&](Builder &nb, Value bi, Value k, const NodeRef &node,
            ValueRange args) {
          Value c = count(nb, tree, bi, node);
          auto contribution = [&](Builder &eb, Value e) {
            Value row = extract(eb, rows, {bi, k, e});
            return select(eb, positive(eb, c),
                          arith::MulFOp::create(eb, c, row), cF32(eb, 0.0));
          };
          SmallVector<Value> next;
          for (int64_t l = 1; l <= top; ++l) {
            Value anc = nodeAt(nb, node.firstToken, l);
            next.push_back(updateRowIf(nb, ancestorIs(nb, node, l), args[l - 1],
                                       [&](Builder &eb, Value e, Value acc) {
                                         SmallVector<Value> at{bi, anc, e};
                                         if (l == top)
                                           at = {bi, e};
                                         Value sum = arith::AddFOp::create(
                                             eb, extract(eb, acc, at),
                                             contribution(eb, e));
                                         return insert(eb, sum, acc, at);
                                       }));
          }
          return next;
        });
    rootSum = accumulators.pop_back_val();
    sums = accumulators;

    // 3. The new root.
    TreeParts result = tree;
    result.root = parallelTensor(
        b, f32Tensor(b, {batch, dim}), [&](Builder &nb, ValueRange i) {
          NodeRef first = decode(nb, extract(nb, nodes, {i[0], cIndex(nb, 0)}));
          Value rootInJ =
              levelIs(nb, first.level, top, arith::CmpIPredicate::eq);
          Value fromRow = extract(nb, rows, {i[0], cIndex(nb, 0), i[1]});
          Value fromSum = arith::DivFOp::create(
              nb, extract(nb, rootSum, i),
              extract(nb, tree.counts[top], {i[0], cIndex(nb, 0)}));
          Value rootCount =
              extract(nb, tree.counts[top], {i[0], cIndex(nb, 0)});
          return select(nb, positive(nb, rootCount),
                        select(nb, rootInJ, fromRow, fromSum), cF32(nb, 0.0));
        });
    Value newRoot = result.root;

    // 4. Deltas of the J nodes and of the nodes above them.
    // New mean of the level-l node on the path of J node k (level <= l < L).
    auto newMean = [&](Builder &nb, Value bi, Value k, const NodeRef &node,
                       int64_t l, Value anc, Value e) -> Value {
      Value n = extract(nb, tree.counts[l], {bi, anc});
      auto ofRow = [&](Builder &rb) {
        return select(rb, positive(rb, n), extract(rb, rows, {bi, k, e}),
                      cF32(rb, 0.0));
      };
      if (l == 0)
        return ofRow(nb); // tokens are never above a J node
      return ifElse(
                 nb, levelIs(nb, node.level, l, arith::CmpIPredicate::eq),
                 nb.getF32Type(),
                 [&](Builder &tb) -> SmallVector<Value> { return {ofRow(tb)}; },
                 [&](Builder &eb) -> SmallVector<Value> {
                   Value sum = extract(eb, sums[l - 1], {bi, anc, e});
                   return {meanOrZero(eb, sum, n)};
                 })
          .front();
    };
    result.deltas = forEachNode(
        b, tree.deltas,
        [&](Builder &nb, Value bi, Value k, const NodeRef &node,
            ValueRange args) {
          SmallVector<Value> next;
          for (int64_t l = 0; l < top; ++l) {
            Value anc = nodeAt(nb, node.firstToken, l);
            Value parent = nodeAt(nb, node.firstToken, l + 1);
            Value onPath =
                levelIs(nb, node.level, l, arith::CmpIPredicate::ule);
            next.push_back(updateRowIf(
                nb, onPath, args[l], [&](Builder &eb, Value e, Value acc) {
                  Value parentMean;
                  if (l + 1 == top) {
                    parentMean = extract(eb, newRoot, {bi, e});
                  } else {
                    Value n = extract(eb, tree.counts[l + 1], {bi, parent});
                    parentMean = meanOrZero(
                        eb, extract(eb, sums[l], {bi, parent, e}), n);
                  }
                  Value delta = arith::SubFOp::create(
                      eb, parentMean, newMean(eb, bi, k, node, l, anc, e));
                  return insert(eb, delta, acc, {bi, anc, e});
                }));
          }
          return next;
        });
    return result;
  }

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
  Value selectNodes(Builder &b, const TreeParts &tree, Value query,
                    Value keyWeight, Value keyBias, Value gamma, Value beta,
                    Value voteMask, ArrayRef<int64_t> budgets, int64_t heads,
                    float scale, RankedTensorType resultType) const {
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
        split = splitFlags(b, tree, candidates, j, m, h, query, keyWeight,
                           keyBias, gamma, beta, voteMask, heads, scale);
      Value children;
      if (next > 0)
        children =
            tensor::EmptyOp::create(b, ArrayRef<int64_t>{batch, next}, i64);
      Value levelCandidates = candidates;
      // The f children of candidate `index`, at rows [first, first + f).
      auto splitNode = [&](Builder &nb, Value bi, Value index,
                           Value splitBefore, Value dest) {
        Value first =
            arith::MulIOp::create(nb, splitBefore, cIndex(nb, fanout));
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
      // Candidate `index` kept: global id at J column base[j] + position.
      auto keepNode = [&](Builder &nb, Value bi, Value index, Value position,
                          Value dest) {
        Value id =
            arith::AddIOp::create(nb, index, cI64(nb, type.getNodeOffset(j)));
        Value column = arith::AddIOp::create(nb, position, cIndex(nb, base[j]));
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
                  Value budgetLeft =
                      arith::CmpIOp::create(xb, arith::CmpIPredicate::ult,
                                            splitBefore, cIndex(xb, h));
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
                        Value position =
                            arith::SubIOp::create(eb, x, splitBefore);
                        return {keepNode(eb, bi, index, position, dest),
                                args[1], splitBefore};
                      });
                });
            scanned.pop_back();
            return scanned;
          });
      result = done[0];
      candidates = next > 0 ? done[1] : Value();
      m = next;
    }
    // Tokens are never split: the level-0 candidates are J's first nodes.
    if (m > 0) {
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

  /// split[b, x] (i1): candidate x (of `candidates` [B, m], level `level`)
  /// is among the h best of its sequence (see selectNodes): the candidates'
  /// means, their keys, the P rows' votes, the top h.
  Value splitFlags(Builder &b, const TreeParts &tree, Value candidates,
                   int64_t level, int64_t m, int64_t h, Value query,
                   Value keyWeight, Value keyBias, Value gamma, Value beta,
                   Value voteMask, int64_t heads, float scale) const {
    // Candidates without valid tokens take no part in the softmax.
    Value valid = parallelTensor(
        b, RankedTensorType::get({type.getBatch(), m}, b.getI1Type()),
        [&](Builder &nb, ValueRange i) {
          Value node = arith::IndexCastOp::create(
              nb, nb.getIndexType(), extract(nb, candidates, i));
          return positive(nb, extract(nb, tree.counts[level], {i[0], node}));
        });
    Value means = candidateMeans(b, tree, candidates, valid, level, m);
    Value keys = candidateKeys(b, means, keyWeight, gamma, beta, m);
    Value scores = votedScores(b, keys, keyBias, query, voteMask, valid, m,
                               heads, scale);
    return topFlags(b, scores, m, h);
  }

  /// [B, m, d]: the means of the level-`level` nodes `candidates`, the root
  /// minus the deltas on the path; 0 when empty.
  Value candidateMeans(Builder &b, const TreeParts &tree, Value candidates,
                       Value valid, int64_t level, int64_t m) const {
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
                extract(nb, tree.deltas[l],
                        {i[0], nodeAt(nb, first, l), i[2]}));
          return select(nb, extract(nb, valid, {i[0], i[1]}), value,
                        cF32(nb, 0.0));
        });
  }

  /// [B, m, d]: LN(means) * gamma + beta (biased variance, eps 1e-5) times
  /// key_weight [d_in, d_out], as one linalg.matmul on [B*m, d] (a BLAS
  /// call under attic-linalg-to-blas, loops otherwise). key_bias is added
  /// with the logits.
  Value candidateKeys(Builder &b, Value means, Value keyWeight, Value gamma,
                      Value beta, int64_t m) const {
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
          Value diff = arith::SubFOp::create(
              nb, extract(nb, means, i), extract(nb, mu, {i[0], i[1]}));
          Value scaled = arith::MulFOp::create(
              nb, diff, extract(nb, rstd, {i[0], i[1]}));
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
    Value product = linalg::MatmulOp::create(b, ValueRange{flat, keyWeight},
                                             ValueRange{zero})
                        .getResult(0);
    return tensor::ExpandShapeOp::create(b, f32Tensor(b, {batch, m, dim}),
                                         product, rowsThenDim);
  }

  /// [B, m]: section 3.6's scores, the mean over heads and P rows of each P
  /// row's softmax over the candidates of scale * q . (key + key_bias);
  /// the rows vote_mask leaves out add 0 (the mean still divides by n_p).
  /// -inf for a candidate that is not `valid`.
  Value votedScores(Builder &b, Value keys, Value keyBias, Value query,
                    Value voteMask, Value valid, int64_t m, int64_t heads,
                    float scale) const {
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
            Value k = arith::AddFOp::create(
                lb, extract(lb, keys, {i[0], i[3], at}),
                extract(lb, keyBias, at));
            return arith::MulFOp::create(
                lb, extract(lb, query, {i[0], i[1], i[2], e}), k);
          });
          return select(nb, isValid(nb, i[0], i[3]),
                        arith::MulFOp::create(nb, dot, cF32(nb, scale)),
                        negInf);
        });
    // Softmax over the candidates: max, then the sum of exponentials.
    auto expOf = [&](Builder &nb, ValueRange row, Value x, Value max) {
      Value logit = extract(nb, logits, {row[0], row[1], row[2], x});
      return math::ExpOp::create(nb, arith::SubFOp::create(nb, logit, max));
    };
    Value maxima = parallelTensor(
        b, f32Tensor(b, {batch, heads, numVip}),
        [&](Builder &nb, ValueRange i) {
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
        b, f32Tensor(b, {batch, heads, numVip}),
        [&](Builder &nb, ValueRange i) {
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
              Value prob = arith::DivFOp::create(
                  pb, expOf(pb, row, i[1], max), extract(pb, sums, row));
              if (!voteMask)
                return prob;
              return select(pb, extract(pb, voteMask, {i[0], p}), prob,
                            cF32(pb, 0.0));
            });
          });
          Value mean = arith::MulFOp::create(
              nb, total, cF32(nb, 1.0 / double(heads * numVip)));
          return select(nb, isValid(nb, i[0], i[1]), mean, negInf);
        });
  }

  /// sum over i in [0, upper) of term(i), as an f32 loop.
  static Value sumOver(Builder &b, int64_t upper,
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
  Value topFlags(Builder &b, Value scores, int64_t m, int64_t h) const {
    int64_t batch = type.getBatch();
    Type i32 = b.getI32Type();
    auto cI32 = [](Builder &nb, int64_t v) -> Value {
      return arith::ConstantOp::create(nb, nb.getI32IntegerAttr(v));
    };
    auto countOf = [&](Builder &nb, llvm::function_ref<Value(Builder &, Value)>
                                        predicate) {
      return forLoop(nb, m, cIndex(nb, 0),
                     [&](Builder &lb, Value x, ValueRange acc) {
                       Value step = arith::SelectOp::create(
                           lb, predicate(lb, x), cIndex(lb, 1), cIndex(lb, 0));
                       return SmallVector<Value>{
                           arith::AddIOp::create(lb, acc[0], step)};
                     })
          .front();
    };
    Value keys = parallelTensor(
        b, RankedTensorType::get({batch, m}, i32),
        [&](Builder &nb, ValueRange i) {
          Value bits = arith::BitcastOp::create(nb, i32, extract(nb, scores, i));
          Value negative = arith::CmpIOp::create(
              nb, arith::CmpIPredicate::slt, bits, cI32(nb, 0));
          return arith::SelectOp::create(
              nb, negative, arith::XOrIOp::create(nb, bits, cI32(nb, -1)),
              arith::XOrIOp::create(nb, bits, cI32(nb, INT32_MIN)));
        });
    Value thresholds = parallelTensor(
        b, RankedTensorType::get({batch}, i32), [&](Builder &nb, ValueRange i) {
          SmallVector<Value> init{cI32(nb, 0), cI32(nb, 0), cIndex(nb, h)};
          return forLoop(
                     nb, 32, init,
                     [&](Builder &lb, Value step, ValueRange state) {
                       Value shift = arith::SubIOp::create(
                           lb, cI32(lb, 31),
                           arith::IndexCastOp::create(lb, i32, step));
                       Value bit = arith::ShLIOp::create(lb, cI32(lb, 1), shift);
                       Value prefix = arith::OrIOp::create(lb, state[0], bit);
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
    Value flags = tensor::EmptyOp::create(b, ArrayRef<int64_t>{batch, m},
                                          b.getI1Type());
    return forLoop(
               b, batch, flags,
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
                           xb, higher, arith::AndIOp::create(xb, same, early));
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

private:
  TreeType type;
};

//===----------------------------------------------------------------------===//
// Ops without trees
//===----------------------------------------------------------------------===//

/// Stable partition, VIP tokens first: per sequence, count the VIP tokens V,
/// then token i goes to row (VIP tokens before it) if it is VIP, else to
/// V + (non-VIP tokens before it). More than num_vip VIP tokens: the excess
/// ones stay in C in their order, and the sequence is reported to the runtime
/// (attic_rt_report_error with ATTIC_RT_TOO_MANY_VIP = 1, the batch index,
/// the count and num_vip), which makes the run fail.
LogicalResult lowerVipOrder(VipOrderOp op) {
  FailureOr<func::FuncOp> report = declareReportError(op);
  if (failed(report))
    return failure();
  Builder b(op.getLoc(), op);
  int64_t numVip = op.getNumVip();
  RankedTensorType type = op.getPerm().getType();
  int64_t batch = type.getDimSize(0), length = type.getDimSize(1);
  Value vip = op.getVip();
  Value perm = tensor::EmptyOp::create(b, type.getShape(), b.getI64Type());
  Value inverse = tensor::EmptyOp::create(b, type.getShape(), b.getI64Type());
  auto asIndex = [](Builder &nb, Value flag) -> Value {
    return select(nb, flag, cIndex(nb, 1), cIndex(nb, 0));
  };
  SmallVector<Value> results = forLoop(
      b, batch, {perm, inverse}, [&](Builder &bb, Value bi, ValueRange args) {
        Value total = forLoop(bb, length, cIndex(bb, 0),
                              [&](Builder &lb, Value i, ValueRange acc) {
                                Value flag = extract(lb, vip, {bi, i});
                                return SmallVector<Value>{arith::AddIOp::create(
                                    lb, acc[0], asIndex(lb, flag))};
                              })
                          .front();
        Value tooMany = arith::CmpIOp::create(bb, arith::CmpIPredicate::ugt,
                                              total, cIndex(bb, numVip));
        scf::IfOp::create(bb, tooMany, [&](OpBuilder &nested, Location loc) {
          Builder tb(loc, nested);
          auto i64 = [&](Value index) -> Value {
            return arith::IndexCastOp::create(tb, tb.getI64Type(), index);
          };
          Value code = arith::ConstantOp::create(tb, tb.getI32IntegerAttr(1));
          func::CallOp::create(tb, *report,
                               ValueRange{code, i64(bi), i64(total),
                                          cI64(tb, numVip)});
          scf::YieldOp::create(tb);
        });
        SmallVector<Value> inits{args[0], args[1], cIndex(bb, 0)};
        SmallVector<Value> done = forLoop(
            bb, length, inits, [&](Builder &lb, Value i, ValueRange acc) {
              Value flag = extract(lb, vip, {bi, i});
              Value vipBefore = acc[2];
              Value otherRow = arith::SubIOp::create(
                  lb, arith::AddIOp::create(lb, total, i), vipBefore);
              Value row = select(lb, flag, vipBefore, otherRow);
              Type i64 = lb.getI64Type();
              Value nextPerm =
                  insert(lb, arith::IndexCastOp::create(lb, i64, i), acc[0],
                         {bi, row});
              Value nextInverse =
                  insert(lb, arith::IndexCastOp::create(lb, i64, row), acc[1],
                         {bi, i});
              Value nextCount =
                  arith::AddIOp::create(lb, vipBefore, asIndex(lb, flag));
              return SmallVector<Value>{nextPerm, nextInverse, nextCount};
            });
        return SmallVector<Value>{done[0], done[1]};
      });
  op.getPerm().replaceAllUsesWith(results[0]);
  op.getInverse().replaceAllUsesWith(results[1]);
  return success();
}

/// result[b, r(, e)] = x[b, clamp(indices[b, r])(, e)].
void lowerGatherRows(GatherRowsOp op) {
  Builder b(op.getLoc(), op);
  Value x = op.getX(), indices = op.getIndices();
  int64_t rows = op.getX().getType().getDimSize(1);
  Value result =
      generate(b, op.getResult().getType(), [&](Builder &nb, ValueRange i) {
        Value row = clampIndex(nb, extract(nb, indices, {i[0], i[1]}), rows);
        SmallVector<Value> at{i[0], row};
        if (i.size() == 3)
          at.push_back(i[2]);
        return extract(nb, x, at);
      });
  op.getResult().replaceAllUsesWith(result);
}

//===----------------------------------------------------------------------===//
// The walk over a function
//===----------------------------------------------------------------------===//

bool isTree(Type type) { return isa<TreeType>(type); }
bool hasTreeValue(Operation *op) {
  return llvm::any_of(op->getOperandTypes(), isTree) ||
         llvm::any_of(op->getResultTypes(), isTree);
}
bool isTreeOp(Operation *op) {
  return isa<TreeBuildOp, TreeSelectOp, VccCompressOp, TreeUpdateOp,
             TreeMaterializeOp>(op);
}

class FunctionExpander {
public:
  LogicalResult run(func::FuncOp func) {
    for (auto [index, type] : llvm::enumerate(func.getArgumentTypes()))
      if (isTree(type))
        return func.emitOpError()
               << "argument #" << index << " has type " << type
               << ": attic-expand-vcc replaces !attic.tree values only "
                  "inside a function body (build the tree there with "
                  "attic.tree_build)";
    for (auto [index, type] : llvm::enumerate(func.getResultTypes()))
      if (isTree(type))
        return func.emitOpError()
               << "result #" << index << " has type " << type
               << ": attic-expand-vcc replaces !attic.tree values only "
                  "inside a function body (return attic.tree_materialize's "
                  "tokens instead)";
    if (func.isExternal())
      return success();

    // Ops without trees are lowered wherever they are.
    SmallVector<Operation *> plain;
    func.walk([&](Operation *op) {
      if (isa<VipOrderOp, GatherRowsOp>(op))
        plain.push_back(op);
    });
    for (Operation *op : plain) {
      if (auto order = dyn_cast<VipOrderOp>(op)) {
        if (failed(lowerVipOrder(order)))
          return failure();
      } else {
        lowerGatherRows(cast<GatherRowsOp>(op));
      }
      op->erase();
    }

    for (Block &block : func.getBody()) {
      for (BlockArgument arg : block.getArguments())
        if (isTree(arg.getType()))
          return emitError(arg.getLoc())
                 << "block argument #" << arg.getArgNumber() << " has type "
                 << arg.getType()
                 << ": attic-expand-vcc does not replace !attic.tree block "
                    "arguments";
      for (Operation &op : block)
        if (failed(visit(&op)))
          return failure();
    }
    // Every use of a tree is one of the lowered ops: drop them, users first.
    for (Operation *op : llvm::reverse(lowered))
      op->dropAllUses();
    for (Operation *op : llvm::reverse(lowered))
      op->erase();
    return success();
  }

private:
  LogicalResult visit(Operation *op) {
    if (isTreeOp(op))
      return lower(op);
    if (hasTreeValue(op))
      return op->emitOpError()
             << "uses or defines an !attic.tree value: attic-expand-vcc "
                "replaces trees only where attic.tree_build, "
                "attic.tree_select, attic.vcc_compress, attic.tree_update "
                "and attic.tree_materialize use them";
    // Nested regions: no tree may appear there.
    WalkResult nested = op->walk([&](Operation *inner) {
      if (inner == op)
        return WalkResult::advance();
      bool treeArgs = llvm::any_of(inner->getRegions(), [](Region &region) {
        return llvm::any_of(region.getArguments(), [](BlockArgument arg) {
          return isTree(arg.getType());
        });
      });
      if (isTreeOp(inner) || hasTreeValue(inner) || treeArgs) {
        inner->emitOpError()
            << "uses !attic.tree values inside the region of '" << op->getName()
            << "': attic-expand-vcc replaces trees only in the body of a "
               "function, outside nested regions";
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    return failure(nested.wasInterrupted());
  }

  /// The components of tree operand `value`, or an error at `user`.
  FailureOr<TreeParts> partsOf(Operation *user, Value value) {
    auto it = trees.find(value);
    if (it == trees.end()) {
      user->emitOpError() << "uses a tree that is not defined before it in "
                             "the function body";
      return failure();
    }
    return TreeParts::unflatten(cast<TreeType>(value.getType()), it->second);
  }

  LogicalResult lower(Operation *op) {
    Builder b(op->getLoc(), op);
    lowered.push_back(op);
    if (auto build = dyn_cast<TreeBuildOp>(op)) {
      TreeLowering lowering(build.getTree().getType());
      trees[build.getTree()] =
          lowering.build(b, build.getTokens(), build.getValid()).flatten();
      return success();
    }
    if (auto selectOp = dyn_cast<TreeSelectOp>(op)) {
      FailureOr<TreeParts> tree = partsOf(op, selectOp.getTree());
      if (failed(tree))
        return failure();
      TreeLowering lowering(selectOp.getTree().getType());
      selectOp.getNodes().replaceAllUsesWith(lowering.selectNodes(
          b, *tree, selectOp.getQuery(), selectOp.getKeyWeight(),
          selectOp.getKeyBias(), selectOp.getLnGamma(), selectOp.getLnBeta(),
          selectOp.getVoteMask(), selectOp.getBudgetValues(),
          selectOp.getHeads(),
          selectOp.getScale().convertToFloat(), selectOp.getNodes().getType()));
      return success();
    }
    if (auto compress = dyn_cast<VccCompressOp>(op)) {
      FailureOr<TreeParts> tree = partsOf(op, compress.getTree());
      if (failed(tree))
        return failure();
      TreeLowering lowering(compress.getTree().getType());
      auto [compressed, bias] = lowering.compress(
          b, *tree, compress.getVipRows(), compress.getNodes(),
          compress.getCompressed().getType(), compress.getKeyBias().getType());
      compress.getCompressed().replaceAllUsesWith(compressed);
      compress.getKeyBias().replaceAllUsesWith(bias);
      return success();
    }
    if (auto update = dyn_cast<TreeUpdateOp>(op)) {
      FailureOr<TreeParts> tree = partsOf(op, update.getTree());
      if (failed(tree))
        return failure();
      TreeLowering lowering(update.getTree().getType());
      trees[update.getResult()] =
          lowering.update(b, *tree, update.getNodes(), update.getRows())
              .flatten();
      return success();
    }
    auto materialize = cast<TreeMaterializeOp>(op);
    FailureOr<TreeParts> tree = partsOf(op, materialize.getTree());
    if (failed(tree))
      return failure();
    TreeLowering lowering(materialize.getTree().getType());
    materialize.getResult().replaceAllUsesWith(
        lowering.materialize(b, *tree, materialize.getResult().getType()));
    return success();
  }

  llvm::DenseMap<Value, SmallVector<Value>> trees;
  SmallVector<Operation *> lowered;
};

struct AtticExpandVccPass
    : public attic::impl::AtticExpandVccBase<AtticExpandVccPass> {
  using AtticExpandVccBase::AtticExpandVccBase;

  void runOnOperation() override {
    if (failed(expandVcc(getOperation())))
      signalPassFailure();
  }
};
} // namespace

LogicalResult attic::expandVcc(Operation *root) {
  SmallVector<func::FuncOp> funcs;
  root->walk([&](func::FuncOp func) { funcs.push_back(func); });
  for (func::FuncOp func : funcs)
    if (failed(FunctionExpander().run(func)))
      return failure();
  // Anything left (outside func.func) would reach the backend.
  WalkResult leftover = root->walk([](Operation *op) {
    if (isTreeOp(op) || isa<VipOrderOp, GatherRowsOp>(op) || hasTreeValue(op)) {
      op->emitOpError("is outside a func.func body: attic-expand-vcc lowers "
                      "VCC ops only in functions");
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(leftover.wasInterrupted());
}
