//===- DTypeTest.cpp - Element type properties ----------------------------===//

#include "attic/runtime/Runtime.h"

#include <gtest/gtest.h>

#include <cstring>

namespace {

TEST(DType, SizesAndNames) {
  struct Case {
    attic_dtype dtype;
    size_t size;
    const char *name;
  } cases[] = {
      {ATTIC_F32, 4, "f32"}, {ATTIC_F16, 2, "f16"}, {ATTIC_BF16, 2, "bf16"},
      {ATTIC_F64, 8, "f64"}, {ATTIC_I1, 1, "i1"},   {ATTIC_I8, 1, "i8"},
      {ATTIC_I32, 4, "i32"}, {ATTIC_I64, 8, "i64"},
  };
  for (const Case &c : cases) {
    EXPECT_EQ(attic_dtype_size(c.dtype), c.size) << c.name;
    EXPECT_STREQ(attic_dtype_name(c.dtype), c.name);
    attic_dtype parsed = ATTIC_I64;
    ASSERT_EQ(attic_dtype_from_name(c.name, &parsed), ATTIC_OK) << c.name;
    EXPECT_EQ(parsed, c.dtype);
  }
}

TEST(DType, EnumValuesAreStable) {
  // Generated code and saved artefacts depend on these numbers.
  EXPECT_EQ(ATTIC_F32, 0);
  EXPECT_EQ(ATTIC_F16, 1);
  EXPECT_EQ(ATTIC_BF16, 2);
  EXPECT_EQ(ATTIC_F64, 3);
  EXPECT_EQ(ATTIC_I1, 4);
  EXPECT_EQ(ATTIC_I8, 5);
  EXPECT_EQ(ATTIC_I32, 6);
  EXPECT_EQ(ATTIC_I64, 7);
  EXPECT_EQ(ATTIC_OK, 0);
  EXPECT_EQ(ATTIC_ERROR, 1);
}

TEST(DType, InvalidValues) {
  EXPECT_EQ(attic_dtype_size(static_cast<attic_dtype>(42)), 0u);
  EXPECT_STREQ(attic_dtype_name(static_cast<attic_dtype>(42)), "invalid");
  attic_dtype dtype = ATTIC_F32;
  EXPECT_EQ(attic_dtype_from_name("f128", &dtype), ATTIC_ERROR);
  EXPECT_EQ(attic_dtype_from_name(nullptr, &dtype), ATTIC_ERROR);
  EXPECT_EQ(dtype, ATTIC_F32);
}

} // namespace
