//===- Aot.cpp - calling ahead-of-time compiled entries ---------*- C++ -*-===//
//
// attic_aot_call and its checks (attic/runtime/Aot.h): the packed-call
// convention of compiled code, done in plain C++ for the libraries of
// attic-compile (the JIT's counterpart is PackedCall in
// lib/Execution/CpuExecutable.cpp).
//
//===----------------------------------------------------------------------===//

#include "attic/runtime/Aot.h"
#include "attic/runtime/Cuda.h"
#include "attic/runtime/Runtime.h"

#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <pthread.h>
#include <string>
#include <vector>

// libomp's API (libattic_rt.so links libomp, as compiled code does).
extern "C" void omp_set_num_threads(int);
extern "C" int omp_get_max_threads(void);

namespace {

thread_local std::string lastError;

int32_t fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int32_t fail(const char *fmt, ...) {
  char text[512];
  va_list args;
  va_start(args, fmt);
  std::vsnprintf(text, sizeof(text), fmt, args);
  va_end(args);
  lastError = text;
  return 1;
}

/// The architecture of this build, as the first component of a triple.
const char *hostArch() {
#if defined(__x86_64__)
  return "x86_64";
#elif defined(__aarch64__)
  return "aarch64";
#else
  return "unknown";
#endif
}

/// Whether this CPU has the LLVM feature `name` ("avx2"); true for features
/// this check does not know (they do not select instructions attic's code
/// depends on, or the host is not x86).
bool hostHasFeature(const std::string &name) {
  // ATTIC_AOT_MASK_FEATURES=a,b: treat these as absent (to see how a
  // library would be refused on a machine without them).
  if (const char *masked = std::getenv("ATTIC_AOT_MASK_FEATURES")) {
    // Blanks around the names are not part of them (" avx512f , fma"
    // masked nothing).
    std::string list = ",";
    for (const char *c = masked; *c; ++c)
      if (*c != ' ' && *c != '\t')
        list += *c;
    list += ",";
    if (list.find("," + name + ",") != std::string::npos)
      return false;
  }
#if defined(__x86_64__)
  __builtin_cpu_init();
  // AVX10.1 adds no instruction to Sapphire Rapids' AVX-512 (these
  // features, which LLVM's avx10.1 implies). LLVM's host detection, which
  // attic-compile's default CPU takes, reads AVX10 from CPUID leaf 7 alone;
  // compiler-rt's __builtin_cpu_supports also wants leaf 0x24, which a KVM
  // guest may not show. On such a guest (Xeon, model 167, avx512fp16)
  // every library compiled there was refused as using avx10.1.
  const bool avx10Parts = __builtin_cpu_supports("avx512f") &&
                          __builtin_cpu_supports("avx512cd") &&
                          __builtin_cpu_supports("avx512bw") &&
                          __builtin_cpu_supports("avx512dq") &&
                          __builtin_cpu_supports("avx512vl") &&
                          __builtin_cpu_supports("avx512ifma") &&
                          __builtin_cpu_supports("avx512vbmi") &&
                          __builtin_cpu_supports("avx512vbmi2") &&
                          __builtin_cpu_supports("avx512vnni") &&
                          __builtin_cpu_supports("avx512bf16") &&
                          __builtin_cpu_supports("avx512fp16") &&
                          __builtin_cpu_supports("avx512vpopcntdq") &&
                          __builtin_cpu_supports("avx512bitalg");
  struct Known {
    const char *name;
    bool present;
  };
  const Known known[] = {
    {"sse4.1", bool(__builtin_cpu_supports("sse4.1"))},
    {"sse4.2", bool(__builtin_cpu_supports("sse4.2"))},
    {"avx", bool(__builtin_cpu_supports("avx"))},
    {"avx2", bool(__builtin_cpu_supports("avx2"))},
    {"fma", bool(__builtin_cpu_supports("fma"))},
    {"f16c", bool(__builtin_cpu_supports("f16c"))},
    {"avx512f", bool(__builtin_cpu_supports("avx512f"))},
    {"avx512bw", bool(__builtin_cpu_supports("avx512bw"))},
    {"avx512vl", bool(__builtin_cpu_supports("avx512vl"))},
    {"avx512dq", bool(__builtin_cpu_supports("avx512dq"))},
    {"avx512cd", bool(__builtin_cpu_supports("avx512cd"))},
    {"avx512vnni", bool(__builtin_cpu_supports("avx512vnni"))},
    {"avx512bf16", bool(__builtin_cpu_supports("avx512bf16"))},
    {"avx512fp16", bool(__builtin_cpu_supports("avx512fp16"))},
    {"bmi", bool(__builtin_cpu_supports("bmi"))},
    {"bmi2", bool(__builtin_cpu_supports("bmi2"))},
    {"popcnt", bool(__builtin_cpu_supports("popcnt"))},
    {"lzcnt", bool(__builtin_cpu_supports("lzcnt"))},
    // AMD's: a library for bdver1-4 uses FMA4 (vfmaddps), which Intel
    // CPUs lack (SIGILL before these were checked; an audit).
    {"sse4a", bool(__builtin_cpu_supports("sse4a"))},
    {"fma4", bool(__builtin_cpu_supports("fma4"))},
    {"xop", bool(__builtin_cpu_supports("xop"))},
    {"tbm", bool(__builtin_cpu_supports("tbm"))},
    // Later AVX-512 and vector extensions, which LLVM uses for any
    // vector code where the CPU has them.
    {"avx512vbmi", bool(__builtin_cpu_supports("avx512vbmi"))},
    {"avx512vbmi2", bool(__builtin_cpu_supports("avx512vbmi2"))},
    {"avx512vpopcntdq", bool(__builtin_cpu_supports("avx512vpopcntdq"))},
    {"avx512bitalg", bool(__builtin_cpu_supports("avx512bitalg"))},
    {"avx512ifma", bool(__builtin_cpu_supports("avx512ifma"))},
    {"gfni", bool(__builtin_cpu_supports("gfni"))},
    {"vaes", bool(__builtin_cpu_supports("vaes"))},
    {"vpclmulqdq", bool(__builtin_cpu_supports("vpclmulqdq"))},
  // APX (diamondrapids: push2p, {nf} forms in any integer code; SIGILL
  // before it was checked, a review) and AVX10, which older compilers of
  // this runtime cannot test: then they count as absent (refused, never
  // SIGILL).
#if defined(__clang__) && __clang_major__ >= 20
    {"egpr", bool(__builtin_cpu_supports("apxf"))},
    {"push2pop2", bool(__builtin_cpu_supports("apxf"))},
    {"ppx", bool(__builtin_cpu_supports("apxf"))},
    {"ndd", bool(__builtin_cpu_supports("apxf"))},
    {"ccmp", bool(__builtin_cpu_supports("apxf"))},
    {"nf", bool(__builtin_cpu_supports("apxf"))},
    {"cf", bool(__builtin_cpu_supports("apxf"))},
    {"zu", bool(__builtin_cpu_supports("apxf"))},
    {"avx10.1", __builtin_cpu_supports("avx10.1") || avx10Parts},
    {"avx10.1-512", __builtin_cpu_supports("avx10.1-512") || avx10Parts},
    {"avx10.2", bool(__builtin_cpu_supports("avx10.2"))},
    {"avx10.2-512", bool(__builtin_cpu_supports("avx10.2-512"))},
#else
    {"egpr", false},
    {"push2pop2", false},
    {"ppx", false},
    {"ndd", false},
    {"ccmp", false},
    {"nf", false},
    {"cf", false},
    {"zu", false},
    {"avx10.1", avx10Parts},
    {"avx10.1-512", avx10Parts},
    {"avx10.2", false},
    {"avx10.2-512", false},
#endif
  };
  for (const Known &k : known)
    if (name == k.name)
      return k.present;
#else
  (void)name;
#endif
  return true;
}

int64_t specAt(const attic_aot_entry *entry, int64_t index, int64_t &rank,
               const int64_t *&sizes) {
  const int64_t *p = entry->specs;
  for (int64_t i = 0; i < index; ++i)
    p += 2 + p[1];
  rank = p[1];
  sizes = p + 2;
  return p[0];
}

/// A CUDA library's target, "cuda:<chip>:<format>" (attic/runtime/Aot.h).
struct CudaTarget {
  int major = 0, minor = 0; // of the chip, sm_<major><minor>[a]
  /// sm_90a's arch-specific features (wgmma): the kernels run on devices
  /// of exactly that compute capability, as cubin or PTX.
  bool archSpecific = false;
  std::string chip, format;
};

/// Parses `target`; false when it is not a CUDA target.
bool parseCudaTarget(const char *target, CudaTarget &out) {
  std::string text = target ? target : "";
  if (text.rfind("cuda:", 0) != 0)
    return false;
  size_t colon = text.find(':', 5);
  if (colon == std::string::npos)
    return false;
  out.chip = text.substr(5, colon - 5);
  out.format = text.substr(colon + 1);
  out.archSpecific = out.chip.size() == 6 && out.chip[5] == 'a';
  if (out.chip.size() != (out.archSpecific ? 6u : 5u) ||
      out.chip.compare(0, 3, "sm_") != 0 || out.chip[3] < '0' ||
      out.chip[3] > '9' || out.chip[4] < '0' || out.chip[4] > '9')
    return false;
  out.major = out.chip[3] - '0';
  out.minor = out.chip[4] - '0';
  return out.format == "bin" || out.format == "isa" || out.format == "fatbin";
}

/// The mutex of checkCudaDevice's query (fresh in a child: resetInChild).
/// Like the other mutexes here, a plain global: std::mutex's constructor
/// is constexpr, so it is ready before any library constructor runs (a
/// pointer set by attic's own constructor was null for a library whose
/// constructor called attic first; a 2026-11-30 review).
std::mutex cudaQueryMutex;

/// Whether a CUDA entry's kernels can run on the process's device: a
/// cubin runs on its own major architecture only, PTX (isa, and the PTX of
/// a fatbin) on that architecture or a newer one, through the driver's JIT.
int32_t checkCudaDevice(const char *name, const CudaTarget &target) {
  static bool queried = false;
  static attic_cuda_device_info info;
  static std::string queryError;
  {
    std::lock_guard<std::mutex> lock(cudaQueryMutex);
    if (!queried) {
      char message[512];
      if (attic_cuda_device_query(&info, message, sizeof(message)) != ATTIC_OK)
        queryError = message;
      queried = true;
    }
  }
  if (!queryError.empty())
    return fail("@%s was compiled for CUDA (%s): %s", name, target.chip.c_str(),
                queryError.c_str());
  int device = info.computeMajor * 10 + info.computeMinor,
      chip = target.major * 10 + target.minor;
  bool runs = target.archSpecific ? device == chip
              : target.format == "bin"
                  ? info.computeMajor == target.major && device >= chip
                  : device >= chip;
  if (!runs && target.archSpecific)
    return fail("@%s was compiled for %s (wgmma kernels, which run on "
                "devices of compute capability %d.%d only); %s has %d.%d",
                name, target.chip.c_str(), target.major, target.minor,
                info.name, info.computeMajor, info.computeMinor);
  if (!runs)
    return fail("@%s was compiled for %s (%s); %s has compute capability "
                "%d.%d (compile it with attic-compile --cuda-chip=sm_%d0, or "
                "--cuda-format=isa for PTX that newer GPUs compile)",
                name, target.chip.c_str(),
                target.format == "isa" ? "PTX" : "a cubin", info.name,
                info.computeMajor, info.computeMinor,
                info.computeMajor >= 9 ? 9 : 8);
  return 0;
}

/// Serializes calls: compiled code's error channel is one per process, and
/// its parallel loops use every core already. A fork waits for the call in
/// flight (the prepare handler of registerForkHandlers), and a child gets
/// a fresh mutex (resetInChild): only the forking thread exists there, and
/// it is in no call. (A mutex inherited locked, from a call in flight or a
/// fork that missed the prepare handler, made the child's first call wait
/// forever: Python's multiprocessing forks; 2026-11-30 audit and
/// reviews.) So attic_aot_set_threads, which takes it too, must not be
/// called from a fork handler.
std::mutex callMutexObject;
std::mutex &callMutex() { return callMutexObject; }

/// Whether attic's prepare handler is registered (set by the registering
/// thread, and by the handler itself).
std::atomic<bool> forkHandlersRegistered{false};

/// The mutex of one registration at a time (registerForkHandlers).
std::mutex registrationMutex;

/// In a child: fresh mutexes, whatever the parent's threads held
/// (placement new over the inherited ones).
void resetInChild() {
  new (&callMutexObject) std::mutex();
  new (&registrationMutex) std::mutex();
  new (&cudaQueryMutex) std::mutex();
}

/// Registers the prepare and parent handlers of callMutex, once, at the
/// first call (or attic_aot_set_threads), after libomp is initialized, so
/// that libomp's own are registered before them: prepare handlers run in
/// the reverse order, attic's first. The other way round, libomp's took
/// its fork/join lock, attic's waited for the call in flight, and the call
/// waited for that lock at its next parallel region: the fork hung (a
/// 2026-11-30 audit). Not when the library loads: initializing libomp
/// then read OMP_NUM_THREADS before the program could set it, pinned the
/// loading thread under OMP_PROC_BIND, and made every fork of a process
/// that set a bad OMP_NUM_THREADS later abort in libomp's child handler,
/// whether it called attic or not (a 2026-11-30 review). While
/// OMP_NUM_THREADS is one that libomp cannot parse (it aborts when it
/// first reads it), nothing is registered: every call fails then, before
/// any parallel region, and the first call after it is fixed registers
/// them. Called before taking callMutex.
void registerForkHandlers() {
  if (forkHandlersRegistered.load(std::memory_order_acquire))
    return;
  std::lock_guard<std::mutex> lock(registrationMutex);
  if (forkHandlersRegistered.load(std::memory_order_relaxed))
    return;
  char message[256];
  if (attic_check_omp_env(message, sizeof(message)) != ATTIC_OK)
    return;
  (void)omp_get_max_threads();
  pthread_atfork(
      [] {
        forkHandlersRegistered.store(true, std::memory_order_relaxed);
        callMutex().lock();
      },
      [] { callMutex().unlock(); }, nullptr);
  forkHandlersRegistered.store(true, std::memory_order_release);
}

/// When the library loads: the child's reset, before any call (so a child
/// forked during another thread's first call, or during a call refused for
/// OMP_NUM_THREADS, does not inherit a held mutex).
__attribute__((constructor)) void loadTime() {
  pthread_atfork(nullptr, nullptr, resetInChild);
}

/// Whether every spec of `entry` has a rank in [0, ATTIC_MAX_RANK] and
/// sizes >= 0 (a corrupted entry must not make the call read or allocate
/// from garbage).
bool specsAreValid(const attic_aot_entry *entry) {
  const int64_t *p = entry->specs;
  for (int64_t i = 0; i < entry->num_inputs + entry->num_results; ++i) {
    int64_t rank = p[1];
    if (rank < 0 || rank > ATTIC_MAX_RANK)
      return false;
    for (int64_t d = 0; d < rank; ++d)
      if (p[2 + d] < 0)
        return false;
    p += 2 + rank;
  }
  return true;
}

/// The thread count chosen by attic_aot_set_threads (by the caller, or by
/// the first call to the default, as attic-run does; 0: none yet). OpenMP's
/// setting is per thread, so each call applies it to the thread it runs on.
std::atomic<int32_t> chosenThreads{0};

/// OpenMP's thread count before the first attic_aot_set_threads changed it
/// (OMP_NUM_THREADS or all cores): what n <= 0 goes back to (0: not read
/// yet). Before 2026-11-30 n <= 0 kept the last count set, so there was no
/// way back to the default (an audit).
std::atomic<int32_t> defaultThreads{0};

} // namespace

extern "C" const char *attic_aot_last_error(void) { return lastError.c_str(); }

namespace {
/// attic_aot_set_threads with callMutex held: a call's first use of the
/// default and OpenBLAS's count (read by a call's sgemm) change under it
/// only (an audit saw a caller's set_threads(7) lost to another thread's
/// first call in 601 of 1500 runs, and a race on OpenBLAS's count).
int32_t setThreadsLocked(int32_t n) {
  // libomp aborts the process on an OMP_NUM_THREADS it cannot parse, when
  // it first reads it (below), and at a parallel region past its own
  // limit (OMP: Error #34 at 100000).
  char message[256];
  if (attic_check_omp_env(message, sizeof(message)) != ATTIC_OK) {
    fail("%s", message);
    return -1;
  }
  if (n > 1024)
    n = 1024;
  int32_t unset = 0;
  int own = omp_get_max_threads();
  defaultThreads.compare_exchange_strong(unset, own);
  // OpenMP's setting is the calling thread's: set to read back the count
  // libomp takes, then the thread's own again (it stayed changed for the
  // caller's own parallel code before; a 2026-11-30 audit). Calls apply
  // the count to the thread they run on.
  omp_set_num_threads(n > 0 ? n : int32_t(defaultThreads));
  int threads = omp_get_max_threads();
  if (threads != own)
    omp_set_num_threads(own);
  chosenThreads = threads;
  attic_rt_set_blas_threads(threads);
  return threads;
}
} // namespace

extern "C" int32_t attic_aot_set_threads(int32_t n) {
  registerForkHandlers();
  std::lock_guard<std::mutex> lock(callMutex());
  return setThreadsLocked(n);
}

extern "C" int32_t attic_aot_check(const attic_aot_entry *entry) {
  if (!entry)
    return fail("attic_aot_check: the entry is NULL");
  if (entry->abi_version != ATTIC_AOT_ABI_VERSION)
    return fail("the library's entry uses attic AOT ABI version %lld; this "
                "runtime has version %d (rebuild it with this attic-compile)",
                (long long)entry->abi_version, ATTIC_AOT_ABI_VERSION);
  const char *name = entry->name ? entry->name : "?";
  CudaTarget cuda;
  bool isCuda = parseCudaTarget(entry->target, cuda);
  if (!isCuda && (!entry->target || std::strcmp(entry->target, "cpu") != 0))
    return fail("@%s was compiled for target '%s'; this runtime runs 'cpu' "
                "and 'cuda:<chip>:<format>' libraries",
                name, entry->target ? entry->target : "?");
  if (!entry->triple)
    return fail("@%s: malformed entry (no target triple)", name);
  std::string triple = entry->triple;
  std::string arch = triple.substr(0, triple.find('-'));
  if (arch != hostArch())
    return fail("@%s was compiled for %s; this machine is %s", name,
                triple.c_str(), hostArch());
  std::string features = entry->features ? entry->features : "";
  std::string missing;
  for (size_t at = 0; at < features.size();) {
    size_t end = features.find(',', at);
    if (end == std::string::npos)
      end = features.size();
    std::string feature = features.substr(at, end - at);
    at = end + 1;
    if (feature.size() > 1 && feature[0] == '+' &&
        !hostHasFeature(feature.substr(1)))
      missing += (missing.empty() ? "" : ", ") + feature.substr(1);
  }
  if (!missing.empty())
    return fail("@%s was compiled for CPU %s and uses %s, which this CPU "
                "lacks (compile it with attic-compile --cpu=<a CPU of this "
                "machine's class>, e.g. x86-64-v3)",
                name, entry->cpu ? entry->cpu : "?", missing.c_str());
  if (entry->num_inputs < 0 || entry->num_results < 0 || !entry->specs ||
      !entry->packed || entry->num_inputs > (1 << 20) ||
      entry->num_results > (1 << 20) || !specsAreValid(entry))
    return fail("@%s: malformed entry", name);
  return isCuda ? checkCudaDevice(name, cuda) : 0;
}

extern "C" int64_t attic_aot_numel(const attic_aot_entry *entry,
                                   int64_t index) {
  if (!entry || index < 0 || index >= entry->num_inputs + entry->num_results)
    return -1;
  int64_t rank;
  const int64_t *sizes;
  specAt(entry, index, rank, sizes);
  int64_t n = 1;
  for (int64_t d = 0; d < rank; ++d)
    n *= sizes[d];
  return n;
}

extern "C" int32_t attic_aot_call(const attic_aot_entry *entry,
                                  const void *const *inputs,
                                  void *const *results) {
  if (!entry)
    return fail("attic_aot_call: the entry is NULL");
  if (int32_t status = attic_aot_check(entry))
    return status;
  const char *name = entry->name ? entry->name : "?";
  int64_t numInputs = entry->num_inputs, numResults = entry->num_results;
  if ((numInputs && !inputs) || (numResults && !results))
    return fail("@%s: the input or result array is NULL", name);
  for (int64_t i = 0; i < numInputs; ++i)
    if (!inputs[i] && attic_aot_numel(entry, i) > 0)
      return fail("@%s: input #%lld is NULL", name, (long long)i);
  for (int64_t i = 0; i < numResults; ++i)
    if (!results[i] && attic_aot_numel(entry, numInputs + i) > 0)
      return fail("@%s: result #%lld is NULL", name, (long long)i);

  // Descriptors {allocated, aligned, offset, sizes, strides} of the inputs
  // (row-major, contiguous) and space for those of the results.
  std::vector<std::vector<int64_t>> arguments;
  std::vector<void *> pointers;
  for (int64_t i = 0; i < numInputs; ++i) {
    int64_t rank;
    const int64_t *sizes;
    specAt(entry, i, rank, sizes);
    std::vector<int64_t> words(size_t(3 + 2 * rank));
    std::memcpy(&words[0], &inputs[i], sizeof(void *));
    std::memcpy(&words[1], &inputs[i], sizeof(void *));
    words[2] = 0;
    for (int64_t d = rank - 1, stride = 1; d >= 0; --d) {
      words[size_t(3 + d)] = sizes[d];
      words[size_t(3 + rank + d)] = stride;
      stride *= sizes[d];
    }
    arguments.push_back(std::move(words));
  }
  for (std::vector<int64_t> &words : arguments)
    for (int64_t &word : words)
      pointers.push_back(&word);
  std::vector<size_t> resultStart;
  size_t resultWords = 0;
  for (int64_t i = 0; i < numResults; ++i) {
    int64_t rank;
    const int64_t *sizes;
    specAt(entry, numInputs + i, rank, sizes);
    resultStart.push_back(resultWords);
    resultWords += size_t(3 + 2 * rank);
  }
  std::vector<int64_t> resultDescriptors(resultWords ? resultWords : 1, 0);
  if (numResults)
    pointers.push_back(resultDescriptors.data());

  // OpenBLAS's own thread pool, left at its load-time setting, competes
  // with the OpenMP workers of the compiled loops (measured: 1 call in 2
  // ran 1.7x slower at N = 1024); one count for both, as attic-run sets.
  CudaTarget cudaTarget;
  bool isCuda = parseCudaTarget(entry->target, cudaTarget);
  registerForkHandlers();
  std::lock_guard<std::mutex> lock(callMutex());
  if (chosenThreads == 0 && setThreadsLocked(0) < 0)
    return 1; // attic_aot_last_error says why
  // The calling thread's own OpenMP setting, for its code, is restored
  // after the call.
  int callerThreads = omp_get_max_threads();
  struct RestoreThreads {
    int threads;
    ~RestoreThreads() {
      if (omp_get_max_threads() != threads)
        omp_set_num_threads(threads);
    }
  } restoreThreads{callerThreads};
  if (int32_t threads = chosenThreads; threads > 0 && callerThreads != threads)
    omp_set_num_threads(threads);
  attic_rt_take_error(nullptr, 0); // drop a report left by an earlier call
  char message[512];
  // A CUDA library's kernels were loaded by its constructor when it was
  // loaded (mgpuModuleLoad[JIT]); a failure there is pending until now.
  // The error state is the process's: the failed load may be another
  // CUDA library's, loaded since the last call.
  if (isCuda && attic_cuda_take_error(message, sizeof(message)) != ATTIC_OK)
    return fail("@%s: loading CUDA kernels failed (this library's, or those "
                "of another CUDA library loaded since the last call): %s",
                name, message);
  entry->packed(pointers.data());
  // The host code has copied the results back (synchronously, on its
  // stream); a kernel fault surfaces at the latest at the synchronization.
  std::string cudaError;
  if (isCuda && attic_cuda_take_error(message, sizeof(message)) != ATTIC_OK)
    cudaError = message;
  if (isCuda && cudaError.empty() &&
      attic_cuda_synchronize(message, sizeof(message)) != ATTIC_OK)
    cudaError = message;

  // Copy each result into its buffer, then release the compiled code's
  // buffers (once each; never an input the function returned). The frees
  // wait until every result is copied: two results may share one buffer
  // (`return %o, %o`, or a reshape of %o), and freeing it after the first
  // copy made the second read freed memory (a 2026-11-30 audit).
  std::vector<void *> released;
  for (int64_t i = 0; i < numResults; ++i) {
    int64_t rank;
    const int64_t *sizes;
    attic_dtype dtype = attic_dtype(specAt(entry, numInputs + i, rank, sizes));
    size_t elementSize = attic_dtype_size(dtype);
    const int64_t *words = resultDescriptors.data() + resultStart[size_t(i)];
    void *allocated;
    const char *aligned;
    std::memcpy(&allocated, &words[0], sizeof(void *));
    std::memcpy(&aligned, &words[1], sizeof(void *));
    const int64_t offset = words[2], *strides = words + 3 + rank;
    int64_t numel = attic_aot_numel(entry, numInputs + i);
    char *out = static_cast<char *>(results[i]);
    bool isInput = false;
    for (int64_t j = 0; j < numInputs; ++j)
      isInput |= inputs[j] == allocated;
    bool seen = false;
    for (void *p : released)
      seen |= p == allocated;
    auto release = [&] {
      if (!isInput && !seen)
        released.push_back(allocated);
    };
    int isDevice = 0;
    if (isCuda && cudaError.empty() && allocated &&
        attic_cuda_pointer_is_device(aligned, &isDevice, message,
                                     sizeof(message)) == ATTIC_OK &&
        isDevice) {
      // Host code that returns device memory broke the pipeline's
      // contract; reading it here would crash (and freeing it with free).
      cudaError = "result #" + std::to_string(i) +
                  " is in device memory; the CUDA pipeline must copy results "
                  "to the host";
      continue;
    }
    if (!cudaError.empty()) {
      if (allocated)
        release();
      continue;
    }
    bool contiguous = true;
    for (int64_t d = rank - 1, stride = 1; d >= 0; --d) {
      contiguous &= sizes[d] == 1 || strides[d] == stride;
      stride *= sizes[d];
    }
    if (contiguous && numel > 0)
      std::memcpy(out, aligned + offset * int64_t(elementSize),
                  size_t(numel) * elementSize);
    for (int64_t flat = 0; !contiguous && flat < numel; ++flat) {
      int64_t rest = flat, at = offset;
      for (int64_t d = rank - 1; d >= 0; --d) {
        at += (rest % sizes[d]) * strides[d];
        rest /= sizes[d];
      }
      std::memcpy(out + flat * int64_t(elementSize),
                  aligned + at * int64_t(elementSize), elementSize);
    }
    release();
  }
  for (void *p : released)
    attic_rt_free(p);
  // A data-dependent error reported by the compiled code is the data's
  // fault, whichever the target; otherwise a CUDA failure is the device's.
  std::string reported;
  if (attic_rt_take_error(message, sizeof(message)) != ATTIC_OK)
    reported = message;
  if (!reported.empty())
    return fail("@%s: %s", name, reported.c_str());
  if (!cudaError.empty())
    return fail("@%s: CUDA error: %s", name, cudaError.c_str());
  return 0;
}
