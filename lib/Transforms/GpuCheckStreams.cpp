//===- GpuCheckStreams.cpp - attic-gpu-check-streams ----------------------===//
//
// attic-gpu-check-streams: a static check of the order of a host
// function's GPU steps (allocations, copies, kernels, frees). Two steps
// that use one buffer, one of them writing it, must be ordered by their
// async tokens or by a blocking gpu.wait between them; the host touches a
// buffer only after the steps that use it are done; no token is used after
// a blocking gpu.wait synchronized and destroyed its stream; a function
// returns with no step pending.
//
// The emulated and simulated CUDA targets run steps in the order they are
// issued, so a missing token edge does not change their results; on a GPU
// two streams run concurrently. Two such races (attic-gpu-offload moving a
// chain's start above a kernel, which attic-gpu-merge-chains then put on a
// new stream) were found only by reading the IR; this pass finds them in
// every program the CUDA pipelines compile. See AtticPasses.td.
//
//===----------------------------------------------------------------------===//

#include "attic/Support/Diagnostics.h"
#include "attic/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/SetVector.h"

namespace attic {
#define GEN_PASS_DEF_ATTICGPUCHECKSTREAMS
#include "AtticPasses.h.inc"
} // namespace attic

using namespace mlir;

namespace {

/// A buffer (the root of a view chain) and whether an op writes it.
struct Use {
  Value buffer;
  bool write;
};

/// An async GPU step: the op, the buffers it uses, the steps its tokens
/// order it after.
struct Step {
  Operation *op;
  SmallVector<Use, 4> uses;
  llvm::BitVector after;
};

/// Whether `value` may carry a buffer: a memref, or a TMA descriptor of one.
bool carriesBuffer(Value value) {
  return isa<BaseMemRefType, nvgpu::TensorMapDescriptorType>(value.getType());
}

/// Whether `op` writes `value` (or a view of it), from its declared memory
/// effects: reads only when every effect on the value is a read, or when
/// the op has none at all (memref.dim); writes otherwise, also for an op of
/// unknown effects.
bool writesValue(Operation *op, Value value) {
  auto iface = dyn_cast<MemoryEffectOpInterface>(op);
  if (!iface)
    return true;
  SmallVector<MemoryEffects::EffectInstance> effects;
  iface.getEffects(effects);
  if (effects.empty())
    return false;
  bool onValue = false;
  for (const MemoryEffects::EffectInstance &effect : effects) {
    if (effect.getValue() != value)
      continue;
    onValue = true;
    if (!isa<MemoryEffects::Read>(effect.getEffect()))
      return true;
  }
  // Effects on other values or on no value at all: they may reach this
  // buffer.
  return !onValue;
}

/// Whether the ops of `body` may write `value`, through views made there.
bool writtenIn(Region &body, Value value) {
  SmallVector<Value> pending = {value};
  while (!pending.empty()) {
    Value v = pending.pop_back_val();
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      if (!body.isAncestor(user->getParentRegion()))
        continue;
      if (isa<ViewLikeOpInterface, CastOpInterface, UnrealizedConversionCastOp>(
              user) &&
          isMemoryEffectFree(user)) {
        for (Value result : user->getResults())
          if (carriesBuffer(result))
            pending.push_back(result);
        continue;
      }
      if (writesValue(user, v))
        return true;
    }
  }
  return false;
}

/// Checks one host function; reports its first disorder and stops there.
class FunctionChecker {
public:
  LogicalResult check(func::FuncOp func) {
    for (BlockArgument arg : func.getArguments())
      if (carriesBuffer(arg))
        names[arg] = ("argument #" + Twine(arg.getArgNumber())).str();
    return visitRegion(func.getBody());
  }

private:
  /// What is known at a program point: which steps are done (a blocking
  /// wait covered them, or they cannot have run on this path), which
  /// tokens a blocking wait destroyed.
  struct State {
    llvm::BitVector done;
    llvm::DenseMap<Value, Operation *> destroyed;
  };

  llvm::DenseMap<Value, Value> roots;
  llvm::DenseMap<Value, std::string> names;
  llvm::DenseMap<Value, unsigned> stepOfToken;
  SmallVector<Step> steps;
  State state;

  Value rootOf(Value v) {
    auto it = roots.find(v);
    return it == roots.end() ? v : it->second;
  }

  std::string nameOf(Value buffer) {
    auto it = names.find(buffer);
    if (it != names.end())
      return it->second;
    if (Operation *def = buffer.getDefiningOp())
      return ("the buffer of a '" + def->getName().getStringRef() + "'").str();
    return "a buffer";
  }

  void resize() { state.done.resize(steps.size()); }

  LogicalResult visitRegion(Region &region) {
    for (Block &block : region)
      for (Operation &op : block)
        if (failed(visit(&op)))
          return failure();
    return success();
  }

  LogicalResult visit(Operation *op) {
    if (auto wait = dyn_cast<gpu::WaitOp>(op))
      return visitWait(wait);
    if (isa<gpu::AsyncOpInterface>(op) &&
        cast<gpu::AsyncOpInterface>(op).getAsyncToken())
      return visitStep(op);
    if (auto ret = dyn_cast<func::ReturnOp>(op))
      return visitReturn(ret);
    // A synchronous gpu.launch (or any op with regions that is not a
    // kernel): its body's buffers are used by it, as by a host op.
    if (isa<gpu::LaunchOp>(op))
      return hostAccess(op, launchUses(cast<gpu::LaunchOp>(op)));
    if (isa<memref::AllocOp, memref::AllocaOp, memref::GetGlobalOp>(op))
      return success();
    if (auto desc = dyn_cast<nvgpu::TmaCreateDescriptorOp>(op)) {
      roots[desc.getResult()] = rootOf(desc.getTensor());
      return success();
    }
    if (op->getNumRegions())
      return visitRegionOp(op);
    // Views and casts: the root of their source.
    if (isMemoryEffectFree(op)) {
      Value source;
      for (Value operand : op->getOperands())
        if (carriesBuffer(operand)) {
          source = operand;
          break;
        }
      if (source)
        for (Value result : op->getResults())
          if (carriesBuffer(result))
            roots[result] = rootOf(source);
      return success();
    }
    SmallVector<Use, 4> uses;
    for (Value operand : op->getOperands())
      if (carriesBuffer(operand))
        uses.push_back({rootOf(operand), writesValue(op, operand)});
    return hostAccess(op, uses);
  }

  /// The buffers a kernel uses: the values from above its body.
  SmallVector<Use, 4> launchUses(gpu::LaunchOp launch) {
    llvm::SetVector<Value> above;
    getUsedValuesDefinedAbove(launch.getBody(), above);
    SmallVector<Use, 4> uses;
    for (Value v : above)
      if (carriesBuffer(v))
        uses.push_back({rootOf(v), writtenIn(launch.getBody(), v)});
    return uses;
  }

  SmallVector<Use, 4> stepUses(Operation *op) {
    if (auto alloc = dyn_cast<gpu::AllocOp>(op))
      return {{alloc.getMemref(), true}};
    if (auto copy = dyn_cast<gpu::MemcpyOp>(op))
      return {{rootOf(copy.getDst()), true}, {rootOf(copy.getSrc()), false}};
    if (auto launch = dyn_cast<gpu::LaunchOp>(op))
      return launchUses(launch);
    // Frees, memsets, launch_func (whose kernel is not at hand) and the
    // rest: every buffer operand written.
    SmallVector<Use, 4> uses;
    for (Value operand : op->getOperands())
      if (carriesBuffer(operand))
        uses.push_back({rootOf(operand), true});
    return uses;
  }

  static bool conflict(ArrayRef<Use> a, ArrayRef<Use> b, Value &buffer) {
    for (const Use &x : a)
      for (const Use &y : b)
        if (x.buffer == y.buffer && (x.write || y.write)) {
          buffer = x.buffer;
          return true;
        }
    return false;
  }

  /// The steps that token `token` is ordered after, itself included (none
  /// for a token that no step of this function made).
  llvm::BitVector closure(Value token) {
    llvm::BitVector bits(steps.size());
    auto it = stepOfToken.find(token);
    if (it != stepOfToken.end()) {
      bits = steps[it->second].after;
      bits.resize(steps.size());
      bits.set(it->second);
    }
    return bits;
  }

  LogicalResult checkLive(Operation *op, ValueRange deps) {
    for (auto [i, dep] : llvm::enumerate(deps)) {
      auto it = state.destroyed.find(dep);
      if (it == state.destroyed.end())
        continue;
      InFlightDiagnostic diag = attic::opError(op)
                                << "uses async dependency #" << i
                                << ", whose stream a blocking gpu.wait "
                                   "already synchronized and destroyed";
      diag.attachNote(it->second->getLoc()) << "the blocking gpu.wait";
      return failure();
    }
    return success();
  }

  LogicalResult visitWait(gpu::WaitOp wait) {
    if (failed(checkLive(wait, wait.getAsyncDependencies())))
      return failure();
    if (wait.getAsyncToken())
      return visitStep(wait);
    // gpu-to-llvm: mgpuStreamSynchronize and mgpuStreamDestroy of each
    // dependency's stream (a wait without dependencies is erased).
    for (Value dep : wait.getAsyncDependencies()) {
      state.done |= closure(dep);
      state.destroyed[dep] = wait;
    }
    return success();
  }

  LogicalResult visitStep(Operation *op) {
    auto async = cast<gpu::AsyncOpInterface>(op);
    if (failed(checkLive(op, async.getAsyncDependencies())))
      return failure();
    Step step{op, isa<gpu::WaitOp>(op) ? SmallVector<Use, 4>{} : stepUses(op),
              llvm::BitVector(steps.size())};
    for (Value dep : async.getAsyncDependencies())
      step.after |= closure(dep);
    for (auto [i, earlier] : llvm::enumerate(steps)) {
      Value buffer;
      if (state.done.test(i) || step.after.test(i) ||
          !conflict(step.uses, earlier.uses, buffer))
        continue;
      InFlightDiagnostic diag =
          attic::opError(op)
          << "may run on the GPU at the same time as an earlier '"
          << earlier.op->getName() << "': both use " << nameOf(buffer)
          << ", one writing it, and no async token or blocking gpu.wait "
             "orders them";
      diag.attachNote(earlier.op->getLoc()) << "the earlier step";
      return failure();
    }
    steps.push_back(std::move(step));
    // A loop's second iteration defines the token anew.
    stepOfToken[async.getAsyncToken()] = steps.size() - 1;
    state.destroyed.erase(async.getAsyncToken());
    resize();
    if (auto alloc = dyn_cast<gpu::AllocOp>(op))
      names[alloc.getMemref()] = "the buffer of a 'gpu.alloc'";
    return success();
  }

  /// The first step not done that uses what `uses` uses, one of them
  /// writing.
  LogicalResult hostAccess(Operation *op, ArrayRef<Use> uses) {
    for (auto [i, step] : llvm::enumerate(steps)) {
      Value buffer;
      if (state.done.test(i) || !conflict(uses, step.uses, buffer))
        continue;
      InFlightDiagnostic diag =
          attic::opError(op)
          << "uses " << nameOf(buffer) << " on the host while an earlier '"
          << step.op->getName()
          << "' may still be using it on the GPU, one of them writing it: "
             "no blocking gpu.wait on its token comes before";
      diag.attachNote(step.op->getLoc()) << "the earlier step";
      return failure();
    }
    return success();
  }

  LogicalResult visitReturn(func::ReturnOp ret) {
    SmallVector<Use, 4> uses;
    for (Value operand : ret.getOperands())
      if (carriesBuffer(operand))
        uses.push_back({rootOf(operand), false});
    if (failed(hostAccess(ret, uses)))
      return failure();
    // A pending step that does work, else a stream left live.
    std::optional<unsigned> work, stream;
    for (auto [i, step] : llvm::enumerate(steps)) {
      if (state.done.test(i))
        continue;
      std::optional<unsigned> &first =
          isa<gpu::WaitOp>(step.op) ? stream : work;
      if (!first)
        first = i;
    }
    if (!work && !stream)
      return success();
    Operation *step = steps[work ? *work : *stream].op;
    if (!work) {
      InFlightDiagnostic diag =
          attic::opError(ret)
          << "returns while a stream that a 'gpu.wait async' created is "
             "live: no blocking gpu.wait synchronizes and destroys it";
      diag.attachNote(step->getLoc()) << "the stream's gpu.wait async";
      return failure();
    }
    InFlightDiagnostic diag =
        attic::opError(ret)
        << "returns while an earlier '" << step->getName()
        << "' may be pending on the GPU: no blocking gpu.wait on its "
           "token comes before (its stream stays live)";
    diag.attachNote(step->getLoc()) << "the pending step";
    return failure();
  }

  /// Host control flow: each region is a path of its own. An `scf.if`
  /// runs one of its regions; a loop (or any other op with regions) runs
  /// its body any number of times, checked twice in a row (a second
  /// iteration against what the first leaves pending) and joined with the
  /// path that skips it. After the op, a step is done when it is done on
  /// every path (a step of another path is done on this one: it did not
  /// run), and a token is destroyed when it is on some path.
  LogicalResult visitRegionOp(Operation *op) {
    State before = state;
    unsigned first = steps.size();
    SmallVector<State> exits;
    auto markOthersDone = [&](unsigned from) {
      resize();
      for (unsigned i = from; i < steps.size(); ++i)
        state.done.set(i);
    };
    if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
      if (failed(visitRegion(ifOp.getThenRegion())))
        return failure();
      exits.push_back(state);
      state = before;
      markOthersDone(first);
      if (failed(visitRegion(ifOp.getElseRegion())))
        return failure();
      exits.push_back(state);
    } else {
      for (int iteration = 0; iteration < 2; ++iteration)
        for (Region &region : op->getRegions())
          if (failed(visitRegion(region)))
            return failure();
      exits.push_back(state);
      state = before;
      markOthersDone(first);
      exits.push_back(state);
    }
    // The steps made after a path's exit belong to the paths after it:
    // done on this one.
    for (State &exit : exits)
      exit.done.resize(steps.size(), true);
    state = exits.front();
    for (const State &exit : ArrayRef(exits).drop_front()) {
      state.done &= exit.done;
      for (auto &[token, wait] : exit.destroyed)
        state.destroyed.try_emplace(token, wait);
    }
    return success();
  }
};

struct AtticGpuCheckStreamsPass
    : public attic::impl::AtticGpuCheckStreamsBase<AtticGpuCheckStreamsPass> {
  void runOnOperation() override {
    bool failed = false;
    getOperation().walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (isa<gpu::GPUModuleOp>(op))
        return WalkResult::skip();
      if (auto func = dyn_cast<func::FuncOp>(op)) {
        if (!func.isExternal() && mlir::failed(FunctionChecker().check(func)))
          failed = true;
        return WalkResult::skip();
      }
      return WalkResult::advance();
    });
    if (failed)
      signalPassFailure();
  }
};

} // namespace
