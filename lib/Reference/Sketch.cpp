//===- Sketch.cpp - reference semantics of sketched attention -------------===//
//
// See include/attic/Reference/Sketch.h. Written from docs/sketches.md and
// ../shared/papers/skeinformer.md; nothing here is shared with
// lib/Transforms/Sketch.cpp.
//
//===----------------------------------------------------------------------===//

#include "attic/Reference/Sketch.h"
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

[[noreturn]] void fail(const std::string &what) {
  throw std::invalid_argument(what);
}

uint32_t word(uint64_t seed, uint64_t stream, uint64_t counter) {
  uint32_t out[4];
  attic_philox4x32(seed, stream, counter, out);
  return out[0];
}
int64_t indexOf(uint32_t w, int64_t n) {
  return int64_t((uint64_t(w) * uint64_t(n)) >> 32);
}
double gumbel(uint32_t w) {
  double u = (double(w >> 8) + 0.5) * 0x1.0p-24;
  return -std::log(-std::log(u));
}

void expect(const char *name, size_t got, int64_t want) {
  if (int64_t(got) != want)
    fail(std::string(name) + " has " + std::to_string(got) + " elements, " +
         std::to_string(want) + " expected");
}

void checkDims(const Dims &d, const std::vector<double> &q,
               const std::vector<double> &k, const std::vector<double> &v) {
  if (d.batch < 1 || d.heads < 1 || d.queries < 1 || d.keys < 1 || d.dim < 1 ||
      d.valueDim < 1)
    fail("sizes must be positive");
  int64_t bh = d.batch * d.heads;
  expect("query", q.size(), bh * d.queries * d.dim);
  expect("key", k.size(), bh * d.keys * d.dim);
  expect("value", v.size(), bh * d.keys * d.valueDim);
}

double scaleOf(const Dims &d, double scale) {
  return scale > 0 ? scale : 1.0 / std::sqrt(double(d.dim));
}

double dot(const double *a, const double *b, int64_t n) {
  double s = 0;
  for (int64_t i = 0; i < n; ++i)
    s += a[i] * b[i];
  return s;
}

/// softmax(logits) . V over the keys `visible` (all when empty) into out;
/// 0 when no key is visible.
void softmaxRow(const std::vector<double> &logits, const double *value,
                int64_t valueDim, double *out,
                const std::vector<bool> &visible = {}) {
  double top = -kInf;
  for (size_t j = 0; j < logits.size(); ++j)
    if (visible.empty() || visible[j])
      top = std::max(top, logits[j]);
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

/// The `count` largest keys, in decreasing order, lower index first on ties.
std::vector<int64_t> largest(const std::vector<double> &keys, int64_t count) {
  std::vector<int64_t> order(keys.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
    return keys[size_t(a)] > keys[size_t(b)];
  });
  order.resize(size_t(count));
  return order;
}

void checkSkein(const Dims &d, const SkeinOptions &o) {
  if (o.samples < 1 || o.samples > d.keys)
    fail("samples must be in [1, Nk], got " + std::to_string(o.samples));
}

/// One head's sampled keys (and its pilot outputs, pilot[k * Dv + e]).
std::vector<int64_t> headColumns(const Dims &d, const SkeinOptions &o,
                                 const std::vector<int64_t> &pilotRows,
                                 int64_t bh, const double *q, const double *k,
                                 const double *v, std::vector<double> *pilot) {
  const int64_t Nk = d.keys, D = d.dim, Dv = d.valueDim, n = o.samples;
  double scale = scaleOf(d, o.scale);
  std::vector<double> keys(static_cast<size_t>(Nk));
  std::vector<double> colSq(size_t(Nk), 0.0);
  if (!o.uniformSampling) {
    if (pilot)
      pilot->assign(size_t(n * Dv), 0.0);
    std::vector<double> logits(static_cast<size_t>(Nk));
    for (int64_t r = 0; r < n; ++r) {
      const double *qi = q + pilotRows[size_t(r)] * D;
      double top = -kInf;
      for (int64_t j = 0; j < Nk; ++j) {
        logits[size_t(j)] = scale * dot(qi, k + j * D, D);
        top = std::max(top, logits[size_t(j)]);
      }
      double sum = 0;
      for (int64_t j = 0; j < Nk; ++j)
        sum += std::exp(logits[size_t(j)] - top);
      for (int64_t j = 0; j < Nk; ++j) {
        double b = std::exp(logits[size_t(j)] - top) / sum;
        colSq[size_t(j)] += b * b;
        if (pilot)
          for (int64_t e = 0; e < Dv; ++e)
            (*pilot)[size_t(r * Dv + e)] += b * v[j * Dv + e];
      }
    }
  }
  for (int64_t j = 0; j < Nk; ++j) {
    double g = gumbel(word(o.seed, 49, uint64_t(bh * Nk + j)));
    if (o.uniformSampling) {
      keys[size_t(j)] = g;
      continue;
    }
    double w = std::sqrt(colSq[size_t(j)]) *
               std::sqrt(dot(v + j * Dv, v + j * Dv, Dv));
    keys[size_t(j)] = (w > 0 ? std::log(w) : -kInf) + g;
  }
  return largest(keys, n);
}

} // namespace

std::vector<int64_t> skeinformerPilotRows(const Dims &d,
                                          const SkeinOptions &o) {
  checkSkein(d, o);
  std::vector<int64_t> rows;
  for (int64_t k = 0; k < o.samples; ++k)
    rows.push_back(indexOf(word(o.seed, 48, uint64_t(k)), d.queries));
  return rows;
}

std::vector<int64_t> skeinformerColumns(const Dims &d, const SkeinOptions &o,
                                        const std::vector<double> &query,
                                        const std::vector<double> &key,
                                        const std::vector<double> &value) {
  checkDims(d, query, key, value);
  std::vector<int64_t> pilotRows = skeinformerPilotRows(d, o);
  std::vector<int64_t> all;
  for (int64_t bh = 0; bh < d.batch * d.heads; ++bh) {
    std::vector<int64_t> cols =
        headColumns(d, o, pilotRows, bh, query.data() + bh * d.queries * d.dim,
                    key.data() + bh * d.keys * d.dim,
                    value.data() + bh * d.keys * d.valueDim, nullptr);
    all.insert(all.end(), cols.begin(), cols.end());
  }
  return all;
}

std::vector<double> skeinformer(const Dims &d, const SkeinOptions &o,
                                const std::vector<double> &query,
                                const std::vector<double> &key,
                                const std::vector<double> &value) {
  checkDims(d, query, key, value);
  std::vector<int64_t> pilotRows = skeinformerPilotRows(d, o);
  const int64_t Nq = d.queries, Nk = d.keys, D = d.dim, Dv = d.valueDim,
                n = o.samples;
  double scale = scaleOf(d, o.scale);
  std::vector<double> out(size_t(d.batch * d.heads * Nq * Dv));
  for (int64_t bh = 0; bh < d.batch * d.heads; ++bh) {
    const double *q = query.data() + bh * Nq * D;
    const double *k = key.data() + bh * Nk * D;
    const double *v = value.data() + bh * Nk * Dv;
    double *o_ = out.data() + bh * Nq * Dv;
    std::vector<double> pilot;
    std::vector<int64_t> cols =
        headColumns(d, o, pilotRows, bh, q, k, v, &pilot);
    std::vector<bool> sampled(size_t(Nk), false);
    for (int64_t j : cols)
      sampled[size_t(j)] = true;
    // The sum of the values of the keys not sampled.
    std::vector<double> rest(size_t(Dv), 0.0);
    for (int64_t j = 0; j < Nk; ++j)
      if (!sampled[size_t(j)])
        for (int64_t e = 0; e < Dv; ++e)
          rest[size_t(e)] += v[j * Dv + e];
    bool fill = !o.simpleNormalization && n < Nk;
    std::vector<double> logits(static_cast<size_t>(n));
    for (int64_t i = 0; i < Nq; ++i) {
      double top = -kInf, mean = 0;
      for (int64_t t = 0; t < n; ++t) {
        logits[size_t(t)] = scale * dot(q + i * D, k + cols[size_t(t)] * D, D);
        top = std::max(top, logits[size_t(t)]);
        mean += logits[size_t(t)];
      }
      mean /= double(n);
      // Shift by the larger of the sampled maximum and the fill logit.
      if (fill)
        top = std::max(top, mean);
      double denominator = 0;
      std::vector<double> numerator(size_t(Dv), 0.0);
      for (int64_t t = 0; t < n; ++t) {
        double w = std::exp(logits[size_t(t)] - top);
        denominator += w;
        for (int64_t e = 0; e < Dv; ++e)
          numerator[size_t(e)] += w * v[cols[size_t(t)] * Dv + e];
      }
      if (fill) {
        double g = std::exp(mean - top);
        denominator += double(Nk - n) * g;
        for (int64_t e = 0; e < Dv; ++e)
          numerator[size_t(e)] += g * rest[size_t(e)];
      }
      for (int64_t e = 0; e < Dv; ++e)
        o_[i * Dv + e] = numerator[size_t(e)] / denominator;
    }
    if (!o.uniformSampling && o.pilotReuse)
      for (int64_t r = 0; r < n; ++r)
        for (int64_t e = 0; e < Dv; ++e)
          o_[pilotRows[size_t(r)] * Dv + e] = pilot[size_t(r * Dv + e)];
  }
  return out;
}

//===----------------------------------------------------------------------===//
// Informer
//===----------------------------------------------------------------------===//

namespace {

int64_t logCount(int64_t factor, int64_t n) {
  int64_t count = factor * int64_t(std::ceil(std::log(double(n))));
  return std::min(n, std::max<int64_t>(count, 1));
}

void informerCounts(const Dims &d, const InformerOptions &o, int64_t &u,
                    int64_t &U) {
  if (o.factor < 1)
    fail("factor must be positive");
  u = o.active ? o.active : logCount(o.factor, d.queries);
  U = o.samples ? o.samples : logCount(o.factor, d.keys);
  if (u < 1 || u > d.queries)
    fail("active must be in [1, Nq], got " + std::to_string(u));
  if (U < 1 || U > d.keys)
    fail("samples must be in [1, Nk], got " + std::to_string(U));
}

std::vector<int64_t> headActive(const Dims &d, const InformerOptions &o,
                                int64_t u, int64_t U, const double *q,
                                const double *k) {
  std::vector<double> measure(size_t(d.queries));
  for (int64_t i = 0; i < d.queries; ++i) {
    double top = -kInf, sum = 0;
    for (int64_t t = 0; t < U; ++t) {
      int64_t j = indexOf(word(o.seed, 50, uint64_t(i * U + t)), d.keys);
      double s = dot(q + i * d.dim, k + j * d.dim, d.dim);
      top = std::max(top, s);
      sum += s;
    }
    measure[size_t(i)] = top - sum / double(d.keys);
  }
  return largest(measure, u);
}

} // namespace

std::vector<int64_t> informerActive(const Dims &d, const InformerOptions &o,
                                    const std::vector<double> &query,
                                    const std::vector<double> &key) {
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
  checkDims(d, query, key, value);
  int64_t u, U;
  informerCounts(d, o, u, U);
  const int64_t Nq = d.queries, Nk = d.keys, D = d.dim, Dv = d.valueDim;
  double scale = scaleOf(d, o.scale);
  std::vector<double> out(size_t(d.batch * d.heads * Nq * Dv));
  for (int64_t bh = 0; bh < d.batch * d.heads; ++bh) {
    const double *q = query.data() + bh * Nq * D;
    const double *k = key.data() + bh * Nk * D;
    const double *v = value.data() + bh * Nk * Dv;
    double *o_ = out.data() + bh * Nq * Dv;
    std::vector<double> mean(size_t(Dv), 0.0);
    for (int64_t j = 0; j < Nk; ++j)
      for (int64_t e = 0; e < Dv; ++e)
        mean[size_t(e)] += v[j * Dv + e] / double(Nk);
    for (int64_t i = 0; i < Nq; ++i)
      std::copy(mean.begin(), mean.end(), o_ + i * Dv);
    std::vector<int64_t> active =
        u == Nq ? std::vector<int64_t>() : headActive(d, o, u, U, q, k);
    if (u == Nq) {
      active.resize(size_t(Nq));
      std::iota(active.begin(), active.end(), 0);
    }
    std::vector<double> logits(static_cast<size_t>(Nk));
    for (int64_t i : active) {
      for (int64_t j = 0; j < Nk; ++j)
        logits[size_t(j)] = scale * dot(q + i * D, k + j * D, D);
      softmaxRow(logits, v, Dv, o_ + i * Dv);
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
  checkDims(d, query, key, value);
  const int64_t Nq = d.queries, Nk = d.keys, D = d.dim, Dv = d.valueDim,
                P = o.projected, Hp = o.projectionHeads;
  if (P < 1 || (Hp != 1 && Hp != d.heads))
    fail("projection must be [1 or H, P, Nk] with P > 0");
  expect("key projection", e.size(), Hp * P * Nk);
  if (!f.empty())
    expect("value projection", f.size(), Hp * P * Nk);
  if (!mask.empty())
    expect("mask", mask.size(), d.batch * Nk);
  const std::vector<double> &fv = f.empty() ? e : f;
  double scale = scaleOf(d, o.scale);
  std::vector<double> out(size_t(d.batch * d.heads * Nq * Dv));
  for (int64_t b = 0; b < d.batch; ++b)
    for (int64_t h = 0; h < d.heads; ++h) {
      int64_t bh = b * d.heads + h, ph = Hp == 1 ? 0 : h;
      const double *k = key.data() + bh * Nk * D;
      const double *v = value.data() + bh * Nk * Dv;
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
      std::vector<double> logits(static_cast<size_t>(P));
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

std::vector<double> matmul(int64_t m, int64_t k, int64_t n,
                           const std::vector<double> &a,
                           const std::vector<double> &b) {
  std::vector<double> c(size_t(m * n), 0.0);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t t = 0; t < k; ++t)
      for (int64_t j = 0; j < n; ++j)
        c[size_t(i * n + j)] += a[size_t(i * k + t)] * b[size_t(t * n + j)];
  return c;
}

/// c I - x (p x p).
std::vector<double> shifted(int64_t p, double c, std::vector<double> x) {
  for (double &v : x)
    v = -v;
  for (int64_t i = 0; i < p; ++i)
    x[size_t(i * p + i)] += c;
  return x;
}

/// softmax(scale X Y^T) row by row: [n, m].
std::vector<double> softmaxMatrix(int64_t n, int64_t m, int64_t dim,
                                  const double *x, const double *y,
                                  double scale) {
  std::vector<double> s(size_t(n * m));
  for (int64_t i = 0; i < n; ++i) {
    double top = -kInf, sum = 0;
    for (int64_t j = 0; j < m; ++j) {
      s[size_t(i * m + j)] = scale * dot(x + i * dim, y + j * dim, dim);
      top = std::max(top, s[size_t(i * m + j)]);
    }
    for (int64_t j = 0; j < m; ++j) {
      s[size_t(i * m + j)] = std::exp(s[size_t(i * m + j)] - top);
      sum += s[size_t(i * m + j)];
    }
    for (int64_t j = 0; j < m; ++j)
      s[size_t(i * m + j)] /= sum;
  }
  return s;
}

std::vector<double> segmentMeans(const double *x, int64_t n, int64_t dim,
                                 int64_t segments) {
  int64_t length = n / segments;
  std::vector<double> means(size_t(segments * dim), 0.0);
  for (int64_t s = 0; s < segments; ++s)
    for (int64_t t = 0; t < length; ++t)
      for (int64_t e = 0; e < dim; ++e)
        means[size_t(s * dim + e)] +=
            x[(s * length + t) * dim + e] / double(length);
  return means;
}

} // namespace

std::vector<double> pseudoInverse(int64_t p, const std::vector<double> &a,
                                  int64_t iterations) {
  expect("matrix", a.size(), p * p);
  double maxRow = 0, maxColumn = 0;
  for (int64_t i = 0; i < p; ++i) {
    double row = 0, column = 0;
    for (int64_t j = 0; j < p; ++j) {
      row += std::abs(a[size_t(i * p + j)]);
      column += std::abs(a[size_t(j * p + i)]);
    }
    maxRow = std::max(maxRow, row);
    maxColumn = std::max(maxColumn, column);
  }
  std::vector<double> z(size_t(p * p));
  for (int64_t i = 0; i < p; ++i)
    for (int64_t j = 0; j < p; ++j)
      z[size_t(i * p + j)] = a[size_t(j * p + i)] / (maxRow * maxColumn);
  for (int64_t t = 0; t < iterations; ++t) {
    std::vector<double> az = matmul(p, p, p, a, z);
    std::vector<double> inner = matmul(p, p, p, az, shifted(p, 7, az));
    std::vector<double> middle = matmul(p, p, p, az, shifted(p, 15, inner));
    z = matmul(p, p, p, z, shifted(p, 13, middle));
    for (double &v : z)
      v *= 0.25;
  }
  return z;
}

std::vector<double> nystrom(const Dims &d, const NystromOptions &o,
                            const std::vector<double> &query,
                            const std::vector<double> &key,
                            const std::vector<double> &value,
                            const std::vector<double> &conv) {
  checkDims(d, query, key, value);
  const int64_t Nq = d.queries, Nk = d.keys, D = d.dim, Dv = d.valueDim,
                p = o.landmarks, W = o.convWidth;
  if (p < 1 || Nq % p != 0 || Nk % p != 0)
    fail("landmarks must divide Nq and Nk, got " + std::to_string(p));
  if (o.iterations < 1)
    fail("iterations must be positive");
  if (W != 0) {
    if (W < 0 || W % 2 == 0)
      fail("conv width must be odd, got " + std::to_string(W));
    if (Nq != Nk)
      fail("conv needs Nq = Nk");
    expect("conv", conv.size(), d.heads * W);
  }
  double scale = scaleOf(d, o.scale);
  std::vector<double> out(size_t(d.batch * d.heads * Nq * Dv));
  for (int64_t bh = 0; bh < d.batch * d.heads; ++bh) {
    int64_t h = bh % d.heads;
    const double *q = query.data() + bh * Nq * D;
    const double *k = key.data() + bh * Nk * D;
    std::vector<double> v(value.begin() + bh * Nk * Dv,
                          value.begin() + (bh + 1) * Nk * Dv);
    std::vector<double> ql = segmentMeans(q, Nq, D, p);
    std::vector<double> kl = segmentMeans(k, Nk, D, p);
    std::vector<double> k1 = softmaxMatrix(Nq, p, D, q, kl.data(), scale);
    std::vector<double> k2 =
        softmaxMatrix(p, p, D, ql.data(), kl.data(), scale);
    std::vector<double> k3 = softmaxMatrix(p, Nk, D, ql.data(), k, scale);
    std::vector<double> w = matmul(p, Nk, Dv, k3, v);
    std::vector<double> zw =
        matmul(p, p, Dv, pseudoInverse(p, k2, o.iterations), w);
    std::vector<double> x = matmul(Nq, p, Dv, k1, zw);
    if (W != 0)
      for (int64_t i = 0; i < Nq; ++i)
        for (int64_t t = 0; t < W; ++t) {
          int64_t row = i + t - W / 2;
          if (row < 0 || row >= Nk)
            continue;
          for (int64_t e = 0; e < Dv; ++e)
            x[size_t(i * Dv + e)] +=
                conv[size_t(h * W + t)] * v[size_t(row * Dv + e)];
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
  if (d.batch < 1 || d.heads < 1 || Nq < 1 || Nk < 1 || R < 1 || Dv < 1)
    fail("sizes must be positive");
  expect("r1", r1.size(), d.heads * Nq * R);
  expect("r2", r2.size(), d.heads * Nk * R);
  expect("value", value.size(), d.batch * d.heads * Nk * Dv);
  if (!mask.empty())
    expect("mask", mask.size(), d.batch * Nk);
  std::vector<double> out(size_t(d.batch * d.heads * Nq * Dv));
  std::vector<double> logits(static_cast<size_t>(Nk));
  std::vector<bool> visible(static_cast<size_t>(Nk));
  for (int64_t b = 0; b < d.batch; ++b)
    for (int64_t h = 0; h < d.heads; ++h)
      for (int64_t i = 0; i < Nq; ++i) {
        for (int64_t j = 0; j < Nk; ++j) {
          logits[size_t(j)] = o.scale * dot(r1.data() + (h * Nq + i) * R,
                                            r2.data() + (h * Nk + j) * R, R);
          visible[size_t(j)] = (mask.empty() || mask[size_t(b * Nk + j)]) &&
                               (!o.causal || j <= i);
        }
        int64_t bh = b * d.heads + h;
        softmaxRow(logits, value.data() + bh * Nk * Dv, Dv,
                   out.data() + (bh * Nq + i) * Dv, visible);
      }
  return out;
}

std::vector<double> columnSamplingEstimate(int64_t m, int64_t n, int64_t c,
                                           const std::vector<double> &b,
                                           const std::vector<double> &cm,
                                           const std::vector<double> &p,
                                           int64_t d, uint64_t seed) {
  expect("B", b.size(), m * n);
  expect("C", cm.size(), n * c);
  expect("p", p.size(), n);
  if (d < 1)
    fail("d must be positive");
  std::vector<double> cdf(static_cast<size_t>(n));
  std::partial_sum(p.begin(), p.end(), cdf.begin());
  std::vector<double> est(size_t(m * c), 0.0);
  for (int64_t k = 0; k < d; ++k) {
    uint32_t w = word(seed, 51, uint64_t(k));
    double u = (double(w >> 8) + 0.5) * 0x1.0p-24 * cdf.back();
    int64_t i = std::min<int64_t>(
        n - 1, std::lower_bound(cdf.begin(), cdf.end(), u) - cdf.begin());
    double weight = 1.0 / (double(d) * p[size_t(i)]);
    for (int64_t r = 0; r < m; ++r)
      for (int64_t e = 0; e < c; ++e)
        est[size_t(r * c + e)] +=
            weight * b[size_t(r * n + i)] * cm[size_t(i * c + e)];
  }
  return est;
}

} // namespace attic::ref::sketch
