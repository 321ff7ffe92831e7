//===- Philox.cpp - Philox4x32-10 counter-based generator -----------------===//
//
// Salmon, Moraes, Dror, Shaw: "Parallel Random Numbers: As Easy as 1, 2, 3"
// (SC'11). Matches Random123's philox4x32_R(10, ctr, key) word for word.
//
//===----------------------------------------------------------------------===//

#include "attic/runtime/Runtime.h"

static constexpr uint32_t kMul0 = 0xD2511F53u;
static constexpr uint32_t kMul1 = 0xCD9E8D57u;
static constexpr uint32_t kWeyl0 = 0x9E3779B9u; // golden ratio
static constexpr uint32_t kWeyl1 = 0xBB67AE85u; // sqrt(3) - 1

static inline void mulHiLo(uint32_t a, uint32_t b, uint32_t &hi,
                           uint32_t &lo) {
  uint64_t product = static_cast<uint64_t>(a) * b;
  hi = static_cast<uint32_t>(product >> 32);
  lo = static_cast<uint32_t>(product);
}

extern "C" void attic_philox4x32(uint64_t key, uint64_t counterHi,
                                 uint64_t counterLo, uint32_t out[4]) {
  uint32_t k0 = static_cast<uint32_t>(key);
  uint32_t k1 = static_cast<uint32_t>(key >> 32);
  uint32_t c0 = static_cast<uint32_t>(counterLo);
  uint32_t c1 = static_cast<uint32_t>(counterLo >> 32);
  uint32_t c2 = static_cast<uint32_t>(counterHi);
  uint32_t c3 = static_cast<uint32_t>(counterHi >> 32);
  for (int round = 0; round < 10; ++round) {
    if (round > 0) {
      k0 += kWeyl0;
      k1 += kWeyl1;
    }
    uint32_t hi0, lo0, hi1, lo1;
    mulHiLo(kMul0, c0, hi0, lo0);
    mulHiLo(kMul1, c2, hi1, lo1);
    uint32_t n0 = hi1 ^ c1 ^ k0;
    uint32_t n2 = hi0 ^ c3 ^ k1;
    c0 = n0;
    c1 = lo1;
    c2 = n2;
    c3 = lo0;
  }
  out[0] = c0;
  out[1] = c1;
  out[2] = c2;
  out[3] = c3;
}
