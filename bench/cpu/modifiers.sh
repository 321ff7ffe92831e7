#!/usr/bin/env bash
# bench/cpu/modifiers.sh: patterns written as mask/score regions against
# the equivalent built-in layouts, on the CPU, side by side in one run
# (same shapes, same generated inputs, alternating rounds):
#
#   window_layout / window_region    causal sliding window of 512 keys:
#                                    #attic.window vs a mask region
#   prefix_layout / prefix_region    prefix-LM, prefix N/8: union<causal,
#                                    sinks> vs a mask region (k <= q or
#                                    k < N/8)
#   docs_layout / docs_region        16 packed documents: #attic.documents
#                                    vs a mask region doc[q] == doc[k];
#                                    both with their run-time
#                                    classification (attic.block_mask)
#   causal / alibi                   causal vs causal + an ALiBi score
#                                    region (per-head slopes captured)
#   mask_layout / mask_region        the run-time classification step
#                                    alone (attic.block_mask of the
#                                    documents, 128x128 blocks): per-block
#                                    id ranges vs the region evaluated on
#                                    every element (create_block_mask)
#   docs_layout_reuse /              the documents' attention alone, given
#     docs_region_reuse              the block lists that mask_layout /
#                                    mask_region returned (computed once,
#                                    reused across calls and layers, as
#                                    FlexAttention reuses a BlockMask);
#                                    the script checks that the two steps
#                                    returned the same lists
#
# f32, B=1, H (--heads, default 2), D=64, N in --n. Each variant is
# compiled once per N by attic-run and timed with --bench=REPS (median; the
# call includes allocating and copying out the result); rounds alternate
# the variants and the report takes the best median of the rounds. Ratios
# region / layout (1.00: same speed; < 1.10 is the issue's target).
#
#   bench/cpu/modifiers.sh [--n=4096,8192,16384] [--heads=2] [--reps=3]
#                          [--rounds=2] [--out=bench/results/cpu_modifiers]
#                          [--pairs=window,prefix,docs,alibi,mask,docs_reuse]
#
# --emit=VARIANT:N prints the module of one variant at N and exits (nothing
# built or timed; bench/cuda/block_mask.py takes mask_layout and
# mask_region from it).
# --pairs: the pairs to time (all by default), e.g. --pairs=docs_reuse
# --rounds=10 for a closer look at one pair on a noisy machine. The
# docs_reuse pair also times mask_layout and mask_region, which return its
# lists.
set -euo pipefail
cd "$(dirname "$0")/../.."

lengths="4096,8192,16384"
heads=2
reps=3
rounds=2
out="bench/results/cpu_modifiers"
pairs="window,prefix,docs,alibi,mask,docs_reuse"
emit=""
for arg in "$@"; do
  case "$arg" in
    --emit=*) emit="${arg#*=}" ;;
    --n=*) lengths="${arg#*=}" ;;
    --heads=*) heads="${arg#*=}" ;;
    --reps=*) reps="${arg#*=}" ;;
    --rounds=*) rounds="${arg#*=}" ;;
    --out=*) out="${arg#*=}" ;;
    --pairs=*) pairs="${arg#*=}" ;;
    *) echo "bench/cpu/modifiers.sh: error: unknown argument '$arg'" >&2; exit 2 ;;
  esac
done

if [[ -n $emit ]]; then
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
else
  source bench/cpu/common.sh
  bench_prepare "$out"
fi

ids() {
  local n=$1
  cat <<EOF
  %ids = tensor.generate {
  ^bb0(%b: index, %i: index):
    %len = arith.constant $((n / 16)) : index
    %d = arith.divui %i, %len : index
    %id = arith.index_cast %d : index to i32
    tensor.yield %id : i32
  } : tensor<1x${n}xi32>
EOF
}

docs_region() {
  local n=$1
  cat <<EOF
      mask_mod {
      ^bb0(%b: index, %h: index, %qi: index, %ki: index, %d: tensor<1x${n}xi32>):
        %x = tensor.extract %d[%b, %qi] : tensor<1x${n}xi32>
        %y = tensor.extract %d[%b, %ki] : tensor<1x${n}xi32>
        %p = arith.cmpi eq, %x, %y : i32
        attic.yield %p : i1
      }
EOF
}

# module VARIANT N -> an .mlir file with @f
module() {
  local variant=$1 n=$2
  local t="tensor<1x${heads}x${n}x64xf32>"
  local file="$work/$variant-$n.mlir"
  local nqb=$(((n + 127) / 128))
  local count="tensor<1x1x${nqb}xi32>" index="tensor<1x1x${nqb}x${nqb}xi32>"
  local lists="$count, $index, $count, $index"
  local blocks="blocks(%ln, %li, %lfn, %lfi : $lists) block_sizes [128, 128]"
  {
    if [[ $variant == *_reuse ]]; then
      echo "func.func @f(%ln: $count, %li: $index, %lfn: $count, %lfi: $index, %q: $t, %k: $t, %v: $t) -> $t {"
      ids "$n"
      if [[ $variant == docs_layout_reuse ]]; then
        echo "  %o = attic.attention %q, %k, %v layout(#attic.documents<query_ids = 0, key_ids = 0>) layout_operands(%ids : tensor<1x${n}xi32>) $blocks"
      else
        echo "  %o = attic.attention %q, %k, %v $blocks captures(%ids : tensor<1x${n}xi32>)"
        docs_region "$n"
      fi
      echo "      : $t, $t, $t -> $t"
      echo "  return %o : $t"
      echo "}"
    elif [[ $variant == mask_* ]]; then
      echo "func.func @f() -> ($lists) {"
      ids "$n"
      echo "  %n = arith.constant $n : index"
      echo "  %e0 = tensor.empty() : $count"
      echo "  %e1 = tensor.empty() : $index"
      if [[ $variant == mask_layout ]]; then
        echo "  %r:4 = attic.block_mask layout(#attic.documents<query_ids = 0, key_ids = 0>) layout_operands(%ids : tensor<1x${n}xi32>) sizes(%n, %n) outs(%e0, %e1, %e0, %e1 : $lists) {block_q = 128 : i64, block_k = 128 : i64} -> $lists"
      else
        echo "  %r:4 = attic.block_mask layout(#attic.dense) captures(%ids : tensor<1x${n}xi32>) sizes(%n, %n) outs(%e0, %e1, %e0, %e1 : $lists)"
        docs_region "$n"
        echo "      {block_q = 128 : i64, block_k = 128 : i64} -> $lists"
      fi
      echo "  return %r#0, %r#1, %r#2, %r#3 : $lists"
      echo "}"
    else
      echo "func.func @f(%q: $t, %k: $t, %v: $t) -> $t {"
      case "$variant" in
        window_layout)
          echo "  %o = attic.attention %q, %k, %v layout(#attic.window<left = 511, right = 0>)" ;;
        window_region)
          cat <<EOF
  %o = attic.attention %q, %k, %v mask_mod {
      ^bb0(%b: index, %h: index, %qi: index, %ki: index):
        %w = arith.constant 511 : index
        %zero = arith.constant 0 : index
        %d = arith.subi %qi, %ki : index
        %a = arith.cmpi sge, %d, %zero : index
        %c = arith.cmpi sle, %d, %w : index
        %p = arith.andi %a, %c : i1
        attic.yield %p : i1
      }
EOF
          ;;
        prefix_layout)
          echo "  %o = attic.attention %q, %k, %v layout(#attic.union<[#attic.causal, #attic.sinks<count = $((n / 8))>]>)" ;;
        prefix_region)
          cat <<EOF
  %o = attic.attention %q, %k, %v mask_mod {
      ^bb0(%b: index, %h: index, %qi: index, %ki: index):
        %prefix = arith.constant $((n / 8)) : index
        %a = arith.cmpi sle, %ki, %qi : index
        %c = arith.cmpi slt, %ki, %prefix : index
        %p = arith.ori %a, %c : i1
        attic.yield %p : i1
      }
EOF
          ;;
        docs_layout)
          ids "$n"
          echo "  %o = attic.attention %q, %k, %v layout(#attic.documents<query_ids = 0, key_ids = 0>) layout_operands(%ids : tensor<1x${n}xi32>)" ;;
        docs_region)
          ids "$n"
          echo "  %o = attic.attention %q, %k, %v captures(%ids : tensor<1x${n}xi32>)"
          docs_region "$n" ;;
        causal)
          echo "  %o = attic.attention %q, %k, %v causal" ;;
        alibi)
          # One slope per head, 4^-(h+1): 0.25, 0.0625, ... (two heads:
          # the slopes of the runs recorded before --heads was free).
          local slopes
          slopes=$(awk -v h="$heads" 'BEGIN { for (i = 1; i <= h; i++) printf "%s%.17g", (i > 1 ? ", " : ""), 4 ^ -i }')
          cat <<EOF
  %slopes = arith.constant dense<[$slopes]> : tensor<${heads}xf32>
  %o = attic.attention %q, %k, %v causal captures(%slopes : tensor<${heads}xf32>) score_mod {
      ^bb0(%s: f32, %b: index, %h: index, %qi: index, %ki: index, %sl: tensor<${heads}xf32>):
        %slope = tensor.extract %sl[%h] : tensor<${heads}xf32>
        %d = arith.subi %ki, %qi : index
        %di = arith.index_cast %d : index to i64
        %df = arith.sitofp %di : i64 to f32
        %bias = arith.mulf %slope, %df : f32
        %r = arith.addf %s, %bias : f32
        attic.yield %r : f32
      }
EOF
          ;;
      esac
      echo "      : $t, $t, $t -> $t"
      echo "  return %o : $t"
      echo "}"
    fi
  } > "$file"
  echo "$file"
}

if ! [[ $heads =~ ^[1-9][0-9]*$ ]]; then
  echo "bench/cpu/modifiers.sh: error: --heads=$heads: expected a positive integer" >&2
  exit 2
fi
if [[ -n $emit ]]; then
  case "${emit%%:*}" in
    window_layout|window_region|prefix_layout|prefix_region|docs_layout|docs_region|causal|alibi|mask_layout|mask_region|docs_layout_reuse|docs_region_reuse) ;;
    *) echo "bench/cpu/modifiers.sh: error: --emit: unknown variant '${emit%%:*}'" >&2; exit 2 ;;
  esac
  n="${emit#*:}"
  if [[ ! $n =~ ^[1-9][0-9]*$ || $emit != *:* ]]; then
    echo "bench/cpu/modifiers.sh: error: --emit=VARIANT:N, got '$emit'" >&2
    exit 2
  fi
  cat "$(module "${emit%%:*}" "$n")"
  exit 0
fi
variants=()
IFS=, read -ra chosen <<< "$pairs"
for pair in "${chosen[@]}"; do
  case "$pair" in
    window|prefix|docs|mask) variants+=("${pair}_layout" "${pair}_region") ;;
    alibi) variants+=(causal alibi) ;;
    docs_reuse)
      variants+=(mask_layout mask_region docs_layout_reuse docs_region_reuse) ;;
    *) echo "bench/cpu/modifiers.sh: error: unknown pair '$pair' (window, prefix, docs, alibi, mask, docs_reuse)" >&2
       exit 2 ;;
  esac
done
# One of each, in the order given (docs_reuse and mask share two).
mapfile -t variants < <(printf '%s\n' "${variants[@]}" | awk '!seen[$0]++')

# list_options OPTION MASK N: --OPTION=FILE for each of the four block
# lists that MASK (mask_layout or mask_region) returns at N.
list_options() {
  local i
  for i in 0 1 2 3; do echo "--$1=$work/lists-$2-$3-$i.npy"; done
}
IFS=, read -ra ns <<< "$lengths"

# The docs_reuse pair's lists, once per N before the timed rounds: each
# classification step's own, checked to be the same lists.
if [[ " ${variants[*]} " == *" docs_layout_reuse "* ]]; then
  for n in "${ns[@]}"; do
    for mask in mask_layout mask_region; do
      mapfile -t outputs < <(list_options output "$mask" "$n")
      ./build/tools/attic-run "$(module "$mask" "$n")" --entry=f "${outputs[@]}" >/dev/null
    done
    if ! /usr/bin/python3 - "$work" "$n" <<'PY'
import sys, numpy as np
work, n = sys.argv[1:3]
a, b = ([np.load("%s/lists-%s-%s-%d.npy" % (work, m, n, i)) for i in range(4)]
        for m in ("mask_layout", "mask_region"))
# Entries past a row's count are unspecified; compare the counts and the
# blocks they name.
for c, l in ((0, 1), (2, 3)):
    assert (a[c] == b[c]).all()
    for idx in np.ndindex(*a[c].shape):
        k = a[c][idx]
        assert (a[l][idx][:k] == b[l][idx][:k]).all()
PY
    then
      echo "bench/cpu/modifiers.sh: the layout's and the region's block lists differ (N=$n)" >&2
      exit 1
    fi
  done
fi
results="$out/raw.txt"
{
  echo "# bench/cpu/modifiers.sh --n=$lengths --heads=$heads --reps=$reps --rounds=$rounds --pairs=$pairs"
  echo "# $(bench_machine)"
  echo "# round n variant median_ms"
} > "$results"
for ((r = 1; r <= rounds; ++r)); do
  for n in "${ns[@]}"; do
    for variant in "${variants[@]}"; do
      file=$(module "$variant" "$n")
      extra=()
      if [[ $variant == *_reuse ]]; then
        # docs_layout_reuse takes mask_layout's lists, docs_region_reuse
        # mask_region's.
        mask=mask_${variant#docs_}
        mapfile -t extra < <(list_options input "${mask%_reuse}" "$n")
      fi
      ms=$(bench_ms "$file" "$reps" "${extra[@]}")
      echo "$r $n $variant $ms" | tee -a "$results"
    done
  done
done

/usr/bin/python3 - "$results" "$out/summary.txt" "$out/summary.csv" <<'EOF'
import sys
raw, txt, csv = sys.argv[1:4]
best, header = {}, []
for line in open(raw):
    if line.startswith("#"):
        header.append(line.rstrip())
        continue
    r, n, variant, ms = line.split()
    key = (int(n), variant)
    best[key] = min(best.get(key, float("inf")), float(ms))
pairs = [("window_layout", "window_region"), ("prefix_layout", "prefix_region"),
         ("docs_layout", "docs_region"), ("causal", "alibi"),
         ("mask_layout", "mask_region"), ("docs_layout_reuse", "docs_region_reuse")]
ns = sorted({n for n, _ in best})
pairs = [(a, b) for a, b in pairs if (ns[0], a) in best and (ns[0], b) in best]
with open(csv, "w") as f:
    f.write("n,pair,layout_ms,region_ms,region_over_layout\n")
    for n in ns:
        for a, b in pairs:
            f.write("%d,%s/%s,%.3f,%.3f,%.3f\n" % (n, a, b, best[(n, a)], best[(n, b)],
                                                  best[(n, b)] / best[(n, a)]))
with open(txt, "w") as f:
    for h in header:
        f.write(h + "\n")
    f.write("best median of the rounds, ms; x = region / layout (1.00: same speed)\n")
    f.write("%7s  %-38s %10s %10s %7s\n" % ("N", "layout / region", "layout", "region", "x"))
    for n in ns:
        for a, b in pairs:
            f.write("%7d  %-38s %10.1f %10.1f %7.2f\n" % (n, a + " / " + b, best[(n, a)],
                                                       best[(n, b)], best[(n, b)] / best[(n, a)]))
print(open(txt).read())
EOF
echo "results in $out"

bench_plot "$out/summary.csv"
