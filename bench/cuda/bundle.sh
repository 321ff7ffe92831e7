#!/usr/bin/env bash
# Packs what a GPU machine without LLVM/MLIR 22 needs to run attic's CUDA
# tests and benchmarks (bench/cuda/device.sh) into .gpubundle/ (git-ignored):
#   llvm.tar.xz   libMLIR, libLLVM, libomp, MLIR's C runner utilities and
#                 libz3 (a dependency of Debian's libLLVM), FileCheck/not/count
#                 and lit, at the paths Debian uses (/usr/lib/llvm-22/...);
#   build.tar.xz  build/ without object files and static libraries.
# attic-run links libMLIR.so and libLLVM.so (it JIT-compiles the host code),
# so they must travel; everything else attic-run needs (libopenblas, libxml2,
# libedit, libffi, ...) was found on the lent H100/H200 image (Ubuntu 24.04).
# Usage: bench/cuda/bundle.sh  (after scripts/setup.sh); then name .gpubundle
# in the device tool's carry and run bench/cuda/device.sh there.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=.gpubundle
mkdir -p "$out"
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
llvm=/usr/lib/llvm-22
mkdir -p "$stage$llvm/lib" "$stage$llvm/bin" "$stage$llvm/utils"
for lib in libMLIR.so.22.1 libLLVM.so.22.1 libomp.so.5 libmlir_c_runner_utils.so.22.1 \
           libmlir_float16_utils.so.22.1 libmlir_apfloat_wrappers.so.22.1; do
  cp -L "$llvm/lib/$lib" "$stage$llvm/lib/"
done
ln -sf libmlir_c_runner_utils.so.22.1 "$stage$llvm/lib/libmlir_c_runner_utils.so"
cp -L /lib/x86_64-linux-gnu/libz3.so.4 "$stage$llvm/lib/"
for tool in FileCheck not count split-file lit; do cp -L "$llvm/bin/$tool" "$stage$llvm/bin/"; done
cp -r "$llvm/utils/lit" "$stage$llvm/utils/"
find "$stage" -name __pycache__ -prune -exec rm -rf {} +
# Every library the carried ones (and attic-run) need is carried or was
# seen on the lent image (ldconfig -p there, 2026-11-23).
image="libc.so.6 libm.so.6 libstdc++.so.6 libgcc_s.so.1 ld-linux-x86-64.so.2
       libffi.so.8 libedit.so.2 libz.so.1 libzstd.so.1 libxml2.so.2 libtinfo.so.6
       libbsd.so.0 libmd.so.0 liblzma.so.5 libopenblas.so.0"
for f in "$stage$llvm"/lib/*.so* "$stage$llvm"/bin/* build/tools/attic-run; do
  [[ -f $f && ! -L $f ]] && file -L "$f" | grep -q ELF || continue
  for needed in $(readelf -d "$f" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
    [[ -e "$stage$llvm/lib/$needed" ]] || [[ " $(echo $image) " == *" $needed "* ]] \
      || { echo "bundle: $f needs $needed, which is neither carried nor on the image" >&2; exit 1; }
  done
done
# -9e: 2 MB less than -6, which keeps the tree that travels under the
# device tool's 64 MiB.
tar -C "$stage" -cf - usr | xz -T2 -9e > "$out/llvm.tar.xz"
# Not needed there, and over the limit with them (2026-11-29: 61.3 MiB of
# bundle beside 6.1 MiB of tracked files): the unit tests other than the
# CUDA runtime's (whose directory also holds the fake driver that the
# cuda-fake-driver and aot-cuda lit tests load), the installed-package
# consumer test's prefix, the fuzzers and CTest's logs.
skip=(--exclude=build/test/consumer --exclude=build/test/fuzz --exclude=build/Testing)
for d in build/test/unittests/*/; do
  [[ $d == build/test/unittests/Runtime/ ]] || skip+=("--exclude=${d%/}")
done
tar -cf - --exclude='*.o' --exclude='*.a' --exclude=CMakeFiles --exclude=Output --exclude='.ninja_*' \
  "${skip[@]}" build | xz -T2 -6 > "$out/build.tar.xz"
du -sh "$out"/*
# What travels: the tracked files and the bundle, at most 64 MiB.
tracked=$(git ls-files -z | xargs -0 du -cb 2>/dev/null | tail -1 | cut -f1)
bundle=$(du -cb "$out"/* | tail -1 | cut -f1)
total=$(( (tracked + bundle) / 1048576 ))
echo "bundle: $(( bundle / 1048576 )) MiB + tracked files $(( tracked / 1048576 )) MiB = $total MiB of the device tool's 64"
(( tracked + bundle < 64 * 1048576 )) || { echo "bundle: over the device tool's 64 MiB" >&2; exit 1; }
