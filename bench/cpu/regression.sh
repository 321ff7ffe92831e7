#!/usr/bin/env bash
# bench/cpu/regression.sh: the CPU attention of this checkout against the
# one of a base commit (default d53d9f8, main before the shared tile loop),
# side by side in one run: attic-bench-attention of each build, alternated
# --rounds times on the same inputs (seeded), dense and causal, f32, B=1,
# H=8, D=64, with OpenBLAS sgemm 4096^3 GFLOP/s measured in each run as the
# practical peak. Reports, per N and causal setting, the best median of the
# rounds for both builds, their ratio (base time / new time, > 1: faster)
# and the new build's GFLOP/s as a share of the sgemm GFLOP/s of its runs.
#
#   bench/cpu/regression.sh [--base=COMMIT | --base-bin=PATH] [--n=4096,8192]
#                           [--reps=3] [--rounds=3] [--out=bench/results/cpu_regression]
#
# --base builds COMMIT in a git worktree under /tmp (about 10 minutes on 2
# cores); --base-bin takes an attic-bench-attention binary built before.
set -euo pipefail
cd "$(dirname "$0")/../.."

base=d53d9f8
base_bin=""
lengths="4096,8192"
reps=3
rounds=3
out="bench/results/cpu_regression"
for arg in "$@"; do
  case "$arg" in
    --base=*) base="${arg#*=}" ;;
    --base-bin=*) base_bin="${arg#*=}" ;;
    --n=*) lengths="${arg#*=}" ;;
    --reps=*) reps="${arg#*=}" ;;
    --rounds=*) rounds="${arg#*=}" ;;
    --out=*) out="${arg#*=}" ;;
    *) echo "bench/cpu/regression.sh: error: unknown argument '$arg'" >&2; exit 2 ;;
  esac
done

./scripts/setup.sh >/dev/null
base_option="--base-bin=$base_bin"
if [[ -z $base_bin ]]; then
  base_option="--base=$base"
  tree="/tmp/attic-base-$base"
  if [[ ! -x $tree/build/bench/attention_cpu/attic-bench-attention ]]; then
    rm -rf "$tree"
    git worktree add --force --detach "$tree" "$base"
    (cd "$tree" && cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 >/dev/null &&
     cmake --build build --target attic-bench-attention)
  fi
  base_bin="$tree/build/bench/attention_cpu/attic-bench-attention"
fi
new_bin=./build/bench/attention_cpu/attic-bench-attention

if grep -qw avx512f /proc/cpuinfo; then
  export OPENBLAS_CORETYPE=SkylakeX
elif grep -qw avx2 /proc/cpuinfo; then
  export OPENBLAS_CORETYPE=Haswell
fi
export KMP_BLOCKTIME=0
# Both builds with the same heap policy (freed memory stays in the process,
# as attic_retain_heap sets it in the new build's tools): the comparison is
# of the compiled code, not of page faults.
export GLIBC_TUNABLES=glibc.malloc.mmap_threshold=1073741824:glibc.malloc.trim_threshold=1073741824

mkdir -p "$out"
raw="$out/raw.txt"
{
  echo "# bench/cpu/regression.sh $base_option --n=$lengths --reps=$reps --rounds=$rounds"
  echo "# base: $base_bin; new: $(git rev-parse --short HEAD)"
  echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(nproc) cores"
} > "$raw"
for ((r = 1; r <= rounds; ++r)); do
  for which in base new; do
    bin=$base_bin
    [[ $which == new ]] && bin=$new_bin
    "$bin" --heads=8 --d=64 --n="$lengths" --reps="$reps" --naive-max-n=0 \
        --sgemm-n=4096 --csv="$out/$which-$r.csv" > "$out/$which-$r.txt"
    sgemm=$(sed -n 's/^openblas sgemm [0-9]*^3: \([0-9.]*\) GFLOP\/s$/\1/p' "$out/$which-$r.txt")
    echo "round $r $which sgemm $sgemm" >> "$raw"
    tail -n +2 "$out/$which-$r.csv" | sed "s/^/round $r $which /" >> "$raw"
  done
done

/usr/bin/python3 - "$out" "$rounds" <<'EOF'
import csv, sys
out, rounds = sys.argv[1], int(sys.argv[2])
best = {}
sgemm = {"base": [], "new": []}
for r in range(1, rounds + 1):
    for which in ("base", "new"):
        for line in open(f"{out}/{which}-{r}.txt"):
            if line.startswith("openblas sgemm"):
                sgemm[which].append(float(line.split(":")[1].split()[0]))
        with open(f"{out}/{which}-{r}.csv") as f:
            for row in csv.DictReader(f):
                key = (int(row["n"]), row["causal"], which)
                ms, gf = float(row["attic_ms"]), float(row["attic_gflops"])
                if key not in best or ms < best[key][0]:
                    best[key] = (ms, gf)
peak = max(sgemm["new"])
lines = [f"sgemm 4096^3 GFLOP/s of the runs: base {sgemm['base']}, new {sgemm['new']}",
         "best median of the rounds (ms); base/new > 1: the new build is faster;",
         "new GF / sgemm: the new build's GFLOP/s over the best sgemm GFLOP/s of its runs",
         f"{'N':>6} {'causal':>6} {'base_ms':>9} {'new_ms':>9} {'base/new':>9} {'new_GF':>8} {'new_GF/sgemm':>13}"]
rows = []
for (n, causal, which) in sorted(best):
    if which != "new":
        continue
    b, nw = best[(n, causal, "base")], best[(n, causal, "new")]
    rows.append((n, causal, b[0], nw[0], b[0] / nw[0], nw[1], nw[1] / peak))
    lines.append(f"{n:>6} {causal:>6} {b[0]:>9.1f} {nw[0]:>9.1f} {b[0]/nw[0]:>9.2f} {nw[1]:>8.1f} {nw[1]/peak:>12.0%}")
with open(f"{out}/summary.csv", "w") as f:
    f.write("n,causal,base_ms,new_ms,base_over_new,new_GF,new_GF_over_sgemm\n")
    for row in rows:
        f.write("%d,%s,%.3f,%.3f,%.3f,%.2f,%.3f\n" % row)
open(f"{out}/summary.txt", "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
EOF
echo "results in $out"
