//===- NanMax.h - A maximum that keeps NaN, for the references --*- C++ -*-===//
//
// Internal to lib/Reference. std::max(a, b) returns a when b is NaN, so a
// softmax whose visible logits are all NaN kept the -inf it started from
// and read as a row without a visible key: 0 where the NaN policy
// (docs/layouts.md) and the compiled code give NaN, and `--check` failed
// on correct output (a 2026-11-30 audit: a NaN query row through
// attic.clustered_attention and attic.lsh_attention).
//
//===----------------------------------------------------------------------===//

#ifndef ATTIC_LIB_REFERENCE_NANMAX_H
#define ATTIC_LIB_REFERENCE_NANMAX_H

#include <limits>

namespace attic::ref {

/// The larger of `a` and `b`; NaN when either is NaN, so a running maximum
/// that has met a NaN stays NaN.
inline double maxKeepingNaN(double a, double b) {
  if (a != a || b != b)
    return std::numeric_limits<double>::quiet_NaN();
  return a < b ? b : a;
}

} // namespace attic::ref

#endif // ATTIC_LIB_REFERENCE_NANMAX_H
