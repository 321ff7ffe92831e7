//===- Blas.cpp - attic_rt_sgemm on OpenBLAS --------------------*- C++ -*-===//
//
// The GEMMs of attic-linalg-to-blas for compiled code, JIT (attic-run binds
// the symbol) or ahead of time (libattic_rt.so). Declared in
// attic/runtime/Aot.h.
//
// OpenBLAS reads OPENBLAS_CORETYPE when it is loaded: Debian's build
// misdetects the CPUs of the benchmark machines (docs/TOOLCHAIN notes), so
// runs that time GEMMs set OPENBLAS_CORETYPE=SkylakeX (AVX-512 hosts).
//
//===----------------------------------------------------------------------===//

#include "attic/runtime/Aot.h"
#include "attic/runtime/Runtime.h"

#include "Error.h"

#include <cstdlib>
#include <initializer_list>

#include <sys/mman.h>
#include <sys/resource.h>

// Debian installs OpenBLAS's header under this name (cblas.h is an
// alternative that may point to another BLAS).
#include <cblas-openblas.h>

namespace {
const float *elementAt(intptr_t base, int64_t offset) {
  return reinterpret_cast<const float *>(base) + offset;
}

/// C += op(A) op(B) element by element, for strides BLAS rejects.
void plainSgemm(bool transA, bool transB, int64_t m, int64_t n, int64_t k,
                const float *a, int64_t lda, const float *b, int64_t ldb,
                float *c, int64_t ldc) {
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      float sum = c[i * ldc + j];
      for (int64_t p = 0; p < k; ++p)
        sum += (transA ? a[p * lda + i] : a[i * lda + p]) *
               (transB ? b[j * ldb + p] : b[p * ldb + j]);
      c[i * ldc + j] = sum;
    }
}

/// Whether OpenBLAS has had its work buffer on this thread: a GEMM large
/// enough for its blocked path went through it (smaller ones may take a
/// small-matrix path without the buffer: SkylakeX's does up to about
/// 100^3).
thread_local bool blasHasBuffer = false;
constexpr int64_t kBlockedGemm = int64_t(1) << 22; // m n k at least this

/// Whether the process has a limit that OpenBLAS's buffer may hit: the
/// address space (ulimit -v) or the data segment (ulimit -d, which counts
/// private writable mappings). Read on every check (a host program may
/// set a limit after the first GEMM).
bool memoryLimited() {
  struct rlimit limit;
  for (int resource : {RLIMIT_AS, RLIMIT_DATA})
    if (getrlimit(resource, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
      return true;
  return false;
}

/// Whether there is room for OpenBLAS's work buffers. OpenBLAS 0.3.21
/// maps a 128 MiB buffer on a thread's first blocked GEMM and, when the
/// address space has no room for it (ulimit -v, ulimit -d), retries
/// forever at 100% CPU (attic-run hung on a 64x64 matmul under a 600 MB
/// limit; a 2026-11-30 audit). Under a limit, until a blocked GEMM has
/// gone through OpenBLAS on a thread, room for two such buffers (the
/// thread's and one for a worker of OpenBLAS's own) is mapped as OpenBLAS
/// maps it (writable, private; never touched) and released again (a few
/// microseconds); without it the product runs on plain loops, slower but
/// never hung. OpenBLAS keeps its buffers, so the check stops after that
/// GEMM. Without a limit there is nothing to check.
bool roomForBlasBuffers() {
  if (blasHasBuffer || !memoryLimited())
    return true;
  constexpr size_t room = size_t(2) * (size_t(129) << 20);
  void *probe = mmap(nullptr, room, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (probe == MAP_FAILED)
    return false;
  munmap(probe, room);
  return true;
}
} // namespace

extern "C" void attic_rt_sgemm(int64_t transA, int64_t transB, int64_t m,
                               int64_t n, int64_t k, intptr_t a,
                               int64_t aOffset, int64_t lda, intptr_t b,
                               int64_t bOffset, int64_t ldb, intptr_t c,
                               int64_t cOffset, int64_t ldc) {
  if (m <= 0 || n <= 0 || k <= 0)
    return; // C += nothing
  const float *pa = elementAt(a, aOffset);
  const float *pb = elementAt(b, bOffset);
  float *pc = const_cast<float *>(elementAt(c, cOffset));
  // Row-major BLAS needs each leading dimension to cover a stored row.
  int64_t rowA = transA ? m : k, rowB = transB ? k : n;
  constexpr int64_t blasIntMax = 0x7fffffff;
  bool blasOk = lda >= rowA && ldb >= rowB && ldc >= n && m <= blasIntMax &&
                n <= blasIntMax && k <= blasIntMax && lda <= blasIntMax &&
                ldb <= blasIntMax && ldc <= blasIntMax;
  if (!blasOk || !roomForBlasBuffers()) {
    plainSgemm(transA, transB, m, n, k, pa, lda, pb, ldb, pc, ldc);
    return;
  }
  cblas_sgemm(CblasRowMajor, transA ? CblasTrans : CblasNoTrans,
              transB ? CblasTrans : CblasNoTrans, static_cast<blasint>(m),
              static_cast<blasint>(n), static_cast<blasint>(k), 1.0f, pa,
              static_cast<blasint>(lda), pb, static_cast<blasint>(ldb), 1.0f,
              pc, static_cast<blasint>(ldc));
  if (double(m) * double(n) * double(k) >= double(kBlockedGemm))
    blasHasBuffer = true;
}

extern "C" attic_status attic_check_omp_env(char *err, size_t errLen) {
  const char *env = std::getenv("OMP_NUM_THREADS");
  if (!env)
    return ATTIC_OK;
  const char *p = env;
  bool ok = true;
  do {
    while (*p == ' ' || *p == '\t')
      ++p;
    long long count = 0;
    int digits = 0;
    for (; *p >= '0' && *p <= '9'; ++p, ++digits)
      if (count <= 1024)
        count = count * 10 + (*p - '0');
    while (*p == ' ' || *p == '\t')
      ++p;
    ok = digits > 0 && count >= 1 && count <= 1024;
  } while (ok && *p++ == ',');
  if (ok && p[-1] == '\0')
    return ATTIC_OK;
  return attic::runtime::fail(
      err, errLen,
      "OMP_NUM_THREADS=%s: expected a thread count in [1, 1024] or a "
      "comma-separated list of such counts",
      env);
}

extern "C" void attic_rt_set_blas_threads(int32_t threads) {
  if (threads > 0)
    openblas_set_num_threads(threads);
}
