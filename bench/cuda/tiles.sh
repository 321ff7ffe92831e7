#!/usr/bin/env bash
# attic's tensor-core attention kernel over its tile sizes (attic-cuda-pipeline
# block-q x block-k), fp16, B=2 H=8, N and D from the arguments, dense and
# causal: kernel time (CUDA events, median of 20) per tile, on the GPU.
# Usage (on a GPU machine, after bench/cuda/device.sh has unpacked the
# bundle): bench/cuda/tiles.sh [N] [D...]
set -uo pipefail
cd "$(dirname "$0")/../.."
export LD_LIBRARY_PATH=/usr/lib/llvm-22/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
n=${1:-8192}; shift || true
dims=${*:-64 128}
work=$(mktemp -d)
for d in $dims; do
  s="2x8x${n}x${d}"
  for c in "" " causal"; do
    cat > "$work/a.mlir" <<MLIR
func.func @a(%q: tensor<${s}xf16>, %k: tensor<${s}xf16>, %v: tensor<${s}xf16>) -> tensor<${s}xf16> {
  %o = attic.attention %q, %k, %v${c} : tensor<${s}xf16>, tensor<${s}xf16>, tensor<${s}xf16> -> tensor<${s}xf16>
  return %o : tensor<${s}xf16>
}
MLIR
    for bq in 64 128; do
      for bk in 32 64 128; do
        line=$(build/tools/attic-run "$work/a.mlir" --entry=a --target=cuda --bench=20 \
                 --block-q=$bq --block-k=$bk 2>&1 | grep -E "kernel time|error" | head -1)
        echo "N=$n D=$d${c:- dense} block-q=$bq block-k=$bk: $line"
      done
    done
  done
done
