//===- DType.cpp - Element type properties --------------------------------===//

#include "attic/runtime/Runtime.h"

#include <cstring>
#include <limits>

namespace {
struct DTypeInfo {
  attic_dtype dtype;
  const char *name;
  size_t size;
  double smallestNormal; // 0 for integers and i1
};
} // namespace

// bf16 has f32's exponent range.
static const DTypeInfo kDTypes[] = {
    {ATTIC_F32, "f32", 4, double(std::numeric_limits<float>::min())},
    {ATTIC_F16, "f16", 2, 0x1p-14},
    {ATTIC_BF16, "bf16", 2, double(std::numeric_limits<float>::min())},
    {ATTIC_F64, "f64", 8, std::numeric_limits<double>::min()},
    {ATTIC_I1, "i1", 1, 0.0},
    {ATTIC_I8, "i8", 1, 0.0},
    {ATTIC_I32, "i32", 4, 0.0},
    {ATTIC_I64, "i64", 8, 0.0},
};

static const DTypeInfo *lookup(attic_dtype dtype) {
  for (const DTypeInfo &info : kDTypes)
    if (info.dtype == dtype)
      return &info;
  return nullptr;
}

extern "C" size_t attic_dtype_size(attic_dtype dtype) {
  const DTypeInfo *info = lookup(dtype);
  return info ? info->size : 0;
}

extern "C" double attic_dtype_smallest_normal(attic_dtype dtype) {
  const DTypeInfo *info = lookup(dtype);
  return info ? info->smallestNormal : 0.0;
}

extern "C" const char *attic_dtype_name(attic_dtype dtype) {
  const DTypeInfo *info = lookup(dtype);
  return info ? info->name : "invalid";
}

extern "C" attic_status attic_dtype_from_name(const char *name,
                                              attic_dtype *dtype) {
  if (!name || !dtype)
    return ATTIC_ERROR;
  for (const DTypeInfo &info : kDTypes) {
    if (std::strcmp(info.name, name) == 0) {
      *dtype = info.dtype;
      return ATTIC_OK;
    }
  }
  return ATTIC_ERROR;
}
