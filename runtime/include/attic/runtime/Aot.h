/*===- attic/runtime/Aot.h - calling ahead-of-time compiled code ----------===*
 *
 * The C ABI of the libraries that `attic-compile` writes (docs/aot.md), and
 * the runtime functions their code calls. Everything here lives in
 * libattic_rt.so (runtime/CMakeLists.txt), which needs the C++ standard
 * library, OpenBLAS and libomp, and neither MLIR nor LLVM.
 *
 * A library compiled from entry function F exports
 *  - `int32_t F(const T0 *arg0, ..., T *result0, ...)`: the typed entry
 *    (declared in the header attic-compile writes next to the library);
 *    arguments are row-major contiguous buffers of the static shapes of F's
 *    signature, results are written into caller-provided buffers of theirs.
 *    Returns 0 on success; otherwise nonzero, with the message in
 *    attic_aot_last_error().
 *  - `const attic_aot_entry F__attic_entry`: the signature and target, for
 *    callers that check what they pass (the Python entry, attic_aot_call).
 *
 *===----------------------------------------------------------------------===*/

#ifndef ATTIC_RUNTIME_AOT_H
#define ATTIC_RUNTIME_AOT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version of this ABI; an entry of another version is refused. */
#define ATTIC_AOT_ABI_VERSION 1

/* One compiled entry point, as attic-compile emits it (a constant global). */
typedef struct attic_aot_entry {
  int64_t abi_version;       /* ATTIC_AOT_ABI_VERSION */
  const char *name;          /* the entry function's name */
  const char *target;        /* "cpu" */
  const char *triple;        /* LLVM target triple the code was built for */
  const char *cpu;           /* the CPU it was tuned for ("skylake-avx512") */
  const char *features;      /* the CPU features it may use ("+avx2,...") */
  int64_t num_inputs;
  int64_t num_results;
  /* For each input, then each result: attic_dtype, rank, then the `rank`
   * static sizes (the ABI has no dynamic sizes). */
  const int64_t *specs;
  /* The compiled function in the packed convention: one pointer per scalar
   * of its lowered signature (a memref expands to allocated, aligned,
   * offset, sizes, strides), then one pointer to its result struct. */
  void (*packed)(void **);
} attic_aot_entry;

/* Calls `entry` on the buffers inputs[0..num_inputs) and writes its results
 * into results[0..num_results) (each of its spec's size, row-major).
 * Checks the entry's ABI version and that this machine can run its code
 * (architecture and CPU features) first. Returns 0, or nonzero with the
 * message in attic_aot_last_error(): a data-dependent error reported by the
 * compiled code, an entry for another machine. Thread-safe apart from the
 * compiled code's own error channel (one report per process at a time). */
int32_t attic_aot_call(const attic_aot_entry *entry, const void *const *inputs,
                       void *const *results);

/* Checks that this process can run `entry`'s code (ABI version, target,
 * architecture, CPU features). Returns 0, or nonzero with a message in
 * attic_aot_last_error(). attic_aot_call calls it. The environment variable
 * ATTIC_AOT_MASK_FEATURES=avx512f,... makes it treat those features as
 * absent (to see how a library would be refused on a machine without
 * them). */
int32_t attic_aot_check(const attic_aot_entry *entry);

/* The message of the calling thread's last failed call ("" if none). */
const char *attic_aot_last_error(void);

/* Threads of the compiled parallel loops and of OpenBLAS (n <= 0: the
 * default, OMP_NUM_THREADS or all cores as OpenMP had it before the first
 * call, also after an earlier n > 0; at most 1024, larger counts are
 * clamped, as for attic-run's --cpu-threads). It applies to calls from
 * every thread of the process. Returns the count in effect, or -1 when
 * OMP_NUM_THREADS is not a list of counts in [1, 1024] (libomp would abort
 * the process; attic_aot_last_error says why, and attic_aot_call fails the
 * same way). */
int32_t attic_aot_set_threads(int32_t n);

/* Number of elements of spec `index` (inputs first, then results). */
int64_t attic_aot_numel(const attic_aot_entry *entry, int64_t index);

/*===----------------------------------------------------------------------===*
 * Called by compiled code (attic-compile renames the allocation functions and
 * memrefCopy of the lowered module to these)
 *===----------------------------------------------------------------------===*/

/* malloc, calloc, aligned_alloc, realloc and free for compiled code. Compiled
 * code does not check for null, so a failed allocation ends the process with
 * one line on stderr and exit status 3, as under attic-run. */
void *attic_rt_malloc(size_t size);
void *attic_rt_calloc(size_t n, size_t size);
void *attic_rt_aligned_alloc(size_t alignment, size_t size);
void *attic_rt_realloc(void *ptr, size_t size);
void attic_rt_free(void *ptr);

/* Heap use of compiled code through the functions above: starts a new
 * measurement (peak = what is live now, count = 0) ... */
void attic_rt_heap_reset(void);
/* ... and reads it: the largest live total and the number of allocations
 * since the last reset. Freed blocks of 64 KiB or more (up to 1 GiB in all)
 * are kept for the next allocation of the same size: compiled code
 * allocates the same large buffers on every call, and fresh pages from the
 * OS cost a fault each. */
void attic_rt_heap_stats(uint64_t *peakBytes, uint64_t *allocations);

/* memref.copy between two strided buffers, in the ABI of MLIR's runner
 * utilities' memrefCopy: src and dst point to {int64 rank; void *descriptor}
 * where the descriptor is {allocated, aligned, offset, sizes[rank],
 * strides[rank]}. */
void attic_rt_memref_copy(int64_t elementSize, const void *src,
                          const void *dst);

/* C += op(A) op(B) on f32 (see attic_rt_sgemm in docs/aot.md): the GEMMs
 * of attic-linalg-to-blas, on OpenBLAS. */
void attic_rt_sgemm(int64_t transA, int64_t transB, int64_t m, int64_t n,
                    int64_t k, intptr_t a, int64_t aOffset, int64_t lda,
                    intptr_t b, int64_t bOffset, int64_t ldb, intptr_t c,
                    int64_t cOffset, int64_t ldc);

/* Makes OpenBLAS use `threads` threads (ignored when threads <= 0). */
void attic_rt_set_blas_threads(int32_t threads);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* ATTIC_RUNTIME_AOT_H */
