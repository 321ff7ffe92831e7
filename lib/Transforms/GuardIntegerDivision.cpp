//===- GuardIntegerDivision.cpp - no trapping integer division -----------===//
//
// An integer division or remainder by zero, and a signed one of the
// smallest integer by -1, are undefined behaviour upstream; compiled for
// x86 they trap (SIGFPE), so a divisor from the data stopped attic-run with
// an internal error. This pass makes every such op of the function's own
// code (arith's and the index dialect's, and affine.apply's divisions by a
// symbol, expanded) divide by 1 there, gives 0, and reports the op's line to
// the runtime (ATTIC_RT_INT_DIVISION), which fails the run with one line. See
// AtticPasses.td.
//
//===----------------------------------------------------------------------===//

#include "attic/Dialect/Attic/AtticDialect.h"
#include "attic/Transforms/Passes.h"
#include "attic/Transforms/RuntimeCalls.h"
#include "attic/runtime/Runtime.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Index/IR/IndexOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/TypeSwitch.h"

namespace attic {
#define GEN_PASS_DEF_ATTICGUARDINTEGERDIVISION
#define GEN_PASS_DEF_ATTICGUARDLOOPSTEPS
#include "AtticPasses.h.inc"
} // namespace attic

using namespace mlir;

namespace {

/// Marks the divisions this pass has guarded, so that a second run leaves
/// them alone.
constexpr llvm::StringLiteral kGuarded = "attic.divisor_checked";

/// The guarded ops, in the order of the runtime's message table
/// (runtime/lib/Report.cpp): the index is reported as the op's kind.
int kindOf(Operation *op) {
  return llvm::TypeSwitch<Operation *, int>(op)
      .Case<arith::DivSIOp>([](auto) { return 0; })
      .Case<arith::DivUIOp>([](auto) { return 1; })
      .Case<arith::RemSIOp>([](auto) { return 2; })
      .Case<arith::RemUIOp>([](auto) { return 3; })
      .Case<arith::CeilDivSIOp>([](auto) { return 4; })
      .Case<arith::CeilDivUIOp>([](auto) { return 5; })
      .Case<arith::FloorDivSIOp>([](auto) { return 6; })
      .Case<index::DivSOp>([](auto) { return 7; })
      .Case<index::DivUOp>([](auto) { return 8; })
      .Case<index::RemSOp>([](auto) { return 9; })
      .Case<index::RemUOp>([](auto) { return 10; })
      .Case<index::CeilDivSOp>([](auto) { return 11; })
      .Case<index::CeilDivUOp>([](auto) { return 12; })
      .Case<index::FloorDivSOp>([](auto) { return 13; })
      .Default([](auto) { return -1; });
}

/// Whether the op divides signed (and so can overflow: MIN / -1).
bool isSigned(Operation *op) {
  return isa<arith::DivSIOp, arith::RemSIOp, arith::CeilDivSIOp,
             arith::FloorDivSIOp, index::DivSOp, index::RemSOp,
             index::CeilDivSOp, index::FloorDivSOp>(op);
}

/// Whether an affine map divides by something other than a constant
/// (a semi-affine floordiv, ceildiv or mod by a symbol).
bool dividesByVariable(AffineMap map) {
  bool found = false;
  for (AffineExpr result : map.getResults())
    result.walk([&](AffineExpr e) {
      if (auto binary = dyn_cast<AffineBinaryOpExpr>(e))
        if ((e.getKind() == AffineExprKind::FloorDiv ||
             e.getKind() == AffineExprKind::CeilDiv ||
             e.getKind() == AffineExprKind::Mod) &&
            !isa<AffineConstantExpr>(binary.getRHS()))
          found = true;
    });
  return found;
}

/// Whether the division can never trap: a constant divisor (a splat for
/// vectors) other than 0, and other than -1 where it is signed.
bool cannotTrap(Operation *op) {
  APInt divisor;
  if (!matchPattern(op->getOperand(1), m_ConstantInt(&divisor)))
    return false;
  return !divisor.isZero() && !(isSigned(op) && divisor.isAllOnes());
}

/// A constant of the op's (scalar or vector) integer type.
Value constantOf(OpBuilder &b, Location loc, Type type, const APInt &value) {
  if (auto vector = dyn_cast<VectorType>(type))
    return arith::ConstantOp::create(b, loc,
                                     DenseElementsAttr::get(vector, value));
  return arith::ConstantOp::create(b, loc, IntegerAttr::get(type, value));
}

struct AtticGuardIntegerDivisionPass
    : public attic::impl::AtticGuardIntegerDivisionBase<
          AtticGuardIntegerDivisionPass> {
  void runOnOperation() override {
    // Divisions of whole tensors become linalg.generic ops first (as the
    // pipelines' convert-elementwise-to-linalg would do later), so that
    // their scalar divisions are guarded like the others.
    SmallVector<Operation *> tensorOps;
    getOperation().walk([&](Operation *op) {
      if (kindOf(op) >= 0 && isa<RankedTensorType>(op->getResultTypes()[0]) &&
          !attic::insideAtticOp(op) && !cannotTrap(op))
        tensorOps.push_back(op);
    });
    if (!tensorOps.empty()) {
      RewritePatternSet patterns(&getContext());
      linalg::populateElementwiseToLinalgConversionPatterns(patterns);
      GreedyRewriteConfig config;
      config.setStrictness(GreedyRewriteStrictness::ExistingOps);
      if (failed(
              applyOpPatternsGreedily(tensorOps, std::move(patterns), config)))
        return signalPassFailure();
    }

    // affine.apply dividing by a symbol: expanded into arith ops (as
    // lower-affine would), whose divisions are guarded below.
    SmallVector<affine::AffineApplyOp> applies;
    getOperation().walk([&](affine::AffineApplyOp apply) {
      if (!attic::insideAtticOp(apply) &&
          dividesByVariable(apply.getAffineMap()))
        applies.push_back(apply);
    });
    for (affine::AffineApplyOp apply : applies) {
      OpBuilder b(apply);
      std::optional<SmallVector<Value, 8>> expanded = affine::expandAffineMap(
          b, apply.getLoc(), apply.getAffineMap(), apply.getOperands());
      if (!expanded) {
        apply.emitOpError("could not be expanded to check its divisors");
        return signalPassFailure();
      }
      apply.getResult().replaceAllUsesWith((*expanded)[0]);
      apply.erase();
    }

    SmallVector<Operation *> divisions;
    bool unranked = false;
    getOperation().walk([&](Operation *op) {
      if (kindOf(op) < 0 || op->hasAttr(kGuarded) || attic::insideAtticOp(op) ||
          cannotTrap(op))
        return;
      Type type = op->getResultTypes()[0];
      if (auto vector = dyn_cast<VectorType>(type);
          vector && vector.isScalable() && vector.getRank() != 1) {
        op->emitOpError("on a scalable vector of rank other than 1 cannot be "
                        "checked for a division by zero");
        unranked = true;
        return;
      }
      if (isa<TensorType>(type)) {
        op->emitOpError(isa<RankedTensorType>(type)
                            ? "on tensors could not be rewritten to a "
                              "linalg.generic to check its divisors"
                            : "on a tensor that is not ranked cannot be "
                              "checked for a division by zero");
        unranked = true;
        return;
      }
      divisions.push_back(op);
    });
    if (unranked)
      return signalPassFailure();
    if (divisions.empty())
      return;
    FailureOr<func::FuncOp> report = attic::declareReportError(divisions[0]);
    if (failed(report))
      return signalPassFailure();
    for (Operation *op : divisions)
      guard(op, *report);
  }

  /// Makes `op` divide by 1 where its divisor is 0 (or, signed, where it
  /// divides the smallest integer by -1), gives 0 there, and reports it:
  /// ATTIC_RT_INT_DIVISION with a = line * 64 + kind, b = the divisor
  /// (0 or -1) and c = the dividend (for a vector, b = 0 where a lane
  /// divides by zero, else -1, and c = the smallest integer).
  static void guard(Operation *op, func::FuncOp report) {
    Location loc = op->getLoc();
    OpBuilder b(op);
    Value lhs = op->getOperand(0), rhs = op->getOperand(1);
    Type type = rhs.getType();
    auto vector = dyn_cast<VectorType>(type);
    unsigned width = getElementTypeOrSelf(type).isIndex()
                         ? 64
                         : getElementTypeOrSelf(type).getIntOrFloatBitWidth();
    auto cmpEq = [&](Value l, Value r) -> Value {
      return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, l, r);
    };
    Value zero = constantOf(b, loc, type, APInt(width, 0));
    Value isZero = cmpEq(rhs, zero);
    Value bad = isZero;
    if (isSigned(op)) {
      Value overflow = arith::AndIOp::create(
          b, loc,
          cmpEq(lhs, constantOf(b, loc, type, APInt::getSignedMinValue(width))),
          cmpEq(rhs, constantOf(b, loc, type, APInt::getAllOnes(width))));
      bad = arith::OrIOp::create(b, loc, isZero, overflow);
    }
    Value one = constantOf(b, loc, type, APInt(width, 1));
    op->setOperand(1, arith::SelectOp::create(b, loc, bad, one, rhs));
    op->setAttr(kGuarded, b.getUnitAttr());

    // The report, before the op (whether or not its result is used).
    Value anyBad = bad, divisor = rhs, dividend = lhs;
    if (vector) {
      // vector.reduction takes 1-D vectors: others are flattened first.
      auto anyOf = [&](Value lanes) -> Value {
        if (vector.getRank() != 1)
          lanes = vector::ShapeCastOp::create(
              b, loc, VectorType::get({vector.getNumElements()}, b.getI1Type()),
              lanes);
        return vector::ReductionOp::create(b, loc, vector::CombiningKind::OR,
                                           lanes);
      };
      anyBad = anyOf(bad);
      Value anyZero = anyOf(isZero);
      Type i64 = b.getI64Type();
      divisor = arith::SelectOp::create(
          b, loc, anyZero, arith::ConstantIntOp::create(b, loc, i64, 0),
          arith::ConstantIntOp::create(b, loc, i64, -1));
      dividend = arith::ConstantIntOp::create(
          b, loc, i64,
          // Saturated into i64 for wider types.
          APInt::getSignedMinValue(std::min(width, 64u)).getSExtValue());
    }
    auto ifOp = scf::IfOp::create(b, loc, anyBad, /*withElseRegion=*/false);
    OpBuilder then = ifOp.getThenBodyBuilder();
    attic::emitReportError(then, loc, report, ATTIC_RT_INT_DIVISION,
                           arith::ConstantIntOp::create(
                               then, loc, then.getI64Type(),
                               attic::sourceLineOf(loc) * 64 + kindOf(op)),
                           divisor, dividend);

    // The result where the division was not defined: 0.
    b.setInsertionPointAfter(op);
    Value picked = arith::SelectOp::create(b, loc, bad, zero, op->getResult(0));
    op->getResult(0).replaceAllUsesExcept(picked, picked.getDefiningOp());
  }
};

/// scf.for and scf.parallel whose step is not a positive constant: a step
/// below 1 (0 for an unsigned scf.for) is reported and the loop runs no
/// iteration (upstream it is undefined; compiled, a step of 0 or a
/// negative one never ended).
struct AtticGuardLoopStepsPass
    : public attic::impl::AtticGuardLoopStepsBase<AtticGuardLoopStepsPass> {
  void runOnOperation() override {
    SmallVector<Operation *> loops;
    getOperation().walk([&](Operation *op) {
      if (!isa<scf::ForOp, scf::ParallelOp, scf::ForallOp>(op) ||
          attic::insideAtticOp(op) || op->hasAttr(kStepChecked))
        return;
      if (auto forall = dyn_cast<scf::ForallOp>(op)) {
        if (!llvm::all_of(forall.getMixedStep(),
                          [](OpFoldResult step) {
                            std::optional<int64_t> c =
                                getConstantIntValue(step);
                            return c && *c > 0;
                          }) ||
            anyMayWrap(op))
          loops.push_back(op);
        return;
      }
      for (Value step : steps(op))
        if (!constantPositive(step)) {
          loops.push_back(op);
          return;
        }
      if (anyMayWrap(op))
        loops.push_back(op);
    });
    if (loops.empty())
      return;
    FailureOr<func::FuncOp> report = attic::declareReportError(loops[0]);
    if (failed(report))
      return signalPassFailure();
    for (Operation *op : loops) {
      if (auto forall = dyn_cast<scf::ForallOp>(op)) {
        guardForall(forall, *report);
        continue;
      }
      guard(op, *report);
    }
  }

  static constexpr llvm::StringLiteral kStepChecked = "attic.step_checked";

  static SmallVector<Value> steps(Operation *op) {
    if (auto loop = dyn_cast<scf::ForOp>(op))
      return {loop.getStep()};
    return llvm::to_vector(cast<scf::ParallelOp>(op).getStep());
  }

  /// The largest value of a loop's induction variable type (index: 64
  /// bits, as on every attic target), signed or not.
  static APInt largest(Type type, bool isUnsigned) {
    unsigned width = type.isIndex() ? 64 : type.getIntOrFloatBitWidth();
    return isUnsigned ? APInt::getMaxValue(width)
                      : APInt::getSignedMaxValue(width);
  }

  /// A loop bound or step as a constant of the loop's width, if it is one.
  static std::optional<APInt> constantOf(OpFoldResult v, Type type) {
    unsigned width = type.isIndex() ? 64 : type.getIntOrFloatBitWidth();
    if (auto attr = dyn_cast<Attribute>(v)) {
      if (auto integer = dyn_cast<IntegerAttr>(attr))
        return integer.getValue().sextOrTrunc(width);
      return std::nullopt;
    }
    APInt value;
    if (matchPattern(cast<Value>(v), m_ConstantInt(&value)))
      return value.sextOrTrunc(width);
    return std::nullopt;
  }

  /// Whether a loop's induction variable may wrap around its type before
  /// it reaches the upper bound: the last value below it plus the step
  /// past the largest value. Not where the step is 1, nor where the upper
  /// bound and the step are constants with ub - 1 <= largest - step.
  static bool mayWrap(OpFoldResult stepValue, OpFoldResult ubValue, Type type,
                      bool isUnsigned) {
    std::optional<APInt> step = constantOf(stepValue, type);
    if (!step)
      return true;
    if (step->isOne())
      return false;
    std::optional<APInt> ub = constantOf(ubValue, type);
    if (!ub)
      return true;
    APInt limit = largest(type, isUnsigned) - *step;
    return isUnsigned ? (*ub - 1).ugt(limit) && !ub->isZero()
                      : (*ub - 1).sgt(limit) && !ub->isMinSignedValue();
  }

  /// Whether dimension d of an scf.for (d = 0), scf.parallel or
  /// scf.forall may wrap.
  static bool mayWrap(Operation *op, size_t d) {
    if (auto loop = dyn_cast<scf::ForOp>(op))
      return mayWrap(loop.getStep(), loop.getUpperBound(),
                     loop.getInductionVar().getType(), loop.getUnsignedCmp());
    if (auto parallel = dyn_cast<scf::ParallelOp>(op))
      return mayWrap(parallel.getStep()[d], parallel.getUpperBound()[d],
                     parallel.getStep()[d].getType(), false);
    auto forall = cast<scf::ForallOp>(op);
    return mayWrap(forall.getMixedStep()[d], forall.getMixedUpperBound()[d],
                   IndexType::get(op->getContext()), false);
  }

  static bool anyMayWrap(Operation *op) {
    size_t dims = isa<scf::ForOp>(op) ? 1
                  : isa<scf::ParallelOp>(op)
                      ? cast<scf::ParallelOp>(op).getNumLoops()
                      : cast<scf::ForallOp>(op).getRank();
    for (size_t d = 0; d < dims; ++d)
      if (mayWrap(op, d))
        return true;
    return false;
  }

  /// Before a loop dimension that may wrap (mayWrap; its step positive, as
  /// checked before): `wraps`, where it has iterations and its last value
  /// below the upper bound plus the step passes the largest value of its
  /// type, and there a report (ATTIC_RT_LOOP_WRAP: a = line * 64 + d, b =
  /// the upper bound, c = the step). The caller sets the upper bound to
  /// the lower one there (no iteration). The compiled loop compares with
  /// the upper bound only, so it went on from the smallest value (a hang;
  /// a 2026-11-30 audit).
  static Value wrapCheck(OpBuilder &b, Location loc, func::FuncOp report,
                         Value lb, Value ub, Value step, bool isUnsigned,
                         size_t d) {
    Type type = lb.getType();
    auto constant = [&](const APInt &v) -> Value {
      return arith::ConstantOp::create(b, loc, IntegerAttr::get(type, v));
    };
    Value one = arith::ConstantOp::create(b, loc, IntegerAttr::get(type, 1));
    Value some = arith::CmpIOp::create(b, loc,
                                       isUnsigned ? arith::CmpIPredicate::ult
                                                  : arith::CmpIPredicate::slt,
                                       lb, ub);
    // ub - lb and (ub - lb - 1) / step as unsigned numbers: exact where
    // lb < ub; lb + that * step is then the last value, below ub.
    Value diff = arith::SubIOp::create(b, loc, ub, lb);
    Value steps = arith::DivUIOp::create(
        b, loc, arith::SubIOp::create(b, loc, diff, one), step);
    Value last = arith::AddIOp::create(
        b, loc, lb, arith::MulIOp::create(b, loc, steps, step));
    Value limit = arith::SubIOp::create(
        b, loc, constant(largest(type, isUnsigned)), step);
    Value wraps = arith::AndIOp::create(
        b, loc, some,
        arith::CmpIOp::create(b, loc,
                              isUnsigned ? arith::CmpIPredicate::ugt
                                         : arith::CmpIPredicate::sgt,
                              last, limit));
    auto widen = [&](Value v) -> Value {
      if (!isUnsigned || type.isIndex() || type.getIntOrFloatBitWidth() == 64)
        return v;
      if (type.getIntOrFloatBitWidth() < 64)
        return arith::ExtUIOp::create(b, loc, b.getI64Type(), v);
      // Wider: at most INT64_MAX (emitReportError saturates signed).
      return arith::MinUIOp::create(
          b, loc, v,
          arith::ConstantOp::create(
              b, loc,
              b.getIntegerAttr(type, APInt::getSignedMaxValue(64).zext(
                                         type.getIntOrFloatBitWidth()))));
    };
    attic::emitReportErrorIf(
        b, loc, report, wraps, ATTIC_RT_LOOP_WRAP,
        arith::ConstantIntOp::create(b, loc, b.getI64Type(),
                                     attic::sourceLineOf(loc) * 64 +
                                         std::min<int64_t>(int64_t(d), 63)),
        widen(ub), widen(step));
    return wraps;
  }

  static bool constantPositive(Value step) {
    APInt value;
    return matchPattern(step, m_ConstantInt(&value)) &&
           value.isStrictlyPositive();
  }

  /// `bad` for `step` of dimension `d` (below 1, or 0 where the loop
  /// compares unsigned) and, where it holds, a report (ATTIC_RT_LOOP_STEP:
  /// a = line * 64 + d, b = the step).
  static Value reportBadStep(OpBuilder &b, Location loc, func::FuncOp report,
                             Value step, size_t d, bool isUnsigned) {
    Value zero =
        arith::ConstantOp::create(b, loc, IntegerAttr::get(step.getType(), 0));
    Value bad = arith::CmpIOp::create(b, loc,
                                      isUnsigned ? arith::CmpIPredicate::eq
                                                 : arith::CmpIPredicate::sle,
                                      step, zero);
    auto ifOp = scf::IfOp::create(b, loc, bad, /*withElseRegion=*/false);
    OpBuilder then = ifOp.getThenBodyBuilder();
    attic::emitReportError(
        then, loc, report, ATTIC_RT_LOOP_STEP,
        arith::ConstantIntOp::create(then, loc, then.getI64Type(),
                                     attic::sourceLineOf(loc) * 64 +
                                         std::min<int64_t>(int64_t(d), 63)),
        step, zero);
    return bad;
  }

  /// Before the loop: for each step not known positive, `bad` (below 1,
  /// or 0 where the loop compares unsigned), a report
  /// (ATTIC_RT_LOOP_STEP: a = line * 64 + dimension, b = the step), and
  /// the step replaced by 1 and the upper bound by the lower one there.
  static void guard(Operation *op, func::FuncOp report) {
    Location loc = op->getLoc();
    OpBuilder b(op);
    auto forOp = dyn_cast<scf::ForOp>(op);
    bool isUnsigned = forOp && forOp.getUnsignedCmp();
    SmallVector<Value> stepValues = steps(op);
    for (auto [d, step] : llvm::enumerate(stepValues)) {
      if (constantPositive(step))
        continue;
      Value bad = reportBadStep(b, loc, report, step, d, isUnsigned);
      Value one = arith::ConstantOp::create(
          b, loc, IntegerAttr::get(step.getType(), 1));
      Value safeStep = arith::SelectOp::create(b, loc, bad, one, step);
      if (forOp) {
        forOp.getStepMutable().assign(safeStep);
        forOp.getUpperBoundMutable().assign(arith::SelectOp::create(
            b, loc, bad, forOp.getLowerBound(), forOp.getUpperBound()));
      } else {
        auto parallel = cast<scf::ParallelOp>(op);
        parallel.getStepMutable().slice(d, 1).assign(safeStep);
        parallel.getUpperBoundMutable().slice(d, 1).assign(
            arith::SelectOp::create(b, loc, bad, parallel.getLowerBound()[d],
                                    parallel.getUpperBound()[d]));
      }
    }
    // Then each dimension whose induction variable may wrap (its step now
    // positive).
    if (forOp) {
      if (mayWrap(forOp, 0)) {
        Value wraps =
            wrapCheck(b, loc, report, forOp.getLowerBound(),
                      forOp.getUpperBound(), forOp.getStep(), isUnsigned, 0);
        forOp.getUpperBoundMutable().assign(arith::SelectOp::create(
            b, loc, wraps, forOp.getLowerBound(), forOp.getUpperBound()));
      }
    } else {
      auto parallel = cast<scf::ParallelOp>(op);
      for (size_t d = 0; d < parallel.getNumLoops(); ++d) {
        if (!mayWrap(op, d))
          continue;
        Value lb = parallel.getLowerBound()[d],
              ub = parallel.getUpperBound()[d];
        Value wraps = wrapCheck(b, loc, report, lb, ub, parallel.getStep()[d],
                                /*isUnsigned=*/false, d);
        parallel.getUpperBoundMutable().slice(d, 1).assign(
            arith::SelectOp::create(b, loc, wraps, lb, ub));
      }
    }
    op->setAttr(kStepChecked, b.getUnitAttr());
  }

  /// The same for an scf.forall, whose bounds and steps may be static
  /// (a static step of 0 verifies too): the loop is rebuilt with the
  /// checked steps and bounds, and its body moved into it.
  static void guardForall(scf::ForallOp op, func::FuncOp report) {
    Location loc = op.getLoc();
    OpBuilder b(op);
    SmallVector<OpFoldResult> lbs = op.getMixedLowerBound();
    SmallVector<OpFoldResult> ubs = op.getMixedUpperBound();
    SmallVector<OpFoldResult> steps = op.getMixedStep();
    for (auto [d, step] : llvm::enumerate(steps)) {
      std::optional<int64_t> known = getConstantIntValue(step);
      if (known && *known > 0)
        continue;
      Value s = getValueOrCreateConstantIndexOp(b, loc, step);
      Value bad = reportBadStep(b, loc, report, s, d, /*isUnsigned=*/false);
      Value one = arith::ConstantIndexOp::create(b, loc, 1);
      step = arith::SelectOp::create(b, loc, bad, one, s).getResult();
      ubs[d] = arith::SelectOp::create(
                   b, loc, bad, getValueOrCreateConstantIndexOp(b, loc, lbs[d]),
                   getValueOrCreateConstantIndexOp(b, loc, ubs[d]))
                   .getResult();
    }
    for (size_t d = 0; d < steps.size(); ++d) {
      if (!mayWrap(steps[d], ubs[d], b.getIndexType(), /*isUnsigned=*/false))
        continue;
      Value lb = getValueOrCreateConstantIndexOp(b, loc, lbs[d]);
      Value ub = getValueOrCreateConstantIndexOp(b, loc, ubs[d]);
      Value wraps = wrapCheck(b, loc, report, lb, ub,
                              getValueOrCreateConstantIndexOp(b, loc, steps[d]),
                              /*isUnsigned=*/false, d);
      ubs[d] = arith::SelectOp::create(b, loc, wraps, lb, ub).getResult();
    }
    auto checked = scf::ForallOp::create(b, loc, lbs, ubs, steps,
                                         op.getOutputs(), op.getMapping());
    checked.getRegion().takeBody(op.getRegion());
    for (NamedAttribute attr : op->getDiscardableAttrs())
      checked->setAttr(attr.getName(), attr.getValue());
    checked->setAttr(kStepChecked, b.getUnitAttr());
    op.replaceAllUsesWith(checked.getResults());
    op.erase();
  }
};

} // namespace
