#!/usr/bin/env bash
# The runtime and the reference semantics (everything that does not need
# MLIR: -DATTIC_ENABLE_COMPILER=OFF) built with AddressSanitizer and
# UndefinedBehaviorSanitizer (-fno-sanitize-recover=all: the first report
# fails the test) into ./build-sanitize, and their unit tests run there:
# the .npy reader and writer, tensors, fills, the CUDA driver layer against
# the fake driver (whose entry points have the driver's function types, so
# -fsanitize=function holds), the reference attention, layouts and VCC.
# Then the libFuzzer targets of this build run for ATTIC_FUZZ_SECONDS each
# (default 30 here, to keep CI under 30 minutes; scripts/fuzz.sh alone
# defaults to 60): the .npy reader and the binding of the
# tools' per-argument options. The regular build's attic-opt compiles two
# examples under Valgrind's memcheck, and last the compiler's fuzz target
# (parse, verify, each pipeline; the regular build) runs on its seeds and
# beyond, beside Valgrind. About four minutes on 2 cores; part of
# scripts/test.sh (the CI command).
#
# The compiler and the lit suite under the sanitizers take a second build
# of the compiler, which would not fit CI's time: scripts/sanitize-compiler.sh
# does that (about 45 minutes). The compiler's fuzz target here runs
# uninstrumented: crashes, aborts and hangs are what it can find.
set -euo pipefail
cd "$(dirname "$0")/.."
# fuzzer-no-link: coverage counters in all code, for the fuzz targets.
flags="-fsanitize=address,undefined,fuzzer-no-link -fno-sanitize-recover=all -fno-omit-frame-pointer"
# The compilers only when the build folder is new: given again, CMake sees
# "clang-22" differ from the cached full path, wipes the cache and
# reconfigures without the options below (a full compiler build, no fuzzer).
compilers=()
[[ -f build-sanitize/CMakeCache.txt ]] ||
  compilers=(-DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22)
cmake -S . -B build-sanitize -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  "${compilers[@]}" \
  -DATTIC_ENABLE_COMPILER=OFF -DATTIC_BUILD_FUZZERS=ON \
  "-DCMAKE_C_FLAGS=$flags" "-DCMAKE_CXX_FLAGS=$flags" \
  "-DCMAKE_EXE_LINKER_FLAGS=$flags" "-DCMAKE_SHARED_LINKER_FLAGS=$flags" \
  > /dev/null
cmake --build build-sanitize
export ATTIC_FUZZ_SECONDS=${ATTIC_FUZZ_SECONDS:-30}
export ASAN_OPTIONS=detect_leaks=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
(cd build-sanitize && ctest --output-on-failure -j2)

# The libFuzzer targets of this build: the .npy reader and the binding of
# attic-run's per-argument options, half a minute each (scripts/fuzz.sh),
# side by side (each is single-threaded).
scripts/fuzz.sh --parallel npy binding

# The compiler under Valgrind's memcheck (build/, the regular build: no
# second MLIR build needed): the CPU pipeline on two examples whose grids
# have several tile.qk ops (the partial and full steps; the modifier
# regions of LSH attention). It caught a use-after-free in
# attic-cpu-map-tiles that crashed one compile in ~45. About a minute and
# a half (each compile is ~30x slower under memcheck; the other examples
# and the CUDA pipeline, clean when checked by hand, would add three more
# minutes). It runs beside the compiler's fuzz target (the regular build;
# half a minute of fuzzing after a minute on its seeds): each takes one
# core.
echo "sanitize: the compiler under valgrind (memcheck), beside the mlir fuzz target"
valgrind_log=build-sanitize/valgrind.log
(
  for example in transnormer reformer; do
    valgrind --error-exitcode=1 --error-limit=no -q \
      ./build/tools/attic-opt "examples/$example.mlir" --attic-cpu-pipeline \
      -o /dev/null || exit 1
  done
) > "$valgrind_log" 2>&1 &
valgrind_pid=$!
fuzz_status=0
scripts/fuzz.sh mlir || fuzz_status=1
if ! wait "$valgrind_pid"; then
  cat "$valgrind_log"
  echo "sanitize: valgrind found errors in attic-opt (above)"
  exit 1
fi
echo "sanitize: valgrind found nothing"
exit $fuzz_status
