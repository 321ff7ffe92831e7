#!/usr/bin/env bash
# Runs attic's libFuzzer targets, each for a bounded time:
#
#   scripts/fuzz.sh [--seconds=N] [--parallel] [npy] [binding] [mlir]
#
#   npy      the .npy reader (test/fuzz/NpyFuzzer.cpp), ASan+UBSan
#   binding  attic-run/attic-compile's per-argument options
#            (test/fuzz/ArgumentBindingFuzzer.cpp), ASan+UBSan
#   mlir     parse, verify and each pipeline on .mlir text
#            (test/fuzz/compiler/MlirPipelineFuzzer.cpp), the regular build
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
    npy|binding|mlir) targets+=("$arg") ;;
    *) echo "fuzz.sh: unknown argument '$arg'" >&2; exit 2 ;;
  esac
done
[[ ${#targets[@]} -gt 0 ]] || targets=(npy binding mlir)
mkdir -p build-sanitize/fuzz-crashes

# Fuzzes one target; prints its statistics, or its log's tail and a
# failure line (status 1).
fuzz_target() {
  local target=$1 binary seeds options
  case "$target" in
    npy)
      binary=build-sanitize/test/fuzz/attic-npy-fuzzer
      seeds=(test/fuzz/corpus/npy); options=(-max_len=4096 -timeout=30) ;;
    binding)
      binary=build-sanitize/test/fuzz/attic-binding-fuzzer
      seeds=(test/fuzz/corpus/binding); options=(-max_len=1024 -timeout=30) ;;
    mlir)
      binary=build/test/fuzz/compiler/attic-mlir-fuzzer
      seeds=(build-sanitize/fuzz-seeds/mlir)
      rm -rf build-sanitize/fuzz-seeds/mlir
      /usr/bin/python3 test/fuzz/split_mlir_seeds.py . \
        build-sanitize/fuzz-seeds/mlir || return 1
      # -timeout=120: attic's largest test files take 10-30 s through the
      # three pipelines on a loaded 2-core machine (a 30 s limit stopped a
      # run on a slow compile, not a hang).
      options=(-max_len=65536 -timeout=120) ;;
  esac
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
  # without writing the input, which would have held CI to its limit.
  local status=0
  timeout --kill-after=10 $((seconds + 300)) "$binary" -max_total_time="$seconds" \
      -rss_limit_mb=4096 -print_final_stats=1 \
      -artifact_prefix=build-sanitize/fuzz-crashes/ \
      "${options[@]}" "$corpus" "${seeds[@]}" > "$log" 2>&1 || status=$?
  if [[ $status -ne 0 ]]; then
    tail -n 60 "$log"
    if [[ $status -eq 124 || $status -eq 137 ]]; then
      echo "fuzz: $target did not stop within $((seconds + 300)) s (a hang, possibly in libFuzzer's crash handler; the input may not have been written)"
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
