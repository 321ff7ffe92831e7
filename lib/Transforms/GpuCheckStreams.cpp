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

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
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

/// A buffer an op uses (a value whose root, Checker::find, is the buffer)
/// and whether the op writes it.
struct Use {
  Value buffer;
  bool write;
};

/// An async GPU step: the op, the buffers it uses, its stream.
struct Step {
  Operation *op;
  SmallVector<Use, 4> uses;
  unsigned stream;
};

/// A stream as gpu-to-llvm makes them: `gpu.wait async` creates one (a
/// join, with dependencies, waits for events recorded after each
/// dependency's op); an async op runs on the stream of its dependency, its
/// token names the same stream. Tokens that gpu-to-llvm takes as events
/// (block arguments, tokens of other dialects' ops) are refused
/// (checkNoTokens, checkDependencies). `after`: the steps of other streams
/// that the stream's work is ordered after (through a join's events).
struct Stream {
  Operation *creator;
  llvm::BitVector after;
};

/// Whether `value` may carry a buffer: a memref, or a TMA descriptor of one.
bool carriesBuffer(Value value) {
  return isa<BaseMemRefType, nvgpu::TensorMapDescriptorType>(value.getType());
}

bool isToken(Value value) { return isa<gpu::AsyncTokenType>(value.getType()); }

/// Whether `op` writes `value`, from its declared memory effects: reads only
/// when every effect on the value is a read, or when the op declares no
/// effects at all (memref.dim); writes otherwise, also for an op of unknown
/// effects.
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

/// Whether the ops of `body` may write `value`. An effect-free op that makes
/// a buffer of it (a view, a cast, a select) is followed to its results;
/// memref.dim and memref.rank read; any other use (a terminator that hands
/// it on, an op taking its address) counts as a write.
bool writtenIn(Region &body, Value value) {
  SmallVector<Value> pending = {value};
  llvm::DenseSet<Value> seen;
  while (!pending.empty()) {
    Value v = pending.pop_back_val();
    if (!seen.insert(v).second)
      continue;
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      if (!body.isAncestor(user->getParentRegion()))
        continue;
      if (isa<memref::DimOp, memref::RankOp>(user))
        continue;
      if (!user->hasTrait<OpTrait::IsTerminator>() && !user->getNumRegions() &&
          isMemoryEffectFree(user) &&
          llvm::any_of(user->getResults(), carriesBuffer)) {
        for (Value result : user->getResults())
          if (carriesBuffer(result))
            pending.push_back(result);
        continue;
      }
      if (isMemoryEffectFree(user) || user->getNumRegions() ||
          user->hasTrait<OpTrait::IsTerminator>() || writesValue(user, v))
        return true;
    }
  }
  return false;
}

/// Checks one host function; reports its first disorder and stops there.
class FunctionChecker {
public:
  LogicalResult check(func::FuncOp func) {
    // Unstructured control flow (after scf-to-cf) is not followed: a
    // warning, not a verdict (attic's pipelines check before it).
    WalkResult blocks = func.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (isa<gpu::LaunchOp>(op))
        return WalkResult::skip();
      for (Region &region : op->getRegions())
        if (!region.hasOneBlock() && !region.empty())
          return WalkResult::interrupt();
      return WalkResult::advance();
    });
    if (blocks.wasInterrupted()) {
      func.emitWarning("attic-gpu-check-streams does not check host code "
                       "with several blocks (unstructured control flow); "
                       "@")
          << func.getSymName() << " is not checked";
      return success();
    }
    if (llvm::any_of(func.getArguments(), isToken)) {
      attic::opError(func)
          << "takes an async token: gpu-to-llvm (MLIR 22) lowers a token "
             "argument as an event, not as a stream, so a wait on it "
             "synchronizes the wrong object";
      return failure();
    }
    for (BlockArgument arg : func.getArguments())
      if (carriesBuffer(arg))
        names[arg] = ("argument #" + Twine(arg.getArgNumber())).str();
    if (failed(visitRegion(func.getBody())))
      return failure();
    return success();
  }

private:
  /// What is known at a program point: which steps are done (a blocking
  /// wait covered them, or they cannot have run on this path), which
  /// streams are live (created and not destroyed) and which a blocking
  /// wait destroyed.
  struct State {
    llvm::BitVector done;
    llvm::DenseSet<unsigned> live;
    llvm::DenseMap<unsigned, Operation *> destroyed;
  };

  llvm::DenseMap<Value, Value> parent;
  llvm::DenseMap<Value, std::string> names;
  llvm::StringMap<Value> globals;
  llvm::DenseMap<Value, unsigned> stepOfToken, streamOfToken;
  SmallVector<Step> steps;
  SmallVector<Stream> streams;
  State state;
  /// While the second iteration of an scf.parallel is checked (one frame
  /// per loop, nested ones inside): the steps of the first iteration, and
  /// the buffers each iteration allocates for itself alone (not joined with
  /// any other buffer).
  struct PrivateFrame {
    unsigned from, to;
    SmallVector<Value> buffers;
  };
  SmallVector<PrivateFrame> privateFrames;

  // Buffers ---------------------------------------------------------------

  Value find(Value v) {
    auto it = parent.find(v);
    if (it == parent.end() || it->second == v)
      return v;
    Value root = find(it->second);
    parent[v] = root;
    return root;
  }

  /// `a` and `b` may be one buffer.
  void unite(Value a, Value b) {
    if (!carriesBuffer(a) || !carriesBuffer(b))
      return;
    Value ra = find(a), rb = find(b);
    if (ra != rb)
      parent[rb] = ra;
  }

  std::string nameOf(Value buffer) {
    for (Value v : {buffer, find(buffer)}) {
      auto it = names.find(v);
      if (it != names.end())
        return it->second;
    }
    if (Operation *def = find(buffer).getDefiningOp())
      return ("the buffer of a '" + def->getName().getStringRef() + "'").str();
    return "a buffer";
  }

  /// Whether `uses` and the uses of earlier step `index` use one buffer,
  /// one writing it; `buffer` is the earlier step's operand. Buffers that
  /// an scf.parallel's iterations allocate are their own in each (see
  /// visitRegionOp).
  bool conflict(ArrayRef<Use> uses, unsigned index, Value &buffer) {
    auto ownBuffer = [&](Value v) {
      return llvm::any_of(privateFrames, [&](const PrivateFrame &frame) {
        return index >= frame.from && index < frame.to &&
               llvm::any_of(frame.buffers,
                            [&](Value p) { return find(p) == find(v); });
      });
    };
    for (const Use &x : uses)
      for (const Use &y : steps[index].uses)
        if ((x.write || y.write) && find(x.buffer) == find(y.buffer) &&
            !ownBuffer(x.buffer)) {
          buffer = y.buffer;
          return true;
        }
    return false;
  }

  // Streams ---------------------------------------------------------------

  unsigned newStream(Operation *creator) {
    streams.push_back({creator, llvm::BitVector(steps.size())});
    return streams.size() - 1;
  }

  /// The stream of `token`, a token of a step (checkDependencies refuses
  /// others before this is asked).
  unsigned streamOf(Value token) { return streamOfToken.at(token); }

  /// The steps done when the work that `token` names is: those of its
  /// stream up to its op, and what that stream waited for.
  llvm::BitVector workOf(Value token) {
    unsigned stream = streamOf(token);
    unsigned end = stepOfToken.at(token) + 1;
    llvm::BitVector bits = streams[stream].after;
    bits.resize(steps.size());
    for (unsigned i = 0; i < end; ++i)
      if (steps[i].stream == stream)
        bits.set(i);
    return bits;
  }

  bool ordered(unsigned earlier, const Step &later) {
    const llvm::BitVector &after = streams[later.stream].after;
    return state.done.test(earlier) || steps[earlier].stream == later.stream ||
           (earlier < after.size() && after.test(earlier));
  }

  void resize() { state.done.resize(steps.size()); }

  // Ops -------------------------------------------------------------------

  LogicalResult visitRegion(Region &region) {
    for (Block &block : region)
      for (Operation &op : block)
        if (failed(visit(&op)))
          return failure();
    return success();
  }

  LogicalResult visit(Operation *op) {
    if (auto wait = dyn_cast<gpu::WaitOp>(op))
      return wait.getAsyncToken() ? visitStep(op) : visitBlockingWait(wait);
    if (auto async = dyn_cast<gpu::AsyncOpInterface>(op);
        async && async.getAsyncToken())
      return visitStep(op);
    if (auto async = dyn_cast<gpu::AsyncOpInterface>(op);
        async && !async.getAsyncDependencies().empty()) {
      attic::opError(op) << "has async dependencies but no async token; "
                            "gpu-to-llvm does not lower it (write it async, "
                            "or wait for the dependencies first)";
      return failure();
    }
    if (auto ret = dyn_cast<func::ReturnOp>(op))
      return visitReturn(ret);
    // A synchronous gpu.launch: its body's buffers are used by it, as by a
    // host op.
    if (auto launch = dyn_cast<gpu::LaunchOp>(op))
      return hostAccess(op, launchUses(launch));
    if (isa<memref::AllocOp, memref::AllocaOp>(op))
      return success();
    if (auto global = dyn_cast<memref::GetGlobalOp>(op)) {
      auto [it, inserted] =
          globals.try_emplace(global.getName(), global.getResult());
      if (!inserted)
        unite(it->second, global.getResult());
      names[global.getResult()] = ("@" + global.getName()).str();
      return success();
    }
    if (auto desc = dyn_cast<nvgpu::TmaCreateDescriptorOp>(op)) {
      unite(desc.getTensor(), desc.getResult());
      return success();
    }
    if (op->getNumRegions()) {
      // An op on memrefs with a body of its own (linalg) uses them itself;
      // host control flow hands them to its regions, which are visited.
      if (!isa_and_nonnull<scf::SCFDialect>(op->getDialect()) &&
          !isa<memref::AllocaScopeOp>(op) &&
          failed(hostAccess(op, operandUses(op))))
        return failure();
      return visitRegionOp(op);
    }
    // Views, casts, selects: their results may be any of their buffers.
    if (isMemoryEffectFree(op)) {
      for (Value result : op->getResults())
        for (Value operand : op->getOperands())
          unite(operand, result);
      return success();
    }
    return hostAccess(op, operandUses(op));
  }

  SmallVector<Use, 4> operandUses(Operation *op) {
    SmallVector<Use, 4> uses;
    for (Value operand : op->getOperands())
      if (carriesBuffer(operand))
        uses.push_back({operand, writesValue(op, operand)});
    return uses;
  }

  /// The buffers a kernel uses: the values from above its body.
  SmallVector<Use, 4> launchUses(gpu::LaunchOp launch) {
    llvm::SetVector<Value> above;
    getUsedValuesDefinedAbove(launch.getBody(), above);
    SmallVector<Use, 4> uses;
    for (Value v : above)
      if (carriesBuffer(v))
        uses.push_back({v, writtenIn(launch.getBody(), v)});
    return uses;
  }

  SmallVector<Use, 4> stepUses(Operation *op) {
    if (isa<gpu::WaitOp>(op))
      return {};
    if (auto alloc = dyn_cast<gpu::AllocOp>(op))
      return {{alloc.getMemref(), true}};
    if (auto copy = dyn_cast<gpu::MemcpyOp>(op))
      return {{copy.getDst(), true}, {copy.getSrc(), false}};
    if (auto launch = dyn_cast<gpu::LaunchOp>(op))
      return launchUses(launch);
    // Frees, memsets, launch_func (whose kernel is not at hand) and the
    // rest: every buffer operand written.
    SmallVector<Use, 4> uses;
    for (Value operand : op->getOperands())
      if (carriesBuffer(operand))
        uses.push_back({operand, true});
    return uses;
  }

  /// An error when `token`'s stream was destroyed.
  LogicalResult checkLive(Operation *op, unsigned index, Value token) {
    auto it = state.destroyed.find(streamOf(token));
    if (it == state.destroyed.end())
      return success();
    InFlightDiagnostic diag =
        attic::opError(op)
        << "uses async dependency #" << index
        << ", whose stream a blocking gpu.wait already synchronized and "
           "destroyed";
    diag.attachNote(it->second->getLoc()) << "the blocking gpu.wait";
    return failure();
  }

  LogicalResult visitBlockingWait(gpu::WaitOp wait) {
    if (failed(checkDependencies(wait, wait.getAsyncDependencies())))
      return failure();
    // gpu-to-llvm: mgpuStreamSynchronize and mgpuStreamDestroy of each
    // dependency's stream, in order (a wait without dependencies is
    // erased).
    for (auto [i, dep] : llvm::enumerate(wait.getAsyncDependencies())) {
      if (failed(checkLive(wait, i, dep)))
        return failure();
      unsigned stream = streamOf(dep);
      // The stream's work so far, and what it waited for.
      for (auto [j, step] : llvm::enumerate(steps))
        if (step.stream == stream)
          state.done.set(j);
      llvm::BitVector after = streams[stream].after;
      after.resize(steps.size());
      state.done |= after;
      state.destroyed[stream] = wait;
      state.live.erase(stream);
    }
    return success();
  }

  /// An error for the dependencies gpu-to-llvm does not lower as streams:
  /// a token of an op outside the gpu dialect (it is taken as an event).
  LogicalResult checkDependencies(Operation *op, ValueRange deps) {
    for (auto [i, dep] : llvm::enumerate(deps)) {
      if (streamOfToken.count(dep))
        continue;
      Operation *def = dep.getDefiningOp();
      attic::opError(op)
          << "uses async dependency #" << i << ", a token of '"
          << (def ? def->getName().getStringRef() : StringRef("?"))
          << "', not of a gpu op: gpu-to-llvm (MLIR 22) lowers it as an "
             "event, not as a stream, so a wait on it synchronizes the "
             "wrong object";
      return failure();
    }
    return success();
  }

  LogicalResult visitStep(Operation *op) {
    auto async = cast<gpu::AsyncOpInterface>(op);
    ValueRange deps = async.getAsyncDependencies();
    if (failed(checkDependencies(op, deps)))
      return failure();
    // (A kernel launch without one starts a stream, as gpu.wait async.)
    if (!isa<gpu::WaitOp, gpu::LaunchOp, gpu::LaunchFuncOp>(op) &&
        deps.empty()) {
      attic::opError(op) << "is async without a dependency; gpu-to-llvm "
                            "lowers an async step with one (start a stream "
                            "with gpu.wait async)";
      return failure();
    }
    // A join inside a loop on a token from outside it: gpu-to-llvm records
    // the event once, after the token's op, and destroys it in the first
    // iteration.
    if (isa<gpu::WaitOp>(op))
      for (Value dep : deps)
        for (Operation *parent = op->getParentOp(),
                       *owner = dep.getParentRegion()->getParentOp();
             parent && !parent->isAncestor(owner);
             parent = parent->getParentOp())
          if (!isa<scf::IfOp, scf::IndexSwitchOp, affine::AffineIfOp,
                   scf::ExecuteRegionOp, memref::AllocaScopeOp>(parent)) {
            attic::opError(op)
                << "joins a token from outside the enclosing '"
                << parent->getName()
                << "': gpu-to-llvm records its event once, after the "
                   "token's op, and destroys it in the first iteration; "
                   "join outside the loop";
            return failure();
          }
    for (auto [i, dep] : llvm::enumerate(deps))
      if (failed(checkLive(op, i, dep)))
        return failure();
    Step step{op, stepUses(op), 0};
    if (isa<gpu::WaitOp>(op) || deps.empty()) {
      // A new stream, after the events of its dependencies.
      step.stream = newStream(op);
      for (Value dep : deps)
        streams[step.stream].after |= workOf(dep);
      state.live.insert(step.stream);
    } else {
      // gpu-to-llvm lowers an async step with one dependency (it leaves
      // others unconverted), on that token's stream.
      if (deps.size() > 1) {
        attic::opError(op)
            << "has " << deps.size()
            << " async dependencies; gpu-to-llvm lowers a step with one: "
               "join them with gpu.wait async first";
        return failure();
      }
      step.stream = streamOf(deps.front());
    }
    for (auto [i, earlier] : llvm::enumerate(steps)) {
      Value buffer;
      if (ordered(i, step) || !conflict(step.uses, i, buffer))
        continue;
      InFlightDiagnostic diag =
          attic::opError(op)
          << "may run on the GPU at the same time as an earlier '"
          << earlier.op->getName() << "': both use " << nameOf(buffer)
          << ", one writing it, and they are on two streams that no token "
             "or blocking gpu.wait orders";
      diag.attachNote(earlier.op->getLoc()) << "the earlier step";
      return failure();
    }
    steps.push_back(std::move(step));
    Value token = async.getAsyncToken();
    stepOfToken[token] = steps.size() - 1;
    streamOfToken[token] = steps.back().stream;
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
      if (state.done.test(i) || !conflict(uses, i, buffer))
        continue;
      InFlightDiagnostic diag =
          attic::opError(op)
          << "uses " << nameOf(buffer) << " on the host while an earlier '"
          << step.op->getName()
          << "' may still be using it on the GPU, one of them writing it: "
             "no blocking gpu.wait on its stream comes before";
      diag.attachNote(step.op->getLoc()) << "the earlier step";
      return failure();
    }
    return success();
  }

  LogicalResult visitReturn(func::ReturnOp ret) {
    SmallVector<Use, 4> uses;
    for (Value operand : ret.getOperands())
      if (carriesBuffer(operand))
        uses.push_back({operand, false});
    if (failed(hostAccess(ret, uses)))
      return failure();
    for (auto [i, step] : llvm::enumerate(steps)) {
      if (state.done.test(i) || step.uses.empty())
        continue;
      InFlightDiagnostic diag =
          attic::opError(ret)
          << "returns while an earlier '" << step.op->getName()
          << "' may be pending on the GPU: no blocking gpu.wait on its "
             "stream comes before";
      diag.attachNote(step.op->getLoc()) << "the pending step";
      return failure();
    }
    for (unsigned stream = 0; stream < streams.size(); ++stream) {
      if (!state.live.contains(stream))
        continue;
      InFlightDiagnostic diag =
          attic::opError(ret)
          << "returns while a stream that a '"
          << streams[stream].creator->getName()
          << "' created is live: no blocking gpu.wait synchronizes and "
             "destroys it";
      diag.attachNote(streams[stream].creator->getLoc())
          << "the op that creates the stream";
      return failure();
    }
    return success();
  }

  // Host control flow -----------------------------------------------------

  /// Paths through an op with regions: each path starts from `before` with
  /// the steps of the paths before it done (they did not run on it).
  State startPath(const State &before, unsigned first) {
    State path = before;
    path.done.resize(steps.size());
    for (unsigned i = first; i < steps.size(); ++i)
      path.done.set(i);
    return path;
  }

  /// After an op with regions: a step is done when it is done at the end of
  /// every path (the steps made after a path's end belong to later paths:
  /// done on it); a stream is live or destroyed when it is on some path.
  void joinPaths(SmallVectorImpl<State> &exits) {
    for (State &exit : exits)
      exit.done.resize(steps.size(), true);
    state = exits.front();
    for (const State &exit : ArrayRef(exits).drop_front()) {
      state.done &= exit.done;
      state.live.insert(exit.live.begin(), exit.live.end());
      for (auto &[stream, wait] : exit.destroyed)
        state.destroyed.try_emplace(stream, wait);
    }
  }

  /// The buffers that `loop`'s body allocates and joins with no buffer from
  /// elsewhere (an argument, another allocation, a global, a call's
  /// result): each iteration has its own.
  SmallVector<Value> ownBuffers(Operation *loop) {
    llvm::DenseSet<Value> allocated;
    loop->walk<WalkOrder::PreOrder>([&](Operation *inner) {
      if (isa<gpu::LaunchOp>(inner))
        return WalkResult::skip();
      if (isa<memref::AllocOp, memref::AllocaOp, gpu::AllocOp>(inner))
        allocated.insert(inner->getResult(0));
      return WalkResult::advance();
    });
    auto origin = [&](Value v) {
      if (auto arg = dyn_cast<BlockArgument>(v))
        return isa<func::FuncOp>(arg.getOwner()->getParentOp());
      Operation *def = v.getDefiningOp();
      return isa<memref::AllocOp, memref::AllocaOp, gpu::AllocOp,
                 memref::GetGlobalOp>(def) ||
             !isMemoryEffectFree(def);
    };
    llvm::DenseSet<Value> mixed;
    for (auto &[v, p] : parent)
      for (Value member : {v, find(v)})
        if (origin(member) && !allocated.contains(member))
          mixed.insert(find(member));
    SmallVector<Value> own;
    for (Value v : allocated)
      if (!mixed.contains(find(v)))
        own.push_back(v);
    return own;
  }

  /// The values that the terminators of `op`'s regions hand to its result
  /// `i` (scf.yield, memref.alloca_scope.return: the return-like ones).
  SmallVector<Value> yieldedTo(Operation *op, unsigned i) {
    SmallVector<Value> values;
    for (Region &region : op->getRegions())
      for (Block &block : region)
        if (Operation *term = block.empty() ? nullptr : &block.back();
            term && term->hasTrait<OpTrait::ReturnLike>() &&
            i < term->getNumOperands())
          values.push_back(term->getOperand(i));
    return values;
  }

  /// The buffers that may be one through `op`'s regions: its results and
  /// what its terminators hand them, the regions' arguments and what
  /// initializes them.
  void uniteThroughRegions(Operation *op) {
    if (auto whileOp = dyn_cast<scf::WhileOp>(op)) {
      Block &before = whileOp.getBefore().front(),
            &after = whileOp.getAfter().front();
      scf::ConditionOp condition = whileOp.getConditionOp();
      for (auto [init, arg, yielded] :
           llvm::zip(whileOp.getInits(), before.getArguments(),
                     whileOp.getYieldOp().getOperands())) {
        unite(init, arg);
        unite(yielded, arg);
      }
      for (auto [passed, result, arg] :
           llvm::zip(condition.getArgs(), whileOp.getResults(),
                     after.getArguments())) {
        unite(passed, result);
        unite(passed, arg);
      }
      return;
    }
    for (OpResult result : op->getResults())
      for (Value v : yieldedTo(op, result.getResultNumber()))
        unite(v, result);
    // A loop's initial value, iteration argument, yielded value and result
    // may all be one (a later iteration, or none at all).
    auto loop = dyn_cast<LoopLikeOpInterface>(op);
    if (!loop)
      return;
    SmallVector<Value> inits(loop.getInits());
    Block::BlockArgListType args = loop.getRegionIterArgs();
    std::optional<ResultRange> results = loop.getLoopResults();
    std::optional<MutableArrayRef<OpOperand>> yielded =
        loop.getYieldedValuesMutable();
    for (unsigned i = 0; i < inits.size(); ++i) {
      if (i < args.size())
        unite(inits[i], args[i]);
      if (results && i < results->size())
        unite(inits[i], (*results)[i]);
      if (yielded && i < yielded->size())
        unite(inits[i], (*yielded)[i].get());
    }
    // scf.parallel's reductions: what each iteration reduces.
    // (Its LoopLikeOpInterface has no inits.)
    if (auto parallel = dyn_cast<scf::ParallelOp>(op))
      for (auto [init, operand, result] :
           llvm::zip(parallel.getInitVals(),
                     parallel.getBody()->getTerminator()->getOperands(),
                     parallel.getResults())) {
        unite(init, result);
        unite(operand, result);
      }
  }

  /// An error for an async token that passes a region's boundary (a
  /// result, an argument of a region): scf-to-cf makes it a block
  /// argument, which MLIR 22's gpu-to-llvm lowers as an event, not the
  /// stream it names, so a blocking wait on it synchronizes the wrong
  /// object and the stream is never destroyed.
  LogicalResult checkNoTokens(Operation *op) {
    auto report =
        [&](StringRef what) {
          attic::opError(op)
              << "passes an async token through " << what
              << ": gpu-to-llvm (MLIR 22) lowers a token that reaches a block "
                 "argument as an event, not as its stream, so a wait on it "
                 "synchronizes the wrong object; keep a stream's steps and "
                 "their wait in one region";
          return failure();
        };
    if (llvm::any_of(op->getResults(), isToken))
      return report("its results");
    for (Region &region : op->getRegions())
      for (Block &block : region)
        if (llvm::any_of(block.getArguments(), isToken))
          return report("its regions' arguments");
    return success();
  }

  /// Host control flow: an `scf.if` or `scf.index_switch` runs one of its
  /// regions (a path each); `scf.execute_region` and `memref.alloca_scope`
  /// run theirs once; `scf.parallel` and `scf.forall` run iterations at the
  /// same time (checked twice, the second against the first's steps as if
  /// nothing had waited for them); any other loop (or op with regions) runs
  /// its body any number of times in a row: checked twice, the second
  /// iteration against what the first leaves, and joined with the path
  /// that skips it.
  LogicalResult visitRegionOp(Operation *op) {
    if (failed(checkNoTokens(op)))
      return failure();
    uniteThroughRegions(op);
    State before = state;
    unsigned first = steps.size();
    SmallVector<State> exits;
    if (isa<scf::IfOp, scf::IndexSwitchOp, affine::AffineIfOp>(op)) {
      // An scf.if without else: its empty else region is the path that
      // skips the then region.
      for (Region &region : op->getRegions()) {
        state = startPath(before, first);
        if (failed(visitRegion(region)))
          return failure();
        exits.push_back(state);
      }
      joinPaths(exits);
    } else if (isa<scf::ExecuteRegionOp, memref::AllocaScopeOp>(op)) {
      for (Region &region : op->getRegions())
        if (failed(visitRegion(region)))
          return failure();
    } else if (isa<scf::ParallelOp, scf::ForallOp>(op)) {
      for (Region &region : op->getRegions())
        if (failed(visitRegion(region)))
          return failure();
      State once = state;
      unsigned second = steps.size();
      // The second iteration does not wait for the first's steps, and has
      // buffers of its own.
      state.done = before.done;
      resize();
      privateFrames.push_back({first, second, ownBuffers(op)});
      for (Region &region : op->getRegions())
        if (failed(visitRegion(region)))
          return failure();
      privateFrames.pop_back();
      // Both iterations end before the loop does.
      once.done.resize(steps.size());
      for (unsigned i = first; i < second; ++i)
        if (once.done.test(i))
          state.done.set(i);
      exits.push_back(state);
      exits.push_back(startPath(before, first));
      joinPaths(exits);
    } else {
      for (int iteration = 0; iteration < 2; ++iteration)
        for (Region &region : op->getRegions())
          if (failed(visitRegion(region)))
            return failure();
      exits.push_back(state);
      exits.push_back(startPath(before, first));
      joinPaths(exits);
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
