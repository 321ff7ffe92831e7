//===- VccLowering.h - the tree lowering of attic-expand-vcc ----*- C++ -*-===//
//
// Private to lib/Transforms: how attic-expand-vcc (ExpandVcc.cpp) lowers the
// ops on a VCC tree state into upstream ops on the tree's component tensors
// (TreeParts): the tree ops in VccTree.cpp (tree_build, tree_materialize,
// vcc_compress, tree_update), the selection in VccSelect.cpp (tree_select,
// Algorithm 1). The components:
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
//===----------------------------------------------------------------------===//

#ifndef ATTIC_LIB_TRANSFORMS_VCCLOWERING_H
#define ATTIC_LIB_TRANSFORMS_VCCLOWERING_H

#include "TensorBuilders.h"

#include "attic/Dialect/Attic/AtticDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <cassert>
#include <utility>

namespace attic::detail {

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
  /// The types of the flat list for a tree of type `type`.
  static SmallVector<Type> componentTypes(TreeType type) {
    MLIRContext *context = type.getContext();
    Type f32 = Float32Type::get(context);
    int64_t batch = type.getBatch(), dim = type.getDim();
    SmallVector<Type> types{RankedTensorType::get({batch, dim}, f32)};
    for (int64_t l = 0; l < type.getLevels(); ++l)
      types.push_back(
          RankedTensorType::get({batch, type.getNodesAt(l), dim}, f32));
    for (int64_t l = 0; l <= type.getLevels(); ++l)
      types.push_back(RankedTensorType::get({batch, type.getNodesAt(l)}, f32));
    types.push_back(RankedTensorType::get({batch, type.getRows()},
                                          IntegerType::get(context, 1)));
    return types;
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
/// count > 0 ? sum / (count + eps) : 0 (meanOrZero when eps is 0).
inline Value meanOrZeroEps(Builder &b, Value sum, Value count, float eps) {
  if (eps == 0.0f)
    return meanOrZero(b, sum, count);
  Value denominator = arith::AddFOp::create(b, count, cF32(b, eps));
  return select(b, positive(b, count),
                arith::DivFOp::create(b, sum, denominator), cF32(b, 0.0));
}

class TreeLowering {
public:
  /// `parallelScans`: tree_select's per-level scan without a loop over
  /// the candidates (attic-expand-vcc's parallel-scans).
  explicit TreeLowering(TreeType type, bool parallelScans = false)
      : type(type), parallelScans(parallelScans) {}

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

  /// tree_build (VccTree.cpp).
  /// `meanEps` > 0: means above the tokens are sum / (count + meanEps).
  TreeParts build(Builder &b, Value tokens, Value valid,
                  float meanEps = 0.0f) const;

  /// tree_materialize (VccTree.cpp).
  Value materialize(Builder &b, const TreeParts &tree,
                    RankedTensorType resultType) const;

  /// vcc_compress: the compressed rows and their key bias (VccTree.cpp).
  std::pair<Value, Value> compress(Builder &b, const TreeParts &tree,
                                   Value vipRows, Value nodes,
                                   RankedTensorType compressedType,
                                   RankedTensorType biasType,
                                   float biasEps = 0.0f) const;

  /// tree_update, Algorithm 2 (VccTree.cpp).
  TreeParts update(Builder &b, const TreeParts &tree, Value nodes, Value rows,
                   float meanEps = 0.0f) const;

  /// The inputs of tree_update's steps.
  struct UpdateInputs {
    const TreeParts &tree;
    Value nodes, rows; // J [B, |J|] i64, its rows [B, |J|, d]
    int64_t selected;  // |J|
    float meanEps;
  };
  /// Where tree_update's steps write. Sequential form: whole [B, N, d]
  /// tensors, with loops over the sequences and the features. Parallel form
  /// (parallelScans): one thread of an scf.forall over (sequence, feature)
  /// writes its column [N] of sequence `batch` and feature `feature` (the
  /// root's [B, d] as [1]); the J nodes of different columns are
  /// independent, so the steps loop only over J and the levels.
  struct UpdateColumn {
    Value batch, feature; // null in the sequential form
    bool isColumn() const { return static_cast<bool>(feature); }
  };
  /// The indices of element (bi, node, e) of a written tensor ([B, d] when
  /// `node` is null) in the form of `column`.
  SmallVector<Value> written(Builder &b, const UpdateColumn &column, Value bi,
                             Value node, Value e) const;
  /// body(builder, batch, k, J node k decoded, iter_args).
  using JNodeFn = llvm::function_ref<SmallVector<Value>(
      Builder &, Value, Value, const NodeRef &, ValueRange)>;
  /// A loop over the sequences (the column's only, in the parallel form)
  /// and their J nodes, carrying `inits`.
  SmallVector<Value> forEachJNode(Builder &b, const UpdateInputs &in,
                                  const UpdateColumn &column, ValueRange inits,
                                  JNodeFn body) const;
  /// scf.if cond { for e < d: tensor = updateElement(e, tensor) } else
  /// { tensor } (the column's feature only, in the parallel form).
  Value updateRowIf(
      Builder &b, const UpdateColumn &column, Value cond, Value tensor,
      llvm::function_ref<Value(Builder &, Value, Value)> updateElement) const;
  /// tree_update step 1: the sums of the dirty nodes above J set to 0.
  SmallVector<Value> zeroAncestorSums(Builder &b, const UpdateInputs &in,
                                      const UpdateColumn &column,
                                      ValueRange sums) const;
  /// Step 2: every J node's token sum added into its ancestors' sums (the
  /// last of `sums` is the root's).
  SmallVector<Value> accumulateAncestorSums(Builder &b, const UpdateInputs &in,
                                            const UpdateColumn &column,
                                            ValueRange sums) const;
  /// Step 3: the new root mean.
  Value newRoot(Builder &b, const UpdateInputs &in, Value rootSum) const;
  /// Step 4: the deltas of the J nodes and of the nodes above them.
  SmallVector<Value> rewriteDeltas(Builder &b, const UpdateInputs &in,
                                   const UpdateColumn &column,
                                   ArrayRef<Value> sums, ValueRange deltas,
                                   Value root) const;

  /// One level of tree_select's scan (level j, m candidates, h split, its
  /// J columns from `base`): the new J and the next level's candidates.
  std::pair<Value, Value> scanLevel(Builder &b, Value candidates, Value split,
                                    Value result, int64_t j, int64_t m,
                                    int64_t h, int64_t base) const;
  /// scanLevel without a loop over the candidates: each child row and each
  /// J column found by bisection over the splits before a candidate, which
  /// have a closed form in the flags before it (chunked counts).
  std::pair<Value, Value> scanLevelParallel(Builder &b, Value candidates,
                                            Value split, Value result,
                                            int64_t j, int64_t m, int64_t h,
                                            int64_t base) const;

  /// tree_select, Algorithm 1: J [B, |J|] i64 (VccSelect.cpp).
  Value selectNodes(Builder &b, func::FuncOp report, const TreeParts &tree,
                    Value query, Value keyWeight, Value keyBias, Value gamma,
                    Value beta, Value voteMask, ArrayRef<int64_t> budgets,
                    int64_t heads, float scale,
                    RankedTensorType resultType) const;

  /// split[b, x] (i1): candidate x (of `candidates` [B, m], level `level`)
  /// is among the h best of its sequence (see selectNodes): the candidates'
  /// means, their keys, the P rows' votes, the top h.
  Value splitFlags(Builder &b, func::FuncOp report, const TreeParts &tree,
                   Value candidates, int64_t level, int64_t m, int64_t h,
                   Value query, Value keyWeight, Value keyBias, Value gamma,
                   Value beta, Value voteMask, int64_t heads,
                   float scale) const;

  /// [B, m, d]: the means of the level-`level` nodes `candidates`, the root
  /// minus the deltas on the path; 0 when empty.
  Value candidateMeans(Builder &b, const TreeParts &tree, Value candidates,
                       Value valid, int64_t level, int64_t m) const;

  /// [B, m, d]: LN(means) * gamma + beta (biased variance, eps 1e-5) times
  /// key_weight [d_in, d_out], as one linalg.matmul on [B*m, d] (a BLAS
  /// call under attic-linalg-to-blas, loops otherwise). key_bias is added
  /// with the logits.
  Value candidateKeys(Builder &b, Value means, Value keyWeight, Value gamma,
                      Value beta, int64_t m) const;

  /// [B, m]: section 3.6's scores, the mean over heads and P rows of each P
  /// row's softmax over the candidates of scale * q . (key + key_bias);
  /// the rows vote_mask leaves out add 0 (the mean still divides by n_p).
  /// -inf for a candidate that is not `valid`. A valid candidate whose
  /// score is NaN is reported (ATTIC_RT_VCC_SCORES, level `level`).
  Value votedScores(Builder &b, func::FuncOp report, int64_t level, Value keys,
                    Value keyBias, Value query, Value voteMask, Value valid,
                    int64_t m, int64_t heads, float scale) const;

  /// sum over i in [0, upper) of term(i), as an f32 loop.
  static Value sumOver(Builder &b, int64_t upper,
                       llvm::function_ref<Value(Builder &, Value)> term);

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
  /// On the GPU (parallelScans), step 2 is detail::radixSelect (8 bits at
  /// a time in parallel kernels) and step 3 detail::topFlagsAt, shared with
  /// detail::largestIndices.
  Value topFlags(Builder &b, Value scores, int64_t m, int64_t h) const;

private:
  TreeType type;
  bool parallelScans = false;
};

} // namespace attic::detail

#endif // ATTIC_LIB_TRANSFORMS_VCCLOWERING_H
