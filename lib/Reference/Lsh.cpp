//===- Lsh.cpp - reference semantics of LSH attention -----------*- C++ -*-===//
//
// See include/attic/Reference/Lsh.h. Written from the formulas of
// ../shared/papers/xformer.md A4 and docs/lsh.md; nothing here is shared with
// lib/Transforms/Lsh.cpp.
//
//===----------------------------------------------------------------------===//

#include "attic/Reference/Lsh.h"
#include "NanMax.h"
#include "attic/Reference/Kernelized.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>

namespace attic::ref::lsh {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

void check(const Options &o, const std::vector<double> &qk,
           const std::vector<double> &value, const std::vector<bool> &mask) {
  auto fail = [](const std::string &what) {
    throw std::invalid_argument(what);
  };
  if (o.batch < 1 || o.heads < 1 || o.length < 1 || o.dim < 1 || o.valueDim < 1)
    fail("sizes must be positive");
  if (o.buckets < 1 || (o.buckets > 1 && o.buckets % 2 != 0))
    fail("buckets must be 1 or even, got " + std::to_string(o.buckets));
  if (o.rounds < 1)
    fail("rounds must be positive, got " + std::to_string(o.rounds));
  if (o.chunk < 1 || o.length % o.chunk != 0)
    fail("chunk must divide N, got " + std::to_string(o.chunk));
  int64_t rows = o.batch * o.heads * o.length;
  if (int64_t(qk.size()) != rows * o.dim)
    fail("qk has " + std::to_string(qk.size()) + " elements, " +
         std::to_string(rows * o.dim) + " expected");
  if (int64_t(value.size()) != rows * o.valueDim)
    fail("value has " + std::to_string(value.size()) + " elements, " +
         std::to_string(rows * o.valueDim) + " expected");
  if (!mask.empty() && int64_t(mask.size()) != o.batch * o.length)
    fail("mask has " + std::to_string(mask.size()) + " elements, " +
         std::to_string(o.batch * o.length) + " expected");
}

} // namespace

std::vector<double> rotations(uint64_t seed, int64_t round, int64_t dim,
                              int64_t half) {
  std::vector<double> r(size_t(dim * half));
  for (int64_t i = 0; i < dim * half; ++i)
    r[size_t(i)] = double(float(attic::ref::kernelized::normal(
        seed, 16 + uint64_t(round), uint64_t(i))));
  return r;
}

std::vector<int64_t> hashRows(const std::vector<double> &x, int64_t dim,
                              const std::vector<double> &r) {
  int64_t rows = int64_t(x.size()) / dim, half = int64_t(r.size()) / dim;
  std::vector<int64_t> out(size_t(rows), 0);
  std::vector<double> projected(size_t(2 * half));
  for (int64_t row = 0; row < rows; ++row) {
    for (int64_t j = 0; j < half; ++j) {
      double dot = 0;
      for (int64_t d = 0; d < dim; ++d)
        dot += x[size_t(row * dim + d)] * r[size_t(d * half + j)];
      projected[size_t(j)] = dot;
      projected[size_t(half + j)] = -dot;
    }
    // The first maximum.
    int64_t best = 0;
    double top = -kInf;
    for (int64_t j = 0; j < 2 * half; ++j)
      if (projected[size_t(j)] > top) {
        top = projected[size_t(j)];
        best = j;
      }
    out[size_t(row)] = best;
  }
  return out;
}

std::vector<int64_t> sortByBucket(const int64_t *buckets, int64_t n) {
  std::vector<int64_t> order(static_cast<size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  // std::sort with the index as the tie-break, since libstdc++'s
  // stable_sort uses the deprecated get_temporary_buffer.
  std::sort(order.begin(), order.end(), [&](int64_t x, int64_t y) {
    return buckets[x] < buckets[y] || (buckets[x] == buckets[y] && x < y);
  });
  return order;
}

std::vector<int64_t> hash(const Options &o, int64_t round,
                          const std::vector<double> &qk) {
  int64_t half = o.buckets / 2;
  if (half == 0)
    return std::vector<int64_t>(size_t(o.batch * o.heads * o.length), 0);
  return hashRows(qk, o.dim, rotations(o.seed, round, o.dim, half));
}

std::vector<double> attention(const Options &o, const std::vector<double> &qk,
                              const std::vector<double> &value,
                              const std::vector<bool> &mask) {
  check(o, qk, value, mask);
  const int64_t N = o.length, D = o.dim, Dv = o.valueDim, c = o.chunk;
  const int64_t chunks = N / c;
  const double scale = o.scale > 0 ? o.scale : 1.0 / std::sqrt(double(D));
  std::vector<double> result(size_t(o.batch * o.heads * N * Dv), 0.0);
  // Per round: outputs [rows, Dv] and log-sum-exps [rows] in the original
  // order.
  std::vector<std::vector<double>> outs, lses;
  for (int64_t round = 0; round < o.rounds; ++round) {
    std::vector<int64_t> buckets = hash(o, round, qk);
    std::vector<double> out(result.size(), 0.0);
    std::vector<double> lse(size_t(o.batch * o.heads * N), -kInf);
    for (int64_t b = 0; b < o.batch; ++b)
      for (int64_t h = 0; h < o.heads; ++h) {
        int64_t base = (b * o.heads + h) * N;
        std::vector<int64_t> order = sortByBucket(&buckets[size_t(base)], N);
        for (int64_t s = 0; s < N; ++s) {
          int64_t i = order[size_t(s)], w = s / c;
          // The window's sorted rows: the previous chunk (cyclic), then
          // this one.
          std::vector<int64_t> window;
          for (int64_t t = 0; t < c; ++t)
            window.push_back(((w + chunks - 1) % chunks) * c + t);
          for (int64_t t = 0; t < c; ++t)
            window.push_back(w * c + t);
          std::vector<double> logits;
          std::vector<int64_t> keys;
          for (int64_t row : window) {
            int64_t j = order[size_t(row)];
            if (!mask.empty() && !mask[size_t(b * N + j)])
              continue;
            if (o.causal && j > i)
              continue;
            double logit;
            if (row == s) {
              logit = -1.0e5;
            } else {
              double dot = 0;
              for (int64_t d = 0; d < D; ++d)
                dot += qk[size_t((base + i) * D + d)] *
                       qk[size_t((base + j) * D + d)];
              logit = scale * dot;
            }
            logits.push_back(logit);
            keys.push_back(j);
          }
          if (logits.empty())
            continue; // 0, lse = -inf
          double top = -kInf;
          for (double logit : logits)
            top = maxKeepingNaN(top, logit);
          double total = 0;
          for (size_t t = 0; t < logits.size(); ++t) {
            double p = std::exp(logits[t] - top);
            total += p;
            for (int64_t e = 0; e < Dv; ++e)
              out[size_t((base + i) * Dv + e)] +=
                  p * value[size_t((base + keys[t]) * Dv + e)];
          }
          for (int64_t e = 0; e < Dv; ++e)
            out[size_t((base + i) * Dv + e)] /= total;
          lse[size_t(base + i)] = top + std::log(total);
        }
      }
    outs.push_back(std::move(out));
    lses.push_back(std::move(lse));
  }
  // The merge: weights exp(lse_r - L).
  int64_t rows = o.batch * o.heads * N;
  for (int64_t row = 0; row < rows; ++row) {
    double top = -kInf;
    for (const auto &lse : lses)
      top = maxKeepingNaN(top, lse[size_t(row)]);
    if (top == -kInf)
      continue;
    double total = 0;
    for (const auto &lse : lses)
      total += std::exp(lse[size_t(row)] - top);
    for (size_t r = 0; r < outs.size(); ++r) {
      double w = std::exp(lses[r][size_t(row)] - top) / total;
      for (int64_t e = 0; e < Dv; ++e)
        result[size_t(row * Dv + e)] += w * outs[r][size_t(row * Dv + e)];
    }
  }
  return result;
}

} // namespace attic::ref::lsh
