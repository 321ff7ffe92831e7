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
