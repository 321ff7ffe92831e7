/* attic-aot-run.c: runs any entry of an attic-compile library on .npy inputs,
 * from C, with libattic_rt.so alone (no MLIR, no LLVM, no JIT).
 *
 *   attic-aot-run LIB.so ENTRY [--input A.npy ...] [--reference R.npy ...]
 *                 [--output O.npy ...] [--tolerance T] [--bench N]
 *                 [--warmup-ms T]
 *
 * Each option takes its value as the next argument or after '=' (--bench=3),
 * as attic-run's and attic-compile's do; --help prints the usage.
 *
 * Loads LIB.so with dlopen, finds ENTRY__attic_entry (attic/runtime/Aot.h),
 * checks that this machine can run it and that each input has the dtype and
 * shape of its argument, calls it through attic_aot_call, and compares each
 * result with a reference (.npy of any float dtype, e.g. attic-run --check
 * --reference-output) by attic's measure, max |error| / max |expected|.
 * Prints whether libMLIR or libLLVM is loaded in the process. Exit status
 * 0 when every result is within the tolerance (default 1e-5, 1e-2 for f16
 * and bf16 results, as attic-run's; integer and i1 results exactly unless
 * --tolerance is given), 1 otherwise
 * or on any error (one line on stderr); 3 when the compiled code runs out
 * of memory or overflows its stack, 70 when it crashes (one line). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* REG_RSP */
#endif
#include "attic/runtime/Aot.h"
#include "attic/runtime/Runtime.h"

#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

static void fail(const char *what, const char *detail) {
  fprintf(stderr, "attic-aot-run: error: %s%s%s\n", what, detail ? ": " : "",
          detail ? detail : "");
  exit(1);
}

/* Crashes of the compiled code (as attic-run's handler,
 * include/attic/Support/CrashHandler.h): one line on stderr, never a bare
 * signal. A SIGSEGV within 64 KiB of the interrupted stack pointer is a
 * stack overflow (a recursion of the function's own calls too deep):
 * status 3, as running out of heap memory; any other crash is status 70.
 * Every thread that runs compiled code (this one and libomp's workers) has
 * an alternate signal stack for the handler to run on. */
static void write_all(const char *text) {
  size_t n = strlen(text);
  while (n > 0) {
    ssize_t written = write(2, text, n);
    if (written <= 0)
      return;
    text += written;
    n -= (size_t)written;
  }
}

static void on_crash(int sig, siginfo_t *info, void *context) {
  /* One thread reports; others crashing meanwhile wait for its exit. */
  static atomic_long reporter = 0;
  long self = (long)syscall(SYS_gettid), expected = 0;
  if (!atomic_compare_exchange_strong(&reporter, &expected, self)) {
    if (expected == self)
      _exit(70);
    for (;;)
      pause();
  }
  int overflow = 0;
#if defined(__x86_64__) || defined(__aarch64__)
  if (sig == SIGSEGV && info && context) {
    const ucontext_t *uc = (const ucontext_t *)context;
#if defined(__x86_64__)
    uintptr_t sp = (uintptr_t)uc->uc_mcontext.gregs[REG_RSP];
#else
    uintptr_t sp = (uintptr_t)uc->uc_mcontext.sp;
#endif
    uintptr_t address = (uintptr_t)info->si_addr, window = 64 << 10;
    overflow = address + window >= sp && address <= sp + window;
  }
#endif
  if (overflow) {
    write_all("attic-aot-run: error: the compiled code overflowed its "
              "thread's stack (a recursion too deep?); the results are not "
              "valid\n");
    _exit(3);
  }
  write_all("attic-aot-run: internal error: ");
  write_all(sig == SIGSEGV  ? "segmentation fault"
            : sig == SIGBUS ? "bus error"
            : sig == SIGILL ? "illegal instruction"
            : sig == SIGFPE ? "arithmetic exception"
                            : "abort");
  write_all(" (a bug in attic or the compiled code; please report it with "
            "the library and inputs)\n");
  _exit(70);
}

static void install_crash_handler(void) {
  attic_rt_ensure_signal_stack();
  struct sigaction action;
  memset(&action, 0, sizeof(action));
  action.sa_sigaction = on_crash;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_ONSTACK | SA_SIGINFO;
  int signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};
  for (size_t i = 0; i < sizeof(signals) / sizeof(signals[0]); ++i)
    sigaction(signals[i], &action, NULL);
}

/* Whether a library whose path contains `name` is mapped in this process. */
static int loaded(const char *name) {
  FILE *maps = fopen("/proc/self/maps", "r");
  char line[4096];
  int found = 0;
  if (!maps)
    return -1;
  while (!found && fgets(line, sizeof(line), maps))
    found = strstr(line, name) != NULL;
  fclose(maps);
  return found;
}

static const int64_t *spec_at(const attic_aot_entry *e, int64_t index) {
  const int64_t *p = e->specs;
  for (int64_t i = 0; i < index; ++i)
    p += 2 + p[1];
  return p;
}

/* Refuses an ELF64 file whose loadable segments reach past its end (a
 * truncated copy): dlopen maps them and faulted on the missing pages
 * (SIGBUS inside the loader). Other files are left to dlopen's own
 * messages. */
static void check_segments(const char *path) {
  FILE *file = fopen(path, "rb");
  if (!file)
    return; /* dlopen says why */
  Elf64_Ehdr header;
  struct stat st;
  int elf64 = fstat(fileno(file), &st) == 0 && S_ISREG(st.st_mode) &&
              fread(&header, sizeof(header), 1, file) == 1 &&
              !memcmp(header.e_ident, ELFMAG, SELFMAG) &&
              header.e_ident[EI_CLASS] == ELFCLASS64 &&
              header.e_phentsize == sizeof(Elf64_Phdr);
  for (int i = 0; elf64 && i < header.e_phnum; ++i) {
    Elf64_Phdr segment;
    if (fseeko(file, (off_t)(header.e_phoff + (uint64_t)i * sizeof(segment)),
               SEEK_SET) != 0 ||
        fread(&segment, sizeof(segment), 1, file) != 1 ||
        (segment.p_type == PT_LOAD &&
         (segment.p_offset > (uint64_t)st.st_size ||
          segment.p_filesz > (uint64_t)st.st_size - segment.p_offset))) {
      fclose(file);
      fail("the library is truncated (its program headers or a loadable "
           "segment reach past the end of the file)",
           path);
    }
  }
  fclose(file);
}

/* Whether results of `dtype` are integers (i1 included). */
static int isIntegerDtype(int32_t dtype) {
  return dtype == ATTIC_I1 || dtype == ATTIC_I8 || dtype == ATTIC_I32 ||
         dtype == ATTIC_I64;
}

/* Element `i` of an integer tensor, exactly. */
static int64_t integerAt(const attic_tensor *t, int64_t i) {
  switch (t->dtype) {
  case ATTIC_I1:
  case ATTIC_I8:
    return ((const int8_t *)t->data)[i];
  case ATTIC_I32:
    return ((const int32_t *)t->data)[i];
  default:
    return ((const int64_t *)t->data)[i];
  }
}

/* A shape as Python writes it: (4,), (2, 3), (). */
/* The name of `path` with its folder resolved (realpath; the file itself
 * need not exist), in `buffer`; `path` unchanged where the folder does not
 * resolve. */
static void resolved_name(const char *path, char *buffer, size_t size) {
  const char *slash = strrchr(path, '/');
  char folder[4096], real[PATH_MAX];
  if (!slash)
    snprintf(folder, sizeof(folder), ".");
  else if (slash == path)
    snprintf(folder, sizeof(folder), "/");
  else
    snprintf(folder, sizeof(folder), "%.*s", (int)(slash - path), path);
  if (!realpath(folder, real)) {
    snprintf(buffer, size, "%s", path);
    return;
  }
  snprintf(buffer, size, "%s/%s", real, slash ? slash + 1 : path);
}

/* Whether `a` and `b` name one regular file (devices such as /dev/null
 * take any number of writes): the same inode where both exist, else the
 * same resolved name. */
static int same_file(const char *a, const char *b) {
  struct stat sa, sb;
  int hasA = stat(a, &sa) == 0, hasB = stat(b, &sb) == 0;
  if ((hasA && !S_ISREG(sa.st_mode)) || (hasB && !S_ISREG(sb.st_mode)))
    return 0;
  if (hasA && hasB)
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
  char ra[4352], rb[4352];
  resolved_name(a, ra, sizeof(ra));
  resolved_name(b, rb, sizeof(rb));
  return !strcmp(ra, rb);
}

/* An --output must differ from every other --output and from every
 * --reference (read after the outputs are written: the result was compared
 * with itself and passed; a 2026-11-30 audit). An --input may be written
 * over: it is read first; the library is attic_npy_save's to refuse. */
static void refuse_clashing_writes(const char *const *outputs, int numOutputs,
                                   const char *const *references,
                                   int numReferences) {
  char message[1024];
  for (int i = 0; i < numOutputs; ++i) {
    const char *other = NULL, *what = NULL;
    /* `-` was written as a file of that name (an audit): the results are
     * .npy files, not text for standard output. */
    if (!strcmp(outputs[i], "-"))
      fail("--output -: the results are .npy files, not written to "
           "standard output; give a file name",
           NULL);
    for (int j = 0; !other && j < i; ++j)
      if (same_file(outputs[i], outputs[j]))
        other = outputs[j], what = "--output";
    for (int j = 0; !other && j < numReferences; ++j)
      if (same_file(outputs[i], references[j]))
        other = references[j], what = "--reference";
    if (other) {
      snprintf(message, sizeof(message),
               "--output %s and %s %s name one file; choose another file",
               outputs[i], what, other);
      fail(message, NULL);
    }
  }
}

static void format_shape(const int64_t *sizes, int64_t rank, char *buffer,
                         size_t size) {
  size_t used = (size_t)snprintf(buffer, size, "(");
  for (int64_t d = 0; d < rank && used < size; ++d)
    used += (size_t)snprintf(buffer + used, size - used, "%s%lld",
                             d ? ", " : "", (long long)sizes[d]);
  if (used < size)
    snprintf(buffer + used, size - used, rank == 1 ? ",)" : ")");
}

int main(int argc, char **argv) {
  /* As many files as the command line can name (a fixed 64 refused an
   * entry of 65 arguments that attic-run and Python call; an audit). */
  const char **inputs = calloc((size_t)argc, sizeof(*inputs));
  const char **references = calloc((size_t)argc, sizeof(*references));
  const char **outputs = calloc((size_t)argc, sizeof(*outputs));
  if (!inputs || !references || !outputs)
    fail("out of memory", NULL);
  int numInputs = 0, numReferences = 0, numOutputs = 0, bench = 0;
  double warmupMs = 0;
  double tolerance = 1e-5;
  int seenTolerance = 0, seenWarmup = 0, seenBench = 0;
  char message[512], symbol[512];
  install_crash_handler();
  static const char usage[] =
      "usage: attic-aot-run LIB.so ENTRY [--input A.npy ...] [--reference "
      "R.npy ...] [--output O.npy ...] [--tolerance T] [--bench N] "
      "[--warmup-ms T]";
  for (int i = 1; i < argc; ++i)
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      printf("%s\n", usage);
      return 0;
    }
  if (argc < 3)
    fail(usage, NULL);
  for (int i = 3; i < argc; ++i) {
    /* --name=value or --name value. */
    char name[64];
    const char *next;
    const char *equals =
        strncmp(argv[i], "--", 2) ? NULL : strchr(argv[i], '=');
    size_t length = equals ? (size_t)(equals - argv[i]) : strlen(argv[i]);
    static const char *const known[] = {"--input",     "--reference",
                                        "--output",    "--tolerance",
                                        "--warmup-ms", "--bench"};
    int isKnown = 0;
    for (size_t k = 0; k < sizeof(known) / sizeof(known[0]); ++k)
      isKnown |=
          strlen(known[k]) == length && !strncmp(argv[i], known[k], length);
    if (!isKnown)
      fail("unknown option", argv[i]);
    memcpy(name, argv[i], length);
    name[length] = '\0';
    if (equals) {
      next = equals + 1;
    } else {
      next = i + 1 < argc ? argv[++i] : NULL;
      if (!next)
        fail("missing a value after", argv[i]);
    }
    int isInput = !strcmp(name, "--input"),
        isReference = !strcmp(name, "--reference"),
        isOutput = !strcmp(name, "--output");
    /* --tolerance, --warmup-ms and --bench at most once each (the last
     * one was taken; attic-run refuses an option given twice). */
    if (!isInput && !isReference && !isOutput) {
      int *seen = !strcmp(name, "--tolerance")   ? &seenTolerance
                  : !strcmp(name, "--warmup-ms") ? &seenWarmup
                                                 : &seenBench;
      if (*seen)
        fail("an option given twice", name);
      *seen = 1;
    }
    if ((isInput || isReference || isOutput) && !*next)
      fail("missing a file name after", name);
    if (isInput)
      inputs[numInputs++] = next;
    else if (isReference)
      references[numReferences++] = next;
    else if (isOutput)
      outputs[numOutputs++] = next;
    else if (!strcmp(name, "--tolerance")) {
      char *end;
      tolerance = strtod(next, &end);
      if (end == next || *end || !(tolerance >= 0) || isinf(tolerance))
        fail("--tolerance must be a finite number >= 0, got", next);
    } else if (!strcmp(name, "--warmup-ms")) {
      char *end;
      warmupMs = strtod(next, &end);
      if (end == next || *end || !(warmupMs >= 0 && warmupMs <= 600000))
        fail("--warmup-ms must be in [0, 600000], got", next);
    } else if (!strcmp(name, "--bench")) {
      char *end;
      long runs = strtol(next, &end, 10);
      if (end == next || *end || runs < 1 || runs > 100000)
        fail("--bench must be an integer in [1, 100000], got", next);
      bench = (int)runs;
    }
  }

  /* Options that would be ignored are refused (as attic-run's
   * --tolerance without --check): a tolerance with nothing to compare, a
   * warm-up with no timed runs. */
  if (seenTolerance && numReferences == 0)
    fail("--tolerance applies to the --reference comparison; no --reference "
         "was given",
         NULL);
  if (seenWarmup && !seenBench)
    fail("--warmup-ms applies to --bench; no --bench was given", NULL);
  refuse_clashing_writes((const char *const *)outputs, numOutputs,
                         (const char *const *)references, numReferences);

  /* A bare file name is a file in the working directory (dlopen would
   * search the library path for it instead). */
  char path[4096];
  snprintf(path, sizeof(path), "%s%s", strchr(argv[1], '/') ? "" : "./",
           argv[1]);
  check_segments(path);
  void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!library)
    fail("cannot load the library", dlerror());
  snprintf(symbol, sizeof(symbol), "%s__attic_entry", argv[2]);
  const attic_aot_entry *entry = dlsym(library, symbol);
  if (!entry) {
    snprintf(message, sizeof(message), "%s has no entry '%s' (no symbol %s)",
             argv[1], argv[2], symbol);
    fail(message, NULL);
  }
  if (attic_aot_check(entry))
    fail(attic_aot_last_error(), NULL);
  if (numInputs != entry->num_inputs) {
    snprintf(message, sizeof(message), "@%s takes %lld input%s, got %d",
             entry->name, (long long)entry->num_inputs,
             entry->num_inputs == 1 ? "" : "s", numInputs);
    fail(message, NULL);
  }
  if (numReferences > entry->num_results || numOutputs > entry->num_results)
    fail("more --reference or --output files than results", NULL);

  /* As many inputs as the options name (the entry's count, checked
   * above); results as many as the entry has. */
  attic_tensor *in = calloc((size_t)numInputs + 1, sizeof(*in));
  const void **inData = calloc((size_t)numInputs + 1, sizeof(*inData));
  if (!in || !inData)
    fail("out of memory", NULL);
  size_t numResults = (size_t)entry->num_results;
  attic_tensor *out = calloc(numResults ? numResults : 1, sizeof(*out));
  void **outData = calloc(numResults ? numResults : 1, sizeof(*outData));
  if (!out || !outData)
    fail("out of memory", NULL);
  for (int i = 0; i < numInputs; ++i) {
    if (attic_npy_load(inputs[i], &in[i], message, sizeof(message)) != ATTIC_OK)
      fail(message, NULL);
    const int64_t *spec = spec_at(entry, i);
    int ok = in[i].dtype == (attic_dtype)spec[0] && in[i].rank == spec[1];
    for (int d = 0; ok && d < in[i].rank; ++d)
      ok = in[i].shape[d] == spec[2 + d];
    if (!ok) {
      /* Both shapes, as the Python entry's message has them (the
       * expected one was not named; an audit). */
      char want[256], got[256];
      format_shape(spec + 2, spec[1], want, sizeof(want));
      format_shape(in[i].shape, in[i].rank, got, sizeof(got));
      snprintf(message, sizeof(message),
               "%s: input #%d of @%s must be %s of shape %s, got %s of "
               "shape %s",
               inputs[i], i, entry->name,
               attic_dtype_name((attic_dtype)spec[0]), want,
               attic_dtype_name(in[i].dtype), got);
      fail(message, NULL);
    }
    inData[i] = in[i].data;
  }
  for (int64_t r = 0; r < entry->num_results; ++r) {
    const int64_t *spec = spec_at(entry, entry->num_inputs + r);
    if (attic_tensor_alloc(&out[r], (attic_dtype)spec[0], (int32_t)spec[1],
                           spec + 2, message, sizeof(message)) != ATTIC_OK)
      fail(message, NULL);
    outData[r] = out[r].data;
  }
  /* The team size attic_aot_call will use (a bad OMP_NUM_THREADS is its
   * error to report), then an alternate signal stack for each of its
   * threads. */
  if (attic_aot_set_threads(0) > 0)
    attic_rt_prepare_signal_stacks();
  if (attic_aot_call(entry, inData, outData))
    fail(attic_aot_last_error(), NULL);

  int status = 0;
  for (int r = 0; r < numOutputs; ++r)
    if (attic_npy_save(outputs[r], &out[r], message, sizeof(message)) !=
        ATTIC_OK)
      fail(message, NULL);
  for (int r = 0; r < numReferences; ++r) {
    attic_tensor expected;
    if (attic_npy_load(references[r], &expected, message, sizeof(message)) !=
        ATTIC_OK)
      fail(message, NULL);
    int64_t n = attic_tensor_numel(&out[r]);
    int sameShape = expected.rank == out[r].rank;
    for (int32_t d = 0; sameShape && d < out[r].rank; ++d)
      sameShape = expected.shape[d] == out[r].shape[d];
    if (!sameShape)
      fail("a reference has another shape than its result", references[r]);
    double maxAbs = 0, maxExpected = 0;
    int64_t nonFinite = 0;
    /* Integer results against an integer reference: element by element as
     * integers (read as doubles, integers above 2^53 that differ compared
     * equal: 2^60 + 1 passed against 2^60; a 2026-11-30 audit). */
    int bothIntegers =
        isIntegerDtype(out[r].dtype) && isIntegerDtype(expected.dtype);
    int64_t integerMismatches = 0;
    for (int64_t i = 0; bothIntegers && i < n; ++i) {
      int64_t got = integerAt(&out[r], i), want = integerAt(&expected, i);
      integerMismatches += got != want;
      /* The difference exactly, then rounded (never 0 where they differ,
       * also under --tolerance). */
      double diff = fabs((double)((__int128)got - want));
      if (diff > maxAbs)
        maxAbs = diff;
      if (fabs((double)want) > maxExpected)
        maxExpected = fabs((double)want);
    }
    for (int64_t i = 0; !bothIntegers && i < n; ++i) {
      double got = attic_tensor_get(&out[r], i),
             want = attic_tensor_get(&expected, i);
      /* The same infinity on both sides is a match (the lse of a row with
       * no admissible key is -inf), and so is a NaN where the reference is
       * NaN, as in attic-run --check. */
      if ((isinf(got) && got == want) || (isnan(got) && isnan(want)))
        continue;
      if (!isfinite(got)) {
        ++nonFinite;
        continue;
      }
      double diff = fabs(got - want);
      if (!isfinite(diff)) /* a finite result where the reference is not */
        diff = INFINITY;
      if (diff > maxAbs)
        maxAbs = diff;
      if (isfinite(want) && fabs(want) > maxExpected)
        maxExpected = fabs(want);
    }
    /* As attic-run --check: against at least the result type's smallest
     * normal value (a result of subnormals is judged by the type's
     * absolute precision; 1e-300 failed an f32 result of 1e-46 that
     * attic-run passed), and integers and i1 exactly unless --tolerance
     * is given (as attic-run's default for them). */
    double floor = attic_dtype_smallest_normal(out[r].dtype);
    int integer = floor == 0;
    double rel = maxAbs / (maxExpected > floor ? maxExpected
                           : integer           ? DBL_MIN
                                               : floor);
    /* attic-run's defaults: 1e-5, 1e-2 for f16/bf16 results (a correct
     * f16 library failed against attic-run's --reference-output at 1e-5,
     * which attic-run's --check passed at 1e-2; an audit). */
    int half = out[r].dtype == ATTIC_F16 || out[r].dtype == ATTIC_BF16;
    double limit = seenTolerance ? tolerance
                   : integer     ? 0.0
                   : half        ? 1e-2
                                 : tolerance;
    int ok = nonFinite == 0 && rel <= limit;

    status |= !ok;
    printf("result #%d: max_rel_err=%.2e non_finite=%lld tolerance=%.1e: %s", r,
           rel, (long long)nonFinite, limit, ok ? "ok" : "FAILED");
    if (!ok && bothIntegers && integerMismatches)
      printf(" (%lld element%s differ%s as integers)",
             (long long)integerMismatches, integerMismatches == 1 ? "" : "s",
             integerMismatches == 1 ? "s" : "");
    printf("\n");
    attic_tensor_free(&expected);
  }
  if (bench > 0) {
    double *ms = malloc(sizeof(double) * (size_t)bench);
    if (!ms)
      fail("out of memory", NULL);
    /* Untimed calls for --warmup-ms first: in a fresh process OpenBLAS's
     * pool threads spin for a while after the library loads and compete
     * with the OpenMP workers (attic-run's JIT compile covers that time). */
    for (uint64_t start = attic_now_ns();
         (double)(attic_now_ns() - start) * 1e-6 < warmupMs;)
      if (attic_aot_call(entry, inData, outData))
        fail(attic_aot_last_error(), NULL);
    for (int run = 0; run < bench; ++run) {
      uint64_t start = attic_now_ns();
      if (attic_aot_call(entry, inData, outData))
        fail(attic_aot_last_error(), NULL);
      ms[run] = (double)(attic_now_ns() - start) * 1e-6;
    }
    printf("time: median %.3f ms over %d runs (%d threads)\n",
           attic_median(ms, bench), bench, (int)attic_aot_set_threads(0));
    free(ms);
  }
  printf("libMLIR loaded: %s, libLLVM loaded: %s\n",
         loaded("libMLIR") ? "yes" : "no", loaded("libLLVM") ? "yes" : "no");
  for (int i = 0; i < numInputs; ++i)
    attic_tensor_free(&in[i]);
  for (int64_t r = 0; r < entry->num_results; ++r)
    attic_tensor_free(&out[r]);
  free(out);
  free(outData);
  free(in);
  free(inData);
  free(inputs);
  free(references);
  free(outputs);
  /* The verdict lines lost (stdout on a full disk) are an error. */
  if (fflush(stdout) != 0 || ferror(stdout))
    fail("cannot write the standard output", strerror(errno));
  return status;
}
