//===- NpyFuzzer.cpp - libFuzzer target for the .npy reader ---------------===//
//
// Feeds arbitrary bytes to attic_npy_load (through an in-memory file) and
// checks what it promises: it either fails with a message and a zeroed
// tensor, or returns a tensor whose byte count is its dims' product times
// the element size and which saves and loads back to the same dtype, shape
// and bytes. Built with ASan and UBSan by scripts/sanitize.sh (the
// sanitizers catch out-of-bounds reads, overflows and leaks); the seed
// corpus is test/fuzz/corpus/npy.
//
//===----------------------------------------------------------------------===//

#include "attic/runtime/Runtime.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <sys/mman.h>
#include <unistd.h>

namespace {

/// An anonymous in-memory file and its /proc path.
struct MemFile {
  int fd = -1;
  std::string path;
  MemFile() {
    fd = memfd_create("attic-npy-fuzz", 0);
    if (fd < 0) {
      std::perror("memfd_create");
      std::abort();
    }
    path = "/proc/self/fd/" + std::to_string(fd);
  }
  ~MemFile() { close(fd); }
  void write(const uint8_t *data, size_t size) {
    if (ftruncate(fd, 0) != 0 || lseek(fd, 0, SEEK_SET) != 0)
      std::abort();
    while (size > 0) {
      ssize_t n = ::write(fd, data, size);
      if (n <= 0)
        std::abort();
      data += n;
      size -= static_cast<size_t>(n);
    }
  }
};

[[noreturn]] void violated(const char *what) {
  std::fprintf(stderr, "attic_npy_load contract violated: %s\n", what);
  std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static MemFile input, output;
  input.write(data, size);
  attic_tensor t;
  char err[512];
  if (attic_npy_load(input.path.c_str(), &t, err, sizeof(err)) != ATTIC_OK) {
    if (t.data || t.nbytes || t.rank)
      violated("a failed load left a tensor behind");
    if (err[0] == '\0')
      violated("a failed load without a message");
    return 0;
  }
  size_t elem = attic_dtype_size(t.dtype);
  if (elem == 0 || t.rank < 0 || t.rank > ATTIC_MAX_RANK || !t.data)
    violated("a loaded tensor with a bad dtype, rank or no data");
  if (static_cast<size_t>(attic_tensor_numel(&t)) * elem != t.nbytes)
    violated("nbytes is not numel times the element size");

  // Save and load back: the same dtype, shape and bytes.
  if (attic_npy_save(output.path.c_str(), &t, err, sizeof(err)) != ATTIC_OK)
    violated("a loaded tensor does not save");
  attic_tensor back;
  if (attic_npy_load(output.path.c_str(), &back, err, sizeof(err)) != ATTIC_OK)
    violated("a saved tensor does not load");
  bool same = back.dtype == t.dtype && back.rank == t.rank &&
              back.nbytes == t.nbytes &&
              std::memcmp(back.shape, t.shape, sizeof(int64_t) * t.rank) == 0 &&
              std::memcmp(back.data, t.data, t.nbytes) == 0;
  // I1 bytes other than 0 load as 1, so a second round trip is exact.
  attic_tensor_free(&back);
  attic_tensor_free(&t);
  if (!same)
    violated("save then load changed the tensor");
  return 0;
}
