#!/usr/bin/env bash
# Runs attic's libFuzzer targets, each for a bounded time:
#
#   scripts/fuzz.sh [--seconds=N] [--parallel] [npy] [binding] [mlir] [mlir-asan]
#
#   npy      the .npy reader (test/fuzz/NpyFuzzer.cpp), ASan+UBSan
#   binding  attic-run/attic-compile's per-argument options
#            (test/fuzz/ArgumentBindingFuzzer.cpp), ASan+UBSan
#   mlir     parse, verify and each pipeline on .mlir text
#            (test/fuzz/compiler/MlirPipelineFuzzer.cpp), the regular build
#   mlir-asan  the same target with attic's compiler built with ASan+UBSan
#            and libFuzzer's coverage (./build-asanfuzz, configured and
#            built here when missing: about 8 minutes on 2 cores; MLIR and
#            LLVM stay Debian's uninstrumented libraries). It finds memory
#            errors in attic's passes where they happen, with the input,
#            instead of a later heap corruption; about 30x fewer executions
#            a second than mlir. Not part of CI (the build would not fit).
#
# npy and binding come from build-sanitize (scripts/sanitize.sh builds it),
# mlir from build (scripts/setup.sh). Seeds: the committed corpora under
# test/fuzz/corpus, and for mlir every .mlir test file and example split at
# `// -----`. New inputs go to build-sanitize/fuzz-corpus/<target>, never
# to the repository; a crash, leak, timeout (30 s per input, 120 s for
# mlir) or
# memory blow-up (-rss_limit_mb) writes its input to
# build-sanitize/fuzz-crashes/ and fails the script. Each target prints
# libFuzzer's final statistics (executions, coverage features). Default 60
# seconds per target (--seconds or ATTIC_FUZZ_SECONDS). With --parallel
# the targets run at once, one process each (each target is single-
# threaded; scripts/sanitize.sh runs two at a time on CI's 2 cores), and
# their reports follow in the order given.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${ATTIC_FUZZ_SECONDS:-60}
targets=()
parallel=0
for arg in "$@"; do
  case "$arg" in
    --seconds=*) seconds=${arg#--seconds=} ;;
    --parallel) parallel=1 ;;
    npy|binding|mlir|mlir-asan) targets+=("$arg") ;;
    *) echo "fuzz.sh: unknown argument '$arg'" >&2; exit 2 ;;
  esac
done
[[ ${#targets[@]} -gt 0 ]] || targets=(npy binding mlir)
mkdir -p build-sanitize/fuzz-crashes

# ASan's settings for the instrumented compiler, as in
# scripts/sanitize-compiler.sh (allow_user_poisoning=0: LLVM's
# BumpPtrAllocator poisons in attic's code and allocates in Debian's
# uninstrumented MLIR; detect_leaks=0: MLIR's process-lifetime registries
# and the fuzzer's one MLIRContext).
asan_compiler_options=detect_leaks=0:allocator_may_return_null=1:allow_user_poisoning=0

# Configures and builds ./build-asanfuzz: attic's compiler with ASan, UBSan
# and libFuzzer's coverage counters, and only the fuzz target.
build_asan_fuzzer() {
  local flags="-fsanitize=address,undefined,fuzzer-no-link -fno-sanitize-recover=all -fno-omit-frame-pointer"
  local compilers=()
  [[ -f build-asanfuzz/CMakeCache.txt ]] ||
    compilers=(-DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22)
  echo "fuzz: building build-asanfuzz (attic's compiler with ASan+UBSan, about 8 minutes)"
  cmake -S . -B build-asanfuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    "${compilers[@]}" -DATTIC_SANITIZERS=address,undefined \
    -DATTIC_BUILD_COMPILER_FUZZER=ON "-DLLVM_USE_SANITIZER=Address;Undefined" \
    "-DCMAKE_C_FLAGS=$flags" "-DCMAKE_CXX_FLAGS=$flags" \
    "-DCMAKE_EXE_LINKER_FLAGS=$flags" "-DCMAKE_SHARED_LINKER_FLAGS=$flags" \
    "-DCMAKE_MODULE_LINKER_FLAGS=$flags" > build-sanitize/asanfuzz-build.log 2>&1 &&
    cmake --build build-asanfuzz --target attic-mlir-fuzzer \
      >> build-sanitize/asanfuzz-build.log 2>&1 || {
    tail -n 30 build-sanitize/asanfuzz-build.log
    echo "fuzz: building build-asanfuzz failed (build-sanitize/asanfuzz-build.log)"
    return 1
  }
}

# Fuzzes one target; prints its statistics, or its log's tail and a
# failure line (status 1).
fuzz_target() {
  local target=$1 binary seeds options environment=()
  case "$target" in
    npy)
      binary=build-sanitize/test/fuzz/attic-npy-fuzzer
      seeds=(test/fuzz/corpus/npy); options=(-max_len=4096 -timeout=30) ;;
    binding)
      binary=build-sanitize/test/fuzz/attic-binding-fuzzer
      seeds=(test/fuzz/corpus/binding); options=(-max_len=1024 -timeout=30) ;;
    mlir|mlir-asan)
      binary=build/test/fuzz/compiler/attic-mlir-fuzzer
      if [[ $target == mlir-asan ]]; then
        binary=build-asanfuzz/test/fuzz/compiler/attic-mlir-fuzzer
        environment=("ASAN_OPTIONS=$asan_compiler_options")
      fi
      seeds=(build-sanitize/fuzz-seeds/$target)
      rm -rf "build-sanitize/fuzz-seeds/$target"
      /usr/bin/python3 test/fuzz/split_mlir_seeds.py . \
        "build-sanitize/fuzz-seeds/$target" || return 1
      # -timeout=120: attic's largest test files take 10-30 s through the
      # three pipelines on a loaded 2-core machine (a 30 s limit stopped a
      # run on a slow compile, not a hang).
      options=(-max_len=65536 -timeout=120) ;;
  esac
  if [[ $target == mlir-asan && ! -x $binary ]]; then
    build_asan_fuzzer || return 1
  fi
  if [[ ! -x $binary ]]; then
    echo "fuzz.sh: $binary is not built"
    return 1
  fi
  local corpus=build-sanitize/fuzz-corpus/$target
  mkdir -p "$corpus"
  local log=build-sanitize/fuzz-$target.log
  echo "fuzz: $target for ${seconds} s"
  # Bounded from outside too: after a heap corruption (glibc's
  # "malloc_consolidate(): unaligned fastbin chunk detected", MLIR fuzzer,
  # 2026-11-26) libFuzzer's crash handler hung in malloc for 27 minutes
  # without writing the input, which would have held CI to its limit. (The
  # cause, a forward reference into a region freed on a parse error, is
  # fixed for attic's ops and filtered for upstream ones; to catch the
  # next one with its input, run the target by hand with
  # ATTIC_FUZZ_LAST_INPUT=<file> and glibc's checks:
  # LD_PRELOAD=libc_malloc_debug.so.0 GLIBC_TUNABLES=glibc.malloc.check=3.)
  # libFuzzer checks -max_total_time only after it has run every seed;
  # under ASan the 461 MLIR seeds alone take 5 to 15 minutes on a loaded
  # 2-core machine.
  local bound=$((seconds + 300))
  [[ $target != mlir-asan ]] || bound=$((seconds + 1800))
  local status=0
  timeout --kill-after=10 $bound \
      env "${environment[@]}" "$binary" -max_total_time="$seconds" \
      -rss_limit_mb=4096 -print_final_stats=1 \
      -artifact_prefix=build-sanitize/fuzz-crashes/ \
      "${options[@]}" "$corpus" "${seeds[@]}" > "$log" 2>&1 || status=$?
  if [[ $status -ne 0 ]]; then
    tail -n 60 "$log"
    if [[ $status -eq 124 || $status -eq 137 ]]; then
      echo "fuzz: $target did not stop within $bound s (a hang, possibly in libFuzzer's crash handler; the input may not have been written)"
    else
      echo "fuzz: $target found a failure (its input is in build-sanitize/fuzz-crashes/)"
    fi
    return 1
  fi
  grep -E "^(stat::number_of_executed_units|stat::peak_rss_mb|INFO: seed corpus)|(INITED|DONE) +cov:" "$log" || true
}

if ((!parallel)); then
  for target in "${targets[@]}"; do
    fuzz_target "$target" || exit 1
  done
  exit 0
fi
echo "fuzz: ${targets[*]} at once, ${seconds} s each"
pids=()
for target in "${targets[@]}"; do
  fuzz_target "$target" > "build-sanitize/fuzz-$target.report" 2>&1 &
  pids+=($!)
done
status=0
for i in "${!targets[@]}"; do
  wait "${pids[$i]}" || status=1
  cat "build-sanitize/fuzz-${targets[$i]}.report"
done
exit $status
