//===- Sketch.cpp - reference semantics of sketched attention -------------===//
//
// See include/attic/Reference/Sketch.h. Written from docs/sketches.md and
// ../shared/papers/skeinformer.md (sections 5, 6 and 10); nothing here is
// shared with lib/Transforms/Sketch.cpp.
//
//===----------------------------------------------------------------------===//

#include "attic/Reference/Sketch.h"
#include "NanMax.h"
#include "attic/runtime/Runtime.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>

namespace attic::ref::sketch {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// The Philox streams of docs/sketches.md.
constexpr uint64_t kPilotStream = 48, kNoiseStream = 49, kInformerStream = 50,
                   kDrineasStream = 51;

[[noreturn]] void fail(const std::string &what) {
  throw std::invalid_argument(what);
}

std::string str(int64_t x) { return std::to_string(x); }

//===--------------------------------------------------------------------===//
// Draws
//===--------------------------------------------------------------------===//

uint32_t word(uint64_t seed, uint64_t stream, uint64_t counter) {
  uint32_t out[4];
  attic_philox4x32(seed, stream, counter, out);
  return out[0];
}

/// An index in [0, n): (w * n) >> 32 with a 64-bit product.
int64_t indexOf(uint32_t w, int64_t n) {
  return int64_t((uint64_t(w) * uint64_t(n)) >> 32);
}

/// A uniform in (0, 1): ((w >> 8) + 0.5) * 2^-24.
double uniformOf(uint32_t w) { return (double(w >> 8) + 0.5) * 0x1.0p-24; }

/// A standard Gumbel: -ln(-ln u).
double gumbelOf(uint32_t w) { return -std::log(-std::log(uniformOf(w))); }

//===--------------------------------------------------------------------===//
// Checks
//===--------------------------------------------------------------------===//

void expect(const char *name, size_t got, int64_t want) {
  if (int64_t(got) != want)
    fail(std::string(name) + " has " + std::to_string(got) + " elements, " +
         str(want) + " expected");
}

void checkSizes(const Dims &d) {
  if (d.batch < 1 || d.heads < 1 || d.queries < 1 || d.keys < 1 || d.dim < 1 ||
      d.valueDim < 1)
    fail("sizes must be positive (batch, heads, queries, keys, dim, "
         "valueDim)");
}

/// Checks the sizes and the operands given (an empty `value` with
/// `needValue` false is not checked).
void checkOperands(const Dims &d, const std::vector<double> &q,
                   const std::vector<double> &k, const std::vector<double> &v,
                   bool needValue = true) {
  checkSizes(d);
  int64_t bh = d.batch * d.heads;
  expect("query", q.size(), bh * d.queries * d.dim);
  expect("key", k.size(), bh * d.keys * d.dim);
  if (needValue)
    expect("value", v.size(), bh * d.keys * d.valueDim);
}

double scaleOf(const Dims &d, double scale) {
  if (!std::isfinite(scale) || scale < 0)
    fail("scale must be finite and positive (0: 1/sqrt(D)), got " +
         std::to_string(scale));
  return scale > 0 ? scale : 1.0 / std::sqrt(double(d.dim));
}

//===--------------------------------------------------------------------===//
// Small dense helpers
//===--------------------------------------------------------------------===//

double dot(const double *a, const double *b, int64_t n) {
  double s = 0;
  for (int64_t i = 0; i < n; ++i)
    s += a[i] * b[i];
  return s;
}

/// softmax(logits) . value over the keys `visible` (all when empty) into
/// out[0, valueDim); 0 when no key is visible. Stable: shifted by the max.
void softmaxRow(const std::vector<double> &logits, const double *value,
                int64_t valueDim, double *out,
                const std::vector<bool> &visible = {}) {
  double top = -kInf;
  for (size_t j = 0; j < logits.size(); ++j)
    if (visible.empty() || visible[j])
      top = maxKeepingNaN(top, logits[j]);
  std::fill(out, out + valueDim, 0.0);
  if (top == -kInf)
    return;
  double sum = 0;
  for (size_t j = 0; j < logits.size(); ++j) {
    if (!visible.empty() && !visible[j])
      continue;
    double w = std::exp(logits[j] - top);
    sum += w;
    for (int64_t e = 0; e < valueDim; ++e)
      out[e] += w * value[int64_t(j) * valueDim + e];
  }
  for (int64_t e = 0; e < valueDim; ++e)
    out[e] /= sum;
}

/// The indices of the `count` largest keys, in decreasing key order; ties
/// (and -inf keys, which come last) in increasing index order.
std::vector<int64_t> largest(const std::vector<double> &keys, int64_t count) {
  std::vector<int64_t> order(keys.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
    double ka = keys[size_t(a)], kb = keys[size_t(b)];
    return ka > kb || (ka == kb && a < b);
  });
  order.resize(size_t(count));
  return order;
}

/// C = A B with A [m,k], B [k,n].
std::vector<double> matmul(int64_t m, int64_t k, int64_t n,
                           const std::vector<double> &a,
                           const std::vector<double> &b) {
  std::vector<double> c(size_t(m * n), 0.0);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t t = 0; t < k; ++t) {
      double x = a[size_t(i * k + t)];
      for (int64_t j = 0; j < n; ++j)
        c[size_t(i * n + j)] += x * b[size_t(t * n + j)];
    }
  return c;
}

/// c I - X for a p x p X.
std::vector<double> shifted(int64_t p, double c, std::vector<double> x) {
  for (double &v : x)
    v = -v;
  for (int64_t i = 0; i < p; ++i)
    x[size_t(i * p + i)] += c;
  return x;
}

/// softmax(scale X Y^T) row by row: X [n,dim], Y [m,dim], result [n,m].
std::vector<double> softmaxMatrix(int64_t n, int64_t m, int64_t dim,
                                  const double *x, const double *y,
                                  double scale) {
  std::vector<double> s(size_t(n * m));
  for (int64_t i = 0; i < n; ++i) {
    double *row = s.data() + i * m;
    double top = -kInf, sum = 0;
    for (int64_t j = 0; j < m; ++j) {
      row[j] = scale * dot(x + i * dim, y + j * dim, dim);
      top = maxKeepingNaN(top, row[j]);
    }
    for (int64_t j = 0; j < m; ++j) {
      row[j] = std::exp(row[j] - top);
      sum += row[j];
    }
    for (int64_t j = 0; j < m; ++j)
      row[j] /= sum;
  }
  return s;
}

//===--------------------------------------------------------------------===//
// Skeinformer
//===--------------------------------------------------------------------===//

void checkSkein(const Dims &d, const SkeinOptions &o) {
  checkSizes(d);
  if (o.samples < 1 || o.samples > d.keys)
    fail("samples must be in [1, Nk] = [1, " + str(d.keys) + "], got " +
         str(o.samples));
}

/// One head's sampled keys J' (bh = b * H + h) and, with importance
/// sampling, its pilot outputs O_k = B_J[k] V into `pilot` [d, Dv].
std::vector<int64_t> headColumns(const Dims &d, const SkeinOptions &o,
                                 const std::vector<int64_t> &pilotRows,
                                 int64_t bh, const double *q, const double *k,
                                 const double *v, std::vector<double> &pilot) {
  const int64_t Nk = d.keys, D = d.dim, Dv = d.valueDim, n = o.samples;
  const double scale = scaleOf(d, o.scale);
  // ln sum_k B_J[k, j]^2 over the pilot rows, accumulated in log space
  // (colTop + ln colSum): B_J[k, j]^2 underflows double for a key whose
  // logit lies more than about 372 below its row's largest, and its weight
  // is still positive.
  std::vector<double> colTop(size_t(Nk), -kInf), colSum(size_t(Nk), 0.0);
  pilot.assign(size_t(n * Dv), 0.0);
  if (!o.uniformSampling) {
    std::vector<double> logit(static_cast<size_t>(Nk)),
        b(static_cast<size_t>(Nk));
    for (int64_t r = 0; r < n; ++r) {
      const double *qi = q + pilotRows[size_t(r)] * D;
      double top = -kInf, sum = 0;
      for (int64_t j = 0; j < Nk; ++j) {
        logit[size_t(j)] = scale * dot(qi, k + j * D, D);
        top = maxKeepingNaN(top, logit[size_t(j)]);
      }
      for (int64_t j = 0; j < Nk; ++j) {
        b[size_t(j)] = std::exp(logit[size_t(j)] - top);
        sum += b[size_t(j)];
      }
      const double logSum = std::log(sum);
      for (int64_t j = 0; j < Nk; ++j) {
        double bj = b[size_t(j)] / sum;
        for (int64_t e = 0; e < Dv; ++e)
          pilot[size_t(r * Dv + e)] += bj * v[j * Dv + e];
        // 2 ln B_J[r, j] = 2 (logit - top - ln sum), added to the column's
        // log-sum-exp.
        double twice = 2.0 * (logit[size_t(j)] - top - logSum);
        double &cTop = colTop[size_t(j)], &cSum = colSum[size_t(j)];
        if (twice > cTop) {
          cSum = cSum * std::exp(cTop - twice) + 1.0;
          cTop = twice;
        } else {
          cSum += std::exp(twice - cTop);
        }
      }
    }
  }
  // Gumbel-top-k over ln w_j + G_j (G_j alone with uniform sampling).
  std::vector<double> keys(static_cast<size_t>(Nk));
  for (int64_t j = 0; j < Nk; ++j) {
    double g = gumbelOf(word(o.seed, kNoiseStream, uint64_t(bh * Nk + j)));
    if (o.uniformSampling) {
      keys[size_t(j)] = g;
      continue;
    }
    // ln w_j = 0.5 ln sum_k B_J[k, j]^2 + 0.5 ln |v_j|^2; ln 0 = -inf.
    double norm = dot(v + j * Dv, v + j * Dv, Dv);
    double logColumn = 0.5 * (colTop[size_t(j)] + std::log(colSum[size_t(j)]));
    keys[size_t(j)] = (norm > 0 ? logColumn + 0.5 * std::log(norm) : -kInf) + g;
  }
  return largest(keys, n);
}

} // namespace

std::vector<int64_t> skeinformerPilotRows(const Dims &d,
                                          const SkeinOptions &o) {
  checkSkein(d, o);
  std::vector<int64_t> rows;
  rows.reserve(size_t(o.samples));
  for (int64_t k = 0; k < o.samples; ++k)
    rows.push_back(indexOf(word(o.seed, kPilotStream, uint64_t(k)), d.queries));
  return rows;
}

std::vector<int64_t> skeinformerColumns(const Dims &d, const SkeinOptions &o,
                                        const std::vector<double> &query,
                                        const std::vector<double> &key,
                                        const std::vector<double> &value) {
  checkOperands(d, query, key, value);
  std::vector<int64_t> pilotRows = skeinformerPilotRows(d, o);
  std::vector<int64_t> all;
  std::vector<double> pilot;
  for (int64_t bh = 0; bh < d.batch * d.heads; ++bh) {
    std::vector<int64_t> cols =
        headColumns(d, o, pilotRows, bh, query.data() + bh * d.queries * d.dim,
                    key.data() + bh * d.keys * d.dim,
                    value.data() + bh * d.keys * d.valueDim, pilot);
    all.insert(all.end(), cols.begin(), cols.end());
  }
  return all;
}

std::vector<double> skeinformer(const Dims &d, const SkeinOptions &o,
                                const std::vector<double> &query,
                                const std::vector<double> &key,
                                const std::vector<double> &value) {
  checkOperands(d, query, key, value);
  std::vector<int64_t> pilotRows = skeinformerPilotRows(d, o);
  const int64_t Nq = d.queries, Nk = d.keys, D = d.dim, Dv = d.valueDim,
                n = o.samples;
  const double scale = scaleOf(d, o.scale);
  // The fill term: adaptive normalization with keys left out.
  const bool fill = !o.simpleNormalization && n < Nk;
  std::vector<double> out(size_t(d.batch * d.heads * Nq * Dv));
  std::vector<double> logits(static_cast<size_t>(n));
  std::vector<double> numerator(static_cast<size_t>(Dv));
  std::vector<double> pilot;
  for (int64_t bh = 0; bh < d.batch * d.heads; ++bh) {
    const double *q = query.data() + bh * Nq * D;
    const double *k = key.data() + bh * Nk * D;
    const double *v = value.data() + bh * Nk * Dv;
    double *result = out.data() + bh * Nq * Dv;
    std::vector<int64_t> cols =
        headColumns(d, o, pilotRows, bh, q, k, v, pilot);
    // sum_{j not in J'} v_j.
    std::vector<bool> sampled(size_t(Nk), false);
    for (int64_t j : cols)
      sampled[size_t(j)] = true;
    std::vector<double> rest(size_t(Dv), 0.0);
    for (int64_t j = 0; j < Nk; ++j)
      if (!sampled[size_t(j)])
        for (int64_t e = 0; e < Dv; ++e)
          rest[size_t(e)] += v[j * Dv + e];
    for (int64_t i = 0; i < Nq; ++i) {
      // In log space: shift by the max of the sampled logits and g_i.
      double top = -kInf, g = 0;
      for (int64_t t = 0; t < n; ++t) {
        logits[size_t(t)] = scale * dot(q + i * D, k + cols[size_t(t)] * D, D);
        top = maxKeepingNaN(top, logits[size_t(t)]);
        g += logits[size_t(t)];
      }
      g /= double(n);
      if (fill)
        top = maxKeepingNaN(top, g);
      double denominator = 0;
      std::fill(numerator.begin(), numerator.end(), 0.0);
      for (int64_t t = 0; t < n; ++t) {
        double a = std::exp(logits[size_t(t)] - top);
        denominator += a;
        for (int64_t e = 0; e < Dv; ++e)
          numerator[size_t(e)] += a * v[cols[size_t(t)] * Dv + e];
      }
      if (fill) {
        double a = std::exp(g - top);
        denominator += double(Nk - n) * a;
        for (int64_t e = 0; e < Dv; ++e)
          numerator[size_t(e)] += a * rest[size_t(e)];
      }
      for (int64_t e = 0; e < Dv; ++e)
        result[i * Dv + e] = numerator[size_t(e)] / denominator;
    }
    // Pilot reuse (no pilot step with uniform sampling); duplicates write
    // the same row.
    if (!o.uniformSampling && o.pilotReuse)
      for (int64_t r = 0; r < n; ++r)
        for (int64_t e = 0; e < Dv; ++e)
          result[pilotRows[size_t(r)] * Dv + e] = pilot[size_t(r * Dv + e)];
  }
  return out;
}

//===----------------------------------------------------------------------===//
// Informer
//===----------------------------------------------------------------------===//

namespace {

/// min(n, factor * ceil(ln n)), at least 1 (n = 1 gives ln n = 0).
int64_t logCount(int64_t factor, int64_t n) {
  int64_t count = factor * int64_t(std::ceil(std::log(double(n))));
  return std::min(n, std::max<int64_t>(count, 1));
}

/// One head's active queries in decreasing measure order.
std::vector<int64_t> headActive(const Dims &d, const InformerOptions &o,
                                int64_t u, int64_t U, const double *q,
                                const double *k) {
  std::vector<double> measure(size_t(d.queries));
  for (int64_t i = 0; i < d.queries; ++i) {
    double top = -kInf, sum = 0;
    for (int64_t t = 0; t < U; ++t) {
      int64_t j =
          indexOf(word(o.seed, kInformerStream, uint64_t(i * U + t)), d.keys);
      double s = dot(q + i * d.dim, k + j * d.dim, d.dim); // unscaled
      top = std::max(top, s);
      sum += s;
    }
    // Nk M_i = Nk max - sum: the order of M_i, without the division's
    // rounding (equal measures of integer inputs stay equal).
    measure[size_t(i)] = double(d.keys) * top - sum;
  }
  return largest(measure, u);
}

} // namespace

void informerCounts(const Dims &d, const InformerOptions &o, int64_t &u,
                    int64_t &U) {
  checkSizes(d);
  if (o.factor < 1)
    fail("factor must be positive, got " + str(o.factor));
  u = o.active ? o.active : logCount(o.factor, d.queries);
  U = o.samples ? o.samples : logCount(o.factor, d.keys);
  if (u < 1 || u > d.queries)
    fail("active must be in [1, Nq] = [1, " + str(d.queries) + "], got " +
         str(u));
  if (U < 1 || U > d.keys)
    fail("samples must be in [1, Nk] = [1, " + str(d.keys) + "], got " +
         str(U));
}

std::vector<int64_t> informerActive(const Dims &d, const InformerOptions &o,
                                    const std::vector<double> &query,
                                    const std::vector<double> &key) {
  checkOperands(d, query, key, {}, /*needValue=*/false);
  int64_t u, U;
  informerCounts(d, o, u, U);
  std::vector<int64_t> all;
  for (int64_t bh = 0; bh < d.batch * d.heads; ++bh) {
    std::vector<int64_t> a =
        headActive(d, o, u, U, query.data() + bh * d.queries * d.dim,
                   key.data() + bh * d.keys * d.dim);
    all.insert(all.end(), a.begin(), a.end());
  }
  return all;
}

std::vector<double> informer(const Dims &d, const InformerOptions &o,
                             const std::vector<double> &query,
                             const std::vector<double> &key,
                             const std::vector<double> &value) {
  checkOperands(d, query, key, value);
  int64_t u, U;
  informerCounts(d, o, u, U);
  const int64_t Nq = d.queries, Nk = d.keys, D = d.dim, Dv = d.valueDim;
  const double scale = scaleOf(d, o.scale);
  std::vector<double> out(size_t(d.batch * d.heads * Nq * Dv));
  std::vector<double> logits(static_cast<size_t>(Nk));
  for (int64_t bh = 0; bh < d.batch * d.heads; ++bh) {
    const double *q = query.data() + bh * Nq * D;
    const double *k = key.data() + bh * Nk * D;
    const double *v = value.data() + bh * Nk * Dv;
    double *result = out.data() + bh * Nq * Dv;
    std::vector<double> mean(size_t(Dv), 0.0);
    for (int64_t j = 0; j < Nk; ++j)
      for (int64_t e = 0; e < Dv; ++e)
        mean[size_t(e)] += v[j * Dv + e];
    for (double &x : mean)
      x /= double(Nk);
    for (int64_t i = 0; i < Nq; ++i)
      std::copy(mean.begin(), mean.end(), result + i * Dv);
    std::vector<int64_t> active;
    if (u == Nq) { // every query is active: no draw needed
      active.resize(size_t(Nq));
      std::iota(active.begin(), active.end(), 0);
    } else {
      active = headActive(d, o, u, U, q, k);
    }
    for (int64_t i : active) {
      for (int64_t j = 0; j < Nk; ++j)
        logits[size_t(j)] = scale * dot(q + i * D, k + j * D, D);
      softmaxRow(logits, v, Dv, result + i * Dv);
    }
  }
  return out;
}

//===----------------------------------------------------------------------===//
// Linformer
//===----------------------------------------------------------------------===//

std::vector<double>
linformer(const Dims &d, const LinformerOptions &o,
          const std::vector<double> &query, const std::vector<double> &key,
          const std::vector<double> &value, const std::vector<double> &e,
          const std::vector<double> &f, const std::vector<bool> &mask) {
  checkOperands(d, query, key, value);
  const int64_t Nq = d.queries, Nk = d.keys, D = d.dim, Dv = d.valueDim,
                P = o.projected, Hp = o.projectionHeads;
  if (P < 1)
    fail("projected (P) must be positive, got " + str(P));
  if (Hp != 1 && Hp != d.heads)
    fail("projectionHeads (Hp) must be 1 or H = " + str(d.heads) + ", got " +
         str(Hp));
  expect("e (key projection [Hp,P,Nk])", e.size(), Hp * P * Nk);
  if (!f.empty())
    expect("f (value projection [Hp,P,Nk])", f.size(), Hp * P * Nk);
  if (!mask.empty())
    expect("mask", mask.size(), d.batch * Nk);
  const std::vector<double> &fv = f.empty() ? e : f;
  const double scale = scaleOf(d, o.scale);
  std::vector<double> out(size_t(d.batch * d.heads * Nq * Dv));
  std::vector<double> logits(static_cast<size_t>(P));
  for (int64_t b = 0; b < d.batch; ++b)
    for (int64_t h = 0; h < d.heads; ++h) {
      const int64_t bh = b * d.heads + h, ph = Hp == 1 ? 0 : h;
      const double *k = key.data() + bh * Nk * D;
      const double *v = value.data() + bh * Nk * Dv;
      // E K and F V with the padded rows zero.
      std::vector<double> pk(size_t(P * D), 0.0), pv(size_t(P * Dv), 0.0);
      for (int64_t p = 0; p < P; ++p)
        for (int64_t j = 0; j < Nk; ++j) {
          if (!mask.empty() && !mask[size_t(b * Nk + j)])
            continue;
          double we = e[size_t((ph * P + p) * Nk + j)];
          double wf = fv[size_t((ph * P + p) * Nk + j)];
          for (int64_t x = 0; x < D; ++x)
            pk[size_t(p * D + x)] += we * k[j * D + x];
          for (int64_t x = 0; x < Dv; ++x)
            pv[size_t(p * Dv + x)] += wf * v[j * Dv + x];
        }
      for (int64_t i = 0; i < Nq; ++i) {
        const double *qi = query.data() + (bh * Nq + i) * D;
        for (int64_t p = 0; p < P; ++p)
          logits[size_t(p)] = scale * dot(qi, pk.data() + p * D, D);
        softmaxRow(logits, pv.data(), Dv, out.data() + (bh * Nq + i) * Dv);
      }
    }
  return out;
}

//===----------------------------------------------------------------------===//
// Nystromformer
//===----------------------------------------------------------------------===//

namespace {

/// The means of `segments` consecutive blocks of n / segments rows.
std::vector<double> segmentMeans(const double *x, int64_t n, int64_t dim,
                                 int64_t segments) {
  const int64_t length = n / segments;
  std::vector<double> means(size_t(segments * dim), 0.0);
  for (int64_t s = 0; s < segments; ++s) {
    for (int64_t t = 0; t < length; ++t)
      for (int64_t e = 0; e < dim; ++e)
        means[size_t(s * dim + e)] += x[(s * length + t) * dim + e];
    for (int64_t e = 0; e < dim; ++e)
      means[size_t(s * dim + e)] /= double(length);
  }
  return means;
}

} // namespace

std::vector<double> pseudoInverse(int64_t p, const std::vector<double> &a,
                                  int64_t iterations) {
  if (p < 1)
    fail("p must be positive, got " + str(p));
  if (iterations < 0)
    fail("iterations must be non-negative, got " + str(iterations));
  expect("a", a.size(), p * p);
  // max_j sum_i |A_ij| (columns) and max_i sum_j |A_ij| (rows).
  double maxColumn = 0, maxRow = 0;
  for (int64_t i = 0; i < p; ++i) {
    double row = 0, column = 0;
    for (int64_t j = 0; j < p; ++j) {
      row += std::abs(a[size_t(i * p + j)]);
      column += std::abs(a[size_t(j * p + i)]);
    }
    maxRow = maxKeepingNaN(maxRow, row);
    maxColumn = maxKeepingNaN(maxColumn, column);
  }
  // A NaN in `a` (a NaN key or query reaches every landmark logit of its
  // row) makes every element NaN, as in the compiled iteration; the
  // reference refused such input before 2026-11-30.
  if (!std::isnan(maxRow * maxColumn) &&
      (!(maxRow > 0) || !std::isfinite(maxRow * maxColumn)))
    fail("a must be finite and not zero");
  std::vector<double> z(size_t(p * p));
  for (int64_t i = 0; i < p; ++i)
    for (int64_t j = 0; j < p; ++j)
      z[size_t(i * p + j)] = a[size_t(j * p + i)] / (maxColumn * maxRow);
  for (int64_t t = 0; t < iterations; ++t) {
    std::vector<double> az = matmul(p, p, p, a, z);
    std::vector<double> inner = matmul(p, p, p, az, shifted(p, 7, az));
    std::vector<double> middle = matmul(p, p, p, az, shifted(p, 15, inner));
    z = matmul(p, p, p, z, shifted(p, 13, middle));
    for (double &x : z)
      x *= 0.25;
  }
  return z;
}

std::vector<double> nystrom(const Dims &d, const NystromOptions &o,
                            const std::vector<double> &query,
                            const std::vector<double> &key,
                            const std::vector<double> &value,
                            const std::vector<double> &conv) {
  checkOperands(d, query, key, value);
  const int64_t Nq = d.queries, Nk = d.keys, D = d.dim, Dv = d.valueDim,
                p = o.landmarks, W = o.convWidth;
  if (p < 1 || Nq % p != 0 || Nk % p != 0)
    fail("landmarks must be positive and divide Nq = " + str(Nq) +
         " and Nk = " + str(Nk) + ", got " + str(p));
  if (o.iterations < 1)
    fail("iterations must be positive, got " + str(o.iterations));
  if (W != 0) {
    if (W < 0 || W % 2 == 0)
      fail("convWidth must be odd, got " + str(W));
    if (Nq != Nk)
      fail("conv needs Nq = Nk, got " + str(Nq) + " and " + str(Nk));
    expect("conv [H,W]", conv.size(), d.heads * W);
  } else if (!conv.empty()) {
    fail("conv given with convWidth 0");
  }
  const double scale = scaleOf(d, o.scale);
  std::vector<double> out(size_t(d.batch * d.heads * Nq * Dv));
  for (int64_t bh = 0; bh < d.batch * d.heads; ++bh) {
    const int64_t h = bh % d.heads;
    const double *q = query.data() + bh * Nq * D;
    const double *k = key.data() + bh * Nk * D;
    std::vector<double> v(value.begin() + bh * Nk * Dv,
                          value.begin() + (bh + 1) * Nk * Dv);
    std::vector<double> qt = segmentMeans(q, Nq, D, p);
    std::vector<double> kt = segmentMeans(k, Nk, D, p);
    std::vector<double> f1 = softmaxMatrix(Nq, p, D, q, kt.data(), scale);
    std::vector<double> a = softmaxMatrix(p, p, D, qt.data(), kt.data(), scale);
    std::vector<double> f3 = softmaxMatrix(p, Nk, D, qt.data(), k, scale);
    // F1 (pinv(A) (F3 V)).
    std::vector<double> w = matmul(p, Nk, Dv, f3, v);
    std::vector<double> zw =
        matmul(p, p, Dv, pseudoInverse(p, a, o.iterations), w);
    std::vector<double> x = matmul(Nq, p, Dv, f1, zw);
    if (W != 0)
      for (int64_t i = 0; i < Nq; ++i)
        for (int64_t t = 0; t < W; ++t) {
          int64_t row = i + t - W / 2;
          if (row < 0 || row >= Nk)
            continue;
          double c = conv[size_t(h * W + t)];
          for (int64_t e = 0; e < Dv; ++e)
            x[size_t(i * Dv + e)] += c * v[size_t(row * Dv + e)];
        }
    std::copy(x.begin(), x.end(), out.begin() + bh * Nq * Dv);
  }
  return out;
}

//===----------------------------------------------------------------------===//
// Synthesizer
//===----------------------------------------------------------------------===//

std::vector<double> synthesizer(const Dims &d, const SynthesizerOptions &o,
                                const std::vector<double> &r1,
                                const std::vector<double> &r2,
                                const std::vector<double> &value,
                                const std::vector<bool> &mask) {
  const int64_t Nq = d.queries, Nk = d.keys, R = o.rank, Dv = d.valueDim;
  if (d.batch < 1 || d.heads < 1 || Nq < 1 || Nk < 1 || Dv < 1)
    fail("sizes must be positive (batch, heads, queries, keys, valueDim)");
  if (R < 1)
    fail("rank must be positive, got " + str(R));
  if (!std::isfinite(o.scale) || o.scale <= 0)
    fail("scale must be finite and positive, got " + std::to_string(o.scale));
  expect("r1 [H,Nq,rank]", r1.size(), d.heads * Nq * R);
  expect("r2 [H,Nk,rank]", r2.size(), d.heads * Nk * R);
  expect("value", value.size(), d.batch * d.heads * Nk * Dv);
  if (!mask.empty())
    expect("mask", mask.size(), d.batch * Nk);
  std::vector<double> out(size_t(d.batch * d.heads * Nq * Dv));
  std::vector<double> logits(static_cast<size_t>(Nk));
  std::vector<bool> visible(static_cast<size_t>(Nk));
  for (int64_t b = 0; b < d.batch; ++b)
    for (int64_t h = 0; h < d.heads; ++h) {
      const int64_t bh = b * d.heads + h;
      for (int64_t i = 0; i < Nq; ++i) {
        for (int64_t j = 0; j < Nk; ++j) {
          logits[size_t(j)] = o.scale * dot(r1.data() + (h * Nq + i) * R,
                                            r2.data() + (h * Nk + j) * R, R);
          visible[size_t(j)] = (mask.empty() || mask[size_t(b * Nk + j)]) &&
                               (!o.causal || j <= i);
        }
        softmaxRow(logits, value.data() + bh * Nk * Dv, Dv,
                   out.data() + (bh * Nq + i) * Dv, visible);
      }
    }
  return out;
}

//===----------------------------------------------------------------------===//
// Drineas et al.'s estimator
//===----------------------------------------------------------------------===//

std::vector<double> columnSamplingEstimate(int64_t m, int64_t n, int64_t c,
                                           const std::vector<double> &b,
                                           const std::vector<double> &cm,
                                           const std::vector<double> &p,
                                           int64_t d, uint64_t seed) {
  if (m < 1 || n < 1 || c < 1)
    fail("sizes must be positive (m, n, c)");
  if (d < 1)
    fail("d must be positive, got " + str(d));
  expect("b [m,n]", b.size(), m * n);
  expect("cm [n,c]", cm.size(), n * c);
  expect("p", p.size(), n);
  for (double x : p)
    if (!(x >= 0) || !std::isfinite(x))
      fail("p must be non-negative and finite");
  std::vector<double> cdf(static_cast<size_t>(n));
  std::partial_sum(p.begin(), p.end(), cdf.begin());
  const double total = cdf.back();
  if (!(std::abs(total - 1) <= 1e-9))
    fail("p must sum to 1, sums to " + std::to_string(total));
  std::vector<double> est(size_t(m * c), 0.0);
  for (int64_t k = 0; k < d; ++k) {
    // u * total <= total: some cdf entry is >= it, and the first such one
    // has p > 0 (a zero p_i repeats the entry before it; cdf_0 > 0 then).
    double u = uniformOf(word(seed, kDrineasStream, uint64_t(k))) * total;
    int64_t i = std::lower_bound(cdf.begin(), cdf.end(), u) - cdf.begin();
    i = std::min(i, n - 1);
    double weight = 1.0 / (double(d) * p[size_t(i)]);
    for (int64_t r = 0; r < m; ++r) {
      double x = weight * b[size_t(r * n + i)];
      for (int64_t e = 0; e < c; ++e)
        est[size_t(r * c + e)] += x * cm[size_t(i * c + e)];
    }
  }
  return est;
}

} // namespace attic::ref::sketch
