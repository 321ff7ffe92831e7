/*===- attic/runtime/Runtime.h - attic runtime C API ----------------------===*
 *
 * The C API of attic's runtime library: dense host tensors, NumPy .npy I/O,
 * deterministic random fills, half-precision conversions and timing. It is a
 * plain C header so that compiled kernels, the test harness and C callers can
 * all use it; it depends on the C++ standard library only.
 *
 * Conventions:
 *  - Functions that can fail return attic_status and take `char *err,
 *    size_t errLen`. On failure they write a one-line, NUL-terminated message
 *    (truncated to errLen) that starts with the file path where one is
 *    involved. `err` may be NULL.
 *  - Tensors are row-major and contiguous; `data` is 64-byte aligned.
 *
 *===----------------------------------------------------------------------===*/

#ifndef ATTIC_RUNTIME_RUNTIME_H
#define ATTIC_RUNTIME_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*===----------------------------------------------------------------------===*
 * Element types
 *===----------------------------------------------------------------------===*/

typedef enum attic_dtype {
  ATTIC_F32 = 0,
  ATTIC_F16 = 1,
  ATTIC_BF16 = 2,
  ATTIC_F64 = 3,
  ATTIC_I1 = 4, /* one byte per element, holding 0 or 1 */
  ATTIC_I8 = 5,
  ATTIC_I32 = 6,
  ATTIC_I64 = 7,
  /* Not a dtype: makes every int32 value a valid attic_dtype for C++, so
   * that a bad value from a caller (checked by the functions below) is not
   * undefined behaviour to load. */
  ATTIC_DTYPE_RANGE_ = 0x7fffffff
} attic_dtype;

typedef enum attic_status { ATTIC_OK = 0, ATTIC_ERROR = 1 } attic_status;

/* Size in bytes of one element: F32 4, F16 2, BF16 2, F64 8, I1 1, I8 1,
 * I32 4, I64 8. Returns 0 for a value that is not an attic_dtype. */
size_t attic_dtype_size(attic_dtype dtype);

/* The smallest normal value of a float dtype (f16 2^-14, f32 and bf16
 * FLT_MIN, f64 DBL_MIN); 0 for integers, i1 and a value that is not an
 * attic_dtype. The floor of --check's relative error (attic-run,
 * attic-aot-run). */
double attic_dtype_smallest_normal(attic_dtype dtype);

/* "f32", "f16", "bf16", "f64", "i1", "i8", "i32", "i64"; "invalid" for a
 * value that is not an attic_dtype. */
const char *attic_dtype_name(attic_dtype dtype);

/* Inverse of attic_dtype_name. Returns ATTIC_ERROR (leaving *dtype alone) for
 * an unknown name. */
attic_status attic_dtype_from_name(const char *name, attic_dtype *dtype);

/*===----------------------------------------------------------------------===*
 * Tensors
 *===----------------------------------------------------------------------===*/

#define ATTIC_MAX_RANK 8

typedef struct attic_tensor {
  attic_dtype dtype;
  int32_t rank;
  int64_t shape[ATTIC_MAX_RANK]; /* entries past `rank` are 0 */
  void *data;                    /* 64-byte aligned, row-major contiguous */
  size_t nbytes;                 /* numel * attic_dtype_size(dtype) */
} attic_tensor;

/* Number of elements: the product of the shape (1 for rank 0). Returns 0 for
 * NULL, a rank outside [0, ATTIC_MAX_RANK] or a zero size; -1 for a negative
 * size or a product past INT64_MAX. */
int64_t attic_tensor_numel(const attic_tensor *t);

/* Checks that *t describes its storage: t not NULL, a known dtype, a rank in
 * [0, ATTIC_MAX_RANK], no negative size, the bytes of its non-zero sizes
 * below 2^63 (they bound every stride, as in attic_tensor_alloc) and,
 * when the shape has elements, data not NULL and nbytes at least the
 * shape's bytes (more is allowed). attic_npy_save, the fills,
 * attic_tensor_allclose and attic's executables (the inputs of a compiled
 * function run by attic-run) check their tensors this way. On failure returns
 * ATTIC_ERROR with "<what> <reason>" in err, e.g. "argument #1 of @f has no
 * storage" or "x.npy: tensor holds 8 bytes but its shape needs 16"; `what`
 * NULL reads as "tensor". */
attic_status attic_tensor_check(const attic_tensor *t, const char *what,
                                char *err, size_t errLen);

/* Allocates zeroed, 64-byte aligned storage and fills in *t. `shape` may be
 * NULL when rank is 0. `data` is non-NULL on success even when the tensor has
 * no elements. Fails (ATTIC_ERROR + message, *t zeroed) on rank < 0 or > 8,
 * negative dims, size overflow or out of memory. *t must not own storage. */
attic_status attic_tensor_alloc(attic_tensor *t, attic_dtype dtype,
                                int32_t rank, const int64_t *shape, char *err,
                                size_t errLen);

/* Frees the storage of *t and sets data = NULL, nbytes = 0. Safe on a zeroed
 * struct, on an already freed tensor and on NULL. */
void attic_tensor_free(attic_tensor *t);

/* Element flatIndex (row-major) as a double, for any dtype. Returns NaN when t
 * or its data is NULL or flatIndex is out of range. */
double attic_tensor_get(const attic_tensor *t, int64_t flatIndex);

/* Stores `value` at flatIndex, converted to the dtype: F32 and F16/BF16 round
 * to nearest even; I1 stores value != 0; I8/I32/I64 truncate toward zero and
 * saturate to the type's range (NaN stores 0). Does nothing when t or its data
 * is NULL or flatIndex is out of range. */
void attic_tensor_set(attic_tensor *t, int64_t flatIndex, double value);

/*===----------------------------------------------------------------------===*
 * NumPy .npy files
 *
 * Format versions 1.0, 2.0 and 3.0 are read, C order only. Accepted descr
 * strings: '<f4' F32, '<f2' F16, '<f8' F64, '|b1' I1, '|i1' I8, '<i4' I32,
 * '<i8' I64, and '<u2' BF16: NumPy has no bfloat16, so BF16 tensors are saved
 * as '<u2' holding the raw bf16 bit patterns and '<u2' files load as BF16.
 * '=' (native, little-endian on every supported host) is accepted in place
 * of '<'; '<' and '=' are also accepted for the one-byte types. Big-endian
 * ('>f4'), Fortran-order and other dtypes are rejected with a message, as is
 * a file whose data is shorter or longer than the header says. I1 bytes
 * other than 0 load as 1.
 *
 * attic_npy_save writes format 1.0 with the same bytes numpy.save produces
 * (data starting at a multiple of 64 bytes), so numpy.load reads the files.
 *===----------------------------------------------------------------------===*/

/* Loads `path` into a freshly allocated *out (which must not own storage).
 * On failure *out is zeroed. Malformed files are rejected before anything of
 * the file's claimed size is allocated. */
attic_status attic_npy_load(const char *path, attic_tensor *out, char *err,
                            size_t errLen);

/* Writes *t to `path`. A path naming a file this process maps (a library
 * it runs, e.g. the AOT library just loaded) is refused: overwriting it
 * would truncate code in use. A failed write removes the partial file. */
attic_status attic_npy_save(const char *path, const attic_tensor *t,
                            char *err, size_t errLen);

/*===----------------------------------------------------------------------===*
 * Random numbers
 *===----------------------------------------------------------------------===*/

/* Philox4x32-10 (Salmon et al., SC'11), identical to Random123's
 * philox4x32_R(10, ...) with
 *   key = {(uint32_t)key, (uint32_t)(key >> 32)},
 *   ctr = {(uint32_t)counterLo, (uint32_t)(counterLo >> 32),
 *          (uint32_t)counterHi, (uint32_t)(counterHi >> 32)},
 * out[i] = result word i. Same numbers on every platform. */
void attic_philox4x32(uint64_t key, uint64_t counterHi, uint64_t counterLo,
                      uint32_t out[4]);

/* Fills a tensor with uniform random values. Element i is a pure function of
 * (seed, stream, i), independent of the tensor's shape:
 *   32-bit draw w(i) = attic_philox4x32(seed, stream, i / 4)[i % 4]
 *   64-bit draw r(i) = words 2j and 2j+1 (low, high) of
 *                      attic_philox4x32(seed, stream, i / 2), j = i % 2.
 * Floats (F32/F16/BF16/F64): u = (float)(w >> 8) * 2^-24 in [0, 1),
 *   v = lo_f + (hi_f - lo_f) * u in float arithmetic (lo_f, hi_f = lo, hi
 *   rounded to float), rounded to the dtype (RNE); a result that rounds to
 *   hi_f or above is replaced by the largest dtype value below hi_f, so
 *   values lie in [lo, hi). Requires finite lo < hi.
 * Integers (I1/I8/I32): with a = ceil(lo), b = ceil(hi), n = b - a,
 *   value = a + ((uint64_t)w * n >> 32); I64 uses r and a 128-bit product.
 *   Values lie in [lo, hi). Requires 1 <= n, and [a, b) within the dtype
 *   (n <= 2^32 for the 32-bit types). */
attic_status attic_fill_uniform(attic_tensor *t, uint64_t seed,
                                uint64_t stream, double lo, double hi,
                                char *err, size_t errLen);

/* Element i is 1 if u(i) < p else 0, with u(i) as for attic_fill_uniform
 * floats; stored as 0/1 in any dtype. Requires 0 <= p <= 1. */
attic_status attic_fill_bernoulli(attic_tensor *t, uint64_t seed,
                                  uint64_t stream, double p, char *err,
                                  size_t errLen);

/*===----------------------------------------------------------------------===*
 * Half-precision conversions
 *===----------------------------------------------------------------------===*/

/* IEEE binary16. Round to nearest even; overflow goes to inf; subnormals,
 * inf and NaN (kept quiet, sign and top payload bits preserved) are exact. */
uint16_t attic_f32_to_f16(float value);
float attic_f16_to_f32(uint16_t bits);

/* bfloat16 (the top 16 bits of a binary32). Round to nearest even; NaN stays
 * NaN (quiet). */
uint16_t attic_f32_to_bf16(float value);
float attic_bf16_to_f32(uint16_t bits);

/* The same roundings from double, rounding once (going through float would
 * round twice and can be off by one ulp). */
uint16_t attic_f64_to_f16(double value);
uint16_t attic_f64_to_bf16(double value);

/*===----------------------------------------------------------------------===*
 * Comparison
 *===----------------------------------------------------------------------===*/

typedef struct attic_compare_result {
  double maxAbsErr;      /* max |actual - expected| over finite pairs */
  double maxRelErr;      /* max |actual - expected| / |expected|, expected!=0 */
  int64_t numMismatches; /* elements failing the tolerance */
  int64_t firstMismatch; /* flat index of the first one, or -1 */
} attic_compare_result;

/* Checks |actual - expected| <= atol + rtol * |expected| element-wise (as
 * numpy.allclose). Two NaNs match, and infinities match when equal. The
 * dtypes may differ; shapes must be equal. Returns ATTIC_OK when every element
 * matches; otherwise ATTIC_ERROR with a message naming the shape mismatch or
 * the first mismatching element and the mismatch count. `result` may be NULL;
 * it is filled in whenever the shapes match. */
attic_status attic_tensor_allclose(const attic_tensor *actual,
                                   const attic_tensor *expected, double rtol,
                                   double atol, attic_compare_result *result,
                                   char *err, size_t errLen);

/*===----------------------------------------------------------------------===*
 * Timing
 *===----------------------------------------------------------------------===*/

/* CLOCK_MONOTONIC in nanoseconds. */
uint64_t attic_now_ns(void);

/* Sorts values in place (NaNs last) and returns the median: the middle
 * element, or the mean of the two middle elements when n is even. Returns NaN
 * for n == 0. */
double attic_median(double *values, size_t n);

/* Makes the C library keep freed heap memory in the process (glibc:
 * M_MMAP_THRESHOLD and M_TRIM_THRESHOLD of 1 GiB) instead of returning it
 * to the OS, so that a process that runs compiled code repeatedly (attic-run
 * --bench, the benchmarks) does not pay a page fault per page of every large
 * buffer of every call. Process-wide: for tools, not for libraries to call
 * behind their host's back. No effect where unsupported. */
void attic_retain_heap(void);

/* Checks OMP_NUM_THREADS (when set) before OpenMP reads it: libomp aborts
 * the process on a value that is not a list of positive counts ("abc", "",
 * "-3", "4,x") and on a count it cannot create threads for. Accepted: a
 * comma-separated list of integers in [1, 1024] (spaces around them
 * allowed; the first is the count). */
attic_status attic_check_omp_env(char *err, size_t errLen);

/*===----------------------------------------------------------------------===*
 * Errors reported by compiled code
 *
 * Some errors depend on the data, so no verifier can catch them (a sequence
 * with more VIP tokens than `attic.vip_order`'s num_vip). Compiled code calls
 * attic_rt_report_error when it finds one and goes on with defined (but
 * meaningless) results; whoever runs it (attic-run, CpuExecutable, an AOT
 * caller) must call attic_rt_take_error afterwards and treat a report as a
 * failure of the run.
 *===----------------------------------------------------------------------===*/

typedef enum attic_rt_error_code {
  /* a = batch index, b = VIP tokens in that sequence, c = num_vip. */
  ATTIC_RT_TOO_MANY_VIP = 1,
  /* Block lists of attic.block_attention / attic.block_mask. For
   * ATTIC_RT_BLOCK_COUNT, _INDEX, _ORDER and _BOTH, `a` names the list and
   * its row (built by the compiler's emitBlockListRow): a = list << 60 | b <<
   * 40 | h << 20 | qb (the lists' batch, head and query block, each below 2^20;
   * list 0 for kv_num_blocks/kv_indices, 1 for the full_ ones), or, where a
   * field does not fit, a = -1 - (2 * flat + list) with flat = (b * H' + h) *
   * nQB + qb.
   * Count: a = the row, b = the count, c = the capacity L of the list (a
   * count outside [0, L]). */
  ATTIC_RT_BLOCK_COUNT = 2,
  /* a = the row, b = the key block index, c = the number of key blocks (an
   * index outside [0, c)). */
  ATTIC_RT_BLOCK_INDEX = 3,
  /* a = the list's query blocks, b = ceil(Nq / block_q), c = 0; or a list's
   * batch or head dim that is neither 1 nor B/Hq (c = 1 and 2); or
   * attic.block_mask's query_len a and key_len b, one of them negative
   * (c = 3). */
  ATTIC_RT_BLOCK_SHAPE = 4,
  /* A mask or score region reads a capture outside it: a = capture * 16 +
   * dimension, b = the index, c = the capture's size in that dimension. */
  ATTIC_RT_CAPTURE_INDEX = 5,
  /* Block lists: a list that is not strictly ascending (a block listed
   * twice would count twice): a = the row, b = the key block, c = the
   * entry before it. */
  ATTIC_RT_BLOCK_ORDER = 6,
  /* Block lists: a = the row (its list bit unused), b = a key block that
   * is in both its partial and its full list. */
  ATTIC_RT_BLOCK_BOTH = 7,
  /* tensor.extract or tensor.insert in the function's own code (not in a
   * modifier region) with an index outside the tensor (attic-guard-tensor-
   * indices): a = line * 64 + 32 (insert) + dimension (at most 31; line 0
   * if the op has no file location), b = the index, c = the size of that
   * dimension. */
  ATTIC_RT_TENSOR_INDEX = 8,
  /* tensor.extract_slice, tensor.insert_slice or
   * tensor.parallel_insert_slice in the function's own code whose slice of a
   * dimension reaches outside the tensor (a negative offset or size, a
   * stride below 1, or offset + (size - 1) * stride at or past the size):
   * a = line * 64 + 32 (an insert) + 16 (a parallel insert) + dimension (at
   * most 31 for an extract, 15 for an insert: a later one is reported as
   * that), b = the offset, c = the size of that dimension. */
  ATTIC_RT_SLICE_BOUNDS = 9,
  /* An integer division or remainder in the function's own code by zero,
   * or a signed one of the smallest integer by -1 (attic-guard-integer-
   * division): a = line * 64 + the op (0 divsi, 1 divui, 2 remsi, 3 remui,
   * 4 ceildivsi, 5 ceildivui, 6 floordivsi, then the index dialect's 7
   * divs, 8 divu, 9 rems, 10 remu, 11 ceildivs, 12 ceildivu, 13 floordivs;
   * line 0 if the op has no file location), b = the divisor (0 or -1),
   * c = the dividend. */
  ATTIC_RT_INT_DIVISION = 10,
  /* An scf.for or scf.parallel in the function's own code whose step is
   * below 1 (0 for an unsigned scf.for; attic-guard-loop-steps): the loop
   * runs no iteration. a = line * 64 + the loop dimension, b = the step,
   * c = 0. */
  ATTIC_RT_LOOP_STEP = 11,
  /* tensor.dim (or memref.dim) in the function's own code whose dimension
   * index, known only at run time, is outside [0, rank) (attic-guard-
   * tensor-indices): the result is 0. a = line * 64 (+ 1 for memref.dim;
   * line 0 if the op has no file location), b = the index, c = the rank. */
  ATTIC_RT_DIM_INDEX = 12,
  /* memref.load, memref.store or memref.atomic_rmw in the function's own
   * code (not in a modifier region or its outlined function) with an
   * index outside the memref (attic-guard-tensor-indices): a = line * 64 +
   * 32 (store, atomic_rmw) + 16 (atomic_rmw) + dimension (at most 15),
   * b = the index, c = the size of that dimension. The load reads 0, the
   * store and the atomic update write nothing (the update gives 0). */
  ATTIC_RT_MEMREF_INDEX = 13,
  /* An scf.for, scf.parallel or scf.forall in the function's own code
   * whose induction variable would wrap around its type before reaching
   * the upper bound (the compiled loop compares with the upper bound only,
   * so it went on from the smallest value; attic-guard-loop-steps): the
   * loop runs no iteration. a = line * 64 + the loop dimension (line 0 if
   * the op has no file location), b = the upper bound, c = the step. */
  ATTIC_RT_LOOP_WRAP = 14,
  /* tensor.cast or memref.cast in the function's own code to a static
   * size that the operand does not have at run time (or from an unranked
   * operand of another rank; upstream it is undefined, and the static size
   * was trusted: a returned cast of a 2-element slice to tensor<4xf32>
   * gave 2 elements of garbage, one of 1000 corrupted the heap;
   * attic-guard-tensor-indices): the cast gives a new tensor or buffer of
   * its type, its dynamic sizes 0, instead. A memref.cast's static strides
   * and offset are checked the same way. a = line * 64 + 32 (memref.cast)
   * + the field: the size of dimension d (d, at most 15), the stride of
   * dimension d (16 + d, at most 29), the offset (30) or the rank (31);
   * b = its value at run time, c = the type's. */
  ATTIC_RT_CAST_SIZE = 15,
  /* attic.tree_select: a valid candidate whose score is NaN (its logits,
   * scale * q . key in f32, overflowed, or an input is NaN), so that the
   * selected nodes J have no meaning: a = the sequence, b = the tree
   * level, c = the candidate (its place among the level's candidates). */
  ATTIC_RT_VCC_SCORES = 16,
  /* tensor.expand_shape in the function's own code whose operand's size
   * of a group is not the product of the group's output sizes at run time
   * (upstream it is undefined; attic-guard-tensor-indices): the op gives a
   * new tensor of its type, its dynamic sizes 0. a = line * 64 + the group
   * (at most 31), b = the operand's size, c = the product of the output
   * sizes (-1 where a size is negative or the product overflows).
   * tensor.reshape likewise: a = line * 64 + 32, b = the operand's
   * elements, c = the product of the shape (-1: a negative entry or an
   * overflow); or a = line * 64 + 40 + d (d at most 15) where entry d of
   * the shape is not the result type's static size: b = the entry, c =
   * the type's size. A tensor.expand_shape's output size operand in a
   * dimension its result type makes static: a = line * 64 + 56 + d (d at
   * most 7: 7 stands for 7 and later), b = the operand, c = the type's
   * size. A tensor.expand_shape of a rank-0 operand whose output sizes
   * do not multiply to 1: a = line * 64 + 33, b = 1, c = their product
   * (-1 as above). */
  ATTIC_RT_RESHAPE_SIZE = 17,
  /* A tensor.empty, tensor.splat, tensor.generate, memref.alloc or
   * bufferization.alloc_tensor in the function's own code whose sizes from the
   * data are negative or take 2^63 bytes or more (the byte count wrapped, and a
   * small buffer was written past; attic-guard-tensor-indices): the sizes
   * become 0. a = line * 64 + the op (0 tensor.empty, 1 tensor.splat, 2
   * tensor.generate, 3 memref.alloc, 4 bufferization.alloc_tensor), b = the
   * first negative size's dimension (-1: none, the byte count overflows), c =
   * that size. A tensor.pad with a negative padding from the data likewise
   * (the padding becomes 0): a = line * 64 + 5 (low) or 6 (high), b = the
   * dimension, c = the padding; or whose padded size is not the result
   * type's static size (the op gives a new tensor of its type): a = line *
   * 64 + 7, b = the dimension, c = the padded size. */
  ATTIC_RT_ALLOC_SIZE = 18,
  /* attic.attention or attic.block_attention whose operands' sizes from
   * the data do not agree (the verifier compares static sizes; the tile
   * loop compares the others): nothing is computed. a = line * 64 +
   * operand * 8 + dimension, the operand 1 key, 2 value, 3 key_bias
   * [B,Nk], 4 key_bias [B,Hq,Nk], 5 key_mask, 6 the result (init), 7 lse;
   * b = its size, c = the size the query (B, Hq, Nq, D), the key (Hkv, Nk)
   * or the value (Dv) implies. a = line * 64 + 63: b = Hq, c = Hkv, and
   * Hkv is 0 or does not divide Hq. */
  ATTIC_RT_OPERAND_SHAPE = 19
} attic_rt_error_code;

/* Records an error (code and up to three integer details). Thread-safe; of
 * the reports since the last attic_rt_take_error, the least in the order
 * (code, a, b, c) is kept (a block-list row `a` ordered by its row in either
 * form; ATTIC_RT_SLICE_BOUNDS, _CAST_SIZE, _RESHAPE_SIZE and _ALLOC_SIZE
 * before every other code, since the accesses to the tensors that replace those
 * ops report too), so the message does not depend on which thread reported
 * first, and the number of reports is counted. Unknown codes are recorded
 * as such. Details from integers wider than 64 bits (i128 and up) arrive
 * saturated into int64's range. */
void attic_rt_report_error(int32_t code, int64_t a, int64_t b, int64_t c);

/* If compiled code reported an error since the last call: writes its
 * one-line message (plus how many more reports followed) to err, clears the
 * record and returns ATTIC_ERROR. Otherwise returns ATTIC_OK. */
attic_status attic_rt_take_error(char *err, size_t errLen);

/* Gives the calling thread a 64 KiB alternate signal stack if it has none
 * (once per thread), so that a crash handler installed with SA_ONSTACK
 * also runs when the thread's own stack overflowed. */
void attic_rt_ensure_signal_stack(void);

/* The same for the calling thread and every thread of the OpenMP team
 * (libomp, found at run time; libomp keeps the team's threads between
 * regions): one empty parallel region, once per team size. For a tool's
 * crash handler before compiled parallel loops run (attic-run,
 * attic-aot-run). */
void attic_rt_prepare_signal_stacks(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* ATTIC_RUNTIME_RUNTIME_H */
