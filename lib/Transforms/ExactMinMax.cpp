//===- ExactMinMax.cpp - maximumf / minimumf with signed zeros -*- C++ -*-===//
//
// `arith.maximumf` and `arith.minimumf` order -0.0 below +0.0 and give NaN
// where either operand is NaN. Upstream's arith-expand (MLIR 22) lowers
// them to `select(cmpf ugt a b, a, b)` and a NaN test of b, which gives b
// where a and b compare equal: maximumf(+0, -0) was -0. Here, where they
// compare equal, the result is the bitwise and (maximum) or or (minimum) of
// the two: +0 and -0 give +0 (-0), and equal values other than zeros have
// equal bits. The ops this pass makes are ones arith-expand leaves alone.
//
//===----------------------------------------------------------------------===//

#include "attic/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <type_traits>

namespace attic {
#define GEN_PASS_DEF_ATTICEXACTMINMAX
#include "AtticPasses.h.inc"
} // namespace attic

using namespace mlir;

namespace {
/// maximumf / minimumf -> compare, select, and the bits of the operands
/// where they compare equal.
template <typename Op> struct ExactMinMax : OpRewritePattern<Op> {
  using OpRewritePattern<Op>::OpRewritePattern;
  LogicalResult matchAndRewrite(Op op,
                                PatternRewriter &rewriter) const override {
    constexpr bool isMax = std::is_same_v<Op, arith::MaximumFOp>;
    arith::FastMathFlags flags = op.getFastmath();
    // Signed zeros may be ignored: arith-expand's lowering is correct.
    if (arith::bitEnumContainsAny(flags, arith::FastMathFlags::nsz))
      return failure();
    Type type = op.getType();
    auto floatType = dyn_cast<FloatType>(getElementTypeOrSelf(type));
    if (!floatType)
      return failure();
    Type intElement = rewriter.getIntegerType(floatType.getWidth());
    Type intType = intElement;
    if (auto shaped = dyn_cast<ShapedType>(type))
      intType = shaped.clone(intElement);
    Location loc = op.getLoc();
    Value a = op.getLhs(), b = op.getRhs();
    Value ordered = arith::CmpFOp::create(
        rewriter, loc,
        isMax ? arith::CmpFPredicate::UGT : arith::CmpFPredicate::ULT, a, b);
    Value selected = arith::SelectOp::create(rewriter, loc, ordered, a, b);
    Value equal =
        arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::OEQ, a, b);
    Value aBits = arith::BitcastOp::create(rewriter, loc, intType, a);
    Value bBits = arith::BitcastOp::create(rewriter, loc, intType, b);
    Value bits = isMax
                     ? Value(arith::AndIOp::create(rewriter, loc, aBits, bBits))
                     : Value(arith::OrIOp::create(rewriter, loc, aBits, bBits));
    Value zeros = arith::BitcastOp::create(rewriter, loc, type, bits);
    Value result =
        arith::SelectOp::create(rewriter, loc, equal, zeros, selected);
    // ugt / ult are true where a is NaN, which gave a; b NaN gives b.
    Value bIsNaN =
        arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::UNO, b, b);
    rewriter.replaceOpWithNewOp<arith::SelectOp>(op, bIsNaN, b, result);
    return success();
  }
};

struct AtticExactMinMaxPass
    : public attic::impl::AtticExactMinMaxBase<AtticExactMinMaxPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns
        .add<ExactMinMax<arith::MaximumFOp>, ExactMinMax<arith::MinimumFOp>>(
            &getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
