#!/usr/bin/env bash
# bench/cpu/cst.sh: one composite slice attention sublayer
# (attic.slice_attention: projections, local slice attention, pooling,
# global attention over the slice summaries) against one dense attention
# sublayer (the same three projections, then attic.attention over all N
# keys), side by side in one run on the same shapes, on the CPU:
#
#   dense        x Wq, x Wk, x Wv ([N,D] x [D,D] each), dense attention
#   proj         the three projections alone, summed into one result
#                (the floor of both)
#   cst_L<L>_a<alpha>   slice attention, L in --slices, alpha in --alphas
#
# f32, B = 1, D = 256, H = 4 heads of 64 (the issue's shape), N in --n.
# Each variant is compiled once per N by attic-run (inputs generated from
# its seed) and timed with --bench=REPS (median; the call includes
# allocating and copying out the result; dense runs once from N = 16384,
# where one call takes seconds). The cost model of the attention
# part is keys visited per head: N W + (N/L)^2 for CST (W = alpha L keys
# per query, (N/L)^2 for the global part) and N^2 for dense; the summary
# reports both, the measured ratio dense / CST and the time per model unit.
#
#   bench/cpu/cst.sh [--n=1024,2048,...,65536] [--slices=16,32,64]
#                    [--alphas=1,3] [--reps=5] [--dense-max=65536]
#                    [--out=bench/results/cpu_cst] [--only=VARIANT]
# (--only: run one variant and append its lines to raw.txt, e.g. a rerun.)
set -euo pipefail
cd "$(dirname "$0")/../.."

lengths="1024,2048,4096,8192,16384,32768,65536"
slices="16,32,64"
alphas="1,3"
reps=5
dense_max=65536
out="bench/results/cpu_cst"
only=""
for arg in "$@"; do
  case "$arg" in
    --n=*) lengths="${arg#*=}" ;;
    --slices=*) slices="${arg#*=}" ;;
    --alphas=*) alphas="${arg#*=}" ;;
    --reps=*) reps="${arg#*=}" ;;
    --dense-max=*) dense_max="${arg#*=}" ;;
    --out=*) out="${arg#*=}" ;;
    --only=*) only="${arg#*=}" ;;
    *) echo "bench/cpu/cst.sh: error: unknown argument '$arg'" >&2; exit 2 ;;
  esac
done

source bench/cpu/common.sh
bench_prepare "$out"

D=256
H=4
DH=64

# projections N: %q, %k, %v as [N,D] from %x [1,N,D]
projections() {
  local n=$1
  cat <<EOF
  %flat = tensor.collapse_shape %x [[0, 1], [2]] : tensor<1x${n}x${D}xf32> into tensor<${n}x${D}xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<${n}x${D}xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<${n}x${D}xf32>) -> tensor<${n}x${D}xf32>
  %q = linalg.matmul ins(%flat, %wq : tensor<${n}x${D}xf32>, tensor<${D}x${D}xf32>) outs(%init : tensor<${n}x${D}xf32>) -> tensor<${n}x${D}xf32>
  %k = linalg.matmul ins(%flat, %wk : tensor<${n}x${D}xf32>, tensor<${D}x${D}xf32>) outs(%init : tensor<${n}x${D}xf32>) -> tensor<${n}x${D}xf32>
  %v = linalg.matmul ins(%flat, %wv : tensor<${n}x${D}xf32>, tensor<${D}x${D}xf32>) outs(%init : tensor<${n}x${D}xf32>) -> tensor<${n}x${D}xf32>
EOF
}

# [N,D] %NAME -> [1,H,N,DH] %NAME4
heads() {
  local n=$1 name=$2
  cat <<EOF
  %${name}x = tensor.expand_shape %${name} [[0, 1], [2, 3]] output_shape [1, ${n}, ${H}, ${DH}] : tensor<${n}x${D}xf32> into tensor<1x${n}x${H}x${DH}xf32>
  %${name}e = tensor.empty() : tensor<1x${H}x${n}x${DH}xf32>
  %${name}4 = linalg.transpose ins(%${name}x : tensor<1x${n}x${H}x${DH}xf32>) outs(%${name}e : tensor<1x${H}x${n}x${DH}xf32>) permutation = [0, 2, 1, 3]
EOF
}

# module VARIANT N -> an .mlir file with @f
module() {
  local variant=$1 n=$2
  local x="tensor<1x${n}x${D}xf32>" w="tensor<${D}x${D}xf32>"
  local file="$work/$variant-$n.mlir"
  {
    case "$variant" in
      proj)
        # One [N,D] result (q + k + v) like the other variants: the
        # copy-out of the result is part of every timed call.
        echo "func.func @f(%x: $x, %wq: $w, %wk: $w, %wv: $w) -> tensor<${n}x${D}xf32> {"
        projections "$n"
        echo "  %qk = arith.addf %q, %k : tensor<${n}x${D}xf32>"
        echo "  %qkv = arith.addf %qk, %v : tensor<${n}x${D}xf32>"
        echo "  return %qkv : tensor<${n}x${D}xf32>"
        echo "}" ;;
      dense)
        local t="tensor<1x${H}x${n}x${DH}xf32>"
        echo "func.func @f(%x: $x, %wq: $w, %wk: $w, %wv: $w) -> $x {"
        projections "$n"
        heads "$n" q
        heads "$n" k
        heads "$n" v
        cat <<EOF
  %o = attic.attention %q4, %k4, %v4 : $t, $t, $t -> $t
  %oe = tensor.empty() : tensor<1x${n}x${H}x${DH}xf32>
  %ot = linalg.transpose ins(%o : $t) outs(%oe : tensor<1x${n}x${H}x${DH}xf32>) permutation = [0, 2, 1, 3]
  %r = tensor.collapse_shape %ot [[0], [1], [2, 3]] : tensor<1x${n}x${H}x${DH}xf32> into $x
  return %r : $x
}
EOF
        ;;
      cst_*)
        local l=${variant#cst_L}; l=${l%%_*}
        local a=${variant##*_a}
        bench_cst_module "$n" "$l" "$a" "$D" "$H" ;;
    esac
  } > "$file"
  echo "$file"
}

IFS=, read -ra ns <<< "$lengths"
IFS=, read -ra ls <<< "$slices"
IFS=, read -ra as <<< "$alphas"
variants=(proj dense)
for l in "${ls[@]}"; do
  for a in "${as[@]}"; do
    variants+=("cst_L${l}_a${a}")
  done
done
results="$out/raw.txt"
if [[ -n $only ]]; then
  variants=("$only")
  echo "# rerun of $only: bench/cpu/cst.sh --n=$lengths --reps=$reps --only=$only, $(date -u '+%Y-%m-%d %H:%M UTC')" >> "$results"
else
{
  echo "# bench/cpu/cst.sh --n=$lengths --slices=$slices --alphas=$alphas --reps=$reps --dense-max=$dense_max"
  echo "# $(bench_machine)"
  echo "# n variant median_ms"
} > "$results"
fi
for n in "${ns[@]}"; do
  for variant in "${variants[@]}"; do
    if [[ $variant == dense && $n -gt $dense_max ]]; then
      continue
    fi
    file=$(module "$variant" "$n")
    r=$reps
    if [[ $variant == dense && $n -ge 16384 ]]; then
      r=1
    fi
    ms=$(bench_ms "$file" "$r" --range-lo=-0.1 --range-hi=0.1)
    echo "$n $variant $ms" | tee -a "$results"
  done
done

/usr/bin/python3 - "$results" "$out/summary.txt" "$out/summary.csv" <<'EOF'
import sys
raw, txt, csv = sys.argv[1:4]
t, header = {}, []
for line in open(raw):
    if line.startswith("#"):
        header.append(line.rstrip())
        continue
    n, variant, ms = line.split()
    t[(int(n), variant)] = float(ms)
ns = sorted({n for n, _ in t})
variants = sorted({v for _, v in t if v.startswith("cst_")},
                  key=lambda v: (int(v.split("_")[1][1:]), int(v.split("_a")[1])))

def model(n, v):
    if v == "dense":
        return n * n
    l = int(v.split("_")[1][1:]); a = int(v.split("_a")[1])
    return n * a * l + (n // l) ** 2

def row(n, v):
    d = t.get((n, "dense"))
    x = "%.2f" % (d / t[(n, v)]) if d else "-"
    per_key = (t[(n, v)] - t[(n, "proj")]) * 1e6 / model(n, v) / 4
    return x, model(n, "dense") / model(n, v), per_key

with open(csv, "w") as c, open(txt, "w") as f:
    c.write("n,variant,ms,proj_ms,model_keys,dense_over_variant,model_dense_over_variant,ns_per_model_key\n")
    for h in header:
        f.write(h + "\n")
    f.write("ms: one layer (projections + attention); proj: the projections alone;\n")
    f.write("model: keys visited per head, N W + (N/L)^2 (dense N^2); x: dense / variant,\n")
    f.write("measured and by the model; ns/key: (ms - proj) per head per model key\n")
    f.write("%6s  %-10s %10s %9s %14s %8s %9s %8s\n" % (
        "N", "variant", "ms", "proj", "model", "x", "x model", "ns/key"))
    for n in ns:
        for v in ["dense"] + variants:
            if (n, v) not in t:
                continue
            x, xm, pk = row(n, v)
            values = (n, v, t[(n, v)], t[(n, "proj")], model(n, v), x, xm, pk)
            c.write("%d,%s,%.3f,%.3f,%d,%s,%.1f,%.4f\n" % values)
            f.write("%6d  %-10s %10.1f %9.1f %14d %8s %9.1f %8.3f\n" % values)
print(open(txt).read())
EOF
echo "results in $out"

bench_plot "$out/summary.csv"
