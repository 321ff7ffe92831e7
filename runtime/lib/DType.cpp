//===- DType.cpp - Element type properties --------------------------------===//

#include "attic/runtime/Runtime.h"

#include <cstring>

namespace {
struct DTypeInfo {
  attic_dtype dtype;
  const char *name;
  size_t size;
};
} // namespace

static const DTypeInfo kDTypes[] = {
    {ATTIC_F32, "f32", 4}, {ATTIC_F16, "f16", 2}, {ATTIC_BF16, "bf16", 2},
    {ATTIC_F64, "f64", 8}, {ATTIC_I1, "i1", 1},   {ATTIC_I8, "i8", 1},
    {ATTIC_I32, "i32", 4}, {ATTIC_I64, "i64", 8},
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
