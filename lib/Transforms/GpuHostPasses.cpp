//===- GpuHostPasses.cpp - attic-fail and the CUDA build's host checks -*- C++
//-*-===//
//
// Small passes of attic's pipelines: attic-fail (a bad pipeline option or
// anchor, reported when the pipeline runs; on any op), attic-check-scope
// (attic ops outside the module's top-level functions, input past the
// pipelines' own deallocation or tiling), attic-gpu-check-host
// (host code may only move data), attic-gpu-merge-chains (one stream for
// consecutive steps), attic-gpu-annotate-kernels (nvvm.minctasm = 1),
// attic-gpu-dedup-kernels (one module of each set of identical kernels),
// attic-gpu-merge-kernel-modules (the kernels in one module) and
// attic-gpu-strip-compile-times (gpu.binary objects without wall-clock
// times); and on kernel modules, attic-nvvm-extern-dynamic-shared (dynamic
// shared memory as PTX's `.extern .shared` array).
// See AtticPasses.td for their contracts.
//
//===----------------------------------------------------------------------===//

#include "attic/Dialect/Attic/AtticDialect.h"
#include "attic/Support/Diagnostics.h"
#include "attic/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace attic {
#define GEN_PASS_DEF_ATTICFAIL
#define GEN_PASS_DEF_ATTICCHECKSCOPE
#define GEN_PASS_DEF_ATTICGPUSTRIPCOMPILETIMES
#define GEN_PASS_DEF_ATTICGPUCHECKLIBDEVICE
#define GEN_PASS_DEF_ATTICGPUCHECKHOST
#define GEN_PASS_DEF_ATTICGPUANNOTATEKERNELS
#define GEN_PASS_DEF_ATTICGPUDEDUPKERNELS
#define GEN_PASS_DEF_ATTICGPUMERGEKERNELMODULES
#define GEN_PASS_DEF_ATTICGPUMERGECHAINS
#define GEN_PASS_DEF_ATTICNVVMEXTERNDYNAMICSHARED
#include "AtticPasses.h.inc"
} // namespace attic

using namespace mlir;

namespace {

struct AtticFailPass : public attic::impl::AtticFailBase<AtticFailPass> {
  using AtticFailBase::AtticFailBase;
  void runOnOperation() override {
    // An empty message (`attic-fail{message=}`) printed a bare "error: ".
    emitError(getOperation()->getLoc())
        << (message.empty() ? std::string("attic-fail") : message);
    signalPassFailure();
  }
};

struct AtticCheckScopePass
    : public attic::impl::AtticCheckScopeBase<AtticCheckScopePass> {
  using AtticCheckScopeBase::AtticCheckScopeBase;
  LogicalResult initialize(MLIRContext *context) override {
    // An empty name made messages such as "a step inside , which takes
    // attic ops before it" (a 2026-12-02 audit).
    if (StringRef(pipeline).trim().empty())
      return attic::optionError(
          context, "attic-check-scope: pipeline must name the pipeline for "
                   "the messages (got an empty string)");
    return success();
  }
  void runOnOperation() override {
    ModuleOp module = getOperation();
    bool failed = false;
    // Pre-order, so that the error is on the outermost attic op and the
    // ops of its regions (an attic.yield) get none (a 2026-12-02 audit:
    // post-order reported a modifier region's yield first).
    module.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (!isa_and_nonnull<attic::AtticDialect>(op->getDialect()))
        return WalkResult::advance();
      Operation *top = module.getBody()->findAncestorOpInBlock(*op);
      // The first op between the module and `op` that is not a function
      // of the module (top itself, or what the function holds is fine).
      Operation *outer = nullptr;
      if (!isa_and_nonnull<func::FuncOp>(top))
        outer = top == op ? module.getOperation() : top;
      if (!outer)
        return WalkResult::advance();
      InFlightDiagnostic diag = attic::opError(op, "is inside '")
                                << outer->getName() << "'";
      diag << ", not in a function at the top level of the module that "
           << pipeline << " lowers; such an op would be left unlowered";
      if (isa<ModuleOp>(outer) && outer != module.getOperation()) {
        // Without a pipeline named (the option's default names both), the
        // CPU one, in valid syntax (the default's text was not).
        bool both = StringRef(pipeline).contains(" or ");
        diag << " (nest the pipeline on the inner module: "
                "--pass-pipeline='builtin.module(builtin.module("
             << (both ? StringRef("attic-cpu-pipeline") : StringRef(pipeline))
             << "))'" << (both ? ", or the same with attic-cuda-pipeline" : "")
             << ")";
      }
      failed = true;
      // One error per region that holds attic ops.
      return WalkResult::skip();
    });
    // Code of a nested module: some of the pipeline's conversions walk the
    // whole module, others only its top-level functions, so a nested
    // module's functions came out half lowered, with the pipeline
    // succeeding (a 2026-11-30 audit). The nested module is lowered first,
    // by the pipeline nested on it.
    module.walk([&](func::FuncOp fn) {
      // (A function with attic ops has had its error above.)
      if (fn.isExternal() ||
          fn.walk([](Operation *op) {
              return isa_and_nonnull<attic::AtticDialect>(op->getDialect())
                         ? WalkResult::interrupt()
                         : WalkResult::advance();
            }).wasInterrupted())
        return;
      // A function with a body in a gpu.module: the pipelines take host
      // code and make the kernels themselves. A gpu.launch in one crashed
      // upstream's kernel outlining in attic-cuda-pipeline, and
      // attic-cpu-pipeline left it half lowered with exit 0 (a 2026-11-30
      // audit).
      if (fn->getParentOfType<gpu::GPUModuleOp>()) {
        attic::opError(fn, "is in a gpu.module, which ")
            << pipeline
            << " does not lower: it takes host functions at the top level "
               "of the module and makes the kernels itself";
        failed = true;
        return;
      }
      auto inner = fn->getParentOfType<ModuleOp>();
      if (inner == module)
        return;
      InFlightDiagnostic diag = attic::opError(fn, "is in a nested module");
      if (std::optional<StringRef> name = inner.getName())
        diag << " (@" << *name << ")";
      bool both = StringRef(pipeline).contains(" or ");
      StringRef shown =
          both ? StringRef("attic-cpu-pipeline") : StringRef(pipeline);
      diag << ", which " << pipeline
           << " would leave half lowered: lower nested modules first, the "
              "innermost first (one level: "
              "--pass-pipeline='builtin.module(builtin.module("
           << shown << "), " << shown << ")')";
      failed = true;
    });
    // Kernels written in the gpu dialect: a gpu.func with a body in a
    // gpu.module (as a func.func above), and, for a pipeline that does
    // not lower them (attic-cpu-pipeline), a gpu.launch. Both got past
    // this check; attic-cpu-pipeline left them half lowered with exit 0,
    // and attic-cuda-pipeline refused a gpu.func's launch with upstream's
    // "ops with unknown memory side effects" (a 2026-11-30 audit).
    module.walk([&](gpu::GPUFuncOp fn) {
      if (fn.isExternal())
        return;
      attic::opError(fn, "is in a gpu.module, which ")
          << pipeline
          << " does not lower: it takes host functions at the top level "
             "of the module and makes the kernels itself";
      failed = true;
    });
    // gpu ops in host functions, and ops in a gpu.launch, whose memory
    // effects are unknown (gpu.barrier, gpu.wait async): upstream's
    // ownership-based deallocation, early in both pipelines, failed with
    // "ops with unknown memory side effects are not supported", naming
    // neither the op's kind nor the way out (a 2026-11-30 review).
    // (After an error above, e.g. outlined kernels, the launches and
    // waits around them would only add noise.)
    if (!failed)
      module.walk([&](Operation *op) {
        if (failed)
          return; // one error of these at a time
        // A launch with async tokens: the pipelines chain the kernels
        // themselves; an unwaited token raced the copy back (a 2026-11-30
        // review), and a wait on it has no declared effects (below).
        if (auto launch = dyn_cast<gpu::LaunchOp>(op);
            launch && allowLaunches &&
            (launch.getAsyncToken() ||
             !launch.getAsyncDependencies().empty())) {
          attic::opError(launch, "has async tokens, which ")
              << pipeline
              << " does not take: it orders the kernels of a host function "
                 "itself (write gpu.launch without async)";
          failed = true;
          return;
        }
        // A launch inside host control flow: attic-gpu-offload makes the
        // branch or loop a kernel of one thread, with the launch nested in
        // it, and gpu-to-llvm failed with "failed to legalize operation
        // 'gpu.launch_func'" (a 2026-11-30 review).
        if (auto launch = dyn_cast<gpu::LaunchOp>(op);
            launch && allowLaunches &&
            !isa<func::FuncOp>(launch->getParentOp()) &&
            !launch->getParentOfType<gpu::LaunchOp>()) {
          attic::opError(launch, "is inside '")
              << launch->getParentOp()->getName() << "' (host control "
              << "flow), which " << pipeline
              << " runs on the GPU as a kernel of one thread, and a kernel "
                 "does not launch another: put the gpu.launch at the top "
                 "level of the function, with the branch or loop inside its "
                 "body";
          failed = true;
          return;
        }
        // (Calls are taken by the deallocation; inside a kernel, offloading
        // says what it cannot do. Without allow-launches the launch's own
        // error covers its body.)
        if (op->hasTrait<OpTrait::IsTerminator>() ||
            isa<MemoryEffectOpInterface, CallOpInterface>(op) ||
            (!allowLaunches && op->getParentOfType<gpu::LaunchOp>()) ||
            op->hasTrait<OpTrait::HasRecursiveMemoryEffects>() ||
            !op->getParentOfType<func::FuncOp>() ||
            op->getParentOfType<gpu::GPUModuleOp>() ||
            !(isa_and_nonnull<gpu::GPUDialect>(op->getDialect()) ||
              op->getParentOfType<gpu::LaunchOp>()))
          return;
        attic::opError(op, "has no declared memory effects, which ")
            << pipeline
            << "'s buffer deallocation cannot analyse; in host functions it "
               "takes gpu.launch (without async tokens) whose bodies load, "
               "store and compute (no barriers or other synchronization)";
        failed = true;
      });
    if (!allowLaunches)
      module.walk([&](gpu::LaunchOp launch) {
        // (One in a gpu.module has had its function's error above.)
        if (launch->getParentOfType<gpu::GPUModuleOp>())
          return WalkResult::skip();
        attic::opError(launch, "is a GPU kernel, which ")
            << pipeline
            << " does not lower (attic-cuda-pipeline takes host functions "
               "with gpu.launch)";
        failed = true;
        return WalkResult::skip();
      });
    // A float rounding mode other than the default: LLVM's constrained
    // fptrunc, which the lowering emits for it, only assumes the mode, so
    // `arith.truncf %x downward` rounded to nearest without a word (a
    // 2026-11-30 audit). Refused, as the --check reference refuses it.
    module.walk([&](Operation *op) {
      if (auto rounding = dyn_cast<arith::ArithRoundingModeInterface>(op)) {
        arith::RoundingModeAttr mode = rounding.getRoundingModeAttr();
        if (!mode || mode.getValue() == arith::RoundingMode::to_nearest_even)
          return;
        attic::opError(op, "rounds ")
            << arith::stringifyRoundingMode(mode.getValue()) << ", but "
            << pipeline
            << " rounds to nearest even (the LLVM lowering only assumes the "
               "mode, so the result would be rounded to nearest without a "
               "word); drop the rounding mode";
        failed = true;
        return;
      }
      // An unsigned scf.for whose constant step has its sign bit set: MLIR
      // 22's canonicalizer reads the step as negative and deletes the loop
      // (an i8 loop from 0 to 100 step 150 ran no iteration on the CPU; a
      // 2026-11-30 review). Refused, with the way around it.
      auto loop = dyn_cast<scf::ForOp>(op);
      APInt step;
      if (!loop || !loop.getUnsignedCmp() ||
          !matchPattern(loop.getStep(), m_ConstantInt(&step)) ||
          !step.isNegative())
        return;
      attic::opError(op, "steps by ")
          << step.getZExtValue() << " (unsigned, " << step.getBitWidth()
          << " bits), which MLIR 22's canonicalizer reads as negative: it "
             "would delete the loop; use a wider induction variable (index)";
      failed = true;
    });
    // Input that has been through the pipeline's own steps: the tile loop
    // of attic-tile-block-attention or deallocations (both come after the
    // pipeline's ownership-based deallocation, which refuses them with an
    // upstream message that names neither). One error per function.
    for (Operation &top : module.getBody()->getOperations()) {
      auto fn = dyn_cast<func::FuncOp>(top);
      if (!fn)
        continue;
      fn.walk<WalkOrder::PreOrder>([&](Operation *op) {
        if (isa_and_nonnull<attic::AtticDialect>(op->getDialect()) &&
            op->getName().getStringRef().starts_with("attic.tile.")) {
          attic::opError(op, "is the tile loop of attic-tile-block-attention, "
                             "a step inside ")
              << pipeline
              << ", which takes attic ops before it (on tensors, or "
                 "bufferized without deallocations); run the passes after "
                 "it by name (docs/AtticPasses.md)";
        } else if (op->hasAttr(attic::kBlockClassesAttrName)) {
          // A user's pipeline that ran attic-lower-block-mask: the free is
          // the pass's, not the user's (a 2026-12-02 audit).
          attic::opError(op, "frees the block classes of "
                             "attic-lower-block-mask, a step inside ")
              << pipeline
              << ", which takes attic.block_mask before it (on tensors, or "
                 "bufferized without deallocations); run the passes after "
                 "it by name (docs/AtticPasses.md)";
        } else if (isa<memref::DeallocOp, gpu::DeallocOp>(op)) {
          // gpu.dealloc too: upstream said "memory free side-effect on
          // MemRef value not supported!" (a 2026-11-30 audit).
          attic::opError(op, "frees a buffer, but ")
              << pipeline
              << " places every deallocation itself (upstream's "
                 "ownership-based deallocation) and takes input without "
                 "any; leave the freeing to the pipeline";
        } else {
          return WalkResult::advance();
        }
        failed = true;
        return WalkResult::interrupt();
      });
    }
    if (failed)
      signalPassFailure();
  }
};

struct AtticGpuStripCompileTimesPass
    : public attic::impl::AtticGpuStripCompileTimesBase<
          AtticGpuStripCompileTimesPass> {
  void runOnOperation() override {
    getOperation().walk([&](gpu::BinaryOp binary) {
      SmallVector<Attribute> objects;
      bool changed = false;
      for (Attribute attr : binary.getObjects()) {
        auto object = dyn_cast<gpu::ObjectAttr>(attr);
        DictionaryAttr properties = object ? object.getProperties() : nullptr;
        if (!properties) {
          objects.push_back(attr);
          continue;
        }
        SmallVector<NamedAttribute> kept;
        for (NamedAttribute property : properties)
          if (!property.getName().strref().ends_with("TimeInMs"))
            kept.push_back(property);
        if (kept.size() == properties.size()) {
          objects.push_back(attr);
          continue;
        }
        changed = true;
        objects.push_back(gpu::ObjectAttr::get(
            &getContext(), object.getTarget(), object.getFormat(),
            object.getObject(),
            kept.empty() ? DictionaryAttr()
                         : DictionaryAttr::get(&getContext(), kept),
            object.getKernels()));
      }
      if (changed)
        binary.setObjectsAttr(ArrayAttr::get(&getContext(), objects));
    });
  }
};

struct AtticGpuCheckLibdevicePass
    : public attic::impl::AtticGpuCheckLibdeviceBase<
          AtticGpuCheckLibdevicePass> {
  using Base::Base;
  void runOnOperation() override {
    // Float <-> integer conversions wider than 64 bits: NVPTX has no
    // compiler-rt, and LLVM aborted the process in gpu-module-to-binary
    // (a 2026-12-02 audit).
    bool failed = false;
    getOperation().walk([&](gpu::GPUModuleOp module) {
      module.walk(
          [&](Operation *op) {
            if (!isa<LLVM::SIToFPOp, LLVM::UIToFPOp, LLVM::FPToSIOp,
                     LLVM::FPToUIOp>(op))
              return WalkResult::advance();
            Type integer = isa<LLVM::SIToFPOp, LLVM::UIToFPOp>(op)
                               ? op->getOperand(0).getType()
                               : op->getResult(0).getType();
            integer = getElementTypeOrSelf(integer);
            if (!integer.isInteger() || integer.getIntOrFloatBitWidth() <= 64)
              return WalkResult::advance();
            attic::opError(op)
                << "converts between a float and i"
                << integer.getIntOrFloatBitWidth() << " in kernel module '"
                << module.getName()
                << "': the NVPTX backend converts integers of at most 64 bits "
                   "(wider ones need compiler-rt calls it does not have); "
                   "narrow the integer first, or compile for the CPU";
            failed = true;
            return WalkResult::interrupt();
          });
    });
    if (failed)
      return signalPassFailure();
    llvm::SmallString<256> path(toolkit.getValue());
    llvm::sys::path::append(path, "nvvm", "libdevice", "libdevice.10.bc");
    if (llvm::sys::fs::is_regular_file(path))
      return;
    getOperation().walk([&](gpu::GPUModuleOp module) {
      SmallVector<StringRef> calls;
      module.walk([&](LLVM::LLVMFuncOp func) {
        if (func.isExternal() && func.getName().starts_with("__nv_"))
          calls.push_back(func.getName());
      });
      if (calls.empty())
        return;
      llvm::sort(calls);
      std::string names;
      for (auto [i, name] : llvm::enumerate(calls)) {
        if (i == 4) {
          names += ", ... (" + std::to_string(calls.size()) + " in all)";
          break;
        }
        names += (i ? ", " : "") + name.str();
      }
      attic::locError(module)
          << "kernel module '" << module.getName() << "' calls libdevice ("
          << names << "), but " << path
          << " does not exist: install the CUDA toolkit's "
             "nvvm/libdevice or pass toolkit=PATH to "
             "attic-cuda-pipeline";
      failed = true;
    });
    if (failed)
      signalPassFailure();
  }
};

/// Loads and stores of host stack buffers (the offload's error record).
static bool onHostStack(Value memref) {
  return isa_and_nonnull<memref::AllocaOp>(memref.getDefiningOp());
}

static bool allowedOnHost(Operation *op) {
  if (isa<func::FuncOp, func::ReturnOp, func::CallOp, ModuleOp>(op))
    return true;
  if (isa<gpu::GPUDialect>(op->getDialect()))
    return true;
  if (isa<memref::AllocOp, memref::AllocaOp, memref::DeallocOp, memref::DimOp,
          memref::CastOp, memref::GetGlobalOp, memref::GlobalOp,
          memref::ExtractAlignedPointerAsIndexOp,
          memref::ExtractStridedMetadataOp, memref::ReinterpretCastOp,
          memref::ExpandShapeOp, memref::CollapseShapeOp, memref::SubViewOp>(
          op))
    return true;
  if (auto load = dyn_cast<memref::LoadOp>(op))
    return onHostStack(load.getMemref());
  if (auto store = dyn_cast<memref::StoreOp>(op))
    return onHostStack(store.getMemref());
  if (isa<scf::IfOp, scf::ForOp, scf::YieldOp>(op))
    return true;
  // The tensor maps of TMA loads (describing device buffers; the runtime
  // encodes them).
  if (isa<nvgpu::TmaCreateDescriptorOp>(op))
    return true;
  if (auto cast = dyn_cast<UnrealizedConversionCastOp>(op))
    return cast->getNumOperands() == 1 &&
           isa<nvgpu::TensorMapDescriptorType>(cast->getOperandTypes()[0]);
  // Constants of kernels (gpu-kernel-outlining sinks them).
  if (isa<arith::ConstantOp>(op))
    return true;
  // Index and integer arithmetic (sizes, conditions, error codes), not math
  // on data.
  if (isa_and_nonnull<arith::ArithDialect>(op->getDialect())) {
    auto scalarInt = [](Type t) { return t.isIndex() || t.isInteger(); };
    return llvm::all_of(op->getOperandTypes(), scalarInt) &&
           llvm::all_of(op->getResultTypes(), scalarInt);
  }
  return false;
}

struct AtticGpuCheckHostPass
    : public attic::impl::AtticGpuCheckHostBase<AtticGpuCheckHostPass> {
  void runOnOperation() override {
    bool failed = false;
    getOperation().walk<WalkOrder::PreOrder>([&](Operation *op) -> WalkResult {
      // Kernels are checked by their own lowering; a nested module is
      // lowered by the pipeline nested on it (attic-check-scope refuses
      // one that still holds functions).
      if (isa<gpu::LaunchOp, gpu::GPUModuleOp>(op) ||
          (isa<ModuleOp>(op) && op != getOperation().getOperation()))
        return WalkResult::skip();
      if (!allowedOnHost(op)) {
        attic::opError(op)
            << "cannot be compiled by attic-cuda-pipeline: it would run on "
               "the CPU, and host code may only move data";
        failed = true;
        // One error per rejected region, not one per op inside it.
        return WalkResult::skip();
      }
      return WalkResult::advance();
    });
    if (failed)
      signalPassFailure();
  }
};

/// An op that may sit between one chain's blocking wait and the next
/// chain's start when the two are joined: it neither reads nor writes
/// memory that a pending step may use (a fresh allocation is a buffer no
/// step has seen yet).
static bool transparentToChains(Operation *op) {
  if (isa<memref::AllocOp, memref::AllocaOp>(op))
    return true;
  if (op->getNumRegions() &&
      !op->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
    return false;
  return isMemoryEffectFree(op);
}

struct AtticGpuMergeChainsPass
    : public attic::impl::AtticGpuMergeChainsBase<AtticGpuMergeChainsPass> {
  void runOnOperation() override {
    SmallVector<Block *> blocks;
    getOperation().walk<WalkOrder::PreOrder>([&](Operation *op) {
      // Kernels have no chains; host code is in functions.
      if (isa<gpu::LaunchOp, gpu::GPUModuleOp>(op))
        return WalkResult::skip();
      for (Region &region : op->getRegions())
        for (Block &block : region)
          blocks.push_back(&block);
      return WalkResult::advance();
    });
    for (Block *block : blocks)
      mergeIn(*block);
  }

  /// Joins the chains of `block` that nothing in between separates.
  static void mergeIn(Block &block) {
    // The blocking wait that ended the last chain, while everything after
    // it has been transparent.
    gpu::WaitOp end;
    for (Operation &op : llvm::make_early_inc_range(block)) {
      auto wait = dyn_cast<gpu::WaitOp>(op);
      if (wait && !wait.getAsyncToken()) {
        end = wait.getAsyncDependencies().size() == 1 ? wait : nullptr;
        continue;
      }
      if (wait && wait.getAsyncDependencies().empty()) {
        // A new chain: it continues from the last chain's token.
        if (end) {
          wait.getAsyncToken().replaceAllUsesWith(
              end.getAsyncDependencies().front());
          end.erase();
          wait.erase();
        }
        end = nullptr;
        continue;
      }
      // Steps of the current chain; fresh buffers and pure ops keep the
      // last end open, anything else needs the device's work done.
      if (isa<gpu::AsyncOpInterface>(op) || !transparentToChains(&op))
        end = nullptr;
    }
  }
};

/// The constant that the host value `v` is: the attribute of a constant
/// op, or what folding the pure arith ops (and memref.dim of a static
/// size) that compute it from constants gives; null otherwise. Nothing is
/// rewritten: an op's fold hook runs only when all its operands are known
/// constants (then arith's folds compute a value and change no op);
/// memref.dim is read from its type, since its fold may rewrite its
/// operand in place. Memoized in `memo`; chains deeper than 64 ops are
/// not followed.
static Attribute hostConstant(Value v, DenseMap<Value, Attribute> &memo,
                              unsigned depth = 0) {
  if (auto it = memo.find(v); it != memo.end())
    return it->second;
  Attribute result;
  Operation *def = v.getDefiningOp();
  if (def && matchPattern(v, m_Constant(&result))) {
    // result is the constant's attribute.
  } else if (auto dim = dyn_cast_or_null<memref::DimOp>(def)) {
    std::optional<int64_t> index = dim.getConstantIndex();
    auto type = dyn_cast<MemRefType>(dim.getSource().getType());
    if (index && type && *index >= 0 && *index < type.getRank() &&
        !type.isDynamicDim(*index))
      result = IntegerAttr::get(v.getType(), type.getDimSize(*index));
  } else if (def && depth < 64 && def->getNumRegions() == 0 && isPure(def) &&
             isa<arith::ArithDialect>(def->getDialect())) {
    SmallVector<Attribute> operands;
    for (Value operand : def->getOperands())
      operands.push_back(hostConstant(operand, memo, depth + 1));
    SmallVector<OpFoldResult> results;
    if (llvm::all_of(operands, [](Attribute a) { return bool(a); }) &&
        succeeded(def->fold(operands, results)) &&
        results.size() == def->getNumResults()) {
      OpFoldResult r = results[cast<OpResult>(v).getResultNumber()];
      if (auto attr = dyn_cast<Attribute>(r))
        result = attr;
      else if (cast<Value>(r) != v)
        result = hostConstant(cast<Value>(r), memo, depth + 1);
    }
  }
  memo[v] = result;
  return result;
}

struct AtticGpuAnnotateKernelsPass
    : public attic::impl::AtticGpuAnnotateKernelsBase<
          AtticGpuAnnotateKernelsPass> {
  using Base::Base;

  void runOnOperation() override {
    auto i32 = IntegerType::get(&getContext(), 32);
    auto i64 = IntegerType::get(&getContext(), 64);
    StringRef align = LLVM::LLVMDialect::getAlignAttrName();
    // Each kernel's launches, found once (the rewrites below change their
    // operands, not which kernel they launch).
    DenseMap<SymbolRefAttr, SmallVector<gpu::LaunchFuncOp>> launches;
    getOperation().walk([&](gpu::LaunchFuncOp launch) {
      launches[launch.getKernel()].push_back(launch);
    });
    // The host values that fold to constants, memoized across kernels.
    DenseMap<Value, Attribute> folded;
    getOperation().walk([&](gpu::GPUFuncOp func) {
      if (!func.isKernel())
        return;
      if (!func->hasAttr("nvvm.minctasm"))
        func->setAttr("nvvm.minctasm", IntegerAttr::get(i32, 1));
      // Shared memory 16-byte aligned: ldmatrix reads 16-byte rows (the
      // lowering otherwise aligns a buffer to its element type only).
      for (unsigned i = 0, e = func.getNumWorkgroupAttributions(); i < e; ++i)
        if (!func.getWorkgroupAttributionAttr(i, align))
          func.setWorkgroupAttributionAttr(i, align, IntegerAttr::get(i64, 16));
      auto kernels = func->getParentOfType<gpu::GPUModuleOp>();
      auto found = launches.find(
          SymbolRefAttr::get(kernels.getSymNameAttr(),
                             {FlatSymbolRefAttr::get(func.getNameAttr())}));
      ArrayRef<gpu::LaunchFuncOp> launchesOfFunc;
      if (found != launches.end())
        launchesOfFunc = found->second;
      passTensorMapsAsPointers(func, launchesOfFunc);
      if (inlineConstants) {
        inlineConstantArguments(func, launchesOfFunc, folded);
        annotateKnownSizes(func, launchesOfFunc, folded);
      }
    });
  }

  /// A kernel argument that every launch passes the same constant becomes
  /// that constant in the kernel. The mapping passes write their constants
  /// inside gpu.launch, but a canonicalization before outlining hoists them
  /// into the host function (gpu.launch is not isolated from above), and
  /// outlining (which sinks nothing) then passes each as a kernel argument:
  /// unknown to the NVPTX back end, so loops with constant trip counts
  /// stopped being unrolled and divisions by constants stayed divisions.
  /// Without that canonicalization, the mapping's host computations of
  /// constants (the grid's size, whether it is empty) are not folded
  /// either: hostConstant folds them here.
  void inlineConstantArguments(gpu::GPUFuncOp func,
                               ArrayRef<gpu::LaunchFuncOp> launches,
                               DenseMap<Value, Attribute> &folded) {
    if (launches.empty())
      return;
    Block &entry = func.getBody().front();
    OpBuilder b(&getContext());
    b.setInsertionPointToStart(&entry);
    llvm::BitVector erased(func.getNumArguments());
    for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i) {
      // The same value from every launch (the operands have the kernel
      // argument's type, so equal attributes are equal values).
      Attribute value;
      for (gpu::LaunchFuncOp launch : launches) {
        Attribute attr = hostConstant(launch.getKernelOperands()[i], folded);
        if (!attr || (value && attr != value)) {
          value = nullptr;
          break;
        }
        value = attr;
      }
      if (!value)
        continue;
      // The first launch's constant op cloned, or an arith.constant of
      // the folded value.
      Type type = entry.getArgument(i).getType();
      gpu::LaunchFuncOp first = launches.front();
      Operation *def = first.getKernelOperands()[i].getDefiningOp();
      Value inKernel;
      if (def && matchPattern(def, m_Constant()))
        inKernel = b.clone(*def)->getResult(0);
      else if (arith::ConstantOp::isBuildableWith(value, type))
        inKernel = arith::ConstantOp::create(b, func.getLoc(), type,
                                             cast<TypedAttr>(value));
      else
        continue;
      entry.getArgument(i).replaceAllUsesWith(inKernel);
      erased.set(i);
    }
    if (erased.none())
      return;
    if (failed(func.eraseArguments(erased))) {
      attic::opError(func, "could not erase the kernel's constant arguments");
      return signalPassFailure();
    }
    for (gpu::LaunchFuncOp launch : launches)
      for (int i = erased.find_last(); i >= 0; i = erased.find_prev(i))
        launch.getKernelOperandsMutable().erase(i);
  }

  /// Sets the kernel's `known_grid_size` (and `known_block_size`) where
  /// outlining did not because the launches' sizes are computed: when
  /// every launch's sizes fold to the same constants, each in i32.
  void annotateKnownSizes(gpu::GPUFuncOp func,
                          ArrayRef<gpu::LaunchFuncOp> launches,
                          DenseMap<Value, Attribute> &folded) {
    if (launches.empty())
      return;
    auto sizesOf = [&](auto dims) -> std::optional<SmallVector<int32_t>> {
      std::optional<SmallVector<int32_t>> common;
      for (gpu::LaunchFuncOp launch : launches) {
        gpu::KernelDim3 d = dims(launch);
        SmallVector<int32_t> sizes;
        for (Value v : {d.x, d.y, d.z}) {
          auto attr = dyn_cast_or_null<IntegerAttr>(hostConstant(v, folded));
          if (!attr || attr.getValue().getActiveBits() > 31 ||
              attr.getValue().isZero())
            return std::nullopt;
          sizes.push_back(attr.getValue().getZExtValue());
        }
        if (common && *common != sizes)
          return std::nullopt;
        common = sizes;
      }
      return common;
    };
    if (!func.getKnownGridSizeAttr())
      if (auto sizes = sizesOf(
              [](gpu::LaunchFuncOp l) { return l.getGridSizeOperandValues(); }))
        func.setKnownGridSizeAttr(
            DenseI32ArrayAttr::get(&getContext(), *sizes));
    if (!func.getKnownBlockSizeAttr())
      if (auto sizes = sizesOf([](gpu::LaunchFuncOp l) {
            return l.getBlockSizeOperandValues();
          }))
        func.setKnownBlockSizeAttr(
            DenseI32ArrayAttr::get(&getContext(), *sizes));
    // The known sizes as constants in the code (the attributes give the
    // NVPTX back end a range only, not the value).
    std::optional<ArrayRef<int32_t>> grid = func.getKnownGridSize();
    std::optional<ArrayRef<int32_t>> block = func.getKnownBlockSize();
    func.walk([&](Operation *op) {
      std::optional<ArrayRef<int32_t>> known;
      gpu::Dimension dim;
      if (auto g = dyn_cast<gpu::GridDimOp>(op)) {
        known = grid;
        dim = g.getDimension();
      } else if (auto bd = dyn_cast<gpu::BlockDimOp>(op)) {
        known = block;
        dim = bd.getDimension();
      }
      if (!known || known->size() != 3)
        return;
      OpBuilder b(op);
      op->getResult(0).replaceAllUsesWith(arith::ConstantIndexOp::create(
          b, op->getLoc(), (*known)[static_cast<unsigned>(dim)]));
      op->erase();
    });
  }

  /// A TMA tensor map crosses into a kernel as the pointer that
  /// convert-nvgpu-to-nvvm makes of it on the host (convert-gpu-to-nvvm
  /// does not convert a kernel argument of the descriptor type). The
  /// tensor-core kernel casts it so itself, but canonicalization before
  /// outlining folds that pair of casts (the kernel is not yet a function)
  /// and outlining then passes the descriptor: each such argument becomes
  /// a pointer here, cast back at the kernel's entry and cast to it at
  /// every launch.
  void passTensorMapsAsPointers(gpu::GPUFuncOp func,
                                ArrayRef<gpu::LaunchFuncOp> launches) {
    Block &entry = func.getBody().front();
    auto ptr = LLVM::LLVMPointerType::get(&getContext());
    SmallVector<unsigned> maps;
    for (auto [i, arg] : llvm::enumerate(entry.getArguments()))
      if (i < func.getNumArguments() &&
          isa<nvgpu::TensorMapDescriptorType>(arg.getType()))
        maps.push_back(i);
    if (maps.empty())
      return;
    OpBuilder b(&getContext());
    b.setInsertionPointToStart(&entry);
    for (unsigned i : maps) {
      BlockArgument arg = entry.getArgument(i);
      Type mapType = arg.getType();
      arg.setType(ptr);
      auto cast =
          UnrealizedConversionCastOp::create(b, arg.getLoc(), mapType, arg);
      arg.replaceAllUsesExcept(cast.getResult(0), cast);
    }
    SmallVector<Type> inputs(func.getArgumentTypes());
    for (unsigned i : maps)
      inputs[i] = ptr;
    func.setFunctionType(
        FunctionType::get(&getContext(), inputs, func.getResultTypes()));
    for (gpu::LaunchFuncOp launch : launches) {
      b.setInsertionPoint(launch);
      for (unsigned i : maps) {
        OpOperand &operand = launch.getKernelOperandsMutable()[i];
        operand.set(UnrealizedConversionCastOp::create(b, launch.getLoc(), ptr,
                                                       operand.get())
                        .getResult(0));
      }
    }
  }
};

/// The attributes of a kernel module that its kernels share: modules with
/// equal keys may be compiled as one, and only they can be duplicates of
/// each other.
std::string moduleAttributesKey(gpu::GPUModuleOp kernels) {
  std::string key;
  llvm::raw_string_ostream os(key);
  if (ArrayAttr targets = kernels.getTargetsAttr())
    os << targets;
  os << "|";
  if (Attribute handler = kernels.getOffloadingHandlerAttr())
    os << handler;
  // Discardable attributes too (anything a later pass may read).
  for (NamedAttribute attr : kernels->getDiscardableAttrs())
    os << "|" << attr.getName() << "=" << attr.getValue();
  return key;
}

/// Rewrites the symbol references in the ops of `module` outside its
/// kernel modules as `rewrite` says (nullopt: unchanged).
void replaceKernelReferences(
    ModuleOp module,
    llvm::function_ref<std::optional<Attribute>(SymbolRefAttr)> rewrite) {
  AttrTypeReplacer replacer;
  replacer.addReplacement(rewrite);
  for (Operation &op : module.getBody()->getOperations())
    if (!isa<gpu::GPUModuleOp>(op))
      replacer.recursivelyReplaceElementsIn(&op, /*replaceAttrs=*/true,
                                            /*replaceLocs=*/false,
                                            /*replaceTypes=*/false);
}

struct AtticGpuDedupKernelsPass
    : public attic::impl::AtticGpuDedupKernelsBase<AtticGpuDedupKernelsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Module contents -> the first module with them. Printed in a local
    // scope: aliases and value names depend on the module alone, not on
    // where it sits.
    llvm::StringMap<StringAttr> firstWith;
    DenseMap<StringAttr, StringAttr> replacement;
    SmallVector<gpu::GPUModuleOp> duplicates;
    OpPrintingFlags flags;
    flags.useLocalScope();
    for (auto kernels : module.getOps<gpu::GPUModuleOp>()) {
      std::string key = moduleAttributesKey(kernels);
      llvm::raw_string_ostream os(key);
      os << "\n";
      for (Operation &op : kernels.getBody()->getOperations()) {
        op.print(os, flags);
        os << "\n";
      }
      auto [it, inserted] =
          firstWith.try_emplace(key, kernels.getSymNameAttr());
      if (!inserted) {
        replacement[kernels.getSymNameAttr()] = it->second;
        duplicates.push_back(kernels);
      }
    }
    if (duplicates.empty())
      return;
    // Every reference @duplicate::@kernel -> @kept::@kernel (the kernels'
    // own names are equal, being part of the compared text).
    replaceKernelReferences(
        module, [&](SymbolRefAttr ref) -> std::optional<Attribute> {
          auto it = replacement.find(ref.getRootReference());
          if (it == replacement.end())
            return std::nullopt;
          return SymbolRefAttr::get(it->second, ref.getNestedReferences());
        });
    for (gpu::GPUModuleOp kernels : duplicates)
      kernels.erase();
  }
};

struct AtticGpuMergeKernelModulesPass
    : public attic::impl::AtticGpuMergeKernelModulesBase<
          AtticGpuMergeKernelModulesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // The first module of each attribute key receives the others.
    llvm::StringMap<gpu::GPUModuleOp> destinations;
    SmallVector<std::pair<gpu::GPUModuleOp, gpu::GPUModuleOp>> moves;
    for (auto kernels : module.getOps<gpu::GPUModuleOp>()) {
      auto [it, inserted] =
          destinations.try_emplace(moduleAttributesKey(kernels), kernels);
      if (!inserted)
        moves.emplace_back(kernels, it->second);
    }
    // (module, symbol) -> (destination, new name).
    DenseMap<std::pair<StringAttr, StringAttr>,
             std::pair<StringAttr, StringAttr>>
        moved;
    for (auto [source, destination] : moves) {
      SymbolTable sourceTable(source), destinationTable(destination);
      StringAttr sourceName = source.getSymNameAttr();
      SmallVector<std::pair<Operation *, StringAttr>> symbols;
      SmallVector<gpu::GPUFuncOp> kernels;
      for (Operation &op : source.getBody()->getOperations()) {
        if (auto name =
                op.getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName()))
          symbols.emplace_back(&op, name);
        if (auto func = dyn_cast<gpu::GPUFuncOp>(op); func && func.isKernel())
          kernels.push_back(func);
      }
      // Kernels named after their module (module names are unique); then
      // any symbol whose name the destination has gets a unique one. The
      // uses inside the source follow each renaming.
      for (gpu::GPUFuncOp kernel : kernels) {
        std::string name =
            kernels.size() == 1
                ? sourceName.str()
                : (sourceName.getValue() + "_" + kernel.getName()).str();
        if (kernel.getName() != name &&
            failed(sourceTable.rename(kernel, name))) {
          attic::opError(kernel, "could not be renamed to '" + name +
                                     "' by attic-gpu-merge-kernel-modules");
          return signalPassFailure();
        }
      }
      for (auto [op, oldName] : symbols) {
        if (!destinationTable.lookup(SymbolTable::getSymbolName(op)))
          continue;
        if (failed(sourceTable.renameToUnique(op, {&destinationTable}))) {
          attic::opError(op, "could not be renamed by "
                             "attic-gpu-merge-kernel-modules");
          return signalPassFailure();
        }
      }
      for (auto [op, oldName] : symbols)
        moved[{sourceName, oldName}] = {destination.getSymNameAttr(),
                                        SymbolTable::getSymbolName(op)};
      for (Operation &op :
           llvm::make_early_inc_range(source.getBody()->getOperations())) {
        op.moveBefore(destination.getBody(), destination.getBody()->end());
        if (op.hasAttr(SymbolTable::getSymbolAttrName()))
          destinationTable.insert(&op);
      }
      source.erase();
    }
    if (moved.empty())
      return;
    replaceKernelReferences(
        module, [&](SymbolRefAttr ref) -> std::optional<Attribute> {
          ArrayRef<FlatSymbolRefAttr> nested = ref.getNestedReferences();
          if (nested.empty())
            return std::nullopt;
          auto it = moved.find({ref.getRootReference(), nested[0].getAttr()});
          if (it == moved.end())
            return std::nullopt;
          SmallVector<FlatSymbolRefAttr> path{
              FlatSymbolRefAttr::get(it->second.second)};
          path.append(nested.begin() + 1, nested.end());
          return SymbolRefAttr::get(it->second.first, path);
        });
  }
};

struct AtticNvvmExternDynamicSharedPass
    : public attic::impl::AtticNvvmExternDynamicSharedBase<
          AtticNvvmExternDynamicSharedPass> {
  void runOnOperation() override {
    // Address space 3 is NVVM's shared memory.
    constexpr unsigned kShared = 3;
    for (auto global : getOperation().getOps<LLVM::GlobalOp>()) {
      auto array = dyn_cast<LLVM::LLVMArrayType>(global.getGlobalType());
      if (!array || array.getNumElements() != 0 ||
          global.getAddrSpace() != kShared || global.getValueOrNull() ||
          global.getInitializerBlock())
        continue;
      global.setLinkage(LLVM::Linkage::External);
      // External symbols are visible: no dso_local or unnamed_addr claims.
      global.setDsoLocal(false);
    }
  }
};

} // namespace
