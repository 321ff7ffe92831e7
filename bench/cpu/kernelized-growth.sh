#!/usr/bin/env bash
# bench/cpu/kernelized-growth.sh: the 32K and 64K times (median of 7 calls, two
# rounds) of the kernelized variants whose 64K/32K growth exceeded 2.2 in
# the first run of bench/cpu/kernelized.sh (cosformer, norm_causal), and
# linear for comparison; same shapes and inputs as kernelized.sh.
set -euo pipefail
cd "$(dirname "$0")/../.."
source bench/cpu/common.sh
export KMP_BLOCKTIME=0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "# bench/cpu/kernelized-growth.sh, $(bench_machine)"
for v in "cosformer|cosformer %q, %k, %v" "norm_causal|elu_plus_one %q, %k, %v normalize rmsnorm {causal, chunk = 64 : i64, eps = 1.0e-8 : f32}" "linear|elu_plus_one %q, %k, %v"; do
  name=${v%%|*}; op=${v#*|}
  for round in 1 2; do
  for n in 32768 65536; do
    t="tensor<1x4x${n}x64xf32>"
    printf 'func.func @f(%%q: %s, %%k: %s, %%v: %s) -> %s {\n  %%o = attic.kernelized_attention %s : %s, %s, %s -> %s\n  return %%o : %s\n}\n' "$t" "$t" "$t" "$t" "$op" "$t" "$t" "$t" "$t" "$t" > "$work/f.mlir"
    echo "$n $name round$round $(bench_ms "$work/f.mlir" 7 --range-lo=-1 --range-hi=1)"
  done
  done
done
