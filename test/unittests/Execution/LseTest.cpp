//===- LseTest.cpp - the block-attention core's log-sum-exp output --------===//
//
// attic.block_attention with an `lse` destination also writes each query
// row's log-sum-exp of its visible logits (natural log, -inf for a row
// without a visible key); LSH attention merges its hash rounds with it.
// Checked on compiled code against a plain double computation, for the CPU
// mapping, the CUDA pipeline's mapping run as CPU loops (attic-gpu-emulate)
// and the CUDA mapping's kernels in the GPU simulator (the SIMT kernel in
// f32, the tensor-core kernel in f16). Causal, Nq = 64, Nk = 48 (the
// queries past the keys see them all), blocks of 16, D = 16, two heads;
// keys 0-3 masked, so query rows 0-3 see no key.
//
//===----------------------------------------------------------------------===//

#include "CompiledHarness.h"
#include "Targets.h"

#include <cmath>
#include <limits>

using attic::testing::Tensor;

namespace {

constexpr int64_t kH = 2, kNq = 64, kNk = 48, kD = 16;
constexpr double kScale = 0.25;

const char *kSource = R"mlir(
func.func @lse(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x48x16xf32>, %v: tensor<1x2x48x16xf32>, %m: tensor<1x48xi1>) -> (tensor<1x2x64x16xf32>, tensor<1x2x64xf32>) {
  %i = tensor.empty() : tensor<1x2x64x16xf32>
  %l = tensor.empty() : tensor<1x2x64xf32>
  %o, %s = attic.block_attention ins(%q, %k, %v : tensor<1x2x64x16xf32>, tensor<1x2x48x16xf32>, tensor<1x2x48x16xf32>) mask(%m : tensor<1x48xi1>) outs(%i : tensor<1x2x64x16xf32>, lse %l : tensor<1x2x64xf32>) {layout = #attic.causal, scale = 0.25 : f32, block_q = 16 : i64, block_k = 16 : i64} -> tensor<1x2x64x16xf32>, tensor<1x2x64xf32>
  return %o, %s : tensor<1x2x64x16xf32>, tensor<1x2x64xf32>
}
)mlir";

using attic::testing::halves;
using attic::testing::name;
using attic::testing::Target;

/// The function with f16 query, key, value and output (the lse stays f32).
std::string sourceFor(Target t) {
  std::string source = kSource;
  if (halves(t))
    for (const char *shape : {"64x16xf32>", "48x16xf32>"})
      for (size_t at; (at = source.find(shape)) != std::string::npos;)
        source.replace(at + 6, 3, "f16");
  return source;
}

class Lse : public ::testing::TestWithParam<Target> {};

TEST_P(Lse, MatchesTheLogSumExpOfTheVisibleLogits) {
  attic_dtype dtype = halves(GetParam()) ? ATTIC_F16 : ATTIC_F32;
  Tensor q{dtype, {1, kH, kNq, kD}}, k{dtype, {1, kH, kNk, kD}},
      v{dtype, {1, kH, kNk, kD}}, mask{ATTIC_I1, {1, kNk}};
  for (Tensor *t : {&q, &k, &v})
    for (int64_t i = 0; i < t->numel(); ++i)
      t->set(i, std::sin(0.37 * double(i) + double(t == &k)) *
                    (t == &q ? 3.0 : 1.0));
  for (int64_t j = 0; j < kNk; ++j)
    mask.set(j, j < 4 ? 0.0 : 1.0);

  std::vector<const Tensor *> args = {&q, &k, &v, &mask};
  std::vector<Tensor> out =
      attic::testing::runOn(GetParam(), sourceFor(GetParam()), "lse", args);
  ASSERT_EQ(out.size(), 2u);
  const Tensor &o = out[0], &lse = out[1];
  double tolerance = halves(GetParam()) ? 2e-2 : 1e-5;

  for (int64_t h = 0; h < kH; ++h)
    for (int64_t i = 0; i < kNq; ++i) {
      std::vector<double> logits(kNk, -std::numeric_limits<double>::infinity());
      double top = -std::numeric_limits<double>::infinity();
      for (int64_t j = 0; j < kNk; ++j) {
        if (j > i || j < 4)
          continue;
        double dot = 0;
        for (int64_t c = 0; c < kD; ++c)
          dot += q[(h * kNq + i) * kD + c] * k[(h * kNk + j) * kD + c];
        logits[j] = kScale * dot;
        top = std::max(top, logits[j]);
      }
      double total = 0;
      std::vector<double> row(kD, 0.0);
      for (int64_t j = 0; j < kNk; ++j) {
        if (std::isinf(logits[j]))
          continue;
        double p = std::exp(logits[j] - top);
        total += p;
        for (int64_t c = 0; c < kD; ++c)
          row[c] += p * v[(h * kNk + j) * kD + c];
      }
      double got = lse[h * kNq + i];
      if (total == 0) {
        EXPECT_TRUE(std::isinf(got) && got < 0) << "h " << h << " row " << i;
        for (int64_t c = 0; c < kD; ++c)
          EXPECT_EQ(o[(h * kNq + i) * kD + c], 0.0);
        continue;
      }
      double expected = top + std::log(total);
      EXPECT_NEAR(got, expected, tolerance * std::max(1.0, std::abs(expected)))
          << "h " << h << " row " << i;
      for (int64_t c = 0; c < kD; ++c)
        EXPECT_NEAR(o[(h * kNq + i) * kD + c], row[c] / total, tolerance)
            << "h " << h << " row " << i << " col " << c;
    }
}

INSTANTIATE_TEST_SUITE_P(Targets, Lse,
                         ::testing::Values(Target::Cpu, Target::CudaEmulated,
                                           Target::SimulatedSimt,
                                           Target::SimulatedTensorCores),
                         [](const ::testing::TestParamInfo<Target> &info) {
                           return std::string(name(info.param));
                         });

} // namespace
