//===- Fill.cpp - Deterministic random tensor fills -----------------------===//
//
// Every element is a pure function of (seed, stream, flat index), so a fill
// can be reproduced element by element (e.g. by a reference implementation
// or a kernel) without replaying a sequential generator. The exact recipe is
// documented next to attic_fill_uniform in Runtime.h.
//
//===----------------------------------------------------------------------===//

#include "Error.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>

using namespace attic::runtime;

namespace {
/// Hands out the 32-bit and 64-bit draws of one (seed, stream), caching the
/// last Philox block because consecutive elements share it.
class Draws {
public:
  Draws(uint64_t seed, uint64_t stream) : seed(seed), stream(stream) {}

  uint32_t draw32(uint64_t index) {
    refill(index / 4);
    return block[index % 4];
  }

  uint64_t draw64(uint64_t index) {
    refill(index / 2);
    unsigned j = static_cast<unsigned>(index % 2);
    return static_cast<uint64_t>(block[2 * j]) |
           static_cast<uint64_t>(block[2 * j + 1]) << 32;
  }

  /// Uniform float in [0, 1) with 24 random bits, all exactly representable.
  float unitFloat(uint64_t index) {
    return static_cast<float>(draw32(index) >> 8) * 0x1p-24f;
  }

  /// Uniform double in [0, 1) with 53 random bits, all exactly
  /// representable.
  double unitDouble(uint64_t index) {
    return static_cast<double>(draw64(index) >> 11) * 0x1p-53;
  }

private:
  void refill(uint64_t counter) {
    if (valid && counter == cachedCounter)
      return;
    attic_philox4x32(seed, stream, counter, block);
    cachedCounter = counter;
    valid = true;
  }

  uint64_t seed;
  uint64_t stream;
  uint32_t block[4] = {0, 0, 0, 0};
  uint64_t cachedCounter = 0;
  bool valid = false;
};
} // namespace

static bool isFloat(attic_dtype dtype) {
  return dtype == ATTIC_F32 || dtype == ATTIC_F16 || dtype == ATTIC_BF16 ||
         dtype == ATTIC_F64;
}

/// The fills write the shape's elements, attic_tensor_numel (not nbytes'
/// worth: a tensor built by hand with no elements, data NULL and nbytes > 0
/// was written through NULL).
static attic_status checkTensor(const attic_tensor *t, const char *fn,
                                char *err, size_t errLen) {
  char what[64];
  std::snprintf(what, sizeof(what), "%s: tensor", fn);
  return attic_tensor_check(t, what, err, errLen);
}

//===----------------------------------------------------------------------===//
// Floating-point fills
//===----------------------------------------------------------------------===//

/// The 16-bit formats share the IEEE layout (sign in bit 15), so stepping to
/// the neighbouring value is integer arithmetic on the sign-magnitude bits.
static uint16_t nextUp16(uint16_t bits) {
  if ((bits & 0x7FFFu) == 0)
    return 0x0001u;
  return (bits & 0x8000u) ? bits - 1 : bits + 1;
}

static uint16_t nextDown16(uint16_t bits) {
  if ((bits & 0x7FFFu) == 0)
    return 0x8001u;
  return (bits & 0x8000u) ? bits + 1 : bits - 1;
}

namespace {
/// Rounds float samples to one floating-point dtype and clamps them into
/// [lo, hi): rounding (to float, then to a 16-bit type) can land one step
/// outside the range.
struct FloatRounder {
  attic_dtype dtype;
  float lo, hi;

  uint16_t toBits(float v) const {
    return dtype == ATTIC_F16 ? attic_f32_to_f16(v) : attic_f32_to_bf16(v);
  }
  float fromBits(uint16_t bits) const {
    return dtype == ATTIC_F16 ? attic_f16_to_f32(bits)
                              : attic_bf16_to_f32(bits);
  }

  /// F32/F64 keep the float; 16-bit types return their rounded value.
  float round(float v) const {
    if (dtype == ATTIC_F32 || dtype == ATTIC_F64) {
      if (v >= hi)
        v = std::nextafter(hi, -INFINITY);
      return v;
    }
    uint16_t bits = toBits(v);
    if (fromBits(bits) < lo)
      bits = nextUp16(bits);
    if (fromBits(bits) >= hi)
      bits = nextDown16(bits);
    return fromBits(bits);
  }
};
} // namespace

namespace {
/// The shortest decimal form of `value` that reads back as it (%g's six
/// digits printed [1, 1.000000001) as "[1, 1)").
struct Shortest {
  char text[32];
  explicit Shortest(double value) {
    for (int digits = 1; digits <= 17; ++digits) {
      std::snprintf(text, sizeof(text), "%.*g", digits, value);
      if (std::strtod(text, nullptr) == value)
        return;
    }
  }
};
} // namespace

static attic_status fillUniformFloat(attic_tensor *t, Draws &draws, double lo,
                                     double hi, char *err, size_t errLen) {
  if (!std::isfinite(lo) || !std::isfinite(hi))
    return fail(err, errLen, "attic_fill_uniform: bounds [%g, %g) are not "
                             "finite", lo, hi);
  // f64 draws in double: through float, ranges beyond float's (1e300) were
  // refused as too wide and narrow ones (1 + 1e-12) as empty, and every
  // value had float's 24 bits (a 2026-11-30 audit).
  if (t->dtype == ATTIC_F64) {
    double width = hi - lo;
    if (!(lo < hi))
      return fail(err, errLen, "attic_fill_uniform: range [%s, %s) is empty",
                  Shortest(lo).text, Shortest(hi).text);
    if (!std::isfinite(width))
      return fail(err, errLen,
                  "attic_fill_uniform: range [%s, %s) is too wide for f64",
                  Shortest(lo).text, Shortest(hi).text);
    auto *data = static_cast<double *>(t->data);
    int64_t n = attic_tensor_numel(t);
    for (int64_t i = 0; i < n; ++i) {
      double v = lo + width * draws.unitDouble(i);
      // Rounding can reach hi itself; the range is half-open.
      data[i] = v < hi ? v : std::nextafter(hi, lo);
    }
    return ATTIC_OK;
  }
  float loF = static_cast<float>(lo);
  float hiF = static_cast<float>(hi);
  float width = hiF - loF;
  if (!(loF < hiF))
    return fail(err, errLen,
                "attic_fill_uniform: range [%s, %s) is empty in float",
                Shortest(lo).text, Shortest(hi).text);
  if (!std::isfinite(width))
    return fail(err, errLen,
                "attic_fill_uniform: range [%s, %s) is too wide for float",
                Shortest(lo).text, Shortest(hi).text);
  FloatRounder rounder{t->dtype, loF, hiF};
  // An empty range in the dtype would make the clamping in round() fail.
  float smallest = rounder.round(loF);
  if (!(smallest >= loF && smallest < hiF))
    return fail(err, errLen, "attic_fill_uniform: no %s value lies in [%s, %s)",
                attic_dtype_name(t->dtype), Shortest(lo).text,
                Shortest(hi).text);

  int64_t n = attic_tensor_numel(t);
  for (int64_t i = 0; i < n; ++i) {
    float v = rounder.round(loF + width * draws.unitFloat(i));
    switch (t->dtype) {
    case ATTIC_F32:
      static_cast<float *>(t->data)[i] = v;
      break;
    default:
      // v is already exactly representable in the 16-bit type.
      static_cast<uint16_t *>(t->data)[i] = rounder.toBits(v);
      break;
    }
  }
  return ATTIC_OK;
}

//===----------------------------------------------------------------------===//
// Integer fills
//===----------------------------------------------------------------------===//

static attic_status fillUniformInt(attic_tensor *t, Draws &draws, double lo,
                                   double hi, char *err, size_t errLen) {
  if (std::isnan(lo) || std::isnan(hi))
    return fail(err, errLen, "attic_fill_uniform: bounds are NaN");
  double typeMin, typeEnd; // the dtype's values are [typeMin, typeEnd)
  switch (t->dtype) {
  case ATTIC_I1:
    typeMin = 0, typeEnd = 2;
    break;
  case ATTIC_I8:
    typeMin = -0x1p7, typeEnd = 0x1p7;
    break;
  case ATTIC_I32:
    typeMin = -0x1p31, typeEnd = 0x1p31;
    break;
  default:
    typeMin = -0x1p63, typeEnd = 0x1p63;
    break;
  }
  double a = std::ceil(lo), b = std::ceil(hi);
  if (!(a < b))
    return fail(err, errLen,
                "attic_fill_uniform: range [%g, %g) holds no integer", lo, hi);
  if (a < typeMin || b > typeEnd)
    return fail(err, errLen,
                "attic_fill_uniform: range [%g, %g) does not fit in %s", lo,
                hi, attic_dtype_name(t->dtype));

  // a and b are integers within [-2^63, 2^63], exact as doubles; b - a is at
  // most 2^64, so the span is computed in 128 bits.
  __int128 start = static_cast<__int128>(a);
  unsigned __int128 span =
      static_cast<unsigned __int128>(static_cast<__int128>(b) - start);
  int64_t n = attic_tensor_numel(t);
  for (int64_t i = 0; i < n; ++i) {
    if (t->dtype == ATTIC_I64) {
      // Multiply-shift maps a 64-bit draw onto [0, span) (Lemire).
      unsigned __int128 offset = (span * draws.draw64(i)) >> 64;
      static_cast<int64_t *>(t->data)[i] =
          static_cast<int64_t>(start + static_cast<__int128>(offset));
      continue;
    }
    uint64_t offset = static_cast<uint64_t>(
        (static_cast<uint64_t>(span) * draws.draw32(i)) >> 32);
    int64_t value = static_cast<int64_t>(start) + static_cast<int64_t>(offset);
    switch (t->dtype) {
    case ATTIC_I1:
      static_cast<uint8_t *>(t->data)[i] = static_cast<uint8_t>(value);
      break;
    case ATTIC_I8:
      static_cast<int8_t *>(t->data)[i] = static_cast<int8_t>(value);
      break;
    default:
      static_cast<int32_t *>(t->data)[i] = static_cast<int32_t>(value);
      break;
    }
  }
  return ATTIC_OK;
}

//===----------------------------------------------------------------------===//
// C API
//===----------------------------------------------------------------------===//

extern "C" attic_status attic_fill_uniform(attic_tensor *t, uint64_t seed,
                                           uint64_t stream, double lo,
                                           double hi, char *err,
                                           size_t errLen) {
  if (checkTensor(t, "attic_fill_uniform", err, errLen) != ATTIC_OK)
    return ATTIC_ERROR;
  Draws draws(seed, stream);
  if (isFloat(t->dtype))
    return fillUniformFloat(t, draws, lo, hi, err, errLen);
  return fillUniformInt(t, draws, lo, hi, err, errLen);
}

extern "C" attic_status attic_fill_bernoulli(attic_tensor *t, uint64_t seed,
                                             uint64_t stream, double p,
                                             char *err, size_t errLen) {
  if (checkTensor(t, "attic_fill_bernoulli", err, errLen) != ATTIC_OK)
    return ATTIC_ERROR;
  if (!(p >= 0.0 && p <= 1.0))
    return fail(err, errLen,
                "attic_fill_bernoulli: probability %g is not in [0, 1]", p);
  Draws draws(seed, stream);
  int64_t n = attic_tensor_numel(t);
  for (int64_t i = 0; i < n; ++i)
    attic_tensor_set(t, i, draws.unitFloat(i) < p ? 1.0 : 0.0);
  return ATTIC_OK;
}
