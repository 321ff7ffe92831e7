#!/usr/bin/env bash
# bench/cpu: attic's CPU attention side by side with an OpenBLAS-sgemm-based
# attention and PyTorch CPU eager attention, on the same inputs, in one run;
# plus OpenBLAS sgemm GFLOP/s on a 4096^3 GEMM as the machine's practical
# peak. Dense f32, B=1, H=8, D=64, causal and not.
#
#   bench/cpu/run.sh [--threads=1,2] [--n=1024,2048,4096,8192,16384]
#                    [--reps=3] [--out=bench/results/cpu]
#                    [--torch=eager|sdpa] [--python=/usr/bin/python3]
#                    [--no-setup]
#
# --torch=sdpa times PyTorch 2.x's scaled_dot_product_attention (its CPU
# flash kernel) instead of the eager form; --python names the interpreter
# with that torch; --no-setup uses build/ as it is (the GPU machines: no
# LLVM 22 to build with; bench/cuda/device.sh cpu).
#
# For each thread count T (attic via OMP_NUM_THREADS, OpenBLAS via
# OPENBLAS_NUM_THREADS, torch via torch.set_num_threads) it writes
# OUT/threads-T/{attic.txt,attic.csv,torch.txt,torch.csv,summary.csv,
# summary.txt}, and OUT/scaling.txt compares attic's times across T.
# Installs what it needs (scripts/setup.sh, then python3-torch) first.
set -euo pipefail
cd "$(dirname "$0")/../.."

threads="1,$(nproc)"
lengths="1024,2048,4096,8192,16384"
reps=3
out="bench/results/cpu"
impl=eager
python=/usr/bin/python3
setup=1
for arg in "$@"; do
  case "$arg" in
    --torch=*) impl="${arg#*=}" ;;
    --python=*) python="${arg#*=}" ;;
    --no-setup) setup=0 ;;
    --threads=*) threads="${arg#*=}" ;;
    --n=*) lengths="${arg#*=}" ;;
    --reps=*) reps="${arg#*=}" ;;
    --out=*) out="${arg#*=}" ;;
    *) echo "bench/cpu/run.sh: error: unknown argument '$arg'" >&2; exit 2 ;;
  esac
done

if [[ $setup == 1 ]]; then
  ./scripts/setup.sh
fi
if [[ $python == /usr/bin/python3 ]] && ! /usr/bin/python3 -c "import torch" 2>/dev/null; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update
  $SUDO apt-get install -y --no-install-recommends python3-torch
fi

# Debian's OpenBLAS misdetects these virtual CPUs ("Prescott", SSE3 kernels);
# name the core that matches the host so that the baseline is honest.
if grep -qw avx512f /proc/cpuinfo; then
  export OPENBLAS_CORETYPE=SkylakeX
elif grep -qw avx2 /proc/cpuinfo; then
  export OPENBLAS_CORETYPE=Haswell
fi
# libomp's workers sleep at once after a parallel region, so that they do
# not spin on the cores while OpenBLAS or torch run.
export KMP_BLOCKTIME=0

# A failed check (attic against OpenBLAS, torch against attic) fails the
# run at the end, after every thread count.
failed=0
inputs="$(mktemp -d)"
trap 'rm -rf "$inputs"' EXIT
mkdir -p "$out"
: > "$out/scaling.txt"
IFS=, read -ra thread_counts <<< "$threads"
for t in "${thread_counts[@]}"; do
  dir="$out/threads-$t"
  mkdir -p "$dir"
  echo "== $t thread(s)"
  OMP_NUM_THREADS="$t" OPENBLAS_NUM_THREADS="$t" \
    ./build/bench/attention_cpu/attic-bench-attention --heads=8 --d=64 \
      --n="$lengths" --reps="$reps" --naive-max-n=0 --sgemm-n=4096 \
      --save-dir="$inputs" --csv="$dir/attic.csv" | tee "$dir/attic.txt" \
    || failed=1
  OPENBLAS_NUM_THREADS="$t" "$python" bench/cpu/torch_attention.py \
    --dir="$inputs" --n="$lengths" --threads="$t" --reps="$reps" \
    --impl="$impl" --csv="$dir/torch.csv" | tee "$dir/torch.txt"
  sgemm="$(sed -n 's/^openblas sgemm [0-9]*^3: \([0-9.]*\) GFLOP\/s$/\1/p' "$dir/attic.txt")"
  "$python" bench/cpu/merge.py --attic="$dir/attic.csv" \
    --torch="$dir/torch.csv" --sgemm="$sgemm" --out="$dir/summary.csv" \
    | tee "$dir/summary.txt" || failed=1
  if "$python" -c "import matplotlib" 2>/dev/null; then
    "$python" bench/plot.py "$dir/summary.csv"
  else
    echo "no matplotlib for $python: run bench/plot.py on $dir/summary.csv"
  fi
  rm -f "$inputs"/*.npy
done

# Thread scaling of attic: time with the first thread count / time with each.
first="${thread_counts[0]}"
{
  echo "attic time with $first thread(s) / time with T threads (same N, causal)"
  for t in "${thread_counts[@]}"; do
    paste -d, <(tail -n +2 "$out/threads-$first/attic.csv") \
              <(tail -n +2 "$out/threads-$t/attic.csv") |
      awk -F, -v t="$t" -v cols="$(head -1 "$out/threads-$first/attic.csv" | tr , '\n' | wc -l)" \
        '{ printf "T=%s N=%s causal=%s: %.2fx\n", t, $3, $5, $9 / $(cols + 9) }'
  done
} | tee "$out/scaling.txt"
echo "results in $out"
if [[ $failed != 0 ]]; then
  echo "run.sh: a check failed (the rows marked in attic.txt or summary.txt)" >&2
  exit 1
fi
