//===- GpuFuseLaunches.cpp - independent neighbour kernels as one -*- C++
//-*-===//
//
// attic-gpu-offload makes each loop nest of a function its own gpu.launch,
// one after the other. scf-parallel-loop-fusion already joined the loops over
// one iteration space that feed each other element by element; what is left
// are neighbours over different iteration spaces, many of them independent
// (a VCC layer: the scores of one level and the sums of another). This pass
// joins each run of consecutive launches that touch no common buffer (where
// at least one of them writes) into one launch whose grid is the sum of
// theirs: block b runs the first launch's body while b < its grid, the
// second's with b minus that grid, and so on. Every block takes one branch
// as a whole, so barriers stay legal; the bodies are not changed.
//
// Which buffers a body touches comes from the memory effects of its ops,
// traced through view ops to the gpu.alloc they view. A body with an effect
// on anything else (a buffer of another origin, which may alias; no value;
// an op without known effects) is not joined.
//
//===----------------------------------------------------------------------===//

#include "attic/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/DenseSet.h"

namespace attic {
#define GEN_PASS_DEF_ATTICGPUFUSELAUNCHES
#include "AtticPasses.h.inc"
} // namespace attic

using namespace mlir;

namespace {

/// The device allocation that `memref` views (through view ops), or null
/// when it is not one: then the buffer may alias another, and its kernel
/// is left alone.
Value rootOf(Value memref) {
  while (Operation *def = memref.getDefiningOp()) {
    if (isa<gpu::AllocOp>(def))
      return memref;
    auto view = dyn_cast<ViewLikeOpInterface>(def);
    if (!view)
      return Value();
    memref = view.getViewSource();
  }
  return Value();
}

/// The buffers a kernel body reads and writes.
struct Footprint {
  llvm::DenseSet<Value> reads, writes;
};

/// The footprint of `launch`'s body, or nothing when an op has an effect
/// that is not on a buffer defined outside the body (or no known effects).
std::optional<Footprint> footprintOf(gpu::LaunchOp launch) {
  Footprint fp;
  bool known = true;
  launch.getBody().walk([&](Operation *op) {
    if (op->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
      return WalkResult::advance();
    auto iface = dyn_cast<MemoryEffectOpInterface>(op);
    if (!iface) {
      known = false;
      return WalkResult::interrupt();
    }
    SmallVector<MemoryEffects::EffectInstance> effects;
    iface.getEffects(effects);
    for (const MemoryEffects::EffectInstance &effect : effects) {
      Value value = effect.getValue();
      if (!value || !isa<BaseMemRefType>(value.getType())) {
        known = false;
        return WalkResult::interrupt();
      }
      Value root = rootOf(value);
      if (!root) {
        known = false;
        return WalkResult::interrupt();
      }
      if (isa<MemoryEffects::Read>(effect.getEffect()))
        fp.reads.insert(root);
      else if (isa<MemoryEffects::Write>(effect.getEffect()))
        fp.writes.insert(root);
      else {
        known = false;
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  if (!known)
    return std::nullopt;
  return fp;
}

bool overlaps(const llvm::DenseSet<Value> &a, const llvm::DenseSet<Value> &b) {
  return llvm::any_of(a, [&](Value v) { return b.contains(v); });
}

/// A launch as attic-gpu-offload makes them: a 1-D grid of 1-D blocks,
/// no dynamic shared memory, one dependency on a `gpu.wait async` of no
/// operands right before it, its token used only by a blocking `gpu.wait`.
struct Step {
  gpu::LaunchOp launch;
  gpu::WaitOp start, end;
  int64_t blockSize;
};

std::optional<Step> asStep(gpu::LaunchOp launch) {
  auto constant = [](Value v) -> std::optional<int64_t> {
    if (auto c = v.getDefiningOp<arith::ConstantIndexOp>())
      return c.value();
    return std::nullopt;
  };
  gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
  gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
  if (constant(grid.y) != 1 || constant(grid.z) != 1 ||
      constant(block.y) != 1 || constant(block.z) != 1 || !constant(block.x))
    return std::nullopt;
  if (launch.getDynamicSharedMemorySize() || launch.hasClusterSize() ||
      launch.getAsyncDependencies().size() != 1 || !launch.getAsyncToken() ||
      !launch.getAsyncToken().hasOneUse())
    return std::nullopt;
  auto start = launch.getAsyncDependencies()[0].getDefiningOp<gpu::WaitOp>();
  auto end = dyn_cast<gpu::WaitOp>(*launch.getAsyncToken().getUsers().begin());
  if (!start || !start.getAsyncDependencies().empty() ||
      !start.getAsyncToken() || !start.getAsyncToken().hasOneUse() ||
      start->getNextNode() != launch.getOperation() || !end ||
      launch->getNextNode() != end.getOperation() || end.getAsyncToken() ||
      end.getAsyncDependencies().size() != 1 ||
      end->getBlock() != launch->getBlock())
    return std::nullopt;
  return Step{launch, start, end, *constant(block.x)};
}

/// Joins `steps` (consecutive, independent, one block size) into one
/// launch at the first one's place.
void fuse(ArrayRef<Step> steps) {
  Step first = steps.front();
  OpBuilder b(first.start);
  Location loc = first.launch.getLoc();
  // The host ops between the steps (grid sizes: pure) go above the first.
  for (size_t s = 1; s < steps.size(); ++s) {
    Step previous = steps[s - 1], next = steps[s];
    for (Operation *op = previous.end->getNextNode();
         op != next.start.getOperation();) {
      Operation *following = op->getNextNode();
      op->moveBefore(first.start);
      op = following;
    }
  }
  SmallVector<Value> offsets;
  Value total = arith::ConstantIndexOp::create(b, loc, 0);
  for (Step step : steps) {
    offsets.push_back(total);
    total = arith::AddIOp::create(b, loc, total, step.launch.getGridSizeX());
  }
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  b.setInsertionPoint(first.launch);
  auto fused = gpu::LaunchOp::create(b, loc, total, one, one,
                                     first.launch.getBlockSizeX(), one, one,
                                     /*dynamicSharedMemorySize=*/nullptr,
                                     first.launch.getAsyncToken().getType(),
                                     ValueRange{first.start.getAsyncToken()});
  Block &body = fused.getBody().front();
  OpBuilder k = OpBuilder::atBlockBegin(&body);
  Value blockId = fused.getBlockIds().x;
  // Block b runs step s where offsets[s] <= b < offsets[s + 1]: a chain
  // of scf.if, each step's body cloned with its block index rebased.
  std::function<void(OpBuilder &, size_t)> dispatch = [&](OpBuilder &at,
                                                          size_t s) {
    Step step = steps[s];
    auto clone = [&](OpBuilder &into) {
      IRMapping map;
      Block &old = step.launch.getBody().front();
      Value local = s == 0
                        ? blockId
                        : arith::SubIOp::create(into, loc, blockId, offsets[s])
                              .getResult();
      // Each of the step's dims: x from `x`, y and z the fused launch's.
      auto mapDims = [&](gpu::KernelDim3 from, Value x, gpu::KernelDim3 to) {
        map.map(from.x, x);
        map.map(from.y, to.y);
        map.map(from.z, to.z);
      };
      mapDims(step.launch.getBlockIds(), local, fused.getBlockIds());
      mapDims(step.launch.getThreadIds(), fused.getThreadIds().x,
              fused.getThreadIds());
      mapDims(step.launch.getGridSize(), step.launch.getGridSizeX(),
              fused.getGridSize());
      mapDims(step.launch.getBlockSize(), fused.getBlockSize().x,
              fused.getBlockSize());
      for (Operation &op : old.without_terminator())
        into.clone(op, map);
    };
    if (s + 1 == steps.size()) {
      clone(at);
      return;
    }
    Value inThis = arith::CmpIOp::create(at, loc, arith::CmpIPredicate::ult,
                                         blockId, offsets[s + 1]);
    auto branch = scf::IfOp::create(at, loc, inThis, /*withElseRegion=*/true);
    OpBuilder thenB = branch.getThenBodyBuilder();
    clone(thenB);
    OpBuilder elseB = branch.getElseBodyBuilder();
    dispatch(elseB, s + 1);
  };
  dispatch(k, 0);
  gpu::TerminatorOp::create(k, loc);
  first.end->setOperand(0, fused.getAsyncToken());
  first.launch.erase();
  for (Step step : steps.drop_front()) {
    step.end.erase();
    step.launch.erase();
    step.start.erase();
  }
}

void fuseInBlock(Block &block) {
  SmallVector<Step> run;
  llvm::DenseSet<Value> runReads, runWrites;
  auto flush = [&]() {
    if (run.size() > 1)
      fuse(run);
    run.clear();
    runReads.clear();
    runWrites.clear();
  };
  for (Operation *op = &block.front(); op;) {
    Operation *next = op->getNextNode();
    auto launch = dyn_cast<gpu::LaunchOp>(op);
    if (!launch) {
      // Between two steps only host ops without effects (grid sizes) and
      // the next step's chain start may sit.
      bool between = !run.empty() && op->getNumRegions() == 0 &&
                     (isMemoryEffectFree(op) ||
                      (isa<gpu::WaitOp>(op) && !op->getNumOperands()));
      if (!between)
        flush();
      op = next;
      continue;
    }
    std::optional<Step> step = asStep(launch);
    std::optional<Footprint> fp =
        step ? footprintOf(launch) : std::optional<Footprint>();
    bool joins =
        step && fp && !run.empty() && step->blockSize == run.back().blockSize &&
        !overlaps(fp->writes, runReads) && !overlaps(fp->writes, runWrites) &&
        !overlaps(fp->reads, runWrites);
    if (!joins)
      flush();
    if (step && fp) {
      run.push_back(*step);
      runReads.insert(fp->reads.begin(), fp->reads.end());
      runWrites.insert(fp->writes.begin(), fp->writes.end());
      // Past the step's end (the blocking wait right after the launch).
      op = step->end->getNextNode();
      continue;
    }
    op = next;
  }
  flush();
}

struct AtticGpuFuseLaunchesPass
    : public attic::impl::AtticGpuFuseLaunchesBase<AtticGpuFuseLaunchesPass> {
  void runOnOperation() override {
    getOperation()->walk([](func::FuncOp func) {
      if (!func.isExternal())
        fuseInBlock(func.getBody().front());
    });
  }
};
} // namespace
