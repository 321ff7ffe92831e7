#!/usr/bin/env bash
# Builds attic and runs every test: GoogleTest unit tests (runtime,
# reference semantics, baselines) and the lit suite (round trip, invalid IR,
# pass outputs, execution against the reference, bad input); then the
# runtime's and the reference's unit tests under ASan and UBSan, and a
# 60 s fuzz run of the .npy reader (scripts/sanitize.sh, about 2.5 min).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
(cd build && ctest --output-on-failure -j2)
./scripts/sanitize.sh
