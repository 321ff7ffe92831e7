//===- RandomDraw.h - compile-time random draws -----------------*- C++ -*-===//
//
// Private to lib/Transforms: the standard normal draws from the runtime's
// counter-based generator (attic_philox4x32) with which attic-decompose
// draws random features (kernelized attention) and random rotations (LSH
// attention) into constants at compile time. docs/kernelized.md specifies
// the draw; the reference semantics draw with their own code.
//
//===----------------------------------------------------------------------===//

#ifndef ATTIC_LIB_TRANSFORMS_RANDOMDRAW_H
#define ATTIC_LIB_TRANSFORMS_RANDOMDRAW_H

#include "attic/runtime/Runtime.h"

#include <cmath>
#include <cstdint>

namespace attic::detail {

/// Standard normal draw `n` of `stream` (docs/kernelized.md, "Random
/// features"): Box-Muller on the two 53-bit uniforms of Philox block n / 2,
/// the cosine branch for even n, the sine branch for odd n.
inline double normalDraw(uint64_t seed, uint64_t stream, uint64_t n) {
  uint32_t words[4];
  attic_philox4x32(seed, stream, n / 2, words);
  auto unit = [](uint32_t lo, uint32_t hi) {
    uint64_t bits = (uint64_t(hi) << 32 | lo) >> 11;
    return double(bits) * 0x1.0p-53;
  };
  double u1 = 1.0 - unit(words[0], words[1]); // (0, 1]
  double u2 = unit(words[2], words[3]);
  double radius = std::sqrt(-2.0 * std::log(u1));
  double angle = 2.0 * M_PI * u2;
  return n % 2 == 0 ? radius * std::cos(angle) : radius * std::sin(angle);
}

} // namespace attic::detail

#endif // ATTIC_LIB_TRANSFORMS_RANDOMDRAW_H
