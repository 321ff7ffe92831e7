# bench/cpu/common.sh: sourced by the bench/cpu scripts that time
# attic-run functions (layouts.sh, modifiers.sh, cst.sh), from the
# repository root.

# bench_prepare OUT: builds attic (scripts/setup.sh), sets one OpenMP policy
# for every timed call (KMP_BLOCKTIME=0: idle threads sleep at once, so
# consecutive runs do not compete with spinning workers), creates OUT, and
# sets $work to a scratch directory removed at exit.
bench_prepare() {
  ./scripts/setup.sh >/dev/null
  export KMP_BLOCKTIME=0
  mkdir -p "$1"
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
}

# bench_machine: the date, CPU, cores and OMP_NUM_THREADS, for raw.txt headers.
bench_machine() {
  echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(nproc) cores, OMP_NUM_THREADS=${OMP_NUM_THREADS:-all}"
}

# bench_ms FILE REPS [attic-run options...]: the median time in ms of
# `attic-run FILE --entry=f --bench=REPS` (the function is @f).
bench_ms() {
  local file=$1 reps=$2
  shift 2
  ./build/tools/attic-run "$file" --entry=f --bench="$reps" "$@" |
    sed -n 's/^time: median \([0-9.]*\) ms.*/\1/p'
}

# bench_cst_module N L ALPHA D HEADS: prints a module whose @f is one CST
# sublayer (attic.slice_attention) on f32 x of [1, N, D] (cst.sh, cst_pool.sh).
bench_cst_module() {
  local n=$1 l=$2 a=$3 d=$4 heads=$5
  local x="tensor<1x${n}x${d}xf32>" w="tensor<${d}x${d}xf32>"
  local pl="tensor<$((a * l))x${d}xf32>" pg="tensor<$((n / l))x${d}xf32>"
  echo "func.func @f(%x: $x, %wq: $w, %wk: $w, %wv: $w, %pl: $pl, %pg: $pg) -> $x {"
  echo "  %r = attic.slice_attention %x weights(%wq, %wk, %wv) positions(%pl, %pg) {slice = $l : i64, extension = $a : i64, heads = $heads : i64}"
  echo "      : $x, $w, $pl, $pg -> $x"
  echo "  return %r : $x"
  echo "}"
}

# bench_rel_err OUT.npy EXACT.npy: ||o - e||_F / ||e||_F in double (NumPy;
# Debian's python3, not the pyenv one first on PATH).
bench_rel_err() {
  /usr/bin/python3 -c '
import sys, numpy as np
o = np.load(sys.argv[1]).astype(np.float64); e = np.load(sys.argv[2]).astype(np.float64)
print("%.4g" % (np.linalg.norm(o - e) / np.linalg.norm(e)))' "$1" "$2"
}

# bench_plot CSV...: a PNG of time against N next to each CSV (bench/plot.py,
# Debian's python3-matplotlib, which scripts/setup.sh installs).
bench_plot() {
  local csv
  for csv in "$@"; do
    /usr/bin/python3 bench/plot.py "$csv"
  done
}
