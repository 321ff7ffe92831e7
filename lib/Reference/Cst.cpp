//===- Cst.cpp - reference semantics of composite slice attention ---------===//

#include "attic/Reference/Cst.h"
#include "NanMax.h"

#include <cmath>
#include <stdexcept>
#include <string>

using namespace attic::ref::cst;

namespace {

using Row = std::vector<double>;

/// (a + b) W for rows a, b of width D (b may be empty: zero).
Row project(const double *a, const double *b, const std::vector<double> &w,
            int64_t dim) {
  Row out(dim, 0.0);
  for (int64_t i = 0; i < dim; ++i) {
    double v = a[i] + (b ? b[i] : 0.0);
    for (int64_t j = 0; j < dim; ++j)
      out[j] += v * w[i * dim + j];
  }
  return out;
}

/// One head of softmax attention for one query over the keys with
/// visible[e]; writes (adds) into out[h d, (h + 1) d). No visible key: 0.
void attendHead(const Row &q, const std::vector<Row> &keys,
                const std::vector<Row> &values,
                const std::vector<bool> &visible, int64_t head, int64_t width,
                Row &out) {
  double scale = 1.0 / std::sqrt(static_cast<double>(width));
  std::vector<double> logits(keys.size(), 0.0);
  double maximum = -INFINITY;
  for (size_t e = 0; e < keys.size(); ++e) {
    if (!visible[e])
      continue;
    double dot = 0.0;
    for (int64_t c = 0; c < width; ++c)
      dot += q[head * width + c] * keys[e][head * width + c];
    logits[e] = dot * scale;
    maximum = attic::ref::maxKeepingNaN(maximum, logits[e]);
  }
  if (maximum == -INFINITY)
    return;
  double sum = 0.0;
  for (size_t e = 0; e < keys.size(); ++e)
    if (visible[e])
      sum += std::exp(logits[e] - maximum);
  for (size_t e = 0; e < keys.size(); ++e) {
    if (!visible[e])
      continue;
    double p = std::exp(logits[e] - maximum) / sum;
    for (int64_t c = 0; c < width; ++c)
      out[head * width + c] += p * values[e][head * width + c];
  }
}

void require(bool ok, const std::string &message) {
  if (!ok)
    throw std::invalid_argument("slice attention: " + message);
}

} // namespace

std::vector<double> attic::ref::cst::sliceAttention(
    const Options &o, const std::vector<double> &x,
    const std::vector<double> &wq, const std::vector<double> &wk,
    const std::vector<double> &wv, const std::vector<double> &posLocal,
    const std::vector<double> &posGlobal, const std::vector<bool> &mask) {
  const int64_t B = o.batch, N = o.tokens, D = o.dim, L = o.slice, H = o.heads;
  require(B > 0 && N > 0 && D > 0 && L > 0 && H > 0, "sizes must be positive");
  require(N % L == 0, "N must be a multiple of L");
  require(o.extension == 1 || o.extension == 3, "alpha must be 1 or 3");
  require(D % H == 0, "D must be a multiple of heads");
  const int64_t E = (o.extension - 1) * L / 2;
  const int64_t W = o.causal ? E + L : 2 * E + L;
  const int64_t n = N / L, d = D / H;
  require(static_cast<int64_t>(x.size()) == B * N * D, "x must be [B,N,D]");
  for (const auto *w : {&wq, &wk, &wv})
    require(static_cast<int64_t>(w->size()) == D * D, "weights must be [D,D]");
  require(static_cast<int64_t>(posLocal.size()) == W * D,
          "pos_local must be [W,D]");
  require(static_cast<int64_t>(posGlobal.size()) == n * D,
          "pos_global must be [N/L,D]");
  require(mask.empty() || static_cast<int64_t>(mask.size()) == B * N,
          "mask must be [B,N] or empty");
  auto real = [&](int64_t b, int64_t t) {
    return mask.empty() || mask[b * N + t];
  };

  std::vector<double> result(B * N * D, 0.0);
  for (int64_t b = 0; b < B; ++b) {
    const double *xb = x.data() + b * N * D;
    std::vector<Row> local(N, Row(D, 0.0));
    // Local attention, slice by slice, over the extended window S_ext[s]
    // (Eq. 11; Eq. 12 when causal): window position e holds token
    // s L - E + e, or nothing (masked) outside the sequence.
    for (int64_t s = 0; s < n; ++s) {
      std::vector<Row> keys(W), values(W);
      std::vector<bool> inWindow(W, false);
      for (int64_t e = 0; e < W; ++e) {
        int64_t t = s * L - E + e;
        if (t < 0 || t >= N || !real(b, t)) {
          keys[e] = values[e] = Row(D, 0.0);
          continue;
        }
        inWindow[e] = true;
        keys[e] = project(xb + t * D, posLocal.data() + e * D, wk, D);
        values[e] = project(xb + t * D, nullptr, wv, D);
      }
      for (int64_t j = 0; j < L; ++j) {
        int64_t i = s * L + j;
        // The query is at window position E + j and shares its embedding.
        Row q = project(xb + i * D, posLocal.data() + (E + j) * D, wq, D);
        std::vector<bool> visible = inWindow;
        if (o.causal)
          for (int64_t e = E + j + 1; e < W; ++e)
            visible[e] = false;
        for (int64_t h = 0; h < H; ++h)
          attendHead(q, keys, values, visible, h, d, local[i]);
      }
    }
    // Masked mean pooling of the local output into slice summaries.
    std::vector<Row> summary(n, Row(D, 0.0));
    std::vector<int64_t> count(n, 0);
    for (int64_t s = 0; s < n; ++s) {
      for (int64_t j = 0; j < L; ++j) {
        if (!real(b, s * L + j))
          continue;
        ++count[s];
        for (int64_t c = 0; c < D; ++c)
          summary[s][c] += local[s * L + j][c];
      }
      for (int64_t c = 0; c < D; ++c)
        summary[s][c] /= static_cast<double>(std::max<int64_t>(count[s], 1));
    }
    // Global attention over the summaries (Eq. 15), same weights.
    std::vector<Row> gq(n), gk(n), gv(n);
    for (int64_t s = 0; s < n; ++s) {
      gq[s] = project(summary[s].data(), posGlobal.data() + s * D, wq, D);
      gk[s] = project(summary[s].data(), posGlobal.data() + s * D, wk, D);
      gv[s] = project(summary[s].data(), nullptr, wv, D);
    }
    std::vector<Row> global(n, Row(D, 0.0));
    for (int64_t t = 0; t < n; ++t) {
      std::vector<bool> visible(n, false);
      const Row *query = &gq[t];
      if (o.causal) {
        // cst.md section 4.2: slice t asks with the query of slice t - 1
        // over the slices before it; slice 0 has nothing and stays 0.
        if (t == 0)
          continue;
        query = &gq[t - 1];
        for (int64_t u = 0; u < t; ++u)
          visible[u] = count[u] > 0;
      } else {
        for (int64_t u = 0; u < n; ++u)
          visible[u] = count[u] > 0;
      }
      for (int64_t h = 0; h < H; ++h)
        attendHead(*query, gk, gv, visible, h, d, global[t]);
    }
    for (int64_t i = 0; i < N; ++i)
      for (int64_t c = 0; c < D; ++c)
        result[(b * N + i) * D + c] = local[i][c] + global[i / L][c];
  }
  return result;
}
