//===- UnrollLayerLoops.cpp - unroll loops over layers for the GPU -*- C++
//-*-===//
//
// attic-gpu-offload launches kernels from straight-line host code only: a
// function-level loop becomes one kernel. A loop over layers (an scf.for
// whose body holds attic ops) is fully unrolled before the GPU mapping, one
// copy of the body per iteration (upstream's loopUnrollFull).
//
//===----------------------------------------------------------------------===//

#include "attic/Dialect/Attic/AtticDialect.h"
#include "attic/Support/Diagnostics.h"
#include "attic/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
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
        if (trips->isNegative()) {
          // loopUnrollFull reads the count as a signed number.
          attic::opError(loop)
              << "loops over attic ops " << trips->getZExtValue()
              << " times, which does not fit the signed range of its "
              << trips->getBitWidth()
              << "-bit induction variable: attic-unroll-layer-loops needs "
                 "a wider one (index)";
          return signalPassFailure();
        }
        if (trips->isZero()) {
          // No iteration: the results are the initial values (upstream's
          // loopUnrollFull leaves such a loop as it is).
          loop.replaceAllUsesWith(loop.getInitArgs());
          loop.erase();
          changed = true;
          continue;
        }
        if (failed(loopUnrollFull(loop))) {
          attic::opError(loop,
                         "could not be unrolled (attic-unroll-layer-loops)");
          return signalPassFailure();
        }
        changed = true;
      }
    }
  }
};
} // namespace
