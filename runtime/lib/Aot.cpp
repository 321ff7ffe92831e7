//===- Aot.cpp - calling ahead-of-time compiled entries ---------*- C++ -*-===//
//
// attic_aot_call and its checks (attic/runtime/Aot.h): the packed-call
// convention of compiled code, done in plain C++ for the libraries of
// attic-compile (the JIT's counterpart is PackedCall in
// lib/Execution/CpuExecutable.cpp).
//
//===----------------------------------------------------------------------===//

#include "attic/runtime/Aot.h"
#include "attic/runtime/Runtime.h"

#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
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
    std::string list = std::string(",") + masked + ",";
    if (list.find("," + name + ",") != std::string::npos)
      return false;
  }
#if defined(__x86_64__)
  __builtin_cpu_init();
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

/// Serializes calls: compiled code's error channel is one per process, and
/// its parallel loops use every core already.
std::mutex &callMutex() {
  static std::mutex *m = new std::mutex();
  return *m;
}

} // namespace

extern "C" const char *attic_aot_last_error(void) { return lastError.c_str(); }

/// Whether the thread counts were set (by the caller, or by the first call
/// to the default, as attic-run does).
static std::atomic<bool> threadsChosen{false};

extern "C" int32_t attic_aot_set_threads(int32_t n) {
  threadsChosen = true;
  if (n > 0)
    omp_set_num_threads(n);
  int threads = omp_get_max_threads();
  attic_rt_set_blas_threads(threads);
  return threads;
}

extern "C" int32_t attic_aot_check(const attic_aot_entry *entry) {
  if (!entry)
    return fail("attic_aot_call: the entry is NULL");
  if (entry->abi_version != ATTIC_AOT_ABI_VERSION)
    return fail("the library's entry uses attic AOT ABI version %lld; this "
                "runtime has version %d (rebuild it with this attic-compile)",
                (long long)entry->abi_version, ATTIC_AOT_ABI_VERSION);
  const char *name = entry->name ? entry->name : "?";
  if (!entry->target || std::strcmp(entry->target, "cpu") != 0)
    return fail("@%s was compiled for target '%s'; this runtime runs 'cpu' "
                "libraries only",
                name, entry->target ? entry->target : "?");
  std::string triple = entry->triple ? entry->triple : "";
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
      !entry->packed)
    return fail("@%s: malformed entry", name);
  return 0;
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
  if (int32_t status = attic_aot_check(entry))
    return status;
  int64_t numInputs = entry->num_inputs, numResults = entry->num_results;
  if ((numInputs && !inputs) || (numResults && !results))
    return fail("@%s: the input or result array is NULL", entry->name);
  for (int64_t i = 0; i < numInputs; ++i)
    if (!inputs[i] && attic_aot_numel(entry, i) > 0)
      return fail("@%s: input #%lld is NULL", entry->name, (long long)i);
  for (int64_t i = 0; i < numResults; ++i)
    if (!results[i] && attic_aot_numel(entry, numInputs + i) > 0)
      return fail("@%s: result #%lld is NULL", entry->name, (long long)i);

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
  if (!threadsChosen.exchange(true))
    attic_aot_set_threads(0);
  std::lock_guard<std::mutex> lock(callMutex());
  attic_rt_take_error(nullptr, 0); // drop a report left by an earlier call
  entry->packed(pointers.data());

  // Copy each result into its buffer, then release the compiled code's
  // buffers (once each; never an input the function returned).
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
    bool isInput = false;
    for (int64_t j = 0; j < numInputs; ++j)
      isInput |= inputs[j] == allocated;
    bool seen = false;
    for (void *p : released)
      seen |= p == allocated;
    if (!isInput && !seen) {
      released.push_back(allocated);
      attic_rt_free(allocated);
    }
  }
  char message[512];
  if (attic_rt_take_error(message, sizeof(message)) != ATTIC_OK)
    return fail("@%s: %s", entry->name, message);
  return 0;
}
