//===- NarrowingCasts.cpp - index casts upstream folds wrongly -*- C++ -*-===//
//
// MLIR 22's arith canonicalization folds index_cast(index_cast(x)) (and the
// index_castui pair) to x when the outer type is x's, also when the inner
// cast narrows: `index -> i8 -> index` became the identity, while the cast
// keeps the low 8 bits. A mask region `k -> i8 -> index >= 0` then
// showed keys 128..199 that wrap to negative values (and a table read at
// `sext(i8(k)) + 128` went out of bounds), on every target, where --check's
// reference followed the casts (an audit). normalizeNarrowingIndexCasts
// writes each narrowing cast as a cast to i64 and an arith.trunci, which
// no pattern folds away; attic calls it before its first canonicalization
// (specializeEntry, attic-guard-tensor-indices, as normalizeExpandShapes).
//
//===----------------------------------------------------------------------===//

#include "attic/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;

/// Whether `op` casts an index to an integer (or vector of integers)
/// narrower than 64 bits.
static bool narrowsIndex(Operation *op) {
  Type from = getElementTypeOrSelf(op->getOperand(0).getType());
  auto to = dyn_cast<IntegerType>(getElementTypeOrSelf(op->getResult(0)));
  return from.isIndex() && to && to.getWidth() < 64;
}

void attic::normalizeNarrowingIndexCasts(Operation *root) {
  SmallVector<Operation *> casts;
  root->walk([&](Operation *op) {
    if (isa<arith::IndexCastOp, arith::IndexCastUIOp>(op) && narrowsIndex(op))
      casts.push_back(op);
  });
  for (Operation *op : casts) {
    OpBuilder b(op);
    Type type = op->getResult(0).getType();
    Type wide = b.getI64Type();
    if (auto shaped = dyn_cast<ShapedType>(type))
      wide = shaped.clone(wide);
    Value in = op->getOperand(0);
    Value cast =
        isa<arith::IndexCastOp>(op)
            ? arith::IndexCastOp::create(b, op->getLoc(), wide, in).getResult()
            : arith::IndexCastUIOp::create(b, op->getLoc(), wide, in)
                  .getResult();
    Value narrow = arith::TruncIOp::create(b, op->getLoc(), type, cast);
    op->getResult(0).replaceAllUsesWith(narrow);
    op->erase();
  }
}
