#!/usr/bin/env bash
# The main job: build attic, compile examples/attention.mlir (B=1, H=4,
# N=4096, D=64) and run it on the CPU, causal and not, printing the error
# against the reference semantics and the time; run one VCC layer
# (examples/vcc_layer.mlir) against its reference, on the CPU and through
# the CUDA pipeline's GPU mapping (emulated on the CPU); three sparse layouts
# (a causal sliding window, document masking over packed sequences, BigBird)
# against the reference; the f16 sliding window through the tensor-core
# kernel in the GPU simulator; and, where the runtime finds a CUDA device,
# the f16 attention, the sliding window and the VCC layer on the GPU.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
for entry in attention_f32 attention_f32_causal; do
  ./build/tools/attic-run examples/attention.mlir --entry="$entry" --check --bench=3
done
vcc_args=(--entry=vcc_layer --check --seed=1 --mask-keep=0.9
          --mask-keep-arg=1:0.04 --range-lo=-0.5 --range-hi=0.5)
./build/tools/attic-run examples/vcc_layer.mlir "${vcc_args[@]}"
./build/tools/attic-run examples/vcc_layer.mlir "${vcc_args[@]}" --target=cuda-emulated
./build/tools/attic-run examples/sliding_window.mlir --entry=sliding_window --check --bench=3
./build/tools/attic-run examples/documents.mlir --entry=documents_causal --check --bench=3
./build/tools/attic-run examples/bigbird.mlir --entry=bigbird --check
./build/tools/attic-run examples/sliding_window.mlir --entry=sliding_window_f16 \
    --target=cuda-simulated --check
if ./build/runtime/attic-cuda-info >/dev/null 2>&1; then
  ./build/tools/attic-run examples/attention.mlir --entry=attention_f16 \
      --target=cuda --check --bench=10
  ./build/tools/attic-run examples/sliding_window.mlir --entry=sliding_window_f16 \
      --target=cuda --check --bench=10
  ./build/tools/attic-run examples/vcc_layer.mlir "${vcc_args[@]}" --target=cuda
else
  echo "no CUDA device: $(./build/runtime/attic-cuda-info 2>&1 | head -1)"
fi
