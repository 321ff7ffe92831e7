//===- Tensor.cpp - Tensor storage and element access ---------------------===//

#include "Error.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>

using namespace attic::runtime;

static constexpr size_t kAlignment = 64;

extern "C" int64_t attic_tensor_numel(const attic_tensor *t) {
  if (!t || t->rank < 0 || t->rank > ATTIC_MAX_RANK)
    return 0;
  // In unsigned arithmetic: a shape built by hand can overflow int64 (signed
  // overflow is undefined; the product wrapped to a small count that a
  // storage check then accepted).
  uint64_t numel = 1;
  bool negative = false, overflow = false, empty = false;
  for (int32_t i = 0; i < t->rank; ++i) {
    negative |= t->shape[i] < 0;
    empty |= t->shape[i] == 0;
    overflow |= __builtin_mul_overflow(
        numel, static_cast<uint64_t>(t->shape[i]), &numel);
  }
  if (negative)
    return -1;
  if (empty)
    return 0;
  if (overflow || numel > static_cast<uint64_t>(INT64_MAX))
    return -1;
  return static_cast<int64_t>(numel);
}

void attic::runtime::formatSizes(const attic_tensor *t, char *buf, size_t len) {
  size_t used = 0;
  buf[0] = '\0';
  for (int32_t i = 0; i < t->rank && used < len; ++i) {
    int n = std::snprintf(buf + used, len - used, i == 0 ? "%lld" : "x%lld",
                          static_cast<long long>(t->shape[i]));
    if (n < 0)
      return;
    used += static_cast<size_t>(n);
  }
}

extern "C" attic_status attic_tensor_check(const attic_tensor *t,
                                           const char *what, char *err,
                                           size_t errLen) {
  if (!what)
    what = "tensor";
  if (!t)
    return fail(err, errLen, "%s is NULL", what);
  size_t elemSize = attic_dtype_size(t->dtype);
  if (elemSize == 0)
    return fail(err, errLen, "%s has an invalid dtype %d", what,
                static_cast<int>(t->dtype));
  if (t->rank < 0 || t->rank > ATTIC_MAX_RANK)
    return fail(err, errLen, "%s has rank %d, not in [0, %d]", what,
                static_cast<int>(t->rank), ATTIC_MAX_RANK);
  char sizes[kSizesLength];
  formatSizes(t, sizes, sizeof(sizes));
  // The product of the non-zero sizes bounds every stride, as in
  // attic_tensor_alloc: a zero size does not excuse huge others.
  bool empty = false, huge = false;
  uint64_t need = elemSize;
  for (int32_t i = 0; i < t->rank; ++i) {
    if (t->shape[i] < 0)
      return fail(err, errLen, "%s has a negative size: %s", what, sizes);
    if (t->shape[i] == 0)
      empty = true;
    else
      huge |= __builtin_mul_overflow(need, static_cast<uint64_t>(t->shape[i]),
                                     &need);
  }
  if (huge || need > static_cast<uint64_t>(INT64_MAX))
    return fail(err, errLen, "%s has a shape of 2^63 bytes or more: %s", what,
                sizes);
  if (empty)
    return ATTIC_OK; // no elements: no storage needed
  if (!t->data)
    return fail(err, errLen, "%s has no storage", what);
  if (t->nbytes < need)
    return fail(err, errLen, "%s holds %zu bytes but its shape needs %zu", what,
                t->nbytes, static_cast<size_t>(need));
  return ATTIC_OK;
}

extern "C" attic_status attic_tensor_alloc(attic_tensor *t, attic_dtype dtype,
                                           int32_t rank, const int64_t *shape,
                                           char *err, size_t errLen) {
  if (!t)
    return fail(err, errLen, "attic_tensor_alloc: tensor is NULL");
  std::memset(t, 0, sizeof(*t));
  size_t elemSize = attic_dtype_size(dtype);
  if (elemSize == 0)
    return fail(err, errLen, "attic_tensor_alloc: invalid dtype %d",
                static_cast<int>(dtype));
  if (rank < 0 || rank > ATTIC_MAX_RANK)
    return fail(err, errLen, "attic_tensor_alloc: rank %d is not in [0, %d]",
                static_cast<int>(rank), ATTIC_MAX_RANK);
  if (rank > 0 && !shape)
    return fail(err, errLen, "attic_tensor_alloc: shape is NULL");

  // Bound the product of the non-zero dims (in bytes): it bounds every
  // product of some of the dims, so neither attic_tensor_numel nor any
  // stride (a product of trailing dims) can overflow, even in a tensor
  // with a zero dim and huge others (which NumPy would refuse to load
  // too). The limit leaves room to round up to the alignment.
  const size_t maxBytes =
      static_cast<size_t>(std::numeric_limits<int64_t>::max()) - kAlignment;
  size_t nonzeroBytes = elemSize;
  bool empty = false;
  for (int32_t i = 0; i < rank; ++i) {
    if (shape[i] < 0)
      return fail(err, errLen,
                  "attic_tensor_alloc: dimension %d is negative (%lld)",
                  static_cast<int>(i), static_cast<long long>(shape[i]));
    size_t dim = static_cast<size_t>(shape[i]);
    if (dim == 0) {
      empty = true;
      continue;
    }
    if (nonzeroBytes > maxBytes / dim)
      return fail(err, errLen, "attic_tensor_alloc: tensor size overflows");
    nonzeroBytes *= dim;
  }
  size_t nbytes = empty ? 0 : nonzeroBytes;

  // aligned_alloc needs a size that is a multiple of the alignment; allocate
  // at least one block so that data is never NULL on success.
  size_t allocSize = (nbytes + kAlignment - 1) / kAlignment * kAlignment;
  if (allocSize == 0)
    allocSize = kAlignment;
  void *data = std::aligned_alloc(kAlignment, allocSize);
  if (!data)
    return fail(err, errLen,
                "attic_tensor_alloc: out of memory allocating %zu bytes",
                allocSize);
  std::memset(data, 0, allocSize);

  t->dtype = dtype;
  t->rank = rank;
  for (int32_t i = 0; i < rank; ++i)
    t->shape[i] = shape[i];
  t->data = data;
  t->nbytes = nbytes;
  return ATTIC_OK;
}

extern "C" void attic_tensor_free(attic_tensor *t) {
  if (!t)
    return;
  std::free(t->data);
  t->data = nullptr;
  t->nbytes = 0;
}

static bool validIndex(const attic_tensor *t, int64_t flatIndex) {
  if (!t || !t->data || flatIndex < 0)
    return false;
  size_t elemSize = attic_dtype_size(t->dtype);
  return elemSize != 0 &&
         static_cast<uint64_t>(flatIndex) < t->nbytes / elemSize;
}

template <typename T> static T load(const attic_tensor *t, int64_t index) {
  T value;
  std::memcpy(&value, static_cast<const char *>(t->data) + index * sizeof(T),
              sizeof(T));
  return value;
}

template <typename T>
static void store(attic_tensor *t, int64_t index, T value) {
  std::memcpy(static_cast<char *>(t->data) + index * sizeof(T), &value,
              sizeof(T));
}

extern "C" double attic_tensor_get(const attic_tensor *t, int64_t flatIndex) {
  if (!validIndex(t, flatIndex))
    return NAN;
  switch (t->dtype) {
  case ATTIC_F32:
    return load<float>(t, flatIndex);
  case ATTIC_F16:
    return attic_f16_to_f32(load<uint16_t>(t, flatIndex));
  case ATTIC_BF16:
    return attic_bf16_to_f32(load<uint16_t>(t, flatIndex));
  case ATTIC_F64:
    return load<double>(t, flatIndex);
  case ATTIC_I1:
    return load<uint8_t>(t, flatIndex) != 0 ? 1.0 : 0.0;
  case ATTIC_I8:
    return load<int8_t>(t, flatIndex);
  case ATTIC_I32:
    return load<int32_t>(t, flatIndex);
  case ATTIC_I64:
    return static_cast<double>(load<int64_t>(t, flatIndex));
  case ATTIC_DTYPE_RANGE_:
    break;
  }
  return NAN;
}

/// Truncates toward zero and saturates; converting an out-of-range double to
/// an integer directly is undefined behaviour.
template <typename T> static T saturate(double value) {
  if (std::isnan(value))
    return 0;
  // Both bounds are powers of two (or one less), so the comparisons against
  // their double images are exact where it matters.
  constexpr double minValue =
      static_cast<double>(std::numeric_limits<T>::min());
  constexpr double maxPlusOne =
      -static_cast<double>(std::numeric_limits<T>::min());
  if (value <= minValue)
    return std::numeric_limits<T>::min();
  if (value >= maxPlusOne)
    return std::numeric_limits<T>::max();
  return static_cast<T>(value);
}

extern "C" void attic_tensor_set(attic_tensor *t, int64_t flatIndex,
                                 double value) {
  if (!validIndex(t, flatIndex))
    return;
  switch (t->dtype) {
  case ATTIC_F32:
    store<float>(t, flatIndex, static_cast<float>(value));
    return;
  case ATTIC_F16:
    store<uint16_t>(t, flatIndex, attic_f64_to_f16(value));
    return;
  case ATTIC_BF16:
    store<uint16_t>(t, flatIndex, attic_f64_to_bf16(value));
    return;
  case ATTIC_F64:
    store<double>(t, flatIndex, value);
    return;
  case ATTIC_I1:
    store<uint8_t>(t, flatIndex, value != 0 ? 1 : 0);
    return;
  case ATTIC_I8:
    store<int8_t>(t, flatIndex, saturate<int8_t>(value));
    return;
  case ATTIC_I32:
    store<int32_t>(t, flatIndex, saturate<int32_t>(value));
    return;
  case ATTIC_I64:
    store<int64_t>(t, flatIndex, saturate<int64_t>(value));
    return;
  case ATTIC_DTYPE_RANGE_:
    break;
  }
}
