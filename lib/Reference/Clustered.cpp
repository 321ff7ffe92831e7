//===- Clustered.cpp - reference semantics of clustered attention -*- C++
//-*-===//
//
// See include/attic/Reference/Clustered.h. Written from the op's
// description and ../shared/papers/xformer.md A5; nothing here is shared
// with lib/Transforms/Lsh.cpp.
//
//===----------------------------------------------------------------------===//

#include "attic/Reference/Clustered.h"
#include "NanMax.h"
#include "attic/runtime/Runtime.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace attic::ref::clustered {

namespace {

void check(const Options &o, const std::vector<double> &query,
           const std::vector<double> &key, const std::vector<double> &value,
           const std::vector<bool> &mask) {
  auto fail = [](const std::string &what) {
    throw std::invalid_argument(what);
  };
  if (o.batch < 1 || o.heads < 1 || o.queries < 1 || o.keys < 1 || o.dim < 1 ||
      o.valueDim < 1)
    fail("sizes must be positive");
  if (o.clusters < 1 || o.clusters > o.queries)
    fail("clusters must be in [1, Nq], got " + std::to_string(o.clusters));
  if (o.iterations < 1)
    fail("iterations must be positive");
  auto expect = [&](const char *name, size_t got, int64_t want) {
    if (int64_t(got) != want)
      fail(std::string(name) + " has " + std::to_string(got) + " elements, " +
           std::to_string(want) + " expected");
  };
  int64_t heads = o.batch * o.heads;
  expect("query", query.size(), heads * o.queries * o.dim);
  if (!key.empty() || !value.empty()) {
    expect("key", key.size(), heads * o.keys * o.dim);
    expect("value", value.size(), heads * o.keys * o.valueDim);
  }
  if (!mask.empty())
    expect("mask", mask.size(), o.batch * o.keys);
}

/// K-means of one head's rows x [N, D]: the final assignment and centroids.
void kmeans(const Options &o, const double *x, std::vector<int64_t> &assign,
            std::vector<double> &centroids) {
  const int64_t N = o.queries, D = o.dim, C = o.clusters;
  centroids.assign(size_t(C * D), 0.0);
  for (int64_t c = 0; c < C; ++c) {
    int64_t lo = int64_t(__int128(c) * N / C),
            hi = int64_t(__int128(c + 1) * N / C);
    uint64_t size = uint64_t(hi - lo);
    uint32_t words[4];
    attic_philox4x32(o.seed, 32, uint64_t(c), words);
    uint64_t draw = words[0];
    if (size >= (uint64_t(1) << 32))
      draw |= uint64_t(words[1]) << 32;
    int64_t row = lo + int64_t(draw % size);
    for (int64_t d = 0; d < D; ++d)
      centroids[size_t(c * D + d)] = x[row * D + d];
  }
  assign.assign(size_t(N), 0);
  for (int64_t t = 0; t < o.iterations; ++t) {
    for (int64_t i = 0; i < N; ++i) {
      double best = std::numeric_limits<double>::infinity();
      for (int64_t c = 0; c < C; ++c) {
        double dist = 0;
        for (int64_t d = 0; d < D; ++d) {
          double diff = x[i * D + d] - centroids[size_t(c * D + d)];
          dist += diff * diff;
        }
        if (dist < best) {
          best = dist;
          assign[size_t(i)] = c;
        }
      }
    }
    std::vector<double> sums(size_t(C * D), 0.0);
    std::vector<int64_t> counts(size_t(C), 0);
    for (int64_t i = 0; i < N; ++i) {
      int64_t c = assign[size_t(i)];
      ++counts[size_t(c)];
      for (int64_t d = 0; d < D; ++d)
        sums[size_t(c * D + d)] += x[i * D + d];
    }
    for (int64_t c = 0; c < C; ++c)
      if (counts[size_t(c)] > 0)
        for (int64_t d = 0; d < D; ++d)
          centroids[size_t(c * D + d)] =
              sums[size_t(c * D + d)] / double(counts[size_t(c)]);
  }
}

} // namespace

std::vector<int64_t> assignment(const Options &o,
                                const std::vector<double> &query,
                                std::vector<double> *allCentroids) {
  check(o, query, {}, {}, {});
  std::vector<int64_t> out;
  if (allCentroids)
    allCentroids->clear();
  for (int64_t bh = 0; bh < o.batch * o.heads; ++bh) {
    std::vector<int64_t> assign;
    std::vector<double> centroids;
    kmeans(o, query.data() + bh * o.queries * o.dim, assign, centroids);
    out.insert(out.end(), assign.begin(), assign.end());
    if (allCentroids)
      allCentroids->insert(allCentroids->end(), centroids.begin(),
                           centroids.end());
  }
  return out;
}

std::vector<double> attention(const Options &o,
                              const std::vector<double> &query,
                              const std::vector<double> &key,
                              const std::vector<double> &value,
                              const std::vector<bool> &mask) {
  check(o, query, key, value, mask);
  const int64_t Nq = o.queries, Nk = o.keys, D = o.dim, Dv = o.valueDim;
  const double scale = o.scale > 0 ? o.scale : 1.0 / std::sqrt(double(D));
  std::vector<double> result(size_t(o.batch * o.heads * Nq * Dv), 0.0);
  for (int64_t b = 0; b < o.batch; ++b)
    for (int64_t h = 0; h < o.heads; ++h) {
      int64_t bh = b * o.heads + h;
      std::vector<int64_t> assign;
      std::vector<double> centroids;
      kmeans(o, query.data() + bh * Nq * D, assign, centroids);
      // Each centroid's softmax attention over the real keys; with topk,
      // its weights and top keys too.
      std::vector<double> rows(size_t(o.clusters * Dv), 0.0);
      std::vector<std::vector<double>> weightsOf(size_t(o.clusters));
      std::vector<std::vector<int64_t>> topOf(size_t(o.clusters));
      // The clusters whose rows are NaN (with topk too: a visible +inf
      // logit; a 2026-11-30 review).
      std::vector<bool> nanCluster(size_t(o.clusters), false);
      for (int64_t c = 0; c < o.clusters; ++c) {
        std::vector<double> logits(size_t(Nk),
                                   -std::numeric_limits<double>::infinity());
        double top = -std::numeric_limits<double>::infinity();
        for (int64_t j = 0; j < Nk; ++j) {
          if (!mask.empty() && !mask[size_t(b * Nk + j)])
            continue;
          double dot = 0;
          for (int64_t d = 0; d < D; ++d)
            dot += centroids[size_t(c * D + d)] *
                   key[size_t((bh * Nk + j) * D + d)];
          logits[size_t(j)] = scale * dot;
          top = maxKeepingNaN(top, logits[size_t(j)]);
        }
        // The centroids' attention follows the core's NaN policy
        // (docs/layouts.md): a visible +inf logit makes the row NaN, and
        // so does a row whose logits are all -inf without a key mask
        // (nothing masks there); with one, or without keys, the row is 0
        // (a 2026-11-30 review: --check failed on an input of -inf).
        if (std::isinf(top)) {
          if (top > 0 || (o.topk <= 0 && mask.empty() && Nk > 0)) {
            std::fill(rows.begin() + c * Dv, rows.begin() + (c + 1) * Dv,
                      std::numeric_limits<double>::quiet_NaN());
            nanCluster[size_t(c)] = true;
          }
          continue; // no real key: 0
        }
        double total = 0;
        for (int64_t j = 0; j < Nk; ++j) {
          if (std::isinf(logits[size_t(j)]))
            continue;
          double p = std::exp(logits[size_t(j)] - top);
          total += p;
          for (int64_t e = 0; e < Dv; ++e)
            rows[size_t(c * Dv + e)] +=
                p * value[size_t((bh * Nk + j) * Dv + e)];
        }
        for (int64_t e = 0; e < Dv; ++e)
          rows[size_t(c * Dv + e)] /= total;
        if (o.topk > 0) {
          std::vector<double> &w = weightsOf[size_t(c)];
          w.assign(size_t(Nk), 0.0);
          std::vector<int64_t> real;
          for (int64_t j = 0; j < Nk; ++j)
            if (!std::isinf(logits[size_t(j)])) {
              w[size_t(j)] = std::exp(logits[size_t(j)] - top) / total;
              real.push_back(j);
            }
          // Decreasing weight, the first index on ties. The weights are
          // ranked by their logits (the same order in exact arithmetic):
          // weights of logits more than ~745 below the top underflow to 0
          // even in double, and their ties would go to the lower index.
          std::sort(real.begin(), real.end(), [&](int64_t x, int64_t y) {
            double lx = logits[size_t(x)], ly = logits[size_t(y)];
            return lx > ly || (lx == ly && x < y);
          });
          if (int64_t(real.size()) > o.topk)
            real.resize(size_t(o.topk));
          topOf[size_t(c)] = real;
        }
      }
      for (int64_t i = 0; i < Nq; ++i) {
        int64_t c = assign[size_t(i)];
        double *out = &result[size_t((bh * Nq + i) * Dv)];
        if (o.topk <= 0) {
          for (int64_t e = 0; e < Dv; ++e)
            out[e] = rows[size_t(c * Dv + e)];
          continue;
        }
        // m_c softmax over the top keys, plus the centroid's weights on
        // the other real keys.
        if (nanCluster[size_t(c)]) {
          std::fill(out, out + Dv, std::numeric_limits<double>::quiet_NaN());
          continue;
        }
        const std::vector<int64_t> &keep = topOf[size_t(c)];
        const std::vector<double> &w = weightsOf[size_t(c)];
        if (keep.empty())
          continue; // no real key: 0
        std::vector<bool> inTop(size_t(Nk), false);
        double mass = 0;
        for (int64_t j : keep) {
          inTop[size_t(j)] = true;
          mass += w[size_t(j)];
        }
        for (int64_t j = 0; j < Nk; ++j)
          if (!inTop[size_t(j)] && w[size_t(j)] > 0)
            for (int64_t e = 0; e < Dv; ++e)
              out[e] += w[size_t(j)] * value[size_t((bh * Nk + j) * Dv + e)];
        std::vector<double> exact(keep.size());
        double top = -std::numeric_limits<double>::infinity();
        for (size_t t = 0; t < keep.size(); ++t) {
          double dot = 0;
          for (int64_t d = 0; d < D; ++d)
            dot += query[size_t((bh * Nq + i) * D + d)] *
                   key[size_t((bh * Nk + keep[t]) * D + d)];
          exact[t] = scale * dot;
          top = maxKeepingNaN(top, exact[t]);
        }
        double total = 0;
        for (double &x : exact) {
          x = std::exp(x - top);
          total += x;
        }
        for (size_t t = 0; t < keep.size(); ++t)
          for (int64_t e = 0; e < Dv; ++e)
            out[e] += mass * exact[t] / total *
                      value[size_t((bh * Nk + keep[t]) * Dv + e)];
      }
    }
  return result;
}

} // namespace attic::ref::clustered
