//===- TensorTest.cpp - Tensor allocation and element access --------------===//

#include "attic/runtime/Runtime.h"
#include "attic/runtime/Runtime.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>

extern "C" int atticCApiSmokeTest(void);

namespace {

TEST(Tensor, CApiFromC) { EXPECT_EQ(atticCApiSmokeTest(), 0); }

TEST(Tensor, AllocIsZeroedAndAligned) {
  const int64_t shape[] = {3, 5, 7};
  attic_tensor t;
  char err[128];
  ASSERT_EQ(attic_tensor_alloc(&t, ATTIC_F64, 3, shape, err, sizeof(err)),
            ATTIC_OK)
      << err;
  EXPECT_EQ(t.dtype, ATTIC_F64);
  EXPECT_EQ(t.rank, 3);
  EXPECT_EQ(t.shape[2], 7);
  EXPECT_EQ(t.shape[3], 0);
  EXPECT_EQ(attic_tensor_numel(&t), 105);
  EXPECT_EQ(t.nbytes, 105u * 8);
  ASSERT_NE(t.data, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(t.data) % 64, 0u);
  for (size_t i = 0; i < t.nbytes; ++i)
    ASSERT_EQ(static_cast<unsigned char *>(t.data)[i], 0) << i;
  attic_tensor_free(&t);
  EXPECT_EQ(t.data, nullptr);
  attic_tensor_free(&t); // Double free is harmless.
}

TEST(Tensor, RankZeroAndEmpty) {
  attic_tensor scalar;
  ASSERT_EQ(attic_tensor_alloc(&scalar, ATTIC_I32, 0, nullptr, nullptr, 0),
            ATTIC_OK);
  EXPECT_EQ(attic_tensor_numel(&scalar), 1);
  EXPECT_EQ(scalar.nbytes, 4u);
  attic_tensor_free(&scalar);

  const int64_t shape[] = {4, 0, 3};
  attic_tensor empty;
  ASSERT_EQ(attic_tensor_alloc(&empty, ATTIC_F16, 3, shape, nullptr, 0),
            ATTIC_OK);
  EXPECT_EQ(attic_tensor_numel(&empty), 0);
  EXPECT_EQ(empty.nbytes, 0u);
  EXPECT_NE(empty.data, nullptr);
  EXPECT_TRUE(std::isnan(attic_tensor_get(&empty, 0)));
  attic_tensor_free(&empty);
}

TEST(Tensor, FreeOnZeroedStructAndNull) {
  attic_tensor t;
  std::memset(&t, 0, sizeof(t));
  attic_tensor_free(&t);
  attic_tensor_free(nullptr);
  EXPECT_EQ(attic_tensor_numel(nullptr), 0);
}

TEST(Tensor, AllocErrors) {
  attic_tensor t;
  char err[256];
  const int64_t nine[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
  EXPECT_EQ(attic_tensor_alloc(&t, ATTIC_F32, 9, nine, err, sizeof(err)),
            ATTIC_ERROR);
  EXPECT_STREQ(err, "attic_tensor_alloc: rank 9 is not in [0, 8]");
  EXPECT_EQ(t.data, nullptr);

  const int64_t negative[] = {2, -1};
  EXPECT_EQ(attic_tensor_alloc(&t, ATTIC_F32, 2, negative, err, sizeof(err)),
            ATTIC_ERROR);
  EXPECT_STREQ(err, "attic_tensor_alloc: dimension 1 is negative (-1)");

  const int64_t huge[] = {INT64_C(1) << 40, INT64_C(1) << 40};
  EXPECT_EQ(attic_tensor_alloc(&t, ATTIC_F32, 2, huge, err, sizeof(err)),
            ATTIC_ERROR);
  EXPECT_STREQ(err, "attic_tensor_alloc: tensor size overflows");
  // A zero dim does not excuse huge others: their strides would overflow
  // (issue 20, 3), and NumPy refuses such shapes too.
  const int64_t emptyButHuge[] = {1, 0, INT64_C(1) << 62, 4};
  EXPECT_EQ(attic_tensor_alloc(&t, ATTIC_F32, 4, emptyButHuge, err,
                               sizeof(err)),
            ATTIC_ERROR);
  EXPECT_STREQ(err, "attic_tensor_alloc: tensor size overflows");
  const int64_t emptyLarge[] = {0, 2, INT64_C(1) << 40, 4};
  ASSERT_EQ(attic_tensor_alloc(&t, ATTIC_F32, 4, emptyLarge, err, sizeof(err)),
            ATTIC_OK);
  EXPECT_EQ(attic_tensor_numel(&t), 0);
  EXPECT_EQ(t.nbytes, 0u);
  attic_tensor_free(&t);
  const int64_t justTooBig[] = {INT64_C(1) << 61};
  EXPECT_EQ(attic_tensor_alloc(&t, ATTIC_F32, 1, justTooBig, nullptr, 0),
            ATTIC_ERROR);

  EXPECT_EQ(attic_tensor_alloc(&t, ATTIC_F32, -1, nullptr, err, sizeof(err)),
            ATTIC_ERROR);
  EXPECT_EQ(attic_tensor_alloc(&t, static_cast<attic_dtype>(9), 0, nullptr,
                               err, sizeof(err)),
            ATTIC_ERROR);
  EXPECT_STREQ(err, "attic_tensor_alloc: invalid dtype 9");
  // A tiny buffer gets a truncated, terminated message.
  char tiny[8];
  EXPECT_EQ(attic_tensor_alloc(&t, ATTIC_F32, 9, nine, tiny, sizeof(tiny)),
            ATTIC_ERROR);
  EXPECT_STREQ(tiny, "attic_t");
}

// attic_tensor_check: what every runtime entry point that takes a
// caller's tensor checks first (a shared helper since 2026-12-02; four
// copies disagreed before: the fills accepted a tensor with no elements,
// data NULL and nbytes > 0 and wrote through NULL).
TEST(Tensor, Check) {
  attic::runtime::Tensor ok = attic::runtime::Tensor::alloc(ATTIC_F32, {2, 3});
  char err[256];
  EXPECT_EQ(attic_tensor_check(ok.c(), "x", err, sizeof(err)), ATTIC_OK);
  attic_tensor t = *ok.c();
  t.nbytes = 100; // more than the shape needs is allowed
  EXPECT_EQ(attic_tensor_check(&t, "x", err, sizeof(err)), ATTIC_OK);

  auto check = [&](const attic_tensor *tensor) -> std::string {
    if (attic_tensor_check(tensor, "x", err, sizeof(err)) == ATTIC_OK)
      return "ok";
    return err;
  };
  EXPECT_EQ(check(nullptr), "x is NULL");
  t = *ok.c();
  t.dtype = static_cast<attic_dtype>(9);
  EXPECT_EQ(check(&t), "x has an invalid dtype 9");
  t = *ok.c();
  t.rank = 9;
  EXPECT_EQ(check(&t), "x has rank 9, not in [0, 8]");
  t.rank = -1;
  EXPECT_EQ(check(&t), "x has rank -1, not in [0, 8]");
  t = *ok.c();
  t.shape[1] = -3;
  EXPECT_EQ(check(&t), "x has a negative size: 2x-3");
  t = *ok.c();
  t.data = nullptr;
  EXPECT_EQ(check(&t), "x has no storage");
  t = *ok.c();
  t.nbytes = 20;
  EXPECT_EQ(check(&t), "x holds 20 bytes but its shape needs 24");
  // 4 * 2^62 f32 wraps to 0 bytes in 64 bits.
  t = *ok.c();
  t.shape[0] = INT64_C(1) << 62;
  t.shape[1] = 4;
  EXPECT_EQ(check(&t),
            "x has a shape of 2^63 bytes or more: 4611686018427387904x4");
  EXPECT_EQ(attic_tensor_numel(&t), -1);
  t.shape[1] = 0; // no elements, but strides of 2^64 bytes
  EXPECT_EQ(check(&t), "x has a shape of 2^63 bytes or more: "
                       "4611686018427387904x0");
  EXPECT_EQ(attic_tensor_numel(&t), 0);
  // No elements: no storage needed.
  t = *ok.c();
  t.shape[0] = 0;
  t.data = nullptr;
  t.nbytes = 0;
  EXPECT_EQ(check(&t), "ok");
  t.rank = 0; // a scalar has an element
  EXPECT_EQ(check(&t), "x has no storage");
  // `what` NULL reads as "tensor".
  EXPECT_EQ(attic_tensor_check(&t, nullptr, err, sizeof(err)), ATTIC_ERROR);
  EXPECT_STREQ(err, "tensor has no storage");
  t = *ok.c();
  t.shape[0] = -1;
  EXPECT_EQ(attic_tensor_numel(&t), -1);
}

TEST(Tensor, GetSetEveryDtype) {
  const attic_dtype dtypes[] = {ATTIC_F32, ATTIC_F16, ATTIC_BF16, ATTIC_F64,
                                ATTIC_I1,  ATTIC_I8,  ATTIC_I32,  ATTIC_I64};
  for (attic_dtype dtype : dtypes) {
    const int64_t shape[] = {4};
    attic_tensor t;
    ASSERT_EQ(attic_tensor_alloc(&t, dtype, 1, shape, nullptr, 0), ATTIC_OK);
    attic_tensor_set(&t, 0, 1.0);
    attic_tensor_set(&t, 3, dtype == ATTIC_I1 ? 1.0 : -2.0);
    EXPECT_EQ(attic_tensor_get(&t, 0), 1.0) << attic_dtype_name(dtype);
    EXPECT_EQ(attic_tensor_get(&t, 1), 0.0) << attic_dtype_name(dtype);
    EXPECT_EQ(attic_tensor_get(&t, 3), dtype == ATTIC_I1 ? 1.0 : -2.0)
        << attic_dtype_name(dtype);
    // Out of range: get is NaN, set is ignored.
    EXPECT_TRUE(std::isnan(attic_tensor_get(&t, 4)));
    EXPECT_TRUE(std::isnan(attic_tensor_get(&t, -1)));
    attic_tensor_set(&t, 4, 1.0);
    attic_tensor_set(&t, -1, 1.0);
    attic_tensor_free(&t);
  }
}

TEST(Tensor, SetConversions) {
  const int64_t shape[] = {1};
  attic_tensor t;
  ASSERT_EQ(attic_tensor_alloc(&t, ATTIC_I1, 1, shape, nullptr, 0), ATTIC_OK);
  attic_tensor_set(&t, 0, -0.25);
  EXPECT_EQ(static_cast<unsigned char *>(t.data)[0], 1);
  attic_tensor_free(&t);

  ASSERT_EQ(attic_tensor_alloc(&t, ATTIC_I8, 1, shape, nullptr, 0), ATTIC_OK);
  attic_tensor_set(&t, 0, 1000.0);
  EXPECT_EQ(attic_tensor_get(&t, 0), 127.0);
  attic_tensor_set(&t, 0, -1000.0);
  EXPECT_EQ(attic_tensor_get(&t, 0), -128.0);
  attic_tensor_set(&t, 0, -3.9);
  EXPECT_EQ(attic_tensor_get(&t, 0), -3.0);
  attic_tensor_set(&t, 0, NAN);
  EXPECT_EQ(attic_tensor_get(&t, 0), 0.0);
  attic_tensor_free(&t);

  ASSERT_EQ(attic_tensor_alloc(&t, ATTIC_I64, 1, shape, nullptr, 0),
            ATTIC_OK);
  attic_tensor_set(&t, 0, 1e300);
  EXPECT_EQ(static_cast<int64_t *>(t.data)[0], INT64_MAX);
  attic_tensor_set(&t, 0, -0x1p63);
  EXPECT_EQ(static_cast<int64_t *>(t.data)[0], INT64_MIN);
  attic_tensor_free(&t);

  // f16 rounds once from double: 1 + 2^-11 + 2^-40 is just above the
  // midpoint between 1 and the next half, so it must round up (rounding to
  // float first would land exactly on the midpoint and round to even, 1.0).
  ASSERT_EQ(attic_tensor_alloc(&t, ATTIC_F16, 1, shape, nullptr, 0),
            ATTIC_OK);
  attic_tensor_set(&t, 0, 1.0 + 0x1p-11 + 0x1p-40);
  EXPECT_EQ(static_cast<uint16_t *>(t.data)[0], 0x3C01);
  attic_tensor_free(&t);
}

TEST(Tensor, CppWrapper) {
  std::string error;
  attic::runtime::Tensor t =
      attic::runtime::Tensor::alloc(ATTIC_I32, {2, 3}, &error);
  ASSERT_TRUE(t.valid()) << error;
  EXPECT_EQ(t.numel(), 6);
  EXPECT_EQ(t.shape(), (std::vector<int64_t>{2, 3}));
  t.data<int32_t>()[4] = 9;
  EXPECT_EQ(t.get(4), 9.0);
  attic::runtime::Tensor moved = std::move(t);
  EXPECT_FALSE(t.valid());
  EXPECT_EQ(moved.get(4), 9.0);

  attic::runtime::Tensor bad =
      attic::runtime::Tensor::alloc(ATTIC_F32, {-2}, &error);
  EXPECT_FALSE(bad);
  EXPECT_EQ(error, "attic_tensor_alloc: dimension 0 is negative (-2)");
}

} // namespace
