//===- MemrefCopy.cpp - memref.copy for ahead-of-time code ------*- C++ -*-===//
//
// attic_rt_memref_copy (attic/runtime/Aot.h): what upstream's lowering of
// memref.copy calls for buffers that are not both contiguous (memrefCopy of
// MLIR's runner utilities, which the JIT loads from libmlir; ahead-of-time
// libraries must not need libmlir, so attic-compile calls this instead).
//
//===----------------------------------------------------------------------===//

#include "attic/runtime/Aot.h"

#include <cstdint>
#include <cstring>
#include <vector>

namespace {
/// MLIR's unranked memref descriptor: {rank, pointer to the ranked one}.
struct Unranked {
  int64_t rank;
  void *descriptor;
};

/// The fields of a ranked descriptor {allocated, aligned, offset,
/// sizes[rank], strides[rank]} (pointers and int64 are both 8 bytes).
struct Ranked {
  char *aligned;
  int64_t offset;
  const int64_t *sizes, *strides;
};

Ranked unpack(const Unranked &m) {
  auto *words = static_cast<const int64_t *>(m.descriptor);
  Ranked r;
  std::memcpy(&r.aligned, &words[1], sizeof(char *));
  r.offset = words[2];
  r.sizes = words + 3;
  r.strides = words + 3 + m.rank;
  return r;
}
} // namespace

extern "C" void attic_rt_memref_copy(int64_t elementSize, const void *src,
                                     const void *dst) {
  Unranked s, d;
  std::memcpy(&s, src, sizeof(s));
  std::memcpy(&d, dst, sizeof(d));
  int64_t rank = s.rank;
  Ranked a = unpack(s), b = unpack(d);
  int64_t count = 1;
  for (int64_t i = 0; i < rank; ++i)
    count *= a.sizes[i];
  if (count == 0)
    return;
  // Walk the elements in row-major order with an index vector.
  std::vector<int64_t> index(size_t(rank), 0);
  char *from = a.aligned + a.offset * elementSize;
  char *to = b.aligned + b.offset * elementSize;
  for (int64_t n = 0; n < count; ++n) {
    std::memcpy(to, from, size_t(elementSize));
    for (int64_t dim = rank - 1; dim >= 0; --dim) {
      from += a.strides[dim] * elementSize;
      to += b.strides[dim] * elementSize;
      if (++index[dim] < a.sizes[dim])
        break;
      from -= a.strides[dim] * a.sizes[dim] * elementSize;
      to -= b.strides[dim] * b.sizes[dim] * elementSize;
      index[dim] = 0;
    }
  }
}
