//===- PhiloxTest.cpp - Philox4x32-10 known-answer tests ------------------===//

#include "attic/runtime/Runtime.h"

#include <gtest/gtest.h>

namespace {

/// Packs Random123's ctr/key word arrays into attic_philox4x32's arguments as
/// documented in Runtime.h.
void philoxR123(const uint32_t ctr[4], const uint32_t key[2],
                uint32_t out[4]) {
  uint64_t packedKey = key[0] | static_cast<uint64_t>(key[1]) << 32;
  uint64_t counterLo = ctr[0] | static_cast<uint64_t>(ctr[1]) << 32;
  uint64_t counterHi = ctr[2] | static_cast<uint64_t>(ctr[3]) << 32;
  attic_philox4x32(packedKey, counterHi, counterLo, out);
}

struct KnownAnswer {
  uint32_t ctr[4];
  uint32_t key[2];
  uint32_t expected[4];
};

// Random123 1.09, examples/kat_vectors, philox4x32 with 10 rounds.
const KnownAnswer kKnownAnswers[] = {
    {{0, 0, 0, 0}, {0, 0}, {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}},
    {{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff},
     {0xffffffff, 0xffffffff},
     {0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}},
    {{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344},
     {0xa4093822, 0x299f31d0},
     {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}},
};

TEST(Philox, Random123KnownAnswers) {
  for (const KnownAnswer &kat : kKnownAnswers) {
    uint32_t out[4];
    philoxR123(kat.ctr, kat.key, out);
    for (int i = 0; i < 4; ++i)
      EXPECT_EQ(out[i], kat.expected[i]) << "word " << i;
  }
}

TEST(Philox, PackingOfThe64BitArguments) {
  uint32_t out[4];
  attic_philox4x32(0x299f31d0a4093822ull, 0x0370734413198a2eull,
                   0x85a308d3243f6a88ull, out);
  EXPECT_EQ(out[0], 0xd16cfe09u);
  EXPECT_EQ(out[1], 0x94fdccebu);
  EXPECT_EQ(out[2], 0x5001e420u);
  EXPECT_EQ(out[3], 0x24126ea1u);
}

TEST(Philox, EveryInputMatters) {
  uint32_t base[4], other[4];
  attic_philox4x32(1, 2, 3, base);
  attic_philox4x32(1, 2, 4, other);
  EXPECT_NE(base[0], other[0]);
  attic_philox4x32(1, 3, 3, other);
  EXPECT_NE(base[0], other[0]);
  attic_philox4x32(2, 2, 3, other);
  EXPECT_NE(base[0], other[0]);
}

} // namespace
