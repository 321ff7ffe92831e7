#!/usr/bin/env bash
# bench/cpu/sketch.sh: the sketched and low-rank ops (docs/sketches.md)
# against dense softmax attention, side by side in one run on the same
# inputs, on the CPU.
#
#   dense                 exact softmax attention: what the others approximate
#   skeinformer           attic.skeinformer_attention, d = 256 (pilot rows and
#                         sampled keys), adaptive row normalization, pilot reuse
#   skeinformer_uniform   the "w/o column sampling" ablation, d = 256
#   informer              attic.informer_attention, factor 5 (u = U = 5 ceil(ln N))
#   linformer             attic.linformer_attention, P = 256, one random
#                         projection N(0, 1/N) shared by heads, K and V
#                         (untrained: its error says nothing about a trained
#                         Linformer)
#   nystromformer         attic.nystrom_attention, 64 landmarks, 6 iterations,
#                         no convolution skip
#
# f32, B = 1, H = 4 heads of D = 64, N in --n. Inputs (numpy, seed 0): q = k
# rows clustered as in bench/cpu/lsh.sh (N / 16 centroids from N(0, 4 I) plus
# N(0, 0.3^2 I) noise), scaled by 1/4 so that a row's softmax spreads over
# tens to hundreds of keys; v uniform in [-1, 1). Each variant is compiled
# once per N and timed with --bench=REPS (median; dense runs once from
# N = 16384). The relative error ||o - o_exact||_F / ||o_exact||_F is
# against dense on the same inputs.
#
#   bench/cpu/sketch.sh [--n=1024,...,32768] [--reps=3]
#                       [--out=bench/results/cpu_sketch]
set -euo pipefail
cd "$(dirname "$0")/../.."

lengths="1024,2048,4096,8192,16384,32768"
reps=3
out="bench/results/cpu_sketch"
for arg in "$@"; do
  case "$arg" in
    --n=*) lengths="${arg#*=}" ;;
    --reps=*) reps="${arg#*=}" ;;
    --out=*) out="${arg#*=}" ;;
    *) echo "bench/cpu/sketch.sh: error: unknown argument '$arg'" >&2; exit 2 ;;
  esac
done

source bench/cpu/common.sh
bench_prepare "$out"
if ! /usr/bin/python3 -c 'import numpy' 2>/dev/null; then
  (apt-get update && apt-get install -y python3-numpy) >/dev/null
fi

H=4
DH=64
P=256

# module VARIANT N -> an .mlir file with @f(q, k, v, e)
module() {
  local variant=$1 n=$2
  local t="tensor<1x${H}x${n}x${DH}xf32>" e="tensor<1x${P}x${n}xf32>"
  local file="$work/$variant-$n.mlir" op
  case "$variant" in
    dense) op="attic.attention %q, %k, %v : $t, $t, $t" ;;
    skeinformer) op="attic.skeinformer_attention %q, %k, %v {samples = 256 : i64, seed = 1 : i64} : $t, $t, $t" ;;
    skeinformer_uniform) op="attic.skeinformer_attention %q, %k, %v sampling uniform {samples = 256 : i64, seed = 1 : i64} : $t, $t, $t" ;;
    informer) op="attic.informer_attention %q, %k, %v {factor = 5 : i64, seed = 1 : i64} : $t, $t, $t" ;;
    linformer) op="attic.linformer_attention %q, %k, %v projection(%e : $e) : $t, $t, $t" ;;
    nystromformer) op="attic.nystrom_attention %q, %k, %v {landmarks = 64 : i64} : $t, $t, $t" ;;
  esac
  cat > "$file" <<EOF
func.func @f(%q: $t, %k: $t, %v: $t, %e: $e) -> $t {
  %o = $op -> $t
  return %o : $t
}
EOF
  echo "$file"
}

variants=(dense skeinformer skeinformer_uniform informer linformer nystromformer)
# inputs N -> $work/q.npy, $work/v.npy, $work/e.npy
inputs() {
  /usr/bin/python3 - "$1" "$work" "$P" <<'EOF'
import sys, numpy as np
n, work, p = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
rng = np.random.default_rng(0)
H, D = 4, 64
centers = 2.0 * rng.standard_normal((H, n // 16, D))
assign = rng.integers(0, n // 16, size=(H, n))
q = np.take_along_axis(centers, assign[:, :, None], axis=1)
q = 0.25 * (q + 0.3 * rng.standard_normal((H, n, D)))
v = rng.uniform(-1.0, 1.0, size=(H, n, D))
e = rng.standard_normal((1, p, n)) / np.sqrt(n)
np.save(work + "/q.npy", q[None].astype(np.float32))
np.save(work + "/v.npy", v[None].astype(np.float32))
np.save(work + "/e.npy", e.astype(np.float32))
EOF
}

IFS=, read -ra ns <<< "$lengths"
results="$out/raw.txt"
{
  echo "# bench/cpu/sketch.sh --n=$lengths --reps=$reps"
  echo "# $(bench_machine)"
  echo "# n variant median_ms rel_err_vs_dense"
} > "$results"
for n in "${ns[@]}"; do
  inputs "$n"
  for variant in "${variants[@]}"; do
    file=$(module "$variant" "$n")
    r=$reps
    [[ $variant == dense && $n -ge 16384 ]] && r=1
    ms=$(bench_ms "$file" "$r" --input="$work/q.npy" --input="$work/q.npy" \
           --input="$work/v.npy" --input="$work/e.npy" \
           --output="$work/$variant.npy")
    err=-
    if [[ $variant != dense ]]; then
      err=$(bench_rel_err "$work/$variant.npy" "$work/dense.npy")
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
order = ["dense", "skeinformer", "skeinformer_uniform", "informer",
         "linformer", "nystromformer"]
with open(csv, "w") as c, open(txt, "w") as f:
    c.write("n,variant,ms,dense_over_variant,growth_from_half_n,rel_err_vs_dense\n")
    for h in header:
        f.write(h + "\n")
    f.write("ms: median per call; x: dense / variant; growth: ms(N) / ms(N/2);\n")
    f.write("err: relative Frobenius error against dense on the same inputs\n")
    f.write("%6s  %-20s %10s %8s %7s %9s\n" % ("N", "variant", "ms", "x", "growth", "err"))
    for n in ns:
        for v in order:
            if (n, v) not in t:
                continue
            x = "%.1f" % (t[(n, "dense")] / t[(n, v)]) if v != "dense" else "-"
            g = "%.2f" % (t[(n, v)] / t[(n // 2, v)]) if (n // 2, v) in t else "-"
            f.write("%6d  %-20s %10.2f %8s %7s %9s\n" % (n, v, t[(n, v)], x, g, err[(n, v)]))
            c.write("%d,%s,%.3f,%s,%s,%s\n" % (n, v, t[(n, v)], x, g, err[(n, v)]))
print(open(txt).read())
EOF

bench_plot "$out/summary.csv"
