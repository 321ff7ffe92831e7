//===- Error.h - Error reporting for the runtime's C API --------*- C++ -*-===//
//
// Internal helper shared by the runtime's implementation files.
//
//===----------------------------------------------------------------------===//

#ifndef ATTIC_RUNTIME_LIB_ERROR_H
#define ATTIC_RUNTIME_LIB_ERROR_H

#include "attic/runtime/Runtime.h"

namespace attic::runtime {

/// Formats a one-line message into err (if non-NULL, truncated to errLen) and
/// returns ATTIC_ERROR, so that callers can `return fail(...)`.
attic_status fail(char *err, size_t errLen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/// Enough for "AxBx..." of ATTIC_MAX_RANK sizes (20 characters each).
constexpr size_t kSizesLength = ATTIC_MAX_RANK * 21 + 1;

/// Writes a tensor's sizes as "AxBxC" ("" for rank 0) into buf.
void formatSizes(const attic_tensor *t, char *buf, size_t len);

} // namespace attic::runtime

#endif // ATTIC_RUNTIME_LIB_ERROR_H
