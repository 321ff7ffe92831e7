//===- FillTest.cpp - Deterministic random fills --------------------------===//

#include "attic/runtime/Runtime.h"
#include "attic/runtime/Runtime.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <set>
#include <string>

using attic::runtime::Tensor;

namespace {

const attic_dtype kAllDtypes[] = {ATTIC_F32, ATTIC_F16, ATTIC_BF16,
                                  ATTIC_F64, ATTIC_I1,  ATTIC_I8,
                                  ATTIC_I32, ATTIC_I64};

Tensor filled(attic_dtype dtype, std::vector<int64_t> shape, uint64_t seed,
              uint64_t stream, double lo, double hi) {
  Tensor t = Tensor::alloc(dtype, shape);
  char err[256];
  EXPECT_EQ(attic_fill_uniform(t.c(), seed, stream, lo, hi, err, sizeof(err)),
            ATTIC_OK)
      << err;
  return t;
}

bool sameBytes(const Tensor &a, const Tensor &b) {
  return a.nbytes() == b.nbytes() &&
         std::memcmp(a.data<void>(), b.data<void>(), a.nbytes()) == 0;
}

double uniformLo(attic_dtype dtype) { return dtype == ATTIC_I1 ? 0 : -3; }
double uniformHi(attic_dtype dtype) { return dtype == ATTIC_I1 ? 2 : 5; }

TEST(Fill, SameSeedSameBytesOtherStreamOrSeedDiffers) {
  for (attic_dtype dtype : kAllDtypes) {
    double lo = uniformLo(dtype), hi = uniformHi(dtype);
    Tensor a = filled(dtype, {257}, 42, 0, lo, hi);
    Tensor b = filled(dtype, {257}, 42, 0, lo, hi);
    Tensor otherStream = filled(dtype, {257}, 42, 1, lo, hi);
    Tensor otherSeed = filled(dtype, {257}, 43, 0, lo, hi);
    EXPECT_TRUE(sameBytes(a, b)) << attic_dtype_name(dtype);
    EXPECT_FALSE(sameBytes(a, otherStream)) << attic_dtype_name(dtype);
    EXPECT_FALSE(sameBytes(a, otherSeed)) << attic_dtype_name(dtype);
  }
}

TEST(Fill, ElementDependsOnlyOnFlatIndex) {
  for (attic_dtype dtype : kAllDtypes) {
    double lo = uniformLo(dtype), hi = uniformHi(dtype);
    Tensor flat = filled(dtype, {60}, 7, 3, lo, hi);
    Tensor shaped = filled(dtype, {3, 4, 5}, 7, 3, lo, hi);
    Tensor prefix = filled(dtype, {7}, 7, 3, lo, hi);
    EXPECT_TRUE(sameBytes(flat, shaped)) << attic_dtype_name(dtype);
    EXPECT_EQ(std::memcmp(flat.data<void>(), prefix.data<void>(),
                          prefix.nbytes()),
              0)
        << attic_dtype_name(dtype);
  }
}

TEST(Fill, FollowsTheDocumentedRecipe) {
  const uint64_t seed = 1234, stream = 5;
  Tensor f = filled(ATTIC_F32, {10}, seed, stream, -1.0, 3.0);
  Tensor i64 = filled(ATTIC_I64, {10}, seed, stream, -100.0, 100.0);
  for (uint64_t i = 0; i < 10; ++i) {
    uint32_t block[4];
    attic_philox4x32(seed, stream, i / 4, block);
    float u = static_cast<float>(block[i % 4] >> 8) * 0x1p-24f;
    float expected = -1.0f + 4.0f * u;
    EXPECT_EQ(f.data<float>()[i], expected) << i;

    attic_philox4x32(seed, stream, i / 2, block);
    unsigned j = i % 2;
    uint64_t r = block[2 * j] | static_cast<uint64_t>(block[2 * j + 1]) << 32;
    int64_t expectedInt = -100 + static_cast<int64_t>(
                                     (static_cast<unsigned __int128>(r) * 200) >>
                                     64);
    EXPECT_EQ(i64.data<int64_t>()[i], expectedInt) << i;
  }
}

TEST(Fill, FloatsStayInRange) {
  const attic_dtype dtypes[] = {ATTIC_F32, ATTIC_F16, ATTIC_BF16, ATTIC_F64};
  struct Range {
    double lo, hi;
  } ranges[] = {{-3, 5}, {0, 1}, {1, 1.01}, {-0.001, 0.001}, {100, 101}};
  for (attic_dtype dtype : dtypes) {
    for (Range r : ranges) {
      Tensor t = filled(dtype, {20000}, 9, 0, r.lo, r.hi);
      double sum = 0;
      // f64 draws in double, the others through float.
      bool f64 = dtype == ATTIC_F64;
      double loF = f64 ? r.lo : static_cast<float>(r.lo),
             hiF = f64 ? r.hi : static_cast<float>(r.hi);
      for (int64_t i = 0; i < t.numel(); ++i) {
        double v = t.get(i);
        ASSERT_GE(v, loF) << attic_dtype_name(dtype) << " [" << r.lo << ", "
                          << r.hi << ")";
        ASSERT_LT(v, hiF) << attic_dtype_name(dtype) << " [" << r.lo << ", "
                          << r.hi << ")";
        sum += v;
      }
      // Rounding to a coarse dtype (bf16 has a 0.5 step at 100) skews the
      // mean, so only ranges wide against the step check the spread.
      if (r.hi - r.lo >= 1 && std::fabs(r.lo) < 10) {
        EXPECT_NEAR(sum / t.numel(), (r.lo + r.hi) / 2, (r.hi - r.lo) * 0.02)
            << attic_dtype_name(dtype);
      }
    }
  }
}

TEST(Fill, IntegersStayInRangeAndCoverIt) {
  struct Case {
    attic_dtype dtype;
    double lo, hi;
  } cases[] = {{ATTIC_I8, -5, 5},
               {ATTIC_I8, -128, 128},
               {ATTIC_I32, -3, 4},
               {ATTIC_I32, -0x1p31, 0x1p31},
               {ATTIC_I64, 10, 17},
               {ATTIC_I64, -0x1p63, 0x1p63},
               {ATTIC_I1, 0, 2},
               {ATTIC_I8, 0.5, 3.5}}; // ceil: {1, 2, 3}
  for (const Case &c : cases) {
    Tensor t = filled(c.dtype, {5000}, 11, 2, c.lo, c.hi);
    std::set<double> seen;
    for (int64_t i = 0; i < t.numel(); ++i) {
      double v = t.get(i);
      ASSERT_GE(v, std::ceil(c.lo));
      ASSERT_LT(v, std::ceil(c.hi));
      seen.insert(v);
    }
    double span = std::ceil(c.hi) - std::ceil(c.lo);
    if (span <= 16) {
      EXPECT_EQ(seen.size(), static_cast<size_t>(span))
          << attic_dtype_name(c.dtype) << " [" << c.lo << ", " << c.hi << ")";
    }
  }
}

TEST(Fill, Bernoulli) {
  for (attic_dtype dtype : {ATTIC_I1, ATTIC_F32, ATTIC_BF16, ATTIC_I32}) {
    Tensor t = Tensor::alloc(dtype, {100000});
    char err[256];
    ASSERT_EQ(attic_fill_bernoulli(t.c(), 5, 0, 0.3, err, sizeof(err)),
              ATTIC_OK)
        << err;
    int64_t ones = 0;
    for (int64_t i = 0; i < t.numel(); ++i) {
      double v = t.get(i);
      ASSERT_TRUE(v == 0 || v == 1);
      ones += v == 1;
    }
    EXPECT_NEAR(ones / 100000.0, 0.3, 0.01) << attic_dtype_name(dtype);

    Tensor again = Tensor::alloc(dtype, {100000});
    ASSERT_EQ(attic_fill_bernoulli(again.c(), 5, 0, 0.3, nullptr, 0),
              ATTIC_OK);
    EXPECT_TRUE(sameBytes(t, again));
  }
  Tensor t = Tensor::alloc(ATTIC_I1, {1000});
  ASSERT_EQ(attic_fill_bernoulli(t.c(), 1, 0, 0.0, nullptr, 0), ATTIC_OK);
  for (int64_t i = 0; i < t.numel(); ++i)
    ASSERT_EQ(t.get(i), 0.0);
  ASSERT_EQ(attic_fill_bernoulli(t.c(), 1, 0, 1.0, nullptr, 0), ATTIC_OK);
  for (int64_t i = 0; i < t.numel(); ++i)
    ASSERT_EQ(t.get(i), 1.0);
}

TEST(Fill, EmptyAndScalarTensors) {
  Tensor empty = Tensor::alloc(ATTIC_F32, {3, 0});
  EXPECT_EQ(attic_fill_uniform(empty.c(), 1, 0, 0, 1, nullptr, 0), ATTIC_OK);
  Tensor scalar = Tensor::alloc(ATTIC_F64, {});
  ASSERT_EQ(attic_fill_uniform(scalar.c(), 1, 0, 2, 3, nullptr, 0), ATTIC_OK);
  EXPECT_GE(scalar.get(0), 2.0);
  EXPECT_LT(scalar.get(0), 3.0);
}

TEST(Fill, Errors) {
  char err[256];
  Tensor f = Tensor::alloc(ATTIC_F32, {4});
  EXPECT_EQ(attic_fill_uniform(f.c(), 1, 0, 1, 1, err, sizeof(err)),
            ATTIC_ERROR);
  EXPECT_STREQ(err, "attic_fill_uniform: range [1, 1) is empty in float");
  EXPECT_EQ(attic_fill_uniform(f.c(), 1, 0, NAN, 1, err, sizeof(err)),
            ATTIC_ERROR);
  EXPECT_EQ(attic_fill_uniform(f.c(), 1, 0, -INFINITY, 1, err, sizeof(err)),
            ATTIC_ERROR);
  EXPECT_EQ(attic_fill_uniform(f.c(), 1, 0, -3e38, 3e38, err, sizeof(err)),
            ATTIC_ERROR);
  EXPECT_STREQ(err,
               "attic_fill_uniform: range [-3e+38, 3e+38) is too wide for "
               "float");

  // Bounds as they read back (%g printed [1, 1) here), and f64 in double:
  // 1e300 is a range for it, 1 + 1e-12 a nonempty one.
  EXPECT_EQ(attic_fill_uniform(f.c(), 1, 0, 1, 1.000000001, err, sizeof(err)),
            ATTIC_ERROR);
  EXPECT_STREQ(err,
               "attic_fill_uniform: range [1, 1.000000001) is empty in float");
  Tensor d = Tensor::alloc(ATTIC_F64, {64});
  ASSERT_EQ(attic_fill_uniform(d.c(), 1, 0, -1e300, 1e300, err, sizeof(err)),
            ATTIC_OK);
  ASSERT_EQ(attic_fill_uniform(d.c(), 1, 0, 1, 1 + 1e-12, err, sizeof(err)),
            ATTIC_OK);
  std::set<double> distinct;
  for (int64_t i = 0; i < d.numel(); ++i) {
    EXPECT_GE(d.get(i), 1.0);
    EXPECT_LT(d.get(i), 1 + 1e-12);
    distinct.insert(d.get(i));
  }
  EXPECT_GT(distinct.size(), 32u); // 53-bit draws, not float's 24
  EXPECT_EQ(attic_fill_uniform(d.c(), 1, 0, -1e308, 1e308, err, sizeof(err)),
            ATTIC_ERROR);
  EXPECT_STREQ(err,
               "attic_fill_uniform: range [-1e+308, 1e+308) is too wide for "
               "f64");
  EXPECT_EQ(attic_fill_uniform(d.c(), 1, 0, 2, 2, err, sizeof(err)),
            ATTIC_ERROR);
  EXPECT_STREQ(err, "attic_fill_uniform: range [2, 2) is empty");

  Tensor bf = Tensor::alloc(ATTIC_BF16, {4});
  EXPECT_EQ(attic_fill_uniform(bf.c(), 1, 0, 1.001, 1.002, err, sizeof(err)),
            ATTIC_ERROR);
  EXPECT_STREQ(err, "attic_fill_uniform: no bf16 value lies in [1.001, 1.002)");

  Tensor i8 = Tensor::alloc(ATTIC_I8, {4});
  EXPECT_EQ(attic_fill_uniform(i8.c(), 1, 0, 0, 200, err, sizeof(err)),
            ATTIC_ERROR);
  EXPECT_STREQ(err, "attic_fill_uniform: range [0, 200) does not fit in i8");
  EXPECT_EQ(attic_fill_uniform(i8.c(), 1, 0, 0.2, 0.7, err, sizeof(err)),
            ATTIC_ERROR);
  EXPECT_STREQ(err, "attic_fill_uniform: range [0.2, 0.7) holds no integer");

  EXPECT_EQ(attic_fill_bernoulli(f.c(), 1, 0, 1.5, err, sizeof(err)),
            ATTIC_ERROR);
  EXPECT_STREQ(err, "attic_fill_bernoulli: probability 1.5 is not in [0, 1]");
  EXPECT_EQ(attic_fill_bernoulli(f.c(), 1, 0, NAN, nullptr, 0), ATTIC_ERROR);
  EXPECT_EQ(attic_fill_uniform(nullptr, 1, 0, 0, 1, err, sizeof(err)),
            ATTIC_ERROR);
  EXPECT_STREQ(err, "attic_fill_uniform: tensor is NULL");

  // The fills write the shape's elements: a tensor with none, data NULL
  // and nbytes > 0 was written through NULL (nbytes' worth).
  attic_tensor noElements = *f.c();
  noElements.shape[0] = 0;
  noElements.data = nullptr;
  EXPECT_EQ(attic_fill_uniform(&noElements, 1, 0, 0, 1, err, sizeof(err)),
            ATTIC_OK);
  EXPECT_EQ(attic_fill_bernoulli(&noElements, 1, 0, 0.5, err, sizeof(err)),
            ATTIC_OK);
  attic_tensor shortStorage = *f.c();
  shortStorage.nbytes = 4;
  EXPECT_EQ(attic_fill_uniform(&shortStorage, 1, 0, 0, 1, err, sizeof(err)),
            ATTIC_ERROR);
  EXPECT_STREQ(err, "attic_fill_uniform: tensor holds 4 bytes but its shape "
                    "needs 16");
}

} // namespace
