//===- Float16.cpp - binary16 and bfloat16 conversions --------------------===//
//
// Both formats are encoded by one routine that rounds a double straight to
// the target precision, so f64 -> f16 rounds once rather than twice.
//
//===----------------------------------------------------------------------===//

#include "attic/runtime/Runtime.h"

#include <cmath>
#include <cstring>

namespace {
/// An IEEE-style binary format with a sign bit, ExpBits exponent bits and
/// MantBits stored mantissa bits, packed into at most 16 bits.
struct Format {
  int expBits;
  int mantBits;
};
} // namespace

static constexpr Format kHalf{5, 10};
static constexpr Format kBFloat{8, 7};

static uint64_t doubleBits(double value) {
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return bits;
}

static uint16_t encode(double value, Format f) {
  const uint32_t signBit = std::signbit(value) ? 1u << (f.expBits + f.mantBits)
                                               : 0u;
  const uint32_t expMask = (1u << f.expBits) - 1;
  const uint32_t infBits = expMask << f.mantBits;
  const int bias = (1 << (f.expBits - 1)) - 1;
  const int minExp = 1 - bias;

  if (std::isnan(value)) {
    // Keep the top payload bits and force the quiet bit so NaN stays NaN.
    uint32_t payload =
        static_cast<uint32_t>(doubleBits(value) >> (52 - f.mantBits)) &
        ((1u << f.mantBits) - 1);
    return static_cast<uint16_t>(signBit | infBits | payload |
                                 (1u << (f.mantBits - 1)));
  }
  double a = std::fabs(value);
  if (std::isinf(a))
    return static_cast<uint16_t>(signBit | infBits);
  if (a == 0.0)
    return static_cast<uint16_t>(signBit);

  int exp;
  (void)std::frexp(a, &exp); // a = m * 2^exp, m in [0.5, 1)
  exp -= 1;                  // now a = m' * 2^exp, m' in [1, 2)
  if (exp > bias)
    return static_cast<uint16_t>(signBit | infBits);
  // Below the normal range the spacing stays that of the smallest exponent.
  int quantumExp = (exp < minExp ? minExp : exp) - f.mantBits;
  // Scaling by a power of two is exact, and the scaled value is below 2^12,
  // so nearbyint rounds exactly once (to nearest even, the default mode).
  double scaled = std::ldexp(a, -quantumExp);
  uint32_t n = static_cast<uint32_t>(std::nearbyint(scaled));
  uint32_t bits;
  if (exp < minExp) {
    // Subnormal: n <= 2^mantBits, and n == 2^mantBits encodes the smallest
    // normal number on its own.
    bits = n;
  } else {
    // n in [2^mantBits, 2^(mantBits+1)]; a carry out of the mantissa bumps
    // the exponent, and past the largest exponent yields exactly inf.
    bits = (static_cast<uint32_t>(exp + bias) << f.mantBits) +
           (n - (1u << f.mantBits));
  }
  if (bits > infBits)
    bits = infBits;
  return static_cast<uint16_t>(signBit | bits);
}

static double decode(uint16_t bits, Format f) {
  const uint32_t mantMask = (1u << f.mantBits) - 1;
  const uint32_t expMask = (1u << f.expBits) - 1;
  const int bias = (1 << (f.expBits - 1)) - 1;
  bool negative = (bits >> (f.expBits + f.mantBits)) & 1;
  uint32_t expField = (bits >> f.mantBits) & expMask;
  uint32_t mant = bits & mantMask;
  double magnitude;
  if (expField == expMask)
    magnitude = mant ? NAN : INFINITY;
  else if (expField == 0)
    magnitude = std::ldexp(static_cast<double>(mant), 1 - bias - f.mantBits);
  else
    magnitude = std::ldexp(static_cast<double>(mant | (1u << f.mantBits)),
                           static_cast<int>(expField) - bias - f.mantBits);
  return negative ? -magnitude : magnitude;
}

extern "C" uint16_t attic_f64_to_f16(double value) {
  return encode(value, kHalf);
}

extern "C" uint16_t attic_f64_to_bf16(double value) {
  return encode(value, kBFloat);
}

extern "C" uint16_t attic_f32_to_f16(float value) {
  return encode(value, kHalf);
}

extern "C" float attic_f16_to_f32(uint16_t bits) {
  if ((bits & 0x7C00u) == 0x7C00u && (bits & 0x03FFu)) {
    // Widen a NaN bit-wise so its sign and payload survive.
    uint32_t wide = (static_cast<uint32_t>(bits & 0x8000u) << 16) |
                    0x7FC00000u | (static_cast<uint32_t>(bits & 0x03FFu) << 13);
    float value;
    std::memcpy(&value, &wide, sizeof(value));
    return value;
  }
  return static_cast<float>(decode(bits, kHalf));
}

extern "C" uint16_t attic_f32_to_bf16(float value) {
  // bfloat16 is the top half of a binary32, so rounding is integer
  // arithmetic on the bit pattern (much faster than the generic path).
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  if (std::isnan(value))
    return static_cast<uint16_t>((bits >> 16) | 0x0040u);
  uint32_t roundingBias = 0x7FFFu + ((bits >> 16) & 1u);
  return static_cast<uint16_t>((bits + roundingBias) >> 16);
}

extern "C" float attic_bf16_to_f32(uint16_t bits) {
  uint32_t wide = static_cast<uint32_t>(bits) << 16;
  float value;
  std::memcpy(&value, &wide, sizeof(value));
  return value;
}
