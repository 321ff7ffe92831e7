#!/usr/bin/env bash
# Random code-generation options of the CPU pipeline (vector width, block
# sizes, register rows and chunks), each run against the double-precision
# reference (--check, 1e-5) on the entries of
# test/Integration/kernel-configs.mlir. The lit test runs fixed
# configurations; this looks for the ones nobody wrote down (it found the
# score and key-tile padding bugs of 2026-11-27). About 2-4 s a
# configuration on a 2-core machine.
#
#   scripts/sweep-cpu-configs.sh [COUNT]    (SEED=N picks another sequence)
#
# Needs build/ (scripts/setup.sh). Exit status 1 if any run failed.
set -uo pipefail
cd "$(dirname "$0")/../test/Integration"
export PATH=$PWD/../../build/tools:$PATH
RANDOM=${SEED:-7}
entries=(odd_dims wide_value causal_more_queries causal_more_keys
         bias_mask_causal wide_key_block wide_key_block_bias)
ok=0; bad=0
for i in $(seq 1 "${1:-40}"); do
  e=${entries[$((RANDOM % ${#entries[@]}))]}
  w=$((1 << (RANDOM % 5)))          # 1, 2, 4, 8 or 16 lanes
  bq=$((1 + RANDOM % 200)); bk=$((1 + RANDOM % 400))
  rr=$((1 + RANDOM % 6)); rc=$((1 + RANDOM % 4))
  args="kernel-configs.mlir --entry=$e --vector-width=$w --block-q=$bq --block-k=$bk --register-rows=$rr --register-chunks=$rc --check --tolerance=1e-5"
  [[ $e == bias_mask_causal ]] && args+=" --seed=9 --mask-keep=0.3"
  # 1-lane vectors: more than 256 vectors in a key block is refused.
  out=$(timeout 300 attic-run $args 2>&1); rc_=$?
  if [[ $rc_ -eq 0 ]] && grep -q ': ok' <<< "$out"; then
    ok=$((ok+1))
  elif grep -q 'at most 256 are unrolled' <<< "$out"; then
    ok=$((ok+1)); echo "$i: refused (too many vectors): $args"
  else
    bad=$((bad+1)); echo "FAIL($rc_): attic-run $args"
    grep -E 'check:|error' <<< "$out" | head -2
  fi
done
echo "ok=$ok bad=$bad"
[[ $bad -eq 0 ]]
