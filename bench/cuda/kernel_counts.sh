#!/bin/bash
# Static counts of the GPU mapping, no GPU needed: for each example (or the
# .mlir files given), the gpu.launch ops that attic-cuda-pipeline emits
# (each runs once per call) and how many of them are kernels of one thread
# (a grid of 1x1x1 blocks of 1x1x1 threads: the sequential steps that
# attic-gpu-offload runs in one GPU thread). A markdown table on stdout.
#
#   bench/cuda/kernel_counts.sh [FILE.mlir ...]
#
# ATTIC_OPT overrides build/tools/attic-opt; ATTIC_CUDA_OPTIONS the
# pipeline's options (default "chip=sm_80 format=isa"; add
# "fuse-launches=false" for the count without attic-gpu-fuse-launches).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
opt=${ATTIC_OPT:-$root/build/tools/attic-opt}
options=${ATTIC_CUDA_OPTIONS:-chip=sm_80 format=isa}
if [ ! -x "$opt" ]; then
  echo "kernel_counts.sh: $opt not found (build attic first)" >&2
  exit 1
fi
if [ $# -eq 0 ]; then
  set -- "$root"/examples/*.mlir
fi
mapped=$(mktemp)
trap 'rm -f "$mapped"' EXIT
echo "| example | kernels | one-thread kernels |"
echo "| --- | --- | --- |"
for f in "$@"; do
  if ! "$opt" "$f" --attic-cuda-pipeline="$options" \
      --mlir-print-ir-after=attic-gpu-merge-chains -o /dev/null 2> "$mapped"; then
    echo "| $(basename "$f") | lowering failed | |"
    continue
  fi
  # A launch line names its six sizes as SSA values; a one-thread kernel's
  # are all constants 1 (arith.constant 1 : index, printed as %c1 or %c1_N).
  awk -v name="$(basename "$f")" '
    /arith.constant 1 : index/ { split($1, v, " "); one[v[1]] = 1 }
    /gpu.launch / {
      kernels++
      n = split($0, parts, /= /); ones = 0
      for (i = 2; i <= n; i++) {
        split(parts[i], w, /[,)]/)
        if (w[1] in one) ones++
      }
      if (ones == 6) single++
    }
    END { printf "| %s | %d | %d |\n", name, kernels, single + 0 }
  ' "$mapped"
done
