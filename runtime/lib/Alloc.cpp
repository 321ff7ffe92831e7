//===- Alloc.cpp - the allocator of compiled code ---------------*- C++ -*-===//
//
// malloc and friends for compiled code (attic/runtime/Aot.h): the JIT binds
// compiled code's malloc/free to these (lib/Execution/CpuExecutable.cpp) and
// attic-compile renames them to these, so that both count the heap use of a
// call, reuse large blocks across calls, and never return null into code
// that does not check.
//
//===----------------------------------------------------------------------===//

#include "attic/runtime/Aot.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <unordered_map>
#include <vector>

#include <unistd.h>

namespace {

struct HeapCounter {
  std::mutex mutex;
  std::unordered_map<void *, size_t> sizes;
  uint64_t live = 0, peak = 0, count = 0;

  /// Freed blocks of at least kCachedBytes, kept for the next allocation of
  /// the same size (on the machines attic is measured on, the page faults of
  /// fresh memory cost more than the attention of a sparse layout itself: 60
  /// of 70 ms at N = 16K). At most kCacheLimit bytes, memory the code
  /// already used at its peak.
  static constexpr size_t kCachedBytes = 64 * 1024;
  static constexpr size_t kCacheLimit = size_t(1) << 30;
  std::unordered_map<size_t, std::vector<void *>> cache;
  size_t cached = 0;

  /// A cached block of `size` bytes aligned to `alignment`, or nullptr.
  void *reuse(size_t size, size_t alignment) {
    if (size < kCachedBytes)
      return nullptr;
    std::lock_guard<std::mutex> lock(mutex);
    auto it = cache.find(size);
    if (it == cache.end())
      return nullptr;
    std::vector<void *> &blocks = it->second;
    for (size_t i = 0; i < blocks.size(); ++i) {
      void *ptr = blocks[i];
      if (reinterpret_cast<uintptr_t>(ptr) % alignment)
        continue;
      blocks[i] = blocks.back();
      blocks.pop_back();
      cached -= size;
      return ptr;
    }
    return nullptr;
  }

  void *record(void *ptr, size_t size) {
    if (!ptr)
      return ptr;
    std::lock_guard<std::mutex> lock(mutex);
    sizes[ptr] = size;
    live += size;
    ++count;
    if (live > peak)
      peak = live;
    return ptr;
  }

  /// The size of a live block, 0 if `ptr` is not one.
  size_t sizeOf(void *ptr) {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = sizes.find(ptr);
    return it == sizes.end() ? 0 : it->second;
  }

  /// Forgets `ptr`; returns true when it went to the cache (not to free).
  bool release(void *ptr) {
    if (!ptr)
      return false;
    std::lock_guard<std::mutex> lock(mutex);
    auto it = sizes.find(ptr);
    if (it == sizes.end())
      return false;
    size_t size = it->second;
    live -= size;
    sizes.erase(it);
    if (size < kCachedBytes || cached + size > kCacheLimit)
      return false;
    cache[size].push_back(ptr);
    cached += size;
    return true;
  }
};

HeapCounter &heap() {
  // Never destroyed: compiled code in other threads may still free at exit.
  static HeapCounter *counter = new HeapCounter();
  return *counter;
}

/// Compiled code does not check what malloc returns: it would write through
/// a null pointer (inside an OpenMP worker the call cannot be unwound). A
/// failed allocation therefore ends the process with one line on stderr and
/// exit status 3.
[[noreturn]] void outOfMemory(size_t size) {
  char line[160];
  int n = std::snprintf(line, sizeof(line),
                        "attic: error: the compiled code ran out of memory "
                        "allocating %zu bytes (%.1f GiB); exiting\n",
                        size, double(size) / double(size_t(1) << 30));
  if (n > 0)
    (void)!::write(2, line, std::min<size_t>(size_t(n), sizeof(line) - 1));
  std::_Exit(3);
}

void *checked(void *ptr, size_t size) {
  if (!ptr && size)
    outOfMemory(size);
  return ptr;
}

} // namespace

extern "C" void *attic_rt_malloc(size_t size) {
  void *ptr = heap().reuse(size, alignof(std::max_align_t));
  return heap().record(ptr ? ptr : checked(std::malloc(size), size), size);
}

extern "C" void *attic_rt_calloc(size_t n, size_t size) {
  size_t bytes;
  if (__builtin_mul_overflow(n, size, &bytes))
    outOfMemory(SIZE_MAX);
  return heap().record(checked(std::calloc(n, size), bytes), bytes);
}

extern "C" void *attic_rt_aligned_alloc(size_t alignment, size_t size) {
  void *ptr = heap().reuse(size, alignment);
  return heap().record(
      ptr ? ptr : checked(std::aligned_alloc(alignment, size), size), size);
}

extern "C" void *attic_rt_realloc(void *ptr, size_t size) {
  if (ptr) {
    // A block that may go to the cache must not be realloc'ed: copy out of
    // it instead.
    size_t old = heap().sizeOf(ptr);
    if (old >= HeapCounter::kCachedBytes) {
      void *fresh = attic_rt_malloc(size);
      std::memcpy(fresh, ptr, std::min(old, size));
      attic_rt_free(ptr);
      return fresh;
    }
  }
  heap().release(ptr);
  return heap().record(checked(std::realloc(ptr, size), size), size);
}

extern "C" void attic_rt_free(void *ptr) {
  if (!heap().release(ptr))
    std::free(ptr);
}

extern "C" void attic_rt_heap_reset(void) {
  HeapCounter &counter = heap();
  std::lock_guard<std::mutex> lock(counter.mutex);
  counter.peak = counter.live;
  counter.count = 0;
}

extern "C" void attic_rt_heap_stats(uint64_t *peakBytes,
                                    uint64_t *allocations) {
  HeapCounter &counter = heap();
  std::lock_guard<std::mutex> lock(counter.mutex);
  if (peakBytes)
    *peakBytes = counter.peak;
  if (allocations)
    *allocations = counter.count;
}
