#!/usr/bin/env bash
# bench/cpu/cst_pool.sh: the CST sublayer (attic.slice_attention) with the
# slice means pooled in the local attention's epilogue (the default of
# attic-expand-cst) against the same sublayer with the means as a separate
# pass over the local output (attic-expand-cst="pool-epilogue=false", the
# form before the epilogue existed), side by side in one run on the same
# inputs (same seed), on the CPU: f32, B = 1, D = 256, 4 heads of 64
# (the shape of bench/cpu/cst.sh). Both are compiled by attic-run and timed
# with --bench=REPS (median of the whole call); the outputs are compared
# (max relative difference of the two .npy files).
#
#   bench/cpu/cst_pool.sh [--n=1024,4096,16384] [--slices=16,32,64]
#                         [--alphas=1,3] [--reps=7]
#                         [--out=bench/results/cpu_cst_pool]
set -euo pipefail
cd "$(dirname "$0")/../.."

lengths="1024,4096,16384"
slices="16,32,64"
alphas="1,3"
reps=7
out="bench/results/cpu_cst_pool"
for arg in "$@"; do
  case "$arg" in
    --n=*) lengths="${arg#*=}" ;;
    --slices=*) slices="${arg#*=}" ;;
    --alphas=*) alphas="${arg#*=}" ;;
    --reps=*) reps="${arg#*=}" ;;
    --out=*) out="${arg#*=}" ;;
    *) echo "bench/cpu/cst_pool.sh: error: unknown argument '$arg'" >&2; exit 2 ;;
  esac
done

source bench/cpu/common.sh
bench_prepare "$out"
D=256
H=4

IFS=, read -ra ns <<< "$lengths"
IFS=, read -ra ls <<< "$slices"
IFS=, read -ra as <<< "$alphas"
results="$out/raw.txt"
{
  echo "# bench/cpu/cst_pool.sh --n=$lengths --slices=$slices --alphas=$alphas --reps=$reps"
  echo "# $(bench_machine)"
  echo "# n L alpha epilogue_ms separate_ms separate/epilogue max_rel_diff"
} > "$results"
for n in "${ns[@]}"; do
  for l in "${ls[@]}"; do
    for a in "${as[@]}"; do
      fused="$work/fused-$n-$l-$a.mlir" sep="$work/sep-$n-$l-$a.mlir"
      bench_cst_module "$n" "$l" "$a" "$D" "$H" > "$fused"
      ./build/tools/attic-opt "$fused" --attic-expand-cst="pool-epilogue=false" -o "$sep"
      opts=(--range-lo=-0.1 --range-hi=0.1)
      ./build/tools/attic-run "$fused" --entry=f "${opts[@]}" --output="$work/fused.npy" >/dev/null
      ./build/tools/attic-run "$sep" --entry=f "${opts[@]}" --output="$work/sep.npy" >/dev/null
      diff=$(/usr/bin/python3 -c '
import sys, numpy as np
a = np.load(sys.argv[1]).astype(np.float64); b = np.load(sys.argv[2]).astype(np.float64)
print("%.2e" % (np.abs(a - b).max() / np.abs(b).max()))' "$work/fused.npy" "$work/sep.npy")
      # Alternate the two, twice each, and keep each one's better median.
      f1=$(bench_ms "$fused" "$reps" "${opts[@]}"); s1=$(bench_ms "$sep" "$reps" "${opts[@]}")
      f2=$(bench_ms "$fused" "$reps" "${opts[@]}"); s2=$(bench_ms "$sep" "$reps" "${opts[@]}")
      f=$(/usr/bin/python3 -c "print(min($f1, $f2))"); s=$(/usr/bin/python3 -c "print(min($s1, $s2))")
      ratio=$(/usr/bin/python3 -c "print('%.3f' % ($s / $f))")
      echo "$n $l $a $f $s $ratio $diff" | tee -a "$results"
    done
  done
done
