//===- GpuEmulate.cpp - gpu.launch kernels as CPU loops ------------------===//
//
// Runs host code written for the GPU (gpu.launch + async data movement, the
// output of attic-gpu-offload) on the CPU, so that the mapping of work onto
// blocks and threads can be tested on machines without a GPU:
//
//   gpu.launch blocks(bx, by, bz) in (gx, gy, gz)
//              threads(tx, ty, tz) in (sx, sy, sz) { body }
//     -> scf.parallel (bx, by, bz, tx, ty, tz) = (0, ...) to (gx, ..., sz)
//        { body, ids -> loop indices, block_dim/grid_dim -> sizes }
//   gpu.alloc -> memref.alloc, gpu.dealloc -> memref.dealloc,
//   gpu.memcpy -> memref.copy, gpu.memset -> stores in an scf.parallel,
//   gpu.wait -> removed (with every async token: host code runs in order).
//
// Every thread becomes one independent iteration, which is only faithful
// when threads do not communicate; kernels that do (barriers, shuffles,
// shared memory, warp-level and NVIDIA-specific ops) are rejected with an
// error naming the op. See AtticPasses.td.
//
//===----------------------------------------------------------------------===//

#include "attic/Support/Diagnostics.h"
#include "attic/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"

#include "llvm/ADT/SetVector.h"

namespace attic {
#define GEN_PASS_DEF_ATTICGPUEMULATE
#include "AtticPasses.h.inc"
} // namespace attic

using namespace mlir;

namespace {

constexpr StringLiteral kOutliningError =
    "run attic-gpu-emulate before gpu-kernel-outlining (it emulates "
    "gpu.launch, not outlined kernels)";

/// True for memrefs in GPU workgroup (shared) memory.
bool isWorkgroupMemory(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref)
    return false;
  auto space = dyn_cast_if_present<gpu::AddressSpaceAttr>(
      memref.getMemorySpace());
  return space && space.getValue() == gpu::AddressSpace::Workgroup;
}

/// Checks that one op of a kernel body can run as part of an independent
/// loop iteration; emits an error on it otherwise.
LogicalResult checkKernelOp(Operation *op) {
  // The ids and sizes become loop indices and bounds.
  if (isa<gpu::BlockIdOp, gpu::ThreadIdOp, gpu::BlockDimOp, gpu::GridDimOp,
          gpu::GlobalIdOp, gpu::TerminatorOp>(op))
    return success();
  StringRef dialect = op->getDialect() ? op->getDialect()->getNamespace() : "";
  if (isa<gpu::PrintfOp, gpu::ClusterIdOp, gpu::ClusterDimOp,
          gpu::ClusterBlockIdOp, gpu::ClusterDimBlocksOp, gpu::LaunchOp>(op))
    return attic::opError(op, "has no CPU emulation in attic-gpu-emulate");
  // Barriers, shuffles, reductions, subgroup (warp) ops, lane ids, dynamic
  // shared memory; nvgpu/nvvm: warp-level mma, async copies, special
  // registers.
  bool communicates = dialect == "gpu" || dialect == "nvgpu" ||
                      dialect == "nvvm" ||
                      llvm::any_of(op->getResultTypes(), isWorkgroupMemory);
  if (communicates)
    return attic::opError(
        op, "cannot be emulated on the CPU: threads of the gpu.launch would "
            "communicate (attic-gpu-emulate runs each thread as an independent "
            "loop iteration)");
  if (isa<LLVM::InlineAsmOp>(op))
    return attic::opError(
        op, "cannot be emulated on the CPU: inline assembly is for the GPU");
  return success();
}

/// Checks that `launch` can become an scf.parallel (see the file comment).
LogicalResult checkLaunch(gpu::LaunchOp launch) {
  if (unsigned n = launch.getNumWorkgroupAttributions())
    return attic::opError(launch)
           << "cannot be emulated on the CPU: it has " << n
           << " workgroup memory attribution(s), through which threads would "
              "communicate";
  for (BlockArgument arg : launch.getPrivateAttributions()) {
    auto type = cast<MemRefType>(arg.getType());
    if (!type.hasStaticShape())
      return attic::opError(launch)
             << "cannot be emulated on the CPU: private attribution " << type
             << " has a dynamic shape";
    for (Operation *user : arg.getUsers())
      if (!isa<memref::LoadOp, memref::StoreOp>(user))
        return attic::opError(
            user,
            "uses a private attribution of a gpu.launch; attic-gpu-emulate "
            "emulates private memory for memref.load and memref.store only");
  }
  if (launch.getDynamicSharedMemorySize())
    return attic::opError(
        launch,
        "cannot be emulated on the CPU: it has a dynamic shared memory size, "
        "through which threads would communicate");
  if (launch.hasClusterSize())
    return attic::opError(
        launch, "cannot be emulated on the CPU: thread block clusters are not "
                "emulated");
  if (!launch.getBody().hasOneBlock())
    return attic::opError(
        launch,
        "cannot be emulated on the CPU: its body has more than one block");
  WalkResult result = launch.getBody().walk([](Operation *op) {
    return failed(checkKernelOp(op)) ? WalkResult::interrupt()
                                     : WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

/// Replaces the ids and sizes read by gpu ops in the emulated body (also
/// inside nested regions, which IRMapping clones as a whole).
void replaceIdOps(Block &body, ValueRange ivs, ArrayRef<Value> gridSize,
                  ArrayRef<Value> blockSize) {
  auto dim = [](auto op) { return static_cast<unsigned>(op.getDimension()); };
  SmallVector<Operation *> idOps;
  body.walk([&](Operation *op) {
    if (isa<gpu::BlockIdOp, gpu::ThreadIdOp, gpu::BlockDimOp, gpu::GridDimOp,
            gpu::GlobalIdOp>(op))
      idOps.push_back(op);
  });
  for (Operation *op : idOps) {
    OpBuilder b(op);
    Value replacement;
    if (auto id = dyn_cast<gpu::BlockIdOp>(op))
      replacement = ivs[dim(id)];
    else if (auto id = dyn_cast<gpu::ThreadIdOp>(op))
      replacement = ivs[3 + dim(id)];
    else if (auto size = dyn_cast<gpu::GridDimOp>(op))
      replacement = gridSize[dim(size)];
    else if (auto size = dyn_cast<gpu::BlockDimOp>(op))
      replacement = blockSize[dim(size)];
    else if (auto id = dyn_cast<gpu::GlobalIdOp>(op)) {
      // block_id * block_dim + thread_id
      unsigned d = dim(id);
      Value offset =
          arith::MulIOp::create(b, op->getLoc(), ivs[d], blockSize[d]);
      replacement = arith::AddIOp::create(b, op->getLoc(), offset, ivs[3 + d]);
    }
    op->getResult(0).replaceAllUsesWith(replacement);
    op->erase();
  }
}

/// Builds, before `launch`, the scf.parallel that runs its body once per
/// (block, thread). The launch itself is left for the caller to erase.
void emulateLaunch(gpu::LaunchOp launch) {
  OpBuilder b(launch);
  Location loc = launch.getLoc();
  gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
  gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
  SmallVector<Value, 3> gridSize = {grid.x, grid.y, grid.z};
  SmallVector<Value, 3> blockSize = {block.x, block.y, block.z};
  SmallVector<Value, 6> upper = {grid.x, grid.y, grid.z,
                                 block.x, block.y, block.z};
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  SmallVector<Value, 6> lower(6, zero), steps(6, one);

  Block &kernel = launch.getBody().front();
  auto parallel = scf::ParallelOp::create(
      b, loc, lower, upper, steps,
      [&](OpBuilder &nested, Location nestedLoc, ValueRange ivs) {
        IRMapping mapping;
        gpu::KernelDim3 blockIds = launch.getBlockIds();
        gpu::KernelDim3 threadIds = launch.getThreadIds();
        gpu::KernelDim3 gridArgs = launch.getGridSize();
        gpu::KernelDim3 blockArgs = launch.getBlockSize();
        Value args[] = {blockIds.x,  blockIds.y,  blockIds.z,
                        threadIds.x, threadIds.y, threadIds.z};
        for (auto [arg, iv] : llvm::zip_equal(args, ivs))
          mapping.map(arg, iv);
        mapping.map(gridArgs.x, grid.x);
        mapping.map(gridArgs.y, grid.y);
        mapping.map(gridArgs.z, grid.z);
        mapping.map(blockArgs.x, block.x);
        mapping.map(blockArgs.y, block.y);
        mapping.map(blockArgs.z, block.z);

        // Private memory: a heap buffer per iteration (per thread), in the
        // default memory space.
        SmallVector<Value> privates;
        for (BlockArgument arg : launch.getPrivateAttributions()) {
          auto type = cast<MemRefType>(arg.getType());
          Value buffer = memref::AllocOp::create(
              nested, nestedLoc,
              MemRefType::get(type.getShape(), type.getElementType()));
          mapping.map(arg, buffer);
          privates.push_back(buffer);
        }
        // memref.alloca in the body stays per iteration (per thread);
        // convert-scf-to-openmp gives each iteration its alloca_scope.
        for (Operation &op : kernel.without_terminator())
          nested.clone(op, mapping);
        for (Value buffer : privates)
          memref::DeallocOp::create(nested, nestedLoc, buffer);
      });
  replaceIdOps(*parallel.getBody(), parallel.getInductionVars(), gridSize,
               blockSize);
}

/// gpu.memset as a parallel loop of stores. Not linalg.fill: in
/// attic-cpu-pipeline (emulate-cuda) linalg is lowered to loops before
/// this pass runs.
void emulateMemset(OpBuilder &b, gpu::MemsetOp memset) {
  Location loc = memset.getLoc();
  Value dst = memset.getDst();
  Value value = memset.getValue();
  MemRefType type = memset.getDst().getType();
  if (type.getRank() == 0) {
    memref::StoreOp::create(b, loc, value, dst, ValueRange{});
    return;
  }
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  SmallVector<Value> lower(type.getRank(), zero), steps(type.getRank(), one);
  SmallVector<Value> upper;
  for (int64_t d = 0, e = type.getRank(); d < e; ++d)
    upper.push_back(type.isDynamicDim(d)
                        ? memref::DimOp::create(b, loc, dst, d).getResult()
                        : arith::ConstantIndexOp::create(
                              b, loc, type.getDimSize(d))
                              .getResult());
  scf::ParallelOp::create(
      b, loc, lower, upper, steps,
      [&](OpBuilder &nested, Location nestedLoc, ValueRange ivs) {
        memref::StoreOp::create(nested, nestedLoc, value, dst, ivs);
      });
}

/// Creates the memref equivalent of a host-side gpu op before it; the
/// caller erases the gpu op. Async tokens are dropped.
void emulateHostOp(Operation *op) {
  OpBuilder b(op);
  Location loc = op->getLoc();
  if (auto alloc = dyn_cast<gpu::AllocOp>(op)) {
    Value memref =
        memref::AllocOp::create(b, loc, alloc.getMemref().getType(),
                                alloc.getDynamicSizes(),
                                alloc.getSymbolOperands(), IntegerAttr());
    alloc.getMemref().replaceAllUsesWith(memref);
  } else if (auto dealloc = dyn_cast<gpu::DeallocOp>(op)) {
    memref::DeallocOp::create(b, loc, dealloc.getMemref());
  } else if (auto copy = dyn_cast<gpu::MemcpyOp>(op)) {
    // gpu.memcpy takes the destination first, memref.copy the source.
    memref::CopyOp::create(b, loc, copy.getSrc(), copy.getDst());
  } else if (auto memset = dyn_cast<gpu::MemsetOp>(op)) {
    emulateMemset(b, memset);
  } else if (auto launch = dyn_cast<gpu::LaunchOp>(op)) {
    emulateLaunch(launch);
  }
  // gpu.wait: nothing, host code runs in program order.
}

struct AtticGpuEmulatePass
    : public attic::impl::AtticGpuEmulateBase<AtticGpuEmulatePass> {
  using Base::Base;

  // Loop bounds and global ids are arith ops.
  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    registry.insert<arith::ArithDialect>();
  }

  void runOnOperation() override {
    // Host-side gpu ops in program order (kernel bodies are not entered).
    llvm::SetVector<Operation *> gpuOps;
    bool failed = false;
    getOperation()->walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (isa<gpu::GPUModuleOp, gpu::LaunchFuncOp>(op)) {
        attic::opError(op, kOutliningError);
        failed = true;
        return WalkResult::skip();
      }
      if (auto launch = dyn_cast<gpu::LaunchOp>(op)) {
        if (mlir::failed(checkLaunch(launch)))
          failed = true;
        gpuOps.insert(op);
        return WalkResult::skip();
      }
      if (isa<gpu::AllocOp, gpu::DeallocOp, gpu::MemcpyOp, gpu::MemsetOp,
              gpu::WaitOp>(op)) {
        gpuOps.insert(op);
        return WalkResult::advance();
      }
      if (isa_and_present<gpu::GPUDialect>(op->getDialect())) {
        attic::opError(op, "has no CPU emulation in attic-gpu-emulate");
        failed = true;
      }
      return WalkResult::advance();
    });

    // Async tokens are dropped, so they may only be used by the ops above.
    for (Operation *op : gpuOps)
      for (Value result : op->getResults())
        if (isa<gpu::AsyncTokenType>(result.getType()))
          for (Operation *user : result.getUsers())
            if (!gpuOps.contains(user)) {
              attic::opError(user)
                  << "uses the async token of '" << op->getName()
                  << "', which attic-gpu-emulate removes (tokens may only "
                     "be used by gpu.launch, gpu.alloc, gpu.dealloc, "
                     "gpu.memcpy, gpu.memset and gpu.wait)";
              failed = true;
            }
    if (failed)
      return signalPassFailure();

    for (Operation *op : gpuOps)
      emulateHostOp(op);
    // A token's users are all in gpuOps: drop every reference first, then
    // erase in any order.
    for (Operation *op : gpuOps)
      op->dropAllReferences();
    for (Operation *op : gpuOps)
      op->erase();
  }
};

} // namespace
