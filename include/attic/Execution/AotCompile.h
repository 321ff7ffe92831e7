//===- AotCompile.h - ahead-of-time compilation of attic functions -*- C++ -*-//
//
// What attic-compile does (docs/aot.md): lowers one function of a module
// with attic-cpu-pipeline (or attic-cuda-pipeline, whose kernels are
// embedded in the library and launched through libattic_rt.so), wraps it in the C ABI of attic/runtime/Aot.h (a
// typed entry `int32_t F(const T *arg0, ..., T *result0, ...)` and the
// descriptor `F__attic_entry`), binds what the compiled code calls to
// libattic_rt.so (allocation, memref copies, sgemm, error reports) and
// emits an object file for a chosen CPU, plus the C header of the entry.
// The result runs without MLIR, LLVM or a JIT.
//
//===----------------------------------------------------------------------===//

#ifndef ATTIC_EXECUTION_AOTCOMPILE_H
#define ATTIC_EXECUTION_AOTCOMPILE_H

#include "attic/Pipelines/Pipelines.h"
#include "attic/runtime/Runtime.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace attic {

struct AotOptions {
  /// The CPU to compile for: "host" (this machine's CPU and features) or an
  /// LLVM CPU name ("x86-64-v3", "skylake-avx512", ...).
  std::string cpu = "host";
  /// -O level of LLVM's optimizer (0-3).
  unsigned optLevel = 3;
  /// "cpu" (attic-cpu-pipeline) or "cuda" (attic-cuda-pipeline: host code
  /// for `cpu` that launches embedded kernels through libattic_rt.so's
  /// mgpu* functions and the dlopen'd CUDA driver).
  std::string target = "cpu";
  /// --target=cuda: the kernels' architecture (sm_80 or sm_90) and format
  /// (bin: cubin, isa: PTX, fatbin; empty: bin when ptxas is found, else
  /// isa), as attic-cuda-pipeline's options of those names.
  std::string cudaChip = "sm_80";
  std::string cudaFormat;
  /// --target=cuda: the tensor-core kernel's options, as attic-cuda-pipeline
  /// takes them (checkTensorCoreOptions). `kernel.wgmma` needs cudaChip
  /// sm_90 and compiles for sm_90a (kernels for 9.0 devices only; the
  /// entry's target says so).
  TensorCoreOptions kernel;
};

struct AotArtifact {
  std::string object; ///< the ELF object file
  std::string header; ///< the C header of the entry point
  std::string llvmIR; ///< the optimized LLVM IR (for --emit=llvm)
};

/// Compiles @`entry` of `module` (a clone is lowered; `module` is not
/// changed). For target "cuda", the block sizes of `pipeline` are the CUDA
/// kernels' and its other options are not used. A `pipeline` vector width of 0 becomes the target CPU's (16
/// with AVX-512, 8 with AVX, else 4) when the CPU is not "host". Every argument
/// and result of the entry must be a ranked tensor with static sizes of a dtype
/// of attic/runtime/Runtime.h. Fails with a one-line message in `error`.
mlir::LogicalResult
compileAheadOfTime(mlir::ModuleOp module, llvm::StringRef entry,
                   CpuPipelineOptions &pipeline, const AotOptions &options,
                   AotArtifact &artifact, std::string &error);

/// Why a library cannot export a function named `entry`, or "": it must
/// be a C identifier that the generated header can declare (no keyword,
/// no name of stddef.h/stdint.h, nothing reserved) and not the name of a
/// function of what the library links (libc, libm, libattic_rt.so, libomp,
/// OpenBLAS, the C++ runtime, the CUDA layer), which it would replace.
/// compileAheadOfTime checks it; attic-gen checks its --name with it.
std::string aotEntryNameError(llvm::StringRef entry);

/// The C type of an element of `dtype` in the generated header ("float",
/// "uint16_t" for f16/bf16 bit patterns, "uint8_t" for i1, ...).
const char *cTypeOf(attic_dtype dtype);

} // namespace attic

#endif // ATTIC_EXECUTION_AOTCOMPILE_H
