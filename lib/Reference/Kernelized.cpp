//===- Kernelized.cpp - reference kernelized attention ----------*- C++ -*-===//
//
// See include/attic/Reference/Kernelized.h. Plain loops in double; the
// quadratic form sum_j (phi(q_i) . phi(k_j)) v_j over the visible keys.
//
//===----------------------------------------------------------------------===//

#include "attic/Reference/Kernelized.h"

#include "NanMax.h"
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

/// The state primitives' optional mask [B,N] and stabilizer [B*H,N].
void expectMaskAndStabilizer(const std::vector<bool> &mask,
                             const std::vector<double> &stabilizer, int64_t B,
                             int64_t H, int64_t n) {
  if (!mask.empty() && int64_t(mask.size()) != B * n)
    throw std::invalid_argument("mask must be [B,N]");
  if (!stabilizer.empty())
    expectSize("stabilizer", stabilizer, B * H * n);
}

/// FAVOR+'s scale for a row that sees the unmasked keys among the first
/// `count` of head `head` (batch `b`, n keys): the largest of their c_j
/// (-inf where there is none).
double largestScale(const std::vector<double> &c, const std::vector<bool> &mask,
                    int64_t b, int64_t head, int64_t n, int64_t count) {
  double top = -std::numeric_limits<double>::infinity();
  for (int64_t j = 0; j < count; ++j)
    if (mask.empty() || mask[b * n + j])
      top = maxKeepingNaN(top, c[head * n + j]);
  return top;
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

std::vector<double> featureMap(Map map, const std::vector<double> &x, int64_t n,
                               int64_t D, double period,
                               const std::vector<double> &w, int64_t &features,
                               std::vector<double> *stabilizers) {
  if (D < 1 || n < 1 || x.size() % size_t(n * D) != 0)
    throw std::invalid_argument("feature map: x must be [rows, D] with rows "
                                "a multiple of n");
  const int64_t rows = int64_t(x.size()) / D;
  std::vector<double> out;
  switch (map) {
  case Map::EluPlusOne:
  case Map::Relu:
    features = D;
    out.resize(x.size());
    for (size_t i = 0; i < x.size(); ++i)
      out[i] = map == Map::Relu ? std::max(x[i], 0.0)
                                : (x[i] > 0 ? x[i] + 1.0 : std::exp(x[i]));
    return out;
  case Map::Cosformer: {
    if (!(period > 0))
      throw std::invalid_argument("cosformer needs a positive period");
    features = 2 * D;
    out.resize(rows * 2 * D);
    for (int64_t r = 0; r < rows; ++r) {
      double a = M_PI / 2.0 * double(r % n + 1) / period;
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
  if (w.empty() || w.size() % size_t(D) != 0)
    throw std::invalid_argument("projection must be [p,D]");
  const int64_t p = int64_t(w.size()) / D;
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
      out[r * p + f] = map == Map::PerformerRelu
                           ? std::max(c * dot, 0.0) + 1e-3
                           : c * dot - c * c * sq / 2.0; // the exponent
    }
  }
  if (map == Map::PerformerRelu)
    return out;
  // FAVOR+: subtract the row's maximum exponent, exponentiate, divide by
  // sqrt(p).
  if (stabilizers)
    stabilizers->assign(rows, 0.0);
  for (int64_t r = 0; r < rows; ++r) {
    double mx = -std::numeric_limits<double>::infinity();
    for (int64_t f = 0; f < p; ++f)
      mx = maxKeepingNaN(mx, out[r * p + f]);
    for (int64_t f = 0; f < p; ++f)
      out[r * p + f] = std::exp(out[r * p + f] - mx) / std::sqrt(double(p));
    if (stabilizers)
      (*stabilizers)[r] = mx;
  }
  return out;
}

void stateReduce(int64_t B, int64_t H, int64_t n, int64_t F, int64_t Dv,
                 const std::vector<double> &features,
                 const std::vector<double> &value,
                 const std::vector<bool> &mask,
                 const std::vector<double> &stabilizer,
                 std::vector<double> &state, std::vector<double> &normalizer) {
  expectSize("features", features, B * H * n * F);
  expectSize("value", value, B * H * n * Dv);
  expectMaskAndStabilizer(mask, stabilizer, B, H, n);
  state.assign(size_t(B * H * F * Dv), 0.0);
  normalizer.assign(size_t(B * H * F), 0.0);
  for (int64_t b = 0; b < B; ++b)
    for (int64_t h = 0; h < H; ++h) {
      int64_t head = b * H + h;
      auto real = [&](int64_t j) { return mask.empty() || mask[b * n + j]; };
      double top = stabilizer.empty()
                       ? 0.0
                       : largestScale(stabilizer, mask, b, head, n, n);
      for (int64_t j = 0; j < n; ++j) {
        if (!real(j))
          continue;
        double s =
            stabilizer.empty() ? 1.0 : std::exp(stabilizer[head * n + j] - top);
        const double *phi = &features[(head * n + j) * F];
        const double *v = &value[(head * n + j) * Dv];
        for (int64_t f = 0; f < F; ++f) {
          normalizer[head * F + f] += s * phi[f];
          for (int64_t e = 0; e < Dv; ++e)
            state[(head * F + f) * Dv + e] += s * phi[f] * v[e];
        }
      }
    }
}

void stateScan(int64_t B, int64_t H, int64_t n, int64_t F, int64_t Dv,
               const std::vector<double> &queryFeatures,
               const std::vector<double> &keyFeatures,
               const std::vector<double> &value, const std::vector<bool> &mask,
               const std::vector<double> &stabilizer,
               std::vector<double> &numerator,
               std::vector<double> &denominator) {
  expectSize("query features", queryFeatures, B * H * n * F);
  expectSize("key features", keyFeatures, B * H * n * F);
  expectSize("value", value, B * H * n * Dv);
  expectMaskAndStabilizer(mask, stabilizer, B, H, n);
  numerator.assign(size_t(B * H * n * Dv), 0.0);
  denominator.assign(size_t(B * H * n), 0.0);
  for (int64_t b = 0; b < B; ++b)
    for (int64_t h = 0; h < H; ++h) {
      int64_t head = b * H + h;
      auto real = [&](int64_t j) { return mask.empty() || mask[b * n + j]; };
      for (int64_t i = 0; i < n; ++i) {
        double top = stabilizer.empty()
                         ? 0.0
                         : largestScale(stabilizer, mask, b, head, n, i + 1);
        const double *fq = &queryFeatures[(head * n + i) * F];
        for (int64_t j = 0; j <= i; ++j) {
          if (!real(j))
            continue;
          const double *fk = &keyFeatures[(head * n + j) * F];
          double s = 0;
          for (int64_t f = 0; f < F; ++f)
            s += fq[f] * fk[f];
          if (!stabilizer.empty())
            s *= std::exp(stabilizer[head * n + j] - top);
          denominator[head * n + i] += s;
          const double *v = &value[(head * n + j) * Dv];
          for (int64_t e = 0; e < Dv; ++e)
            numerator[(head * n + i) * Dv + e] += s * v[e];
        }
      }
    }
}

namespace {

/// attention()'s feature map of q or k ([B,H,n,D]): cosFormer's period is
/// max(Nq, Nk).
std::vector<double> featureMap(const Options &o, const std::vector<double> &x,
                               int64_t n, const std::vector<double> &w,
                               int64_t &features,
                               std::vector<double> *stabilizers = nullptr) {
  return featureMap(o.map, x, n, o.dim, double(std::max(o.queries, o.keys)), w,
                    features, stabilizers);
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
  if (randomMap(o.map)) {
    if (w.empty())
      w = randomFeatures(o.seed, o.features, D);
    if (w.size() % D != 0 || w.empty())
      throw std::invalid_argument("projection must be [p,D]");
  }
  int64_t F = 0;
  // FAVOR+'s keys: phi(k_j) exp(c_j) is the unstabilized feature; row i
  // puts its visible keys on the scale of their largest c_j, m_i (a key it
  // cannot see never changes its output, not even through the scale).
  bool favor = o.map == Map::FavorPlus;
  std::vector<double> c;
  std::vector<double> pq = featureMap(o, q, Nq, w, F);
  std::vector<double> pk = featureMap(o, k, Nk, w, F, favor ? &c : nullptr);
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
        double den = 0;
        double scale = favor ? largestScale(c, mask, b, b * H + h, Nk,
                                            o.causal ? i + 1 : Nk)
                             : 0.0;
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
          mx = maxKeepingNaN(mx, s[j]);
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
