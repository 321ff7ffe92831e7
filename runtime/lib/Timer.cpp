//===- Timer.cpp - Monotonic clock and median -----------------------------===//

#include "attic/runtime/Runtime.h"

#include <algorithm>
#include <cmath>
#include <ctime>
#ifdef __GLIBC__
#include <malloc.h>
#endif

extern "C" uint64_t attic_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull +
         static_cast<uint64_t>(ts.tv_nsec);
}

extern "C" double attic_median(double *values, size_t n) {
  if (!values || n == 0)
    return NAN;
  // NaNs sort last: a plain `<` is not a strict weak order with NaNs, and
  // std::sort may then read out of bounds.
  std::sort(values, values + n, [](double a, double b) {
    if (std::isnan(a))
      return false;
    return std::isnan(b) || a < b;
  });
  if (n % 2 == 1)
    return values[n / 2];
  return values[n / 2 - 1] / 2 + values[n / 2] / 2;
}

extern "C" void attic_retain_heap(void) {
#ifdef __GLIBC__
  mallopt(M_MMAP_THRESHOLD, 1 << 30);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
#endif
}
