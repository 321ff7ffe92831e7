#!/usr/bin/env bash
# Installs attic from BUILD into a fresh prefix, configures and builds the
# out-of-tree consumer (test/Consumer) against that prefix with
# find_package(attic), and runs its lit test. ctest's install-consumer test:
#   test/Consumer/run.sh BUILD_DIR WORK_DIR LIT
set -euo pipefail
build=$1
work=$2
lit=$3
src=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work"
mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" > "$work/install.log"
cmake -S "$src" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
  -DCMAKE_PREFIX_PATH="$work/prefix" > "$work/configure.log"
grep "attic from" "$work/configure.log"
cmake --build "$work/build"
"$lit" -v "$work/build"

# A component that does not exist is refused at configure time.
if cmake -S "$src" -B "$work/build-bad" -G Ninja -DCMAKE_PREFIX_PATH="$work/prefix" \
     -DCONSUMER_EXTRA_COMPONENT=NoSuchComponent > "$work/configure-bad.log" 2>&1; then
  echo "find_package(attic COMPONENTS NoSuchComponent) was accepted"; exit 1
fi
grep -q "NoSuchComponent" "$work/configure-bad.log"
# Another MLIR than the one attic was built with is refused at configure
# time, naming the version (any MLIR was accepted before 2026-11-30): a
# stand-in MLIR 21.1 package.
mkdir -p "$work/mlir21" "$work/mlir-check"
echo 'set(MLIR_FOUND TRUE)' > "$work/mlir21/MLIRConfig.cmake"
cat > "$work/mlir21/MLIRConfigVersion.cmake" <<'CMAKE'
set(PACKAGE_VERSION "21.1.0")
if("21.1" VERSION_EQUAL "${PACKAGE_FIND_VERSION_MAJOR}.${PACKAGE_FIND_VERSION_MINOR}")
  set(PACKAGE_VERSION_COMPATIBLE 1)
endif()
CMAKE
cat > "$work/mlir-check/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.20)
project(mlir_check LANGUAGES NONE)
find_package(attic REQUIRED CONFIG COMPONENTS AtticCompiler)
CMAKE
if cmake -S "$work/mlir-check" -B "$work/mlir-check/build" -G Ninja      -DCMAKE_PREFIX_PATH="$work/prefix" -DMLIR_DIR="$work/mlir21"      > "$work/mlir-check.log" 2>&1; then
  echo "find_package(attic) accepted MLIR 21.1"; exit 1
fi
grep -q "21.1.0" "$work/mlir-check.log" || { cat "$work/mlir-check.log"; exit 1; }
echo "MLIR 21.1: refused"
# A C program on the AOT runtime alone configures without MLIR's package
# (MLIR_DIR points nowhere) and runs (it needed MLIR before 2026-11-30).
mkdir -p "$work/rt-only"
cat > "$work/rt-only/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.20)
project(rt_only LANGUAGES C)
find_package(attic REQUIRED CONFIG COMPONENTS attic_rt)
add_executable(rt-app app.c)
target_link_libraries(rt-app PRIVATE attic::attic_rt)
CMAKE
printf '#include "attic/runtime/Aot.h"\n#include <stdio.h>\nint main(void) { printf("threads %%d\\n", (int)attic_aot_set_threads(1)); return 0; }\n' \
  > "$work/rt-only/app.c"
cmake -S "$work/rt-only" -B "$work/rt-only/build" -G Ninja \
  -DCMAKE_C_COMPILER=clang-22 -DCMAKE_PREFIX_PATH="$work/prefix" \
  -DMLIR_DIR=/nonexistent > "$work/rt-only-configure.log"
cmake --build "$work/rt-only/build" > /dev/null
"$work/rt-only/build/rt-app" | grep -qx "threads 1"
echo "runtime-only consumer: configured without MLIR, ran"
# The installed Python package finds the installed attic-compile (P/bin)
# with neither PATH nor ATTIC_COMPILE pointing there.
if /usr/bin/python3 -c 'import numpy' 2> /dev/null; then
  found=$(env -u ATTIC_COMPILE PATH=/usr/bin:/bin \
    PYTHONPATH="$work/prefix/lib/python" /usr/bin/python3 -c \
    'import attic; print(attic._find_compiler())')
  want="$(cd "$work/prefix/bin" && pwd)/attic-compile"
  if [ "$found" != "$want" ]; then
    echo "the installed Python package found '$found', not '$want'"; exit 1
  fi
  echo "python: $found"
fi
