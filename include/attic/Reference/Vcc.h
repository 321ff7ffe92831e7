//===- Vcc.h - reference semantics of VCC (plain C++) -----------*- C++ -*-===//
//
// Reference semantics of VIP-token-centric compression (VCC), computed the
// plain way in double precision: no MLIR, and no code shared with attic's
// lowerings, so that tests can use it as an independent oracle. One
// sequence at a time (callers loop over the batch). See
// ../shared/papers/vcc.md sections 3.7-3.10 and 6-7.
//
// Conventions
// - A Matrix is row-major, rows x cols, in double.
// - A sequence X of n tokens is reordered into [P; C]: n_p VIP rows P, then
//   n_c = n - n_p rows C (vipReorder).
// - The tree T(C) is k-ary per level, described by `fanouts` from the leaves
//   up: level 0 are the n_c tokens (size 1), a level-j node covers
//   s_j = fanouts[0] * ... * fanouts[j-1] tokens, and level L =
//   fanouts.size() is the root (s_L = n_c = product of the fanouts). The
//   two-resolution scheme of the paper's experiments is fanouts = {k,
//   n_c/k}; the binary tree of Algorithm 1 is {2, 2, ..., 2}.
// - Node means are mask-aware: the mean of the node's valid tokens, 0 when
//   it has none. Count of a node = its number of valid tokens.
// - A node is (level, index), index 0-based within the level.
// - The compressed sequence SX is [P; J nodes], with the J nodes ordered by
//   level ascending (tokens first), then index ascending; its key bias is 0
//   for P rows, log(s_level) for a J node with count > 0, and -inf for a J
//   node with count 0 (fully padded). Every function taking J requires a
//   partition of the n_c tokens in this canonical order and throws
//   otherwise. Invalid VIP slots are not a thing:
//   every P row is a real token (vipReorder fills spare slots with non-VIP
//   tokens); sequence padding is expressed by `valid` on C only.
//
//===----------------------------------------------------------------------===//

#ifndef ATTIC_REFERENCE_VCC_H
#define ATTIC_REFERENCE_VCC_H

#include <cstdint>
#include <exception>
#include <string>
#include <utility>
#include <vector>

namespace attic::ref::vcc {

struct Matrix {
  int64_t rows = 0, cols = 0;
  std::vector<double> data; // rows * cols, row-major

  Matrix() = default;
  Matrix(int64_t rows, int64_t cols)
      : rows(rows), cols(cols), data(rows * cols, 0.0) {}
  double &at(int64_t r, int64_t c) { return data[r * cols + c]; }
  double at(int64_t r, int64_t c) const { return data[r * cols + c]; }
};

/// Thrown for any invalid argument (shapes, budgets, more VIP tokens than
/// n_p, ...); what() names the argument and the expected value.
struct Error : std::exception {
  explicit Error(std::string message) : message(std::move(message)) {}
  const char *what() const noexcept override { return message.c_str(); }
  std::string message;
};

//===----------------------------------------------------------------------===//
// Reordering
//===----------------------------------------------------------------------===//

/// Stable reorder: the VIP tokens first (in their original order), then the
/// others (in theirs). perm[i] = original index of new row i; inverse is
/// its inverse (inverse[perm[i]] = i). If fewer than numVip tokens are VIP,
/// the first non-VIP tokens fill the spare P slots. Throws if more than
/// numVip tokens are VIP or numVip > vip.size().
struct Reorder {
  std::vector<int64_t> perm, inverse;
};
Reorder vipReorder(const std::vector<bool> &vip, int64_t numVip);
/// rows[i] = x[perm[i]]
Matrix gatherRows(const Matrix &x, const std::vector<int64_t> &perm);

//===----------------------------------------------------------------------===//
// Tree state T(C)
//===----------------------------------------------------------------------===//

struct Tree {
  std::vector<int64_t> fanouts;
  int64_t rows = 0, dim = 0;               // n_c, d
  std::vector<double> root;                // [dim], mean of the root
  std::vector<Matrix> delta;               // delta[j], j < L: [n_c/s_j][dim],
                                           // parent mean - node mean
  std::vector<std::vector<int64_t>> count; // count[j], j <= L: valid tokens
  std::vector<bool> valid;                 // [n_c]

  int64_t levels() const { return static_cast<int64_t>(fanouts.size()); }
  int64_t nodeSize(int64_t level) const;   // s_level; throws unless
  int64_t nodesAt(int64_t level) const;    // n_c / s_level; 0 <= level <= L
};

/// Builds T(C) bottom-up (eq 14, 15). Throws if fanouts is empty, has an
/// entry < 1, if their product differs from c.rows, or if valid.size() !=
/// c.rows. A node without valid tokens has mean 0, so its delta is its
/// parent's mean. Functions taking a Tree throw if its shapes or counts are
/// inconsistent.
///
/// meanEps > 0 gives the VCC authors' block means: a node above the tokens
/// has mean (sum of its valid tokens) / (count + meanEps) (their
/// `to_coarse` with 1e-4); 0 is the exact mean. Throws unless meanEps is
/// finite and >= 0.
Tree buildTree(const Matrix &c, const std::vector<bool> &valid,
               const std::vector<int64_t> &fanouts, double meanEps = 0.0);
/// Mean of one node, walking down from the root and subtracting deltas
/// (eq 16/63); exactly 0 for a node with count 0 (read from the count, so
/// the deltas of empty nodes are never used).
std::vector<double> nodeMean(const Tree &tree, int64_t level, int64_t index);
/// All node means of one level, [n_c/s_level][dim].
Matrix levelMeans(const Tree &tree, int64_t level);
/// C from the tree, top-down (eq 66), with invalid rows set to 0.
Matrix materialize(const Tree &tree);

//===----------------------------------------------------------------------===//
// Selection
//===----------------------------------------------------------------------===//

struct Node {
  int64_t level = 0, index = 0;
  bool operator==(const Node &o) const {
    return level == o.level && index == o.index;
  }
};

/// Segment scores (paper section 3.6): for candidate keys k [H][m][dh]
/// (row h*m*dh + j*dh + e) and VIP queries q [H][n_p][dh], the softmax over
/// the m candidates of scale * q . k (minus infinity where candidateValid
/// is false), averaged over heads, then over the VIP rows weighted by
/// vipWeight (0/1; the mean divides by n_p as the paper's code does).
/// Returns [m]; invalid candidates score -inf (all of them if none is
/// valid). Throws on size mismatches, numVip < 1 or a non-finite scale.
std::vector<double> segmentScores(const std::vector<double> &q,
                                  const std::vector<double> &k, int64_t heads,
                                  int64_t numVip, int64_t candidates,
                                  int64_t headDim, double scale,
                                  const std::vector<bool> &candidateValid,
                                  const std::vector<bool> &vipWeight);

/// Indices of the h largest scores, ascending by index; ties go to the
/// lower index; -inf scores are taken last. Throws if h < 0, h >
/// scores.size() or a score is NaN.
std::vector<int64_t> topK(const std::vector<double> &scores, int64_t h);

/// Algorithm 1 with per-level budgets: budgets[j] = number of level-j nodes
/// to split (j = 1..L; budgets[0] is ignored and must be 0). Starting from
/// J = {root}, for j = L down to 1: the level-j nodes of J are scored with
/// score(level, indices) (higher splits first, topK semantics), the top
/// budgets[j] are replaced by their children. Throws if a budget exceeds
/// the number of level-j nodes in J at that point. Returns J in the
/// canonical order (level ascending, index ascending). The scorer gets the
/// level-j node indices of J in ascending order and returns one score per
/// index (-inf allowed, NaN throws); it is only called when the budget is
/// > 0 and < the number of candidates (otherwise there is nothing to rank).
using LevelScorer = std::vector<double> (*)(const Tree &, int64_t level,
                                            const std::vector<int64_t> &,
                                            void *context);
std::vector<Node> selectJ(const Tree &tree, const std::vector<int64_t> &budgets,
                          LevelScorer score, void *context);

/// The two-resolution J: every node above level 1 split, `fine` (block
/// indices at level 1, any order) split into tokens. Canonical order.
/// Throws on an index outside the level-1 blocks or a repeated one.
std::vector<Node> twoLevelJ(const Tree &tree, const std::vector<int64_t> &fine);

//===----------------------------------------------------------------------===//
// Compressed sequence, layer, update
//===----------------------------------------------------------------------===//

/// SX = [P; means of J] and its key bias (see the conventions above).
struct Compressed {
  Matrix sx;
  std::vector<double> keyBias;
};
/// biasEps > 0: the bias of a J node with valid tokens is log(s_j +
/// biasEps) and that of a P row log(1 + biasEps) (the VCC authors'
/// log(num_dups + 1e-4)); 0 gives log s_j and 0.
Compressed assemble(const Matrix &p, const Tree &tree,
                    const std::vector<Node> &j, double biasEps = 0.0);

/// A pre-LN transformer layer on rows x [r][d]:
///   a = MHA(LN1(x), key bias) ; h = x + a ; y = h + W2 act(W1 LN2(h) + b1) + b2
/// with act = relu (attic's examples) or the exact GELU
/// x/2 (1 + erf(x / sqrt 2)) (the VCC authors' layer, nn.GELU()),
/// chosen by LayerWeights::activation.
/// MHA: q/k/v = LN1(x) W{q,k,v} + b{q,k,v}, split into `heads` heads of
/// d/heads, softmax(q k^T / sqrt(d/heads) + keyBias[j]) v per head, concat,
/// then W_o + b_o. Matrices are [in][out]; LayerNorm eps = 1e-5 (biased
/// variance). A -inf key bias removes the key; throws if every key is
/// removed, on a NaN or +inf bias, or on mismatched weight shapes.
enum class Activation { Relu, Gelu };
struct LayerWeights {
  int64_t dim = 0, heads = 0, ffnDim = 0;
  Activation activation = Activation::Relu;
  std::vector<double> ln1Gamma, ln1Beta, ln2Gamma, ln2Beta; // [d]
  Matrix wq, wk, wv, wo;                                      // [d][d]
  std::vector<double> bq, bk, bv, bo;                         // [d]
  Matrix w1;                                                  // [d][f]
  std::vector<double> b1;                                     // [f]
  Matrix w2;                                                  // [f][d]
  std::vector<double> b2;                                     // [d]
};
Matrix transformerLayer(const Matrix &x, const std::vector<double> &keyBias,
                        const LayerWeights &w);

/// x w + b per row, with w [in][out] and b [out].
Matrix affine(const Matrix &x, const Matrix &w, const std::vector<double> &b);
/// Row-wise LayerNorm (biased variance, eps 1e-5), then * gamma + beta.
Matrix layerNorm(const Matrix &x, const std::vector<double> &gamma,
                 const std::vector<double> &beta);

/// Algorithm 2: the new tree after the layer. y are the layer's output rows
/// for the J nodes (the rows of the layer output after the n_p P rows, in
/// J's canonical order). J nodes take their row; their ancestors are
/// recomputed bottom-up as count-weighted means of their children (dirty
/// propagation); deltas of dirty nodes are recomputed; deltas strictly
/// below J nodes are not touched (bit-identical; for empty nodes below a
/// partially valid J node they go stale, which is harmless since empty
/// means are read from the count). A J node with count 0 keeps mean 0 and
/// its row is ignored. Counts and validity do not change. `rewritten`,
/// when given, receives the number of delta entries (nodes) rewritten:
/// the dirty nodes below the root, 2|J| - 2 for a binary tree whose root
/// is split.
/// meanEps: as buildTree's, for the recomputed means of the dirty nodes
/// above J (sum of the children's token sums / (count + meanEps), a child's
/// token sum being its mean times its count, + meanEps above the tokens).
Tree updateTree(const Tree &tree, const std::vector<Node> &j, const Matrix &y,
                int64_t *rewritten = nullptr, double meanEps = 0.0);

//===----------------------------------------------------------------------===//
// Whole layers
//===----------------------------------------------------------------------===//

/// Naive VCC layer, eq (7): X_new = S^+ (layer_D(S X) - S X) + X with dense
/// S ([n_p + |J|] x n, identity rows for P, rows averaging the valid
/// tokens of each J node: 1/count each, 1/s without padding) and its
/// Moore-Penrose pseudo-inverse computed explicitly (S^T (S S^T)^{-1},
/// Gauss-Jordan in double). layer_D is transformerLayer with key bias 0
/// for P rows and log(s_level) for J rows, as in assemble. J nodes without
/// valid tokens are left out of S (their rows would be 0). x is [P; C]
/// ([n][d]); invalid C rows of x are ignored; returns [n][d] with invalid C
/// rows set to 0.
Matrix naiveVccLayer(const Matrix &x, int64_t numVip,
                     const std::vector<bool> &validC,
                     const std::vector<int64_t> &fanouts,
                     const std::vector<Node> &j, const LayerWeights &w);

} // namespace attic::ref::vcc

#endif // ATTIC_REFERENCE_VCC_H
