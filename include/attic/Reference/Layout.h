//===- Layout.h - Reference semantics of attention layouts ------*- C++ -*-===//
//
// Which (query, key) pairs a layout visits, written as plainly as possible:
// one predicate per layout, evaluated per element, in plain C++ with no
// MLIR and no code shared with the compiler (whose layouts emit IR, see
// lib/Dialect/Attic/Layouts.cpp). Also the brute-force block
// classification that the compiler's is tested against.
//
//===----------------------------------------------------------------------===//

#ifndef ATTIC_REFERENCE_LAYOUT_H
#define ATTIC_REFERENCE_LAYOUT_H

#include <cstdint>
#include <vector>

namespace attic::ref {

/// A layout as data (dialects/AtticLayouts.td documents each kind).
struct Layout {
  enum class Kind {
    Dense,
    Causal,    // k <= q + off
    Window,    // -left <= k - q - off <= right
    Dilated,   // Window and (k - q - off) a multiple of dilation
    Strided,   // |k - q - off| < stride or a multiple of stride
    Fixed,     // q / block == k / block or k mod block >= block - summary
    Global,    // q or k in tokens
    Sinks,     // k < count
    Documents, // queryIds[b][q] == keyIds[b][k]
    Random,    // BigBird random key blocks (Philox)
    Blocked,   // parts[0] on (q / block, k / block)
    BlockDiagonal, // q / block == k / keyBlock (and causal inside the pair)
    Intersect,
    Union,
  };
  Kind kind = Kind::Dense;
  bool bottomRight = false;
  int64_t left = 0, right = 0, dilation = 1, stride = 1;
  int64_t block = 1, summary = 0, count = 0;
  uint64_t seed = 0;
  /// BlockDiagonal: keys per block, and the bottom-right aligned causal
  /// condition inside each pair of blocks.
  int64_t keyBlock = 1;
  bool causal = false;
  /// Global: the tokens, ascending (a binary search per element: a linear
  /// one made --check with 10,000 tokens take about 20 minutes).
  std::vector<int64_t> tokens;
  /// Documents: [B, Nq] and [B, Nk], row-major.
  std::vector<int64_t> queryIds, keyIds;
  std::vector<Layout> parts;

  /// Key k is visible to query q of batch b and query head h.
  bool visible(int64_t b, int64_t h, int64_t q, int64_t k, int64_t nq,
               int64_t nk) const;
};

/// Brute force over the elements of queries [q0, q1) and keys [k0, k1):
/// whether some / every element is visible.
struct BlockClass {
  bool any, all;
};
BlockClass classifyBlock(const Layout &layout, int64_t b, int64_t h,
                         int64_t q0, int64_t q1, int64_t k0, int64_t k1,
                         int64_t nq, int64_t nk);

/// The key blocks of BigBird's random layout for query head h and logical
/// query block `queryBlock` (R(h, I, t) for t < count; see #attic.random).
std::vector<int64_t> randomKeyBlocks(const Layout &layout, int64_t h,
                                     int64_t queryBlock, int64_t nk);

/// FlexAttention-style block lists ([B', H', nQB] counts and
/// [B', H', nQB, L] indices, i32, row-major; B' in {1, B}, H' in {1, Hq}).
struct BlockLists {
  int64_t blockQ = 0, blockK = 0;
  int64_t batches = 1, heads = 1, queryBlocks = 0;
  int64_t capacity = 0, fullCapacity = 0;
  const int32_t *count = nullptr, *indices = nullptr;
  const int32_t *fullCount = nullptr, *fullIndices = nullptr;

  /// 2 if key block kb is in the full list of (b, h, qb), 1 if in the
  /// partial list, 0 otherwise (entries past a count do not count; counts
  /// are clamped to the capacity).
  int lookup(int64_t b, int64_t h, int64_t qb, int64_t kb) const;
};

} // namespace attic::ref

#endif // ATTIC_REFERENCE_LAYOUT_H
