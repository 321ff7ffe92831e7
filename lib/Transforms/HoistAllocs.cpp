//===- HoistAllocs.cpp - allocations above the loops before them -*- C++
//-*-===//
//
// Upstream's scf-parallel-loop-fusion fuses a run of parallel loops only
// while nothing with a memory effect sits between them, and bufferization
// puts each result's memref.alloc right before the loop that writes it, so
// the allocations split the runs. An allocation only creates a fresh buffer:
// moving it up, past loops and ops without memory effects whose results it
// does not use, changes no value and extends its buffer's life by those
// loops only. This pass moves each allocation to the start of the run of
// such ops before it, never past an op with another memory effect (a
// deallocation, a copy, a call) or an op that defines one of its operands.
// Peak memory does not grow: a run holds no deallocation, so every buffer
// allocated in it is still live at its end, hoisted or not.
//
//===----------------------------------------------------------------------===//

#include "attic/Transforms/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace attic {
#define GEN_PASS_DEF_ATTICHOISTALLOCS
#include "AtticPasses.h.inc"
} // namespace attic

using namespace mlir;

namespace {
/// An op that an allocation may move above: a parallel loop (what fusion
/// joins), or an op without memory effects and regions (what fusion
/// allows between loops).
bool isPassable(Operation &op) {
  if (isa<scf::ParallelOp>(op))
    return true;
  return op.getNumRegions() == 0 && isMemoryEffectFree(&op);
}

void hoistInBlock(Block &block) {
  // The first op other than an allocation in the current run of passable
  // ops; moved allocations go right before it (so they keep their order),
  // and allocations before it are already at the start of the run.
  Operation *runStart = nullptr;
  for (Operation &op : llvm::make_early_inc_range(block)) {
    auto alloc = dyn_cast<memref::AllocOp>(op);
    if (!alloc) {
      if (!isPassable(op))
        runStart = nullptr;
      else if (!runStart)
        runStart = &op;
      continue;
    }
    if (!runStart)
      continue;
    // Above the run, but never above the definitions of its sizes.
    Operation *target = runStart;
    for (Value operand : alloc->getOperands()) {
      Operation *def = operand.getDefiningOp();
      if (def && def->getBlock() == &block && !def->isBeforeInBlock(target))
        target = def->getNextNode();
    }
    if (target != alloc.getOperation())
      alloc->moveBefore(target);
  }
}

struct AtticHoistAllocsPass
    : public attic::impl::AtticHoistAllocsBase<AtticHoistAllocsPass> {
  void runOnOperation() override {
    getOperation()->walk([](Block *block) { hoistInBlock(*block); });
  }
};
} // namespace
