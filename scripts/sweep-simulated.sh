#!/usr/bin/env bash
# Random configurations of the tensor-core kernel in the GPU simulator,
# each run against the reference (--check) with the options BASE (default
# "--wgmma --kv-stages=2") and with BASE plus EXTRA (default
# "--wgmma-overlap": the deferred P V); a configuration counts as changed
# where the two runs differ in their wgmma or barrier counts (with the
# overlap: its extra P V; with --kv-stages=3: fewer barriers). No GPU
# needed; about 0.5 s a configuration.
#
#   scripts/sweep-simulated.sh [COUNT]      (SEED=N picks another sequence)
#   BASE="--wgmma --kv-stages=2 --wgmma-overlap" EXTRA="--kv-stages=3" ...
#
# Needs build/ (scripts/setup.sh). Exit status 1 if any run failed.
set -uo pipefail
cd "$(dirname "$0")/../test/Integration"
export PATH=$PWD/../../build/tools:$PATH
RANDOM=${SEED:-42}
entries=(cuda-attention.mlir:f16_d64 cuda-attention.mlir:f16_d128_causal cuda-attention.mlir:bf16_d64_causal cuda-attention.mlir:bf16_d128 cuda-attention.mlir:f16_tails cuda-attention.mlir:f16_tails_causal cuda-attention.mlir:bf16_cross_lengths cuda-attention.mlir:f16_bias_mask cuda-attention.mlir:bf16_bias_per_batch_causal layouts-tc.mlir:dilated_causal_bf16 layouts-tc.mlir:strided_fixed_f16 layouts-tc.mlir:global_sinks_bf16 layouts-tc.mlir:documents_gqa_bf16 layouts-tc.mlir:random_blocks_f16 layouts-tc.mlir:more_queries_than_keys_f16 layouts-tc.mlir:mask_bias_layout_bf16 layouts-tc.mlir:random_blocks_d128_bf16 layouts.mlir:bigbird_f16 Inputs/modifiers-small.mlir:alibi_f16 Inputs/modifiers-small.mlir:window_softcap_f16 cuda-simulated-wgmma-shapes.mlir:dv128_f16 cuda-simulated-wgmma-shapes.mlir:d128_dv64_bf16)
bqs=(64 128); bks=(16 32 48 64 80 96 112 128)
ok=0; bad=0; deferred=0
for i in $(seq 1 ${1:-40}); do
  e=${entries[$((RANDOM % ${#entries[@]}))]}; f=${e%%:*}; n=${e##*:}
  bq=${bqs[$((RANDOM % 2))]}; bk=${bks[$((RANDOM % 8))]}; seed=$((RANDOM % 100))
  args="$f --entry=$n --block-q=$bq --block-k=$bk --seed=$seed --mask-keep=0.$((RANDOM % 9 + 1)) --check --target=cuda-simulated"
  base=${BASE---wgmma --kv-stages=2}; extra=${EXTRA---wgmma-overlap}
  # EXTRA's --kv-stages replaces BASE's.
  [[ $extra == *--kv-stages* ]] && with=$(sed -E 's/--kv-stages=[0-9]//' <<< "$base") || with=$base
  a=$(timeout 300 attic-run $args $base 2>&1); ra=$?
  b=$(timeout 300 attic-run $args $with $extra 2>&1); rb=$?
  wa=$(grep -oE '[0-9]+ barriers.*' <<< "$a"); wb=$(grep -oE '[0-9]+ barriers.*' <<< "$b")
  wa=$(sed -E 's/[0-9]+ thread-ops//' <<< "$wa"); wb=$(sed -E 's/[0-9]+ thread-ops//' <<< "$wb")
  if [[ $rb -eq 0 && $ra -eq 0 ]]; then ok=$((ok+1)); [[ "$wa" != "$wb" ]] && deferred=$((deferred+1))
  else bad=$((bad+1)); echo "FAIL($ra,$rb): $args"; tail -1 <<< "$b"; fi
  echo "$i: $n bq=$bq bk=$bk: $wa -> $wb"
done
echo "ok=$ok bad=$bad changed=$deferred"
[[ $bad -eq 0 ]]
