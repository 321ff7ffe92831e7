//===- attic-compile.cpp - ahead-of-time compilation to a library -*- C++ -*-//
//
//   attic-compile FILE.mlir [--entry=F] [-o libF.so] [--emit=so|obj|llvm]
//                 [--header=F.h] [--shape=I:AxBxC ...] [--cpu=host|NAME]
//                 [--block-q=128 --block-k=128 ...]
//                 [--target=cuda [--cuda-chip=sm_80|sm_90]
//                  [--cuda-format=bin|isa|fatbin]]
//
// Compiles @F with attic-cpu-pipeline (--target=cuda: attic-cuda-pipeline,
// the kernels embedded) into a shared library (or an object file) with the
// C ABI of attic/runtime/Aot.h and writes the C header of its entry point. The library needs libattic_rt.so (and, through it,
// OpenBLAS and libomp) at run time, never MLIR, LLVM or a JIT. See
// docs/aot.md. Every failure is one line on stderr and exit status 1.
//
//===----------------------------------------------------------------------===//

#include "attic/Execution/AotCompile.h"
#include "attic/Execution/CpuExecutable.h"
#include "attic/Support/ArgumentBinding.h"
#include "attic/Support/CrashHandler.h"
#include "attic/Support/KernelOptions.h"
#include "attic/Support/OutputFile.h"
#include "attic/Support/ToolOptions.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <optional>
#include <vector>

using namespace mlir;
namespace cl = llvm::cl;

/// The tool's own options: --help lists these (and the generic ones), not
/// the hundreds of LLVM backend options linked in with the JIT and the
/// code generators (they still parse; --help-hidden does not list them).
static cl::OptionCategory toolOptions("attic-compile options");

static cl::opt<std::string> inputFile(cl::Positional, cl::cat(toolOptions),
                                      cl::desc("<input .mlir>"), cl::Required);
static cl::opt<std::string>
    entryName("entry", cl::cat(toolOptions),
              cl::desc("Function to compile (default: the only one)"));
static cl::opt<std::string>
    outputFile("o", cl::cat(toolOptions),
               cl::desc("Output file (default: lib<entry>.so, "
                        "<entry>.o or <entry>.ll)"),
               cl::value_desc("path"));
static cl::opt<std::string>
    emit("emit", cl::cat(toolOptions), cl::init("so"),
         cl::desc("so: a shared library linked against libattic_rt.so; obj: an "
                  "object file; llvm: the optimized LLVM IR"));
static cl::opt<std::string>
    headerFile("header", cl::cat(toolOptions),
               cl::desc("The C header of the entry point (default: <entry>.h "
                        "next to the output, none when the output is not a "
                        "regular file such as /dev/null or -; --header=- "
                        "skips "
                        "it)"));
static cl::list<std::string>
    shapeSpecs("shape", cl::cat(toolOptions),
               cl::desc("I:AxBxC gives argument I a static shape (needed "
                        "where its type has dynamic dims)"));
static cl::opt<std::string> cpu(
    "cpu", cl::cat(toolOptions), cl::init("host"),
    cl::desc("CPU to compile for: host (this machine's) or an LLVM CPU name "
             "(x86-64-v3, skylake-avx512, ...)"));
static cl::opt<unsigned> optLevel("O", cl::cat(toolOptions), cl::init(3),
                                  cl::Prefix,
                                  cl::desc("LLVM optimization level (0-3)"));
static cl::opt<std::string>
    target("target", cl::cat(toolOptions), cl::init("cpu"),
           cl::desc("cpu, or cuda: host code for --cpu that launches CUDA "
                    "kernels embedded in the library"));
static cl::opt<std::string>
    cudaChip("cuda-chip", cl::cat(toolOptions), cl::init("sm_80"),
             cl::desc("--target=cuda: the kernels' architecture, sm_80 or "
                      "sm_90"));
static cl::opt<std::string> cudaFormat(
    "cuda-format", cl::cat(toolOptions), cl::init(""),
    cl::desc("--target=cuda: bin (cubin, runs on the chip's major "
             "architecture; needs ptxas), isa (PTX, which the driver compiles "
             "for the chip or any newer GPU) or fatbin; default: bin when "
             "ptxas is found, else isa"));
static cl::opt<int64_t> kvStages(
    "kv-stages", cl::cat(toolOptions), cl::init(1),
    cl::desc("--target=cuda: slots of the tensor-core kernel's K and V rings "
             "(1, 2 or 3), as attic-run's flag"));
static cl::opt<bool>
    wgmma("wgmma", cl::cat(toolOptions), cl::init(false),
          cl::desc("--target=cuda with --cuda-chip=sm_90: Q K^T and P V on "
                   "wgmma.mma_async, compiled for sm_90a (9.0 devices only)"));
static cl::opt<bool> wgmmaOverlap(
    "wgmma-overlap", cl::cat(toolOptions), cl::init(false),
    cl::desc("--target=cuda with --wgmma and --kv-stages=2 or 3: each key "
             "block's P V during the next block's softmax"));
static cl::opt<bool>
    tma("tma", cl::cat(toolOptions), cl::init(false),
        cl::desc("--target=cuda with --wgmma and --kv-stages=2 or 3: TMA loads "
                 "of the rings (tensor maps encoded by libattic_rt.so)"));
static cl::opt<bool> warpSpecialize(
    "warp-specialize", cl::cat(toolOptions), cl::init(false),
    cl::desc("--target=cuda with --tma: a producer warpgroup issues the TMA "
             "loads, the consumer warpgroups compute"));
static cl::opt<bool> pingPong(
    "ping-pong", cl::cat(toolOptions), cl::init(false),
    cl::desc("--target=cuda with --warp-specialize and --wgmma-overlap: the "
             "two consumer warpgroups take turns issuing their wgmmas"));
static cl::opt<std::string> runtimeDir(
    "runtime-dir", cl::cat(toolOptions),
    cl::desc("Directory of libattic_rt.so to link against (default: ../lib "
             "next to attic-compile)"));
static cl::opt<int64_t> blockQ("block-q", cl::cat(toolOptions), cl::init(128),
                               cl::desc("Query rows per block"));
static cl::opt<int64_t> blockK("block-k", cl::cat(toolOptions), cl::init(128),
                               cl::desc("Key rows per block"));
static cl::opt<bool> sequential(
    "sequential", cl::cat(toolOptions), cl::init(false),
    cl::desc("Compile parallel loops as sequential loops (no OpenMP)"));
static cl::opt<int64_t> registerRows(
    "register-rows", cl::cat(toolOptions), cl::init(0),
    cl::desc("Query rows per register tile of the kernels (0: derived)"));
static cl::opt<int64_t> registerChunks(
    "register-chunks", cl::cat(toolOptions), cl::init(0),
    cl::desc("Vectors per register tile row of the kernels (0: derived)"));
static cl::opt<bool> blas("blas", cl::cat(toolOptions), cl::init(true),
                          cl::desc("f32 matmuls call OpenBLAS through "
                                   "libattic_rt.so; --blas=false: loops"));
static cl::opt<int64_t> vectorWidth(
    "vector-width", cl::cat(toolOptions), cl::init(0),
    cl::desc("f32 lanes per vector (power of two; 0: the target CPU's)"));

namespace {
/// Temporary files (the object to link, the linker's log) to remove when
/// attic-compile fails: fail() exits before the llvm::FileRemovers that
/// remove them on success run, and a failed link left both in the
/// temporary directory (a 2026-11-30 audit).
std::vector<std::string> &temporaries() {
  static std::vector<std::string> paths;
  return paths;
}

/// A temporary file, removed on failure (fail) and on a signal (SIGINT,
/// SIGTERM, a crash: an interrupted link left the object and the log in
/// the temporary directory).
void addTemporary(StringRef path) {
  temporaries().push_back(path.str());
  llvm::sys::RemoveFileOnSignal(path);
}

[[noreturn]] void fail(const llvm::Twine &message) {
  llvm::errs() << "attic-compile: error: " << message << "\n";
  for (const std::string &path : temporaries())
    llvm::sys::fs::remove(path);
  std::exit(1);
}

/// The shapes of every argument for specializeEntry: --shape where given,
/// the static type otherwise (attic/Support/ArgumentBinding.h); nullopt
/// when no --shape was given and no argument has a dynamic dim.
std::optional<SmallVector<SmallVector<int64_t>>>
argumentShapes(const attic::EntrySignature &signature, StringRef entry) {
  attic::ArgumentOptionTexts texts;
  texts.shapes.assign(shapeSpecs.begin(), shapeSpecs.end());
  attic::ArgumentBinding binding;
  std::string error;
  if (!attic::bindArgumentOptions(attic::argumentTypes(signature), entry.str(),
                                  texts, binding, error))
    fail(error);
  if (!binding.anyShapeGiven)
    return std::nullopt;
  SmallVector<SmallVector<int64_t>> shapes;
  for (const auto &shape : binding.generatedShapes)
    shapes.emplace_back(shape->begin(), shape->end());
  return shapes;
}

/// Gives `created` the permissions of the existing `path`, if any.
void keepPermissions(StringRef path, StringRef created) {
  if (llvm::ErrorOr<llvm::sys::fs::perms> perms =
          llvm::sys::fs::getPermissions(path))
    (void)llvm::sys::fs::setPermissions(created, *perms);
}

/// Where a write to `path` lands: the file a symbolic link names (written
/// through, as attic-compile always did), else `path`.
std::string outputTarget(StringRef path) {
  SmallString<256> real;
  if (path != "-" && llvm::sys::fs::is_symlink_file(path) &&
      !llvm::sys::fs::real_path(path, real))
    return real.str().str();
  return path.str();
}

/// A new file beside `path` (an outputTarget), in its directory, that a
/// rename puts in place in one step. Two attic-compile runs to one output
/// wrote into one file, since the linker and the header's stream truncate
/// in place: a library of both builds, which crashed the program that
/// loaded it (a 2026-11-30 audit). "" where the output is written in place
/// instead: "-", an existing file that is not a regular file (a device
/// takes the writes itself), a link that names no file (the write creates
/// it, or fails on a loop), and where no file can be made beside it for
/// lack of permission or a name at the length limit. Other failures (no
/// space) are errors: writing in place would lose the existing output.
std::string fileBeside(StringRef path) {
  llvm::sys::fs::file_status status;
  if (path == "-" || llvm::sys::fs::is_symlink_file(path) ||
      (!llvm::sys::fs::status(path, status) &&
       status.type() != llvm::sys::fs::file_type::regular_file))
    return "";
  StringRef dir = llvm::sys::path::parent_path(path);
  SmallString<256> model(dir.empty() ? StringRef(".") : dir);
  llvm::sys::path::append(model, "." + llvm::sys::path::filename(path) +
                                     "-%%%%%%%%.tmp");
  SmallString<256> created;
  if (std::error_code ec = llvm::sys::fs::createUniqueFile(model, created)) {
    if (ec == std::errc::permission_denied ||
        ec == std::errc::operation_not_permitted ||
        ec == std::errc::read_only_file_system ||
        ec == std::errc::filename_too_long ||
        ec == std::errc::no_such_file_or_directory)
      return "";
    fail(path + ": cannot write: " + ec.message());
  }
  addTemporary(created);
  keepPermissions(path, created);
  return created.str().str();
}

/// Renames `created` (from fileBeside) to `path`, or fails after
/// `cleanup`.
void putInPlace(
    StringRef created, StringRef path,
    llvm::function_ref<void()> cleanup = [] {}) {
  if (std::error_code ec = llvm::sys::fs::rename(created, path)) {
    llvm::sys::fs::remove(created);
    cleanup();
    fail(path + ": cannot write: " + ec.message());
  }
}

/// Writes `data` to `path` (through a file beside it, renamed in place);
/// on failure, removes `written` (the library of a header that could not
/// be written: nothing is left half done) and leaves an existing output as
/// it was. Returns the file written (outputTarget).
std::string writeFile(StringRef path, StringRef data, StringRef written = "") {
  auto removeWritten = [&] {
    if (!written.empty())
      llvm::sys::fs::remove(written);
  };
  auto failWriting = [&](const llvm::Twine &message) {
    removeWritten();
    fail(message);
  };
  std::string final = outputTarget(path);
  std::string created = fileBeside(final);
  StringRef target = created.empty() ? StringRef(final) : StringRef(created);
  std::error_code ec;
  llvm::ToolOutputFile out(target, ec, llvm::sys::fs::OF_None);
  if (ec)
    failWriting(path + ": cannot write: " + ec.message());
  out.os() << data;
  if (std::string message = attic::finishOutput(out, path, target);
      !message.empty())
    failWriting(message);
  out.keep();
  if (!created.empty())
    putInPlace(created, final, removeWritten);
  return final;
}

/// Whether `a` and `b` name one file: the same path after making both
/// absolute and removing dots, or (when both exist) the same inode.
bool sameFile(StringRef a, StringRef b) {
  if (a == "-" || b == "-")
    return false;
  return attic::namesSameFile(a, b);
}

/// The first line of the linker's messages that says what went wrong, for
/// a one-line failure: a line with "error", "cannot", "unrecognized" or
/// "undefined", else the first line. gcc's closing summary ("collect2:
/// error: ld returned 1 exit status") names no cause, so it comes last:
/// ld's own line before it (e.g. "unrecognized option '--bogus'") has no
/// "error" in it.
std::string firstErrorLine(StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return "";
  SmallVector<StringRef> lines;
  (*buffer)->getBuffer().split(lines, '\n', -1, /*KeepEmpty=*/false);
  auto isSummary = [](StringRef line) {
    return line.contains("returned") && line.contains("exit status");
  };
  for (StringRef line : lines)
    if (!isSummary(line) &&
        llvm::any_of(
            ArrayRef<StringRef>{"error", "cannot", "unrecognized", "undefined"},
            [&](StringRef word) { return line.contains(word); }))
      return line.trim().str();
  for (StringRef line : lines)
    if (!isSummary(line))
      return line.trim().str();
  return lines.empty() ? "" : lines.front().trim().str();
}

/// The directory of libattic_rt.so: --runtime-dir, else ../lib next to this
/// executable (the build tree and an installed prefix both have it there).
std::string findRuntimeDir(const char *argv0) {
  std::string dir = runtimeDir;
  if (dir.empty()) {
    std::string exe = llvm::sys::fs::getMainExecutable(
        argv0, reinterpret_cast<void *>(&findRuntimeDir));
    SmallString<256> path(
        llvm::sys::path::parent_path(llvm::sys::path::parent_path(exe)));
    llvm::sys::path::append(path, "lib");
    dir = std::string(path);
  }
  // Absolute: it becomes the library's run path, which the loader would
  // read against the directory of whatever program loads it.
  SmallString<256> absolute(dir);
  if (!llvm::sys::fs::make_absolute(absolute))
    dir = std::string(absolute);
  SmallString<256> lib(dir);
  llvm::sys::path::append(lib, "libattic_rt.so");
  if (!llvm::sys::fs::exists(lib))
    fail(dir + ": no libattic_rt.so there (give its directory with "
               "--runtime-dir)");
  // A run path is a list separated by ':': one in the directory splits it,
  // and the second part, relative, is read against the directory of the
  // loading process.
  if (StringRef(dir).contains(':'))
    fail(dir + ": the directory of libattic_rt.so contains ':', which a "
               "run path cannot hold; install or copy attic to a path "
               "without one (or give --runtime-dir)");
  return dir;
}

/// Links `object` into the shared library `output` (returned: the file
/// written, its outputTarget) with the C compiler
/// driver ($CC, else cc, clang or gcc), against libattic_rt.so and libomp
/// with run paths to both (given with -Xlinker: `-Wl,-rpath,DIR` split a
/// DIR with a comma).
std::string linkSharedLibrary(StringRef object, StringRef output,
                              const std::string &rtDir) {
  std::string driver;
  // $CC may be a command with arguments ("ccache gcc", "gcc -m64"), as
  // make reads it: its first word is the program.
  SmallVector<std::string> ccArgs;
  if (const char *cc = std::getenv("CC"); cc && *cc) {
    SmallVector<StringRef> words;
    StringRef(cc).split(words, ' ', -1, /*KeepEmpty=*/false);
    if (words.empty())
      fail("CC is blank");
    auto found = llvm::sys::findProgramByName(words.front());
    if (!found)
      fail(llvm::Twine("CC=") + cc + ": " +
           (words.size() > 1 ? words.front() + " " : "") + "not found");
    driver = *found;
    for (StringRef word : llvm::drop_begin(words))
      ccArgs.push_back(word.str());
  } else {
    for (const char *name : {"cc", "clang", "gcc"})
      if (auto found = llvm::sys::findProgramByName(name)) {
        driver = *found;
        break;
      }
  }
  if (driver.empty())
    fail("no C compiler driver (cc, clang, gcc) to link the shared library: "
         "install one, set CC, or use --emit=obj");
  std::string ompDir = ATTIC_LIBOMP_DIR;
  SmallVector<std::string> args = {driver};
  args.append(ccArgs.begin(), ccArgs.end());
  // Linked beside the output, then renamed over it (fileBeside).
  std::string final = outputTarget(output);
  std::string created = fileBeside(final);
  args.append({"-shared", "-o", created.empty() ? final : created, object.str(),
               "-L" + rtDir, "-lattic_rt", "-Xlinker", "-rpath", "-Xlinker",
               rtDir, "-L" + ompDir, "-lomp", "-Xlinker", "-rpath", "-Xlinker",
               ompDir, "-lm"});
  SmallVector<StringRef> argRefs(args.begin(), args.end());
  // The driver's messages go to a file: the failure is one line.
  SmallString<128> logPath;
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("attic-compile", "log", logPath))
    fail("cannot create a temporary file: " + ec.message());
  addTemporary(logPath);
  llvm::FileRemover removeLog(logPath);
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(logPath),
                                          StringRef(logPath)};
  std::string message;
  int status = llvm::sys::ExecuteAndWait(driver, argRefs, std::nullopt,
                                         redirects, 0, 0, &message);
  if (status != 0) {
    std::string said = firstErrorLine(logPath);
    fail("linking " + output + " with " + driver + " failed" +
         (message.empty() ? "" : ": " + message) +
         (said.empty() ? "" : ": " + said) + " (exit status " +
         llvm::Twine(status) + ")");
  }
  if (!created.empty()) {
    // A driver that exits 0 without linking (CC=true, -fsyntax-only) left
    // an empty file, which replaced a good library (a 2026-11-30 audit).
    // An ELF file of type ET_DYN (little-endian e_type at offset 16): a
    // driver writing an object (cc -c) or an executable is refused too.
    unsigned char header[18] = {};
    std::ifstream linked(created, std::ios::binary);
    bool shared = linked.read(reinterpret_cast<char *>(header), 18) &&
                  std::memcmp(header,
                              "\x7f"
                              "ELF",
                              4) == 0 &&
                  header[16] == 3 && header[17] == 0;
    if (!shared) {
      linked.close();
      llvm::sys::fs::remove(created);
      fail("linking " + output + " with " + driver +
           " wrote no shared library (the driver exited 0, and its output "
           "is not an ELF shared object); check CC");
    }
    linked.close();
    // The linker made the file anew.
    keepPermissions(final, created);
    putInPlace(created, final);
  }
  return final;
}
} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  // After InitLLVM: a crash is one line and exit 70 (CrashHandler.h).
  attic::installCrashHandler("attic-compile");
  cl::HideUnrelatedOptions(toolOptions);
  cl::ParseCommandLineOptions(
      argc, argv,
      "attic-compile: compile an attic function ahead of time into a library "
      "with a C entry point\n");
  if (std::string repeated = attic::repeatedOptionError(); !repeated.empty())
    fail(repeated);
  if (target != "cpu" && target != "cuda")
    fail("--target=" + target + ": expected cpu or cuda");
  if (target == "cuda" && cudaChip != "sm_80" && cudaChip != "sm_90")
    fail("--cuda-chip=" + cudaChip + ": expected sm_80 or sm_90");
  if (!cudaFormat.empty() && cudaFormat != "bin" && cudaFormat != "isa" &&
      cudaFormat != "fatbin")
    fail("--cuda-format=" + cudaFormat + ": expected bin, isa or fatbin");
  if (target != "cuda" &&
      (cudaChip.getNumOccurrences() || cudaFormat.getNumOccurrences()))
    fail("--cuda-chip and --cuda-format need --target=cuda");
  for (cl::Option *cudaOption : std::initializer_list<cl::Option *>{
           &kvStages, &wgmma, &wgmmaOverlap, &tma, &warpSpecialize, &pingPong})
    if (target != "cuda" && cudaOption->getNumOccurrences())
      fail("--" + cudaOption->ArgStr.str() + " needs --target=cuda");
  // The CPU kernels' options, which attic-cuda-pipeline does not take
  // (accepted and ignored before; a 2026-11-30 audit). --block-q and
  // --block-k are both pipelines'.
  for (cl::Option *cpuOption : std::initializer_list<cl::Option *>{
           &vectorWidth, &registerRows, &registerChunks, &sequential, &blas})
    if (target == "cuda" && cpuOption->getNumOccurrences())
      fail("--" + cpuOption->ArgStr.str() +
           " is an option of the CPU kernels; --target=cuda does not take it");
  if (emit != "so" && emit != "obj" && emit != "llvm")
    fail("--emit=" + emit + ": expected so, obj or llvm");
  for (const std::string &bad :
       {attic::blockSizesError(blockQ, blockK, "--"),
        attic::registerTileError(registerRows, registerChunks, "--"),
        attic::vectorWidthError(vectorWidth, "--")})
    if (!bad.empty())
      fail(bad);
  if (optLevel > 3)
    fail("-O" + llvm::Twine(optLevel.getValue()) + ": expected -O0 to -O3");
  // The runtime is linked into shared libraries alone: an object or LLVM
  // IR names its symbols and is linked by the caller (accepted and ignored
  // before, a misspelled directory too; an audit).
  if (emit != "so" && runtimeDir.getNumOccurrences())
    fail("--runtime-dir is where a shared library finds libattic_rt.so; "
         "--emit=" +
         emit + " links nothing (link the output against it yourself)");
  if (emit == "so" && outputFile == "-")
    fail("-o -: a shared library is not written to standard output; give "
         "a file name (or --emit=obj or --emit=llvm)");
  // Empty values: the defaults were taken without a word (an audit).
  for (cl::Option *option : std::initializer_list<cl::Option *>{
           &entryName, &outputFile, &headerFile, &runtimeDir})
    if (option->getNumOccurrences() &&
        static_cast<cl::opt<std::string> *>(option)->empty())
      fail("--" + option->ArgStr.str() + "= is empty; " +
           (option == &headerFile ? "give a value (- for no header, or leave "
                                    "the option out)"
            : option == &entryName
                ? "give a function's name (or leave the option out for the "
                  "only one)"
                : "give a value (or leave the option out)"));
  // Before compiling: a missing folder was reported by the linker after
  // the whole compilation ("/usr/bin/ld: cannot open output file ...").
  for (const std::string &path :
       {std::string(outputFile), std::string(headerFile)})
    if (path != "-")
      if (std::string problem = attic::outputFolderProblem(path);
          !problem.empty())
        fail("cannot write " + path + ": " + problem);

  DialectRegistry registry;
  attic::registerExecutionDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  std::string error;
  // Diagnostics outside the steps' own collectors stay out of the output
  // (each step reports its failure as one line).
  attic::ErrorCollector quiet(&context);
  llvm::SourceMgr sourceMgr;
  OwningOpRef<ModuleOp> module = attic::loadModuleForTool(
      inputFile, sourceMgr, &context, "attic-compile", error);
  if (!module)
    fail(error);
  std::string entry = attic::chooseEntry(*module, entryName, inputFile, error);
  if (entry.empty())
    fail(error);
  FailureOr<attic::EntrySignature> signature =
      attic::getEntrySignature(*module, entry, error);
  if (failed(signature))
    fail(error);
  if (auto shapes = argumentShapes(*signature, entry))
    if (failed(attic::specializeEntry(*module, entry, *shapes, error)))
      fail(error);

  attic::CpuPipelineOptions pipeline;
  pipeline.blockQ = blockQ;
  pipeline.blockK = blockK;
  pipeline.vectorWidth = vectorWidth;
  pipeline.registerRows = registerRows;
  pipeline.registerChunks = registerChunks;
  pipeline.parallel = !sequential;
  pipeline.blas = blas;
  attic::AotOptions options;
  options.cpu = cpu;
  options.optLevel = optLevel;
  options.target = target;
  options.cudaChip = cudaChip;
  options.cudaFormat = cudaFormat;
  options.kernel.kvStages = kvStages;
  options.kernel.wgmma = wgmma;
  options.kernel.wgmmaOverlap = wgmmaOverlap;
  options.kernel.tma = tma;
  options.kernel.warpSpecialize = warpSpecialize;
  options.kernel.pingPong = pingPong;
  attic::AotArtifact artifact;
  if (failed(attic::compileAheadOfTime(*module, entry, pipeline, options,
                                       artifact, error)))
    fail(error);

  std::string output = outputFile;
  if (output.empty())
    output = emit == "so"    ? "lib" + entry + ".so"
             : emit == "obj" ? entry + ".o"
                             : entry + ".ll";
  std::string header;
  if (headerFile != "-") {
    header = headerFile;
    // Next to the output, when the output is a file: an output such as
    // /dev/null gets no default header (it would land in /dev), nor does
    // standard output (`-o -` wrote ENTRY.h into the working directory,
    // over a file of that name).
    llvm::sys::fs::file_status status;
    bool special = output == "-" || (!llvm::sys::fs::status(output, status) &&
                                     !llvm::sys::fs::is_regular_file(status));
    if (header.empty() && !special) {
      SmallString<256> path(llvm::sys::path::parent_path(output));
      llvm::sys::path::append(path, entry + ".h");
      header = std::string(path);
    }
  }
  // Refused before anything is written: either would silently replace the
  // other (the input by the library, the library by its header).
  if (sameFile(output, inputFile))
    fail("the output " + output + " is the input file");
  if (!header.empty() && sameFile(header, inputFile))
    fail("the header " + header + " is the input file");
  if (!header.empty() && sameFile(header, output))
    fail("the header and the output are both " + output +
         "; give the header another name with --header=F.h");
  std::string written;
  if (emit == "llvm") {
    written = writeFile(output, artifact.llvmIR);
  } else if (emit == "obj") {
    written = writeFile(output, artifact.object);
  } else {
    std::string rtDir = findRuntimeDir(argv[0]);
    SmallString<128> objectPath;
    if (std::error_code ec = llvm::sys::fs::createTemporaryFile(
            "attic-compile", "o", objectPath))
      fail("cannot create a temporary file: " + ec.message());
    addTemporary(objectPath);
    llvm::FileRemover removeObject(objectPath);
    writeFile(objectPath, artifact.object);
    written = linkSharedLibrary(objectPath, output, rtDir);
  }
  if (!header.empty())
    writeFile(header, artifact.header, written == "-" ? "" : written);
  return 0;
}
