#!/usr/bin/env bash
# The runtime and the reference semantics (everything that does not need
# MLIR: -DATTIC_ENABLE_COMPILER=OFF) built with AddressSanitizer and
# UndefinedBehaviorSanitizer (-fno-sanitize-recover=all: the first report
# fails the test) into ./build-sanitize, and their unit tests run there:
# the .npy reader and writer, tensors, fills, the CUDA driver layer against
# the fake driver (whose entry points have the driver's function types, so
# -fsanitize=function holds), the reference attention, layouts and VCC.
# Then the libFuzzer target of the .npy reader (test/fuzz/NpyFuzzer.cpp)
# runs for ATTIC_FUZZ_SECONDS (default 60) from the committed seed corpus
# test/fuzz/corpus/npy (new inputs go to build-sanitize/fuzz-corpus, not to
# the repository). Last, the compiler (the regular build) compiles a few
# examples under Valgrind's memcheck. About three and a half minutes on 2 cores; part
# of scripts/test.sh (the CI command).
#
# Not covered yet (issue 20): the JIT-compiled code and the lit suite under
# the sanitizers (a second full MLIR build would not fit CI's time), and
# fuzz targets for the .mlir pipelines and attic-run's options.
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

seconds=${ATTIC_FUZZ_SECONDS:-60}
mkdir -p build-sanitize/fuzz-corpus/npy build-sanitize/fuzz-crashes
echo "sanitize: fuzzing the .npy reader for ${seconds} s"
log=build-sanitize/fuzz-npy.log
if ! ./build-sanitize/test/fuzz/attic-npy-fuzzer -max_total_time="$seconds" \
    -max_len=4096 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix=build-sanitize/fuzz-crashes/ \
    build-sanitize/fuzz-corpus/npy test/fuzz/corpus/npy > "$log" 2>&1; then
  tail -n 60 "$log"
  echo "sanitize: the .npy fuzzer found a failure (input in build-sanitize/fuzz-crashes/)"
  exit 1
fi
grep -E "^(stat::|INFO: seed corpus|Done)|(INITED|DONE) +cov:" "$log" || true

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
