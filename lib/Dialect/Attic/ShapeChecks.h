//===- ShapeChecks.h - shape checks shared by attic verifiers ---*- C++ -*-===//
//
// Private to lib/Dialect/Attic: the operand-shape checks whose messages name
// the operand, its shape and the expected shape, e.g.
//   key has shape 1x2x8x4 but [B,H,Nk,D] = 1x2x8x32 is expected: dim 3 (D)
//   is 4, query has 32
//
//===----------------------------------------------------------------------===//

#ifndef ATTIC_LIB_DIALECT_ATTIC_SHAPECHECKS_H
#define ATTIC_LIB_DIALECT_ATTIC_SHAPECHECKS_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include "llvm/ADT/APFloat.h"

#include <cstdint>
#include <optional>
#include <string>

namespace attic::detail {

/// One expected dimension: its size (ShapedType::kDynamic when unknown), a
/// short name for messages ("B", "H", "Nk", ...) and where it comes from.
struct ExpectedDim {
  int64_t size;
  const char *symbol;
  const char *source;
};

/// "1x?x8": sizes joined by 'x', '?' for dynamic ones.
std::string formatShape(llvm::ArrayRef<int64_t> shape);

/// Checks that `type` (the operand or result called `name`) has the
/// expected rank and dims. Dynamic sizes on either side are compatible with
/// anything.
mlir::LogicalResult checkShape(mlir::Operation *op, llvm::StringRef name,
                               mlir::ShapedType type,
                               llvm::ArrayRef<ExpectedDim> expected);

/// The most elements a static operand of the method ops may have (4 TiB of
/// f32): their decompositions build tensors a small multiple of that size,
/// far from int64 overflow.
constexpr int64_t kMaxStaticElements = int64_t(1) << 40;

/// Whether the product of `sizes` (each >= 0) is above `limit`, without
/// overflow (a 0 size makes it 0).
bool elementsAbove(llvm::ArrayRef<int64_t> sizes,
                   int64_t limit = kMaxStaticElements);

/// `type` (the operand called `name`, described as `dims`, e.g.
/// "[B,H,Nq,D]") must have rank `rank`, positive static sizes and at most
/// 2^40 elements.
mlir::LogicalResult checkPositiveShape(mlir::Operation *op,
                                       llvm::StringRef name,
                                       mlir::ShapedType type, int64_t rank,
                                       llvm::StringRef dims);

/// The operands of an attention without grouped heads: `query [B,H,Nq,D]`,
/// `key [B,H,Nk,D]`, `value [B,H,Nk,Dv]`, the result `[B,H,Nq,Dv]` and,
/// when given, `mask [B,Nk]`; every size positive.
mlir::LogicalResult
checkAttentionShapes(mlir::Operation *op, mlir::ShapedType query,
                     mlir::ShapedType key, mlir::ShapedType value,
                     mlir::ShapedType result, mlir::ShapedType mask);

/// The default scale 1/sqrt(D) of a query `[B,H,N,D]` with a static D,
/// rounded once to f32 (as attic.attention's).
float defaultScale(mlir::ShapedType query);

/// An explicit `scale` (when given) must be finite and positive, and at
/// most verifyScaleMagnitude's bound.
mlir::LogicalResult verifyPositiveScale(mlir::Operation *op,
                                        std::optional<llvm::APFloat> scale);

/// |scale| at most FLT_MAX / log2(e) (about 2.3587e38): the kernels keep
/// their logits in base 2 and multiply the scale by log2(e) in f32, which
/// was inf above it, and every result NaN although every logit was small
/// (a 2026-11-30 audit). Every op with a `scale` checks it.
mlir::LogicalResult verifyScaleMagnitude(mlir::Operation *op, float scale);

} // namespace attic::detail

#endif // ATTIC_LIB_DIALECT_ATTIC_SHAPECHECKS_H
