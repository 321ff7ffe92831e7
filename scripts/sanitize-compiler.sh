#!/usr/bin/env bash
# The whole of attic, compiler included, built with AddressSanitizer and
# UndefinedBehaviorSanitizer (-fno-sanitize-recover=all) into
# ./build-asan, and its tests run there: every GoogleTest and the lit
# suite (attic-opt, attic-run and attic-compile under the sanitizers, the
# JIT-compiled code they run included as far as it calls back into them).
# Not part of CI: it takes about 45 minutes on 2 cores (the compiler's
# build is most of it); scripts/sanitize.sh, which CI runs, covers the
# runtime, the reference and the fuzz targets. Run it after changes to the
# compiler's C++ (issue 20).
#
# Settings, and why:
#  - ASAN_OPTIONS=detect_leaks=0: MLIR's and LLVM's registries are
#    process-lifetime allocations that LeakSanitizer would report at every
#    exit (the runtime's own leak checks run in scripts/sanitize.sh).
#  - allocator_may_return_null=1: compiled code's failed allocations take
#    attic's path (one line, exit 3), as without ASan.
#  - allow_user_poisoning=0: LLVM's BumpPtrAllocator poisons its slabs in
#    instrumented code (attic's, through LLVM's inline headers) and then
#    hands out memory from them in Debian's uninstrumented libMLIR, which
#    does not unpoison it: every such write would be reported
#    (use-after-poison in MLIR's attribute uniquer; seen in the CST tests).
#  - lit feature `sanitizers` (ATTIC_SANITIZERS): tests that limit the
#    address space with ulimit (ASan maps terabytes of shadow memory) are
#    unsupported here.
#  - LLVM_USE_SANITIZER: LLVM's CMake options then leave out -Wl,-z,defs,
#    which instrumented shared libraries cannot meet (the ASan runtime is
#    the executable's).
#  - ctest's python and install-consumer entries are left out: they load
#    libattic_rt.so into a Python or a downstream build without the ASan
#    runtime.
set -euo pipefail
cd "$(dirname "$0")/.."
flags="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
compilers=()
[[ -f build-asan/CMakeCache.txt ]] ||
  compilers=(-DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22)
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  "${compilers[@]}" -DATTIC_SANITIZERS=address,undefined \
  -DATTIC_BUILD_COMPILER_FUZZER=OFF "-DLLVM_USE_SANITIZER=Address;Undefined" \
  "-DCMAKE_C_FLAGS=$flags" "-DCMAKE_CXX_FLAGS=$flags" \
  "-DCMAKE_EXE_LINKER_FLAGS=$flags" "-DCMAKE_SHARED_LINKER_FLAGS=$flags" \
  "-DCMAKE_MODULE_LINKER_FLAGS=$flags" > /dev/null
cmake --build build-asan
export ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1:allow_user_poisoning=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
(cd build-asan && ctest --output-on-failure -j2 -E "^(python|install-consumer)$")
