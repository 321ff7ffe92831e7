//===- CudaExecutable.h - Compile and run attic functions on CUDA -*- C++ -*-===//
//
// The CUDA counterpart of CpuExecutable: lowers one function of a module
// with a pass pipeline that produces upstream's GPU form (host code in the
// LLVM dialect calling MLIR's mgpu* runtime ABI, plus gpu.binary objects
// holding PTX or cubins), JIT-compiles the host code with MLIR's
// ExecutionEngine, binds the mgpu* functions to attic's CUDA runtime
// (runtime/include/attic/runtime/CudaMgpu.h) and calls the function on host
// tensors. The host function keeps the signature of the source function
// (memrefs in host memory; the pipeline inserts the device copies), so it is
// called exactly like the CPU one.
//
//===----------------------------------------------------------------------===//

#ifndef ATTIC_EXECUTION_CUDAEXECUTABLE_H
#define ATTIC_EXECUTION_CUDAEXECUTABLE_H

#include "attic/Conversion/AtticToGPU/TensorCoreOptions.h"
#include "attic/Execution/CpuExecutable.h"
#include "attic/runtime/Cuda.h"

#include <memory>
#include <string>

namespace attic {

/// Loads the CUDA driver and describes device 0; fails with the runtime's
/// message ("no NVIDIA driver: ...", "no CUDA device: ...") in `error`.
mlir::FailureOr<attic_cuda_device_info> queryCudaDevice(std::string &error);

/// The chip attic compiles for on a device of compute capability
/// major.minor: "sm_80" for 8.x, "sm_90" for 9.x and later; fails for
/// devices older than sm_80 (attic's kernels use m16n8k16 bf16 MMA).
mlir::FailureOr<std::string> cudaChipFor(const attic_cuda_device_info &device,
                                         std::string &error);

/// The default textual pipeline for a device: attic-cuda-pipeline with the
/// device's chip, PTX (format=isa, JIT-compiled by the driver) for devices
/// newer than the chip, block sizes when positive, and the options of
/// `kernel` that are not the defaults (wgmma with chip sm_90a), and
/// inline-kernel-constants=false when `inlineKernelConstants` is false.
std::string defaultCudaPipeline(const attic_cuda_device_info &device,
                                llvm::StringRef chip, int64_t blockQ,
                                int64_t blockK,
                                const TensorCoreOptions &kernel = {},
                                bool inlineKernelConstants = true);

/// Whether attic's runtime provides `name` to CUDA host code (the mgpu*
/// functions of attic/runtime/CudaMgpu.h and the error report): the JIT
/// binds these, and libattic_rt.so exports them for attic-compile's
/// libraries.
bool isCudaRuntimeFunction(llvm::StringRef name);

/// What compiling host code of attic-cuda-pipeline needs: the NVVM target
/// (gpu-module-to-binary) and the translations of the builtin, LLVM, GPU
/// (gpu.binary as an embedded image with a loading constructor) and NVVM
/// dialects.
void registerCudaHostTranslations(mlir::DialectRegistry &registry);

struct CudaRunStats {
  double kernelMillis = 0; // sum of the CUDA event times of the launches
  int64_t launches = 0;    // kernel launches of the last run
};

class CudaExecutable {
public:
  ~CudaExecutable();

  /// Lowers a clone of `module` with `pipeline` (a textual pass pipeline
  /// nested on builtin.module, e.g. "attic-cuda-pipeline{chip=sm_90}"),
  /// JIT-compiles the host code and loads the kernels on the device (the
  /// module constructors call mgpuModuleLoad). Fails with a one-line
  /// message: an unregistered attic-cuda-pipeline, a lowering error, a JIT
  /// error (e.g. an mgpu* function attic does not provide), or the CUDA
  /// error of loading the kernels.
  static std::unique_ptr<CudaExecutable> compile(mlir::ModuleOp module,
                                                 llvm::StringRef entry,
                                                 llvm::StringRef pipeline,
                                                 std::string &error);

  const EntrySignature &signature() const { return signature_; }

  /// Calls the entry function, waits for the device, and fails with the
  /// first CUDA error any mgpu* call met (results are then not returned).
  /// Outputs are fresh host tensors owned by the caller.
  mlir::LogicalResult run(llvm::ArrayRef<const attic_tensor *> inputs,
                          llvm::SmallVectorImpl<attic_tensor> &outputs,
                          std::string &error);

  /// Kernel time and launch count of the last successful `run`.
  CudaRunStats lastRunStats() const { return stats_; }

private:
  CudaExecutable() = default;

  std::unique_ptr<mlir::ExecutionEngine> engine_;
  std::string entry_;
  EntrySignature signature_;
  CudaRunStats stats_;
};

} // namespace attic

#endif // ATTIC_EXECUTION_CUDAEXECUTABLE_H
