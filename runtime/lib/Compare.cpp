//===- Compare.cpp - Element-wise tolerance comparison --------------------===//

#include "Error.h"

#include <cmath>
#include <cstdio>
#include <initializer_list>

using namespace attic::runtime;

/// Writes e.g. "[2x3]" ("[]" for rank 0) into buf.
static void formatShape(const attic_tensor *t, char *buf, size_t len) {
  char sizes[kSizesLength];
  formatSizes(t, sizes, sizeof(sizes));
  std::snprintf(buf, len, "[%s]", sizes);
}

static bool sameShape(const attic_tensor *a, const attic_tensor *b) {
  if (a->rank != b->rank)
    return false;
  for (int32_t i = 0; i < a->rank; ++i)
    if (a->shape[i] != b->shape[i])
      return false;
  return true;
}

/// numpy.allclose's test, plus NaN == NaN and equal infinities.
static bool isClose(double actual, double expected, double rtol,
                    double atol) {
  if (std::isnan(actual) || std::isnan(expected))
    return std::isnan(actual) && std::isnan(expected);
  if (std::isinf(actual) || std::isinf(expected))
    return actual == expected;
  return std::fabs(actual - expected) <= atol + rtol * std::fabs(expected);
}

extern "C" attic_status attic_tensor_allclose(const attic_tensor *actual,
                                              const attic_tensor *expected,
                                              double rtol, double atol,
                                              attic_compare_result *result,
                                              char *err, size_t errLen) {
  // Each tensor's storage must hold its shape: attic_tensor_get reads NaN
  // past it, and NaN matches NaN, so a freed tensor (data NULL, its shape
  // kept) matched another with ATTIC_OK (an audit).
  if (attic_tensor_check(actual, "attic_tensor_allclose: the actual tensor",
                         err, errLen) != ATTIC_OK ||
      attic_tensor_check(expected, "attic_tensor_allclose: the expected tensor",
                         err, errLen) != ATTIC_OK)
    return ATTIC_ERROR;
  if (!sameShape(actual, expected)) {
    char actualShape[160], expectedShape[160];
    formatShape(actual, actualShape, sizeof(actualShape));
    formatShape(expected, expectedShape, sizeof(expectedShape));
    return fail(err, errLen,
                "attic_tensor_allclose: shape mismatch: actual %s, expected %s",
                actualShape, expectedShape);
  }

  attic_compare_result r{0.0, 0.0, 0, -1};
  double firstActual = 0, firstExpected = 0;
  int64_t n = attic_tensor_numel(actual);
  for (int64_t i = 0; i < n; ++i) {
    double a = attic_tensor_get(actual, i);
    double e = attic_tensor_get(expected, i);
    if (std::isfinite(a) && std::isfinite(e)) {
      double diff = std::fabs(a - e);
      r.maxAbsErr = std::fmax(r.maxAbsErr, diff);
      if (e != 0)
        r.maxRelErr = std::fmax(r.maxRelErr, diff / std::fabs(e));
    }
    if (isClose(a, e, rtol, atol))
      continue;
    if (r.numMismatches++ == 0) {
      r.firstMismatch = i;
      firstActual = a;
      firstExpected = e;
    }
  }
  if (result)
    *result = r;
  if (r.numMismatches == 0)
    return ATTIC_OK;
  return fail(err, errLen,
              "attic_tensor_allclose: %lld of %lld elements differ "
              "(rtol=%g, atol=%g); first at flat index %lld: actual %.9g, "
              "expected %.9g; max abs error %.9g",
              static_cast<long long>(r.numMismatches),
              static_cast<long long>(n), rtol, atol,
              static_cast<long long>(r.firstMismatch), firstActual,
              firstExpected, r.maxAbsErr);
}
