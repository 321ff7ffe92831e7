//===- Error.cpp - Error reporting for the runtime's C API ----------------===//

#include "Error.h"

#include <cstdarg>
#include <cstdio>

using namespace attic::runtime;

attic_status attic::runtime::fail(char *err, size_t errLen, const char *fmt,
                                  ...) {
  if (!err || errLen == 0)
    return ATTIC_ERROR;
  va_list args;
  va_start(args, fmt);
  int n = std::vsnprintf(err, errLen, fmt, args);
  va_end(args);
  if (n < 0) {
    err[0] = '\0';
    return ATTIC_ERROR;
  }
  // Messages are promised to be one line; a path may still hold a newline.
  for (char *c = err; *c; ++c)
    if (*c == '\n' || *c == '\r')
      *c = ' ';
  return ATTIC_ERROR;
}
