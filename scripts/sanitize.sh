#!/usr/bin/env bash
# The runtime and the reference semantics (everything that does not need
# MLIR: -DATTIC_ENABLE_COMPILER=OFF) built with AddressSanitizer and
# UndefinedBehaviorSanitizer (-fno-sanitize-recover=all: the first report
# fails the test) into ./build-sanitize, and their unit tests run there:
# the .npy reader and writer, tensors, fills, the CUDA driver layer against
# the fake driver (whose entry points have the driver's function types, so
# -fsanitize=function holds), the reference attention, layouts and VCC.
# About a minute on 2 cores; part of scripts/test.sh (the CI command).
#
# Not covered yet (issue 20): the MLIR-based compiler, the JIT and the lit
# suite under the sanitizers (a second full build would not fit CI's time).
set -euo pipefail
cd "$(dirname "$0")/.."
flags="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
if [[ ! -f build-sanitize/build.ninja ]]; then
  cmake -S . -B build-sanitize -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DATTIC_ENABLE_COMPILER=OFF \
    "-DCMAKE_C_FLAGS=$flags" "-DCMAKE_CXX_FLAGS=$flags" \
    "-DCMAKE_EXE_LINKER_FLAGS=$flags" "-DCMAKE_SHARED_LINKER_FLAGS=$flags"
fi
cmake --build build-sanitize
cd build-sanitize
ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --output-on-failure -j2
