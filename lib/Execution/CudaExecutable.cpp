//===- CudaExecutable.cpp - Compile and run attic functions on CUDA -------===//

#include "attic/Execution/CudaExecutable.h"
#include "attic/Support/CrashHandler.h"

#include "attic/runtime/CudaMgpu.h"

#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

using namespace mlir;

namespace {

constexpr llvm::StringLiteral kAtticCudaPipeline = "attic-cuda-pipeline";

std::string takeCudaError() {
  char message[1024];
  if (attic_cuda_take_error(message, sizeof(message)) == ATTIC_OK)
    return {};
  return message;
}

/// The functions attic's runtime provides to the host code: the mgpu*
/// functions of MLIR 22's gpu-to-llvm and offloading translation, and the
/// runtime's error report.
struct RuntimeFunction {
  const char *name;
  void *address;
};
template <typename F>
RuntimeFunction fn(const char *name, F *function) {
  return {name, reinterpret_cast<void *>(function)};
}
ArrayRef<RuntimeFunction> runtimeFunctions() {
  static const RuntimeFunction functions[] = {
      fn("mgpuModuleLoad", &mgpuModuleLoad),
      fn("mgpuModuleLoadJIT", &mgpuModuleLoadJIT),
      fn("mgpuModuleUnload", &mgpuModuleUnload),
      fn("mgpuModuleGetFunction", &mgpuModuleGetFunction),
      fn("mgpuLaunchKernel", &mgpuLaunchKernel),
      fn("mgpuLaunchClusterKernel", &mgpuLaunchClusterKernel),
      fn("mgpuStreamCreate", &mgpuStreamCreate),
      fn("mgpuStreamDestroy", &mgpuStreamDestroy),
      fn("mgpuStreamSynchronize", &mgpuStreamSynchronize),
      fn("mgpuStreamWaitEvent", &mgpuStreamWaitEvent),
      fn("mgpuEventCreate", &mgpuEventCreate),
      fn("mgpuEventDestroy", &mgpuEventDestroy),
      fn("mgpuEventSynchronize", &mgpuEventSynchronize),
      fn("mgpuEventRecord", &mgpuEventRecord),
      fn("mgpuMemAlloc", &mgpuMemAlloc),
      fn("mgpuMemFree", &mgpuMemFree),
      fn("mgpuMemcpy", &mgpuMemcpy),
      fn("mgpuMemset32", &mgpuMemset32),
      fn("mgpuMemset16", &mgpuMemset16),
      fn("mgpuMemHostRegister", &mgpuMemHostRegister),
      fn("mgpuMemHostRegisterMemRef", &mgpuMemHostRegisterMemRef),
      fn("mgpuMemHostUnregister", &mgpuMemHostUnregister),
      fn("mgpuMemHostUnregisterMemRef", &mgpuMemHostUnregisterMemRef),
      fn("mgpuSetDefaultDevice", &mgpuSetDefaultDevice),
      fn("mgpuTensorMapEncodeTiledMemref", &mgpuTensorMapEncodeTiledMemref),
      // Data-dependent errors found by compiled host code (Runtime.h).
      fn("attic_rt_report_error", &attic_rt_report_error),
  };
  return functions;
}

llvm::orc::SymbolMap runtimeSymbols(llvm::orc::MangleAndInterner interner) {
  llvm::orc::SymbolMap symbols;
  for (const RuntimeFunction &function : runtimeFunctions())
    symbols[interner(function.name)] = {
        llvm::orc::ExecutorAddr::fromPtr(function.address),
        llvm::JITSymbolFlags::Exported};
  return symbols;
}

} // namespace

bool attic::isCudaRuntimeFunction(StringRef name) {
  return llvm::any_of(runtimeFunctions(), [&](const RuntimeFunction &function) {
    return name == function.name;
  });
}

void attic::registerCudaHostTranslations(DialectRegistry &registry) {
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerGPUDialectTranslation(registry);
  registerNVVMDialectTranslation(registry);
  gpu::registerOffloadingLLVMTranslationInterfaceExternalModels(registry);
}

namespace {

/// Every function the host code declares must come from attic's runtime or
/// the process (libc, libm, MLIR's C runner utilities); otherwise the JIT
/// would fail to materialize the module with a multi-line ORC message and
/// the kernels would silently stay unloaded. Names the first missing one.
LogicalResult checkExternalFunctions(ModuleOp module, std::string &error) {
  for (auto func : module.getOps<LLVM::LLVMFuncOp>()) {
    StringRef name = func.getName();
    if (!func.isExternal() || name.starts_with("llvm."))
      continue;
    bool provided = attic::isCudaRuntimeFunction(name) ||
                    llvm::sys::DynamicLibrary::SearchForAddressOfSymbol(
                        name.str().c_str());
    if (!provided) {
      error = ("the CUDA host code calls @" + name +
               ", which neither attic's runtime nor the process provides")
                  .str();
      return failure();
    }
  }
  return success();
}

} // namespace

FailureOr<attic_cuda_device_info> attic::queryCudaDevice(std::string &error) {
  attic_cuda_device_info info;
  char message[1024];
  if (attic_cuda_device_query(&info, message, sizeof(message)) != ATTIC_OK) {
    error = message;
    return failure();
  }
  return info;
}

FailureOr<std::string>
attic::cudaChipFor(const attic_cuda_device_info &device, std::string &error) {
  if (device.computeMajor < 8) {
    error = std::string(device.name) + " has compute capability " +
            std::to_string(device.computeMajor) + "." +
            std::to_string(device.computeMinor) +
            "; attic's CUDA kernels need sm_80 or newer";
    return failure();
  }
  return std::string(device.computeMajor == 8 ? "sm_80" : "sm_90");
}

std::string attic::defaultCudaPipeline(const attic_cuda_device_info &device,
                                       StringRef chip, int64_t blockQ,
                                       int64_t blockK,
                                       const TensorCoreOptions &kernel,
                                       bool inlineKernelConstants) {
  auto [asyncCopies, kvStages, wgmma, wgmmaOverlap, tma, warpSpecialize,
        pingPong] = kernel;
  // wgmma is sm_90a's (arch-specific PTX: a cubin for 9.0 only).
  std::string options = ("chip=" + chip + (wgmma ? "a" : "")).str();
  // A cubin runs only on its own major architecture (sm_80 cubins on 8.x,
  // sm_90 on 9.0); newer devices get PTX, which their driver compiles.
  if (device.computeMajor > 9)
    options += " format=isa";
  if (blockQ > 0)
    options += " block-q=" + std::to_string(blockQ);
  if (blockK > 0)
    options += " block-k=" + std::to_string(blockK);
  if (!asyncCopies)
    options += " async-copies=false";
  if (kvStages != 1)
    options += " kv-stages=" + std::to_string(kvStages);
  if (wgmma)
    options += " wgmma=true";
  if (wgmmaOverlap)
    options += " wgmma-overlap=true";
  if (tma)
    options += " tma=true";
  if (warpSpecialize)
    options += " warp-specialize=true";
  if (pingPong)
    options += " ping-pong=true";
  if (!inlineKernelConstants)
    options += " inline-kernel-constants=false";
  return (kAtticCudaPipeline + "{" + options + "}").str();
}

attic::CudaExecutable::~CudaExecutable() {
  // The module destructors unload the kernels; a failure there has nobody
  // left to report to.
  engine_.reset();
  attic_cuda_take_error(nullptr, 0);
}

std::unique_ptr<attic::CudaExecutable>
attic::CudaExecutable::compile(ModuleOp module, StringRef entry,
                               StringRef pipeline, std::string &error) {
  FailureOr<EntrySignature> signature =
      getEntrySignature(module, entry, error);
  if (failed(signature))
    return nullptr;
  if (pipeline.trim().starts_with(kAtticCudaPipeline) &&
      !PassPipelineInfo::lookup(kAtticCudaPipeline)) {
    error = "the pass pipeline 'attic-cuda-pipeline' is not registered: this "
            "attic was built without the CUDA compiler";
    return nullptr;
  }

  OwningOpRef<ModuleOp> lowered(module.clone());
  MLIRContext *ctx = lowered->getContext();
  // Only @entry runs.
  eraseFunctionsBesides(*lowered, entry);
  appendLoweringRegistry(*ctx);
  {
    DialectRegistry registry;
    registerCudaHostTranslations(registry);
    ctx->appendDialectRegistry(registry);
  }
  {
    PassManager pm(ctx);
    if (failed(addTextualPipeline(pm, pipeline, "CUDA", error)) ||
        failed(runLowering(pm, *lowered, "lowering for CUDA failed", error)))
      return nullptr;
  }

  initializeJit();
  if (failed(checkFullyLowered(*lowered, error)) ||
      failed(checkExternalFunctions(*lowered, error)))
    return nullptr;
  auto transformer =
      makeOptimizingTransformer(/*optLevel=*/2, /*sizeLevel=*/0, nullptr);
  ExecutionEngineOptions engineOptions;
  engineOptions.transformer = transformer;
  engineOptions.enablePerfNotificationListener = attic::perfJitDumpWanted();
  std::string translateErrors;
  llvm::Expected<std::unique_ptr<ExecutionEngine>> engine = [&] {
    ErrorCollector errors(ctx);
    auto result = ExecutionEngine::create(*lowered, engineOptions);
    translateErrors = errors.text();
    return result;
  }();
  if (!engine) {
    error = "JIT compilation of the CUDA host code failed: " +
            llvm::toString(engine.takeError());
    if (!translateErrors.empty())
      error += ": " + translateErrors;
    std::replace(error.begin(), error.end(), '\n', ' ');
    return nullptr;
  }
  (*engine)->registerSymbols(runtimeSymbols);

  std::unique_ptr<CudaExecutable> executable(new CudaExecutable());
  executable->engine_ = std::move(*engine);
  executable->entry_ = entry.str();
  executable->signature_ = std::move(*signature);

  // Resolve every symbol now: a function the host code calls and nobody
  // provides must fail here, not leave the kernels silently unloaded (the
  // module constructors would not run).
  if (llvm::Expected<void (*)(void **)> function =
          executable->engine_->lookupPacked(entry);
      !function) {
    error = "JIT compilation of the CUDA host code failed: " +
            llvm::toString(function.takeError());
    std::replace(error.begin(), error.end(), '\n', ' ');
    return nullptr;
  }
  // The module constructors load the kernels (mgpuModuleLoad[JIT]).
  takeCudaError();
  executable->engine_->initialize();
  std::string loadError = takeCudaError();
  if (!loadError.empty()) {
    error = "loading the CUDA kernels failed: " + loadError;
    return nullptr;
  }
  return executable;
}

LogicalResult
attic::CudaExecutable::run(ArrayRef<const attic_tensor *> inputs,
                           SmallVectorImpl<attic_tensor> &outputs,
                           std::string &error) {
  PackedCall call;
  if (failed(call.pack(entry_, signature_, inputs, error)))
    return failure();
  takeCudaError(); // an earlier run's leftovers are not this run's
  attic_rt_take_error(nullptr, 0);
  attic_cuda_set_kernel_timing(1);
  attic_cuda_kernel_time(nullptr, nullptr, nullptr, 0);
  {
    // A stack overflow from here is the compiled host code's.
    attic::CompiledCodeScope compiled;
    if (llvm::Error err = engine_->invokePacked(entry_, call.pointerList())) {
      error =
          "invoking @" + entry_ + " failed: " + llvm::toString(std::move(err));
      return failure();
    }
  }
  // Wait for the device (a kernel fault surfaces here), then for the timing
  // events of the launches.
  char message[1024];
  std::string cudaError = takeCudaError();
  if (cudaError.empty() &&
      attic_cuda_synchronize(message, sizeof(message)) != ATTIC_OK)
    cudaError = message;
  CudaRunStats stats;
  if (cudaError.empty() &&
      attic_cuda_kernel_time(&stats.kernelMillis, &stats.launches, message,
                             sizeof(message)) != ATTIC_OK)
    cudaError = message;

  // Results: host memory allocated by the host code (malloc). Copy each
  // into a runtime tensor, then free the originals unless one is an input:
  // after every copy, since two results may share one buffer (as on the
  // CPU, CpuExecutable::run).
  size_t firstOutput = outputs.size();
  SmallVector<void *> released;
  for (auto [i, spec] : llvm::enumerate(signature_.results)) {
    PackedCall::Result result = call.result(i);
    void *allocated = result.allocated, *aligned = result.aligned;
    bool isInput = llvm::any_of(inputs, [&](const attic_tensor *input) {
      return input->data == allocated;
    });
    auto release = [&] {
      if (!isInput && allocated && !llvm::is_contained(released, allocated))
        released.push_back(allocated);
    };
    if (!cudaError.empty()) {
      release();
      continue;
    }
    int isDevice = 0;
    if (attic_cuda_pointer_is_device(aligned, &isDevice, message,
                                     sizeof(message)) == ATTIC_OK &&
        isDevice) {
      // A pipeline that returns device memory broke the contract; reading
      // it on the host would crash.
      cudaError = "result of @" + entry_ +
                  " is in device memory; the CUDA pipeline must copy results "
                  "to the host";
      continue;
    }
    attic_tensor out{};
    if (failed(copyResult(result, spec.dtype, out, cudaError))) {
      release();
      continue;
    }
    outputs.push_back(out);
    release();
  }
  for (void *allocated : released)
    std::free(allocated);
  // A data-dependent error reported by the compiled code (e.g. more VIP
  // tokens than num_vip) fails the run with the same message as on the CPU:
  // it is the data's fault, not the device's.
  std::string reported;
  if (cudaError.empty() &&
      attic_rt_take_error(message, sizeof(message)) != ATTIC_OK)
    reported = message;
  if (!cudaError.empty() || !reported.empty()) {
    for (size_t i = firstOutput; i < outputs.size(); ++i)
      attic_tensor_free(&outputs[i]);
    outputs.truncate(firstOutput);
    error = !reported.empty()
                ? reported
                : "CUDA error while running @" + entry_ + ": " + cudaError;
    return failure();
  }
  stats_ = stats;
  return success();
}
