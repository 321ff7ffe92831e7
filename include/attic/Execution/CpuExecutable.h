//===- CpuExecutable.h - JIT-compile and run attic functions ------*- C++ -*-===//
//
// Compiles one function of a module (attic ops on tensors) through
// attic-cpu-pipeline into native code with MLIR's ExecutionEngine, and calls
// it on runtime tensors (attic/runtime/Runtime.h). Shared by attic-run and
// the benchmarks.
//
//===----------------------------------------------------------------------===//

#ifndef ATTIC_EXECUTION_CPUEXECUTABLE_H
#define ATTIC_EXECUTION_CPUEXECUTABLE_H

#include "attic/Support/ArgumentBinding.h"
#include "attic/Pipelines/Pipelines.h"
#include "attic/runtime/Runtime.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SourceMgr.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
class ExecutionEngine;
} // namespace mlir

namespace attic {

/// One argument or result of an entry function: a ranked tensor.
struct TensorSpec {
  attic_dtype dtype;
  llvm::SmallVector<int64_t> shape; // mlir::ShapedType::kDynamic if unknown
};

struct EntrySignature {
  llvm::SmallVector<TensorSpec> inputs;
  llvm::SmallVector<TensorSpec> results;
};

/// "AxBx?": a shape for messages.
std::string shapeString(llvm::ArrayRef<int64_t> shape);

/// Whether argument #`index` of @`entry`, a tensor whose rank the caller
/// has matched to the signature, has sizes >= 0 and storage that holds
/// them (a freed tensor keeps its shape and has no data); the reason in
/// `error` if not. attic_tensor_check with "argument #i of @entry".
mlir::LogicalResult checkInputStorage(llvm::StringRef entry, size_t index,
                                      const attic_tensor &input,
                                      std::string &error);

/// The arguments of one call in ExecutionEngine::invokePacked's convention,
/// for an entry whose arguments and results are memrefs (the CPU and CUDA
/// executables): one pointer per scalar of the lowered signature (a memref
/// expands to allocated, aligned, offset, sizes, strides), then one pointer
/// to the returned struct of result descriptors.
class PackedCall {
public:
  /// Checks `inputs` against the signature (dtype, rank, static sizes; a
  /// one-line message naming the argument otherwise) and lays out their
  /// contiguous descriptors and the space for the results.
  mlir::LogicalResult pack(llvm::StringRef entry,
                           const EntrySignature &signature,
                           llvm::ArrayRef<const attic_tensor *> inputs,
                           std::string &error);
  std::vector<void *> &pointerList() { return pointers_; }

  /// Result `index` as the call returned it (a memref descriptor).
  struct Result {
    void *allocated, *aligned;
    int64_t offset;
    llvm::ArrayRef<int64_t> sizes, strides;
  };
  Result result(size_t index) const;

private:
  std::vector<std::vector<int64_t>> arguments_;
  std::vector<int64_t> results_;
  std::vector<size_t> resultStart_, resultRank_; // per result
  std::vector<void *> pointers_;
};

/// Copies the elements of a (possibly strided) result into a new row-major
/// tensor `out` of `dtype`. Fails (out of memory, bad shape) with a message.
mlir::LogicalResult copyResult(const PackedCall::Result &result,
                               attic_dtype dtype, attic_tensor &out,
                               std::string &error);

/// Once per process, before JIT-compiling (CPU and CUDA executables): the
/// native target and asm printer, the process's own symbols made searchable
/// through llvm::sys::DynamicLibrary, and MLIR's C runner utilities
/// (memrefCopy for memref.copy) loaded into the process, where the JIT finds
/// them (a warning on stderr when the library is there but does not load).
void initializeJit();

/// Whether JIT-compiled code is announced to `perf` (a jitdump file per
/// process, under $JITDUMPDIR or ~/.debug/jit, else /tmp/.debug/jit): only
/// when ATTIC_PERF_JITDUMP is set to a non-empty value other than 0. MLIR's
/// default wrote one such file per attic-run (1.1 GB in /tmp after a few
/// days of tests; a 2026-11-30 audit).
bool perfJitDumpWanted();

/// Registers what an executable attic module may contain: all upstream
/// dialects and extensions plus the attic dialect (attic-run, benchmarks).
void registerExecutionDialects(mlir::DialectRegistry &registry);

/// Appends to `ctx` what attic's pipelines need besides the dialects of the
/// input (attic::registerAtticDialect: the upstream interface models, the
/// inliner, the ConvertToLLVM interfaces), so that the compile functions
/// (CpuExecutable, CudaExecutable, compileAheadOfTime) lower a module
/// parsed in a context that registered only its own dialects.
void appendLoweringRegistry(mlir::MLIRContext &ctx);

/// One line for a diagnostic: "file:line:col: message" (notes dropped).
std::string formatDiagnostic(mlir::Diagnostic &diagnostic);

/// "file:line:col" for a file location, else the location as MLIR prints
/// it.
std::string formatLocation(mlir::Location loc);

/// Whether two paths name one file: the same existing file, or the same
/// path once made absolute and cleaned of dots (a file not written yet).
/// For the tools' checks that an output is not an input or another output.
bool namesSameFile(llvm::StringRef a, llvm::StringRef b);

/// Parses the module in `sourceMgr` (its main buffer) for a tool. MLIR 22's
/// parsers of linalg.transpose, .reduce and .broadcast crash after their
/// first error (a float or an empty element in an integer list), which the
/// caller's ErrorCollector would print only after parsing: while parsing,
/// the first error diagnostic is the crash note of the tool's crash handler
/// (attic/Support/CrashHandler.h), "<tool>: error: file:line:col: message".
/// Returns null on a parse error (the caller's handlers have it).
mlir::OwningOpRef<mlir::ModuleOp> parseModuleForTool(llvm::SourceMgr &sourceMgr,
                                                     mlir::MLIRContext *context,
                                                     llvm::StringRef tool);

/// Reads `path` ("-": standard input) into `sourceMgr` after
/// attic/Support/InputFile.h's checks and parses it with
/// parseModuleForTool. Null with a one-line `error` on failure (the
/// parser's errors as ErrorCollector gives them).
mlir::OwningOpRef<mlir::ModuleOp> loadModuleForTool(llvm::StringRef path,
                                                    llvm::SourceMgr &sourceMgr,
                                                    mlir::MLIRContext *context,
                                                    llvm::StringRef tool,
                                                    std::string &error);

/// The entry a tool runs: `name` when given, else the module's only public
/// function with a body. Empty with a one-line `error` (naming `path`)
/// when there is no such single function.
std::string chooseEntry(mlir::ModuleOp module, llvm::StringRef name,
                        llvm::StringRef path, std::string &error);

/// While alive, collects the error diagnostics of a context into one line
/// ("file:line:col: message; ..."), so that callers report them as one.
class ErrorCollector {
public:
  explicit ErrorCollector(mlir::MLIRContext *context);
  const std::string &text() const { return text_; }

private:
  std::string text_;
  mlir::ScopedDiagnosticHandler handler_;
};

/// Runs `pm` on `module` and fails where the run fails or a pass reports an
/// error without failing (upstream's gpu-module-to-binary did so on a
/// missing libdevice): `error` is then `what` + ": " + the errors in one
/// line (ErrorCollector), or "unknown error".
mlir::LogicalResult runLowering(mlir::PassManager &pm, mlir::ModuleOp module,
                                llvm::StringRef what, std::string &error);

/// Reads the signature of `entry` in `module`; every argument and result
/// must be a ranked tensor of f32, f16, bf16, f64, i1, i8, i32 or i64.
/// Fails with a one-line message in `error`.
mlir::FailureOr<EntrySignature> getEntrySignature(mlir::ModuleOp module,
                                                  llvm::StringRef entry,
                                                  std::string &error);

/// The arguments of `signature` as attic/Support/ArgumentBinding.h takes
/// them (kDynamicDim for a dynamic dim).
std::vector<ArgumentType> argumentTypes(const EntrySignature &signature);

/// Erases the functions of `module` that @`entry` does not reach through
/// symbol references (calls, a modifier's mask_fn or score_fn), directly or
/// through other functions; functions that an operation outside every
/// function refers to stay, and so does everything when a symbol use cannot
/// be enumerated. Nested modules that no symbol reference names go too.
/// Every executable and attic-compile lower only what the
/// entry needs: a function the pipelines cannot lower does not fail another
/// entry, and a module of many entries compiles one of them in the time of
/// one (test/Integration/Inputs/math_ops.mlir: 41 functions, about 1 s a
/// run before, 0.15 s after; test/Integration/entry-only.test).
void eraseFunctionsBesides(mlir::ModuleOp module, llvm::StringRef entry);

/// Adds the textual pass pipeline `pipeline` to `pm` (a pass manager on
/// builtin.module): the passes as attic-opt's --pass-pipeline takes them
/// (`builtin.module(a,b)`) or without the anchor (`a,b`). On failure sets
/// `error` to one line naming `what` (e.g. "CPU") and the parser's message.
mlir::LogicalResult addTextualPipeline(mlir::OpPassManager &pm,
                                       llvm::StringRef pipeline,
                                       llvm::StringRef what,
                                       std::string &error);

/// Gives the dynamic dims of `entry`'s arguments the sizes in `shapes` (one
/// shape per argument), then canonicalizes so that the static sizes reach
/// the attic ops, whose verifiers then check them: inputs whose shapes do
/// not fit together are reported before any code runs. Modifies `module`.
mlir::LogicalResult specializeEntry(mlir::ModuleOp module, llvm::StringRef entry,
                                    llvm::ArrayRef<llvm::SmallVector<int64_t>> shapes,
                                    std::string &error);

/// Fails when `lowered` (a module after attic-cpu-pipeline) defines a
/// function under the name of a C library function that compiled code may
/// call: the allocation and mem* functions, and the libm functions that
/// LLVM's code generation calls for math intrinsics (powf for math.powf,
/// expf, fmodf, ...; f32 and f64 forms). Such a definition would be bound
/// in place of the library's (the JIT resolves the call to it, a shared
/// library interposes it for the whole process): a crash or wrong results
/// instead of an error. The message names the function.
mlir::LogicalResult checkLibraryNameClashes(mlir::ModuleOp lowered,
                                            std::string &error);

/// Fails when `lowered` (a module after a pipeline) still holds an op that
/// LLVM's translation has no rule for (anything outside the llvm, omp, gpu
/// and builtin dialects): the message names the first such op and its
/// location, where the translation would only say that it could not
/// convert the module.
mlir::LogicalResult checkFullyLowered(mlir::ModuleOp lowered,
                                      std::string &error);

/// Heap use of the compiled code (malloc/free are routed through counters).
/// The runtime dtype of an element type (f32, f16, bf16, f64, i1, i8, i32,
/// i64), or nullopt.
std::optional<attic_dtype> dtypeOf(mlir::Type type);

/// Exit status of a process whose compiled code could not allocate memory.
/// Compiled code does not check what malloc returns, and an allocation in
/// an OpenMP worker cannot be unwound, so the allocator bound to compiled
/// code (malloc, calloc, aligned_alloc, realloc) ends the process with one
/// line on stderr instead of returning null into it.
constexpr int kOutOfMemoryExitCode = 3;

/// The most CPU threads attic's tools accept (libomp aborts the process when
/// it cannot create a thread; tools check counts against this first).
constexpr int kMaxCpuThreads = 1024;

/// Threads of the OpenMP runtime for compiled parallel loops (libomp's
/// omp_set_num_threads); n <= 0 keeps the default (OMP_NUM_THREADS or all
/// cores). Returns the count in effect afterwards.
int setCpuThreads(int n);

struct HeapStats {
  uint64_t peakBytes = 0;   // largest live total during the last call
  uint64_t allocations = 0; // number of allocations in the last call
};

class CpuExecutable {
public:
  ~CpuExecutable();

  /// Lowers a clone of `module` with attic-cpu-pipeline and JIT-compiles it
  /// at -O3 for the host CPU.
  static std::unique_ptr<CpuExecutable>
  compile(mlir::ModuleOp module, llvm::StringRef entry,
          const CpuPipelineOptions &options, std::string &error);

  /// The same with a textual pass pipeline instead of attic-cpu-pipeline
  /// (e.g. `builtin.module(attic-cpu-pipeline)`, or its passes with others
  /// in between). It must lower the module to the LLVM dialect; the
  /// compiled code is checked as attic-cpu-pipeline's is.
  static std::unique_ptr<CpuExecutable> compile(mlir::ModuleOp module,
                                                llvm::StringRef entry,
                                                llvm::StringRef pipeline,
                                                std::string &error);

  const EntrySignature &signature() const { return signature_; }

  /// Calls the entry function. Inputs must match the signature (dtype and
  /// static dims); outputs are freshly allocated tensors owned by the caller
  /// (free them with attic_tensor_free).
  mlir::LogicalResult run(llvm::ArrayRef<const attic_tensor *> inputs,
                          llvm::SmallVectorImpl<attic_tensor> &outputs,
                          std::string &error);

  /// Heap use of the last `run` (the compiled code only, not the inputs
  /// given to it nor the copies of the outputs made after it returned).
  HeapStats lastHeapStats() const;

private:
  CpuExecutable() = default;
  static std::unique_ptr<CpuExecutable>
  compileWith(mlir::ModuleOp module, llvm::StringRef entry,
              llvm::function_ref<mlir::LogicalResult(mlir::OpPassManager &,
                                                     std::string &)>
                  buildPipeline,
              std::string &error);

  std::unique_ptr<mlir::ExecutionEngine> engine_;
  std::string entry_;
  EntrySignature signature_;
};

} // namespace attic

#endif // ATTIC_EXECUTION_CPUEXECUTABLE_H
