#!/usr/bin/env bash
# Static figures of the tensor-core kernels, no GPU needed: for each kernel
# of test/Conversion/Inputs/cuda_configs.mlir, ptxas -v's registers,
# spills and shared memory (sm_80 and sm_90), and the number of global
# loads, shared-memory loads and stores (of them 16-byte, .v4.b32),
# ldmatrix, cp.async (global to shared copies; cp.async.wait_group),
# mma.sync and wgmma.mma_async instructions in the first chip's PTX.
#
#   bench/cuda/ptx_static.sh [OUT_DIR]    (default /tmp/attic-ptx-static)
#
# ATTIC_CUDA_OPTIONS adds options to attic-cuda-pipeline (e.g.
# "kv-stages=2" for the kernels with two-slot K/V rings); ATTIC_CUDA_CHIPS
# lists the chips (default "sm_80 sm_90"; "sm_90a" with "wgmma=true").
#
# Needs build/ (scripts/setup.sh) and ptxas (/usr/local/cuda/bin, or
# $CUDA_HOME/bin). These are counts of instructions in the code, not of
# instructions executed, and say nothing about time.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-/tmp/attic-ptx-static}
ptxas=${CUDA_HOME:-/usr/local/cuda}/bin/ptxas
[[ -x $ptxas ]] || { echo "ptx_static.sh: no ptxas at $ptxas" >&2; exit 1; }
mkdir -p "$out"
configs=test/Conversion/Inputs/cuda_configs.mlir
kernels=$(grep -oE '^func\.func @[a-z0-9_]+' "$configs" | sed 's/.*@//')
read -r -a chips <<< "${ATTIC_CUDA_CHIPS:-sm_80 sm_90}"
for chip in "${chips[@]}"; do
  build/tools/attic-opt "$configs" \
    --attic-cuda-pipeline="chip=$chip format=isa ${ATTIC_CUDA_OPTIONS:-}" \
    -o "$out/$chip.mlir"
done
# Instructions of the current kernel's PTX ($ptx) that start with $1.
count() { grep -cE "^\s+$1" "$ptx" || true; }
joined=$(printf ' / %s' "${chips[@]}")
joined=${joined:3}
printf '| kernel | registers %s | spill stores %s | smem bytes | ld.global (16-byte) | ld.shared | ldmatrix | st.shared (16-byte) | cp.async (wait_group) | mma.sync | wgmma |\n' "$joined" "$joined"
printf '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n'
for k in $kernels; do
  regs=() spills=() smem=
  for chip in "${chips[@]}"; do
    ptx=$out/$k.$chip.ptx
    /usr/bin/python3 test/Conversion/Inputs/cuda_extract_binary.py \
      "${k}_kernel" < "$out/$chip.mlir" > "$ptx"
    v=$("$ptxas" -arch=$chip -v "$ptx" -o /dev/null 2>&1)
    regs+=("$(grep -oE 'Used [0-9]+ registers' <<< "$v" | grep -oE '[0-9]+')")
    spills+=("$(grep -oE '[0-9]+ bytes spill stores' <<< "$v" | grep -oE '^[0-9]+')")
    smem=$(grep -oE '[0-9]+ bytes smem' <<< "$v" | grep -oE '^[0-9]+')
  done
  ptx=$out/$k.${chips[0]}.ptx
  r=$(printf ' / %s' "${regs[@]}")
  sp=$(printf ' / %s' "${spills[@]}")
  printf '| %s | %s | %s | %s | %s (%s) | %s | %s | %s (%s) | %s (%s) | %s | %s |\n' \
    "$k" "${r:3}" "${sp:3}" "$smem" \
    "$(count 'ld\.global')" "$(count 'ld\.global\.v4')" \
    "$(count 'ld\.shared')" "$(count ldmatrix)" "$(count 'st\.shared')" \
    "$(count 'st\.shared\.v4')" "$(count 'cp\.async\.c[ag]\.')" \
    "$(count 'cp\.async\.wait_group')" "$(count 'mma\.sync')" \
    "$(grep -cE 'wgmma\.mma_async' "$ptx" || true)"
done
