#!/usr/bin/env bash
# bench/cpu/lsh.sh: Reformer's LSH attention (attic.lsh_attention) and
# clustered attention (attic.clustered_attention) against dense softmax
# attention and linear attention, side by side in one run on the same
# inputs, on the CPU. Queries and keys are the same rows (shared
# QK, as in Reformer): every variant reads (q, q, v).
#
#   dense_self, dense_self_causal  exact softmax attention of the shared-QK
#                                  model with Reformer's self-key rule (the
#                                  diagonal logit -1e5, a score region): what
#                                  LSH attention approximates
#   reformer, reformer_causal      LSH attention, 2 rounds, chunks of 64,
#                                  buckets = min(2N / 64, 1024)
#   reformer_r4                    the same with 4 rounds
#   linear, linear_causal          kernelized, phi = elu + 1 (causal: chunks
#                                  of 64), for comparison
#   dense, dense_causal            exact softmax attention of (q, q, v): what
#                                  clustered and linear attention approximate
#   clustered                      clustered attention, 64 clusters, 10
#                                  K-means iterations
#   clustered_top32                the improved variant, the top 32 keys of
#                                  each cluster recomputed exactly
#
# f32, B = 1, H = 4 heads of D = 64, N in --n. Inputs (numpy, seed 0, the
# same for every variant): the shared q/k rows are clustered, the regime LSH
# is for: N / 16 centroids drawn from N(0, 4 I), each row its (uniformly
# chosen) centroid plus N(0, 0.3^2 I) noise, so that each row's softmax
# mass sits on its cluster (about 16 rows); v is uniform in [-1, 1).
# (On i.i.d. uniform rows the softmax is nearly flat over all N keys, the
# exact output is the mean of V, and no local method approximates it: the
# relative error there is above 1 for LSH at N = 1K and grows with N.)
# Each variant is compiled once per N and timed with --bench=REPS
# (median; dense runs once from N = 16384). The relative error
# ||o - o_exact||_F / ||o_exact||_F is against dense_self
# (dense_self_causal for the causal variants; dense, or dense_causal, for
# the clustered and linear ones) on the same inputs, where dense runs (N <= --dense-max). The summary adds the time ratio exact / variant and
# the growth of each variant's time from N/2 to N.
#
#   bench/cpu/lsh.sh [--n=1024,...,65536] [--reps=3] [--dense-max=65536]
#                    [--out=bench/results/cpu_lsh]
set -euo pipefail
cd "$(dirname "$0")/../.."

lengths="1024,2048,4096,8192,16384,32768,65536"
reps=3
dense_max=65536
out="bench/results/cpu_lsh"
for arg in "$@"; do
  case "$arg" in
    --n=*) lengths="${arg#*=}" ;;
    --reps=*) reps="${arg#*=}" ;;
    --dense-max=*) dense_max="${arg#*=}" ;;
    --out=*) out="${arg#*=}" ;;
    *) echo "bench/cpu/lsh.sh: error: unknown argument '$arg'" >&2; exit 2 ;;
  esac
done

source bench/cpu/common.sh
bench_prepare "$out"
if ! /usr/bin/python3 -c 'import numpy' 2>/dev/null; then
  (apt-get update && apt-get install -y python3-numpy) >/dev/null
fi

H=4
DH=64

# module VARIANT N -> an .mlir file with @f(q, k, v) (k unused: shared QK)
module() {
  local variant=$1 n=$2
  local t="tensor<1x${H}x${n}x${DH}xf32>"
  local file="$work/$variant-$n.mlir"
  local buckets=$(( 2 * n / 64 ))
  (( buckets > 1024 )) && buckets=1024
  local lsh="{buckets = $buckets : i64, chunk = 64 : i64, seed = 1 : i64"
  local op self='score_mod {
  ^bb0(%s: f32, %b: index, %h: index, %i: index, %j: index):
    %self = arith.cmpi eq, %i, %j : index
    %m = arith.constant -1.0e5 : f32
    %r = arith.select %self, %m, %s : f32
    attic.yield %r : f32
  }'
  case "$variant" in
    dense_self) op="attic.attention %q, %q, %v $self : $t, $t, $t" ;;
    dense_self_causal) op="attic.attention %q, %q, %v causal $self : $t, $t, $t" ;;
    reformer) op="attic.lsh_attention %q, %v $lsh, rounds = 2 : i64} : $t, $t" ;;
    reformer_causal) op="attic.lsh_attention %q, %v $lsh, rounds = 2 : i64, causal} : $t, $t" ;;
    reformer_r4) op="attic.lsh_attention %q, %v $lsh, rounds = 4 : i64} : $t, $t" ;;
    linear) op="attic.kernelized_attention elu_plus_one %q, %q, %v : $t, $t, $t" ;;
    linear_causal) op="attic.kernelized_attention elu_plus_one %q, %q, %v {causal, chunk = 64 : i64} : $t, $t, $t" ;;
    dense) op="attic.attention %q, %q, %v : $t, $t, $t" ;;
    dense_causal) op="attic.attention %q, %q, %v causal : $t, $t, $t" ;;
    clustered) op="attic.clustered_attention %q, %q, %v {clusters = 64 : i64, iterations = 10 : i64, seed = 1 : i64} : $t, $t, $t" ;;
    clustered_top32) op="attic.clustered_attention %q, %q, %v {clusters = 64 : i64, iterations = 10 : i64, seed = 1 : i64, topk = 32 : i64} : $t, $t, $t" ;;
  esac
  cat > "$file" <<EOF
func.func @f(%q: $t, %k: $t, %v: $t) -> $t {
  %o = $op -> $t
  return %o : $t
}
EOF
  echo "$file"
}

variants=(dense_self dense_self_causal dense dense_causal reformer
          reformer_causal reformer_r4 linear linear_causal clustered
          clustered_top32)
# inputs N -> $work/q.npy, $work/v.npy
inputs() {
  /usr/bin/python3 - "$1" "$work" <<'EOF'
import sys, numpy as np
n, work = int(sys.argv[1]), sys.argv[2]
rng = np.random.default_rng(0)
H, D = 4, 64
centers = 2.0 * rng.standard_normal((H, n // 16, D))
assign = rng.integers(0, n // 16, size=(H, n))
q = np.take_along_axis(centers, assign[:, :, None], axis=1)
q = q + 0.3 * rng.standard_normal((H, n, D))
v = rng.uniform(-1.0, 1.0, size=(H, n, D))
np.save(work + "/q.npy", q[None].astype(np.float32))
np.save(work + "/v.npy", v[None].astype(np.float32))
EOF
}

IFS=, read -ra ns <<< "$lengths"
results="$out/raw.txt"
{
  echo "# bench/cpu/lsh.sh --n=$lengths --reps=$reps --dense-max=$dense_max"
  echo "# $(bench_machine)"
  echo "# n variant median_ms rel_err_vs_exact"
} > "$results"
for n in "${ns[@]}"; do
  inputs "$n"
  for variant in "${variants[@]}"; do
    exact=dense_self
    [[ $variant == *causal* ]] && exact=dense_self_causal
    [[ $variant == clustered* || $variant == linear ]] && exact=dense
    [[ $variant == linear_causal ]] && exact=dense_causal
    if [[ $variant == dense* && $n -gt $dense_max ]]; then
      continue
    fi
    file=$(module "$variant" "$n")
    r=$reps
    [[ $variant == dense* && $n -ge 16384 ]] && r=1
    ms=$(bench_ms "$file" "$r" --input="$work/q.npy" --input="$work/q.npy" \
           --input="$work/v.npy" --output="$work/$variant.npy")
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
order = ["dense_self", "dense_self_causal", "dense", "dense_causal",
         "reformer", "reformer_causal", "reformer_r4", "linear",
         "linear_causal", "clustered", "clustered_top32"]
with open(csv, "w") as c, open(txt, "w") as f:
    c.write("n,variant,ms,exact_over_variant,growth_from_half_n,rel_err_vs_exact\n")
    for h in header:
        f.write(h + "\n")
    f.write("ms: median per call; x: the exact attention (dense_self, or\n")
    f.write("dense_self_causal for the causal variants; dense or dense_causal\n")
    f.write("for the clustered and linear ones) / variant; growth:\n")
    f.write("ms(N) / ms(N/2); err: relative Frobenius error against the exact\n")
    f.write("attention on the same inputs\n")
    f.write("%6s  %-18s %10s %8s %7s %9s\n" % ("N", "variant", "ms", "x", "growth", "err"))
    for n in ns:
        for v in order:
            if (n, v) not in t:
                continue
            exact = "dense_self_causal" if "causal" in v else "dense_self"
            if v.startswith("clustered") or v.startswith("linear"):
                exact = "dense_causal" if "causal" in v else "dense"
            x = "%.1f" % (t[(n, exact)] / t[(n, v)]) if (n, exact) in t and not v.startswith("dense") else "-"
            g = "%.2f" % (t[(n, v)] / t[(n // 2, v)]) if (n // 2, v) in t else "-"
            f.write("%6d  %-18s %10.2f %8s %7s %9s\n" % (n, v, t[(n, v)], x, g, err[(n, v)]))
            c.write("%d,%s,%.3f,%s,%s,%s\n" % (n, v, t[(n, v)], x, g, err[(n, v)]))
print(open(txt).read())
EOF

bench_plot "$out/summary.csv"
