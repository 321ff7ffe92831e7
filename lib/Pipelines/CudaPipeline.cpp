//===- CudaPipeline.cpp - attic-cuda-pipeline -------------------*- C++ -*-===//
//
// attic ops on tensors -> host code in the LLVM dialect that calls the mgpu*
// ABI of MLIR 22 (what gpu-to-llvm emits), plus a gpu.binary with the
// kernels as PTX, cubin or fatbin. See docs/cuda.md.
//
//===----------------------------------------------------------------------===//

#include "attic/Conversion/AtticToGPU/AtticToGPU.h"
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

/// attic-fail with `message` as attic-cuda-pipeline's error (a bad option).
static std::unique_ptr<Pass> optionError(const std::string &message) {
  attic::AtticFailOptions options;
  options.message = "attic-cuda-pipeline: " + message;
  return attic::createAtticFail(options);
}

std::string attic::cudaToolkitPath(const CudaPipelineOptions &options) {
  return options.toolkit.empty() ? std::string("/usr/local/cuda")
                                 : std::string(options.toolkit);
}

std::string attic::resolveCudaToolkit(const CudaPipelineOptions &options) {
  std::string path = cudaToolkitPath(options);
  llvm::SmallString<256> ptxas(path);
  llvm::sys::path::append(ptxas, "bin", "ptxas");
  return llvm::sys::fs::can_execute(ptxas) ? path : std::string();
}

std::string attic::checkCudaBlockSizes(int64_t blockQ, int64_t blockK) {
  if (blockQ != 16 && blockQ != 32 && blockQ != 64 && blockQ != 128)
    return "block-q must be 16, 32, 64 or 128 (16 query rows per warp), "
           "got " +
           std::to_string(blockQ);
  if (blockK < 16 || blockK > 128 || blockK % 16)
    return "block-k must be a multiple of 16 in [16, 128], got " +
           std::to_string(blockK);
  return "";
}

attic::TensorCoreOptions attic::CudaPipelineOptions::kernelOptions() const {
  TensorCoreOptions kernel;
  kernel.asyncCopies = asyncCopies;
  kernel.kvStages = kvStages;
  kernel.wgmma = wgmma;
  kernel.wgmmaOverlap = wgmmaOverlap;
  kernel.tma = tma;
  kernel.warpSpecialize = warpSpecialize;
  kernel.pingPong = pingPong;
  return kernel;
}

attic::GpuMappingOptions attic::CudaPipelineOptions::mappingOptions() const {
  GpuMappingOptions mapping;
  mapping.kernel = kernelOptions();
  mapping.mergeChains = mergeChains;
  mapping.fuseLaunches = fuseLaunches;
  mapping.fuseLevels = fuseLevels;
  return mapping;
}

void attic::buildCudaMappingPipeline(OpPassManager &pm, int64_t blockQ,
                                     int64_t blockK,
                                     const GpuMappingOptions &options) {
  // The input checks of attic-cuda-pipeline (its targets take gpu.launch).
  AtticCheckScopeOptions scope;
  scope.pipeline = "attic-cuda-pipeline";
  scope.allowLaunches = true;
  pm.addPass(createAtticCheckScope(scope));
  // L1 -> L2 on tensors, bufferized as for the CPU.
  buildBufferizationPipeline(pm, blockQ, blockK, /*forGpu=*/true);
  // Device buffers, a kernel per loop nest (the data-movement and reduction
  // primitives, linalg), the tile loops as the tensor-core kernel where it
  // applies and a thread per row elsewhere.
  buildGpuOffloadPipeline(pm, /*tensorCores=*/true, options);
  pm.addPass(attic::createAtticGpuCheckHost());
  // One stream for the steps between the host's reads of device results.
  if (options.mergeChains)
    pm.addPass(attic::createAtticGpuMergeChains());
  // Steps that share a buffer are ordered on the GPU (a missing token edge
  // shows on no CPU target).
  pm.addPass(attic::createAtticGpuCheckStreams());
}

void attic::buildCudaOutliningPipeline(OpPassManager &pm,
                                       bool inlineKernelConstants,
                                       bool mergeKernels) {
  // No canonicalization before outlining: it would hoist the kernel's
  // constants (vectors, f32) out of gpu.launch into kernel arguments
  // (attic-gpu-annotate-kernels turns those back into constants, for
  // pipelines of users' own that canonicalize here).
  pm.addPass(createGpuKernelOutliningPass());
  AtticGpuAnnotateKernelsOptions annotate;
  annotate.inlineConstants = inlineKernelConstants;
  pm.addPass(attic::createAtticGpuAnnotateKernels(annotate));
  // One module of each set of identical kernels (repeated layers), then
  // all kernels in one module: each module is a run of the NVPTX back end
  // and of ptxas (bench/results/cuda/compile-time-kernel-modules.md).
  if (mergeKernels) {
    pm.addPass(attic::createAtticGpuDedupKernels());
    pm.addPass(attic::createAtticGpuMergeKernelModules());
  }
}

void attic::buildCudaPipeline(OpPassManager &pm,
                              const CudaPipelineOptions &options) {
  if (!checkPipelineAnchor(pm, "attic-cuda-pipeline"))
    return;
  std::string chip = options.chip;
  if (chip != "sm_80" && chip != "sm_90" && chip != "sm_90a") {
    pm.addPass(
        optionError("chip must be sm_80, sm_90 or sm_90a, got '" + chip + "'"));
    return;
  }
  std::string toolkit = resolveCudaToolkit(options);
  std::string format = options.format;
  if (format.empty())
    format = toolkit.empty() ? "isa" : "bin";
  if (format != "isa" && format != "bin" && format != "fatbin") {
    pm.addPass(optionError(
        "format must be isa (PTX), bin (cubin) or fatbin, got '" + format +
        "'"));
    return;
  }
  if (format != "isa" && toolkit.empty()) {
    pm.addPass(optionError(
        "format=" + format + " needs ptxas, but " + cudaToolkitPath(options) +
        "/bin/ptxas is not there; use format=isa or toolkit=PATH"));
    return;
  }
  if (std::string message = checkCudaBlockSizes(options.blockQ, options.blockK);
      !message.empty()) {
    pm.addPass(optionError(message));
    return;
  }
  if (std::string message = checkTensorCoreOptions(options.kernelOptions());
      !message.empty()) {
    pm.addPass(optionError(message));
    return;
  }
  if (options.wgmma && chip != "sm_90a") {
    pm.addPass(optionError("wgmma needs chip=sm_90a (wgmma.mma_async is "
                           "sm_90a's), got '" +
                           chip + "'"));
    return;
  }
  buildCudaMappingPipeline(pm, options.blockQ, options.blockK,
                           options.mappingOptions());
  buildCudaOutliningPipeline(pm, options.inlineKernelConstants,
                             options.mergeKernels);

  // Kernels -> NVVM.
  GpuNVVMAttachTargetOptions target;
  target.chip = chip;
  target.features = "+ptx80";
  target.optLevel = 3;
  pm.addPass(createGpuNVVMAttachTarget(target));
  pm.addPass(createConvertNVGPUToNVVMPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(attic::createAtticExpandStridedMetadata());
  pm.addPass(createLowerAffinePass());
  OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
  kernels.addPass(createConvertGpuOpsToNVVMOps());
  // Dynamic shared memory (the tensor-core kernel's K and V rings) as
  // `.extern .shared`, after the static shared memory.
  kernels.addPass(attic::createAtticNvvmExternDynamicShared());
  kernels.addPass(createCanonicalizerPass());
  kernels.addPass(createCSEPass());
  kernels.addPass(createReconcileUnrealizedCastsPass());

  // Host -> LLVM dialect calling the mgpu* functions.
  pm.addPass(createConvertBufferizationToMemRefPass());
  pm.addPass(createArithToLLVMConversionPass());
  // ub.poison (a function's own, or from upstream folds) -> llvm.mlir.poison.
  pm.addPass(createUBToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createGpuToLLVMConversionPass());
  pm.addPass(createReconcileUnrealizedCastsPass());

  // Kernels -> PTX (NVPTX backend) -> cubin/fatbin (ptxas), with
  // libdevice linked where kernels call it (checked first: upstream only
  // reports a missing libdevice and writes PTX with unresolved calls).
  AtticGpuCheckLibdeviceOptions libdevice;
  libdevice.toolkit = cudaToolkitPath(options);
  pm.addPass(attic::createAtticGpuCheckLibdevice(libdevice));
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = format;
  // The toolkit given (or the default) also where it has no ptxas: with
  // format=isa only its libdevice is used.
  binary.toolkitPath = libdevice.toolkit;
  pm.addPass(createGpuModuleToBinaryPass(binary));
  pm.addPass(attic::createAtticGpuStripCompileTimes());
}
