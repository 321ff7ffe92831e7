//===- SliceOps.cpp - composite slice attention -----------------*- C++ -*-===//
//
// The verifier of attic.slice_attention (dialects/AtticSliceOps.td). The op
// class is generated into AtticOps.cpp.inc, which AtticOps.cpp includes.
//
//===----------------------------------------------------------------------===//

#include "attic/Dialect/Attic/AtticDialect.h"

#include "ShapeChecks.h"

using namespace mlir;
using namespace attic;
using attic::detail::checkShape;

LogicalResult SliceAttentionOp::verify() {
  RankedTensorType input = getInput().getType();
  if (input.getRank() != 3)
    return emitOpError("input must be [B,N,D], got rank ") << input.getRank();
  int64_t batch = input.getDimSize(0), tokens = input.getDimSize(1),
          dim = input.getDimSize(2);
  int64_t slice = getSlice(), alpha = getExtension(), heads = getHeads();
  if (slice < 1)
    return emitOpError("slice (L) must be >= 1, got ") << slice;
  if (alpha != 1 && alpha != 3)
    return emitOpError("extension (alpha) must be 1 or 3 (whole neighbouring "
                       "slices), got ")
           << alpha;
  if (heads < 1)
    return emitOpError("heads must be >= 1, got ") << heads;
  if (tokens < 1 || dim < 1 || batch < 1)
    return emitOpError("input [B,N,D] = ")
           << detail::formatShape(input.getShape())
           << " must have positive sizes";
  // The windows of every slice are materialized, alpha times the input:
  // at 3 * 2^62 rows their size wrapped inside attic-expand-cst (a
  // 2026-11-30 audit). The cap of the attention ops' operands.
  if (detail::elementsAbove({alpha, batch, tokens, dim}))
    return emitOpError("input [B,N,D] = ")
           << detail::formatShape(input.getShape()) << " with extension "
           << alpha
           << " gives windows of alpha * B * N * D elements, more than 2^40 = "
           << detail::kMaxStaticElements;
  // The padded length without tokens + slice - 1, which overflowed for a
  // slice near 2^63 (N is below the cap, so the product fits).
  if (tokens % slice != 0)
    return emitOpError("input length N = ")
           << tokens << " is not a multiple of the slice length L = " << slice
           << " (pad the sequence to " << (tokens / slice + 1) * slice
           << " tokens and mask the padding with `mask`)";
  if (dim % heads != 0)
    return emitOpError("model width D = ")
           << dim << " is not a multiple of heads = " << heads;
  for (auto [name, weight] : {std::pair<const char *, Value>{"wq", getWq()},
                              {"wk", getWk()},
                              {"wv", getWv()}})
    if (failed(checkShape(*this, name, cast<ShapedType>(weight.getType()),
                          {{dim, "D", "input"}, {dim, "D", "input"}})))
      return failure();
  int64_t window = getWindow();
  if (failed(checkShape(*this, "pos_local", getPosLocal().getType(),
                        {{window, getCausal() ? "(alpha+1)L/2" : "alpha*L",
                          "slice and extension"},
                         {dim, "D", "input"}})))
    return failure();
  if (failed(checkShape(
          *this, "pos_global", getPosGlobal().getType(),
          {{tokens / slice, "N/L", "input and slice"}, {dim, "D", "input"}})))
    return failure();
  if (getMask() &&
      failed(checkShape(*this, "mask", getMask().getType(),
                        {{batch, "B", "input"}, {tokens, "N", "input"}})))
    return failure();
  return checkShape(
      *this, "result", getResult().getType(),
      {{batch, "B", "input"}, {tokens, "N", "input"}, {dim, "D", "input"}});
}
