//===- CompareTest.cpp - Element-wise tolerance comparison -----------------===//

#include "attic/runtime/Runtime.h"
#include "attic/runtime/Runtime.hpp"

#include <gtest/gtest.h>

#include <cmath>

using attic::runtime::Tensor;

namespace {

TEST(Compare, WithinTolerance) {
  Tensor a = Tensor::alloc(ATTIC_F32, {2, 2});
  Tensor b = Tensor::alloc(ATTIC_F16, {2, 2});
  for (int i = 0; i < 4; ++i) {
    a.set(i, i + 0.0001);
    b.set(i, i);
  }
  attic_compare_result r;
  char err[256];
  ASSERT_EQ(attic_tensor_allclose(a.c(), b.c(), 1e-3, 1e-3, &r, err,
                                  sizeof(err)),
            ATTIC_OK)
      << err;
  EXPECT_EQ(r.numMismatches, 0);
  EXPECT_EQ(r.firstMismatch, -1);
  EXPECT_NEAR(r.maxAbsErr, 0.0001, 1e-6);
}

TEST(Compare, ReportsFirstMismatch) {
  Tensor a = Tensor::alloc(ATTIC_F64, {5});
  Tensor b = Tensor::alloc(ATTIC_F64, {5});
  a.set(2, 1.5);
  a.set(4, -1.0);
  attic_compare_result r;
  char err[256];
  ASSERT_EQ(attic_tensor_allclose(a.c(), b.c(), 0, 0.1, &r, err, sizeof(err)),
            ATTIC_ERROR);
  EXPECT_EQ(r.numMismatches, 2);
  EXPECT_EQ(r.firstMismatch, 2);
  EXPECT_EQ(r.maxAbsErr, 1.5);
  EXPECT_STREQ(err, "attic_tensor_allclose: 2 of 5 elements differ (rtol=0, "
                    "atol=0.1); first at flat index 2: actual 1.5, expected "
                    "0; max abs error 1.5");
}

TEST(Compare, NaNAndInf) {
  Tensor a = Tensor::alloc(ATTIC_F32, {3});
  Tensor b = Tensor::alloc(ATTIC_F32, {3});
  a.set(0, NAN);
  b.set(0, NAN);
  a.set(1, INFINITY);
  b.set(1, INFINITY);
  EXPECT_EQ(attic_tensor_allclose(a.c(), b.c(), 0, 0, nullptr, nullptr, 0),
            ATTIC_OK);
  b.set(2, NAN);
  EXPECT_EQ(attic_tensor_allclose(a.c(), b.c(), 1, 1, nullptr, nullptr, 0),
            ATTIC_ERROR);
  b.set(2, 0);
  b.set(1, -INFINITY);
  EXPECT_EQ(attic_tensor_allclose(a.c(), b.c(), 1, 1, nullptr, nullptr, 0),
            ATTIC_ERROR);
}

TEST(Compare, ShapeMismatch) {
  Tensor a = Tensor::alloc(ATTIC_F32, {2, 3});
  Tensor b = Tensor::alloc(ATTIC_F32, {3, 2});
  Tensor s = Tensor::alloc(ATTIC_F32, {});
  char err[256];
  EXPECT_EQ(attic_tensor_allclose(a.c(), b.c(), 0, 0, nullptr, err,
                                  sizeof(err)),
            ATTIC_ERROR);
  EXPECT_STREQ(err, "attic_tensor_allclose: shape mismatch: actual [2x3], "
                    "expected [3x2]");
  EXPECT_EQ(attic_tensor_allclose(s.c(), b.c(), 0, 0, nullptr, err,
                                  sizeof(err)),
            ATTIC_ERROR);
  EXPECT_STREQ(err, "attic_tensor_allclose: shape mismatch: actual [], "
                    "expected [3x2]");
}

// A tensor without storage for its shape is an error, not a match: a
// freed tensor (data NULL, shape kept) read as NaN everywhere and matched
// an all-NaN tensor, or another freed one, with ATTIC_OK (an audit).
TEST(Compare, TensorsWithoutStorage) {
  Tensor a = Tensor::alloc(ATTIC_F32, {2, 3});
  Tensor nan = Tensor::alloc(ATTIC_F32, {2, 3});
  for (int i = 0; i < 6; ++i)
    nan.set(i, NAN);
  attic_tensor freed = *a.c();
  freed.data = nullptr;
  freed.nbytes = 0;
  char err[256];
  EXPECT_EQ(
      attic_tensor_allclose(&freed, nan.c(), 0, 0, nullptr, err, sizeof(err)),
      ATTIC_ERROR);
  EXPECT_STREQ(err, "attic_tensor_allclose: the actual tensor has no storage");
  EXPECT_EQ(
      attic_tensor_allclose(&freed, &freed, 0, 0, nullptr, err, sizeof(err)),
      ATTIC_ERROR);
  attic_tensor shortStorage = *a.c();
  shortStorage.nbytes = 8;
  EXPECT_EQ(attic_tensor_allclose(a.c(), &shortStorage, 0, 0, nullptr, err,
                                  sizeof(err)),
            ATTIC_ERROR);
  EXPECT_STREQ(err, "attic_tensor_allclose: the expected tensor holds 8 "
                    "bytes but its shape needs 24");
  attic_tensor negative = *a.c();
  negative.shape[0] = -2;
  EXPECT_EQ(attic_tensor_allclose(&negative, &negative, 0, 0, nullptr, err,
                                  sizeof(err)),
            ATTIC_ERROR);
  EXPECT_STREQ(err, "attic_tensor_allclose: the actual tensor has a negative "
                    "size: -2x3");
  // A shape whose bytes wrap around 2^64 (4 * 2^62 = 0) is not storage for
  // 8 bytes: the product was computed in int64, wrapped, and passed.
  attic_tensor wrapped = *a.c();
  wrapped.rank = 2;
  wrapped.shape[0] = int64_t(1) << 62;
  wrapped.shape[1] = 4;
  EXPECT_EQ(attic_tensor_allclose(&wrapped, &wrapped, 0, 0, nullptr, err,
                                  sizeof(err)),
            ATTIC_ERROR);
  EXPECT_STREQ(err, "attic_tensor_allclose: the actual tensor has a shape of "
                    "2^63 bytes or more: 4611686018427387904x4");
  // Empty tensors need no storage.
  Tensor e = Tensor::alloc(ATTIC_F32, {0, 3});
  attic_tensor emptyNoData = *e.c();
  emptyNoData.data = nullptr;
  EXPECT_EQ(attic_tensor_allclose(&emptyNoData, e.c(), 0, 0, nullptr, err,
                                  sizeof(err)),
            ATTIC_OK);
}

} // namespace
