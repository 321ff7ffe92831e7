#!/usr/bin/env bash
# The main job: build attic, compile examples/attention.mlir (B=1, H=4,
# N=4096, D=64) and run it on the CPU, causal and not, printing the error
# against the reference semantics and the time.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
for entry in attention_f32 attention_f32_causal; do
  ./build/tools/attic-run examples/attention.mlir --entry="$entry" --check --bench=3
done
