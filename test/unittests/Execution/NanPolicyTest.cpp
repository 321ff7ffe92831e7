//===- NanPolicyTest.cpp - one NaN policy on every target -----------------===//
//
// The tile loop (attic-tile-block-attention) writes the masking, the online
// softmax and the fully-masked-row rule once, so every target follows one
// policy. It is checked here on compiled code, identically for the CPU
// mapping, for the CUDA pipeline's GPU mapping run as CPU loops
// (attic-gpu-emulate), and for the CUDA mapping's kernels in the GPU
// simulator: the SIMT kernel (f32) and the tensor-core kernel (the same
// function in f16); test/Integration/cuda-device-* runs the same rules on a
// GPU. Causal attention, N = 64 in blocks of 16, D = 16:
//
//   - a query row without a visible key is 0 (never NaN);
//   - a NaN in a query row makes that row NaN, and only it;
//   - a NaN in key row j makes the rows that see j NaN (rows i >= j); rows
//     that do not see it stay finite, even in j's block, where the key is
//     masked (a masked logit never contributes);
//   - a bias of +inf on key j makes the rows that see j NaN (inf - inf);
//   - a NaN in value row j reaches, in that column, every row whose query
//     block visits j's key block (P is 0 there but 0 * NaN is NaN, as with
//     PyTorch's math SDPA); rows of query blocks that skip that block stay
//     finite;
//   - without a bias, key mask or score region, a row whose visible logits
//     all overflow f32 to -inf (finite inputs, a huge scale) is NaN, not an
//     empty row's 0, whether its keys lie in full or partial blocks and
//     with the scale folded or not; one finite visible logit among them
//     gives that key's value row.
//
//===----------------------------------------------------------------------===//

#include "CompiledHarness.h"
#include "Targets.h"

#include <cmath>
#include <limits>

using attic::testing::Tensor;

namespace {

constexpr int64_t kN = 64, kD = 16;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

const char *kSource = R"mlir(
func.func @causal(%q: tensor<1x1x64x16xf32>, %k: tensor<1x1x64x16xf32>, %v: tensor<1x1x64x16xf32>, %b: tensor<1x64xf32>, %m: tensor<1x64xi1>) -> tensor<1x1x64x16xf32> {
  %o = attic.attention %q, %k, %v causal bias(%b : tensor<1x64xf32>) mask(%m : tensor<1x64xi1>) : tensor<1x1x64x16xf32>, tensor<1x1x64x16xf32>, tensor<1x1x64x16xf32> -> tensor<1x1x64x16xf32>
  return %o : tensor<1x1x64x16xf32>
}
)mlir";

using attic::testing::halves;
using attic::testing::name;
using attic::testing::Target;

std::string sourceFor(Target t) {
  std::string source = kSource;
  if (halves(t))
    for (size_t at; (at = source.find("xf32>")) != std::string::npos;)
      source.replace(at, 5, "xf16>");
  return source;
}

struct Inputs {
  attic_dtype dtype;
  Tensor q{dtype, {1, 1, kN, kD}}, k{dtype, {1, 1, kN, kD}};
  Tensor v{dtype, {1, 1, kN, kD}}, bias{dtype, {1, kN}};
  Tensor mask{ATTIC_I1, {1, kN}};
  explicit Inputs(attic_dtype dtype) : dtype(dtype) {
    for (Tensor *t : {&q, &k, &v})
      for (int64_t i = 0; i < t->numel(); ++i)
        t->set(i, std::sin(0.37 * double(i) + double(t == &k)));
    for (int64_t j = 0; j < kN; ++j) {
      bias.set(j, 0.0);
      mask.set(j, 1.0);
    }
  }
};

class NanPolicy : public ::testing::TestWithParam<Target> {
protected:
  Inputs inputs() { return Inputs(halves(GetParam()) ? ATTIC_F16 : ATTIC_F32); }

  Tensor run(Inputs &in) {
    std::vector<const Tensor *> args = {&in.q, &in.k, &in.v, &in.bias,
                                        &in.mask};
    std::vector<Tensor> out = attic::testing::runOn(
        GetParam(), sourceFor(GetParam()), "causal", args);
    EXPECT_EQ(out.size(), 1u);
    return out.empty() ? Tensor() : std::move(out[0]);
  }
  static double at(const Tensor &o, int64_t row, int64_t col) {
    return o[row * kD + col];
  }
  static bool rowIsNaN(const Tensor &o, int64_t row) {
    for (int64_t c = 0; c < kD; ++c)
      if (!std::isnan(at(o, row, c)))
        return false;
    return true;
  }
  static bool rowIsFinite(const Tensor &o, int64_t row) {
    for (int64_t c = 0; c < kD; ++c)
      if (!std::isfinite(at(o, row, c)))
        return false;
    return true;
  }
};

TEST_P(NanPolicy, RowsWithoutVisibleKeysAreZero) {
  Inputs in = inputs();
  // Keys 0..9 masked: rows 0..9 see nothing.
  for (int64_t j = 0; j < 10; ++j)
    in.mask.set(j, 0.0);
  Tensor o = run(in);
  for (int64_t i = 0; i < kN; ++i)
    for (int64_t c = 0; c < kD; ++c) {
      ASSERT_TRUE(std::isfinite(at(o, i, c))) << "row " << i;
      if (i < 10)
        ASSERT_EQ(at(o, i, c), 0.0) << "row " << i;
    }
  EXPECT_NE(at(o, 10, 0), 0.0);
}

TEST_P(NanPolicy, NaNInAQueryRowStaysInThatRow) {
  Inputs in = inputs();
  in.q.set(21 * kD + 3, kNaN);
  Tensor o = run(in);
  for (int64_t i = 0; i < kN; ++i) {
    if (i == 21)
      EXPECT_TRUE(rowIsNaN(o, i)) << "row " << i;
    else
      EXPECT_TRUE(rowIsFinite(o, i)) << "row " << i;
  }
}

TEST_P(NanPolicy, NaNInAKeyReachesTheRowsThatSeeIt) {
  Inputs in = inputs();
  in.k.set(20 * kD + 5, kNaN);
  Tensor o = run(in);
  for (int64_t i = 0; i < kN; ++i) {
    if (i >= 20)
      EXPECT_TRUE(rowIsNaN(o, i)) << "row " << i;
    else // rows 16..19 visit the block of key 20 with it masked
      EXPECT_TRUE(rowIsFinite(o, i)) << "row " << i;
  }
}

TEST_P(NanPolicy, PlusInfinityBiasMakesTheRowsThatSeeItNaN) {
  Inputs in = inputs();
  in.bias.set(33, std::numeric_limits<double>::infinity());
  Tensor o = run(in);
  for (int64_t i = 0; i < kN; ++i) {
    if (i >= 33)
      EXPECT_TRUE(rowIsNaN(o, i)) << "row " << i;
    else
      EXPECT_TRUE(rowIsFinite(o, i)) << "row " << i;
  }
}

TEST_P(NanPolicy, NaNInAValueReachesTheQueryBlocksThatVisitItsBlock) {
  Inputs in = inputs();
  in.v.set(20 * kD + 2, kNaN); // key 20: key block 1 of 16 keys
  Tensor o = run(in);
  for (int64_t i = 0; i < kN; ++i)
    for (int64_t c = 0; c < kD; ++c) {
      bool reached = i >= 16 && c == 2; // query blocks 1..3 visit block 1
      if (reached)
        EXPECT_TRUE(std::isnan(at(o, i, c))) << "row " << i;
      else
        EXPECT_TRUE(std::isfinite(at(o, i, c))) << "row " << i << " col " << c;
    }
}

// scale * q . k overflows f32 to -inf for rows 0, 37 and 50 (q = -sign,
// every key's entries of the sign's side, |q . k| >= 8, |scale| = 2e38):
// row 0 sees key 0 only (a partial block), row 37 keys 0..37 (two full
// blocks and a partial one), row 50 keys 0..50, key 45 among them with
// k = 0 and so a logit of 0. The other rows have q = 0: logits 0.
// A positive scale is folded into the exponent (c = 2.9e38 is finite), a
// negative one is not.
const char *kOverflowSource = R"mlir(
func.func @overflow(%q: tensor<1x1x64x16xf32>, %k: tensor<1x1x64x16xf32>, %v: tensor<1x1x64x16xf32>) -> tensor<1x1x64x16xf32> {
  %o = attic.attention %q, %k, %v causal scale SCALE : tensor<1x1x64x16xf32>, tensor<1x1x64x16xf32>, tensor<1x1x64x16xf32> -> tensor<1x1x64x16xf32>
  return %o : tensor<1x1x64x16xf32>
}
)mlir";

/// Runs kOverflowSource (causal, no bias or mask) with `scale`.
Tensor runPlain(Target target, const std::string &scale, const Tensor &q,
                const Tensor &k, const Tensor &v) {
  std::string source = kOverflowSource;
  source.replace(source.find("SCALE"), 5, scale);
  if (halves(target))
    for (size_t at; (at = source.find("xf32>")) != std::string::npos;)
      source.replace(at, 5, "xf16>");
  std::vector<Tensor> out =
      attic::testing::runOn(target, source, "overflow", {&q, &k, &v});
  EXPECT_EQ(out.size(), 1u);
  return out.empty() ? Tensor() : std::move(out[0]);
}

void overflowCase(Target target, double sign) {
  attic_dtype dtype = halves(target) ? ATTIC_F16 : ATTIC_F32;
  Tensor q{dtype, {1, 1, kN, kD}}, k{dtype, {1, 1, kN, kD}};
  Tensor v{dtype, {1, 1, kN, kD}};
  for (int64_t i = 0; i < kN * kD; ++i) {
    q.set(i, 0.0);
    k.set(i, sign * (1.0 + 0.5 * std::sin(0.37 * double(i))));
    v.set(i, std::sin(0.11 * double(i)));
  }
  for (int64_t row : {0, 37, 50})
    for (int64_t d = 0; d < kD; ++d)
      q.set(row * kD + d, -1.0);
  for (int64_t d = 0; d < kD; ++d)
    k.set(45 * kD + d, 0.0);
  Tensor o = runPlain(target, sign > 0 ? "2.0e38" : "-2.0e38", q, k, v);
  ASSERT_EQ(o.numel(), kN * kD);
  for (int64_t i = 0; i < kN; ++i)
    for (int64_t c = 0; c < kD; ++c) {
      double x = o[i * kD + c];
      if (i == 0 || i == 37)
        EXPECT_TRUE(std::isnan(x)) << "row " << i << " col " << c;
      else if (i == 50)
        EXPECT_NEAR(x, v[45 * kD + c], 1e-3) << "row 50 col " << c;
      else
        EXPECT_TRUE(std::isfinite(x)) << "row " << i << " col " << c;
    }
}

TEST_P(NanPolicy, OverflowedRowsAreNaNWithTheScaleFolded) {
  overflowCase(GetParam(), 1.0);
}

TEST_P(NanPolicy, OverflowedRowsAreNaNWithTheScaleUnfolded) {
  overflowCase(GetParam(), -1.0);
}

// Where overflow is told apart from masking, a visible NaN logit still
// makes its row NaN: in the diagonal (partial) block too, whose clamp of
// visible logits to -FLT_MAX must not turn NaN into a number.
TEST_P(NanPolicy, NaNInAKeyReachesTheRowsThatSeeItWithoutATerm) {
  Inputs in = inputs();
  in.k.set(20 * kD + 5, kNaN);
  for (const char *scale : {"0.25", "-0.25"}) {
    Tensor o = runPlain(GetParam(), scale, in.q, in.k, in.v);
    ASSERT_EQ(o.numel(), kN * kD);
    for (int64_t i = 0; i < kN; ++i) {
      if (i >= 20)
        EXPECT_TRUE(rowIsNaN(o, i)) << "scale " << scale << " row " << i;
      else
        EXPECT_TRUE(rowIsFinite(o, i)) << "scale " << scale << " row " << i;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Targets, NanPolicy,
                         ::testing::Values(Target::Cpu, Target::CudaEmulated,
                                           Target::SimulatedSimt,
                                           Target::SimulatedTensorCores),
                         [](const ::testing::TestParamInfo<Target> &info) {
                           return std::string(name(info.param));
                         });

} // namespace
