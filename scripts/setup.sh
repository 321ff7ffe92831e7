#!/usr/bin/env bash
# Installs what attic needs from Debian's packages (only what is missing),
# then configures and builds everything into ./build. Idempotent; used by
# run-example.sh and test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools clang-22
          cmake ninja-build libgtest-dev libopenblas-dev python3-numpy
          libomp-22-dev libclang-rt-22-dev valgrind python3-pytest
          python3-matplotlib)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo_cmd=()
  [[ $(id -u) -eq 0 ]] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}"
fi

if [[ ! -f build/build.ninja ]]; then
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22
fi
cmake --build build
