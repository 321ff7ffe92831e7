#!/usr/bin/env bash
# bench/cpu/kernelized.sh: kernelized attention (attic.kernelized_attention)
# against dense softmax attention (attic.attention), side by side in one run
# on the same inputs, on the CPU:
#
#   dense, dense_causal          exact softmax attention (the flash tile loop)
#   linear, linear_causal        phi = elu + 1 (causal: chunks of 64)
#   cosformer, cosformer_causal  ReLU with the cos re-weighting (2D features)
#   performer_relu               relu(x W^T) + 0.001, p = 128 random features
#   favor_plus, favor_plus_causal  FAVOR+, p = 128 random features
#   norm_causal                  TransNormer's NormAttention (elu + 1, RMSNorm)
#
# f32, B = 1, H = 4 heads of D = 64, N in --n; inputs uniform in [-1, 1)
# from attic-run's seed (the same q, k, v for every variant). Each variant
# is compiled once per N and timed with --bench=REPS (median; dense runs
# once from N = 16384). The relative error ||o - o_exact||_F / ||o_exact||_F
# is against dense (dense_causal for the causal variants) on the same
# inputs, where dense runs (N <= --dense-max). The summary adds the time
# ratio dense / variant and the growth of each variant's time from N/2 to N
# (linear in N: about 2).
#
#   bench/cpu/kernelized.sh [--n=1024,...,65536] [--reps=3]
#                           [--dense-max=65536] [--out=bench/results/cpu_kernelized]
set -euo pipefail
cd "$(dirname "$0")/../.."

lengths="1024,2048,4096,8192,16384,32768,65536"
reps=3
dense_max=65536
out="bench/results/cpu_kernelized"
for arg in "$@"; do
  case "$arg" in
    --n=*) lengths="${arg#*=}" ;;
    --reps=*) reps="${arg#*=}" ;;
    --dense-max=*) dense_max="${arg#*=}" ;;
    --out=*) out="${arg#*=}" ;;
    *) echo "bench/cpu/kernelized.sh: error: unknown argument '$arg'" >&2; exit 2 ;;
  esac
done

source bench/cpu/common.sh
bench_prepare "$out"
if ! /usr/bin/python3 -c 'import numpy' 2>/dev/null; then
  (apt-get update && apt-get install -y python3-numpy) >/dev/null
fi

H=4
DH=64

# module VARIANT N -> an .mlir file with @f(q, k, v)
module() {
  local variant=$1 n=$2
  local t="tensor<1x${H}x${n}x${DH}xf32>"
  local file="$work/$variant-$n.mlir"
  local op
  case "$variant" in
    dense) op="attic.attention %q, %k, %v" ;;
    dense_causal) op="attic.attention %q, %k, %v causal" ;;
    linear) op="attic.kernelized_attention elu_plus_one %q, %k, %v" ;;
    linear_causal) op="attic.kernelized_attention elu_plus_one %q, %k, %v {causal, chunk = 64 : i64}" ;;
    cosformer) op="attic.kernelized_attention cosformer %q, %k, %v" ;;
    cosformer_causal) op="attic.kernelized_attention cosformer %q, %k, %v {causal, chunk = 64 : i64}" ;;
    performer_relu) op="attic.kernelized_attention performer_relu %q, %k, %v {features = 128 : i64, seed = 1 : i64}" ;;
    favor_plus) op="attic.kernelized_attention favor_plus %q, %k, %v {features = 128 : i64, seed = 1 : i64}" ;;
    favor_plus_causal) op="attic.kernelized_attention favor_plus %q, %k, %v {features = 128 : i64, seed = 1 : i64, causal, chunk = 64 : i64}" ;;
    norm_causal) op="attic.kernelized_attention elu_plus_one %q, %k, %v normalize rmsnorm {causal, chunk = 64 : i64, eps = 1.0e-8 : f32}" ;;
  esac
  cat > "$file" <<EOF
func.func @f(%q: $t, %k: $t, %v: $t) -> $t {
  %o = $op : $t, $t, $t -> $t
  return %o : $t
}
EOF
  echo "$file"
}

variants=(dense dense_causal linear linear_causal cosformer cosformer_causal
          performer_relu favor_plus favor_plus_causal norm_causal)
IFS=, read -ra ns <<< "$lengths"
results="$out/raw.txt"
{
  echo "# bench/cpu/kernelized.sh --n=$lengths --reps=$reps --dense-max=$dense_max"
  echo "# $(bench_machine)"
  echo "# n variant median_ms rel_err_vs_exact"
} > "$results"
for n in "${ns[@]}"; do
  for variant in "${variants[@]}"; do
    exact=dense
    [[ $variant == *causal* ]] && exact=dense_causal
    if [[ $variant == dense* && $n -gt $dense_max ]]; then
      continue
    fi
    file=$(module "$variant" "$n")
    r=$reps
    [[ $variant == dense* && $n -ge 16384 ]] && r=1
    ms=$(bench_ms "$file" "$r" --range-lo=-1 --range-hi=1 --output="$work/$variant.npy")
    err=-
    if [[ $variant != dense* && -f $work/$exact.npy && $n -le $dense_max ]]; then
      err=$(bench_rel_err "$work/$variant.npy" "$work/$exact.npy")
    fi
    echo "$n $variant $ms $err" | tee -a "$results"
  done
  rm -f "$work"/*.npy
done

/usr/bin/python3 - "$results" "$out/summary.txt" "$out/summary.csv" <<'EOF'
import sys
raw, txt, csv = sys.argv[1:4]
t, err, header = {}, {}, []
for line in open(raw):
    if line.startswith("#"):
        header.append(line.rstrip())
        continue
    n, v, ms, e = line.split()
    t[(int(n), v)] = float(ms)
    err[(int(n), v)] = e
ns = sorted({n for n, _ in t})
order = ["dense", "dense_causal", "linear", "linear_causal", "cosformer",
         "cosformer_causal", "performer_relu", "favor_plus",
         "favor_plus_causal", "norm_causal"]
with open(csv, "w") as c, open(txt, "w") as f:
    c.write("n,variant,ms,exact_over_variant,growth_from_half_n,rel_err_vs_exact\n")
    for h in header:
        f.write(h + "\n")
    f.write("ms: median per call; x: the exact attention (dense, or dense_causal for\n")
    f.write("the causal variants) / variant; growth: ms(N) / ms(N/2); err: relative\n")
    f.write("Frobenius error against the exact attention on the same inputs\n")
    f.write("%6s  %-18s %10s %8s %7s %9s\n" % ("N", "variant", "ms", "x", "growth", "err"))
    for n in ns:
        for v in order:
            if (n, v) not in t:
                continue
            exact = "dense_causal" if "causal" in v else "dense"
            x = "%.1f" % (t[(n, exact)] / t[(n, v)]) if (n, exact) in t and not v.startswith("dense") else "-"
            g = "%.2f" % (t[(n, v)] / t[(n // 2, v)]) if (n // 2, v) in t else "-"
            f.write("%6d  %-18s %10.2f %8s %7s %9s\n" % (n, v, t[(n, v)], x, g, err[(n, v)]))
            c.write("%d,%s,%.3f,%s,%s,%s\n" % (n, v, t[(n, v)], x, g, err[(n, v)]))
print(open(txt).read())
EOF

bench_plot "$out/summary.csv"
