//===- UnrollLayerLoops.cpp - unroll loops over layers for the GPU -*- C++
//-*-===//
//
// attic-gpu-offload launches kernels from straight-line host code only: a
// function-level loop becomes one kernel. A loop over layers (an scf.for
// whose body holds attic ops), or one of attic's own loops of repeated
// steps (marked attic.repeated_steps: LSH rounds, K-means and Nystrom
// iterations), is fully unrolled before the GPU mapping, one copy of the
// body per iteration (unrollFully below, not upstream's
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
/// Whether `op` holds attic ops, directly or in the functions its calls
/// reach (a loop over layers often calls one function per layer), or with
/// `orRepeatedSteps` is or holds one of attic's loops of repeated steps
/// (kRepeatedStepsAttrName: a loop of K-means iterations lowered by
/// attic-lower-state has no attic op left, and a user's loop around it is
/// unrolled first, which brings it to the function level).
bool holdsAtticOps(Operation *op, SymbolTableCollection &symbols,
                   llvm::SmallPtrSetImpl<Operation *> &visited,
                   bool orRepeatedSteps) {
  return op
      ->walk([&](Operation *nested) {
        if (isa_and_nonnull<attic::AtticDialect>(nested->getDialect()) ||
            (orRepeatedSteps && nested->hasAttr(attic::kRepeatedStepsAttrName)))
          return WalkResult::interrupt();
        if (auto call = dyn_cast<func::CallOp>(nested))
          if (Operation *callee =
                  symbols.lookupNearestSymbolFrom(call, call.getCalleeAttr()))
            if (visited.insert(callee).second &&
                holdsAtticOps(callee, symbols, visited, orRepeatedSteps))
              return WalkResult::interrupt();
        return WalkResult::advance();
      })
      .wasInterrupted();
}

bool holdsAtticOps(Operation *op, SymbolTableCollection &symbols,
                   bool orRepeatedSteps = true) {
  llvm::SmallPtrSet<Operation *, 8> visited;
  return holdsAtticOps(op, symbols, visited, orRepeatedSteps);
}

/// How the messages name a loop this pass unrolls.
std::string loopKind(Operation *loop, SymbolTableCollection &symbols) {
  return holdsAtticOps(loop, symbols, /*orRepeatedSteps=*/false)
             ? "loops over attic ops"
             : "loops over attic's repeated steps (attic.repeated_steps)";
}

/// The number of iterations of a loop with constant bounds and a positive
/// step, counted in two bits more than the induction variable's width
/// (upstream's getStaticTripCount counts in that width, where ub - lb can
/// wrap: an i8 loop from -64 to 64 has 128 iterations, and ub - lb = -128
/// reads as none). Two more bits hold ub - lb + step - 1 of any bounds,
/// signed or unsigned (a fixed 128 bits wrapped for i128 loops, which
/// lost their iterations, and truncated wider constants, which corrupted
/// the heap).
std::optional<uint64_t> wideTripCount(scf::ForOp loop) {
  APInt lb, ub, step;
  if (!matchPattern(loop.getLowerBound(), m_ConstantInt(&lb)) ||
      !matchPattern(loop.getUpperBound(), m_ConstantInt(&ub)) ||
      !matchPattern(loop.getStep(), m_ConstantInt(&step)))
    return std::nullopt;
  bool isUnsigned = loop.getUnsignedCmp();
  unsigned width =
      std::max({lb.getBitWidth(), ub.getBitWidth(), step.getBitWidth()}) + 2;
  auto wide = [&](const APInt &v) {
    return isUnsigned ? v.zext(width) : v.sext(width);
  };
  APInt lo = wide(lb), hi = wide(ub), by = wide(step);
  if (hi.sle(lo) || !by.isStrictlyPositive())
    return 0;
  APInt trips = (hi - lo + by - 1).udiv(by);
  if (trips.getActiveBits() > 63)
    return std::nullopt;
  return trips.getZExtValue();
}

/// Replaces `loop`, which runs `trips` iterations, by `trips` copies of
/// its body with the induction variable lb + t * step (wrapping in its
/// width as the loop's own increments do; constants where the bounds are)
/// and the iteration arguments threaded from one copy to the next.
void unrollFully(scf::ForOp loop, uint64_t trips) {
  OpBuilder b(loop);
  Location loc = loop.getLoc();
  Type ivType = loop.getInductionVar().getType();
  unsigned width = ivType.isIndex() ? 64 : ivType.getIntOrFloatBitWidth();
  auto integer = [&](const APInt &v) -> Value {
    if (ivType.isIndex())
      return arith::ConstantIndexOp::create(b, loc, v.getSExtValue());
    return arith::ConstantOp::create(b, loc, b.getIntegerAttr(ivType, v));
  };
  APInt lb, step;
  bool constantLb = matchPattern(loop.getLowerBound(), m_ConstantInt(&lb));
  bool constantStep = matchPattern(loop.getStep(), m_ConstantInt(&step));
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  SmallVector<Value> values(loop.getInitArgs());
  for (uint64_t t = 0; t < trips; ++t) {
    APInt count(width, t);
    Value iv;
    if (constantLb && constantStep) {
      iv = integer(lb + step * count);
    } else {
      Value offset = constantStep
                         ? integer(step * count)
                         : Value(arith::MulIOp::create(b, loc, loop.getStep(),
                                                       integer(count)));
      iv = arith::AddIOp::create(b, loc, loop.getLowerBound(), offset);
    }
    IRMapping map;
    map.map(loop.getInductionVar(), iv);
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
    // Each iteration is a copy of the body: 2^40 of them exhausted memory
    // instead of an error (a 2026-11-30 audit).
    constexpr int64_t kMostTrips = int64_t(1) << 16;
    if (maxTripCount < 0 || maxTripCount > kMostTrips)
      return attic::optionError(
          context, "attic-unroll-layer-loops: max-trip-count must be in [0, " +
                       Twine(kMostTrips) + "], got " +
                       Twine(int64_t(maxTripCount)));
    return success();
  }

  void runOnOperation() override {
    // The copies of loop bodies made so far: nested loops multiply (three
    // loops of 256 made 2^24 copies until memory ran out), so the whole
    // run is bounded as well as each loop.
    constexpr uint64_t kMostCopies = uint64_t(1) << 16;
    uint64_t copies = 0;
    // Outer loops first (a loop unrolled moves its nested loops to the
    // function level, where the next round finds them).
    for (bool changed = true; changed;) {
      changed = false;
      // The loops over attic ops at the function level: scf.for ones are
      // unrolled, others (scf.while, scf.forall, scf.parallel) cannot be.
      SymbolTableCollection symbols;
      SmallVector<scf::ForOp> loops;
      WalkResult refused = getOperation()->walk([&](func::FuncOp func) {
        for (Block &block : func.getBody())
          for (Operation &op : block) {
            // (Or attic's own loops of repeated steps, whose body may hold
            // no attic op left: kRepeatedStepsAttrName.)
            if (!isa<scf::ForOp, scf::WhileOp, scf::ForallOp, scf::ParallelOp>(
                    op) ||
                !holdsAtticOps(&op, symbols))
              continue;
            if (auto loop = dyn_cast<scf::ForOp>(op)) {
              loops.push_back(loop);
              continue;
            }
            attic::opError(&op)
                << loopKind(&op, symbols)
                << ": the GPU mapping needs such "
                   "loops unrolled, and attic-unroll-layer-loops unrolls "
                   "scf.for loops with constant bounds only; write the "
                   "loop as one, or compile for the CPU";
            return WalkResult::interrupt();
          }
        return WalkResult::advance();
      });
      if (refused.wasInterrupted())
        return signalPassFailure();
      for (scf::ForOp loop : loops) {
        // A step that is not positive never ends the loop (and upstream's
        // unrolling would leave it in place).
        // (Unsigned loops read the step as unsigned: 150 in i8 is not -106.)
        APInt step;
        if (matchPattern(loop.getStep(), m_ConstantInt(&step)) &&
            (loop.getUnsignedCmp() ? step.isZero() : step.isNonPositive())) {
          attic::opError(loop)
              << loopKind(loop, symbols) << " with a step of "
              << llvm::toString(step, 10, !loop.getUnsignedCmp())
              << ": the loop never ends (attic-unroll-layer-loops)";
          return signalPassFailure();
        }
        // The trip count counted in 128 bits where the bounds are
        // constants (upstream's counts in the induction variable's width,
        // where ub - lb can wrap: an i8 loop from -64 to 64 read as none,
        // and an unsigned step of 150 in i8 as no iteration), else
        // upstream's (bounds that differ by a constant).
        std::optional<uint64_t> trips = wideTripCount(loop);
        if (!trips)
          if (std::optional<APInt> upstream = loop.getStaticTripCount();
              upstream && upstream->getActiveBits() <= 63)
            trips = upstream->getZExtValue();
        if (!trips) {
          attic::opError(loop)
              << loopKind(loop, symbols)
              << " with a trip count that is not a "
                 "compile-time constant: the GPU mapping needs it unrolled "
                 "(attic-unroll-layer-loops)";
          return signalPassFailure();
        }
        if (*trips > uint64_t(int64_t(maxTripCount))) {
          attic::opError(loop)
              << loopKind(loop, symbols) << " " << *trips
              << " times: attic-unroll-layer-loops unrolls at most "
              << int64_t(maxTripCount) << " iterations (max-trip-count)";
          return signalPassFailure();
        }
        if (*trips > kMostCopies - copies) {
          attic::opError(loop)
              << loopKind(loop, symbols) << " " << *trips << " times after "
              << copies
              << " copies of loop bodies: attic-unroll-layer-loops makes at "
                 "most "
              << kMostCopies
              << " in all (the copies of every loop add up, and a nested "
                 "loop's are made once per copy of the loop around it)";
          return signalPassFailure();
        }
        copies += *trips;
        // No iteration: the results are the initial values.
        unrollFully(loop, *trips);
        changed = true;
      }
    }
  }
};
} // namespace
