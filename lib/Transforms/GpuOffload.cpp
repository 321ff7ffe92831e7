//===- GpuOffload.cpp - bufferized functions onto the GPU -------*- C++ -*-===//
//
// attic-gpu-offload: the data-movement and reduction primitives (what
// attic-expand-vcc, linalg and the SIMT attention produce) run on the GPU.
// After bufferization a function is a straight-line sequence, at its top
// level, of allocations, parallel loop nests (from linalg and
// tensor.generate), sequential loops (scans, Algorithm 2), copies and
// attic.block_attention ops. This pass keeps every buffer of the function on
// the device and turns each of those steps into a kernel:
//
//   host (before)                       host (after)
//   %a = memref.alloc                   %a = gpu.alloc (device)
//   scf.parallel (i, j) ...             gpu.launch: thread t -> (i, j)
//   scf.for ... (a scan)                gpu.launch of 1 thread
//   memref.copy %x, %y                  gpu.launch: thread t -> element
//   tile grid (attic.tile_grid)         left for attic-gpu-map-tiles
//   memref.dealloc %a                   gpu.dealloc %a
//   return %r                           host alloc %h, gpu.memcpy %h <- %r
//
// Memref arguments (host memory) are copied to device buffers at entry. Each
// step is its own token chain ending in a blocking gpu.wait: kernels run in
// program order, and host code never touches device memory
// (attic-gpu-merge-chains later joins the chains into one stream).
//
// The runtime's error channel (attic_rt_report_error, e.g. "more VIP tokens
// than num_vip") is a host function that kernels cannot call. Inside kernels
// a call becomes an atomic increment of a device counter; the thread that
// finds it 0 records code and arguments. At exit the host copies the record
// back and calls attic_rt_report_error once per report, so the message and
// the "(and N more reports)" count are those of the CPU.
//
//===----------------------------------------------------------------------===//

#include "attic/Dialect/Attic/AtticDialect.h"
#include "attic/Support/Diagnostics.h"
#include "attic/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

namespace attic {
#define GEN_PASS_DEF_ATTICGPUOFFLOAD
#include "AtticPasses.h.inc"
} // namespace attic

using namespace mlir;
using namespace attic;

namespace {

constexpr StringLiteral kReportFn = "attic_rt_report_error";

using Builder = ImplicitLocOpBuilder;

/// A tile grid of attic-tile-block-attention: left for attic-gpu-map-tiles,
/// which makes it a kernel of its own (its scratch tiles are registers,
/// shared or private memory, not device buffers).
bool isTileGrid(Operation *op) {
  return isa<TileGridOp>(op) ||
         (isa<scf::ParallelOp>(op) && op->hasAttr(kTileGridAttrName));
}
bool inTileGrid(Operation *op) {
  for (Operation *p = op->getParentOp(); p; p = p->getParentOp())
    if (isTileGrid(p))
      return true;
  return false;
}

Value cIndex(Builder &b, int64_t v) {
  return arith::ConstantIndexOp::create(b, v);
}

/// One step of device work on its own token chain: `gpu.wait async`, the
/// ops that `body` creates (each takes and returns the token), and a
/// blocking `gpu.wait`.
struct Chain {
  Builder &b;
  Value token;
  explicit Chain(Builder &b) : b(b) {
    token = gpu::WaitOp::create(b, gpu::AsyncTokenType::get(b.getContext()),
                                ValueRange{})
                .getAsyncToken();
  }
  Type tokenType() { return gpu::AsyncTokenType::get(b.getContext()); }
  Value alloc(MemRefType type, ValueRange sizes) {
    auto op = gpu::AllocOp::create(b, type, tokenType(), ValueRange{token},
                                   sizes, ValueRange{}, UnitAttr());
    token = op.getAsyncToken();
    return op.getMemref();
  }
  void copy(Value dst, Value src) {
    token = gpu::MemcpyOp::create(b, tokenType(), ValueRange{token}, dst, src)
                .getAsyncToken();
  }
  void free(Value memref) {
    token = gpu::DeallocOp::create(b, tokenType(), ValueRange{token}, memref)
                .getAsyncToken();
  }
  Operation *finish() {
    return gpu::WaitOp::create(b, Type(), ValueRange{token});
  }
};

SmallVector<Value> dynamicSizes(Builder &b, Value memref) {
  auto type = cast<MemRefType>(memref.getType());
  SmallVector<Value> sizes;
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (type.isDynamicDim(d))
      sizes.push_back(memref::DimOp::create(b, memref, d));
  return sizes;
}

/// The buffer a view is taken from (through view-like ops).
Value rootOf(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (auto view = dyn_cast<ViewLikeOpInterface>(def)) {
      v = view.getViewSource();
      continue;
    }
    if (auto meta = dyn_cast<memref::ExtractStridedMetadataOp>(def)) {
      v = meta.getSource();
      continue;
    }
    break;
  }
  return v;
}

bool isScalarInt(Type t) { return t.isIndex() || isa<IntegerType>(t); }

class Offloader {
public:
  Offloader(func::FuncOp func, int64_t blockSize)
      : func(func), blockSize(blockSize) {}

  LogicalResult run();

private:
  LogicalResult check();
  void lowerCopies();
  void makeErrorRecord();
  void moveArgumentsToDevice();
  void moveGlobalsToDevice();
  void moveAllocationsToDevice();
  void rewriteReports();
  LogicalResult kernelize();
  void launchParallel(scf::ParallelOp loop);
  void launchSequential(ArrayRef<Operation *> ops);
  void sequentializeNestedLoops();
  void rewriteReturns();

  bool isHostOp(Operation *op);

  func::FuncOp func;
  int64_t blockSize;
  /// Device copies of the memref arguments (argument number, buffer).
  SmallVector<std::pair<unsigned, Value>> argCopies;
  /// Device copies of memref.get_global constants (freed at exit).
  SmallVector<Value> globalCopies;
  /// [count, code, a, b, c] on the device, when the function reports.
  Value errorRecord;
  /// The end of the error record's set-up (its zeros stored on the host
  /// and copied): the argument copies come after it, so that nothing on
  /// the host separates them from the kernels (attic-gpu-merge-chains).
  Operation *errorRecordReady = nullptr;
  SmallVector<func::CallOp> reports;
  /// Ops created by this pass that stay on the host.
  llvm::DenseSet<Operation *> hostMade;
};

LogicalResult Offloader::check() {
  if (!func.getBody().hasOneBlock())
    return attic::opError(func, "has several blocks; attic-gpu-offload runs "
                                "before the lowering of scf to cf");
  Block &body = func.getBody().front();
  bool failed = false;
  bool onTensors = false;
  auto isTensor = [](Type type) { return isa<TensorType>(type); };
  func.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (!onTensors && (llvm::any_of(op->getOperandTypes(), isTensor) ||
                       llvm::any_of(op->getResultTypes(), isTensor))) {
      // Once per function: the rest of it is on tensors too.
      attic::opError(op, "has tensor operands or results; attic-gpu-offload "
                         "runs on bufferized code (after one-shot "
                         "bufferization and convert-linalg-to-parallel-loops)");
      onTensors = failed = true;
      return WalkResult::advance();
    }
    if (isa<scf::IfOp, scf::IndexSwitchOp>(op)) {
      // A branch that allocates or holds a tile grid: one error on the
      // branch op, naming what it holds, rather than one per buffer and
      // grid inside it (with their IR).
      Operation *inside = nullptr;
      auto find = [&](llvm::function_ref<bool(Operation *)> wanted) {
        op->walk([&](Operation *nested) {
          if (!wanted(nested))
            return WalkResult::advance();
          inside = nested;
          return WalkResult::interrupt();
        });
        return inside != nullptr;
      };
      // An attention's grid is named before the buffers it writes.
      (void)(find([&](Operation *o) { return isTileGrid(o); }) ||
             find([](Operation *o) {
               return isa_and_nonnull<AtticDialect>(o->getDialect());
             }) ||
             find([](Operation *o) { return isa<memref::AllocOp>(o); }));
      if (inside) {
        InFlightDiagnostic diag =
            attic::opError(op, "cannot be offloaded by attic-gpu-offload: ");
        diag << (isTileGrid(inside)             ? "an attention's tile grid"
                 : isa<memref::AllocOp>(inside) ? "an allocation"
                                                : "an attic op")
             << " in a branch (device memory is allocated and an "
                "attention launched only at the top level of the function); "
                "compute the branches' results at the top level and choose "
                "with arith.select, or compile for the CPU";
        diag.attachNote(inside->getLoc()) << "the first one is here";
        failed = true;
        return WalkResult::skip();
      }
    }
    // Host ops of the gpu dialect (a gpu.launch the function already has,
    // device buffers, copies): at the top level they run as written, but
    // inside a loop or a branch they would become part of a one-thread
    // kernel, a kernel launching a kernel (a 2026-11-30 audit: exit 0 with
    // nested gpu.launch ops the NVVM lowering cannot compile).
    if (isa_and_nonnull<gpu::GPUDialect>(op->getDialect()) &&
        op->getBlock() != &body && !op->getParentOfType<gpu::LaunchOp>()) {
      attic::opError(op, "cannot be offloaded by attic-gpu-offload: a host op "
                         "of the gpu dialect inside a loop or branch would run "
                         "inside a kernel; keep it at the top level of the "
                         "function, or write the loop without it (the pass "
                         "makes the kernels)");
      failed = true;
      return WalkResult::skip();
    }
    if (isTileGrid(op)) {
      if (op->getBlock() != &body) {
        attic::opError(op, "cannot be offloaded by attic-gpu-offload: a tile "
                           "grid must be at the top level of the function");
        failed = true;
      }
      return WalkResult::skip();
    }
    if (isa<memref::AllocaOp>(op)) {
      attic::opError(op, "cannot be offloaded by attic-gpu-offload: a stack "
                         "buffer on the host cannot be passed to kernels");
      failed = true;
    } else if (isa<memref::GetGlobalOp>(op) && op->getBlock() != &body) {
      attic::opError(op, "cannot be offloaded by attic-gpu-offload: a global "
                         "in host memory must be read at the top level of the "
                         "function (it is copied to the device there)");
      failed = true;
    } else if (isa<memref::AllocOp>(op) && op->getBlock() != &body) {
      attic::opError(op,
                     "cannot be offloaded by attic-gpu-offload: kernels "
                     "cannot allocate; allocations must be at the top level "
                     "of the function (hoist them out of loops)");
      failed = true;
    } else if (auto call = dyn_cast<func::CallOp>(op)) {
      if (call.getCallee() == kReportFn)
        reports.push_back(call);
      else {
        attic::opError(op, "cannot be offloaded by attic-gpu-offload: kernels "
                           "cannot call host function @")
            << call.getCallee();
        failed = true;
      }
    } else if (auto loop = dyn_cast<scf::ParallelOp>(op)) {
      if (loop.getNumResults()) {
        attic::opError(op, "cannot be offloaded by attic-gpu-offload: a "
                           "parallel loop with reductions (results) is not "
                           "supported");
        failed = true;
      }
    } else if (isa<AtticDialect>(op->getDialect()) && op->getBlock() != &body &&
               !isa_and_nonnull<AtticDialect>(
                   op->getParentOp()->getDialect())) {
      // (The ops in an attic op's regions, e.g. attic.tile.yield, go with
      // it.)
      attic::opError(op, "cannot be offloaded by attic-gpu-offload: it must be "
                         "at the top level of the function, not inside a loop");
      failed = true;
    }
    return WalkResult::advance();
  });
  for (BlockArgument arg : func.getArguments())
    if (auto type = dyn_cast<MemRefType>(arg.getType()))
      if (!type.getLayout().isIdentity() || type.getMemorySpace()) {
        attic::opError(func, "argument #")
            << arg.getArgNumber()
            << " must be a memref with the identity layout in the default "
               "memory space for attic-gpu-offload, got "
            << type;
        failed = true;
      }
  for (Type t : func.getResultTypes())
    if (auto type = dyn_cast<MemRefType>(t))
      if (!type.getLayout().isIdentity() || type.getMemorySpace()) {
        attic::opError(func,
                       "results must be memrefs with the identity layout "
                       "in the default memory space for attic-gpu-offload, "
                       "got ")
            << type;
        failed = true;
      }
  return mlir::failure(failed);
}

/// memref.copy -> loops: an scf.parallel at the top level (a kernel of its
/// own below), an scf.for nest inside other loops (run by their thread).
void Offloader::lowerCopies() {
  SmallVector<memref::CopyOp> copies;
  func.walk([&](memref::CopyOp op) { copies.push_back(op); });
  Block *body = &func.getBody().front();
  for (memref::CopyOp op : copies) {
    Builder b(op.getLoc(), op);
    Value src = op.getSource(), dst = op.getTarget();
    int64_t rank = cast<MemRefType>(src.getType()).getRank();
    SmallVector<Value> zeros, ones, ubs;
    for (int64_t d = 0; d < rank; ++d) {
      zeros.push_back(cIndex(b, 0));
      ones.push_back(cIndex(b, 1));
      ubs.push_back(memref::DimOp::create(b, src, d));
    }
    auto copyAt = [&](OpBuilder &nested, Location loc, ValueRange ivs) {
      Value v = memref::LoadOp::create(nested, loc, src, ivs);
      memref::StoreOp::create(nested, loc, v, dst, ivs);
    };
    if (rank == 0) {
      Value v = memref::LoadOp::create(b, src, ValueRange{});
      memref::StoreOp::create(b, v, dst, ValueRange{});
    } else if (op->getBlock() == body) {
      scf::ParallelOp::create(b, zeros, ubs, ones, copyAt);
    } else {
      scf::buildLoopNest(b, b.getLoc(), zeros, ubs, ones, copyAt);
    }
    op.erase();
  }
}

void Offloader::makeErrorRecord() {
  if (reports.empty())
    return;
  Block &body = func.getBody().front();
  Builder b(func.getLoc(), OpBuilder::atBlockBegin(&body));
  auto type = MemRefType::get({5}, b.getI64Type());
  // Zeros from a host stack buffer.
  Value host = memref::AllocaOp::create(b, type);
  hostMade.insert(host.getDefiningOp());
  Value zero = arith::ConstantIntOp::create(b, b.getI64Type(), 0);
  for (int64_t i = 0; i < 5; ++i) {
    auto store = memref::StoreOp::create(b, zero, host, cIndex(b, i));
    hostMade.insert(store);
  }
  Chain chain(b);
  errorRecord = chain.alloc(type, {});
  chain.copy(errorRecord, host);
  errorRecordReady = chain.finish();
}

void Offloader::moveArgumentsToDevice() {
  Block &body = func.getBody().front();
  Builder b(func.getLoc(),
            errorRecordReady
                ? OpBuilder(&body, std::next(errorRecordReady->getIterator()))
                : OpBuilder::atBlockBegin(&body));
  for (BlockArgument arg : func.getArguments()) {
    if (!isa<MemRefType>(arg.getType()) || arg.use_empty())
      continue;
    Chain chain(b);
    Value device = chain.alloc(cast<MemRefType>(arg.getType()),
                               dynamicSizes(b, arg));
    chain.copy(device, arg);
    chain.finish();
    Operation *copyOp = chain.token.getDefiningOp();
    arg.replaceUsesWithIf(device, [&](OpOperand &use) {
      Operation *user = use.getOwner();
      return user != copyOp && !(isa<memref::DimOp>(user) &&
                                 user->isBeforeInBlock(copyOp));
    });
    argCopies.push_back({arg.getArgNumber(), device});
  }
}

/// Constants (memref.get_global, e.g. a dense mask) live in host memory:
/// each is copied to a device buffer where it is read.
void Offloader::moveGlobalsToDevice() {
  SmallVector<memref::GetGlobalOp> globals;
  for (Operation &op : func.getBody().front())
    if (auto global = dyn_cast<memref::GetGlobalOp>(op))
      globals.push_back(global);
  for (memref::GetGlobalOp global : globals) {
    Builder b(global.getLoc(), global->getBlock(),
              std::next(global->getIterator()));
    Chain chain(b);
    Value device = chain.alloc(global.getType(), {});
    chain.copy(device, global);
    chain.finish();
    Operation *copyOp = chain.token.getDefiningOp();
    global.getResult().replaceUsesWithIf(device, [&](OpOperand &use) {
      return use.getOwner() != copyOp;
    });
    globalCopies.push_back(device);
  }
}

void Offloader::moveAllocationsToDevice() {
  SmallVector<Operation *> ops;
  func.walk([&](Operation *op) {
    if (isa<memref::AllocOp, memref::DeallocOp>(op) && !hostMade.count(op) &&
        !inTileGrid(op))
      ops.push_back(op);
  });
  for (Operation *op : ops) {
    Builder b(op->getLoc(), op);
    Chain chain(b);
    if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
      Value device = chain.alloc(alloc.getType(), alloc.getDynamicSizes());
      chain.finish();
      alloc.replaceAllUsesWith(device);
    } else {
      chain.free(cast<memref::DeallocOp>(op).getMemref());
      chain.finish();
    }
    op->erase();
  }
}

/// In kernels: count = atomic_add(record[0], 1); the first reporter
/// (count was 0) writes [code, a, b, c] to record[1..4].
void Offloader::rewriteReports() {
  for (func::CallOp call : reports) {
    Builder b(call.getLoc(), call);
    // The constants first: a report at the top level of the function (an
    // index out of bounds that folding made certain) runs in a kernel of
    // its own, and a constant between the atomic and its compare would
    // end that kernel before the compare (a host op using a kernel's
    // value: refused).
    Value one = arith::ConstantIntOp::create(b, b.getI64Type(), 1);
    Value zero = arith::ConstantIntOp::create(b, b.getI64Type(), 0);
    Value index0 = cIndex(b, 0);
    Value old = memref::AtomicRMWOp::create(b, arith::AtomicRMWKind::addi, one,
                                            errorRecord, ValueRange{index0});
    Value first = arith::CmpIOp::create(b, arith::CmpIPredicate::eq, old, zero);
    auto ifOp = scf::IfOp::create(b, first, /*withElseRegion=*/false);
    Builder inner(call.getLoc(), ifOp.getThenBodyBuilder());
    for (auto [i, operand] : llvm::enumerate(call.getOperands())) {
      Value v = operand;
      if (v.getType() != inner.getI64Type())
        v = arith::ExtSIOp::create(inner, inner.getI64Type(), v);
      memref::StoreOp::create(inner, v, errorRecord, cIndex(inner, i + 1));
    }
    call.erase();
  }
}

bool Offloader::isHostOp(Operation *op) {
  if (hostMade.count(op) || isTileGrid(op))
    return true;
  if (isa_and_nonnull<gpu::GPUDialect, AtticDialect>(op->getDialect()))
    return true;
  if (isa<func::ReturnOp, memref::DimOp, memref::ExtractStridedMetadataOp,
          memref::GetGlobalOp,
          memref::ExtractAlignedPointerAsIndexOp, ViewLikeOpInterface,
          arith::ConstantOp>(op))
    return true;
  if (isa<scf::IfOp, scf::YieldOp>(op)) {
    bool host = true;
    op->walk([&](Operation *nested) {
      if (nested != op && !isHostOp(nested))
        host = false;
    });
    return host;
  }
  if (isa_and_nonnull<arith::ArithDialect>(op->getDialect()))
    return llvm::all_of(op->getOperandTypes(), isScalarInt) &&
           llvm::all_of(op->getResultTypes(), isScalarInt);
  return false;
}

/// Launch with a 1-D grid of `blockSize` threads; thread t runs iteration t
/// of the linearized iteration space, if there is one.
void Offloader::launchParallel(scf::ParallelOp loop) {
  Builder b(loop.getLoc(), loop);
  unsigned rank = loop.getNumLoops();
  SmallVector<Value> trips;
  Value total = cIndex(b, 1);
  Value zero = cIndex(b, 0);
  for (unsigned d = 0; d < rank; ++d) {
    Value span = arith::SubIOp::create(b, loop.getUpperBound()[d],
                                       loop.getLowerBound()[d]);
    span = arith::MaxSIOp::create(b, span, zero);
    Value trip = arith::CeilDivSIOp::create(b, span, loop.getStep()[d]);
    trips.push_back(trip);
    total = arith::MulIOp::create(b, total, trip);
  }
  Value threads = cIndex(b, blockSize);
  Value blocks = arith::MaxSIOp::create(
      b, arith::CeilDivSIOp::create(b, total, threads), cIndex(b, 1));
  Value c1 = cIndex(b, 1);
  Chain chain(b);
  auto launch = gpu::LaunchOp::create(b, blocks, c1, c1, threads, c1, c1,
                                      /*dynamicSharedMemorySize=*/nullptr,
                                      chain.tokenType(),
                                      ValueRange{chain.token});
  chain.token = launch.getAsyncToken();
  chain.finish();

  Builder k(loop.getLoc(), OpBuilder::atBlockBegin(&launch.getBody().front()));
  Value linear = arith::AddIOp::create(
      k, arith::MulIOp::create(k, launch.getBlockIds().x, threads),
      launch.getThreadIds().x);
  Value inRange =
      arith::CmpIOp::create(k, arith::CmpIPredicate::slt, linear, total);
  auto guard = scf::IfOp::create(k, inRange, /*withElseRegion=*/false);
  gpu::TerminatorOp::create(k);

  Builder g(loop.getLoc(), guard.getThenBodyBuilder());
  IRMapping map;
  Value rest = linear;
  for (int d = rank - 1; d >= 0; --d) {
    Value index = d == 0 ? rest : arith::RemSIOp::create(g, rest, trips[d]);
    if (d > 0)
      rest = arith::DivSIOp::create(g, rest, trips[d]);
    Value iv = arith::AddIOp::create(
        g, loop.getLowerBound()[d],
        arith::MulIOp::create(g, index, loop.getStep()[d]));
    map.map(loop.getInductionVars()[d], iv);
  }
  for (Operation &op : loop.getBody()->without_terminator())
    g.clone(op, map);
  loop.erase();
}

/// Runs `ops` (consecutive top-level ops) in one thread of one block.
void Offloader::launchSequential(ArrayRef<Operation *> ops) {
  Builder b(ops.front()->getLoc(), ops.front());
  Value c1 = cIndex(b, 1);
  Chain chain(b);
  auto launch = gpu::LaunchOp::create(b, c1, c1, c1, c1, c1, c1,
                                      /*dynamicSharedMemorySize=*/nullptr,
                                      chain.tokenType(),
                                      ValueRange{chain.token});
  chain.token = launch.getAsyncToken();
  chain.finish();
  Builder k(ops.front()->getLoc(),
            OpBuilder::atBlockBegin(&launch.getBody().front()));
  Operation *terminator = gpu::TerminatorOp::create(k);
  for (Operation *op : ops)
    op->moveBefore(terminator);
}

/// Whether a host op at the top level may move before the ops of an open
/// group, which it does not use: an op without memory effects or regions,
/// a device allocation (a new buffer), and the waits of its chain (the
/// one that starts an allocation-only chain, one on tokens of ops already
/// moved).
static bool hoistable(Operation *op,
                      const llvm::DenseSet<Operation *> &hoisted) {
  if (op->getNumRegions() != 0 || op->hasTrait<OpTrait::IsTerminator>())
    return false;
  auto movedToken = [&](Value token) {
    return hoisted.contains(token.getDefiningOp());
  };
  if (auto alloc = dyn_cast<gpu::AllocOp>(op))
    return !alloc.getHostShared() &&
           llvm::all_of(alloc.getAsyncDependencies(), movedToken);
  if (auto wait = dyn_cast<gpu::WaitOp>(op)) {
    // Only the start of an allocation-only chain (wait async, gpu.alloc,
    // blocking wait). The start of a deallocation's chain, or of a
    // global's copy chain (wait async, gpu.alloc, gpu.memcpy), moved
    // above the kernel while the rest stayed below, and
    // attic-gpu-merge-chains then launched the kernel on a new stream,
    // unordered with the earlier kernels (two 2026-11-30 reviews).
    auto endsAtABlockingWait = [](Value token) {
      return llvm::all_of(token.getUsers(), [](Operation *user) {
        auto end = dyn_cast<gpu::WaitOp>(user);
        return end && !end.getAsyncToken();
      });
    };
    if (Value token = wait.getAsyncToken())
      return wait.getAsyncDependencies().empty() &&
             llvm::all_of(token.getUsers(), [&](Operation *user) {
               auto alloc = dyn_cast<gpu::AllocOp>(user);
               return alloc && !alloc.getHostShared() &&
                      alloc.getAsyncToken() &&
                      endsAtABlockingWait(alloc.getAsyncToken());
             });
    return !wait.getAsyncDependencies().empty() &&
           llvm::all_of(wait.getAsyncDependencies(), movedToken);
  }
  return isMemoryEffectFree(op);
}

LogicalResult Offloader::kernelize() {
  Block &body = func.getBody().front();
  // Values computed by the open group of sequential ops, and by closed
  // groups (they live in a kernel that has ended: nothing may use them).
  llvm::DenseSet<Value> open, closed;
  SmallVector<SmallVector<Operation *>> groups(1);
  SmallVector<scf::ParallelOp> parallel;
  bool failed = false;
  auto closeGroup = [&] {
    if (groups.back().empty())
      return;
    closed.insert(open.begin(), open.end());
    open.clear();
    groups.emplace_back();
  };
  // Ops moved before the open group (hoistable).
  llvm::DenseSet<Operation *> hoisted;
  // (A snapshot of the body: hoisting moves ops back.)
  SmallVector<Operation *> ops =
      llvm::to_vector(llvm::map_range(body, [](Operation &op) { return &op; }));
  for (Operation *opPtr : ops) {
    Operation &op = *opPtr;
    bool usesOpen = false, usesClosed = false;
    Value fromKernel; // the first value used that a kernel computes
    op.walk([&](Operation *nested) {
      for (Value v : nested->getOperands()) {
        bool inOpen = open.contains(v), inClosed = closed.contains(v);
        usesOpen |= inOpen;
        usesClosed |= inClosed;
        // A closed value (from an earlier kernel) is what the error is
        // about when there is one; an open one only when there is not.
        if (inClosed && !(fromKernel && closed.contains(fromKernel)))
          fromKernel = v;
        else if (inOpen && !fromKernel)
          fromKernel = v;
      }
    });
    bool host = isHostOp(&op);
    bool pinned = host && (isa_and_nonnull<gpu::GPUDialect, AtticDialect>(
                               op.getDialect()) ||
                           isa<func::ReturnOp>(op) || isTileGrid(&op));
    if (usesClosed || (usesOpen && (pinned || isa<scf::ParallelOp>(op)))) {
      InFlightDiagnostic diag = attic::opError(
          &op,
          "uses a value that attic-gpu-offload computes in a kernel; only "
          "buffers pass between kernels and the host (host code, e.g. an "
          "offset, a size or a branch, cannot depend on a scalar read from "
          "a tensor)");
      // Back to where the chain starts (e.g. the tensor.extract, now a
      // memref.load, that reads the scalar).
      for (int step = 0; fromKernel && step < 64; ++step) {
        Operation *def = fromKernel.getDefiningOp();
        if (!def)
          break;
        auto next = llvm::find_if(def->getOperands(), [&](Value v) {
          return open.contains(v) || closed.contains(v);
        });
        if (next == def->getOperands().end())
          break;
        fromKernel = *next;
      }
      if (fromKernel)
        diag.attachNote(fromKernel.getLoc()) << "the value is computed here";
      failed = true;
      continue;
    }
    if (host && !usesOpen) {
      // Host work that commutes with the open group (an allocation and its
      // waits, a constant, a size) goes before the group instead of ending
      // it: a scalar read and its store into a new buffer
      // (tensor.from_elements of a tensor.extract) stay in one kernel.
      if (!groups.back().empty() && hoistable(&op, hoisted)) {
        op.moveBefore(groups.back().front());
        hoisted.insert(&op);
        continue;
      }
      closeGroup();
      continue;
    }
    if (isTileGrid(&op)) {
      closeGroup();
      continue;
    }
    if (auto loop = dyn_cast<scf::ParallelOp>(op)) {
      closeGroup();
      parallel.push_back(loop);
      continue;
    }
    groups.back().push_back(&op);
    for (Value r : op.getResults())
      open.insert(r);
  }
  if (failed)
    return failure();
  for (scf::ParallelOp loop : parallel)
    launchParallel(loop);
  for (ArrayRef<Operation *> group : groups)
    if (!group.empty())
      launchSequential(group);
  return success();
}

/// Whether anything in the function may write `buffer` (or a view of it).
bool mayWrite(func::FuncOp func, Value buffer) {
  bool written = false;
  func.walk([&](Operation *op) {
    if (written || isa_and_nonnull<gpu::GPUDialect>(op->getDialect()) ||
        isa<ViewLikeOpInterface, memref::DimOp,
            memref::ExtractStridedMetadataOp,
            memref::ExtractAlignedPointerAsIndexOp>(op))
      return;
    if (auto effects = dyn_cast<MemoryEffectOpInterface>(op)) {
      SmallVector<MemoryEffects::EffectInstance> list;
      effects.getEffects(list);
      for (auto &e : list)
        if (isa<MemoryEffects::Write, MemoryEffects::Free>(e.getEffect()) &&
            (!e.getValue() || rootOf(e.getValue()) == buffer))
          written = true;
      return;
    }
    if (op->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
      return;
    for (Value v : op->getOperands())
      if (isa<MemRefType>(v.getType()) && rootOf(v) == buffer)
        written = true;
  });
  return written;
}

void Offloader::rewriteReturns() {
  Block &body = func.getBody().front();
  auto ret = cast<func::ReturnOp>(body.getTerminator());
  Builder b(ret.getLoc(), ret);
  SmallVector<Value> results(ret.getOperands());
  llvm::SetVector<Value> toFree;
  llvm::DenseSet<Value> argDevice;
  for (auto &[index, device] : argCopies)
    argDevice.insert(device);
  argDevice.insert(globalCopies.begin(), globalCopies.end());
  for (Value &r : results) {
    auto type = dyn_cast<MemRefType>(r.getType());
    if (!type)
      continue;
    Chain chain(b);
    auto host = memref::AllocOp::create(b, type, dynamicSizes(b, r));
    hostMade.insert(host);
    chain.copy(host, r);
    chain.finish();
    Value root = rootOf(r);
    if (!argDevice.count(root) && isa_and_nonnull<gpu::AllocOp>(root.getDefiningOp()))
      toFree.insert(root);
    r = host;
  }
  {
    Chain chain(b);
    // Arguments the function may have written go back to the caller.
    for (auto &[index, device] : argCopies)
      if (mayWrite(func, device))
        chain.copy(func.getArgument(index), device);
    for (Value v : toFree)
      chain.free(v);
    for (auto &[index, device] : argCopies)
      chain.free(device);
    for (Value device : globalCopies)
      chain.free(device);
    chain.finish();
  }
  if (errorRecord) {
    // Reports back to the runtime: one call per report, the first with its
    // record.
    auto type = cast<MemRefType>(errorRecord.getType());
    Value host = memref::AllocaOp::create(b, type);
    Chain chain(b);
    chain.copy(host, errorRecord);
    chain.free(errorRecord);
    chain.finish();
    auto load = [&](Builder &at, int64_t i) {
      return memref::LoadOp::create(at, host, cIndex(at, i)).getResult();
    };
    Value count = arith::IndexCastOp::create(b, b.getIndexType(), load(b, 0));
    auto loop = scf::ForOp::create(b, cIndex(b, 0), count, cIndex(b, 1));
    Builder in(ret.getLoc(), loop.getBody(), loop.getBody()->begin());
    Value code = arith::TruncIOp::create(in, in.getI32Type(), load(in, 1));
    func::CallOp::create(in, kReportFn, TypeRange{},
                         ValueRange{code, load(in, 2), load(in, 3),
                                    load(in, 4)});
  }
  ret->setOperands(results);
}

/// A parallel loop inside a kernel (a linalg op's parallel dims after a
/// reduction dim, a loop in a one-thread step) runs in its thread: nested
/// scf.for loops, written out here so that the kernel says what it runs
/// (the NVVM lowering would do the same in scf-to-cf, but the GPU simulator
/// and the emulation see the kernels before that).
void Offloader::sequentializeNestedLoops() {
  SmallVector<scf::ParallelOp> nested;
  func.walk([&](gpu::LaunchOp launch) {
    launch.getBody().walk([&](scf::ParallelOp loop) {
      if (loop.getNumResults() == 0 && !isTileGrid(loop))
        nested.push_back(loop);
    });
  });
  IRRewriter rewriter(func.getContext());
  // Post-order: inner loops first.
  for (scf::ParallelOp loop : nested) {
    rewriter.setInsertionPoint(loop);
    (void)scf::parallelForToNestedFors(rewriter, loop);
  }
}

LogicalResult Offloader::run() {
  if (failed(check()))
    return failure();
  lowerCopies();
  makeErrorRecord();
  moveArgumentsToDevice();
  moveGlobalsToDevice();
  moveAllocationsToDevice();
  if (errorRecord)
    rewriteReports();
  if (failed(kernelize()))
    return failure();
  sequentializeNestedLoops();
  rewriteReturns();
  return success();
}

struct AtticGpuOffloadPass
    : public attic::impl::AtticGpuOffloadBase<AtticGpuOffloadPass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *context) override {
    if (blockSize < 1 || blockSize > 1024)
      return attic::optionError(
          context, "attic-gpu-offload: block-size must be in [1, 1024], got " +
                       Twine(static_cast<int64_t>(blockSize)));
    return success();
  }

  void runOnOperation() override {
    bool failed = false;
    bool launched = false;
    // Calls that the inliner left (a recursive function): one error per
    // call site, not the errors of what they cause (a branch around an
    // attention, upstream's deallocation helper, a private function; a
    // 2026-12-02 audit counted seven for one recursive layer).
    SymbolTable symbols(getOperation());
    llvm::DenseSet<Location> reported;
    getOperation().walk([&](func::CallOp call) {
      auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
      if (!callee || callee.isExternal() ||
          callee.getSymName() == "dealloc_helper" ||
          !reported.insert(call.getLoc()).second)
        return;
      attic::opError(call, "calls @")
          << callee.getSymName()
          << ", which was not inlined (is it recursive?): the GPU pipelines "
             "take each entry with its callees inlined, since kernels cannot "
             "call host functions; write the recursion as a loop, or compile "
             "for the CPU";
      failed = true;
    });
    if (failed)
      return signalPassFailure();
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      if (!func.isPublic()) {
        attic::opError(func, "@")
            << func.getSymName()
            << " is private; attic-gpu-offload compiles public entry "
               "functions only (inline callees first)";
        failed = true;
        continue;
      }
      if (mlir::failed(Offloader(func, blockSize).run()))
        failed = true;
      launched = true;
    }
    if (failed)
      return signalPassFailure();
    if (launched)
      getOperation()->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                              UnitAttr::get(&getContext()));
  }
};

} // namespace
