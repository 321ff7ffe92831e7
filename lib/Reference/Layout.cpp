//===- Layout.cpp - Reference semantics of attention layouts --------------===//

#include "attic/Reference/Layout.h"

#include "attic/runtime/Runtime.h"

#include <algorithm>
#include <cassert>
#include <cstdlib>

using namespace attic::ref;

namespace {
/// floor(a / b) and the non-negative remainder, for b > 0.
int64_t floorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && a < 0) ? q - 1 : q;
}
int64_t floorMod(int64_t a, int64_t b) { return a - floorDiv(a, b) * b; }
} // namespace

std::vector<int64_t> attic::ref::randomKeyBlocks(const Layout &layout,
                                                 int64_t h, int64_t queryBlock,
                                                 int64_t nk) {
  int64_t keyBlocks = (nk + layout.block - 1) / layout.block;
  std::vector<int64_t> blocks;
  for (int64_t t = 0; t < layout.count; ++t) {
    // Counter words c0..c3 = (t / 4, I, h, 0).
    uint64_t lo = uint64_t(uint32_t(t / 4)) | (uint64_t(uint32_t(queryBlock)) << 32);
    uint64_t hi = uint64_t(uint32_t(h));
    uint32_t out[4];
    attic_philox4x32(layout.seed, hi, lo, out);
    blocks.push_back(int64_t(out[t % 4] % uint64_t(keyBlocks)));
  }
  return blocks;
}

bool Layout::visible(int64_t b, int64_t h, int64_t q, int64_t k, int64_t nq,
                     int64_t nk) const {
  int64_t off = bottomRight ? nk - nq : 0;
  int64_t d = k - q - off;
  switch (kind) {
  case Kind::Dense:
    return true;
  case Kind::Causal:
    return d <= 0;
  case Kind::Window:
    return -left <= d && d <= right;
  case Kind::Dilated:
    return -left <= d && d <= right && floorMod(d, dilation) == 0;
  case Kind::Strided:
    return std::llabs(d) < stride || floorMod(d, stride) == 0;
  case Kind::Fixed:
    return q / block == k / block || k % block >= block - summary;
  case Kind::Global:
    return std::binary_search(tokens.begin(), tokens.end(), q) ||
           std::binary_search(tokens.begin(), tokens.end(), k);
  case Kind::Sinks:
    return k < count;
  case Kind::Documents:
    return queryIds[b * nq + q] == keyIds[b * nk + k];
  case Kind::Random: {
    std::vector<int64_t> blocks = randomKeyBlocks(*this, h, q / block, nk);
    return std::find(blocks.begin(), blocks.end(), k / block) != blocks.end();
  }
  case Kind::Blocked:
    return parts[0].visible(b, h, q / block, k / block,
                            (nq + block - 1) / block, (nk + block - 1) / block);
  case Kind::BlockDiagonal: {
    // Query q is row q - s * block of block s, key k is column
    // k - s * keyBlock of the same block; a causal block is a lower
    // triangle whose last row is full.
    int64_t s = q / block;
    if (k / keyBlock != s)
      return false;
    int64_t row = q - s * block, column = k - s * keyBlock;
    return !causal || column <= row + (keyBlock - block);
  }
  case Kind::Intersect:
    for (const Layout &p : parts)
      if (!p.visible(b, h, q, k, nq, nk))
        return false;
    return true;
  case Kind::Union:
    for (const Layout &p : parts)
      if (p.visible(b, h, q, k, nq, nk))
        return true;
    return false;
  }
  return false;
}

BlockClass attic::ref::classifyBlock(const Layout &layout, int64_t b,
                                     int64_t h, int64_t q0, int64_t q1,
                                     int64_t k0, int64_t k1, int64_t nq,
                                     int64_t nk) {
  BlockClass c{false, true};
  for (int64_t q = q0; q < q1; ++q)
    for (int64_t k = k0; k < k1; ++k) {
      bool v = layout.visible(b, h, q, k, nq, nk);
      c.any |= v;
      c.all &= v;
    }
  return c;
}

int BlockLists::lookup(int64_t b, int64_t h, int64_t qb, int64_t kb) const {
  int64_t lb = batches == 1 ? 0 : b, lh = heads == 1 ? 0 : h;
  int64_t row = (lb * heads + lh) * queryBlocks + qb;
  int64_t n = std::clamp<int64_t>(fullCount[row], 0, fullCapacity);
  for (int64_t t = 0; t < n; ++t)
    if (fullIndices[row * fullCapacity + t] == kb)
      return 2;
  n = std::clamp<int64_t>(count[row], 0, capacity);
  for (int64_t t = 0; t < n; ++t)
    if (indices[row * capacity + t] == kb)
      return 1;
  return 0;
}
