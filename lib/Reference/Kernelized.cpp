//===- Kernelized.cpp - reference kernelized attention ----------*- C++ -*-===//
//
// See include/attic/Reference/Kernelized.h. Plain loops in double; the
// quadratic form sum_j (phi(q_i) . phi(k_j)) v_j over the visible keys.
//
//===----------------------------------------------------------------------===//

#include "attic/Reference/Kernelized.h"

#include "attic/runtime/Runtime.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace attic::ref::kernelized {
namespace {

void expectSize(const char *name, const std::vector<double> &v, int64_t n) {
  if (int64_t(v.size()) != n)
    throw std::invalid_argument(std::string(name) + " has " +
                                std::to_string(v.size()) + " elements, " +
                                std::to_string(n) + " expected");
}

bool randomMap(Map map) {
  return map == Map::PerformerRelu || map == Map::FavorPlus;
}

} // namespace

/// The n-th standard normal of `stream`: Box-Muller on Philox block n / 2
/// (words 0-1 and 2-3 as two 53-bit uniforms), cosine for even n.
double normal(uint64_t seed, uint64_t stream, uint64_t n) {
  uint32_t out[4];
  attic_philox4x32(seed, stream, n / 2, out);
  double a =
      double((uint64_t(out[1]) << 21) | (out[0] >> 11)) / 9007199254740992.0;
  double c =
      double((uint64_t(out[3]) << 21) | (out[2] >> 11)) / 9007199254740992.0;
  double r = std::sqrt(-2.0 * std::log(1.0 - a));
  double t = 6.283185307179586 * c;
  return (n & 1) ? r * std::sin(t) : r * std::cos(t);
}


std::vector<double> randomFeatures(uint64_t seed, int64_t p, int64_t dim) {
  if (p < 1 || dim < 1)
    throw std::invalid_argument("random features need p >= 1 and D >= 1");
  std::vector<double> w(p * dim);
  for (int64_t j = 0; j < p; ++j) {
    int64_t block = j / dim, row = j % dim;
    // Classical Gram-Schmidt of Gaussian row `row` of the block against the
    // block's earlier rows (already orthonormal in w).
    std::vector<double> g(dim);
    for (int64_t c = 0; c < dim; ++c)
      g[c] = normal(seed, 1, uint64_t((block * dim + row) * dim + c));
    std::vector<double> v = g;
    for (int64_t k = j - row; k < j; ++k) {
      double dot = 0;
      for (int64_t c = 0; c < dim; ++c)
        dot += g[c] * w[k * dim + c];
      for (int64_t c = 0; c < dim; ++c)
        v[c] -= dot * w[k * dim + c];
    }
    double norm = 0;
    for (double x : v)
      norm += x * x;
    norm = std::sqrt(norm);
    if (!(norm > 1e-12))
      throw std::invalid_argument("degenerate Gaussian block");
    for (int64_t c = 0; c < dim; ++c)
      w[j * dim + c] = v[c] / norm;
  }
  // Row j scaled by the norm of Gaussian vector j of stream 2 (after the
  // whole block is orthonormal: the Gram-Schmidt above reads unit rows).
  for (int64_t j = 0; j < p; ++j) {
    double s = 0;
    for (int64_t c = 0; c < dim; ++c) {
      double g = normal(seed, 2, uint64_t(j * dim + c));
      s += g * g;
    }
    s = std::sqrt(s);
    for (int64_t c = 0; c < dim; ++c)
      w[j * dim + c] *= s;
  }
  return w;
}

namespace {

/// phi of every row of x [B,H,n,D] -> [B,H,n,F]. FAVOR+ subtracts each
/// row's largest exponent and, when `stabilizers` is given, stores them
/// there ([B,H,n]).
std::vector<double> featureMap(const Options &o, const std::vector<double> &x,
                               int64_t n, const std::vector<double> &w,
                               int64_t p, int64_t &features,
                               std::vector<double> *stabilizers = nullptr) {
  const int64_t D = o.dim, rows = o.batch * o.heads * n;
  std::vector<double> out;
  switch (o.map) {
  case Map::EluPlusOne:
  case Map::Relu:
    features = D;
    out.resize(x.size());
    for (size_t i = 0; i < x.size(); ++i)
      out[i] = o.map == Map::Relu ? std::max(x[i], 0.0)
                                  : (x[i] > 0 ? x[i] + 1.0 : std::exp(x[i]));
    return out;
  case Map::Cosformer: {
    features = 2 * D;
    out.resize(rows * 2 * D);
    double m = double(std::max(o.queries, o.keys));
    for (int64_t r = 0; r < rows; ++r) {
      double a = M_PI / 2.0 * double(r % n + 1) / m;
      for (int64_t c = 0; c < D; ++c) {
        double relu = std::max(x[r * D + c], 0.0);
        out[r * 2 * D + c] = relu * std::sin(a);
        out[r * 2 * D + D + c] = relu * std::cos(a);
      }
    }
    return out;
  }
  case Map::PerformerRelu:
  case Map::FavorPlus:
    break;
  }
  features = p;
  out.resize(rows * p);
  double c = std::pow(double(D), -0.25);
  for (int64_t r = 0; r < rows; ++r) {
    double sq = 0;
    for (int64_t d = 0; d < D; ++d)
      sq += x[r * D + d] * x[r * D + d];
    for (int64_t f = 0; f < p; ++f) {
      double dot = 0;
      for (int64_t d = 0; d < D; ++d)
        dot += x[r * D + d] * w[f * D + d];
      out[r * p + f] = o.map == Map::PerformerRelu
                           ? std::max(c * dot, 0.0) + 1e-3
                           : c * dot - c * c * sq / 2.0; // the exponent
    }
  }
  if (o.map == Map::PerformerRelu)
    return out;
  // FAVOR+: subtract the row's maximum exponent, exponentiate, divide by
  // sqrt(p).
  if (stabilizers)
    stabilizers->assign(rows, 0.0);
  for (int64_t r = 0; r < rows; ++r) {
    double mx = -std::numeric_limits<double>::infinity();
    for (int64_t f = 0; f < p; ++f)
      mx = std::max(mx, out[r * p + f]);
    for (int64_t f = 0; f < p; ++f)
      out[r * p + f] = std::exp(out[r * p + f] - mx) / std::sqrt(double(p));
    if (stabilizers)
      (*stabilizers)[r] = mx;
  }
  return out;
}

} // namespace

std::vector<double> attention(const Options &o, const std::vector<double> &q,
                              const std::vector<double> &k,
                              const std::vector<double> &v,
                              const std::vector<bool> &mask,
                              const std::vector<double> &projection) {
  const int64_t B = o.batch, H = o.heads, Nq = o.queries, Nk = o.keys,
                D = o.dim, Dv = o.valueDim;
  if (B < 1 || H < 1 || Nq < 1 || Nk < 1 || D < 1 || Dv < 1)
    throw std::invalid_argument("sizes must be positive");
  if (o.causal && Nq != Nk)
    throw std::invalid_argument("causal needs Nq == Nk");
  expectSize("query", q, B * H * Nq * D);
  expectSize("key", k, B * H * Nk * D);
  expectSize("value", v, B * H * Nk * Dv);
  if (!mask.empty() && int64_t(mask.size()) != B * Nk)
    throw std::invalid_argument("mask must be [B,Nk]");
  std::vector<double> w = projection;
  int64_t p = 0;
  if (randomMap(o.map)) {
    if (w.empty())
      w = randomFeatures(o.seed, o.features, D);
    if (w.size() % D != 0 || w.empty())
      throw std::invalid_argument("projection must be [p,D]");
    p = int64_t(w.size()) / D;
  }
  int64_t F = 0;
  // FAVOR+'s keys: phi(k_j) exp(c_j) is the unstabilized feature; row i
  // puts its visible keys on the scale of their largest c_j, m_i (a key it
  // cannot see never changes its output, not even through the scale).
  bool favor = o.map == Map::FavorPlus;
  std::vector<double> c;
  std::vector<double> pq = featureMap(o, q, Nq, w, p, F);
  std::vector<double> pk = featureMap(o, k, Nk, w, p, F, favor ? &c : nullptr);
  auto visible = [&](int64_t b, int64_t i, int64_t j) {
    return !(o.causal && j > i) && (mask.empty() || mask[b * Nk + j]);
  };

  std::vector<double> out(B * H * Nq * Dv, 0.0);
  std::vector<double> num(Dv);
  for (int64_t b = 0; b < B; ++b)
    for (int64_t h = 0; h < H; ++h)
      for (int64_t i = 0; i < Nq; ++i) {
        const double *fq = &pq[((b * H + h) * Nq + i) * F];
        std::fill(num.begin(), num.end(), 0.0);
        double den = 0, scale = 0;
        if (favor) {
          scale = -std::numeric_limits<double>::infinity();
          for (int64_t j = 0; j < Nk; ++j)
            if (visible(b, i, j))
              scale = std::max(scale, c[(b * H + h) * Nk + j]);
        }
        for (int64_t j = 0; j < Nk; ++j) {
          if (!visible(b, i, j))
            continue;
          const double *fk = &pk[((b * H + h) * Nk + j) * F];
          double s = 0;
          for (int64_t f = 0; f < F; ++f)
            s += fq[f] * fk[f];
          if (favor)
            s *= std::exp(c[(b * H + h) * Nk + j] - scale);
          den += s;
          const double *vj = &v[((b * H + h) * Nk + j) * Dv];
          for (int64_t e = 0; e < Dv; ++e)
            num[e] += s * vj[e];
        }
        double *o_ = &out[((b * H + h) * Nq + i) * Dv];
        if (o.norm == Norm::Linear) {
          double d = std::max(den, o.eps);
          for (int64_t e = 0; e < Dv; ++e)
            o_[e] = num[e] / d;
        } else {
          double ms = 0;
          for (int64_t e = 0; e < Dv; ++e)
            ms += num[e] * num[e];
          double d = std::sqrt(ms / double(Dv)) + o.eps;
          for (int64_t e = 0; e < Dv; ++e)
            o_[e] = num[e] / d;
        }
      }
  return out;
}

std::vector<double> softmaxAttention(const Options &o,
                                     const std::vector<double> &q,
                                     const std::vector<double> &k,
                                     const std::vector<double> &v,
                                     const std::vector<bool> &mask) {
  const int64_t B = o.batch, H = o.heads, Nq = o.queries, Nk = o.keys,
                D = o.dim, Dv = o.valueDim;
  expectSize("query", q, B * H * Nq * D);
  expectSize("key", k, B * H * Nk * D);
  expectSize("value", v, B * H * Nk * Dv);
  std::vector<double> out(B * H * Nq * Dv, 0.0), s(Nk);
  double scale = 1.0 / std::sqrt(double(D));
  for (int64_t b = 0; b < B; ++b)
    for (int64_t h = 0; h < H; ++h)
      for (int64_t i = 0; i < Nq; ++i) {
        double mx = -std::numeric_limits<double>::infinity();
        for (int64_t j = 0; j < Nk; ++j) {
          bool visible =
              !(o.causal && j > i) && (mask.empty() || mask[b * Nk + j]);
          double dot = 0;
          for (int64_t d = 0; d < D; ++d)
            dot += q[((b * H + h) * Nq + i) * D + d] *
                   k[((b * H + h) * Nk + j) * D + d];
          s[j] =
              visible ? dot * scale : -std::numeric_limits<double>::infinity();
          mx = std::max(mx, s[j]);
        }
        if (mx == -std::numeric_limits<double>::infinity())
          continue;
        double sum = 0;
        for (int64_t j = 0; j < Nk; ++j)
          sum += (s[j] = std::exp(s[j] - mx));
        for (int64_t j = 0; j < Nk; ++j)
          for (int64_t e = 0; e < Dv; ++e)
            out[((b * H + h) * Nq + i) * Dv + e] +=
                s[j] / sum * v[((b * H + h) * Nk + j) * Dv + e];
      }
  return out;
}

} // namespace attic::ref::kernelized
