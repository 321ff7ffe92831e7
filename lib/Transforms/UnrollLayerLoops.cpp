//===- UnrollLayerLoops.cpp - unroll loops over layers for the GPU -*- C++
//-*-===//
//
// attic-gpu-offload launches kernels from straight-line host code only: a
// function-level loop becomes one kernel. A loop over layers (an scf.for
// whose body holds attic ops) is fully unrolled before the GPU mapping, one
// copy of the body per iteration (unrollFully below, not upstream's
// loopUnrollFull: that one counts the iterations as signed numbers, and
// dropped the body of an `scf.for unsigned` whose bounds read as negative,
// e.g. an i8 loop from 0 to 130; a 2026-11-30 audit).
//
//===----------------------------------------------------------------------===//

#include "attic/Dialect/Attic/AtticDialect.h"
#include "attic/Support/Diagnostics.h"
#include "attic/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"

namespace attic {
#define GEN_PASS_DEF_ATTICUNROLLLAYERLOOPS
#include "AtticPasses.h.inc"
} // namespace attic

using namespace mlir;

namespace {
bool holdsAtticOps(scf::ForOp loop) {
  return loop.getBody()
      ->walk([](Operation *op) {
        return isa<attic::AtticDialect>(op->getDialect())
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

/// The number of iterations of a loop with constant bounds and a positive
/// step, counted in 128 bits (upstream's getStaticTripCount counts in the
/// induction variable's width, where ub - lb can wrap: an i8 loop from -64
/// to 64 has 128 iterations, and ub - lb = -128 reads as none).
std::optional<uint64_t> wideTripCount(scf::ForOp loop) {
  APInt lb, ub, step;
  if (!matchPattern(loop.getLowerBound(), m_ConstantInt(&lb)) ||
      !matchPattern(loop.getUpperBound(), m_ConstantInt(&ub)) ||
      !matchPattern(loop.getStep(), m_ConstantInt(&step)))
    return std::nullopt;
  bool isUnsigned = loop.getUnsignedCmp();
  auto wide = [&](const APInt &v) {
    return isUnsigned ? v.zext(128) : v.sext(128);
  };
  APInt lo = wide(lb), hi = wide(ub), by = wide(step);
  if (hi.sle(lo) || !by.isStrictlyPositive())
    return 0;
  APInt trips = (hi - lo + by - 1).udiv(by);
  if (trips.getActiveBits() > 63)
    return std::nullopt;
  return trips.getZExtValue();
}

/// Replaces `loop`, whose constant bounds give `trips` iterations, by
/// `trips` copies of its body with the induction variable a constant
/// (lb + t * step, wrapping in its width as the loop's own increments do)
/// and the iteration arguments threaded from one copy to the next.
void unrollFully(scf::ForOp loop, uint64_t trips) {
  APInt lb, step;
  bool constant = matchPattern(loop.getLowerBound(), m_ConstantInt(&lb)) &&
                  matchPattern(loop.getStep(), m_ConstantInt(&step));
  assert(constant && "a static trip count has constant bounds");
  (void)constant;
  OpBuilder b(loop);
  Type ivType = loop.getInductionVar().getType();
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  SmallVector<Value> values(loop.getInitArgs());
  for (uint64_t t = 0; t < trips; ++t) {
    APInt iv = lb + step * APInt(lb.getBitWidth(), t);
    Value ivValue = ivType.isIndex()
                        ? Value(arith::ConstantIndexOp::create(
                              b, loop.getLoc(), iv.getSExtValue()))
                        : Value(arith::ConstantOp::create(
                              b, loop.getLoc(), b.getIntegerAttr(ivType, iv)));
    IRMapping map;
    map.map(loop.getInductionVar(), ivValue);
    map.map(loop.getRegionIterArgs(), values);
    for (Operation &op : loop.getBody()->without_terminator())
      b.clone(op, map);
    values = llvm::map_to_vector(
        yield.getOperands(), [&](Value v) { return map.lookupOrDefault(v); });
  }
  loop.replaceAllUsesWith(values);
  loop.erase();
}

struct AtticUnrollLayerLoopsPass
    : public attic::impl::AtticUnrollLayerLoopsBase<AtticUnrollLayerLoopsPass> {
  using AtticUnrollLayerLoopsBase::AtticUnrollLayerLoopsBase;

  LogicalResult initialize(MLIRContext *context) override {
    if (maxTripCount < 0)
      return attic::optionError(
          context, "attic-unroll-layer-loops: max-trip-count must be at "
                   "least 0, got " +
                       Twine(int64_t(maxTripCount)));
    return success();
  }

  void runOnOperation() override {
    // Outer loops first (a loop unrolled moves its nested loops to the
    // function level, where the next round finds them).
    for (bool changed = true; changed;) {
      changed = false;
      SmallVector<scf::ForOp> loops;
      getOperation()->walk([&](func::FuncOp func) {
        for (Block &block : func.getBody())
          for (auto loop : block.getOps<scf::ForOp>())
            if (holdsAtticOps(loop))
              loops.push_back(loop);
      });
      for (scf::ForOp loop : loops) {
        // A step that is not positive never ends the loop (and upstream's
        // unrolling would leave it in place).
        std::optional<int64_t> step = getConstantIntValue(loop.getStep());
        if (step && *step <= 0) {
          attic::opError(loop)
              << "loops over attic ops with a step of " << *step
              << ": the loop never ends (attic-unroll-layer-loops)";
          return signalPassFailure();
        }
        std::optional<APInt> trips = loop.getStaticTripCount();
        if (!trips) {
          attic::opError(loop)
              << "loops over attic ops with a trip count that is not a "
                 "compile-time constant: the GPU mapping needs it unrolled "
                 "(attic-unroll-layer-loops)";
          return signalPassFailure();
        }
        if (trips->getZExtValue() > uint64_t(int64_t(maxTripCount))) {
          attic::opError(loop)
              << "loops over attic ops " << trips->getZExtValue()
              << " times: attic-unroll-layer-loops unrolls at most "
              << int64_t(maxTripCount) << " iterations (max-trip-count)";
          return signalPassFailure();
        }
        std::optional<uint64_t> wide = wideTripCount(loop);
        if (wide && *wide != trips->getZExtValue()) {
          // Upstream's unrolling would copy the body that many times.
          attic::opError(loop)
              << "loops over attic ops " << *wide
              << " times, which does not fit the "
              << (loop.getUnsignedCmp() ? "unsigned" : "signed")
              << " range of its " << trips->getBitWidth()
              << "-bit induction variable (the trip count reads as "
              << trips->getZExtValue()
              << "): attic-unroll-layer-loops needs a wider one (index)";
          return signalPassFailure();
        }
        // No iteration: the results are the initial values.
        unrollFully(loop, trips->getZExtValue());
        changed = true;
      }
    }
  }
};
} // namespace
