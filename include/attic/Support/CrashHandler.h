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
// and exit with status 70 (EX_SOFTWARE). With ATTIC_CRASH_TRACE set, LLVM's
// own handler (stack dump) stays in place; set it too under sanitizers, whose
// handlers this one would replace.
//
// Call it after llvm::InitLLVM (or anything else that registers LLVM's
// signal handlers): LLVM installs its handlers once, so they do not
// replace this one afterwards.
//
//===----------------------------------------------------------------------===//

#ifndef ATTIC_SUPPORT_CRASHHANDLER_H
#define ATTIC_SUPPORT_CRASHHANDLER_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Signals.h"

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <cstring>

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

inline void onCrash(int sig) {
  const char *name = sig == SIGSEGV  ? "segmentation fault"
                     : sig == SIGBUS ? "bus error"
                     : sig == SIGILL ? "illegal instruction"
                     : sig == SIGFPE ? "arithmetic exception"
                                     : "abort";
  // Only async-signal-safe calls from here on.
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

inline void installCrashHandler(const char *tool) {
  if (std::getenv("ATTIC_CRASH_TRACE"))
    return;
  detail::crashTool() = tool;
  struct sigaction action;
  std::memset(&action, 0, sizeof(action));
  action.sa_handler = detail::onCrash;
  sigemptyset(&action.sa_mask);
  // A handler on an alternate stack would also catch stack overflows;
  // LLVM's handlers set one up (sigaltstack) when they register.
  action.sa_flags = SA_ONSTACK | SA_RESETHAND;
  for (int sig : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT})
    sigaction(sig, &action, nullptr);
}

} // namespace attic

#endif // ATTIC_SUPPORT_CRASHHANDLER_H
