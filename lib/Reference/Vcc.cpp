//===- Vcc.cpp - Reference semantics of VCC -------------------------------===//
//
// VIP-token-centric compression computed the plain way in double precision.
// Every invalid argument throws vcc::Error naming the argument and what was
// expected. Speed only matters as far as keeping each step linear in the
// sizes it touches (naiveVccLayer excepted: it is the dense eq (7) on
// purpose).
//
//===----------------------------------------------------------------------===//

#include "attic/Reference/Vcc.h"
#include "NanMax.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <sstream>
#include <utility>

namespace attic::ref::vcc {
namespace {

constexpr double kNegInf = -std::numeric_limits<double>::infinity();
constexpr double kLayerNormEps = 1e-5;

template <typename... Args> [[noreturn]] void fail(const Args &...args) {
  std::ostringstream os;
  (os << ... << args);
  throw Error(os.str());
}

template <typename T> int64_t ssize(const std::vector<T> &v) {
  return static_cast<int64_t>(v.size());
}

std::string str(const Node &node) {
  std::ostringstream os;
  os << "(level " << node.level << ", index " << node.index << ")";
  return os.str();
}

//===----------------------------------------------------------------------===//
// Argument checks
//===----------------------------------------------------------------------===//

void checkMatrix(const char *fn, const std::string &name, const Matrix &m) {
  if (m.rows < 0 || m.cols < 0)
    fail(fn, ": ", name, " is ", m.rows, " x ", m.cols,
         " (expected non-negative rows and cols)");
  if (ssize(m.data) != m.rows * m.cols)
    fail(fn, ": ", name, " holds ", m.data.size(), " values but is ", m.rows,
         " x ", m.cols, " (expected ", m.rows * m.cols, ")");
}

void checkShape(const char *fn, const std::string &name, const Matrix &m,
                int64_t rows, int64_t cols) {
  checkMatrix(fn, name, m);
  if (m.rows != rows || m.cols != cols)
    fail(fn, ": ", name, " is ", m.rows, " x ", m.cols, " (expected ", rows,
         " x ", cols, ")");
}

void checkLength(const char *fn, const std::string &name,
                 const std::vector<double> &v, int64_t length) {
  if (ssize(v) != length)
    fail(fn, ": ", name, " has ", v.size(), " entries (expected ", length, ")");
}

/// Fanouts must be >= 1 and multiply to `rows`; `rowsText` says whose rows
/// ("C has 64 rows").
void checkFanouts(const char *fn, const std::vector<int64_t> &fanouts,
                  int64_t rows, const std::string &rowsText) {
  if (fanouts.empty())
    fail(fn, ": fanouts is empty (expected at least one level above the "
             "tokens)");
  int64_t product = 1;
  bool overflow = false;
  for (size_t i = 0; i < fanouts.size(); ++i) {
    if (fanouts[i] < 1)
      fail(fn, ": fanouts[", i, "] is ", fanouts[i], " (expected >= 1)");
    if (product > std::numeric_limits<int64_t>::max() / fanouts[i])
      overflow = true;
    else
      product *= fanouts[i];
  }
  if (overflow)
    fail(fn, ": fanouts multiply to more than 2^63 but ", rowsText);
  if (product != rows)
    fail(fn, ": fanouts multiply to ", product, " but ", rowsText);
}

/// s_0 .. s_L for valid fanouts.
std::vector<int64_t> levelSizes(const std::vector<int64_t> &fanouts) {
  std::vector<int64_t> sizes(fanouts.size() + 1, 1);
  for (size_t j = 0; j < fanouts.size(); ++j)
    sizes[j + 1] = sizes[j] * fanouts[j];
  return sizes;
}

/// A Tree is a plain struct, so a caller can hand in an inconsistent one;
/// check every shape and that the counts add up.
void checkTree(const char *fn, const Tree &t) {
  std::ostringstream rowsText;
  rowsText << "tree.rows is " << t.rows;
  checkFanouts(fn, t.fanouts, t.rows, rowsText.str());
  if (t.dim < 0)
    fail(fn, ": tree.dim is ", t.dim, " (expected >= 0)");
  const int64_t levels = t.levels();
  const std::vector<int64_t> sizes = levelSizes(t.fanouts);
  checkLength(fn, "tree.root", t.root, t.dim);
  if (ssize(t.delta) != levels)
    fail(fn, ": tree.delta has ", t.delta.size(), " levels (expected ", levels,
         ")");
  for (int64_t j = 0; j < levels; ++j)
    checkShape(fn, "tree.delta[" + std::to_string(j) + "]", t.delta[j],
               t.rows / sizes[j], t.dim);
  if (ssize(t.count) != levels + 1)
    fail(fn, ": tree.count has ", t.count.size(), " levels (expected ",
         levels + 1, ")");
  for (int64_t j = 0; j <= levels; ++j)
    if (ssize(t.count[j]) != t.rows / sizes[j])
      fail(fn, ": tree.count[", j, "] has ", t.count[j].size(),
           " entries (expected ", t.rows / sizes[j], ")");
  if (ssize(t.valid) != t.rows)
    fail(fn, ": tree.valid has ", t.valid.size(), " entries (expected ", t.rows,
         ")");
  for (int64_t i = 0; i < t.rows; ++i)
    if (t.count[0][i] != (t.valid[i] ? 1 : 0))
      fail(fn, ": tree.count[0][", i, "] is ", t.count[0][i], " but token ", i,
           " is ", t.valid[i] ? "valid" : "invalid");
  for (int64_t j = 0; j < levels; ++j) {
    const int64_t f = t.fanouts[j];
    for (int64_t x = 0; x < ssize(t.count[j + 1]); ++x) {
      int64_t sum = 0;
      for (int64_t c = x * f; c < (x + 1) * f; ++c)
        sum += t.count[j][c];
      if (t.count[j + 1][x] != sum)
        fail(fn, ": tree.count[", j + 1, "][", x, "] is ", t.count[j + 1][x],
             " but its children hold ", sum, " valid tokens");
    }
  }
}

/// J must be a partition of the n_c tokens into tree nodes, in canonical
/// order (level ascending, then index ascending).
void checkJ(const char *fn, const std::vector<int64_t> &fanouts, int64_t rows,
            const std::vector<Node> &j) {
  const int64_t levels = ssize(fanouts);
  const std::vector<int64_t> sizes = levelSizes(fanouts);
  std::vector<int64_t> owner(rows, -1);
  for (int64_t k = 0; k < ssize(j); ++k) {
    const Node &node = j[k];
    if (node.level < 0 || node.level > levels)
      fail(fn, ": J[", k, "] = ", str(node), " has no such level (expected 0..",
           levels, ")");
    const int64_t nodes = rows / sizes[node.level];
    if (node.index < 0 || node.index >= nodes)
      fail(fn, ": J[", k, "] = ", str(node), " has no such index (level ",
           node.level, " has ", nodes, " nodes)");
    const int64_t s = sizes[node.level];
    for (int64_t t = node.index * s; t < (node.index + 1) * s; ++t) {
      if (owner[t] >= 0)
        fail(fn, ": J is not a partition: token ", t, " is covered by J[",
             owner[t], "] = ", str(j[owner[t]]), " and by J[", k,
             "] = ", str(node));
      owner[t] = k;
    }
  }
  for (int64_t t = 0; t < rows; ++t)
    if (owner[t] < 0)
      fail(fn, ": J is not a partition: token ", t, " is covered by no node");
  for (int64_t k = 1; k < ssize(j); ++k) {
    const Node &a = j[k - 1], &b = j[k];
    if (a.level > b.level || (a.level == b.level && a.index > b.index))
      fail(fn,
           ": J is not in canonical order (level ascending, then index "
           "ascending): J[",
           k, "] = ", str(b), " follows J[", k - 1, "] = ", str(a));
  }
}

void checkWeights(const char *fn, const LayerWeights &w, int64_t dim) {
  if (w.dim < 1)
    fail(fn, ": weights.dim is ", w.dim, " (expected >= 1)");
  if (w.dim != dim)
    fail(fn, ": weights.dim is ", w.dim, " but x has ", dim, " columns");
  if (w.heads < 1 || w.dim % w.heads != 0)
    fail(fn, ": weights.heads is ", w.heads,
         " (expected a divisor of dim = ", w.dim, ")");
  if (w.ffnDim < 1)
    fail(fn, ": weights.ffnDim is ", w.ffnDim, " (expected >= 1)");
  const int64_t d = w.dim, f = w.ffnDim;
  checkLength(fn, "weights.ln1Gamma", w.ln1Gamma, d);
  checkLength(fn, "weights.ln1Beta", w.ln1Beta, d);
  checkLength(fn, "weights.ln2Gamma", w.ln2Gamma, d);
  checkLength(fn, "weights.ln2Beta", w.ln2Beta, d);
  checkShape(fn, "weights.wq", w.wq, d, d);
  checkShape(fn, "weights.wk", w.wk, d, d);
  checkShape(fn, "weights.wv", w.wv, d, d);
  checkShape(fn, "weights.wo", w.wo, d, d);
  checkLength(fn, "weights.bq", w.bq, d);
  checkLength(fn, "weights.bk", w.bk, d);
  checkLength(fn, "weights.bv", w.bv, d);
  checkLength(fn, "weights.bo", w.bo, d);
  checkShape(fn, "weights.w1", w.w1, d, f);
  checkLength(fn, "weights.b1", w.b1, f);
  checkShape(fn, "weights.w2", w.w2, f, d);
  checkLength(fn, "weights.b2", w.b2, d);
}

//===----------------------------------------------------------------------===//
// Unchecked building blocks
//===----------------------------------------------------------------------===//

/// Eq (63): the root minus the deltas on the path down to the node; 0 for a
/// node without valid tokens.
std::vector<double> meanOf(const Tree &tree, int64_t level, int64_t index) {
  std::vector<double> mean(tree.dim, 0.0);
  if (tree.count[level][index] == 0)
    return mean;
  const std::vector<int64_t> sizes = levelSizes(tree.fanouts);
  mean = tree.root;
  for (int64_t l = tree.levels() - 1; l >= level; --l) {
    const int64_t ancestor = index / (sizes[l] / sizes[level]);
    for (int64_t e = 0; e < tree.dim; ++e)
      mean[e] -= tree.delta[l].at(ancestor, e);
  }
  return mean;
}

Matrix multiply(const Matrix &a, const Matrix &b) {
  Matrix out(a.rows, b.cols);
  for (int64_t i = 0; i < a.rows; ++i)
    for (int64_t k = 0; k < a.cols; ++k) {
      const double aik = a.at(i, k);
      for (int64_t j = 0; j < b.cols; ++j)
        out.at(i, j) += aik * b.at(k, j);
    }
  return out;
}

Matrix transpose(const Matrix &a) {
  Matrix out(a.cols, a.rows);
  for (int64_t i = 0; i < a.rows; ++i)
    for (int64_t j = 0; j < a.cols; ++j)
      out.at(j, i) = a.at(i, j);
  return out;
}

} // namespace

/// x w + b, with w [in][out].
Matrix affine(const Matrix &x, const Matrix &w, const std::vector<double> &b) {
  Matrix out = multiply(x, w);
  for (int64_t i = 0; i < out.rows; ++i)
    for (int64_t j = 0; j < out.cols; ++j)
      out.at(i, j) += b[j];
  return out;
}

Matrix layerNorm(const Matrix &x, const std::vector<double> &gamma,
                 const std::vector<double> &beta) {
  Matrix out(x.rows, x.cols);
  for (int64_t i = 0; i < x.rows; ++i) {
    double mean = 0.0;
    for (int64_t e = 0; e < x.cols; ++e)
      mean += x.at(i, e);
    mean /= static_cast<double>(x.cols);
    double variance = 0.0;
    for (int64_t e = 0; e < x.cols; ++e)
      variance += (x.at(i, e) - mean) * (x.at(i, e) - mean);
    variance /= static_cast<double>(x.cols);
    const double inverseStd = 1.0 / std::sqrt(variance + kLayerNormEps);
    for (int64_t e = 0; e < x.cols; ++e)
      out.at(i, e) = (x.at(i, e) - mean) * inverseStd * gamma[e] + beta[e];
  }
  return out;
}

namespace {

/// Inverse by Gauss-Jordan elimination with partial pivoting.
Matrix gaussJordanInverse(const char *fn, const Matrix &m) {
  const int64_t n = m.rows;
  Matrix a = m, inverse(n, n);
  for (int64_t i = 0; i < n; ++i)
    inverse.at(i, i) = 1.0;
  double scale = 0.0;
  for (double v : m.data)
    scale = std::max(scale, std::fabs(v));
  for (int64_t col = 0; col < n; ++col) {
    int64_t pivot = col;
    for (int64_t r = col + 1; r < n; ++r)
      if (std::fabs(a.at(r, col)) > std::fabs(a.at(pivot, col)))
        pivot = r;
    if (!(std::fabs(a.at(pivot, col)) > 1e-13 * scale))
      fail(fn, ": S S^T is singular at column ", col,
           " (expected an invertible Gram matrix)");
    for (int64_t c = 0; c < n; ++c) {
      std::swap(a.at(col, c), a.at(pivot, c));
      std::swap(inverse.at(col, c), inverse.at(pivot, c));
    }
    const double p = a.at(col, col);
    for (int64_t c = 0; c < n; ++c) {
      a.at(col, c) /= p;
      inverse.at(col, c) /= p;
    }
    for (int64_t r = 0; r < n; ++r) {
      const double factor = a.at(r, col);
      if (r == col || factor == 0.0)
        continue;
      for (int64_t c = 0; c < n; ++c) {
        a.at(r, c) -= factor * a.at(col, c);
        inverse.at(r, c) -= factor * inverse.at(col, c);
      }
    }
  }
  return inverse;
}

} // namespace

//===----------------------------------------------------------------------===//
// Reordering
//===----------------------------------------------------------------------===//

Reorder vipReorder(const std::vector<bool> &vip, int64_t numVip) {
  const int64_t n = ssize(vip);
  if (numVip < 0 || numVip > n)
    fail("vipReorder: numVip is ", numVip, " (expected 0..", n,
         ", the number of tokens)");
  const int64_t vipCount = std::count(vip.begin(), vip.end(), true);
  if (vipCount > numVip)
    fail("vipReorder: ", vipCount, " tokens are VIP but numVip is ", numVip,
         " (expected at most numVip VIP tokens)");
  // VIP tokens, then the others; the first of the others fill spare P slots.
  Reorder reorder;
  for (int64_t i = 0; i < n; ++i)
    if (vip[i])
      reorder.perm.push_back(i);
  for (int64_t i = 0; i < n; ++i)
    if (!vip[i])
      reorder.perm.push_back(i);
  reorder.inverse.assign(n, 0);
  for (int64_t i = 0; i < n; ++i)
    reorder.inverse[reorder.perm[i]] = i;
  return reorder;
}

Matrix gatherRows(const Matrix &x, const std::vector<int64_t> &perm) {
  checkMatrix("gatherRows", "x", x);
  Matrix out(ssize(perm), x.cols);
  for (int64_t i = 0; i < ssize(perm); ++i) {
    if (perm[i] < 0 || perm[i] >= x.rows)
      fail("gatherRows: perm[", i, "] is ", perm[i], " (expected 0..",
           x.rows - 1, ", a row of x)");
    std::copy_n(x.data.begin() + perm[i] * x.cols, x.cols,
                out.data.begin() + i * x.cols);
  }
  return out;
}

//===----------------------------------------------------------------------===//
// Tree state T(C)
//===----------------------------------------------------------------------===//

int64_t Tree::nodeSize(int64_t level) const {
  if (level < 0 || level > levels())
    fail("Tree::nodeSize: level is ", level, " (expected 0..", levels(), ")");
  int64_t size = 1;
  for (int64_t j = 0; j < level; ++j)
    size *= fanouts[j];
  return size;
}

int64_t Tree::nodesAt(int64_t level) const {
  if (level < 0 || level > levels())
    fail("Tree::nodesAt: level is ", level, " (expected 0..", levels(), ")");
  const int64_t size = nodeSize(level);
  if (size < 1 || rows % size != 0)
    fail("Tree::nodesAt: level ", level, " nodes cover ", size,
         " tokens, which does not divide tree.rows = ", rows);
  return rows / size;
}

Tree buildTree(const Matrix &c, const std::vector<bool> &valid,
               const std::vector<int64_t> &fanouts, double meanEps) {
  checkMatrix("buildTree", "C", c);
  if (!(meanEps >= 0.0) || !std::isfinite(meanEps))
    fail("buildTree: meanEps is ", meanEps, " (expected finite and >= 0)");
  checkFanouts("buildTree", fanouts, c.rows,
               "C has " + std::to_string(c.rows) + " rows");
  if (ssize(valid) != c.rows)
    fail("buildTree: valid has ", valid.size(), " entries but C has ", c.rows,
         " rows");

  Tree tree;
  tree.fanouts = fanouts;
  tree.rows = c.rows;
  tree.dim = c.cols;
  tree.valid = valid;
  const int64_t levels = tree.levels(), dim = c.cols;

  // Eq (14), mask-aware: each level's means are the count-weighted means of
  // the level below. With meanEps (the VCC authors' blocks) a node above the
  // tokens has mean (sum of its valid tokens) / (count + meanEps), from the
  // token sums kept alongside.
  std::vector<Matrix> means(levels + 1), sums(levels + 1);
  tree.count.assign(levels + 1, {});
  means[0] = Matrix(c.rows, dim);
  tree.count[0].assign(c.rows, 0);
  for (int64_t i = 0; i < c.rows; ++i) {
    if (!valid[i])
      continue;
    tree.count[0][i] = 1;
    for (int64_t e = 0; e < dim; ++e)
      means[0].at(i, e) = c.at(i, e);
  }
  sums[0] = means[0];
  for (int64_t j = 0; j < levels; ++j) {
    const int64_t f = fanouts[j], nodes = ssize(tree.count[j]) / f;
    means[j + 1] = Matrix(nodes, dim);
    sums[j + 1] = Matrix(nodes, dim);
    tree.count[j + 1].assign(nodes, 0);
    for (int64_t x = 0; x < nodes; ++x) {
      int64_t count = 0;
      for (int64_t child = x * f; child < (x + 1) * f; ++child) {
        const int64_t childCount = tree.count[j][child];
        count += childCount;
        for (int64_t e = 0; e < dim; ++e) {
          means[j + 1].at(x, e) +=
              static_cast<double>(childCount) * means[j].at(child, e);
          sums[j + 1].at(x, e) += sums[j].at(child, e);
        }
      }
      tree.count[j + 1][x] = count;
      for (int64_t e = 0; e < dim; ++e)
        means[j + 1].at(x, e) =
            count == 0 ? 0.0
            : meanEps > 0.0
                ? sums[j + 1].at(x, e) / (static_cast<double>(count) + meanEps)
                : means[j + 1].at(x, e) / static_cast<double>(count);
    }
  }

  // Eq (15): delta = parent mean - node mean.
  tree.root.assign(means[levels].data.begin(), means[levels].data.end());
  tree.delta.resize(levels);
  for (int64_t j = 0; j < levels; ++j) {
    tree.delta[j] = Matrix(means[j].rows, dim);
    for (int64_t x = 0; x < means[j].rows; ++x)
      for (int64_t e = 0; e < dim; ++e)
        tree.delta[j].at(x, e) =
            means[j + 1].at(x / fanouts[j], e) - means[j].at(x, e);
  }
  return tree;
}

std::vector<double> nodeMean(const Tree &tree, int64_t level, int64_t index) {
  checkTree("nodeMean", tree);
  if (level < 0 || level > tree.levels())
    fail("nodeMean: level is ", level, " (expected 0..", tree.levels(), ")");
  if (index < 0 || index >= tree.nodesAt(level))
    fail("nodeMean: index is ", index, " (expected 0..",
         tree.nodesAt(level) - 1, " at level ", level, ")");
  return meanOf(tree, level, index);
}

Matrix levelMeans(const Tree &tree, int64_t level) {
  checkTree("levelMeans", tree);
  if (level < 0 || level > tree.levels())
    fail("levelMeans: level is ", level, " (expected 0..", tree.levels(), ")");
  // Top-down (eq 66): each child is its parent minus its delta, the same
  // subtractions in the same order as meanOf's walk.
  Matrix current(1, tree.dim);
  current.data = tree.root;
  for (int64_t l = tree.levels() - 1; l >= level; --l) {
    const Matrix &delta = tree.delta[l];
    Matrix next(delta.rows, tree.dim);
    for (int64_t x = 0; x < delta.rows; ++x)
      for (int64_t e = 0; e < tree.dim; ++e)
        next.at(x, e) = current.at(x / tree.fanouts[l], e) - delta.at(x, e);
    current = std::move(next);
  }
  for (int64_t x = 0; x < current.rows; ++x)
    if (tree.count[level][x] == 0)
      std::fill_n(current.data.begin() + x * tree.dim, tree.dim, 0.0);
  return current;
}

Matrix materialize(const Tree &tree) { return levelMeans(tree, 0); }

//===----------------------------------------------------------------------===//
// Selection
//===----------------------------------------------------------------------===//

std::vector<double> segmentScores(const std::vector<double> &q,
                                  const std::vector<double> &k, int64_t heads,
                                  int64_t numVip, int64_t candidates,
                                  int64_t headDim, double scale,
                                  const std::vector<bool> &candidateValid,
                                  const std::vector<bool> &vipWeight) {
  const char *fn = "segmentScores";
  if (heads < 1)
    fail(fn, ": heads is ", heads, " (expected >= 1)");
  if (numVip < 1)
    fail(fn, ": numVip is ", numVip,
         " (expected >= 1: the scores average over the VIP rows)");
  if (candidates < 0)
    fail(fn, ": candidates is ", candidates, " (expected >= 0)");
  if (headDim < 1)
    fail(fn, ": headDim is ", headDim, " (expected >= 1)");
  if (!std::isfinite(scale))
    fail(fn, ": scale is ", scale, " (expected a finite number)");
  if (ssize(q) != heads * numVip * headDim)
    fail(fn, ": q has ", q.size(),
         " entries (expected heads * numVip * "
         "headDim = ",
         heads * numVip * headDim, ")");
  if (ssize(k) != heads * candidates * headDim)
    fail(fn, ": k has ", k.size(),
         " entries (expected heads * candidates * "
         "headDim = ",
         heads * candidates * headDim, ")");
  if (ssize(candidateValid) != candidates)
    fail(fn, ": candidateValid has ", candidateValid.size(),
         " entries (expected candidates = ", candidates, ")");
  if (ssize(vipWeight) != numVip)
    fail(fn, ": vipWeight has ", vipWeight.size(),
         " entries (expected numVip = ", numVip, ")");

  std::vector<double> scores(candidates, kNegInf);
  if (std::none_of(candidateValid.begin(), candidateValid.end(),
                   [](bool v) { return v; }))
    return scores;

  std::vector<double> sum(candidates, 0.0), headMean(candidates),
      logits(candidates);
  for (int64_t i = 0; i < numVip; ++i) {
    if (!vipWeight[i])
      continue; // weight 0: contributes nothing
    std::fill(headMean.begin(), headMean.end(), 0.0);
    for (int64_t h = 0; h < heads; ++h) {
      const double *query = q.data() + (h * numVip + i) * headDim;
      double maxLogit = kNegInf;
      for (int64_t j = 0; j < candidates; ++j) {
        if (!candidateValid[j])
          continue;
        const double *key = k.data() + (h * candidates + j) * headDim;
        double dot = 0.0;
        for (int64_t e = 0; e < headDim; ++e)
          dot += query[e] * key[e];
        logits[j] = scale * dot;
        maxLogit = maxKeepingNaN(maxLogit, logits[j]);
      }
      double total = 0.0;
      for (int64_t j = 0; j < candidates; ++j)
        if (candidateValid[j]) {
          logits[j] = std::exp(logits[j] - maxLogit);
          total += logits[j];
        }
      for (int64_t j = 0; j < candidates; ++j)
        if (candidateValid[j])
          headMean[j] += logits[j] / total;
    }
    for (int64_t j = 0; j < candidates; ++j)
      sum[j] += headMean[j] / static_cast<double>(heads);
  }
  for (int64_t j = 0; j < candidates; ++j)
    if (candidateValid[j])
      scores[j] = sum[j] / static_cast<double>(numVip);
  return scores;
}

std::vector<int64_t> topK(const std::vector<double> &scores, int64_t h) {
  if (h < 0 || h > ssize(scores))
    fail("topK: h is ", h, " but there are ", scores.size(),
         " scores (expected 0..", scores.size(), ")");
  for (size_t i = 0; i < scores.size(); ++i)
    if (std::isnan(scores[i]))
      fail("topK: scores[", i, "] is NaN (expected a number or -inf)");
  std::vector<int64_t> order(scores.size());
  std::iota(order.begin(), order.end(), 0);
  // Equal scores (-inf included) go to the lower index first.
  std::sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
    return scores[a] != scores[b] ? scores[a] > scores[b] : a < b;
  });
  order.resize(h);
  std::sort(order.begin(), order.end());
  return order;
}

std::vector<Node> selectJ(const Tree &tree, const std::vector<int64_t> &budgets,
                          LevelScorer score, void *context) {
  const char *fn = "selectJ";
  checkTree(fn, tree);
  if (!score)
    fail(fn, ": score is null (expected a LevelScorer)");
  const int64_t levels = tree.levels();
  if (ssize(budgets) != levels + 1)
    fail(fn, ": budgets has ", budgets.size(), " entries (expected ",
         levels + 1, ", one per level 0..", levels, ")");
  if (budgets[0] != 0)
    fail(fn, ": budgets[0] is ", budgets[0],
         " (expected 0: tokens cannot be split)");
  for (int64_t j = 1; j <= levels; ++j)
    if (budgets[j] < 0)
      fail(fn, ": budgets[", j, "] is ", budgets[j], " (expected >= 0)");

  // inJ[level]: the indices of J's nodes at that level, ascending.
  std::vector<std::vector<int64_t>> inJ(levels + 1);
  inJ[levels] = {0};
  for (int64_t j = levels; j >= 1; --j) {
    const std::vector<int64_t> &candidates = inJ[j];
    const int64_t h = budgets[j];
    if (h > ssize(candidates))
      fail(fn, ": budgets[", j, "] is ", h, " but J holds only ",
           candidates.size(), " level-", j, " node(s) at that point (expected ",
           "at most ", candidates.size(), ")");
    if (h == 0)
      continue;
    // Splitting every candidate needs no ranking, so the scorer is only
    // asked when it decides something.
    std::vector<int64_t> chosen(candidates.size());
    std::iota(chosen.begin(), chosen.end(), 0);
    if (h < ssize(candidates)) {
      const std::vector<double> scores = score(tree, j, candidates, context);
      if (scores.size() != candidates.size())
        fail(fn, ": the scorer returned ", scores.size(), " scores for ",
             candidates.size(), " level-", j, " candidates");
      for (size_t i = 0; i < scores.size(); ++i)
        if (std::isnan(scores[i]))
          fail(fn, ": the scorer returned NaN for level-", j, " node ",
               candidates[i], " (expected a number or -inf)");
      chosen = topK(scores, h);
    }
    std::vector<bool> split(candidates.size(), false);
    for (int64_t position : chosen)
      split[position] = true;
    std::vector<int64_t> kept;
    const int64_t f = tree.fanouts[j - 1];
    for (size_t i = 0; i < candidates.size(); ++i) {
      if (!split[i]) {
        kept.push_back(candidates[i]);
        continue;
      }
      for (int64_t child = candidates[i] * f; child < (candidates[i] + 1) * f;
           ++child)
        inJ[j - 1].push_back(child);
    }
    inJ[j] = std::move(kept);
    std::sort(inJ[j - 1].begin(), inJ[j - 1].end());
  }

  std::vector<Node> result;
  for (int64_t level = 0; level <= levels; ++level)
    for (int64_t index : inJ[level])
      result.push_back({level, index});
  return result;
}

std::vector<Node> twoLevelJ(const Tree &tree,
                            const std::vector<int64_t> &fine) {
  checkTree("twoLevelJ", tree);
  const int64_t blocks = tree.nodesAt(1), k = tree.fanouts[0];
  std::vector<bool> isFine(blocks, false);
  for (size_t i = 0; i < fine.size(); ++i) {
    if (fine[i] < 0 || fine[i] >= blocks)
      fail("twoLevelJ: fine[", i, "] is ", fine[i], " (expected 0..",
           blocks - 1, ", a level-1 block)");
    if (isFine[fine[i]])
      fail("twoLevelJ: fine[", i, "] repeats block ", fine[i],
           " (expected distinct blocks)");
    isFine[fine[i]] = true;
  }
  std::vector<Node> result;
  for (int64_t b = 0; b < blocks; ++b)
    if (isFine[b])
      for (int64_t t = b * k; t < (b + 1) * k; ++t)
        result.push_back({0, t});
  for (int64_t b = 0; b < blocks; ++b)
    if (!isFine[b])
      result.push_back({1, b});
  return result;
}

//===----------------------------------------------------------------------===//
// Compressed sequence, layer, update
//===----------------------------------------------------------------------===//

Compressed assemble(const Matrix &p, const Tree &tree,
                    const std::vector<Node> &j, double biasEps) {
  checkMatrix("assemble", "P", p);
  if (!(biasEps >= 0.0) || !std::isfinite(biasEps))
    fail("assemble: biasEps is ", biasEps, " (expected finite and >= 0)");
  checkTree("assemble", tree);
  if (p.cols != tree.dim)
    fail("assemble: P has ", p.cols, " columns but the tree has dim ",
         tree.dim);
  checkJ("assemble", tree.fanouts, tree.rows, j);

  const std::vector<int64_t> sizes = levelSizes(tree.fanouts);
  Compressed out;
  out.sx = Matrix(p.rows + ssize(j), tree.dim);
  out.keyBias.assign(p.rows + ssize(j), std::log(1.0 + biasEps));
  std::copy(p.data.begin(), p.data.end(), out.sx.data.begin());
  for (int64_t k = 0; k < ssize(j); ++k) {
    const Node &node = j[k];
    const std::vector<double> mean = meanOf(tree, node.level, node.index);
    std::copy(mean.begin(), mean.end(),
              out.sx.data.begin() + (p.rows + k) * tree.dim);
    out.keyBias[p.rows + k] =
        tree.count[node.level][node.index] > 0
            ? std::log(static_cast<double>(sizes[node.level]) + biasEps)
            : kNegInf;
  }
  return out;
}

Matrix transformerLayer(const Matrix &x, const std::vector<double> &keyBias,
                        const LayerWeights &w) {
  const char *fn = "transformerLayer";
  checkMatrix(fn, "x", x);
  checkWeights(fn, w, x.cols);
  if (ssize(keyBias) != x.rows)
    fail(fn, ": keyBias has ", keyBias.size(), " entries but x has ", x.rows,
         " rows");
  for (size_t i = 0; i < keyBias.size(); ++i)
    if (std::isnan(keyBias[i]) || keyBias[i] == -kNegInf)
      fail(fn, ": keyBias[", i, "] is ", keyBias[i],
           " (expected a finite number or -inf)");
  if (x.rows > 0 && std::all_of(keyBias.begin(), keyBias.end(),
                                [](double b) { return b == kNegInf; }))
    fail(fn, ": every keyBias entry is -inf (expected at least one key)");

  const int64_t rows = x.rows, d = w.dim, headDim = w.dim / w.heads;
  const double scale = 1.0 / std::sqrt(static_cast<double>(headDim));
  const Matrix normed = layerNorm(x, w.ln1Gamma, w.ln1Beta);
  const Matrix q = affine(normed, w.wq, w.bq);
  const Matrix k = affine(normed, w.wk, w.bk);
  const Matrix v = affine(normed, w.wv, w.bv);

  Matrix context(rows, d);
  std::vector<double> weights(rows);
  for (int64_t h = 0; h < w.heads; ++h) {
    const int64_t col = h * headDim;
    for (int64_t i = 0; i < rows; ++i) {
      double maxLogit = kNegInf;
      for (int64_t j = 0; j < rows; ++j) {
        if (keyBias[j] == kNegInf)
          continue;
        double dot = 0.0;
        for (int64_t e = 0; e < headDim; ++e)
          dot += q.at(i, col + e) * k.at(j, col + e);
        weights[j] = scale * dot + keyBias[j];
        maxLogit = maxKeepingNaN(maxLogit, weights[j]);
      }
      double total = 0.0;
      for (int64_t j = 0; j < rows; ++j) {
        weights[j] =
            keyBias[j] == kNegInf ? 0.0 : std::exp(weights[j] - maxLogit);
        total += weights[j];
      }
      for (int64_t j = 0; j < rows; ++j) {
        if (weights[j] == 0.0)
          continue;
        const double p = weights[j] / total;
        for (int64_t e = 0; e < headDim; ++e)
          context.at(i, col + e) += p * v.at(j, col + e);
      }
    }
  }
  const Matrix attention = affine(context, w.wo, w.bo);

  Matrix hidden = x;
  for (int64_t i = 0; i < ssize(hidden.data); ++i)
    hidden.data[i] += attention.data[i];
  Matrix inner = affine(layerNorm(hidden, w.ln2Gamma, w.ln2Beta), w.w1, w.b1);
  for (double &value : inner.data)
    value = w.activation == Activation::Gelu
                ? 0.5 * value * (1.0 + std::erf(value / std::sqrt(2.0)))
                : std::max(value, 0.0);
  const Matrix ffn = affine(inner, w.w2, w.b2);
  for (int64_t i = 0; i < ssize(hidden.data); ++i)
    hidden.data[i] += ffn.data[i];
  return hidden;
}

Tree updateTree(const Tree &tree, const std::vector<Node> &j, const Matrix &y,
                int64_t *rewritten, double meanEps) {
  const char *fn = "updateTree";
  if (!(meanEps >= 0.0) || !std::isfinite(meanEps))
    fail(fn, ": meanEps is ", meanEps, " (expected finite and >= 0)");
  checkTree(fn, tree);
  checkJ(fn, tree.fanouts, tree.rows, j);
  checkMatrix(fn, "y", y);
  if (y.rows != ssize(j))
    fail(fn, ": y has ", y.rows, " rows but J has ", j.size(),
         " nodes (expected one row per J node)");
  if (y.cols != tree.dim)
    fail(fn, ": y has ", y.cols, " columns but the tree has dim ", tree.dim);

  const int64_t levels = tree.levels(), dim = tree.dim;
  // fresh[l]: new means of the dirty level-l nodes (rows of clean nodes are
  // unused). A J node without valid tokens keeps mean 0: means are
  // mask-aware, so its layer row is ignored.
  std::vector<Matrix> fresh(levels + 1);
  std::vector<std::vector<bool>> dirty(levels + 1), inJ(levels + 1);
  for (int64_t l = 0; l <= levels; ++l) {
    const int64_t nodes = ssize(tree.count[l]);
    fresh[l] = Matrix(nodes, dim);
    dirty[l].assign(nodes, false);
    inJ[l].assign(nodes, false);
  }
  for (int64_t k = 0; k < ssize(j); ++k) {
    const Node &node = j[k];
    dirty[node.level][node.index] = true;
    inJ[node.level][node.index] = true;
    if (tree.count[node.level][node.index] > 0)
      std::copy_n(y.data.begin() + k * dim, dim,
                  fresh[node.level].data.begin() + node.index * dim);
  }

  Tree out = tree;
  int64_t written = 0;
  for (int64_t l = 0; l < levels; ++l) {
    const int64_t f = tree.fanouts[l];
    // Parents of dirty nodes take the count-weighted mean of their children.
    for (int64_t parent = 0; parent < ssize(dirty[l + 1]); ++parent) {
      bool anyDirtyChild = false;
      for (int64_t c = parent * f; c < (parent + 1) * f; ++c)
        anyDirtyChild = anyDirtyChild || dirty[l][c];
      if (!anyDirtyChild)
        continue;
      const Node parentNode{l + 1, parent};
      if (inJ[l + 1][parent])
        fail(fn, ": internal error: J node ", str(parentNode),
             " has a dirty child (J overlaps itself)");
      int64_t count = 0;
      std::vector<double> sum(dim, 0.0);
      for (int64_t c = parent * f; c < (parent + 1) * f; ++c) {
        // Below a J node nothing is dirty, and a child of a dirty non-J
        // node cannot be below a J node, so a clean child means J broke
        // the sibling property.
        if (!dirty[l][c])
          fail(fn, ": internal error: ", str(Node{l, c}),
               " is a child of the dirty node ", str(parentNode),
               " but is neither dirty nor below a J node (J violates the "
               "sibling property)");
        // A child's token sum: its mean times its count (+ meanEps above
        // the tokens, the inverse of the mean's definition).
        const int64_t childCount = tree.count[l][c];
        count += childCount;
        const double weight =
            childCount > 0
                ? static_cast<double>(childCount) + (l > 0 ? meanEps : 0.0)
                : 0.0;
        for (int64_t e = 0; e < dim; ++e)
          sum[e] += weight * fresh[l].at(c, e);
      }
      for (int64_t e = 0; e < dim; ++e)
        fresh[l + 1].at(parent, e) =
            count > 0 ? sum[e] / (static_cast<double>(count) + meanEps) : 0.0;
      dirty[l + 1][parent] = true;
    }
    // Deltas of dirty nodes; everything strictly below J stays as it was.
    for (int64_t x = 0; x < ssize(dirty[l]); ++x) {
      if (!dirty[l][x])
        continue;
      for (int64_t e = 0; e < dim; ++e)
        out.delta[l].at(x, e) = fresh[l + 1].at(x / f, e) - fresh[l].at(x, e);
      ++written;
    }
  }
  if (!dirty[levels][0])
    fail(fn, ": internal error: the root did not become dirty");
  out.root.assign(fresh[levels].data.begin(), fresh[levels].data.end());
  if (rewritten)
    *rewritten = written;
  return out;
}

//===----------------------------------------------------------------------===//
// Whole layers
//===----------------------------------------------------------------------===//

Matrix naiveVccLayer(const Matrix &x, int64_t numVip,
                     const std::vector<bool> &validC,
                     const std::vector<int64_t> &fanouts,
                     const std::vector<Node> &j, const LayerWeights &w) {
  const char *fn = "naiveVccLayer";
  checkMatrix(fn, "x", x);
  if (numVip < 0 || numVip > x.rows)
    fail(fn, ": numVip is ", numVip, " (expected 0..", x.rows,
         ", the rows of x)");
  const int64_t n = x.rows, nc = x.rows - numVip, dim = x.cols;
  if (ssize(validC) != nc)
    fail(fn, ": validC has ", validC.size(), " entries but C has ", nc,
         " rows (x has ", n, " rows, numVip = ", numVip, ")");
  checkFanouts(fn, fanouts, nc,
               "C has " + std::to_string(nc) + " rows (x has " +
                   std::to_string(n) +
                   " rows, numVip = " + std::to_string(numVip) + ")");
  checkJ(fn, fanouts, nc, j);
  checkWeights(fn, w, dim);

  // Dense S: identity rows for P, then one mask-aware averaging row per J
  // node with valid tokens.
  const std::vector<int64_t> sizes = levelSizes(fanouts);
  std::vector<std::vector<int64_t>> members;
  std::vector<double> bias(numVip, 0.0);
  for (const Node &node : j) {
    const int64_t s = sizes[node.level];
    std::vector<int64_t> tokens;
    for (int64_t t = node.index * s; t < (node.index + 1) * s; ++t)
      if (validC[t])
        tokens.push_back(t);
    if (tokens.empty())
      continue;
    members.push_back(std::move(tokens));
    bias.push_back(std::log(static_cast<double>(s)));
  }
  const int64_t r = numVip + ssize(members);
  Matrix s(r, n);
  for (int64_t i = 0; i < numVip; ++i)
    s.at(i, i) = 1.0;
  for (int64_t row = numVip; row < r; ++row) {
    const std::vector<int64_t> &tokens = members[row - numVip];
    for (int64_t t : tokens)
      s.at(row, numVip + t) = 1.0 / static_cast<double>(tokens.size());
  }

  const Matrix sT = transpose(s);
  const Matrix pseudoInverse =
      multiply(sT, gaussJordanInverse(fn, multiply(s, sT)));
  const Matrix sx = multiply(s, x);
  Matrix update = transformerLayer(sx, bias, w);
  for (int64_t i = 0; i < ssize(update.data); ++i)
    update.data[i] -= sx.data[i];
  Matrix out = multiply(pseudoInverse, update);
  for (int64_t i = 0; i < n; ++i) {
    const bool invalid = i >= numVip && !validC[i - numVip];
    for (int64_t e = 0; e < dim; ++e)
      out.at(i, e) = invalid ? 0.0 : out.at(i, e) + x.at(i, e);
  }
  return out;
}

} // namespace attic::ref::vcc
