//===- LshPropertiesTest.cpp - LSH attention, compiled --------------------===//
//
// attic.lsh_attention JIT-compiled with attic-cpu-pipeline and checked
// against the acceptance list of issue 14 with attic::ref::lsh (double) as
// the oracle:
//  - compiled == reference (f32 within 1e-5) for buckets 1 / 2 / 8 / 16,
//    rounds 1 / 2 / 3, chunks 4 .. N, causal or not, padded or not;
//  - one bucket, one round, a window covering the sequence (chunk N or
//    N / 2) equals full attention with the self-key rule (attic.attention
//    with a score region giving the diagonal -1e5), compiled side by side;
//  - the log-sum-exp merge of identical rounds (one bucket: every round
//    hashes alike) equals one round;
//  - the same seed gives bit-identical results, another seed other ones;
//  - attic.lsh_hash + attic.bucket_sort compiled alone: the hash equals
//    the reference's, perm is a permutation sorted by (bucket, position)
//    and inverse its inverse; the same through the emulated CUDA mapping
//    (the sort as independent elements, attic-lower-state{parallel-scans}),
//    identical to the CPU's.
// and attic.clustered_attention with attic::ref::clustered as the oracle:
//  - compiled == reference (f32 within 1e-5) for several cluster counts,
//    iterations, padding and cross attention;
//  - as many clusters as queries equals exact attention (attic.attention,
//    compiled side by side), and so does the improved variant with every
//    key as a top key, for any cluster count; the improved variant (topk)
//    matches its reference too;
//  - attic.kmeans compiled alone assigns every row as the reference does,
//    and its centroids are the means of their clusters; the same through
//    the emulated CUDA mapping (a thread per sum), bitwise the CPU's.
//
//===----------------------------------------------------------------------===//

#include "CompiledHarness.h"
#include "attic/Reference/Clustered.h"
#include "attic/Reference/Lsh.h"

#include <gtest/gtest.h>

#include <algorithm>
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
namespace lsh = attic::ref::lsh;

struct Config {
  int64_t batch = 1, heads = 2, length = 64, dim = 16, valueDim = 8;
  int64_t buckets = 4, rounds = 2, chunk = 8, seed = 1;
  bool causal = false, masked = false;
};

std::string attrs(const Config &c) {
  std::ostringstream os;
  os << "{buckets = " << c.buckets << " : i64, rounds = " << c.rounds
     << " : i64, chunk = " << c.chunk << " : i64";
  if (c.buckets > 1)
    os << ", seed = " << c.seed << " : i64";
  if (c.causal)
    os << ", causal";
  os << "}";
  return os.str();
}

/// @k(qk, v[, mask]) -> [B,H,N,Dv].
std::string source(const Config &c) {
  std::string qk = tensorType({c.batch, c.heads, c.length, c.dim}, "f32");
  std::string v = tensorType({c.batch, c.heads, c.length, c.valueDim}, "f32");
  std::string m = tensorType({c.batch, c.length}, "i1");
  std::ostringstream os;
  os << "func.func @k(%qk: " << qk << ", %v: " << v;
  if (c.masked)
    os << ", %m: " << m;
  os << ") -> " << v << " {\n  %o = attic.lsh_attention %qk, %v";
  if (c.masked)
    os << " mask(%m : " << m << ")";
  os << " " << attrs(c) << " : " << qk << ", " << v << " -> " << v
     << "\n  return %o : " << v << "\n}\n";
  return os.str();
}

struct Inputs {
  Tensor qk, v, mask;
};

Inputs inputs(const Config &c, unsigned seed) {
  std::mt19937 rng(seed);
  Inputs in{uniformTensor(rng, {c.batch, c.heads, c.length, c.dim}, 1.0),
            uniformTensor(rng, {c.batch, c.heads, c.length, c.valueDim}, 1.0),
            Tensor(ATTIC_I1, {c.batch, c.length})};
  std::bernoulli_distribution keep(0.8);
  for (int64_t i = 0; i < in.mask.numel(); ++i)
    in.mask.set(i, keep(rng) ? 1.0 : 0.0);
  return in;
}

Tensor runCompiled(const Config &c, const Inputs &in) {
  Compiled compiled(source(c), "k");
  std::vector<const Tensor *> args = {&in.qk, &in.v};
  if (c.masked)
    args.push_back(&in.mask);
  std::vector<Tensor> out = compiled.run(args);
  EXPECT_EQ(out.size(), 1u) << source(c);
  return out.empty() ? Tensor() : std::move(out[0]);
}

std::vector<double> runReference(const Config &c, const Inputs &in) {
  lsh::Options o;
  o.batch = c.batch;
  o.heads = c.heads;
  o.length = c.length;
  o.dim = c.dim;
  o.valueDim = c.valueDim;
  o.buckets = c.buckets;
  o.rounds = c.rounds;
  o.chunk = c.chunk;
  o.seed = uint64_t(c.seed);
  o.causal = c.causal;
  o.scale = double(1.0f / std::sqrt(float(c.dim)));
  std::vector<bool> mask;
  if (c.masked)
    for (int64_t i = 0; i < in.mask.numel(); ++i)
      mask.push_back(in.mask[i] != 0.0);
  return lsh::attention(o, tensorValues(in.qk), tensorValues(in.v), mask);
}

class LshReference : public ::testing::TestWithParam<Config> {};

TEST_P(LshReference, CompiledMatchesTheReference) {
  const Config &c = GetParam();
  Inputs in = inputs(c, 7);
  Tensor got = runCompiled(c, in);
  std::vector<double> want = runReference(c, in);
  ASSERT_EQ(got.numel(), int64_t(want.size())) << source(c);
  double worst = 0;
  for (int64_t i = 0; i < got.numel(); ++i) {
    ASSERT_TRUE(std::isfinite(got[i])) << i;
    worst = std::max(worst, std::abs(got[i] - want[size_t(i)]));
  }
  EXPECT_LT(worst, 1e-5) << source(c);
}

std::vector<Config> referenceConfigs() {
  std::vector<Config> configs;
  for (int64_t buckets : {1, 2, 8, 16})
    for (int64_t rounds : {1, 2, 3})
      for (bool causal : {false, true})
        for (bool masked : {false, true}) {
          Config c;
          c.buckets = buckets;
          c.rounds = rounds;
          c.causal = causal;
          c.masked = masked;
          c.chunk = buckets == 1 ? 16 : 8;
          c.seed = 11 + buckets + rounds;
          configs.push_back(c);
        }
  for (int64_t chunk : {4, 32, 64}) {
    Config c;
    c.chunk = chunk;
    c.buckets = 8;
    configs.push_back(c);
  }
  return configs;
}

INSTANTIATE_TEST_SUITE_P(Variants, LshReference,
                         ::testing::ValuesIn(referenceConfigs()));

/// Full attention whose diagonal logit is -1e5 (Reformer's self-key rule),
/// through attic.attention and a score region.
Tensor fullWithSelfRule(const Config &c, const Inputs &in) {
  std::string qk = tensorType({c.batch, c.heads, c.length, c.dim}, "f32");
  std::string v = tensorType({c.batch, c.heads, c.length, c.valueDim}, "f32");
  std::ostringstream os;
  os << "func.func @full(%qk: " << qk << ", %v: " << v << ") -> " << v
     << " {\n  %o = attic.attention %qk, %qk, %v score_mod {\n"
     << "  ^bb0(%s: f32, %b: index, %h: index, %q: index, %k: index):\n"
     << "    %self = arith.cmpi eq, %q, %k : index\n"
     << "    %m = arith.constant -1.0e5 : f32\n"
     << "    %r = arith.select %self, %m, %s : f32\n"
     << "    attic.yield %r : f32\n  } : " << qk << ", " << qk << ", " << v
     << " -> " << v << "\n  return %o : " << v << "\n}\n";
  Compiled compiled(os.str(), "full");
  std::vector<Tensor> out = compiled.run({&in.qk, &in.v});
  EXPECT_EQ(out.size(), 1u) << os.str();
  return out.empty() ? Tensor() : std::move(out[0]);
}

TEST(LshProperties, OneBucketOneRoundIsFullAttentionWithTheSelfKeyRule) {
  for (int64_t chunk : {64, 32}) {
    Config c;
    c.buckets = 1;
    c.rounds = 1;
    c.chunk = chunk;
    Inputs in = inputs(c, 3);
    Tensor got = runCompiled(c, in);
    Tensor full = fullWithSelfRule(c, in);
    ASSERT_EQ(got.numel(), full.numel());
    for (int64_t i = 0; i < got.numel(); ++i)
      ASSERT_NEAR(got[i], full[i], 1e-5) << "chunk " << chunk << " at " << i;
  }
}

TEST(LshProperties, MergingIdenticalRoundsGivesOneRound) {
  Config one;
  one.buckets = 1;
  one.rounds = 1;
  one.chunk = 16;
  one.causal = true;
  one.masked = true;
  Config three = one;
  three.rounds = 3;
  Inputs in = inputs(one, 5);
  Tensor a = runCompiled(one, in), b = runCompiled(three, in);
  ASSERT_EQ(a.numel(), b.numel());
  for (int64_t i = 0; i < a.numel(); ++i)
    ASSERT_NEAR(a[i], b[i], 1e-6) << i;
}

TEST(LshProperties, TheSeedDecidesTheResult) {
  Config c;
  c.buckets = 8;
  c.rounds = 2;
  Inputs in = inputs(c, 9);
  Tensor a = runCompiled(c, in), b = runCompiled(c, in);
  Config other = c;
  other.seed = c.seed + 1;
  Tensor d = runCompiled(other, in);
  ASSERT_EQ(a.numel(), b.numel());
  ASSERT_EQ(a.numel(), d.numel());
  double differs = 0;
  for (int64_t i = 0; i < a.numel(); ++i) {
    ASSERT_EQ(a[i], b[i]) << i;
    differs = std::max(differs, std::abs(a[i] - d[i]));
  }
  EXPECT_GT(differs, 1e-3);
}

/// @k of `source` compiled for the CPU and through the CUDA mapping
/// emulated on the CPU (which lowers the scans and sorts as independent
/// elements, as for a GPU), run on `args`: the CPU's results, after
/// checking that the mapping's are the same element for element (bitwise).
std::vector<Tensor>
runOnCpuAndGpuMapping(const std::string &source,
                      const std::vector<const Tensor *> &args) {
  std::vector<Tensor> results[2];
  for (bool emulate : {false, true}) {
    attic::CpuPipelineOptions options;
    options.emulateCuda = emulate;
    Compiled compiled(source, "k", &options);
    results[emulate] = compiled.run(args);
  }
  EXPECT_EQ(results[0].size(), results[1].size());
  for (size_t r = 0; r < results[0].size() && r < results[1].size(); ++r) {
    EXPECT_EQ(results[0][r].numel(), results[1][r].numel()) << "result " << r;
    for (int64_t i = 0; i < results[0][r].numel(); ++i)
      if (results[0][r][i] != results[1][r][i]) {
        ADD_FAILURE() << "result " << r << " element " << i << ": CPU "
                      << results[0][r][i] << ", emulated CUDA mapping "
                      << results[1][r][i];
        break;
      }
  }
  return std::move(results[0]);
}

TEST(LshProperties, HashAndSortAreAStableSortByBucket) {
  Config c;
  c.heads = 3;
  // 200 tokens: 3 chunks of 64 and a partial one in the emulated form.
  c.length = 200;
  c.buckets = 16;
  std::string x = tensorType({c.batch, c.heads, c.length, c.dim}, "f32");
  std::string r = tensorType({c.dim, c.buckets / 2}, "f32");
  std::string h = tensorType({c.batch, c.heads, c.length}, "i64");
  std::ostringstream os;
  os << "func.func @k(%x: " << x << ", %r: " << r << ") -> (" << h << ", " << h
     << ", " << h << ") {\n  %h = attic.lsh_hash %x, %r : " << x << ", " << r
     << " -> " << h
     << "\n  %p, %i = attic.bucket_sort %h {num_buckets = " << c.buckets
     << " : i64} : " << h << " -> " << h << ", " << h
     << "\n  return %h, %p, %i : " << h << ", " << h << ", " << h << "\n}\n";
  std::mt19937 rng(4);
  Tensor xs = uniformTensor(rng, {c.batch, c.heads, c.length, c.dim}, 1.0);
  std::vector<double> rot =
      lsh::rotations(uint64_t(c.seed), 0, c.dim, c.buckets / 2);
  Tensor rs(ATTIC_F32, {c.dim, c.buckets / 2});
  for (int64_t i = 0; i < rs.numel(); ++i)
    rs.set(i, rot[size_t(i)]);
  std::vector<Tensor> out = runOnCpuAndGpuMapping(os.str(), {&xs, &rs});
  ASSERT_EQ(out.size(), 3u);
  lsh::Options o;
  o.heads = c.heads;
  o.length = c.length;
  o.dim = c.dim;
  o.valueDim = 1;
  o.buckets = c.buckets;
  o.seed = uint64_t(c.seed);
  std::vector<int64_t> want = lsh::hash(o, 0, tensorValues(xs));
  const Tensor &hashes = out[0], &perm = out[1], &inverse = out[2];
  for (int64_t i = 0; i < hashes.numel(); ++i)
    ASSERT_EQ(int64_t(hashes[i]), want[size_t(i)]) << i;
  for (int64_t row = 0; row < c.heads; ++row) {
    int64_t base = row * c.length;
    std::vector<bool> seen(size_t(c.length), false);
    for (int64_t s = 0; s < c.length; ++s) {
      int64_t t = int64_t(perm[base + s]);
      ASSERT_GE(t, 0);
      ASSERT_LT(t, c.length);
      ASSERT_FALSE(seen[size_t(t)]) << "token " << t << " twice";
      seen[size_t(t)] = true;
      ASSERT_EQ(int64_t(inverse[base + t]), s);
      if (s > 0) {
        int64_t prev = int64_t(perm[base + s - 1]);
        int64_t bPrev = int64_t(hashes[base + prev]),
                bHere = int64_t(hashes[base + t]);
        ASSERT_TRUE(bPrev < bHere || (bPrev == bHere && prev < t))
            << "row " << row << " sorted position " << s;
      }
    }
  }
}

//===----------------------------------------------------------------------===//
// Clustered attention
//===----------------------------------------------------------------------===//

namespace cl = attic::ref::clustered;

struct ClusterConfig {
  int64_t heads = 2, queries = 64, keys = 64, dim = 16, valueDim = 8;
  int64_t clusters = 8, iterations = 3, seed = 5, topk = 0;
  bool masked = false;
};

std::string clusteredSource(const ClusterConfig &c) {
  std::string q = tensorType({1, c.heads, c.queries, c.dim}, "f32");
  std::string k = tensorType({1, c.heads, c.keys, c.dim}, "f32");
  std::string v = tensorType({1, c.heads, c.keys, c.valueDim}, "f32");
  std::string o = tensorType({1, c.heads, c.queries, c.valueDim}, "f32");
  std::string m = tensorType({1, c.keys}, "i1");
  std::ostringstream os;
  os << "func.func @k(%q: " << q << ", %k: " << k << ", %v: " << v;
  if (c.masked)
    os << ", %m: " << m;
  os << ") -> " << o << " {\n  %o = attic.clustered_attention %q, %k, %v";
  if (c.masked)
    os << " mask(%m : " << m << ")";
  os << " {clusters = " << c.clusters << " : i64, iterations = " << c.iterations
     << " : i64, seed = " << c.seed << " : i64";
  if (c.topk)
    os << ", topk = " << c.topk << " : i64";
  os << "} : " << q << ", " << k << ", " << v << " -> " << o
     << "\n  return %o : " << o << "\n}\n";
  return os.str();
}

struct ClusterInputs {
  Tensor q, k, v, mask;
};

ClusterInputs clusterInputs(const ClusterConfig &c, unsigned seed) {
  std::mt19937 rng(seed);
  ClusterInputs in{uniformTensor(rng, {1, c.heads, c.queries, c.dim}, 1.0),
                   uniformTensor(rng, {1, c.heads, c.keys, c.dim}, 1.0),
                   uniformTensor(rng, {1, c.heads, c.keys, c.valueDim}, 1.0),
                   Tensor(ATTIC_I1, {1, c.keys})};
  std::bernoulli_distribution keep(0.8);
  for (int64_t i = 0; i < in.mask.numel(); ++i)
    in.mask.set(i, keep(rng) ? 1.0 : 0.0);
  return in;
}

cl::Options clusterOptions(const ClusterConfig &c) {
  cl::Options o;
  o.heads = c.heads;
  o.queries = c.queries;
  o.keys = c.keys;
  o.dim = c.dim;
  o.valueDim = c.valueDim;
  o.clusters = c.clusters;
  o.iterations = c.iterations;
  o.topk = c.topk;
  o.seed = uint64_t(c.seed);
  o.scale = double(1.0f / std::sqrt(float(c.dim)));
  return o;
}

class ClusteredReference : public ::testing::TestWithParam<ClusterConfig> {};

TEST_P(ClusteredReference, CompiledMatchesTheReference) {
  const ClusterConfig &c = GetParam();
  ClusterInputs in = clusterInputs(c, 13);
  Compiled compiled(clusteredSource(c), "k");
  std::vector<const Tensor *> args = {&in.q, &in.k, &in.v};
  if (c.masked)
    args.push_back(&in.mask);
  std::vector<Tensor> out = compiled.run(args);
  ASSERT_EQ(out.size(), 1u) << clusteredSource(c);
  std::vector<bool> mask;
  if (c.masked)
    for (int64_t i = 0; i < in.mask.numel(); ++i)
      mask.push_back(in.mask[i] != 0.0);
  std::vector<double> want =
      cl::attention(clusterOptions(c), tensorValues(in.q), tensorValues(in.k),
                    tensorValues(in.v), mask);
  ASSERT_EQ(out[0].numel(), int64_t(want.size()));
  for (int64_t i = 0; i < out[0].numel(); ++i)
    ASSERT_NEAR(out[0][i], want[size_t(i)], 1e-5) << clusteredSource(c) << i;
}

std::vector<ClusterConfig> clusterConfigs() {
  std::vector<ClusterConfig> configs;
  for (int64_t clusters : {1, 4, 16, 63})
    for (int64_t iterations : {1, 5})
      for (bool masked : {false, true}) {
        ClusterConfig c;
        c.clusters = clusters;
        c.iterations = iterations;
        c.masked = masked;
        configs.push_back(c);
      }
  ClusterConfig cross;
  cross.queries = 48;
  cross.keys = 96;
  cross.clusters = 6;
  configs.push_back(cross);
  // The improved variant: top keys 1, a few, all.
  for (int64_t topk : {1, 8, 64})
    for (bool masked : {false, true}) {
      ClusterConfig c;
      c.topk = topk;
      c.masked = masked;
      configs.push_back(c);
    }
  ClusterConfig improvedCross = cross;
  improvedCross.topk = 20;
  improvedCross.masked = true;
  configs.push_back(improvedCross);
  return configs;
}

INSTANTIATE_TEST_SUITE_P(Variants, ClusteredReference,
                         ::testing::ValuesIn(clusterConfigs()));

TEST(ClusteredProperties, AsManyClustersAsQueriesIsExactAttention) {
  ClusterConfig c;
  c.clusters = c.queries;
  c.masked = true;
  ClusterInputs in = clusterInputs(c, 17);
  Compiled clustered(clusteredSource(c), "k");
  std::vector<Tensor> got = clustered.run({&in.q, &in.k, &in.v, &in.mask});
  std::string q = tensorType({1, c.heads, c.queries, c.dim}, "f32");
  std::string v = tensorType({1, c.heads, c.keys, c.valueDim}, "f32");
  std::string m = tensorType({1, c.keys}, "i1");
  std::ostringstream os;
  os << "func.func @exact(%q: " << q << ", %k: " << q << ", %v: " << v
     << ", %m: " << m << ") -> " << v
     << " {\n  %o = attic.attention %q, %k, %v mask(%m : " << m << ") : " << q
     << ", " << q << ", " << v << " -> " << v << "\n  return %o : " << v
     << "\n}\n";
  Compiled exact(os.str(), "exact");
  std::vector<Tensor> want = exact.run({&in.q, &in.k, &in.v, &in.mask});
  ASSERT_EQ(got.size(), 1u);
  ASSERT_EQ(want.size(), 1u);
  for (int64_t i = 0; i < got[0].numel(); ++i)
    ASSERT_NEAR(got[0][i], want[0][i], 1e-5) << i;
}

/// Exact attention, compiled, on the inputs of `c`.
Tensor exactAttention(const ClusterConfig &c, const ClusterInputs &in) {
  std::string q = tensorType({1, c.heads, c.queries, c.dim}, "f32");
  std::string k = tensorType({1, c.heads, c.keys, c.dim}, "f32");
  std::string v = tensorType({1, c.heads, c.keys, c.valueDim}, "f32");
  std::string o = tensorType({1, c.heads, c.queries, c.valueDim}, "f32");
  std::string m = tensorType({1, c.keys}, "i1");
  std::ostringstream os;
  os << "func.func @exact(%q: " << q << ", %k: " << k << ", %v: " << v
     << ", %m: " << m << ") -> " << o
     << " {\n  %o = attic.attention %q, %k, %v mask(%m : " << m << ") : " << q
     << ", " << k << ", " << v << " -> " << o << "\n  return %o : " << o
     << "\n}\n";
  Compiled exact(os.str(), "exact");
  std::vector<Tensor> out = exact.run({&in.q, &in.k, &in.v, &in.mask});
  EXPECT_EQ(out.size(), 1u);
  return out.empty() ? Tensor() : std::move(out[0]);
}

TEST(ClusteredProperties, ImprovedWithEveryKeyIsExactForAnyClusterCount) {
  for (int64_t clusters : {1, 5}) {
    ClusterConfig c;
    c.keys = 80;
    c.clusters = clusters;
    c.topk = c.keys;
    c.masked = true;
    ClusterInputs in = clusterInputs(c, 23);
    Compiled improved(clusteredSource(c), "k");
    std::vector<Tensor> got = improved.run({&in.q, &in.k, &in.v, &in.mask});
    Tensor want = exactAttention(c, in);
    ASSERT_EQ(got.size(), 1u);
    for (int64_t i = 0; i < want.numel(); ++i)
      ASSERT_NEAR(got[0][i], want[i], 1e-5)
          << "clusters " << clusters << " " << i;
  }
}

/// Each key of `c` repeated 3 times (with distinct values): the CPU and the
/// emulated CUDA mapping must give the reference's output.
void expectTiedKeysAsReference(const ClusterConfig &c, unsigned seed) {
  ClusterInputs in = clusterInputs(c, seed);
  for (int64_t h = 0; h < c.heads; ++h)
    for (int64_t j = 0; j < c.keys; ++j)
      for (int64_t d = 0; d < c.dim; ++d)
        in.k.set((h * c.keys + j) * c.dim + d,
                 in.k[(h * c.keys + j / 3 * 3) * c.dim + d]);
  std::vector<double> want =
      cl::attention(clusterOptions(c), tensorValues(in.q), tensorValues(in.k),
                    tensorValues(in.v), {});
  for (bool emulate : {false, true}) {
    SCOPED_TRACE(emulate ? "emulated CUDA mapping" : "CPU");
    attic::CpuPipelineOptions options;
    options.emulateCuda = emulate;
    Compiled compiled(clusteredSource(c), "k", &options);
    std::vector<Tensor> out = compiled.run({&in.q, &in.k, &in.v});
    ASSERT_EQ(out.size(), 1u);
    ASSERT_EQ(out[0].numel(), int64_t(want.size()));
    for (int64_t i = 0; i < out[0].numel(); ++i)
      ASSERT_NEAR(out[0][i], want[size_t(i)], 1e-5) << i;
  }
}

TEST(ClusteredProperties, TopKeyTiesPickTheLowerIndexOnCpuAndGpuMapping) {
  // 4 top keys per cluster: the 4th pick is one of 3 tied copies, and
  // which one (the lowest index, as in the reference) changes the output
  // (with 4 identical copies the exact part and the correction would
  // cancel). The sequential selection (CPU) and the ranks (the GPU
  // mapping, emulated) must agree.
  ClusterConfig c;
  c.clusters = 4;
  c.topk = 4;
  expectTiedKeysAsReference(c, 17);
}

TEST(ClusteredProperties, LongRowsTakeTheRadixSelectWithTheSameTies) {
  // As above with 4160 keys per row: more than kPairwiseRankLimit (4096),
  // so the GPU mapping picks the top keys by a radix select
  // (largestIndicesByRadix; a partial last chunk of 64), which must pick
  // what the CPU's loop and the reference pick, ties included.
  ClusterConfig c;
  c.heads = 1;
  c.queries = 32;
  c.keys = 4160;
  c.clusters = 4;
  c.topk = 7;
  expectTiedKeysAsReference(c, 19);
}

/// attic.kmeans compiled alone (CPU and GPU mapping) on `xs`: every row
/// assigned as the reference does, and each centroid the mean of its rows
/// (within `tolerance`).
void expectKMeansAsReference(const ClusterConfig &c, const Tensor &xs,
                             double tolerance) {
  std::string x = tensorType({1, c.heads, c.queries, c.dim}, "f32");
  std::string cen = tensorType({1, c.heads, c.clusters, c.dim}, "f32");
  std::string a = tensorType({1, c.heads, c.queries}, "i64");
  std::ostringstream os;
  os << "func.func @k(%x: " << x << ") -> (" << cen << ", " << a
     << ") {\n  %c, %a = attic.kmeans %x {clusters = " << c.clusters
     << " : i64, iterations = " << c.iterations << " : i64, seed = " << c.seed
     << " : i64} : " << x << " -> " << cen << ", " << a
     << "\n  return %c, %a : " << cen << ", " << a << "\n}\n";
  std::vector<Tensor> out = runOnCpuAndGpuMapping(os.str(), {&xs});
  ASSERT_EQ(out.size(), 2u);
  std::vector<int64_t> want =
      cl::assignment(clusterOptions(c), tensorValues(xs));
  const Tensor &centroids = out[0], &assign = out[1];
  for (int64_t i = 0; i < assign.numel(); ++i)
    ASSERT_EQ(int64_t(assign[i]), want[size_t(i)]) << i;
  for (int64_t h = 0; h < c.heads; ++h)
    for (int64_t k = 0; k < c.clusters; ++k) {
      std::vector<double> sum(size_t(c.dim), 0.0);
      int64_t count = 0;
      for (int64_t i = 0; i < c.queries; ++i)
        if (int64_t(assign[h * c.queries + i]) == k) {
          ++count;
          for (int64_t d = 0; d < c.dim; ++d)
            sum[size_t(d)] += xs[(h * c.queries + i) * c.dim + d];
        }
      if (count == 0)
        continue; // an empty cluster keeps its previous centroid
      for (int64_t d = 0; d < c.dim; ++d)
        ASSERT_NEAR(centroids[(h * c.clusters + k) * c.dim + d],
                    sum[size_t(d)] / double(count), tolerance);
    }
}

ClusterConfig kmeansConfig() {
  ClusterConfig c;
  c.heads = 3;
  c.queries = 96;
  c.clusters = 12;
  c.iterations = 4;
  return c;
}

TEST(ClusteredProperties, KMeansAssignsAsTheReferenceAndCentroidsAreMeans) {
  ClusterConfig c = kmeansConfig();
  std::mt19937 rng(21);
  Tensor xs = uniformTensor(rng, {1, c.heads, c.queries, c.dim}, 1.0);
  expectKMeansAsReference(c, xs, 1e-5);
}

TEST(ClusteredProperties, KMeansOfRowsWithALargeCommonOffset) {
  // Rows at 1000 + U(-1, 1): |c|^2 - 2 x.c cancels in f32 (25 of 64 rows
  // were assigned differently from the reference before the rows were
  // shifted by their rounded mean); shifted, the distances are as good as
  // those of rows near 0.
  ClusterConfig c = kmeansConfig();
  std::mt19937 rng(22);
  Tensor xs = uniformTensor(rng, {1, c.heads, c.queries, c.dim}, 1.0);
  for (int64_t i = 0; i < xs.numel(); ++i)
    xs.set(i, xs[i] + (i % c.dim == 3 ? -1000.0 : 1000.0));
  expectKMeansAsReference(c, xs, 2e-4); // f32's ulp at 1000 is 6e-5
}

TEST(ClusteredProperties, KMeansTiesOfIntegerRowsGoToTheFirstCentroid) {
  // Integer rows in [2, 5]: many rows are exactly as far from two
  // centroids, and the first must win as in the reference. The integer
  // shift (the rounded mean, 3 or 4) keeps the rows and distances exact.
  ClusterConfig c = kmeansConfig();
  std::mt19937 rng(23);
  std::uniform_int_distribution<int> value(2, 5);
  Tensor xs(ATTIC_F32, {1, c.heads, c.queries, c.dim});
  for (int64_t i = 0; i < xs.numel(); ++i)
    xs.set(i, value(rng));
  expectKMeansAsReference(c, xs, 1e-5);
}

} // namespace
