//===- CudaPipeline.cpp - attic-cuda-pipeline -------------------*- C++ -*-===//
//
// attic ops on tensors -> host code in the LLVM dialect that calls the mgpu*
// ABI of MLIR 22 (what gpu-to-llvm emits), plus a gpu.binary with the
// kernels as PTX, cubin or fatbin. See docs/cuda.md.
//
//===----------------------------------------------------------------------===//

#include "attic/Dialect/Attic/AtticDialect.h"
#include "attic/Pipelines/Pipelines.h"
#include "attic/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace mlir;

namespace {

/// Fails with `message` (a bad pipeline option).
struct OptionErrorPass
    : public PassWrapper<OptionErrorPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(OptionErrorPass)
  explicit OptionErrorPass(std::string message) : message(std::move(message)) {}
  StringRef getArgument() const override { return "attic-cuda-option-error"; }
  void runOnOperation() override {
    emitError(getOperation().getLoc()) << "attic-cuda-pipeline: " << message;
    signalPassFailure();
  }
  std::string message;
};

/// Rejects host code that is not data movement or bookkeeping: after
/// attic-gpu-offload and attic-gpu-block-attention, anything else would
/// silently run on the CPU (on device memory).
struct CudaCheckPass
    : public PassWrapper<CudaCheckPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(CudaCheckPass)
  StringRef getArgument() const override { return "attic-cuda-check"; }

  /// Loads and stores of host stack buffers (the offload's error record).
  static bool onHostStack(Value memref) {
    return isa_and_nonnull<memref::AllocaOp>(memref.getDefiningOp());
  }

  static bool allowedOnHost(Operation *op) {
    if (isa<func::FuncOp, func::ReturnOp, func::CallOp, ModuleOp>(op))
      return true;
    if (isa<gpu::GPUDialect>(op->getDialect()))
      return true;
    if (isa<memref::AllocOp, memref::AllocaOp, memref::DeallocOp,
            memref::DimOp, memref::CastOp, memref::GetGlobalOp, memref::GlobalOp,
            memref::ExtractAlignedPointerAsIndexOp,
            memref::ExtractStridedMetadataOp, memref::ReinterpretCastOp,
            memref::ExpandShapeOp, memref::CollapseShapeOp,
            memref::SubViewOp>(op))
      return true;
    if (auto load = dyn_cast<memref::LoadOp>(op))
      return onHostStack(load.getMemref());
    if (auto store = dyn_cast<memref::StoreOp>(op))
      return onHostStack(store.getMemref());
    if (isa<scf::IfOp, scf::ForOp, scf::YieldOp>(op))
      return true;
    // Constants of kernels (gpu-kernel-outlining sinks them).
    if (isa<arith::ConstantOp>(op))
      return true;
    // Index and integer arithmetic (sizes, conditions, error codes), not
    // math on data.
    if (op->getDialect() &&
        op->getDialect()->getNamespace() == "arith") {
      auto scalarInt = [](Type t) { return t.isIndex() || t.isInteger(); };
      return llvm::all_of(op->getOperandTypes(), scalarInt) &&
             llvm::all_of(op->getResultTypes(), scalarInt);
    }
    return false;
  }

  void runOnOperation() override {
    bool failed = false;
    getOperation().walk<WalkOrder::PreOrder>([&](Operation *op) -> WalkResult {
      // Kernels are checked by their own lowering.
      if (isa<gpu::LaunchOp, gpu::GPUModuleOp>(op))
        return WalkResult::skip();
      if (!allowedOnHost(op)) {
        op->emitOpError()
            << "cannot be compiled by attic-cuda-pipeline: it would run on "
               "the CPU, and host code may only move data";
        failed = true;
      }
      return WalkResult::advance();
    });
    if (failed)
      signalPassFailure();
  }
};

/// Gives every kernel `nvvm.minctasm = 1` (PTX .minnctapersm 1): with
/// 128 threads and `.maxntid` alone, ptxas targets 3 blocks per SM on sm_80
/// (at most 168 registers) and spills the D = 128 causal kernel; one block
/// per SM lets it use the registers it needs (about 220) without spills.
struct AnnotateKernelsPass
    : public PassWrapper<AnnotateKernelsPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(AnnotateKernelsPass)
  StringRef getArgument() const override { return "attic-cuda-annotate"; }
  void runOnOperation() override {
    getOperation().walk([&](gpu::GPUFuncOp func) {
      if (func.isKernel() && !func->hasAttr("nvvm.minctasm"))
        func->setAttr("nvvm.minctasm",
                      IntegerAttr::get(IntegerType::get(&getContext(), 32), 1));
    });
  }
};

} // namespace

std::string attic::resolveCudaToolkit(const CudaPipelineOptions &options) {
  std::string path = options.toolkit.empty() ? std::string("/usr/local/cuda")
                                             : std::string(options.toolkit);
  llvm::SmallString<256> ptxas(path);
  llvm::sys::path::append(ptxas, "bin", "ptxas");
  return llvm::sys::fs::can_execute(ptxas) ? path : std::string();
}

void attic::buildCudaPipeline(OpPassManager &pm,
                              const CudaPipelineOptions &options) {
  std::string chip = options.chip;
  if (chip != "sm_80" && chip != "sm_90") {
    pm.addPass(std::make_unique<OptionErrorPass>(
        "chip must be sm_80 or sm_90, got '" + chip + "'"));
    return;
  }
  std::string toolkit = resolveCudaToolkit(options);
  std::string format = options.format;
  if (format.empty())
    format = toolkit.empty() ? "isa" : "bin";
  if (format != "isa" && format != "bin" && format != "fatbin") {
    pm.addPass(std::make_unique<OptionErrorPass>(
        "format must be isa (PTX), bin (cubin) or fatbin, got '" + format +
        "'"));
    return;
  }
  if (format != "isa" && toolkit.empty()) {
    pm.addPass(std::make_unique<OptionErrorPass>(
        "format=" + format + " needs ptxas, but " +
        (options.toolkit.empty() ? std::string("/usr/local/cuda")
                                 : std::string(options.toolkit)) +
        "/bin/ptxas is not there; use format=isa or toolkit=PATH"));
    return;
  }
  if (options.blockQ != 16 && options.blockQ != 32 && options.blockQ != 64 &&
      options.blockQ != 128) {
    pm.addPass(std::make_unique<OptionErrorPass>(
        "block-q must be 16, 32, 64 or 128 (16 query rows per warp), got " +
        std::to_string(options.blockQ)));
    return;
  }
  if (options.blockK < 16 || options.blockK > 128 || options.blockK % 16) {
    pm.addPass(std::make_unique<OptionErrorPass>(
        "block-k must be a multiple of 16 in [16, 128], got " +
        std::to_string(options.blockK)));
    return;
  }

  // L1 -> L2 on tensors, bufferized as for the CPU.
  buildBufferizationPipeline(pm, options.blockQ, options.blockK);
  // Device buffers, a kernel per loop nest (the data-movement and reduction
  // primitives, linalg), SIMT attention where the tensor-core kernel does
  // not apply.
  buildGpuOffloadPipeline(pm, /*tensorCores=*/true);
  pm.addPass(std::make_unique<CudaCheckPass>());
  // No canonicalization before outlining: it would hoist the kernel's
  // constants (vectors, f32) out of gpu.launch into kernel arguments.
  pm.addPass(createGpuKernelOutliningPass());
  pm.addPass(std::make_unique<AnnotateKernelsPass>());

  // Kernels -> NVVM.
  GpuNVVMAttachTargetOptions target;
  target.chip = chip;
  target.features = "+ptx80";
  target.optLevel = 3;
  pm.addPass(createGpuNVVMAttachTarget(target));
  pm.addPass(createConvertNVGPUToNVVMPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
  kernels.addPass(createConvertGpuOpsToNVVMOps());
  kernels.addPass(createCanonicalizerPass());
  kernels.addPass(createCSEPass());
  kernels.addPass(createReconcileUnrealizedCastsPass());

  // Host -> LLVM dialect calling the mgpu* functions.
  pm.addPass(createConvertBufferizationToMemRefPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createGpuToLLVMConversionPass());
  pm.addPass(createReconcileUnrealizedCastsPass());

  // Kernels -> PTX (NVPTX backend) -> cubin/fatbin (ptxas).
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = format;
  binary.toolkitPath = toolkit;
  pm.addPass(createGpuModuleToBinaryPass(binary));
}
