//===- SignalStacks.cpp - alternate signal stacks for crash handlers ------===//
//
// attic_rt_ensure_signal_stack and attic_rt_prepare_signal_stacks
// (Runtime.h): the stacks that attic-run's and attic-aot-run's crash
// handlers run on when a thread of the compiled code overflowed its own.
//
//===----------------------------------------------------------------------===//

#include "attic/runtime/Runtime.h"

#include <atomic>
#include <cstdint>
#include <cstring>

#include <dlfcn.h>
#include <signal.h>
#include <sys/mman.h>

extern "C" void attic_rt_ensure_signal_stack(void) {
  static thread_local bool done = false;
  if (done)
    return;
  done = true;
  stack_t current;
  if (sigaltstack(nullptr, &current) == 0 && !(current.ss_flags & SS_DISABLE))
    return;
  constexpr size_t size = size_t(64) << 10;
  void *memory = ::mmap(nullptr, size, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (memory == MAP_FAILED)
    return;
  stack_t stack;
  std::memset(&stack, 0, sizeof(stack));
  stack.ss_sp = memory;
  stack.ss_size = size;
  if (sigaltstack(&stack, nullptr) != 0)
    ::munmap(memory, size);
}

namespace {
// libomp's entry for a parallel region (what compiled parallel loops call):
// runs the microtask on each thread of the team.
struct KmpIdent {
  int32_t reserved1, flags, reserved2, reserved3;
  const char *source;
};
using KmpMicrotask = void (*)(int32_t *, int32_t *, ...);
using KmpForkCall = void (*)(KmpIdent *, int32_t, KmpMicrotask, ...);
using OmpGetMaxThreads = int (*)();

void signalStackTask(int32_t *, int32_t *, ...) {
  attic_rt_ensure_signal_stack();
}
} // namespace

extern "C" void attic_rt_prepare_signal_stacks(void) {
  attic_rt_ensure_signal_stack();
  auto fork =
      reinterpret_cast<KmpForkCall>(dlsym(RTLD_DEFAULT, "__kmpc_fork_call"));
  auto maxThreads = reinterpret_cast<OmpGetMaxThreads>(
      dlsym(RTLD_DEFAULT, "omp_get_max_threads"));
  if (!fork || !maxThreads)
    return; // no libomp in the process: no team
  static std::atomic<int> preparedFor{0};
  int threads = maxThreads();
  if (preparedFor.exchange(threads) == threads)
    return;
  static KmpIdent ident = {0, 2 /* KMP_IDENT_KMPC */, 0, 0,
                           ";attic;attic_rt_prepare_signal_stacks;0;0;;"};
  fork(&ident, 0, signalStackTask);
}
