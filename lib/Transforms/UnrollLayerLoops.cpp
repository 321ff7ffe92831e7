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
#include "attic/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

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

struct AtticUnrollLayerLoopsPass
    : public attic::impl::AtticUnrollLayerLoopsBase<AtticUnrollLayerLoopsPass> {
  using AtticUnrollLayerLoopsBase::AtticUnrollLayerLoopsBase;

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
          loop.emitOpError()
              << "loops over attic ops with a step of " << *step
              << ": the loop never ends (attic-unroll-layer-loops)";
          return signalPassFailure();
        }
        std::optional<APInt> trips = loop.getStaticTripCount();
        if (!trips) {
          loop.emitOpError()
              << "loops over attic ops with a trip count that is not a "
                 "compile-time constant: the GPU mapping needs it unrolled "
                 "(attic-unroll-layer-loops)";
          return signalPassFailure();
        }
        if (trips->getZExtValue() > uint64_t(int64_t(maxTripCount))) {
          loop.emitOpError()
              << "loops over attic ops " << trips->getZExtValue()
              << " times: attic-unroll-layer-loops unrolls at most "
              << int64_t(maxTripCount) << " iterations (max-trip-count)";
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
          loop.emitOpError("could not be unrolled (attic-unroll-layer-loops)");
          return signalPassFailure();
        }
        changed = true;
      }
    }
  }
};
} // namespace
