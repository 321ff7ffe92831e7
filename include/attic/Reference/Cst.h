//===- Cst.h - reference semantics of composite slice attention -*- C++ -*-===//
//
// Composite slice attention (attic.slice_attention; ../shared/papers/cst.md
// sections 3, 4 and 6) computed the plain way in double precision, with no
// MLIR and no code shared with attic's lowering: slices and their extended
// windows are formed explicitly (cst.md Eq. 11/12) and every window token
// is projected with its positional embedding as in Eq. 14/15, where the
// compiler projects tokens once and adds projected embeddings (linearity).
//
// Conventions: row-major arrays; x is [B,N,D], the weights [D,D] (applied
// as x W), pos_local [W,D] with W = alpha L (bidirectional) or
// (alpha + 1) L / 2 (causal), pos_global [N/L,D], mask [B,N] (empty: every
// token is real). The result is [B,N,D].
//
//===----------------------------------------------------------------------===//

#ifndef ATTIC_REFERENCE_CST_H
#define ATTIC_REFERENCE_CST_H

#include <cstdint>
#include <vector>

namespace attic::ref::cst {

struct Options {
  int64_t batch = 1, tokens = 0, dim = 0;
  int64_t slice = 1, extension = 1, heads = 1;
  bool causal = false;
};

/// Throws std::invalid_argument naming the argument when a size is wrong
/// (N not a multiple of L, alpha not 1 or 3, D not a multiple of heads,
/// arrays of the wrong length).
std::vector<double> sliceAttention(
    const Options &options, const std::vector<double> &x,
    const std::vector<double> &wq, const std::vector<double> &wk,
    const std::vector<double> &wv, const std::vector<double> &posLocal,
    const std::vector<double> &posGlobal, const std::vector<bool> &mask);

} // namespace attic::ref::cst

#endif // ATTIC_REFERENCE_CST_H
