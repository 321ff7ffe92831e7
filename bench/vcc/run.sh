#!/usr/bin/env bash
# The VCC CPU benchmark (issue 3): a stack of 4 pre-LN transformer layers
# (d = 256, 4 heads, FFN 1024), dense vs VCC, timed with attic-run.
#
#   bench/vcc/run.sh [OUT_DIR]        (default bench/results/vcc)
#
# Environment: BUILD (default build), BENCH (timed runs per VCC config,
# default 3), DENSE_BENCH (default 2), VCC_NS (default "4096 16384 65536
# 131072"), DENSE_NS (default "4096 16384"; empty: no dense runs), PHASES (1: also the noattn
# and none bodies, default 1), SEED (default 3).
# OPENBLAS_CORETYPE defaults to SkylakeX (Debian's OpenBLAS misdetects
# these CPUs, see TOOLCHAIN.md) and KMP_BLOCKTIME to 0 (libomp's spinning
# threads would compete with OpenBLAS's between the loops and the GEMMs).
#
# Variants, all on the same seeded inputs (weights uniform in +-1/16):
#   dense        the 4 layers over all n tokens
#   vcc2         two-level tree, fanouts [16, n_c/16], budgets [90, 1]
#                (n_p = 64): r = 64 + (n_c/16 - 90) + 1440 rows per layer
#   vccM         C padded with invalid tokens to a power of two, fanouts of
#                16 per level, budgets [90, 16, 8, ...]: r ~ 1.7K-1.8K
# plus vcc2 at 4K with --blas=false (the GEMMs as parallel loops), and,
# with PHASES=1, each VCC tree with body=noattn (attention replaced by
# its value input) and body=none (identity layer: the VCC ops alone), so
# that attention = full - noattn and the rest of the layer = noattn - none.
# Each run records attic-run's median time, its heap report (peak bytes the
# compiled code allocated) and /usr/bin/time -v's max RSS of the process.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$ROOT/build}
OUT=${1:-$ROOT/bench/results/vcc}
BENCH=${BENCH:-3}
DENSE_BENCH=${DENSE_BENCH:-2}
VCC_NS=${VCC_NS-"4096 16384 65536 131072"}
DENSE_NS=${DENSE_NS-"4096 16384"}
PHASES=${PHASES:-1}
SEED=${SEED:-3}
# Debian's OpenBLAS misdetects these virtual CPUs; name the host's core
# (SkylakeX on a host without AVX-512 dies of an illegal instruction).
if [ -z "${OPENBLAS_CORETYPE:-}" ]; then
  if grep -qw avx512f /proc/cpuinfo; then
    export OPENBLAS_CORETYPE=SkylakeX
  elif grep -qw avx2 /proc/cpuinfo; then
    export OPENBLAS_CORETYPE=Haswell
  fi
fi
export KMP_BLOCKTIME=${KMP_BLOCKTIME:-0}
RUN="$BUILD/tools/attic-run"
GEN="$ROOT/bench/vcc/gen_stack.py"
[ -x "$RUN" ] || { echo "run.sh: $RUN not built" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "run.sh: /usr/bin/time (GNU time) is needed" >&2; exit 1; }
mkdir -p "$OUT/logs"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
RANGE="--range-lo=-0.0625 --range-hi=0.0625 --seed=$SEED"

{
  echo "date: $(date -u +%FT%TZ)"
  echo "host: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
  echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "commit: $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown) (plus the working tree)"
  echo "env: OPENBLAS_CORETYPE=$OPENBLAS_CORETYPE KMP_BLOCKTIME=$KMP_BLOCKTIME OMP_NUM_THREADS=${OMP_NUM_THREADS:-unset}"
  echo "attic-run options: $RANGE --bench=$BENCH (dense: --bench=$DENSE_BENCH)"
} > "$OUT/environment.txt"

echo "variant,body,n,rows,median_ms,min_ms,max_ms,heap_peak_mib,max_rss_mib,compile_s" > "$OUT/results.csv"

run_one() { # variant body n genargs... ; bench count in $RUNS
  local variant=$1 body=$2 n=$3; shift 3
  local name="$variant-$body-$n"
  python3 "$GEN" --n="$n" --body="$body" "$@" > "$WORK/$name.mlir"
  local rows
  rows=$(sed -n 2p "$WORK/$name.mlir" | sed -E 's/.*rows=([0-9]+).*/\1/')
  echo "== $name (rows $rows)" >&2
  /usr/bin/time -v "$RUN" "$WORK/$name.mlir" $RANGE --bench="$RUNS" ${RUN_EXTRA:-} \
      > "$OUT/logs/$name.log" 2>&1 || { echo "run.sh: $name failed, see $OUT/logs/$name.log" >&2; return 1; }
  head -2 "$WORK/$name.mlir" >> "$OUT/logs/$name.log"
  python3 - "$OUT/logs/$name.log" "$variant" "$body" "$n" "$rows" >> "$OUT/results.csv" <<'PY'
import re, sys
log, variant, body, n, rows = sys.argv[1:]
text = open(log).read()
t = re.search(r"time: median ([0-9.]+) ms over \d+ runs \(min ([0-9.]+), max ([0-9.]+)\)", text)
heap = re.search(r"heap: peak ([0-9.]+) MiB", text)
rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", text)
comp = re.search(r"compiled for the CPU in ([0-9.]+) s", text)
print(f"{variant},{body},{n},{rows},{t[1]},{t[2]},{t[3]},{heap[1]},{int(rss[1]) / 1024:.1f},{comp[1]}")
PY
  tail -1 "$OUT/results.csv" >&2
}

bodies="full"
[ "$PHASES" = 1 ] && bodies="full noattn none"
RUNS=$BENCH
for n in $VCC_NS; do
  for body in $bodies; do
    run_one vcc2 "$body" "$n" --variant=vcc
    run_one vccM "$body" "$n" --variant=vcc --tree=multi
  done
done
# The GEMMs as loops (attic-cpu-pipeline{blas=false}) once, for scale.
RUN_EXTRA=--blas=false run_one vcc2-loops full 4096 --variant=vcc
RUNS=$DENSE_BENCH
for n in $DENSE_NS; do
  run_one dense full "$n" --variant=dense
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$OUT/environment.txt"

python3 "$ROOT/bench/vcc/table.py" "$OUT/results.csv" > "$OUT/results.md"
/usr/bin/python3 "$ROOT/bench/plot.py" "$OUT/results.csv"
cat "$OUT/results.md"
