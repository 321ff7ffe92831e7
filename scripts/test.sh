#!/usr/bin/env bash
# Builds attic and runs every test: GoogleTest unit tests (runtime,
# reference semantics, baselines) and the lit suite (round trip, invalid IR,
# pass outputs, execution against the reference, bad input); then
# scripts/sanitize.sh (about four minutes): the runtime's and the
# reference's unit tests under ASan and UBSan, the three fuzz targets for
# half a minute each, and attic-opt under Valgrind.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
(cd build && ctest --output-on-failure -j2)
./scripts/sanitize.sh
