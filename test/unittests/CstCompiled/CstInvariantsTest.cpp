//===- CstInvariantsTest.cpp - CST invariants on compiled code ------------===//
//
// Composite slice attention (attic.slice_attention) JIT-compiled with
// attic-cpu-pipeline and checked against the acceptance list of issue 15
// and the invariants of ../shared/papers/cst.md section 12:
//  - compiled == attic::ref::cst over alpha, causal, padding, heads, L;
//  - L = N, alpha = 1: the local branch is full attention (with P_l on the
//    queries and keys), checked against attic::ref::attention, and the
//    global term is the mean of it times Wv (B.5);
//  - causal with L = N is causal full attention (B.7);
//  - causal: perturbing token t leaves every output before t bit-identical
//    (C.12), at slice boundaries and inside slices;
//  - padded tokens do not change real outputs (E.19), fully padded slices
//    and the causal slice 0 give finite numbers (A.4);
//  - one slice: P_g (the only global-only parameter, the weights are
//    shared) has no effect (B.8);
//  - alpha = 3 reaches exactly the neighbouring slices and alpha = 1 only
//    its own (C.10), seen through the differences inside a slice, which
//    cancel the slice-constant global term.
//
//===----------------------------------------------------------------------===//

#include "CompiledHarness.h"
#include "attic/Reference/Attention.h"
#include "attic/Reference/Cst.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {

using attic::testing::Compiled;
using attic::testing::Tensor;

using attic::testing::tensorType;
using attic::testing::tensorValues;
using attic::testing::uniformTensor;

struct Config {
  int64_t batch = 1, tokens = 32, dim = 16, slice = 4, extension = 3, heads = 2;
  bool causal = false, masked = false;
  int64_t window() const {
    int64_t e = (extension - 1) * slice / 2;
    return causal ? e + slice : 2 * e + slice;
  }
};

/// @cst(x, wq, wk, wv, pos_local, pos_global[, mask]) -> [B,N,D].
std::string source(const Config &c) {
  std::string x = tensorType({c.batch, c.tokens, c.dim}, "f32");
  std::string w = tensorType({c.dim, c.dim}, "f32");
  std::string pl = tensorType({c.window(), c.dim}, "f32");
  std::string pg = tensorType({c.tokens / c.slice, c.dim}, "f32");
  std::string m = tensorType({c.batch, c.tokens}, "i1");
  std::ostringstream os;
  os << "func.func @cst(%x: " << x << ", %wq: " << w << ", %wk: " << w
     << ", %wv: " << w << ", %pl: " << pl << ", %pg: " << pg;
  if (c.masked)
    os << ", %m: " << m;
  os << ") -> " << x << " {\n  %y = attic.slice_attention %x weights(%wq, "
     << "%wk, %wv) positions(%pl, %pg)";
  if (c.masked)
    os << " mask(%m : " << m << ")";
  os << " {slice = " << c.slice << " : i64, extension = " << c.extension
     << " : i64, heads = " << c.heads << " : i64"
     << (c.causal ? ", causal" : "") << "} : " << x << ", " << w << ", " << pl
     << ", " << pg << " -> " << x << "\n  return %y : " << x << "\n}\n";
  return os.str();
}

struct Inputs {
  Tensor x, wq, wk, wv, pl, pg, mask;
  std::vector<const Tensor *> list(const Config &c) const {
    std::vector<const Tensor *> l{&x, &wq, &wk, &wv, &pl, &pg};
    if (c.masked)
      l.push_back(&mask);
    return l;
  }
};

Inputs randomInputs(const Config &c, uint64_t seed, double keep = 0.75) {
  std::mt19937 rng(seed);
  Inputs in;
  in.x = uniformTensor(rng, {c.batch, c.tokens, c.dim}, 1.0);
  double w = 1.0 / std::sqrt(static_cast<double>(c.dim));
  in.wq = uniformTensor(rng, {c.dim, c.dim}, 2 * w);
  in.wk = uniformTensor(rng, {c.dim, c.dim}, 2 * w);
  in.wv = uniformTensor(rng, {c.dim, c.dim}, 2 * w);
  in.pl = uniformTensor(rng, {c.window(), c.dim}, 0.5);
  in.pg = uniformTensor(rng, {c.tokens / c.slice, c.dim}, 0.5);
  in.mask = Tensor(ATTIC_I1, {c.batch, c.tokens});
  std::bernoulli_distribution real(keep);
  for (int64_t i = 0; i < in.mask.numel(); ++i)
    in.mask.set(i, real(rng) ? 1.0 : 0.0);
  return in;
}

std::vector<double> reference(const Config &c, const Inputs &in) {
  attic::ref::cst::Options o;
  o.batch = c.batch;
  o.tokens = c.tokens;
  o.dim = c.dim;
  o.slice = c.slice;
  o.extension = c.extension;
  o.heads = c.heads;
  o.causal = c.causal;
  std::vector<bool> mask;
  if (c.masked)
    for (double v : tensorValues(in.mask))
      mask.push_back(v != 0.0);
  return attic::ref::cst::sliceAttention(
      o, tensorValues(in.x), tensorValues(in.wq), tensorValues(in.wk),
      tensorValues(in.wv), tensorValues(in.pl), tensorValues(in.pg), mask);
}

/// max |a - b| / max(1, max |b|)
double relativeError(const std::vector<double> &a,
                     const std::vector<double> &b) {
  double err = 0, scale = 1;
  for (size_t i = 0; i < a.size(); ++i) {
    err = std::max(err, std::fabs(a[i] - b[i]));
    scale = std::max(scale, std::fabs(b[i]));
    if (!std::isfinite(a[i]))
      return INFINITY;
  }
  return err / scale;
}

std::vector<double> run(Compiled &compiled, const Config &c, const Inputs &in) {
  std::vector<Tensor> out = compiled.run(in.list(c));
  if (out.size() != 1)
    return {};
  return tensorValues(out[0]);
}

TEST(CstCompiled, MatchesReference) {
  int seed = 0;
  for (int64_t extension : {1, 3})
    for (bool causal : {false, true})
      for (bool masked : {false, true})
        for (int64_t slice : {4, 8}) {
          Config c;
          c.batch = 2;
          c.extension = extension;
          c.causal = causal;
          c.masked = masked;
          c.slice = slice;
          SCOPED_TRACE(source(c));
          Compiled compiled(source(c), "cst");
          Inputs in = randomInputs(c, ++seed);
          std::vector<double> got = run(compiled, c, in);
          ASSERT_EQ(got.size(), size_t(c.batch * c.tokens * c.dim));
          EXPECT_LT(relativeError(got, reference(c, in)), 1e-5);
        }
}

/// (a + pos[i mod rows]) W for a [B,N,D] x: the heads' Q or K, [B,H,N,d].
std::vector<double> projectHeads(const Config &c, const std::vector<double> &x,
                                 const std::vector<double> *pos,
                                 const std::vector<double> &w) {
  int64_t d = c.dim / c.heads, rows = c.tokens;
  std::vector<double> out(c.batch * c.tokens * c.dim, 0.0);
  for (int64_t b = 0; b < c.batch; ++b)
    for (int64_t i = 0; i < c.tokens; ++i)
      for (int64_t col = 0; col < c.dim; ++col) {
        double sum = 0;
        for (int64_t e = 0; e < c.dim; ++e)
          sum += (x[(b * c.tokens + i) * c.dim + e] +
                  (pos ? (*pos)[(i % rows) * c.dim + e] : 0.0)) *
                 w[e * c.dim + col];
        int64_t h = col / d, j = col % d;
        out[((b * c.heads + h) * c.tokens + i) * d + j] = sum;
      }
  return out;
}

/// Full (or causal) multi-head attention of x with pos on queries and keys,
/// by attic::ref::attention; [B,N,D] with the heads merged.
std::vector<double> fullAttention(const Config &c, const Inputs &in) {
  std::vector<double> x = tensorValues(in.x), pos = tensorValues(in.pl);
  std::vector<double> q = projectHeads(c, x, &pos, tensorValues(in.wq));
  std::vector<double> k = projectHeads(c, x, &pos, tensorValues(in.wk));
  std::vector<double> v = projectHeads(c, x, nullptr, tensorValues(in.wv));
  int64_t d = c.dim / c.heads;
  attic::ref::AttentionShape s{c.batch, c.heads, c.tokens, c.tokens, d, d};
  attic::ref::AttentionOptions o;
  o.scale = 1.0 / std::sqrt(static_cast<double>(d));
  o.causal = c.causal;
  std::vector<double> heads(q.size());
  attic::ref::attention(s, q.data(), k.data(), v.data(), o, heads.data());
  std::vector<double> merged(q.size());
  for (int64_t b = 0; b < c.batch; ++b)
    for (int64_t h = 0; h < c.heads; ++h)
      for (int64_t i = 0; i < c.tokens; ++i)
        for (int64_t j = 0; j < d; ++j)
          merged[(b * c.tokens + i) * c.dim + h * d + j] =
              heads[((b * c.heads + h) * c.tokens + i) * d + j];
  return merged;
}

TEST(CstCompiled, OneSliceWithoutExtensionIsFullAttentionPlusItsMean) {
  Config c;
  c.slice = c.tokens;
  c.extension = 1;
  Compiled compiled(source(c), "cst");
  Inputs in = randomInputs(c, 11);
  std::vector<double> got = run(compiled, c, in);
  ASSERT_FALSE(got.empty());
  std::vector<double> local = fullAttention(c, in);
  // One summary: the global softmax is over one key, so the global term is
  // mean_i(Y_l) Wv for every token.
  std::vector<double> mean(c.dim, 0.0), wv = tensorValues(in.wv);
  for (int64_t i = 0; i < c.tokens; ++i)
    for (int64_t e = 0; e < c.dim; ++e)
      mean[e] += local[i * c.dim + e] / c.tokens;
  std::vector<double> expected(local);
  for (int64_t i = 0; i < c.tokens; ++i)
    for (int64_t col = 0; col < c.dim; ++col)
      for (int64_t e = 0; e < c.dim; ++e)
        expected[i * c.dim + col] += mean[e] * wv[e * c.dim + col];
  EXPECT_LT(relativeError(got, expected), 1e-5);
}

TEST(CstCompiled, CausalOneSliceIsCausalFullAttention) {
  Config c;
  c.batch = 2;
  c.slice = c.tokens;
  c.extension = 1;
  c.causal = true;
  Compiled compiled(source(c), "cst");
  Inputs in = randomInputs(c, 12);
  std::vector<double> got = run(compiled, c, in);
  ASSERT_FALSE(got.empty());
  EXPECT_LT(relativeError(got, fullAttention(c, in)), 1e-5);
}

TEST(CstCompiled, CausalOutputsBeforeAPerturbedTokenDoNotChange) {
  for (int64_t extension : {1, 3}) {
    Config c;
    c.extension = extension;
    c.causal = true;
    c.masked = true;
    Compiled compiled(source(c), "cst");
    Inputs in = randomInputs(c, 13, 0.9);
    std::vector<double> base = run(compiled, c, in);
    ASSERT_FALSE(base.empty());
    // Slice starts, slice ends and inside slices (L = 4).
    for (int64_t t : {0, 3, 4, 5, 8, 15, 16, 22, 31}) {
      Inputs changed = randomInputs(c, 13, 0.9);
      for (int64_t e = 0; e < c.dim; ++e)
        changed.x.set(t * c.dim + e, changed.x[t * c.dim + e] + 0.75);
      std::vector<double> after = run(compiled, c, changed);
      ASSERT_EQ(after.size(), base.size());
      for (int64_t i = 0; i < t * c.dim; ++i)
        ASSERT_EQ(after[i], base[i])
            << "alpha " << extension << ": perturbing token " << t
            << " changed output " << i / c.dim;
      // A real perturbed token's own output does change (the test can
      // fail); a padded one may see no key at all and stay 0.
      if (in.mask[t] == 0.0)
        continue;
      double own = 0;
      for (int64_t e = 0; e < c.dim; ++e)
        own = std::max(own,
                       std::fabs(after[t * c.dim + e] - base[t * c.dim + e]));
      EXPECT_GT(own, 1e-4) << "token " << t;
    }
  }
}

TEST(CstCompiled, PaddedTokensDoNotChangeRealOutputs) {
  for (bool causal : {false, true}) {
    Config c;
    c.batch = 2;
    c.causal = causal;
    c.masked = true;
    Compiled compiled(source(c), "cst");
    Inputs in = randomInputs(c, 14, 0.6);
    // Slice 2 of sequence 1 fully padded, and slice 0 of sequence 0.
    for (int64_t j = 0; j < c.slice; ++j) {
      in.mask.set(1 * c.tokens + 2 * c.slice + j, 0.0);
      in.mask.set(0 * c.tokens + j, 0.0);
    }
    std::vector<double> base = run(compiled, c, in);
    ASSERT_FALSE(base.empty());
    EXPECT_LT(relativeError(base, reference(c, in)), 1e-5);
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> dist(-3, 3);
    for (int64_t i = 0; i < in.mask.numel(); ++i)
      if (in.mask[i] == 0.0)
        for (int64_t e = 0; e < c.dim; ++e)
          in.x.set(i * c.dim + e, dist(rng));
    std::vector<double> after = run(compiled, c, in);
    ASSERT_EQ(after.size(), base.size());
    for (int64_t i = 0; i < in.mask.numel(); ++i) {
      for (int64_t e = 0; e < c.dim; ++e) {
        ASSERT_TRUE(std::isfinite(after[i * c.dim + e]));
        if (in.mask[i] != 0.0)
          ASSERT_EQ(after[i * c.dim + e], base[i * c.dim + e])
              << "real token " << i % c.tokens << " of sequence "
              << i / c.tokens << (causal ? " (causal)" : "");
      }
    }
  }
}

TEST(CstCompiled, OneSliceIgnoresTheGlobalEmbedding) {
  for (bool causal : {false, true}) {
    Config c;
    c.slice = c.tokens;
    c.causal = causal;
    c.extension = 3;
    Compiled compiled(source(c), "cst");
    Inputs in = randomInputs(c, 15);
    std::vector<double> base = run(compiled, c, in);
    ASSERT_FALSE(base.empty());
    for (int64_t i = 0; i < in.pg.numel(); ++i)
      in.pg.set(i, in.pg[i] * -7.0 + 1.0);
    EXPECT_EQ(run(compiled, c, in), base);
  }
}

TEST(CstCompiled, ExtensionReachesExactlyTheNeighbouringSlices) {
  for (int64_t extension : {1, 3}) {
    Config c;
    c.extension = extension;
    Compiled compiled(source(c), "cst");
    Inputs in = randomInputs(c, 16);
    std::vector<double> base = run(compiled, c, in);
    ASSERT_FALSE(base.empty());
    const int64_t slices = c.tokens / c.slice, perturbed = 13; // slice 3
    Inputs changed = randomInputs(c, 16);
    for (int64_t e = 0; e < c.dim; ++e)
      changed.x.set(perturbed * c.dim + e,
                    changed.x[perturbed * c.dim + e] + 1);
    std::vector<double> after = run(compiled, c, changed);
    ASSERT_EQ(after.size(), base.size());
    // Y[i] - Y[first token of i's slice] = Y_l[i] - Y_l[first]: the global
    // term, constant over a slice, cancels.
    auto spread = [&](const std::vector<double> &y, int64_t s) {
      std::vector<double> d;
      for (int64_t j = 1; j < c.slice; ++j)
        for (int64_t e = 0; e < c.dim; ++e)
          d.push_back(y[(s * c.slice + j) * c.dim + e] -
                      y[s * c.slice * c.dim + e]);
      return d;
    };
    for (int64_t s = 0; s < slices; ++s) {
      std::vector<double> a = spread(after, s), b = spread(base, s);
      double change = 0;
      for (size_t i = 0; i < a.size(); ++i)
        change = std::max(change, std::fabs(a[i] - b[i]));
      bool reached = std::llabs(s - perturbed / c.slice) <= (extension - 1) / 2;
      if (reached)
        EXPECT_GT(change, 1e-3) << "alpha " << extension << ", slice " << s;
      else
        EXPECT_LT(change, 1e-5) << "alpha " << extension << ", slice " << s;
    }
  }
}

} // namespace
