#!/usr/bin/env bash
# The runtime and the reference semantics (everything that does not need
# MLIR: -DATTIC_ENABLE_COMPILER=OFF) built with AddressSanitizer and
# UndefinedBehaviorSanitizer (-fno-sanitize-recover=all: the first report
# fails the test) into ./build-sanitize, and their unit tests run there:
# the .npy reader and writer, tensors, fills, the CUDA driver layer against
# the fake driver (whose entry points have the driver's function types, so
# -fsanitize=function holds), the reference attention, layouts and VCC.
# Then the libFuzzer targets of this build run for ATTIC_FUZZ_SECONDS each
# (default 60, scripts/fuzz.sh): the .npy reader and the binding of the
# tools' per-argument options. The regular build's attic-opt compiles two
# examples under Valgrind's memcheck, and last the compiler's fuzz target
# (parse, verify, each pipeline; the regular build) runs on its seeds and
# beyond. About six minutes on 2 cores; part of scripts/test.sh (the CI
# command).
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
export ASAN_OPTIONS=detect_leaks=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
(cd build-sanitize && ctest --output-on-failure -j2)

# The libFuzzer targets of this build: the .npy reader and the binding of
# attic-run's per-argument options, about a minute each (scripts/fuzz.sh).
scripts/fuzz.sh npy binding

# The compiler under Valgrind's memcheck (build/, the regular build: no
# second MLIR build needed): the CPU pipeline on two examples whose grids
# have several tile.qk ops (the partial and full steps; the modifier
# regions of LSH attention). It caught a use-after-free in
# attic-cpu-map-tiles that crashed one compile in ~45. About a minute (each
# compile is ~30x slower under memcheck; the other examples and the CUDA
# pipeline, clean when checked by hand, would add three more minutes).
echo "sanitize: the compiler under valgrind (memcheck)"
for example in transnormer reformer; do
  valgrind --error-exitcode=1 --error-limit=no -q \
    ./build/tools/attic-opt "examples/$example.mlir" --attic-cpu-pipeline \
    -o /dev/null
done
echo "sanitize: valgrind found nothing"

# The compiler's fuzz target (parse, verify, each pipeline; the regular
# build) for about a minute.
scripts/fuzz.sh mlir
