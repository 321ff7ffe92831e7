#!/usr/bin/env bash
# bench/cpu/aot.sh: ahead-of-time compiled code (attic-compile, called from C
# by attic-aot-run through libattic_rt.so) against the JIT (attic-run) on
# the same function and the same inputs, in one run, alternating.
#
# f32 attention, B = 1, H = 4, D = 64, causal and not, N in --n; inputs from
# attic-run's seed 0, saved with --save-input and given to both. Both
# timings are the median of --reps calls after the compile, and both include
# allocating and copying out the result (CpuExecutable::run copies into a
# new tensor, attic_aot_call into the caller's buffer). The AOT run also
# checks its result against the reference semantics (attic-run --check
# --reference-output; N <= 4096, where the reference is quick).
#
# attic-aot-run calls the entry untimed for 500 ms before timing
# (--warmup-ms): right after a process loads OpenBLAS, its pool threads spin
# (OPENBLAS_THREAD_TIMEOUT) and compete with the OpenMP workers for about
# 0.1 s, which made 1 fresh AOT run in 2 at N = 1024 1.7x slower (the
# single-thread time); attic-run's JIT compile covers that time.
#
#   bench/cpu/aot.sh [--n=1024,2048,4096,8192] [--reps=20]
#                    [--out=bench/results/cpu_aot]
set -euo pipefail
cd "$(dirname "$0")/../.."

lengths="1024,2048,4096,8192"
reps=20
out="bench/results/cpu_aot"
for arg in "$@"; do
  case "$arg" in
    --n=*) lengths="${arg#*=}" ;;
    --reps=*) reps="${arg#*=}" ;;
    --out=*) out="${arg#*=}" ;;
    *) echo "bench/cpu/aot.sh: error: unknown argument '$arg'" >&2; exit 2 ;;
  esac
done

source bench/cpu/common.sh
bench_prepare "$out"
tools=./build/tools
raw="$out/raw.txt"
bench_machine > "$raw"
echo "n,variant,ms" > "$out/summary.csv"
for n in ${lengths//,/ }; do
  for causal in off on; do
    t="tensor<1x4x${n}x64xf32>"
    attr=""
    variant=dense
    if [[ $causal == on ]]; then attr=" causal"; variant=causal; fi
    file="$work/f-$n-$causal.mlir"
    cat > "$file" <<MLIR
func.func @f(%q: $t, %k: $t, %v: $t) -> $t {
  %o = attic.attention %q, %k, %v$attr : $t, $t, $t -> $t
  return %o : $t
}
MLIR
    check=()
    ref=()
    if ((n <= 4096)); then
      check=(--check --reference-output="$work/ref.npy")
      ref=(--reference "$work/ref.npy")
    fi
    echo "== N=$n $variant: JIT (attic-run)" | tee -a "$raw"
    $tools/attic-run "$file" --entry=f --bench="$reps" "${check[@]}" \
      --save-input="$work/q.npy" --save-input="$work/k.npy" \
      --save-input="$work/v.npy" | tee -a "$raw"
    jit=$(sed -n 's/^time: median \([0-9.]*\) ms.*/\1/p' "$raw" | tail -1)
    $tools/attic-compile "$file" --entry=f -o "$work/libf.so" --header=-
    echo "== N=$n $variant: AOT (attic-compile, attic-aot-run)" | tee -a "$raw"
    $tools/attic-aot-run "$work/libf.so" f --input "$work/q.npy" \
      --input "$work/k.npy" --input "$work/v.npy" "${ref[@]}" \
      --bench "$reps" --warmup-ms 500 | tee -a "$raw"
    aot=$(sed -n 's/^time: median \([0-9.]*\) ms.*/\1/p' "$raw" | tail -1)
    echo "$n,${variant}_jit,$jit" >> "$out/summary.csv"
    echo "$n,${variant}_aot,$aot" >> "$out/summary.csv"
  done
done
/usr/bin/python3 - "$out/summary.csv" <<'PY' | tee "$out/summary.txt"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
t = {(r["n"], r["variant"]): float(r["ms"]) for r in rows}
print("%6s %7s %10s %10s %9s" % ("N", "causal", "jit_ms", "aot_ms", "aot/jit"))
for (n, v) in sorted({(r["n"], r["variant"].rsplit("_", 1)[0]) for r in rows},
                     key=lambda k: (int(k[0]), k[1])):
    j, a = t[(n, v + "_jit")], t[(n, v + "_aot")]
    print("%6s %7s %10.3f %10.3f %9.3f" % (n, "on" if v == "causal" else "off",
                                          j, a, a / j))
PY
bench_plot "$out/summary.csv"
echo "results in $out"
