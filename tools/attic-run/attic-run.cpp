//===- attic-run.cpp - compile and execute an attic function ----*- C++ -*-===//
//
//   attic-run FILE.mlir [--entry=F] [--input=a.npy ...] [--seed=S]
//             [--shape=I:AxBxC ...] [--output=o.npy ...] [--check] [--bench=N]
//
// Compiles @F with attic-cpu-pipeline, JIT-runs it on the CPU with inputs
// read from .npy files (in argument order) or generated from a seed, writes
// the results as .npy, compares them with the reference semantics (--check)
// and times repeated runs (--bench). With --target=cuda it checks for a CUDA
// driver and device first, compiles with attic-cuda-pipeline and runs the
// kernels through attic's CUDA runtime (--bench then also reports the kernel
// time from CUDA events). --target=cuda-emulated maps the function onto the
// GPU as attic-cuda-pipeline does (device buffers, a kernel per loop nest,
// SIMT attention) and runs those kernels as CPU loops (attic-gpu-emulate),
// which tests the mapping on machines without a GPU. --target=cuda-simulated
// runs the CUDA mapping with the tensor-core kernel in a lockstep interpreter
// of the kernels (attic/Execution/GpuSimulator.h: mma.sync fragments,
// shuffles, barriers, shared-memory races), slowly. Every failure is one
// line on stderr and a non-zero exit status.
//
//===----------------------------------------------------------------------===//

#include "attic/Conversion/AtticToGPU/AtticToGPU.h"
#include "attic/Dialect/Attic/AtticDialect.h"
#include "attic/Reference/Evaluator.h"

#include "attic/Execution/CpuExecutable.h"
#include "attic/Execution/CudaExecutable.h"
#include "attic/Execution/GpuSimulator.h"
#include "attic/InitAttic.h"
#include "attic/Reference/Attention.h"
#include "attic/Support/ArgumentBinding.h"
#include "attic/Support/CrashHandler.h"
#include "attic/Support/KernelOptions.h"
#include "attic/Support/OutputFile.h"
#include "attic/Support/ToolOptions.h"
#include "attic/runtime/Runtime.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <optional>

#include <unistd.h>

using namespace mlir;
namespace cl = llvm::cl;

/// The tool's own options: --help lists these (and the generic ones), not
/// the hundreds of LLVM backend options linked in with the JIT and the
/// code generators (they still parse; --help-hidden does not list them).
static cl::OptionCategory toolOptions("attic-run options");

static cl::opt<std::string> inputFile(cl::Positional, cl::cat(toolOptions),
                                      cl::desc("<input .mlir>"), cl::Required);
static cl::opt<std::string>
    entryName("entry", cl::cat(toolOptions),
              cl::desc("Function to run (default: the only one)"));
static cl::list<std::string>
    inputPaths("input", cl::cat(toolOptions),
               cl::desc("Input .npy, one per argument in order (repeat the "
                        "option; a path is taken whole, commas included); "
                        "the arguments after the last are generated"));
static cl::list<std::string>
    outputPaths("output", cl::cat(toolOptions),
                cl::desc("Output .npy, one per result in order (repeat the "
                         "option); the results after the last are not "
                         "written"));
static cl::list<std::string>
    shapeSpecs("shape", cl::cat(toolOptions),
               cl::desc("I:AxBxC gives generated argument I a shape "
                        "(needed where its type has dynamic dims)"));
static cl::list<std::string> saveInputPaths(
    "save-input", cl::cat(toolOptions),
    cl::desc("Writes the inputs (read or generated) as .npy, one path per "
             "argument in order (repeat the option; the arguments after the "
             "last are not written), for callers of attic-compile's "
             "libraries"));
static cl::list<std::string> referenceOutputPaths(
    "reference-output", cl::cat(toolOptions),
    cl::desc("With --check: writes the reference semantics' results as f64 "
             ".npy, one path per result in order (repeat the option)"));
static cl::opt<uint64_t> seed("seed", cl::cat(toolOptions),
                              cl::desc("Seed of generated inputs"),
                              cl::init(0));
static cl::opt<double> rangeLo("range-lo", cl::cat(toolOptions), cl::init(-1.0),
                               cl::desc("Generated floats and integers: lower "
                                        "bound (integers: rounded up)"));
static cl::opt<double> rangeHi("range-hi", cl::cat(toolOptions), cl::init(1.0),
                               cl::desc("Generated floats and integers: upper "
                                        "bound (exclusive)"));
static cl::opt<double>
    maskProbability("mask-keep", cl::cat(toolOptions), cl::init(0.9),
                    cl::desc("Generated i1 inputs: probability of true"));
static cl::list<std::string> maskKeepArgs(
    "mask-keep-arg", cl::cat(toolOptions),
    cl::desc("I:P gives generated i1 argument I its own probability of true "
             "(e.g. a VIP mask next to a padding mask); others: --mask-keep"));
static cl::opt<bool> allowNonFinite(
    "allow-non-finite", cl::cat(toolOptions),
    cl::desc("Do not fail when every input is finite and a float result is "
             "not (an f32 overflow or inputs outside an op's domain)"));
static cl::opt<bool> crashForTesting(
    "crash-for-testing", cl::cat(toolOptions), cl::Hidden,
    cl::desc("Raise SIGSEGV after parsing the options (tests the crash "
             "handler)"));
static cl::opt<bool> check("check", cl::cat(toolOptions),
                           cl::desc("Compare with the reference semantics"));
static cl::opt<double>
    tolerance("tolerance", cl::cat(toolOptions), cl::init(-1.0),
              cl::desc("Largest max-relative error --check accepts (default: "
                       "1e-5 for f32 results, 1e-2 for f16/bf16, for float "
                       "results computed from f16/bf16 results of attic ops "
                       "and for attic.block_attention's pool of f16/bf16 "
                       "rows, 0 (exact) for integers and i1)"));
static cl::opt<uint64_t> checkSteps(
    "check-steps", cl::cat(toolOptions),
    cl::init(attic::kDefaultReferenceSteps),
    cl::desc("Operations and loop iterations the --check reference runs "
             "before it gives up, over the whole function (default 2e7; "
             "each point of a linalg op counts)"));
static cl::opt<unsigned> benchRuns("bench", cl::cat(toolOptions), cl::init(0),
                                   cl::desc("Time N runs, report the median"));
static cl::opt<std::string> target("target", cl::cat(toolOptions),
                                   cl::init("cpu"),
                                   cl::desc("cpu (default), cuda, "
                                            "cuda-emulated (the CUDA "
                                            "pipeline's GPU mapping with its "
                                            "kernels run on the CPU; no GPU "
                                            "needed; SIMT attention), or "
                                            "cuda-simulated (the CUDA "
                                            "mapping with the tensor-core "
                                            "kernel, run in a lockstep "
                                            "interpreter of the kernels; "
                                            "slow, for small shapes)"));
static cl::opt<std::string> cudaPipeline(
    "cuda-pipeline", cl::cat(toolOptions),
    cl::desc("--target=cuda: the textual pass pipeline (default: "
             "attic-cuda-pipeline{chip=<the device's>} with --block-q/-k "
             "when given); --target=cuda-simulated: the same, run up to its "
             "conversion to NVVM (its first nvvm-attach-target, "
             "convert-nvgpu-to-nvvm, convert-scf-to-cf or gpu.module "
             "pipeline: the simulator interprets gpu.launch and outlined "
             "kernels, not NVVM)"));
static cl::opt<bool> inlineKernelConstants(
    "inline-kernel-constants", cl::cat(toolOptions), cl::init(true),
    cl::desc("--target=cuda and cuda-simulated: kernel arguments that "
             "every launch passes the same constant (static tensor sizes) "
             "become constants in the kernels (false: arguments, for A/B "
             "timing)"));
static cl::opt<std::string> cpuPipeline(
    "cpu-pipeline", cl::cat(toolOptions),
    cl::desc("--target=cpu or cuda-emulated: the textual pass pipeline "
             "(default: attic-cpu-pipeline with --block-q/-k, "
             "--vector-width, --register-rows/-chunks, --sequential and "
             "--blas; for cuda-emulated with emulate-cuda=true)"));
static cl::opt<bool> asyncCopies(
    "async-copies", cl::cat(toolOptions), cl::init(true),
    cl::desc("--target=cuda or cuda-simulated: the tensor-core kernel copies "
             "K and V with cp.async (false: loads and stores through "
             "registers, the kernel before cp.async, for A/B timing)"));
static cl::opt<int64_t> kvStages(
    "kv-stages", cl::cat(toolOptions), cl::init(1),
    cl::desc("--target=cuda or cuda-simulated: slots of the tensor-core "
             "kernel's K and V rings, 1, 2 (two K and two V blocks in "
             "dynamic shared memory where they fit in 99 KiB) or 3 (three of "
             "each, one barrier per key block; 227 KiB with --wgmma)"));
static cl::opt<bool>
    wgmma("wgmma", cl::cat(toolOptions), cl::init(false),
          cl::desc("--target=cuda (an sm_90 device) or cuda-simulated: the "
                   "tensor-core kernel computes S = Q K^T and P V with "
                   "wgmma.mma_async (chip sm_90a) where its tiles allow it: "
                   "Q K^T needs D = 64 or 128, block_q 64 or 128, cp.async "
                   "copies and K and V within 48 KiB (99 KiB with "
                   "--kv-stages=2); P V also Dv = 64 or 128 (docs/cuda.md, "
                   "wgmma); elsewhere mma.sync"));
static cl::opt<bool> wgmmaOverlap(
    "wgmma-overlap", cl::cat(toolOptions), cl::init(false),
    cl::desc("With --wgmma and --kv-stages=2 or 3: each key block's P V runs "
             "during the next block's softmax (one more V slot in the ring, "
             "where it fits)"));
static cl::opt<bool>
    tma("tma", cl::cat(toolOptions), cl::init(false),
        cl::desc("With --wgmma and --kv-stages=2 or 3: the rings' K and V "
                 "blocks are TMA loads completing an mbarrier per slot (where "
                 "both products are wgmmas; else cp.async)"));
static cl::opt<bool> warpSpecialize(
    "warp-specialize", cl::cat(toolOptions), cl::init(false),
    cl::desc("With --tma: a producer warpgroup issues the TMA loads, the "
             "consumer warpgroups compute and release each ring slot"));
static cl::opt<bool> pingPong(
    "ping-pong", cl::cat(toolOptions), cl::init(false),
    cl::desc("With --warp-specialize and --wgmma-overlap: the two consumer "
             "warpgroups (--block-q=128) take turns issuing their wgmmas"));
static cl::opt<int64_t> blockQ("block-q", cl::cat(toolOptions), cl::init(128),
                               cl::desc("Query rows per block of the ops "
                                        "attic-decompose tiles "
                                        "(attic.block_attention keeps its "
                                        "own block_q/block_k, and an "
                                        "attic.attention its block_sizes)"));
static cl::opt<int64_t> blockK("block-k", cl::cat(toolOptions), cl::init(128),
                               cl::desc("Key rows per block (as "
                                        "--block-q)"));
static cl::opt<int> threads(
    "cpu-threads", cl::cat(toolOptions), cl::init(0),
    cl::desc("CPU threads of the compiled parallel loops, at most 1024 (0: "
             "OMP_NUM_THREADS or all cores)"));
static cl::opt<bool> sequential(
    "sequential", cl::cat(toolOptions), cl::init(false),
    cl::desc("Compile parallel loops as sequential loops (no OpenMP)"));
static cl::opt<int64_t> registerRows(
    "register-rows", cl::cat(toolOptions), cl::init(0),
    cl::desc("Query rows per register tile of the kernels (0: derived)"));
static cl::opt<int64_t> registerChunks(
    "register-chunks", cl::cat(toolOptions), cl::init(0),
    cl::desc("Vectors per register tile row of the kernels (0: derived)"));
static cl::opt<bool> blas(
    "blas", cl::cat(toolOptions), cl::init(true),
    cl::desc("f32 matmuls call OpenBLAS (attic-linalg-to-blas); "
             "--blas=false: loops. Set OPENBLAS_CORETYPE=SkylakeX on AVX-512 "
             "hosts that Debian's OpenBLAS misdetects"));
static cl::opt<int64_t> vectorWidth(
    "vector-width", cl::cat(toolOptions), cl::init(0),
    cl::desc("f32 lanes per vector (power of two; 0: the host CPU's)"));

namespace {
[[noreturn]] void fail(const llvm::Twine &message) {
  llvm::outs().flush(); // what was printed before comes first
  llvm::errs() << "attic-run: error: " << message << "\n";
  std::exit(1);
}

/// Owns the runtime tensors of one invocation.
struct TensorList {
  std::vector<attic_tensor> tensors;
  ~TensorList() {
    for (attic_tensor &t : tensors)
      attic_tensor_free(&t);
  }
  std::vector<const attic_tensor *> pointers() const {
    std::vector<const attic_tensor *> result;
    for (const attic_tensor &t : tensors)
      result.push_back(&t);
    return result;
  }
};

std::string shapeText(const int64_t *shape, int32_t rank) {
  std::string text;
  for (int32_t i = 0; i < rank; ++i)
    text += (i ? "x" : "") + std::to_string(shape[i]);
  return text.empty() ? "scalar" : text;
}

/// Binds --shape and --mask-keep-arg to the entry's arguments
/// (attic/Support/ArgumentBinding.h), or fails with its message.
attic::ArgumentBinding bindArguments(const attic::EntrySignature &signature,
                                     StringRef entry) {
  attic::ArgumentOptionTexts texts;
  texts.shapes.assign(shapeSpecs.begin(), shapeSpecs.end());
  texts.maskKeep.assign(maskKeepArgs.begin(), maskKeepArgs.end());
  texts.inputFiles.assign(inputPaths.begin(), inputPaths.end());
  texts.takesInputFiles = true;
  texts.defaultMaskKeep = maskProbability;
  attic::ArgumentBinding binding;
  std::string error;
  if (!attic::bindArgumentOptions(attic::argumentTypes(signature), entry.str(),
                                  texts, binding, error))
    fail(error);
  return binding;
}

double defaultTolerance(attic_dtype dtype) {
  switch (dtype) {
  case ATTIC_F32:
  case ATTIC_F64:
    return 1e-5;
  case ATTIC_F16:
  case ATTIC_BF16:
    return 1e-2;
  default: // integers and i1 (indices, masks) must match exactly
    return 0.0;
  }
}

/// The value the entry function returns as its result `index`, or null.
Value returnedValue(ModuleOp module, StringRef entry, unsigned index) {
  auto func = module.lookupSymbol<func::FuncOp>(entry);
  if (!func || func.getBody().empty())
    return {};
  auto ret = dyn_cast<func::ReturnOp>(func.getBody().back().getTerminator());
  if (!ret || index >= ret.getNumOperands())
    return {};
  return ret.getOperand(index);
}

/// The loosest default tolerance of the f16 or bf16 results of attic ops
/// from which the entry function computes its result `index` (0 when there
/// are none): attic ops upstream of it, through operands and the regions
/// of the ops on the way, but not the other results of the op that returns
/// it. An attic op computes in f32 and stores f16; the reference rounds
/// its double result to f16, and the two can differ by one f16 ulp, so an
/// extf to f32 afterwards must not be checked at f32's 1e-5 (an f16
/// attention then extf failed --check at 6e-5 on correct code; a
/// 2026-11-30 audit). Casts and f16 arithmetic of upstream ops round the
/// same on both sides (the reference rounds each such result), so they
/// keep f32's tolerance, and so does an lse computed beside an f16 output.
double intermediateTolerance(ModuleOp module, StringRef entry, unsigned index) {
  Value returned = returnedValue(module, entry, index);
  Operation *owner = returned ? returned.getDefiningOp() : nullptr;
  double loosest = 0.0;
  llvm::SmallPtrSet<Operation *, 32> visited;
  SmallVector<Operation *> worklist;
  if (owner)
    worklist.push_back(owner);
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    if (!visited.insert(op).second)
      continue;
    // The op, the ops nested in it, and what their operands come from.
    op->walk([&](Operation *nested) {
      if (nested != owner &&
          isa_and_nonnull<attic::AtticDialect>(nested->getDialect()))
        for (Type type : nested->getResultTypes())
          if (auto element = dyn_cast<FloatType>(getElementTypeOrSelf(type)))
            if (std::optional<attic_dtype> dtype = attic::dtypeOf(element))
              loosest = std::max(loosest, defaultTolerance(*dtype));
      // A destination's values are not read; its sizes do not round.
      if (isa<tensor::EmptyOp>(nested))
        return;
      // A callee's ops too (an f16 attention in a called function had
      // f32's tolerance; a 2026-11-30 audit).
      if (auto call = dyn_cast<func::CallOp>(nested))
        if (auto callee = module.lookupSymbol<func::FuncOp>(call.getCallee()))
          worklist.push_back(callee);
      for (Value operand : nested->getOperands())
        if (Operation *def = operand.getDefiningOp())
          if (!op->isAncestor(def))
            worklist.push_back(def);
    });
  }
  return loosest;
}

/// The attic.block_attention whose result the entry function returns as
/// its result `index`, and that result's number; null when the value comes
/// from anything else.
std::pair<attic::BlockAttentionOp, unsigned>
blockAttentionResult(ModuleOp module, StringRef entry, unsigned index) {
  auto result = dyn_cast_or_null<OpResult>(returnedValue(module, entry, index));
  if (!result)
    return {};
  auto block = dyn_cast<attic::BlockAttentionOp>(result.getOwner());
  return {block, block ? result.getResultNumber() : 0};
}
} // namespace

/// attic::namesSameFile, except that devices (/dev/null) never clash.
static bool sameFile(StringRef a, StringRef b) {
  // Devices (/dev/null) may take any number of writes.
  for (StringRef path : {a, b}) {
    llvm::sys::fs::file_status status;
    if (!llvm::sys::fs::status(path, status) &&
        status.type() != llvm::sys::fs::file_type::regular_file)
      return false;
  }
  return attic::namesSameFile(a, b);
}

/// The options of the default CUDA pipeline's tensor-core kernel.
static ArrayRef<cl::Option *> tensorCoreOptions() {
  static cl::Option *const options[] = {
      &asyncCopies, &kvStages,       &wgmma,   &wgmmaOverlap,
      &tma,         &warpSpecialize, &pingPong};
  return options;
}

/// The files attic-run writes (--output, --save-input, --reference-output)
/// must differ from each other and from the module it reads: `--output=`
/// the .mlir file replaced it with .npy bytes, and two of them named alike
/// left one of the two (a 2026-11-30 audit). An --input may be written
/// over: it is read first.
static void refuseClashingWrites() {
  SmallVector<std::pair<std::string, std::string>> writes;
  for (const std::string &path : outputPaths)
    writes.push_back({"--output", path});
  for (const std::string &path : saveInputPaths)
    writes.push_back({"--save-input", path});
  for (const std::string &path : referenceOutputPaths)
    writes.push_back({"--reference-output", path});
  for (auto [i, write] : llvm::enumerate(writes)) {
    // Before compiling, what would fail only after the run (an audit): an
    // empty name, `-` (written as a file of that name: the results are
    // .npy files, not text for standard output), a folder, a missing
    // folder.
    StringRef path = write.second;
    if (path.empty())
      fail(write.first + "= is empty; give a file name");
    if (path == "-")
      fail(write.first + "=-: the results are .npy files, not written to "
                         "standard output; give a file name");
    if (llvm::sys::fs::is_directory(path))
      fail(write.first + "=" + path + " is a folder; give a file name");
    if (std::string problem = attic::outputFolderProblem(path);
        !problem.empty())
      fail(write.first + "=" + path + ": " + problem);
    if (inputFile != "-" && sameFile(write.second, inputFile))
      fail(write.first + "=" + write.second + " is the module being run (" +
           inputFile + "); choose another file");
    for (size_t j = 0; j < i; ++j)
      if (sameFile(write.second, writes[j].second))
        fail(write.first + "=" + write.second + " and " + writes[j].first +
             "=" + writes[j].second + " name one file; each is written");
  }
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  // After InitLLVM: a crash is one line and exit 70 (CrashHandler.h).
  attic::installCrashHandler("attic-run");
  cl::HideUnrelatedOptions(toolOptions);
  cl::ParseCommandLineOptions(argc, argv, "attic: compile and run a function\n");
  if (std::string repeated = attic::repeatedOptionError(); !repeated.empty())
    fail(repeated);
  if (entryName.getNumOccurrences() && entryName.empty())
    fail("--entry= is empty; give a function's name (or leave the option "
         "out for the only one)");
  if (crashForTesting)
    std::raise(SIGSEGV);
  // Repeated runs reuse freed buffers instead of faulting in fresh pages.
  attic_retain_heap();
  bool onCuda = target == "cuda";
  bool emulated = target == "cuda-emulated";
  bool simulated = target == "cuda-simulated";
  if (target != "cpu" && !onCuda && !emulated && !simulated)
    fail("--target=" + target +
         ": expected cpu, cuda, cuda-emulated or cuda-simulated");
  if (simulated && benchRuns > 0)
    fail("--bench does not apply to --target=cuda-simulated (an interpreter's "
         "time says nothing about the GPU)");
  if (!onCuda && !simulated && cudaPipeline.getNumOccurrences())
    fail("--cuda-pipeline needs --target=cuda or cuda-simulated");
  if ((onCuda || simulated) && cpuPipeline.getNumOccurrences())
    fail("--cpu-pipeline needs --target=cpu or cuda-emulated");
  if (target != "cpu" && blas.getNumOccurrences())
    fail("--blas applies to --target=cpu only (the CUDA mappings compute "
         "their products in their own loops)");
  if (sequential && threads > 1)
    fail("--cpu-threads does not apply with --sequential (the parallel "
         "loops are compiled as plain loops on one thread)");
  // Options of the default CPU pipeline.
  if (cpuPipeline.getNumOccurrences())
    for (cl::Option *pipelineOption : std::initializer_list<cl::Option *>{
             &blockQ, &blockK, &vectorWidth, &registerRows, &registerChunks,
             &sequential, &blas})
      if (pipelineOption->getNumOccurrences())
        fail("--" + pipelineOption->ArgStr +
             " is an option of the default pipeline; with --cpu-pipeline, "
             "write it into the pipeline");
  // Options of the default CUDA pipeline: for its targets only, and not
  // beside a pipeline of one's own.
  for (cl::Option *kernelOption : tensorCoreOptions())
    if (kernelOption->getNumOccurrences() && !onCuda && !simulated)
      fail("--" + kernelOption->ArgStr +
           " applies to --target=cuda and cuda-simulated only");
  if (inlineKernelConstants.getNumOccurrences() && !onCuda && !simulated)
    fail("--inline-kernel-constants applies to --target=cuda and "
         "cuda-simulated only");
  if (cudaPipeline.getNumOccurrences())
    for (cl::Option *pipelineOption : std::initializer_list<cl::Option *>{
             &blockQ, &blockK, &asyncCopies, &kvStages, &wgmma, &wgmmaOverlap,
             &tma, &warpSpecialize, &pingPong, &inlineKernelConstants})
      if (pipelineOption->getNumOccurrences())
        fail("--" + pipelineOption->ArgStr +
             " is an option of the default pipeline; with --cuda-pipeline, "
             "write " +
             pipelineOption->ArgStr.str() + "=... into it");
  attic::TensorCoreOptions kernel;
  kernel.asyncCopies = asyncCopies;
  kernel.kvStages = kvStages;
  kernel.wgmma = wgmma;
  kernel.wgmmaOverlap = wgmmaOverlap;
  kernel.tma = tma;
  kernel.warpSpecialize = warpSpecialize;
  kernel.pingPong = pingPong;
  if (std::string message = attic::checkTensorCoreOptions(kernel, "--");
      !message.empty())
    fail(message);
  // The CPU micro-kernels' options mean nothing to the CUDA mappings (the
  // emulated one accepted and ignored them); the thread options apply to
  // both targets that run on the CPU (a 2026-11-30 audit: the message said
  // cpu only, yet cuda-emulated took them).
  for (cl::Option *cpuOnly : std::initializer_list<cl::Option *>{
           &vectorWidth, &registerRows, &registerChunks})
    if (target != "cpu" && cpuOnly->getNumOccurrences())
      fail("--" + cpuOnly->ArgStr +
           " applies to --target=cpu only (the CPU micro-kernels; the CUDA "
           "mappings do not use it)");
  for (cl::Option *onCpu :
       std::initializer_list<cl::Option *>{&threads, &sequential})
    if ((onCuda || simulated) && onCpu->getNumOccurrences())
      fail("--" + onCpu->ArgStr +
           " applies to --target=cpu and cuda-emulated only (the targets "
           "that run on the CPU)");
  for (const std::string &bad :
       {attic::blockSizesError(blockQ, blockK, "--"),
        attic::registerTileError(registerRows, registerChunks, "--")})
    if (!bad.empty())
      fail(bad);
  // libomp aborts the process when it cannot create a thread, so the
  // count is bounded here, whether it comes from the option or from
  // OMP_NUM_THREADS.
  if (threads < 0 || threads > attic::kMaxCpuThreads)
    fail("--cpu-threads must be in [0, " + std::to_string(attic::kMaxCpuThreads) +
         "] (0: the default count), got " + std::to_string(threads));
  // libomp reads a list ("8,4"); its first entry is the count used here.
  if (char message[256];
      attic_check_omp_env(message, sizeof(message)) != ATTIC_OK)
    fail(message);
  if (std::string bad = attic::vectorWidthError(vectorWidth, "--");
      !bad.empty())
    fail(bad);
  if (!(rangeLo < rangeHi) || !std::isfinite(rangeLo) || !std::isfinite(rangeHi))
    fail("--range-lo must be below --range-hi, both finite");
  if (!(maskProbability >= 0 && maskProbability <= 1))
    fail("--mask-keep must be in [0, 1]");
  // -1 (the default) stands for the element type's tolerance.
  if (tolerance.getNumOccurrences() &&
      !(tolerance >= 0 && std::isfinite(tolerance)))
    fail("--tolerance must be a finite number >= 0, got " +
         llvm::formatv("{0}", tolerance.getValue()).str());
  // Ignored otherwise (a 2026-11-30 audit): the tolerance is --check's.
  if (tolerance.getNumOccurrences() && !check)
    fail("--tolerance applies to --check; add --check or drop --tolerance");
  if (checkSteps.getNumOccurrences() && !check)
    fail("--check-steps applies to --check; add --check or drop "
         "--check-steps");
  if (checkSteps == 0)
    fail("--check-steps must be at least 1");
  // CUDA: the driver and a device come first, before the input is
  // read or anything is compiled.
  attic_cuda_device_info cudaDevice{};
  std::string cudaChip;
  if (onCuda) {
    std::string deviceError;
    FailureOr<attic_cuda_device_info> device =
        attic::queryCudaDevice(deviceError);
    if (failed(device))
      fail(deviceError);
    cudaDevice = *device;
    FailureOr<std::string> chip = attic::cudaChipFor(cudaDevice, deviceError);
    if (failed(chip))
      fail(deviceError);
    cudaChip = *chip;
    if (wgmma && (cudaDevice.computeMajor != 9 || cudaDevice.computeMinor != 0))
      fail("--wgmma needs a device of compute capability 9.0 (wgmma is "
           "sm_90a's); " +
           std::string(cudaDevice.name) + " is " +
           std::to_string(cudaDevice.computeMajor) + "." +
           std::to_string(cudaDevice.computeMinor));
  }
  // A textual pipeline names attic's passes and upstream's.
  if (onCuda || cpuPipeline.getNumOccurrences() ||
      cudaPipeline.getNumOccurrences()) {
    attic::registerAtticPassesAndPipelines();
    registerAllPasses();
  }
  // A pipeline of one's own decides the mapping: the CUDA one where it
  // holds attic-gpu-emulate (attic-cpu-pipeline{emulate-cuda}, or its
  // passes written out). --target must say the same: a CPU pipeline under
  // --target=cuda-emulated ran the CPU mapping, announced as the emulated
  // CUDA one (a 2026-11-30 audit). A pipeline that does not parse is
  // reported by the compilation.
  if (cpuPipeline.getNumOccurrences()) {
    std::string ignored;
    OpPassManager parsed("builtin.module");
    if (succeeded(attic::addTextualPipeline(parsed, cpuPipeline.getValue(),
                                            "CPU", ignored))) {
      std::string passes;
      llvm::raw_string_ostream text(passes);
      parsed.printAsTextualPipeline(text);
      bool emulating = StringRef(passes).contains("attic-gpu-emulate");
      if (emulated && !emulating)
        fail("--target=cuda-emulated with --cpu-pipeline: the pipeline "
             "must be attic-cpu-pipeline{emulate-cuda=true ...} (without "
             "it, it runs the CPU mapping; for that use --target=cpu)");
      if (!emulated && emulating)
        fail("--cpu-pipeline with emulate-cuda=true runs the CUDA mapping: "
             "use --target=cuda-emulated");
    }
  }

  DialectRegistry registry;
  attic::registerExecutionDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();

  // One line for all errors: "file:line:col: message".
  std::string error;
  // Diagnostics outside the steps' own collectors stay out of the output
  // (each step reports its failure as one line).
  attic::ErrorCollector quiet(&context);
  llvm::SourceMgr sourceMgr;
  OwningOpRef<ModuleOp> module = attic::loadModuleForTool(
      inputFile, sourceMgr, &context, "attic-run", error);
  if (!module)
    fail(error);
  std::string entry = attic::chooseEntry(*module, entryName, inputFile, error);
  if (entry.empty())
    fail(error);

  FailureOr<attic::EntrySignature> signature =
      attic::getEntrySignature(*module, entry, error);
  if (failed(signature))
    fail(error);
  if (inputPaths.size() > signature->inputs.size())
    fail(llvm::Twine(inputPaths.size()) + " --input files but @" + entry +
         " takes " + llvm::Twine(signature->inputs.size()) + " arguments");
  if (saveInputPaths.size() > signature->inputs.size())
    fail(llvm::Twine(saveInputPaths.size()) + " --save-input files but @" +
         entry + " takes " + llvm::Twine(signature->inputs.size()) +
         " arguments");
  if (referenceOutputPaths.size() > signature->results.size())
    fail(llvm::Twine(referenceOutputPaths.size()) +
         " --reference-output files but @" + entry + " returns " +
         llvm::Twine(signature->results.size()) + " results");
  if (!referenceOutputPaths.empty() && !check)
    fail("--reference-output needs --check");
  if (outputPaths.size() > signature->results.size())
    fail(llvm::Twine(outputPaths.size()) + " --output files but @" + entry +
         " returns " + llvm::Twine(signature->results.size()) + " results");

  refuseClashingWrites();

  attic::ArgumentBinding binding = bindArguments(*signature, entry);

  // Generated inputs that cannot fit in memory: refused before any is
  // filled. Each allocation succeeded (the kernel overcommits) and filling
  // them ran the machine out of memory: attic-gen's 2^20-layer encoder
  // had attic-run killed by the OOM killer, exit 137 (an audit).
  {
    double bytes = 0;
    for (auto [index, spec] : llvm::enumerate(signature->inputs)) {
      if (index < inputPaths.size())
        continue;
      double elements = 1;
      for (int64_t size : *binding.generatedShapes[index])
        elements *= double(size);
      bytes += elements * double(attic_dtype_size(spec.dtype));
    }
    long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGE_SIZE);
    double memory = pages > 0 && pageSize > 0 ? double(pages) * pageSize : 0;
    if (memory > 0 && bytes > memory)
      fail(llvm::formatv("the generated inputs of @{0} take {1:F1} GiB, more "
                         "than this machine's {2:F1} GiB of memory",
                         entry, bytes / 0x1p30, memory / 0x1p30)
               .str());
  }

  // The generation options apply to generated arguments only: given where
  // none is generated (or none of their kind), they were ignored without a
  // word (an audit). A note says so; scripts that pass the same options to
  // every function keep working.
  {
    bool generatedFloats = false, generatedMasks = false;
    for (auto [index, spec] : llvm::enumerate(signature->inputs))
      if (index >= inputPaths.size())
        (spec.dtype == ATTIC_I1 ? generatedMasks : generatedFloats) = true;
    auto note = [&](const Twine &options, const Twine &why) {
      llvm::errs() << "attic-run: note: " << options << " had no effect: "
                   << why << "\n";
    };
    if (seed.getNumOccurrences() && !generatedFloats && !generatedMasks)
      note("--seed", "every argument of @" + entry +
                         " comes from --input; nothing is generated");
    if ((rangeLo.getNumOccurrences() || rangeHi.getNumOccurrences()) &&
        !generatedFloats)
      note("--range-lo/--range-hi",
           "no generated argument of @" + entry + " takes them (" +
               (generatedMasks ? "the generated ones are i1: --mask-keep"
                               : "every argument comes from --input") +
               ")");
    if (maskProbability.getNumOccurrences() && !generatedMasks)
      note("--mask-keep", "no generated argument of @" + entry + " is i1");
  }

  // Inputs: files first, then generated ones (stream = argument index).
  TensorList inputs;
  char message[512];
  for (auto [index, spec] : llvm::enumerate(signature->inputs)) {
    attic_tensor tensor{};
    if (index < inputPaths.size()) {
      if (attic_npy_load(inputPaths[index].c_str(), &tensor, message,
                         sizeof(message)) != ATTIC_OK)
        fail(message);
      inputs.tensors.push_back(tensor);
      continue;
    }
    const std::vector<int64_t> &shape = *binding.generatedShapes[index];
    if (attic_tensor_alloc(&tensor, spec.dtype, shape.size(), shape.data(),
                           message, sizeof(message)) != ATTIC_OK)
      fail(message);
    inputs.tensors.push_back(tensor);
    attic_status status =
        spec.dtype == ATTIC_I1
            ? attic_fill_bernoulli(&inputs.tensors.back(), seed, index,
                                   binding.maskKeep[index], message,
                                   sizeof(message))
            : attic_fill_uniform(&inputs.tensors.back(), seed, index, rangeLo,
                                 rangeHi, message, sizeof(message));
    if (status != ATTIC_OK)
      fail(message);
  }
  // Each input against its argument type: dtype, rank and static dims.
  SmallVector<SmallVector<int64_t>> inputShapes;
  bool anyDynamic = false;
  for (auto [index, spec] : llvm::enumerate(signature->inputs)) {
    const attic_tensor &tensor = inputs.tensors[index];
    std::string where = index < inputPaths.size()
                            ? inputPaths[index] + ": "
                            : std::string("generated input: ");
    SmallVector<int64_t> shape(tensor.shape, tensor.shape + tensor.rank);
    std::string expected;
    for (size_t d = 0; d < spec.shape.size(); ++d)
      expected += (d ? "x" : "") + (ShapedType::isDynamic(spec.shape[d])
                                        ? std::string("?")
                                        : std::to_string(spec.shape[d]));
    if (tensor.dtype != spec.dtype)
      fail(where + "argument #" + llvm::Twine(index) + " of @" + entry +
           " is " + attic_dtype_name(spec.dtype) + " but the file holds " +
           attic_dtype_name(tensor.dtype));
    bool fits = shape.size() == spec.shape.size();
    for (size_t d = 0; fits && d < shape.size(); ++d) {
      anyDynamic |= ShapedType::isDynamic(spec.shape[d]);
      fits = ShapedType::isDynamic(spec.shape[d]) || spec.shape[d] == shape[d];
    }
    if (!fits)
      fail(where + "argument #" + llvm::Twine(index) + " of @" + entry +
           " has shape " + expected + " but the input is " +
           shapeText(tensor.shape, tensor.rank));
    inputShapes.push_back(shape);
  }

  for (auto [index, path] : llvm::enumerate(saveInputPaths))
    if (attic_npy_save(path.c_str(), &inputs.tensors[index], message,
                       sizeof(message)) != ATTIC_OK)
      fail(message);

  // Dynamic dims: specialize on the actual shapes so that the verifiers
  // check how they fit together before anything runs.
  OwningOpRef<ModuleOp> compiled(module->clone());
  if (anyDynamic &&
      failed(attic::specializeEntry(*compiled, entry, inputShapes, error)))
    fail(error);

  attic::CpuPipelineOptions options;
  options.blockQ = blockQ;
  options.blockK = blockK;
  options.vectorWidth = vectorWidth;
  options.registerRows = registerRows;
  options.registerChunks = registerChunks;
  options.parallel = !sequential;
  options.blas = blas;
  options.emulateCuda = emulated;
  attic::setCpuThreads(threads);
  uint64_t compileStart = attic_now_ns();
  std::unique_ptr<attic::CpuExecutable> executable;
  std::unique_ptr<attic::CudaExecutable> cudaExecutable;
  std::unique_ptr<attic::SimulatedCudaExecutable> simulatedExecutable;
  if (simulated) {
    attic::GpuMappingOptions mapping;
    mapping.kernel = kernel;
    simulatedExecutable =
        cudaPipeline.getNumOccurrences()
            ? attic::SimulatedCudaExecutable::compile(
                  *compiled, entry, cudaPipeline.getValue(), error)
            : attic::SimulatedCudaExecutable::compile(*compiled, entry, blockQ,
                                                      blockK, error, mapping,
                                                      inlineKernelConstants);
    if (!simulatedExecutable)
      fail(error);
  } else if (onCuda) {
    std::string pipeline =
        cudaPipeline.getNumOccurrences()
            ? cudaPipeline.getValue()
            : attic::defaultCudaPipeline(
                  cudaDevice, cudaChip,
                  blockQ.getNumOccurrences() ? blockQ.getValue() : 0,
                  blockK.getNumOccurrences() ? blockK.getValue() : 0, kernel,
                  inlineKernelConstants);
    cudaExecutable =
        attic::CudaExecutable::compile(*compiled, entry, pipeline, error);
    if (!cudaExecutable)
      fail(error);
  } else {
    executable =
        cpuPipeline.getNumOccurrences()
            ? attic::CpuExecutable::compile(*compiled, entry,
                                            cpuPipeline.getValue(), error)
            : attic::CpuExecutable::compile(*compiled, entry, options, error);
    if (!executable)
      fail(error);
  }
  double compileSeconds = (attic_now_ns() - compileStart) * 1e-9;
  std::string deviceText =
      onCuda ? llvm::formatv("{0} ({1}.{2}, {3})", cudaDevice.name,
                             cudaDevice.computeMajor, cudaDevice.computeMinor,
                             cudaChip + (wgmma ? "a" : ""))
                   .str()
             : std::string(emulated    ? "the CPU (CUDA mapping, emulated)"
                           : simulated ? "a simulated GPU (CUDA mapping, "
                                         "kernels interpreted in lockstep)"
                                       : "the CPU");
  llvm::outs() << llvm::formatv("@{0}: compiled for {1} in {2:f2} s\n", entry,
                                deviceText, compileSeconds);
  auto runCompiled = [&](SmallVectorImpl<attic_tensor> &results) {
    if (simulated)
      return simulatedExecutable->run(inputs.pointers(), results, error);
    return onCuda ? cudaExecutable->run(inputs.pointers(), results, error)
                  : executable->run(inputs.pointers(), results, error);
  };

  TensorList outputs;
  {
    SmallVector<attic_tensor> results;
    if (failed(runCompiled(results)))
      fail(error);
    outputs.tensors.assign(results.begin(), results.end());
  }
  attic::HeapStats heap = (onCuda || simulated)
                               ? attic::HeapStats{}
                               : executable->lastHeapStats();
  if (simulated) {
    attic::SimulationStats stats = simulatedExecutable->lastRunStats();
    llvm::outs() << llvm::formatv(
        "simulated: {0} launches, {1} blocks, {2} mma.sync, {3} barriers, "
        "{4} thread-ops{5}{6}\n",
        stats.launches, stats.blocks, stats.mmas, stats.barriers,
        stats.threadOps,
        stats.wgmmas ? llvm::formatv(", {0} wgmma", stats.wgmmas).str()
                     : std::string(),
        stats.roleSplits
            ? llvm::formatv(", {0} warp-role splits", stats.roleSplits).str()
            : std::string());
    // The tensor-core kernel's options where no kernel used tensor cores
    // (f32, or tiles the kernel does not take) or wgmma: said, not
    // silently without effect (an audit).
    if (stats.mmas == 0 && stats.wgmmas == 0)
      for (cl::Option *option : tensorCoreOptions())
        if (option->getNumOccurrences())
          llvm::errs() << "attic-run: note: --" << option->ArgStr
                       << " had no effect: no kernel of @" << entry
                       << " ran on tensor cores (f32 attention, or tiles the "
                          "tensor-core kernel does not take)\n";
    if (stats.mmas != 0 && stats.wgmmas == 0 && wgmma)
      llvm::errs() << "attic-run: note: --wgmma had no effect: the "
                      "tensor-core kernels of @"
                   << entry
                   << " ran mma.sync (wgmma needs D = 64 or 128, block_q "
                      "64 or 128, cp.async copies, and K and V within 48 "
                      "KiB, or 99 KiB with --kv-stages=2: see --help)\n";
  }
  uint64_t outputBytes = 0;
  for (const attic_tensor &t : outputs.tensors)
    outputBytes += t.nbytes;

  for (auto [index, path] : llvm::enumerate(outputPaths))
    if (attic_npy_save(path.c_str(), &outputs.tensors[index], message,
                       sizeof(message)) != ATTIC_OK)
      fail(message);

  bool checkFailed = false;
  if (check) {
    // The reference keeps tensors in double: an i64 beyond 2^53 is not
    // exact there, and the compiled result is read as a double below, so
    // the check could pass a wrong result or fail a right one (a
    // 2026-11-30 audit: 2^60 + 103 judged equal to 2^60 + 1).
    auto beyondDouble = [](const attic_tensor &t) {
      if (t.dtype != ATTIC_I64)
        return false;
      const auto *data = static_cast<const int64_t *>(t.data);
      constexpr int64_t limit = int64_t(1) << 53;
      for (int64_t i = 0, n = attic_tensor_numel(&t); i < n; ++i)
        if (data[i] > limit || data[i] < -limit)
          return true;
      return false;
    };
    for (auto [index, t] : llvm::enumerate(inputs.pointers()))
      if (beyondDouble(*t))
        fail(llvm::formatv("--check: input #{0} (i64) holds values beyond "
                           "2^53 in magnitude, which the reference semantics "
                           "(in double) do not represent exactly",
                           index)
                 .str());
    FailureOr<attic::ReferenceResult> reference = attic::evaluateReference(
        *module, entry, inputs.pointers(), error, checkSteps);
    if (failed(reference))
      fail(error);
    for (auto [index, expected] : llvm::enumerate(reference->results)) {
      bool inexact = beyondDouble(outputs.tensors[index]);
      if (outputs.tensors[index].dtype == ATTIC_I64)
        for (double v : expected.data)
          inexact |= std::fabs(v) > 9007199254740992.0; // 2^53
      if (inexact)
        fail(llvm::formatv("--check: result #{0} (i64) holds values beyond "
                           "2^53 in magnitude (in the compiled result or the "
                           "reference), which the reference semantics (in "
                           "double) do not represent exactly: it cannot be "
                           "checked",
                           index)
                 .str());
    }
    for (auto [index, path] : llvm::enumerate(referenceOutputPaths)) {
      const attic::RefTensor &expected = reference->results[index];
      attic_tensor t{};
      if (attic_tensor_alloc(&t, ATTIC_F64, expected.shape.size(),
                             expected.shape.data(), message,
                             sizeof(message)) != ATTIC_OK)
        fail(message);
      std::memcpy(t.data, expected.data.data(),
                  expected.data.size() * sizeof(double));
      attic_status saved =
          attic_npy_save(path.c_str(), &t, message, sizeof(message));
      attic_tensor_free(&t);
      if (saved != ATTIC_OK)
        fail(message);
    }
    for (auto [index, expected] : llvm::enumerate(reference->results)) {
      const attic_tensor &actual = outputs.tensors[index];
      int64_t n = attic_tensor_numel(&actual);
      std::vector<double> values(n);
      for (int64_t i = 0; i < n; ++i)
        values[i] = attic_tensor_get(&actual, i);
      attic::ref::ErrorStats stats =
          attic::ref::compare(values.data(), expected.data.data(), n,
                              attic_dtype_smallest_normal(actual.dtype));
      double limit = tolerance >= 0 ? tolerance : defaultTolerance(actual.dtype);
      // A float result computed from values stored in f16 or bf16 carries
      // their rounding (an extf of an f16 attention), and so does the
      // pooled destination of attic.block_attention (an f32 sum of the
      // result rows as stored): their tolerance.
      if (tolerance < 0 && limit > 0)
        limit = std::max(limit, intermediateTolerance(*module, entry, index));
      auto [block, number] = blockAttentionResult(*module, entry, index);
      if (tolerance < 0 && block && block.getPoolInit() &&
          number + 1 == block->getNumResults())
        if (std::optional<attic_dtype> rows =
                attic::dtypeOf(cast<ShapedType>(block->getResult(0).getType())
                                   .getElementType()))
          limit = std::max(limit, defaultTolerance(*rows));
      bool ok = stats.nonFinite == 0 && stats.maxRel <= limit;
      checkFailed |= !ok;
      llvm::outs() << llvm::formatv(
          "check: result #{0} ({1} {2}): max_abs_err={3:e2} "
          "max_rel_err={4:e2} non_finite={5} tolerance={6:e1}: {7}\n",
          index, shapeText(actual.shape, actual.rank),
          attic_dtype_name(actual.dtype), stats.maxAbs, stats.maxRel,
          stats.nonFinite, limit, ok ? "ok" : "FAILED");
    }
  }

  if (benchRuns > 0) {
    std::vector<double> millis, kernelMillis;
    int64_t launches = 0;
    for (unsigned run = 0; run < benchRuns; ++run) {
      SmallVector<attic_tensor> results;
      uint64_t start = attic_now_ns();
      if (failed(runCompiled(results)))
        fail(error);
      millis.push_back((attic_now_ns() - start) * 1e-6);
      if (onCuda) {
        kernelMillis.push_back(cudaExecutable->lastRunStats().kernelMillis);
        launches = cudaExecutable->lastRunStats().launches;
      }
      for (attic_tensor &t : results)
        attic_tensor_free(&t);
    }
    double lo = *std::min_element(millis.begin(), millis.end());
    double hi = *std::max_element(millis.begin(), millis.end());
    double median = attic_median(millis.data(), millis.size());
    double flops = attic::countAttentionFlops(*module, entry, inputs.pointers());
    llvm::outs() << llvm::formatv(
        "time: median {0:f3} ms over {1} runs (min {2:f3}, max {3:f3})", median,
        benchRuns.getValue(), lo, hi);
    if (flops > 0)
      llvm::outs() << llvm::formatv(", {0:f2} GFLOP/s", flops / median * 1e-6);
    llvm::outs() << (onCuda ? " (wall clock, with host-device copies)\n"
                            : "\n");
    if (onCuda) {
      // The kernels alone, from CUDA events around each launch.
      double kernelMedian =
          attic_median(kernelMillis.data(), kernelMillis.size());
      llvm::outs() << llvm::formatv(
          "kernel time: median {0:f3} ms over {1} runs (min {2:f3}, max "
          "{3:f3}), {4} launches per run",
          kernelMedian, benchRuns.getValue(),
          *std::min_element(kernelMillis.begin(), kernelMillis.end()),
          *std::max_element(kernelMillis.begin(), kernelMillis.end()),
          launches);
      if (flops > 0 && kernelMedian > 0)
        llvm::outs() << llvm::formatv(", {0:f2} TFLOP/s",
                                      flops / kernelMedian * 1e-9);
      llvm::outs() << " on " << deviceText << "\n";
    }
  }
  // The kernels unloaded, then the runtime's device state released (the
  // tensor maps' device copies of TMA kernels, the primary context), so
  // that the run ends with nothing of it left on the device.
  if (onCuda) {
    cudaExecutable.reset();
    attic_cuda_shutdown();
  }
  double mib = 1.0 / (1024.0 * 1024.0);
  if (!onCuda && !simulated)
    llvm::outs() << llvm::formatv(
      "heap: peak {0:f2} MiB allocated by the compiled code besides its "
      "outputs ({1:f2} MiB of outputs)\n",
      (heap.peakBytes > outputBytes ? heap.peakBytes - outputBytes : 0) * mib,
      outputBytes * mib);
  // Finite inputs, non-finite results: an f32 overflow, or inputs outside
  // an op's domain (docs/layouts.md, "NaN policy"). Reported (after the
  // check and the timings), never passed on silently.
  auto isFloat = [](attic_dtype dtype) {
    return dtype == ATTIC_F32 || dtype == ATTIC_F16 || dtype == ATTIC_BF16 ||
           dtype == ATTIC_F64;
  };
  // An lse destination of attic.block_attention returned as is holds -inf
  // by definition for a row with no admissible key (log 0); only NaN and
  // +inf are non-finite there (`allowNegInf`).
  auto nonFinite = [&](const attic_tensor &t, bool allowNegInf = false) {
    int64_t count = 0;
    if (!isFloat(t.dtype))
      return count;
    int64_t n = attic_tensor_numel(&t);
    for (int64_t i = 0; i < n; ++i) {
      double x = attic_tensor_get(&t, i);
      count += !std::isfinite(x) && !(allowNegInf && x == -HUGE_VAL);
    }
    return count;
  };
  // So does the key bias of attic.vcc_compress for a J node without valid
  // tokens (a 2026-12-02 audit: a padded input's bias failed the run).
  auto isLse = [&](unsigned index) {
    auto [block, number] = blockAttentionResult(*module, entry, index);
    if (block)
      return block.getLseInit() && number == 1;
    auto result =
        dyn_cast_or_null<OpResult>(returnedValue(*module, entry, index));
    return result && isa<attic::VccCompressOp>(result.getOwner()) &&
           result.getResultNumber() == 1;
  };
  bool inputsFinite = llvm::all_of(
      inputs.tensors, [&](const attic_tensor &t) { return !nonFinite(t); });
  if (inputsFinite && !allowNonFinite)
    for (auto [index, t] : llvm::enumerate(outputs.tensors))
      if (int64_t count = nonFinite(t, isLse(index)))
        fail("result #" + llvm::Twine(index) + " has " + llvm::Twine(count) +
             " non-finite values although every input is finite (an f32 "
             "overflow, e.g. logits scale * q . k beyond +-2.36e38, or inputs "
             "outside an op's "
             "domain; see docs/layouts.md, NaN policy; --allow-non-finite "
             "accepts it)");

  return checkFailed ? 1 : 0;
}
