#!/usr/bin/env bash
# bench/cpu/layouts.sh: sparse layouts against the dense attention they
# approximate, on the CPU, side by side in one run (same shapes, same
# generated inputs, alternating rounds):
#
#   causal          dense causal attention
#   window512       causal sliding window of 512 keys (Mistral style)
#   dense           dense non-causal attention
#   docs16          16 documents of N/16 tokens packed in one sequence
#                   (non-causal within a document; the run-time block
#                   classification, attic.block_mask, included)
#
# f32, B=1, H (--heads, default 2), D=64, N in --n. Each variant is compiled
# once per N by attic-run and timed with --bench=REPS (median; the call
# includes allocating and copying out the result). Rounds alternate the
# variants, and the report takes the best median of the rounds. Ratios:
# causal / window512 and dense / docs16 (> 1: the layout is faster).
#
#   bench/cpu/layouts.sh [--n=4096,8192,16384,32768,65536] [--heads=2]
#                        [--reps=3] [--rounds=2] [--out=bench/results/cpu_layouts]
set -euo pipefail
cd "$(dirname "$0")/../.."

lengths="4096,8192,16384,32768,65536"
heads=2
reps=3
rounds=2
out="bench/results/cpu_layouts"
for arg in "$@"; do
  case "$arg" in
    --n=*) lengths="${arg#*=}" ;;
    --heads=*) heads="${arg#*=}" ;;
    --reps=*) reps="${arg#*=}" ;;
    --rounds=*) rounds="${arg#*=}" ;;
    --out=*) out="${arg#*=}" ;;
    *) echo "bench/cpu/layouts.sh: error: unknown argument '$arg'" >&2; exit 2 ;;
  esac
done

source bench/cpu/common.sh
bench_prepare "$out"

# module VARIANT N -> an .mlir file with @f
module() {
  local variant=$1 n=$2
  local t="tensor<1x${heads}x${n}x64xf32>"
  local file="$work/$variant-$n.mlir"
  case "$variant" in
    causal) layout="layout(#attic.causal)" ;;
    window512) layout="layout(#attic.window<left = 511, right = 0>)" ;;
    dense) layout="" ;;
    docs16) layout="layout(#attic.documents<query_ids = 0, key_ids = 0>) layout_operands(%ids : tensor<1x${n}xi32>)" ;;
  esac
  {
    echo "func.func @f(%q: $t, %k: $t, %v: $t) -> $t {"
    if [[ $variant == docs16 ]]; then
      cat <<EOF
  %ids = tensor.generate {
  ^bb0(%b: index, %i: index):
    %len = arith.constant $((n / 16)) : index
    %d = arith.divui %i, %len : index
    %id = arith.index_cast %d : index to i32
    tensor.yield %id : i32
  } : tensor<1x${n}xi32>
EOF
    fi
    echo "  %o = attic.attention %q, %k, %v $layout : $t, $t, $t -> $t"
    echo "  return %o : $t"
    echo "}"
  } > "$file"
  echo "$file"
}

variants=(causal window512 dense docs16)
IFS=, read -ra ns <<< "$lengths"
results="$out/raw.txt"
{
  echo "# bench/cpu/layouts.sh --n=$lengths --heads=$heads --reps=$reps --rounds=$rounds"
  echo "# $(bench_machine)"
  echo "# round n variant median_ms"
} > "$results"
for ((r = 1; r <= rounds; ++r)); do
  for n in "${ns[@]}"; do
    for variant in "${variants[@]}"; do
      file=$(module "$variant" "$n")
      ms=$(bench_ms "$file" "$reps")
      echo "$r $n $variant $ms" | tee -a "$results"
    done
  done
done

# Best median per (n, variant) over the rounds; ratios.
/usr/bin/python3 - "$results" "$out/summary.txt" "$out/summary.csv" <<'EOF'
import sys
raw, txt, csv = sys.argv[1:4]
best = {}
header = []
for line in open(raw):
    if line.startswith("#"):
        header.append(line.rstrip())
        continue
    r, n, variant, ms = line.split()
    key = (int(n), variant)
    best[key] = min(best.get(key, float("inf")), float(ms))
ns = sorted({n for n, _ in best})
rows = []
for n in ns:
    c, w = best[(n, "causal")], best[(n, "window512")]
    d, s = best[(n, "dense")], best[(n, "docs16")]
    rows.append((n, c, w, c / w, d, s, d / s))
with open(csv, "w") as f:
    f.write("n,causal_ms,window512_ms,causal_over_window,dense_ms,docs16_ms,dense_over_docs\n")
    for row in rows:
        f.write("%d,%.3f,%.3f,%.2f,%.3f,%.3f,%.2f\n" % row)
with open(txt, "w") as f:
    for h in header:
        f.write(h + "\n")
    f.write("best median of the rounds, ms; ratio > 1: the layout is faster\n")
    f.write("%7s %11s %12s %9s %11s %10s %9s\n" % ("N", "causal", "window512", "x", "dense", "docs16", "x"))
    for row in rows:
        f.write("%7d %11.1f %12.1f %9.1f %11.1f %10.1f %9.1f\n" % row)
print(open(txt).read())
EOF
echo "results in $out"

bench_plot "$out/summary.csv"
