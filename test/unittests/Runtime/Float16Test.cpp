//===- Float16Test.cpp - binary16 and bfloat16 conversions ----------------===//

#include "attic/runtime/Runtime.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace {

float floatFromBits(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof(value));
  return value;
}

uint32_t bitsOf(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return bits;
}

TEST(Float16, KnownEncodings) {
  EXPECT_EQ(attic_f32_to_f16(1.0f), 0x3C00);
  EXPECT_EQ(attic_f32_to_f16(-2.5f), 0xC100);
  EXPECT_EQ(attic_f32_to_f16(0.0f), 0x0000);
  EXPECT_EQ(attic_f32_to_f16(-0.0f), 0x8000);
  EXPECT_EQ(attic_f32_to_f16(65504.0f), 0x7BFF);   // largest finite
  EXPECT_EQ(attic_f32_to_f16(65519.0f), 0x7BFF);   // below the midpoint
  EXPECT_EQ(attic_f32_to_f16(65520.0f), 0x7C00);   // midpoint: ties to inf
  EXPECT_EQ(attic_f32_to_f16(-65520.0f), 0xFC00);
  EXPECT_EQ(attic_f32_to_f16(1e10f), 0x7C00);
  EXPECT_EQ(attic_f32_to_f16(INFINITY), 0x7C00);
  EXPECT_EQ(attic_f32_to_f16(-INFINITY), 0xFC00);
  EXPECT_EQ(attic_f32_to_f16(0x1p-14f), 0x0400);   // smallest normal
  EXPECT_EQ(attic_f32_to_f16(0x1p-24f), 0x0001);   // smallest subnormal
  EXPECT_EQ(attic_f32_to_f16(0x3FFp-24f), 0x03FF); // largest subnormal
  EXPECT_EQ(attic_f32_to_f16(0x1p-25f), 0x0000);   // tie rounds to even (0)
  EXPECT_EQ(attic_f32_to_f16(0x1.000002p-25f), 0x0001);
  EXPECT_EQ(attic_f32_to_f16(0x3p-25f), 0x0002);   // tie rounds to even (2)
  EXPECT_EQ(attic_f32_to_f16(0x7FFp-25f), 0x0400); // rounds up into normals
  EXPECT_EQ(attic_f32_to_f16(1.0f + 0x1p-11f), 0x3C00); // tie, even below
  EXPECT_EQ(attic_f32_to_f16(1.0f + 0x3p-11f), 0x3C02); // tie, even above
  EXPECT_EQ(attic_f32_to_f16(0.1f), 0x2E66);
}

TEST(Float16, NaN) {
  uint16_t quiet = attic_f32_to_f16(NAN);
  EXPECT_EQ(quiet & 0x7C00, 0x7C00);
  EXPECT_NE(quiet & 0x0200, 0); // quiet bit
  // A signalling NaN whose payload lives in the low bits must not become inf.
  uint16_t fromSignalling = attic_f32_to_f16(floatFromBits(0x7F800001u));
  EXPECT_EQ(fromSignalling & 0x7C00, 0x7C00);
  EXPECT_NE(fromSignalling & 0x03FF, 0);
  EXPECT_EQ(attic_f32_to_f16(floatFromBits(0xFFC00000u)) & 0x8000, 0x8000);
  EXPECT_TRUE(std::isnan(attic_f16_to_f32(0x7E00)));
  EXPECT_TRUE(std::isnan(attic_f16_to_f32(0x7C01)));
  EXPECT_TRUE(std::isnan(attic_f16_to_f32(0xFE00)));
}

TEST(Float16, KnownDecodings) {
  EXPECT_EQ(attic_f16_to_f32(0x3C00), 1.0f);
  EXPECT_EQ(attic_f16_to_f32(0xC100), -2.5f);
  EXPECT_EQ(attic_f16_to_f32(0x7BFF), 65504.0f);
  EXPECT_EQ(attic_f16_to_f32(0x0001), 0x1p-24f);
  EXPECT_EQ(attic_f16_to_f32(0x03FF), 0x3FFp-24f);
  EXPECT_EQ(attic_f16_to_f32(0x0400), 0x1p-14f);
  EXPECT_EQ(attic_f16_to_f32(0x3555), 0.333251953125f);
  EXPECT_EQ(attic_f16_to_f32(0x7C00), INFINITY);
  EXPECT_EQ(attic_f16_to_f32(0xFC00), -INFINITY);
  EXPECT_TRUE(std::signbit(attic_f16_to_f32(0x8000)));
}

TEST(Float16, EveryPatternRoundTrips) {
  for (uint32_t bits = 0; bits <= 0xFFFF; ++bits) {
    float value = attic_f16_to_f32(static_cast<uint16_t>(bits));
    if (std::isnan(value))
      continue;
    ASSERT_EQ(attic_f32_to_f16(value), bits) << std::hex << bits;
    ASSERT_EQ(attic_f64_to_f16(value), bits) << std::hex << bits;
  }
}

#ifdef __FLT16_MAX__
// The compiler's _Float16 conversion (libgcc/compiler-rt) is an independent
// correctly rounded implementation to compare against.
TEST(Float16, MatchesCompilerFloat16) {
  for (uint64_t bits = 0; bits <= 0xFFFFFFFFu; bits += 9973) {
    float value = floatFromBits(static_cast<uint32_t>(bits));
    if (std::isnan(value))
      continue;
    _Float16 reference = static_cast<_Float16>(value);
    uint16_t referenceBits;
    std::memcpy(&referenceBits, &reference, sizeof(referenceBits));
    ASSERT_EQ(attic_f32_to_f16(value), referenceBits)
        << std::hexfloat << value;
  }
}
#endif

TEST(BFloat16, KnownEncodings) {
  EXPECT_EQ(attic_f32_to_bf16(1.0f), 0x3F80);
  EXPECT_EQ(attic_f32_to_bf16(-2.5f), 0xC020);
  EXPECT_EQ(attic_f32_to_bf16(65504.0f), 0x4780); // 65536 after rounding
  EXPECT_EQ(attic_f32_to_bf16(-0.0f), 0x8000);
  EXPECT_EQ(attic_f32_to_bf16(INFINITY), 0x7F80);
  EXPECT_EQ(attic_f32_to_bf16(std::numeric_limits<float>::max()), 0x7F80);
  EXPECT_EQ(attic_f32_to_bf16(std::numeric_limits<float>::denorm_min()),
            0x0000);
  EXPECT_EQ(attic_f32_to_bf16(floatFromBits(0x00010000u)), 0x0001);
}

TEST(BFloat16, RoundsToNearestEven) {
  EXPECT_EQ(attic_f32_to_bf16(floatFromBits(0x3F808000u)), 0x3F80); // tie
  EXPECT_EQ(attic_f32_to_bf16(floatFromBits(0x3F818000u)), 0x3F82); // tie
  EXPECT_EQ(attic_f32_to_bf16(floatFromBits(0x3F808001u)), 0x3F81);
  EXPECT_EQ(attic_f32_to_bf16(floatFromBits(0x3F807FFFu)), 0x3F80);
  EXPECT_EQ(attic_f32_to_bf16(floatFromBits(0xBF818000u)), 0xBF82);
  EXPECT_EQ(attic_f32_to_bf16(floatFromBits(0x7F7F8000u)), 0x7F80); // to inf
}

TEST(BFloat16, NaNStaysQuietNaN) {
  // Plain truncation would turn this signalling NaN into inf.
  uint16_t bits = attic_f32_to_bf16(floatFromBits(0x7F800001u));
  EXPECT_EQ(bits & 0x7F80, 0x7F80);
  EXPECT_NE(bits & 0x0040, 0);
  EXPECT_EQ(attic_f32_to_bf16(floatFromBits(0xFFC00000u)), 0xFFC0);
  EXPECT_TRUE(std::isnan(attic_bf16_to_f32(0x7FC0)));
  EXPECT_TRUE(std::isnan(attic_bf16_to_f32(attic_f32_to_bf16(NAN))));
  EXPECT_TRUE(std::isnan(attic_bf16_to_f32(attic_f64_to_bf16(NAN))));
}

TEST(BFloat16, Decodes) {
  EXPECT_EQ(attic_bf16_to_f32(0x3F80), 1.0f);
  EXPECT_EQ(attic_bf16_to_f32(0xC020), -2.5f);
  EXPECT_EQ(attic_bf16_to_f32(0x7F80), INFINITY);
  EXPECT_EQ(bitsOf(attic_bf16_to_f32(0x0001)), 0x00010000u);
}

TEST(BFloat16, FastPathMatchesGenericRounding) {
  // attic_f32_to_bf16 uses integer tricks, attic_f64_to_bf16 the generic
  // encoder; they must agree everywhere.
  for (uint64_t bits = 0; bits <= 0xFFFFFFFFu; bits += 7919) {
    float value = floatFromBits(static_cast<uint32_t>(bits));
    if (std::isnan(value))
      continue;
    ASSERT_EQ(attic_f32_to_bf16(value), attic_f64_to_bf16(value))
        << std::hex << bits;
  }
  for (uint32_t bits = 0; bits <= 0xFFFF; ++bits) {
    float value = attic_bf16_to_f32(static_cast<uint16_t>(bits));
    if (std::isnan(value))
      continue;
    ASSERT_EQ(attic_f32_to_bf16(value), bits);
  }
}

TEST(Float16, DoubleRoundsOnce) {
  // Just below the f16 midpoint 65520: going through float would first
  // round up to 65520 exactly and then tie to inf; the answer is 65504.
  EXPECT_EQ(attic_f64_to_f16(65519.999999), 0x7BFF);
  EXPECT_EQ(attic_f64_to_f16(65520.0), 0x7C00);
  EXPECT_EQ(attic_f64_to_f16(1e300), 0x7C00);
  EXPECT_EQ(attic_f64_to_f16(1e-300), 0x0000);
  EXPECT_EQ(attic_f64_to_bf16(1e300), 0x7F80);
  EXPECT_EQ(attic_f64_to_bf16(1.0 + 0x1p-8 + 0x1p-40), 0x3F81);
}

} // namespace
