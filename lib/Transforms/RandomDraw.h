//===- RandomDraw.h - compile-time random draws -----------------*- C++ -*-===//
//
// Private to lib/Transforms: the standard normal draws from the runtime's
// counter-based generator (attic_philox4x32) with which attic-decompose
// draws random features (kernelized attention) and random rotations (LSH
// attention) into constants at compile time, and the same generator as
// arith ops (philoxWord) for draws that compiled code makes at run time
// (the Gumbel noise and key samples of sketched attention). docs/kernelized.md
// and docs/sketches.md specify the draws; the reference semantics draw with
// the runtime's C function.
//
//===----------------------------------------------------------------------===//

#ifndef ATTIC_LIB_TRANSFORMS_RANDOMDRAW_H
#define ATTIC_LIB_TRANSFORMS_RANDOMDRAW_H

#include "attic/runtime/Runtime.h"

#include "TensorBuilders.h"

#include "mlir/Dialect/Math/IR/Math.h"

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

/// Word 0 of attic_philox4x32(seed, stream, counter) as arith ops on i32
/// (`counter` an i64 value; seed and stream are constants, so are the
/// round keys). Random123's philox4x32_R(10): the same word as the
/// runtime's function on every target.
inline Value philoxWord(Builder &b, uint64_t seed, uint64_t stream,
                        Value counter) {
  Type i32 = b.getI32Type();
  auto c32 = [&](uint32_t v) -> Value {
    return arith::ConstantOp::create(b, b.getI32IntegerAttr(int32_t(v)));
  };
  Value c0 = arith::TruncIOp::create(b, i32, counter);
  Value c1 = arith::TruncIOp::create(
      b, i32, arith::ShRUIOp::create(b, counter, cI64(b, 32)));
  Value c2 = c32(uint32_t(stream)), c3 = c32(uint32_t(stream >> 32));
  uint32_t k0 = uint32_t(seed), k1 = uint32_t(seed >> 32);
  for (int round = 0; round < 10; ++round) {
    if (round > 0) {
      k0 += 0x9E3779B9u;
      k1 += 0xBB67AE85u;
    }
    auto m0 = arith::MulUIExtendedOp::create(b, c32(0xD2511F53u), c0);
    auto m1 = arith::MulUIExtendedOp::create(b, c32(0xCD9E8D57u), c2);
    Value n0 = arith::XOrIOp::create(
        b, arith::XOrIOp::create(b, m1.getHigh(), c1), c32(k0));
    Value n2 = arith::XOrIOp::create(
        b, arith::XOrIOp::create(b, m0.getHigh(), c3), c32(k1));
    c0 = n0;
    c1 = m1.getLow();
    c2 = n2;
    c3 = m0.getLow();
  }
  return c0;
}

/// The index `(w * n) >> 32` in [0, n) of a 32-bit word (i64 result).
inline Value wordIndex(Builder &b, Value word, int64_t n) {
  Value wide = arith::ExtUIOp::create(b, b.getI64Type(), word);
  return arith::ShRUIOp::create(b, arith::MulIOp::create(b, wide, cI64(b, n)),
                                cI64(b, 32));
}

/// A standard Gumbel draw -ln(-ln u), u = ((w >> 8) + 0.5) 2^-24 in (0, 1).
inline Value wordGumbel(Builder &b, Value word) {
  Value top = arith::ShRUIOp::create(
      b, word, arith::ConstantOp::create(b, b.getI32IntegerAttr(8)));
  Value u = arith::UIToFPOp::create(b, b.getF32Type(), top);
  u = arith::MulFOp::create(b, arith::AddFOp::create(b, u, cF32(b, 0.5)),
                            cF32(b, 0x1.0p-24));
  Value inner = arith::NegFOp::create(b, math::LogOp::create(b, u));
  return arith::NegFOp::create(b, math::LogOp::create(b, inner));
}

/// The 32-bit word of attic_philox4x32(seed, stream, counter) at compile
/// time.
inline uint32_t philoxWordNow(uint64_t seed, uint64_t stream,
                              uint64_t counter) {
  uint32_t words[4];
  attic_philox4x32(seed, stream, counter, words);
  return words[0];
}

} // namespace attic::detail

#endif // ATTIC_LIB_TRANSFORMS_RANDOMDRAW_H
