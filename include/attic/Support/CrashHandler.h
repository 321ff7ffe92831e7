//===- CrashHandler.h - one line instead of a stack dump ---------*- C++
//-*-===//
//
// attic's tools must not die silently or with a 30-line stack dump on a
// crash they cannot prevent (a bug in attic, in MLIR, or in compiled
// code; e.g. MLIR 22's parser of linalg.transpose crashes on a float in
// `permutation`). installCrashHandler makes a crash signal (SIGSEGV,
// SIGBUS, SIGILL, SIGFPE, SIGABRT) print one line,
//
//   <tool>: internal error: <signal> (a bug in attic, MLIR or the compiled
//   code; please report it with the input); ATTIC_CRASH_TRACE=1 prints a
//   stack trace
//
// after the tool's crash note if it set one (setCrashNote: e.g. attic-run's
// last parse error, which it would otherwise print only after parsing),
// remove the files LLVM was told to remove on a signal (partial outputs),
// and exit with status 70 (EX_SOFTWARE). A SIGSEGV whose address is next
// to the interrupted stack pointer is a stack overflow: while compiled code
// runs (CompiledCodeScope: a recursion of the function's own calls too deep
// for the thread's stack) it is
//
//   <tool>: error: the compiled code overflowed its thread's stack (a
//   recursion too deep?); the results are not valid
//
// with status 3, as when the compiled code runs out of heap memory
// (kOutOfMemoryExitCode); elsewhere it is named "stack overflow" in the
// internal error. With ATTIC_CRASH_TRACE set, LLVM's
// own handler (stack dump) stays in place; set it too under sanitizers, whose
// handlers this one would replace.
//
// The tool running out of memory itself (operator new, LLVM's bad-alloc
// reports) is one line too, `<tool>: error: out of memory (...)`, with
// status 3; `new (std::nothrow)` in a tool ends it the same way (the new
// handler runs first). Other failures that come from a full address space,
// such as LLVM failing to start a thread, remain internal errors.
//
// Call it after llvm::InitLLVM (or anything else that registers LLVM's
// signal handlers): LLVM installs its handlers once, so they do not
// replace this one afterwards.
//
//===----------------------------------------------------------------------===//

#ifndef ATTIC_SUPPORT_CRASHHANDLER_H
#define ATTIC_SUPPORT_CRASHHANDLER_H

#include "attic/runtime/Runtime.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/Signals.h"

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>

#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

namespace attic {

/// Exit status of a tool that crashed (sysexits' EX_SOFTWARE).
constexpr int kInternalErrorExitCode = 70;

namespace detail {
inline const char *&crashTool() {
  static const char *tool = "attic";
  return tool;
}

/// The crash note: a line (with its newline) or empty, in static memory so
/// that the signal handler only reads it.
inline char *crashNote() {
  static char note[1024];
  return note;
}

inline void writeAll(const char *text) {
  size_t n = std::strlen(text);
  while (n > 0) {
    ssize_t written = ::write(2, text, n);
    if (written <= 0)
      return;
    text += written;
    n -= static_cast<size_t>(written);
  }
}

/// Whether compiled code is running (CompiledCodeScope); read by the
/// handler.
inline volatile sig_atomic_t &inCompiledCode() {
  static volatile sig_atomic_t running = 0;
  return running;
}

/// Whether a SIGSEGV at `address` is a stack overflow: the address within
/// 64 KiB of the interrupted thread's stack pointer (a call or a frame
/// reaching into the guard page below the stack). Where the stack pointer
/// is not known (other architectures), never.
inline bool isStackOverflow(const siginfo_t *info, const void *context) {
  if (!info || !context)
    return false;
  const auto *uc = static_cast<const ucontext_t *>(context);
  uintptr_t sp;
#if defined(__x86_64__)
  sp = static_cast<uintptr_t>(uc->uc_mcontext.gregs[REG_RSP]);
#elif defined(__aarch64__)
  sp = static_cast<uintptr_t>(uc->uc_mcontext.sp);
#else
  (void)uc;
  return false;
#endif
  auto address = reinterpret_cast<uintptr_t>(info->si_addr);
  constexpr uintptr_t window = uintptr_t(64) << 10;
  return address + window >= sp && address <= sp + window;
}

inline void onCrash(int sig, siginfo_t *info, void *context) {
  // One thread reports and ends the process. Threads that crash meanwhile
  // (several OpenMP workers overflowing their stacks at once) wait for it;
  // with SA_RESETHAND the second one took the default action and killed
  // the process without a word. The reporting thread crashing again inside
  // the handler exits at once.
  static std::atomic<long> reporter{0};
  long self = ::syscall(SYS_gettid);
  long expected = 0;
  if (!reporter.compare_exchange_strong(expected, self)) {
    if (expected == self)
      ::_exit(kInternalErrorExitCode);
    for (;;)
      ::pause();
  }
  bool overflow = sig == SIGSEGV && isStackOverflow(info, context);
  // Only async-signal-safe calls from here on.
  if (overflow && inCompiledCode()) {
    writeAll("\n");
    writeAll(crashTool());
    writeAll(": error: the compiled code overflowed its thread's stack (a "
             "recursion too deep?); the results are not valid\n");
    llvm::sys::RunInterruptHandlers();
    ::_exit(3); // kOutOfMemoryExitCode: out of stack memory
  }
  const char *name = overflow         ? "stack overflow"
                     : sig == SIGSEGV ? "segmentation fault"
                     : sig == SIGBUS  ? "bus error"
                     : sig == SIGILL  ? "illegal instruction"
                     : sig == SIGFPE  ? "arithmetic exception"
                                      : "abort";
  writeAll("\n");
  writeAll(crashNote());
  writeAll(crashTool());
  writeAll(": internal error: ");
  writeAll(name);
  writeAll(" (a bug in attic, MLIR or the compiled code; please report it "
           "with the input); ATTIC_CRASH_TRACE=1 prints a stack trace\n");
  llvm::sys::RunInterruptHandlers(); // partial output files
  ::_exit(kInternalErrorExitCode);
}
/// The tool itself out of memory (operator new, or LLVM's allocations:
/// --check's reference on huge shapes, LLVM under a memory limit): one
/// line and status 3, as for the compiled code, rather than an abort that
/// read as a bug in attic (status 70). It may run inside an allocation, so
/// it only writes and exits.
inline void onOutOfMemory() {
  writeAll("\n");
  writeAll(crashTool());
  writeAll(": error: out of memory (an allocation of the tool itself "
           "failed: the input needs more memory than the process may "
           "have); the results are not valid\n");
  llvm::sys::RunInterruptHandlers(); // partial output files
  ::_exit(3);                        // kOutOfMemoryExitCode
}

inline void onLlvmBadAlloc(void *, const char *, bool) { onOutOfMemory(); }
} // namespace detail

/// The line the crash handler prints before its own (cut to 1022 bytes; an
/// empty `text` clears it). Not for signal handlers.
inline void setCrashNote(llvm::StringRef text) {
  char *note = detail::crashNote();
  size_t n = std::min<size_t>(text.size(), 1022);
  std::memcpy(note, text.data(), n);
  note[n] = n ? '\n' : '\0';
  note[n ? n + 1 : 0] = '\0';
}

/// Whether installCrashHandler installed the handler.
inline bool &crashHandlerInstalled() {
  static bool installed = false;
  return installed;
}

/// Marks compiled code as running for its lifetime (see the file comment).
class CompiledCodeScope {
public:
  CompiledCodeScope() { detail::inCompiledCode() = 1; }
  ~CompiledCodeScope() { detail::inCompiledCode() = 0; }
  CompiledCodeScope(const CompiledCodeScope &) = delete;
  CompiledCodeScope &operator=(const CompiledCodeScope &) = delete;
};

inline void installCrashHandler(const char *tool) {
  if (std::getenv("ATTIC_CRASH_TRACE"))
    return;
  detail::crashTool() = tool;
  crashHandlerInstalled() = true;
  attic_rt_ensure_signal_stack(); // see Runtime.h
  struct sigaction action;
  std::memset(&action, 0, sizeof(action));
  action.sa_sigaction = detail::onCrash;
  sigemptyset(&action.sa_mask);
  // On an alternate stack, so that it also runs on a stack overflow;
  // LLVM's handlers set one up (sigaltstack) when they register.
  action.sa_flags = SA_ONSTACK | SA_SIGINFO;
  for (int sig : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT})
    sigaction(sig, &action, nullptr);
  std::set_new_handler(detail::onOutOfMemory);
  llvm::install_bad_alloc_error_handler(detail::onLlvmBadAlloc);
}

} // namespace attic

#endif // ATTIC_SUPPORT_CRASHHANDLER_H
