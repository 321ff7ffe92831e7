//===- GpuFuseLaunches.cpp - independent kernels as one launch -*- C++ -*-===//
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
// Program order interleaves dependent steps with independent ones (A1 B1
// A2 B2, B reading what A writes: only B1 and A2 are independent
// neighbours), so the steps first move down to the levels of their
// dependence graph (sinkSteps: A1 A2 B1 B2, two launches instead of
// three).
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
#include "mlir/Dialect/MemRef/IR/MemRef.h"
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

/// The device buffers that a kernel or a host op reads and writes.
struct Footprint {
  llvm::DenseSet<Value> reads, writes;
};

/// The footprint of each step (a launch in attic-gpu-offload's form whose
/// buffers are all traced), by its gpu.launch op.
using StepFootprints = llvm::DenseMap<Operation *, Footprint>;

/// How a device buffer may relate to the steps' buffers: one of them
/// (traced to its gpu.alloc), certainly none of them (host memory: a
/// function argument, or a host allocation, which cannot be a device
/// buffer allocated in the function), or unknown.
enum class Origin { Device, Host, Unknown };

Origin originOf(Value memref, Value &root) {
  Value v = memref;
  while (Operation *def = v.getDefiningOp()) {
    if (isa<gpu::AllocOp>(def)) {
      root = v;
      return Origin::Device;
    }
    if (isa<memref::AllocOp, memref::AllocaOp>(def))
      return Origin::Host;
    auto view = dyn_cast<ViewLikeOpInterface>(def);
    if (!view)
      return Origin::Unknown;
    v = view.getViewSource();
  }
  auto arg = cast<BlockArgument>(v);
  return isa<func::FuncOp>(arg.getOwner()->getParentOp()) ? Origin::Host
                                                          : Origin::Unknown;
}

/// The device buffers that `top` and the ops it nests read and write, or
/// nothing when an effect may be on a buffer that is not traced (an op
/// without known effects, an effect on no value or on a buffer of unknown
/// origin).
///
/// For a kernel (`hostSide` false) every buffer must be traced to its
/// gpu.alloc, and any other effect (an allocation) makes it unknown: such a
/// kernel is not a step. For a host op that a step may move past
/// (`hostSide`), freeing a buffer counts as writing it, allocations and
/// host memory are not device buffers of the steps, and waits have no
/// effect (each step waits for its own launch, and the ops whose tokens
/// they wait for are checked themselves).
std::optional<Footprint> footprintOf(Operation *top, bool hostSide) {
  Footprint fp;
  bool known = true;
  top->walk([&](Operation *op) {
    if ((hostSide && isa<gpu::WaitOp>(op)) ||
        op->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
      return WalkResult::advance();
    auto iface = dyn_cast<MemoryEffectOpInterface>(op);
    if (!iface) {
      known = false;
      return WalkResult::interrupt();
    }
    SmallVector<MemoryEffects::EffectInstance> effects;
    iface.getEffects(effects);
    for (const MemoryEffects::EffectInstance &effect : effects) {
      MemoryEffects::Effect *kind = effect.getEffect();
      // A new buffer: no step before it can touch it.
      if (hostSide && isa<MemoryEffects::Allocate>(kind))
        continue;
      Value value = effect.getValue();
      Value root;
      Origin origin = value && isa<BaseMemRefType>(value.getType())
                          ? originOf(value, root)
                          : Origin::Unknown;
      bool readOrWrite = isa<MemoryEffects::Read, MemoryEffects::Write>(kind);
      if (origin == Origin::Unknown ||
          (!hostSide && (origin == Origin::Host || !readOrWrite))) {
        known = false;
        return WalkResult::interrupt();
      }
      if (origin == Origin::Host)
        continue;
      if (isa<MemoryEffects::Read>(kind))
        fp.reads.insert(root);
      else
        fp.writes.insert(root);
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

/// Whether work with footprint `b` may run before or after work with
/// footprint `a`: neither writes a buffer the other touches.
bool commute(const Footprint &a, const Footprint &b) {
  return !overlaps(a.writes, b.reads) && !overlaps(a.writes, b.writes) &&
         !overlaps(a.reads, b.writes);
}

/// Moves steps down, past the steps and host ops they commute with, so
/// that more neighbours are independent: attic-gpu-offload emits the loop
/// nests in program order, in which the independent work of a level (a
/// VCC encoder's layers: the sums of one, the scores of the next) is often
/// separated by a dependent step. A step moves only when it has no
/// partner where it is (no adjacent step of its block size that it
/// commutes with), to the farthest place on its way down right below a
/// step of its block size that it commutes with; it stops at the first
/// op it does not commute with (a step or copy that reads what it writes,
/// a host op of unknown effect). The steps are taken from the last to the
/// first, each after the later ones have moved.
///
/// The move keeps the IR valid: a step has no results but the token that
/// its own wait consumes, and its operands are defined above it.
void sinkSteps(Block &block, const StepFootprints &footprints) {
  struct Entry {
    Step step;
    const Footprint &fp;
  };
  SmallVector<Entry> steps;
  llvm::DenseMap<Operation *, size_t> startOf, endOf; // waits -> index
  for (Operation &op : block)
    if (auto it = footprints.find(&op); it != footprints.end()) {
      Step step = *asStep(cast<gpu::LaunchOp>(op));
      startOf[step.start] = endOf[step.end] = steps.size();
      steps.push_back({step, it->second});
    }
  // Each step's height in the dependence graph: 0 for a step that no
  // later step depends on, else one more than the highest later step that
  // does not commute with it. Steps of one height never conflict.
  SmallVector<int64_t> height(steps.size(), 0);
  for (size_t i = steps.size(); i-- > 0;)
    for (size_t j = i + 1; j < steps.size(); ++j)
      if (!commute(steps[i].fp, steps[j].fp))
        height[i] = std::max(height[i], height[j] + 1);
  auto skipBetween = [](Operation *op, bool down) {
    while (op && op->getNumRegions() == 0 && isMemoryEffectFree(op))
      op = down ? op->getNextNode() : op->getPrevNode();
    return op;
  };
  for (size_t index = steps.size(); index-- > 0;) {
    Entry &entry = steps[index];
    Step &step = entry.step;
    // Whether the step that `op` starts or ends (per `map`) can share a
    // launch with this one.
    auto partner =
        [&](Operation *op,
            const llvm::DenseMap<Operation *, size_t> &map) -> Entry * {
      auto it = op ? map.find(op) : map.end();
      if (it == map.end())
        return nullptr;
      Entry &other = steps[it->second];
      if (other.step.blockSize != step.blockSize ||
          !commute(entry.fp, other.fp))
        return nullptr;
      return &other;
    };
    Entry *next = partner(skipBetween(step.end->getNextNode(), true), startOf);
    bool paired =
        next || partner(skipBetween(step.start->getPrevNode(), false), endOf);
    // The farthest places on the way down right below a step of this
    // block size: one of the same height, and any.
    Operation *level = nullptr, *any = nullptr;
    Operation *op = step.end->getNextNode();
    while (op && !op->hasTrait<OpTrait::IsTerminator>()) {
      auto it = startOf.find(op);
      if (it != startOf.end()) {
        Entry &other = steps[it->second];
        if (!commute(entry.fp, other.fp))
          break;
        op = other.step.end->getNextNode();
        if (other.step.blockSize == step.blockSize) {
          any = op;
          if (height[it->second] == height[index])
            level = op;
        }
        continue;
      }
      std::optional<Footprint> opFp = footprintOf(op, /*hostSide=*/true);
      if (!opFp || !commute(entry.fp, *opFp))
        break;
      op = op->getNextNode();
    }
    // Right below the next step (already a partner): no move, the order of
    // neighbours that share a launch is kept.
    if (next && level == next->step.end->getNextNode())
      level = nullptr;
    Operation *target = level ? level : paired ? nullptr : any;
    if (!target)
      continue;
    step.start->moveBefore(target);
    step.launch->moveBefore(target);
    step.end->moveBefore(target);
  }
}

/// The runs of `block` that fuse joins: maximal sequences of consecutive
/// steps of one block size, pairwise commuting, with only effect-free
/// host ops (grid sizes) and the next step's chain start between them.
SmallVector<SmallVector<Step>> runsOf(Block &block,
                                      const StepFootprints &footprints) {
  SmallVector<SmallVector<Step>> runs;
  SmallVector<Step> run;
  Footprint runFp;
  auto flush = [&]() {
    if (!run.empty())
      runs.push_back(std::move(run));
    run.clear();
    runFp = Footprint();
  };
  for (Operation *op = &block.front(); op;) {
    Operation *next = op->getNextNode();
    auto launch = dyn_cast<gpu::LaunchOp>(op);
    if (!launch) {
      bool between = !run.empty() && op->getNumRegions() == 0 &&
                     (isMemoryEffectFree(op) ||
                      (isa<gpu::WaitOp>(op) && !op->getNumOperands()));
      if (!between)
        flush();
      op = next;
      continue;
    }
    auto it = footprints.find(launch);
    if (it == footprints.end()) {
      flush();
      op = next;
      continue;
    }
    Step step = *asStep(launch);
    const Footprint &fp = it->second;
    if (run.empty() || step.blockSize != run.back().blockSize ||
        !commute(fp, runFp))
      flush();
    run.push_back(step);
    runFp.reads.insert(fp.reads.begin(), fp.reads.end());
    runFp.writes.insert(fp.writes.begin(), fp.writes.end());
    // Past the step's end (the blocking wait right after the launch).
    op = step.end->getNextNode();
    continue;
    op = next;
  }
  flush();
  return runs;
}

void fuseInBlock(Block &block, bool levels) {
  // The steps and their footprints, once: moves keep a step's three ops
  // together and its body unchanged.
  StepFootprints footprints;
  for (Operation &op : block)
    if (auto launch = dyn_cast<gpu::LaunchOp>(op))
      if (asStep(launch))
        if (std::optional<Footprint> fp =
                footprintOf(launch, /*hostSide=*/false))
          footprints.try_emplace(launch, std::move(*fp));
  // Sinking is a heuristic: where it would leave more launches than the
  // original order, the original order stays.
  SmallVector<Operation *> order =
      llvm::map_to_vector(block, [](Operation &op) { return &op; });
  size_t before = runsOf(block, footprints).size();
  if (levels)
    sinkSteps(block, footprints);
  SmallVector<SmallVector<Step>> runs = runsOf(block, footprints);
  if (runs.size() > before) {
    Operation *end = &block.back();
    for (Operation *op : order)
      if (op != end)
        op->moveBefore(end);
    runs = runsOf(block, footprints);
  }
  for (ArrayRef<Step> run : runs)
    if (run.size() > 1)
      fuse(run);
}

struct AtticGpuFuseLaunchesPass
    : public attic::impl::AtticGpuFuseLaunchesBase<AtticGpuFuseLaunchesPass> {
  using Base::Base;
  void runOnOperation() override {
    getOperation()->walk([&](func::FuncOp func) {
      if (!func.isExternal())
        fuseInBlock(func.getBody().front(), levels);
    });
  }
};
} // namespace
