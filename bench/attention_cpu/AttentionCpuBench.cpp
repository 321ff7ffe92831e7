//===- AttentionCpuBench.cpp - attic CPU attention vs baselines -*- C++ -*-===//
//
//   attic-bench-attention [--n=1024,2048,...] [--heads=H] [--batch=B] [--d=D]
//                         [--reps=R] [--naive-max-n=N] [--causal=both|on|off]
//                         [--seed=S] [--csv=PATH] [--sgemm-n=N]
//                         [--save-dir=DIR] [--settle-ms=MS]
//
// For each sequence length N and causal setting: generates Q, K and V once
// (f32, seeded), JIT-compiles `attic.attention` once for those static shapes
// (the compile time is reported on its own), then times attic's kernel, the
// naive loops and the OpenBLAS baseline on the same inputs (median of R runs
// after one warm-up), checks attic and OpenBLAS against the naive loops (or
// attic against OpenBLAS where the naive loops are skipped), and prints
// GFLOP/s and speedups. A benchmark, not a test: the figures are only
// meaningful as ratios within one run.
//
// Threads: attic's parallel loops run on libomp (OMP_NUM_THREADS, default
// all cores), OpenBLAS on its own threads (OPENBLAS_NUM_THREADS). Between
// two implementations the bench sleeps --settle-ms so that the other
// runtime's spinning worker threads have gone to sleep (set KMP_BLOCKTIME=0
// for libomp). --save-dir writes each N's inputs and attic's outputs as .npy,
// for baselines in other processes (bench/cpu/torch_attention.py).
//
// Every failure is one line on stderr and a non-zero exit status; a case that
// fails the accuracy check is still printed, and the exit status is 1 once
// all cases have run.
//
//===----------------------------------------------------------------------===//

#include "attic/Execution/CpuExecutable.h"
#include "attic/InitAttic.h"
#include "attic/Reference/Attention.h"
#include "attic/bench/Baselines.h"
#include "attic/runtime/Runtime.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <limits>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

using namespace mlir;
namespace cl = llvm::cl;

namespace {

cl::OptionCategory benchCategory("attic-bench-attention options");

cl::list<int64_t> sequenceLengths(
    "n", cl::CommaSeparated, cl::cat(benchCategory),
    cl::desc("Sequence lengths N (Nq = Nk), comma separated "
             "(default 1024,2048,4096,8192,16384)"));
cl::opt<int64_t> heads("heads", cl::init(4), cl::cat(benchCategory),
                       cl::desc("Heads H"));
cl::opt<int64_t> batch("batch", cl::init(1), cl::cat(benchCategory),
                       cl::desc("Batch B"));
cl::opt<int64_t> headDim("d", cl::init(64), cl::cat(benchCategory),
                         cl::desc("Head dimension D (= Dv)"));
cl::opt<int> reps("reps", cl::init(3), cl::cat(benchCategory),
                  cl::desc("Timed runs per measurement, after one warm-up"));
cl::opt<int64_t> naiveMaxN("naive-max-n", cl::init(16384),
                           cl::cat(benchCategory),
                           cl::desc("Skip the naive loops above this N"));
cl::opt<std::string> causalMode("causal", cl::init("both"),
                                cl::cat(benchCategory),
                                cl::desc("both, on or off"));
cl::opt<uint64_t> seed("seed", cl::init(0), cl::cat(benchCategory),
                       cl::desc("Seed of the generated Q, K and V"));
cl::opt<std::string> csvPath("csv", cl::cat(benchCategory),
                             cl::desc("Also write the results as CSV here"));
cl::opt<int64_t> sgemmSize(
    "sgemm-n", cl::init(4096), cl::cat(benchCategory),
    cl::desc("Size of the square OpenBLAS sgemm measured as the practical "
             "peak (0: skip)"));
cl::opt<std::string> saveDir(
    "save-dir", cl::cat(benchCategory),
    cl::desc("Write q_N.npy, k_N.npy, v_N.npy and attic_N_{causal,dense}.npy "
             "here"));
cl::opt<int> settleMs("settle-ms", cl::init(300), cl::cat(benchCategory),
                      cl::desc("Pause between implementations, in ms"));

/// Largest max-relative error accepted for attic and OpenBLAS.
constexpr double kTolerance = 1e-4;

[[noreturn]] void fail(const llvm::Twine &message) {
  llvm::outs().flush();
  llvm::errs() << "attic-bench-attention: error: " << message << "\n";
  std::exit(1);
}

/// A runtime tensor freed on scope exit.
struct OwnedTensor {
  attic_tensor tensor{};
  OwnedTensor() = default;
  OwnedTensor(const OwnedTensor &) = delete;
  OwnedTensor &operator=(const OwnedTensor &) = delete;
  ~OwnedTensor() { attic_tensor_free(&tensor); }
  void reset(attic_tensor other) {
    attic_tensor_free(&tensor);
    tensor = other;
  }
  const float *floats() const { return static_cast<const float *>(tensor.data); }
};

struct CaseResult {
  int64_t n = 0;
  bool causal = false;
  double compileSeconds = 0;
  double atticMs = 0;
  std::optional<double> naiveMs; // unset when the naive loops were skipped
  double blasMs = 0;
  double flops = 0;
  double atticError = 0;               // against the reference below
  std::optional<double> blasError;     // against naive; unset if skipped
  const char *reference = "naive";     // "naive" or "blas"
  bool passed = true;

  double gflops(double ms) const { return flops / (ms * 1e6); }
};

std::string cpuModel() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    llvm::StringRef text(line);
    if (!text.starts_with("model name"))
      continue;
    return text.split(':').second.trim().str();
  }
  return "unknown";
}

std::string envValue(const char *name) {
  const char *value = std::getenv(name);
  return value ? value : "unset";
}

std::string currentDate() {
  std::time_t now = std::time(nullptr);
  char text[64];
  std::strftime(text, sizeof(text), "%Y-%m-%d %H:%M:%S %Z",
                std::localtime(&now));
  return text;
}

/// FLOPs of dense attention: 2*N*N*D for Q K^T plus 2*N*N*D for P V per
/// (batch, head); causal attention does about half of that.
double attentionFlops(int64_t n, bool causal) {
  double flops = 4.0 * batch * heads * double(n) * double(n) * headDim;
  return causal ? flops / 2 : flops;
}

/// max |actual - expected| / max |expected|; +inf if any difference is not
/// finite.
double maxRelError(const float *actual, const float *expected, int64_t count) {
  double maxDiff = 0, maxExpected = 0;
  for (int64_t i = 0; i < count; ++i) {
    double diff = std::fabs(double(actual[i]) - double(expected[i]));
    if (!std::isfinite(diff))
      return std::numeric_limits<double>::infinity();
    maxDiff = std::max(maxDiff, diff);
    maxExpected = std::max(maxExpected, std::fabs(double(expected[i])));
  }
  return maxDiff / std::max(maxExpected, std::numeric_limits<double>::min());
}

std::string attentionIR(int64_t n, bool causal) {
  std::string type = llvm::formatv("tensor<{0}x{1}x{2}x{3}xf32>", batch.getValue(),
                                   heads.getValue(), n, headDim.getValue());
  return llvm::formatv(
      "func.func @attention(%q: {0}, %k: {0}, %v: {0}) -> {0} {{\n"
      "  %o = attic.attention %q, %k, %v{1} : {0}, {0}, {0} -> {0}\n"
      "  return %o : {0}\n"
      "}\n",
      type, causal ? " causal" : "");
}

/// Runs `body` once untimed, then `reps` times, and returns the median of
/// the timed runs in milliseconds.
template <typename Body>
double medianMillis(Body body) {
  body();
  std::vector<double> millis;
  for (int run = 0; run < reps; ++run) {
    uint64_t start = attic_now_ns();
    body();
    millis.push_back((attic_now_ns() - start) * 1e-6);
  }
  return attic_median(millis.data(), millis.size());
}

/// Parses, verifies and JIT-compiles the attention function for one case.
std::unique_ptr<attic::CpuExecutable> compileAttention(MLIRContext &context,
                                                       int64_t n, bool causal) {
  std::string firstError;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    if (diag.getSeverity() == DiagnosticSeverity::Error && firstError.empty()) {
      llvm::raw_string_ostream os(firstError);
      os << diag;
    }
    return success();
  });
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(attentionIR(n, causal), &context);
  if (!module)
    fail("cannot parse the attention IR for N=" + llvm::Twine(n) + ": " +
         firstError);
  attic::CpuPipelineOptions options;
  std::string error;
  std::unique_ptr<attic::CpuExecutable> executable =
      attic::CpuExecutable::compile(*module, "attention", options, error);
  if (!executable)
    fail("compiling attention for N=" + llvm::Twine(n) + ": " + error);
  return executable;
}

void allocRandom(OwnedTensor &tensor, llvm::ArrayRef<int64_t> shape,
                 uint64_t stream) {
  char message[512];
  if (attic_tensor_alloc(&tensor.tensor, ATTIC_F32, shape.size(), shape.data(),
                         message, sizeof(message)) != ATTIC_OK ||
      attic_fill_uniform(&tensor.tensor, seed, stream, -1.0, 1.0, message,
                         sizeof(message)) != ATTIC_OK)
    fail(message);
}

CaseResult runCase(MLIRContext &context, int64_t n, bool causal) {
  CaseResult result;
  result.n = n;
  result.causal = causal;
  result.flops = attentionFlops(n, causal);

  int64_t shape[] = {batch, heads, n, headDim};
  OwnedTensor q, k, v;
  allocRandom(q, shape, 0);
  allocRandom(k, shape, 1);
  allocRandom(v, shape, 2);
  auto save = [&](const attic_tensor &t, const std::string &name) {
    if (saveDir.empty())
      return;
    std::string path = saveDir + "/" + name + ".npy";
    char message[512];
    if (attic_npy_save(path.c_str(), &t, message, sizeof(message)) != ATTIC_OK)
      fail(path + ": " + message);
  };
  std::string suffix = "_" + std::to_string(n);
  // Both cases of one N draw the same inputs: saved once, by whichever runs
  // first (--causal=on runs only the causal one).
  static std::set<int64_t> savedInputs;
  if (savedInputs.insert(n).second) {
    save(q.tensor, "q" + suffix);
    save(k.tensor, "k" + suffix);
    save(v.tensor, "v" + suffix);
  }
  auto settle = [] {
    std::this_thread::sleep_for(std::chrono::milliseconds(settleMs));
  };
  int64_t count = attic_tensor_numel(&q.tensor);
  float scale = attic::ref::defaultScale(headDim);

  uint64_t compileStart = attic_now_ns();
  std::unique_ptr<attic::CpuExecutable> executable =
      compileAttention(context, n, causal);
  result.compileSeconds = (attic_now_ns() - compileStart) * 1e-9;

  const attic_tensor *inputs[] = {&q.tensor, &k.tensor, &v.tensor};
  OwnedTensor atticOut;
  result.atticMs = medianMillis([&] {
    SmallVector<attic_tensor> outputs;
    std::string error;
    if (failed(executable->run(inputs, outputs, error)))
      fail("running attic's attention for N=" + llvm::Twine(n) + ": " + error);
    atticOut.reset(outputs.front());
  });
  save(atticOut.tensor, "attic" + suffix + (causal ? "_causal" : "_dense"));
  settle();

  std::vector<float> blasOut(count);
  result.blasMs = medianMillis([&] {
    attic::bench::blasAttention(batch, heads, n, n, headDim, headDim,
                                q.floats(), k.floats(), v.floats(), scale,
                                causal, blasOut.data());
  });
  settle();

  if (n <= naiveMaxN) {
    std::vector<float> naiveOut(count);
    result.naiveMs = medianMillis([&] {
      attic::bench::naiveAttention(batch, heads, n, n, headDim, headDim,
                                   q.floats(), k.floats(), v.floats(), scale,
                                   causal, naiveOut.data());
    });
    result.atticError = maxRelError(atticOut.floats(), naiveOut.data(), count);
    result.blasError = maxRelError(blasOut.data(), naiveOut.data(), count);
    result.reference = "naive";
  } else {
    result.atticError = maxRelError(atticOut.floats(), blasOut.data(), count);
    result.reference = "blas";
  }
  result.passed = result.atticError <= kTolerance &&
                  (!result.blasError || *result.blasError <= kTolerance);
  return result;
}

std::string formatOptional(std::optional<double> value, const char *format,
                           const char *missing) {
  return value ? llvm::formatv(format, *value).str() : std::string(missing);
}

void printTableHeader() {
  llvm::outs() << llvm::formatv(
      "{0,6} {1,6} {2,9} {3,10} {4,10} {5,10} {6,9} {7,9} {8,9} {9,8} {10,8} "
      "{11,9} {12,9} {13,5} {14}\n",
      "N", "causal", "compile_s", "attic_ms", "naive_ms", "blas_ms", "attic_GF",
      "naive_GF", "blas_GF", "x_naive", "x_blas", "err_attic", "err_blas",
      "ref", "check");
}

void printTableRow(const CaseResult &r) {
  std::optional<double> naiveGflops, naiveSpeedup;
  if (r.naiveMs) {
    naiveGflops = r.gflops(*r.naiveMs);
    naiveSpeedup = *r.naiveMs / r.atticMs;
  }
  llvm::outs() << llvm::formatv(
      "{0,6} {1,6} {2,9:f2} {3,10:f2} {4,10} {5,10:f2} {6,9:f2} {7,9} "
      "{8,9:f2} {9,8} {10,8:f2} {11,9:e2} {12,9} {13,5} {14}\n",
      r.n, r.causal ? "on" : "off", r.compileSeconds, r.atticMs,
      formatOptional(r.naiveMs, "{0:f2}", "skipped"), r.blasMs,
      r.gflops(r.atticMs), formatOptional(naiveGflops, "{0:f2}", "-"),
      r.gflops(r.blasMs), formatOptional(naiveSpeedup, "{0:f2}", "-"),
      r.blasMs / r.atticMs, r.atticError,
      formatOptional(r.blasError, "{0:e2}", "-"), r.reference,
      r.passed ? "ok" : "FAILED");
  llvm::outs().flush();
}

void writeCsvHeader(llvm::raw_ostream &os) {
  os << "batch,heads,n,d,causal,attic_threads,openblas_num_threads,"
        "attic_compile_s,attic_ms,"
        "naive_ms,blas_ms,attic_gflops,naive_gflops,blas_gflops,"
        "speedup_vs_naive,speedup_vs_blas,attic_max_rel_err,blas_max_rel_err,"
        "reference,check\n";
}

void writeCsvRow(llvm::raw_ostream &os, const CaseResult &r,
                 llvm::StringRef blasThreads) {
  std::optional<double> naiveGflops, naiveSpeedup;
  if (r.naiveMs) {
    naiveGflops = r.gflops(*r.naiveMs);
    naiveSpeedup = *r.naiveMs / r.atticMs;
  }
  os << llvm::formatv(
      "{0},{1},{2},{3},{4},{19},{5},{6:f3},{7:f3},{8},{9:f3},{10:f3},{11},"
      "{12:f3},{13},{14:f3},{15:e3},{16},{17},{18}\n",
      batch.getValue(), heads.getValue(), r.n, headDim.getValue(),
      r.causal ? "on" : "off", blasThreads, r.compileSeconds, r.atticMs,
      formatOptional(r.naiveMs, "{0:f3}", "skipped"), r.blasMs,
      r.gflops(r.atticMs), formatOptional(naiveGflops, "{0:f3}", ""),
      r.gflops(r.blasMs), formatOptional(naiveSpeedup, "{0:f3}", ""),
      r.blasMs / r.atticMs, r.atticError,
      formatOptional(r.blasError, "{0:e3}", ""), r.reference,
      r.passed ? "ok" : "FAILED", attic::setCpuThreads(0));
  os.flush();
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  // Repeated runs reuse freed buffers instead of faulting in fresh pages.
  attic_retain_heap();
  cl::HideUnrelatedOptions(benchCategory);
  cl::ParseCommandLineOptions(
      argc, argv,
      "attic-bench-attention: attic's CPU attention against the naive and "
      "OpenBLAS baselines\n");

  std::vector<int64_t> lengths(sequenceLengths.begin(), sequenceLengths.end());
  if (lengths.empty())
    lengths = {1024, 2048, 4096, 8192, 16384};
  for (int64_t n : lengths)
    if (n <= 0)
      fail("--n: sequence lengths must be positive, got " + llvm::Twine(n));
  if (heads <= 0 || batch <= 0 || headDim <= 0)
    fail("--heads, --batch and --d must be positive");
  if (reps <= 0)
    fail("--reps must be positive");
  if (sgemmSize < 0 || sgemmSize > 16384)
    fail("--sgemm-n must be in [0, 16384]");
  if (settleMs < 0 || settleMs > 60000)
    fail("--settle-ms must be in [0, 60000]");
  if (!saveDir.empty() && !llvm::sys::fs::is_directory(saveDir))
    fail("--save-dir=" + saveDir + ": not a directory");
  std::vector<bool> causalSettings;
  if (causalMode == "both")
    causalSettings = {false, true};
  else if (causalMode == "on")
    causalSettings = {true};
  else if (causalMode == "off")
    causalSettings = {false};
  else
    fail("--causal=" + causalMode + ": expected both, on or off");

  std::unique_ptr<llvm::raw_fd_ostream> csv;
  if (!csvPath.empty()) {
    std::error_code ec;
    csv = std::make_unique<llvm::raw_fd_ostream>(csvPath, ec,
                                                 llvm::sys::fs::OF_Text);
    if (ec)
      fail(csvPath + ": cannot open: " + ec.message());
    writeCsvHeader(*csv);
  }

  std::string blasThreads = envValue("OPENBLAS_NUM_THREADS");
  llvm::outs() << llvm::formatv(
      "attic-bench-attention: dense f32 attention, B={0} H={1} D={2}, "
      "median of {3} runs after 1 warm-up, seed {4}, naive loops up to N={5}\n",
      batch.getValue(), heads.getValue(), headDim.getValue(), reps.getValue(),
      seed.getValue(), naiveMaxN.getValue());
  llvm::outs() << llvm::formatv(
      "date: {0}\ncpu: {1}, {2} cores\n"
      "env: OPENBLAS_NUM_THREADS={3} OPENBLAS_CORETYPE={4}\n",
      currentDate(), cpuModel(), std::thread::hardware_concurrency(),
      blasThreads, envValue("OPENBLAS_CORETYPE"));
  llvm::outs() << llvm::formatv(
      "threads: attic {0} (libomp; OMP_NUM_THREADS={1}, KMP_BLOCKTIME={2}); "
      "blas: OpenBLAS's threads; the naive loops: 1\n",
      attic::setCpuThreads(0), envValue("OMP_NUM_THREADS"),
      envValue("KMP_BLOCKTIME"));
  llvm::outs().flush();
  if (sgemmSize > 0)
    llvm::outs() << llvm::formatv("openblas sgemm {0}^3: {1:f1} GFLOP/s\n",
                                  sgemmSize.getValue(),
                                  attic::bench::sgemmGflops(sgemmSize, 3));
  llvm::outs() << llvm::formatv(
      "FLOPs = 4*B*H*N^2*D (half for causal); x_naive, x_blas = baseline time "
      "/ attic time; err = max|a-b|/max|ref| (tolerance {0:e0})\n\n",
      kTolerance);
  printTableHeader();

  DialectRegistry registry;
  attic::registerExecutionDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();

  int failures = 0;
  for (int64_t n : lengths) {
    for (bool causal : causalSettings) {
      CaseResult result = runCase(context, n, causal);
      printTableRow(result);
      if (csv)
        writeCsvRow(*csv, result, blasThreads);
      failures += !result.passed;
    }
  }
  if (failures)
    fail(llvm::Twine(failures) + " case(s) exceeded the max-rel error "
                                 "tolerance of 1e-4");
  return 0;
}
