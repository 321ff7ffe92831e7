#!/usr/bin/env bash
# Thread scaling of attic's CPU attention, measured so that machine noise
# shows: for each N and causal setting, `attic-run --bench` alternates one
# and T threads --rounds times on the same compiled function and inputs, and
# the ratio of the medians (1-thread time / T-thread time) is reported with
# every round's ratio. Dense f32, B=1, H=8, D=64.
#
#   bench/cpu/scaling.sh [--threads=2] [--n=4096,8192,16384] [--rounds=3]
#                        [--out=bench/results/cpu/scaling-alternating.txt]
set -euo pipefail
cd "$(dirname "$0")/../.."
threads="$(nproc)"; lengths="4096,8192,16384"; rounds=3
out="bench/results/cpu/scaling-alternating.txt"
for arg in "$@"; do
  case "$arg" in
    --threads=*) threads="${arg#*=}" ;;
    --n=*) lengths="${arg#*=}" ;;
    --rounds=*) rounds="${arg#*=}" ;;
    --out=*) out="${arg#*=}" ;;
    *) echo "bench/cpu/scaling.sh: error: unknown argument '$arg'" >&2; exit 2 ;;
  esac
done
./scripts/setup.sh >/dev/null
export KMP_BLOCKTIME=0
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
mkdir -p "$(dirname "$out")"
{
  echo "attic thread scaling: time with 1 thread / time with $threads threads"
  echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC'); cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(nproc) cores"
  echo "B=1 H=8 D=64 f32; attic-run --bench=3 per measurement; $rounds alternating rounds"
  IFS=, read -ra ns <<< "$lengths"
  for n in "${ns[@]}"; do
    for causal in "" " causal"; do
      t="tensor<1x8x${n}x64xf32>"
      printf 'func.func @f(%%q: %s, %%k: %s, %%v: %s) -> %s {\n  %%o = attic.attention %%q, %%k, %%v%s : %s, %s, %s -> %s\n  return %%o : %s\n}\n' \
        "$t" "$t" "$t" "$t" "$causal" "$t" "$t" "$t" "$t" "$t" > "$work/f.mlir"
      one=(); many=(); ratios=()
      for ((r = 0; r < rounds; ++r)); do
        a="$(./build/tools/attic-run "$work/f.mlir" --cpu-threads=1 --bench=3 | sed -n 's/^time: median \([0-9.]*\) ms.*/\1/p')"
        b="$(./build/tools/attic-run "$work/f.mlir" --cpu-threads="$threads" --bench=3 | sed -n 's/^time: median \([0-9.]*\) ms.*/\1/p')"
        one+=("$a"); many+=("$b"); ratios+=("$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.2f", a / b }')")
      done
      med() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
      m1="$(med "${one[@]}")"; mt="$(med "${many[@]}")"
      printf 'N=%-6s causal=%-3s 1 thread %9.1f ms  %s threads %9.1f ms  ratio of medians %.2fx  (rounds: %s)\n' \
        "$n" "$([ -n "$causal" ] && echo on || echo off)" "$m1" "$threads" "$mt" \
        "$(awk -v a="$m1" -v b="$mt" 'BEGIN { print a / b }')" "${ratios[*]}"
    done
  done
} | tee "$out"
