//===- VccTree.cpp - the tree ops of attic-expand-vcc -----------*- C++ -*-===//
//
// tree_build, tree_materialize, vcc_compress and tree_update as upstream ops
// on the tree's component tensors (VccLowering.h). Components and other
// scratch that is read many times are linalg.generic ops without inputs
// (each element from linalg.index; parallel loops after bufferization), not
// tensor.generate: upstream canonicalization folds tensor.extract of a
// tensor.generate by inlining the producer's body at the read, which would
// recompute whole subtrees at every read of a component. The ops' results
// (compressed rows, key bias, materialized tokens) are tensor.generate,
// which bufferizes to linalg.map.
//
//===----------------------------------------------------------------------===//

#include "VccLowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <cmath>
#include <cstdint>
#include <limits>

using namespace mlir;
using namespace attic;
using namespace attic::detail;

//===--------------------------------------------------------------------===//
// tree_build: counts and means bottom-up (count-weighted means of the
// children), then deltas and the root. O(B n_c d).
//===--------------------------------------------------------------------===//
TreeParts TreeLowering::build(Builder &b, Value tokens, Value valid,
                              float meanEps) const {
  int64_t batch = type.getBatch(), dim = type.getDim();
  TreeParts tree;
  tree.valid = valid;
  SmallVector<Value> means;
  tree.counts.push_back(parallelTensor(
      b, f32Tensor(b, {batch, type.getRows()}), [&](Builder &nb, ValueRange i) {
        return select(nb, extract(nb, valid, i), cF32(nb, 1.0), cF32(nb, 0.0));
      }));
  means.push_back(parallelTensor(b, f32Tensor(b, {batch, type.getRows(), dim}),
                                 [&](Builder &nb, ValueRange i) {
                                   return select(
                                       nb, extract(nb, valid, {i[0], i[1]}),
                                       extract(nb, tokens, i), cF32(nb, 0.0));
                                 }));
  SmallVector<Value> sums{means[0]}; // token sums (meanEps only)
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
    if (meanEps != 0.0f) {
      // The VCC authors' means: (sum of the valid tokens) / (count + eps),
      // from the token sums level by level.
      Value childSums = sums.back();
      Value levelSums = parallelTensor(
          b, f32Tensor(b, {batch, nodes, dim}), [&](Builder &nb, ValueRange i) {
            return forLoop(nb, fanout, cF32(nb, 0.0),
                           [&](Builder &lb, Value c, ValueRange acc) {
                             Value s =
                                 extract(lb, childSums,
                                         {i[0], child(lb, i[1], c), i[2]});
                             return SmallVector<Value>{
                                 arith::AddFOp::create(lb, acc[0], s)};
                           })
                .front();
          });
      sums.push_back(levelSums);
      means.push_back(parallelTensor(
          b, f32Tensor(b, {batch, nodes, dim}), [&](Builder &nb, ValueRange i) {
            return meanOrZeroEps(nb, extract(nb, levelSums, i),
                                 extract(nb, counts, {i[0], i[1]}), meanEps);
          }));
      continue;
    }
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
Value TreeLowering::materialize(Builder &b, const TreeParts &tree,
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
std::pair<Value, Value>
TreeLowering::compress(Builder &b, const TreeParts &tree, Value vipRows,
                       Value nodes, RankedTensorType compressedType,
                       RankedTensorType biasType, float biasEps) const {
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
                 return {cF32(tb, std::log(1.0 + double(biasEps)))};
               },
               [&](Builder &eb) -> SmallVector<Value> {
                 NodeRef node = nodeOfRow(eb, i[0], i[1]);
                 // log(s_level + bias_eps), -inf for a node without valid
                 // tokens.
                 Value logSize = cF32(eb, std::log(1.0 + double(biasEps)));
                 for (int64_t l = 1; l <= levels(); ++l)
                   logSize = select(
                       eb, levelIs(eb, node.level, l, arith::CmpIPredicate::eq),
                       cF32(eb, std::log(double(type.getNodeSize(l)) +
                                         double(biasEps))),
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
//   1. zeroAncestorSums: for each J node, for each level l in (level, L):
//        sums[l][anc] = 0
//   2. accumulateAncestorSums: for each J node with count c > 0, for each
//        level l in (level, L]: sums[l][anc] += c * row  (rootSum at l = L;
//        (c + mean_eps) * row for a J node above the tokens)
//   3. newRoot: root in J ? row : rootSum / count   (0 when the count is 0)
//   4. rewriteDeltas: for each J node, for each level l in [level, L): the
//   delta of the
//        level-l node on its path is (new mean of its parent) - (new mean
//        of the node), with new means row (the J node, 0 when empty), sum /
//        count (nodes above J) or the new root.
//
// Deltas strictly below J are untouched; counts and validity are kept.
// O(B |J| d L).
//===--------------------------------------------------------------------===//
TreeParts TreeLowering::update(Builder &b, const TreeParts &tree, Value nodes,
                               Value rows, float meanEps) const {
  UpdateInputs in{tree, nodes, rows,
                  cast<RankedTensorType>(nodes.getType()).getDimSize(1),
                  meanEps};
  int64_t batch = type.getBatch(), dim = type.getDim();
  // Scratch for the levels strictly between the tokens and the root.
  SmallVector<Value> sums;
  for (int64_t l = 1; l < levels(); ++l)
    sums.push_back(tensor::EmptyOp::create(
        b, ArrayRef<int64_t>{batch, type.getNodesAt(l), dim}, b.getF32Type()));
  Value rootSum =
      parallelTensor(b, f32Tensor(b, {batch, dim}),
                     [&](Builder &nb, ValueRange) { return cF32(nb, 0.0); });
  // Steps 1 and 2 (zero, then accumulate) on `columnSums` (sums, rootSum).
  auto sumSteps = [&](Builder &sb, const UpdateColumn &column,
                      ValueRange columnSums) {
    SmallVector<Value> next =
        zeroAncestorSums(sb, in, column, columnSums.drop_back());
    next.push_back(columnSums.back());
    return accumulateAncestorSums(sb, in, column, next);
  };
  sums.push_back(rootSum);
  TreeParts result = tree;
  if (!parallelScans) {
    sums = sumSteps(b, UpdateColumn{}, sums);
    rootSum = sums.pop_back_val();
    result.root = newRoot(b, in, rootSum);
    result.deltas =
        rewriteDeltas(b, in, UpdateColumn{}, sums, tree.deltas, result.root);
    return result;
  }
  // Parallel form: a thread per (sequence, feature) for steps 1-2 and one
  // for step 4; step 3 is element-wise already.
  sums = forEachColumn(b, batch, dim, sums,
                       [&](Builder &cb, Value bi, Value e, ValueRange columns) {
                         return sumSteps(cb, UpdateColumn{bi, e}, columns);
                       });
  rootSum = sums.pop_back_val();
  result.root = newRoot(b, in, rootSum);
  result.deltas =
      forEachColumn(b, batch, dim, tree.deltas,
                    [&](Builder &cb, Value bi, Value e, ValueRange columns) {
                      return rewriteDeltas(cb, in, UpdateColumn{bi, e}, sums,
                                           columns, result.root);
                    });
  return result;
}

SmallVector<Value> TreeLowering::written(Builder &b, const UpdateColumn &column,
                                         Value bi, Value node, Value e) const {
  if (column.isColumn())
    return {node ? node : cIndex(b, 0)};
  if (!node)
    return {bi, e};
  return {bi, node, e};
}

SmallVector<Value> TreeLowering::forEachJNode(Builder &b,
                                              const UpdateInputs &in,
                                              const UpdateColumn &column,
                                              ValueRange inits,
                                              JNodeFn body) const {
  auto overJ = [&](Builder &bb, Value bi, ValueRange args) {
    return forLoop(bb, in.selected, args,
                   [&](Builder &kb, Value k, ValueRange kArgs) {
                     NodeRef node = decode(kb, extract(kb, in.nodes, {bi, k}));
                     return body(kb, bi, k, node, kArgs);
                   });
  };
  if (column.isColumn())
    return overJ(b, column.batch, inits);
  return forLoop(b, type.getBatch(), inits,
                 [&](Builder &bb, Value bi, ValueRange batchArgs) {
                   return overJ(bb, bi, batchArgs);
                 });
}

Value TreeLowering::updateRowIf(
    Builder &b, const UpdateColumn &column, Value cond, Value tensor,
    llvm::function_ref<Value(Builder &, Value, Value)> updateElement) const {
  return ifElse(
             b, cond, tensor.getType(),
             [&](Builder &tb) -> SmallVector<Value> {
               if (column.isColumn())
                 return {updateElement(tb, column.feature, tensor)};
               return forLoop(tb, type.getDim(), tensor,
                              [&](Builder &eb, Value e, ValueRange acc) {
                                return SmallVector<Value>{
                                    updateElement(eb, e, acc[0])};
                              });
             },
             [&](Builder &) -> SmallVector<Value> { return {tensor}; })
      .front();
}

SmallVector<Value> TreeLowering::zeroAncestorSums(Builder &b,
                                                  const UpdateInputs &in,
                                                  const UpdateColumn &column,
                                                  ValueRange sums) const {
  if (sums.empty())
    return {};
  return forEachJNode(
      b, in, column, sums,
      [&](Builder &nb, Value bi, Value, const NodeRef &node, ValueRange args) {
        SmallVector<Value> next;
        for (int64_t l = 1; l < levels(); ++l) {
          Value anc = nodeAt(nb, node.firstToken, l);
          next.push_back(updateRowIf(
              nb, column, levelIs(nb, node.level, l, arith::CmpIPredicate::ult),
              args[l - 1], [&](Builder &eb, Value e, Value acc) {
                return insert(eb, cF32(eb, 0.0), acc,
                              written(eb, column, bi, anc, e));
              }));
        }
        return next;
      });
}

SmallVector<Value>
TreeLowering::accumulateAncestorSums(Builder &b, const UpdateInputs &in,
                                     const UpdateColumn &column,
                                     ValueRange sums) const {
  int64_t top = levels();
  return forEachJNode(
      b, in, column, sums,
      [&](Builder &nb, Value bi, Value k, const NodeRef &node,
          ValueRange args) {
        Value c = count(nb, in.tree, bi, node);
        // The J node's token sum: count * row, (count + mean_eps) * row
        // above the tokens (the inverse of its mean with mean_eps).
        Value weight = c;
        if (in.meanEps != 0.0f)
          weight = arith::AddFOp::create(
              nb, c,
              select(nb, levelIs(nb, node.level, 0, arith::CmpIPredicate::ugt),
                     cF32(nb, in.meanEps), cF32(nb, 0.0)));
        auto contribution = [&](Builder &eb, Value e) {
          Value row = extract(eb, in.rows, {bi, k, e});
          return select(eb, positive(eb, c),
                        arith::MulFOp::create(eb, weight, row), cF32(eb, 0.0));
        };
        SmallVector<Value> next;
        for (int64_t l = 1; l <= top; ++l) {
          Value anc = nodeAt(nb, node.firstToken, l);
          next.push_back(updateRowIf(
              nb, column, levelIs(nb, node.level, l, arith::CmpIPredicate::ult),
              args[l - 1], [&](Builder &eb, Value e, Value acc) {
                SmallVector<Value> at =
                    written(eb, column, bi, l == top ? Value() : anc, e);
                Value sum = arith::AddFOp::create(eb, extract(eb, acc, at),
                                                  contribution(eb, e));
                return insert(eb, sum, acc, at);
              }));
        }
        return next;
      });
}

Value TreeLowering::newRoot(Builder &b, const UpdateInputs &in,
                            Value rootSum) const {
  int64_t top = levels();
  return parallelTensor(
      b, f32Tensor(b, {type.getBatch(), type.getDim()}),
      [&](Builder &nb, ValueRange i) {
        NodeRef first =
            decode(nb, extract(nb, in.nodes, {i[0], cIndex(nb, 0)}));
        Value rootInJ = levelIs(nb, first.level, top, arith::CmpIPredicate::eq);
        Value fromRow = extract(nb, in.rows, {i[0], cIndex(nb, 0), i[1]});
        Value rootCount =
            extract(nb, in.tree.counts[top], {i[0], cIndex(nb, 0)});
        Value fromSum =
            meanOrZeroEps(nb, extract(nb, rootSum, i), rootCount, in.meanEps);
        return select(nb, positive(nb, rootCount),
                      select(nb, rootInJ, fromRow, fromSum), cF32(nb, 0.0));
      });
}

SmallVector<Value>
TreeLowering::rewriteDeltas(Builder &b, const UpdateInputs &in,
                            const UpdateColumn &column, ArrayRef<Value> sums,
                            ValueRange deltas, Value root) const {
  int64_t top = levels();
  const TreeParts &tree = in.tree;
  // New mean of the level-l node on the path of J node k (level <= l < L).
  auto newMean = [&](Builder &nb, Value bi, Value k, const NodeRef &node,
                     int64_t l, Value anc, Value e) -> Value {
    Value n = extract(nb, tree.counts[l], {bi, anc});
    auto ofRow = [&](Builder &rb) {
      return select(rb, positive(rb, n), extract(rb, in.rows, {bi, k, e}),
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
                 return {meanOrZeroEps(eb, sum, n, in.meanEps)};
               })
        .front();
  };
  return forEachJNode(
      b, in, column, deltas,
      [&](Builder &nb, Value bi, Value k, const NodeRef &node,
          ValueRange args) {
        SmallVector<Value> next;
        for (int64_t l = 0; l < top; ++l) {
          Value anc = nodeAt(nb, node.firstToken, l);
          Value parent = nodeAt(nb, node.firstToken, l + 1);
          Value onPath = levelIs(nb, node.level, l, arith::CmpIPredicate::ule);
          next.push_back(updateRowIf(
              nb, column, onPath, args[l],
              [&](Builder &eb, Value e, Value acc) {
                Value parentMean;
                if (l + 1 == top) {
                  parentMean = extract(eb, root, {bi, e});
                } else {
                  Value n = extract(eb, tree.counts[l + 1], {bi, parent});
                  parentMean = meanOrZeroEps(
                      eb, extract(eb, sums[l], {bi, parent, e}), n, in.meanEps);
                }
                Value delta = arith::SubFOp::create(
                    eb, parentMean, newMean(eb, bi, k, node, l, anc, e));
                return insert(eb, delta, acc, written(eb, column, bi, anc, e));
              }));
        }
        return next;
      });
}
