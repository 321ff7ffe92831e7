#!/usr/bin/env bash
# Runs attic's GPU tests and/or the GPU benchmark on a machine with an NVIDIA
# GPU but without LLVM/MLIR 22, from the bundle that bench/cuda/bundle.sh made
# (.gpubundle/ in the repository root). Run as root from the repository root:
#   bench/cuda/device.sh tests            lit tests named *cuda* (the GPU ones
#                                         included), the CUDA runtime unit tests
#                                         and the main job's GPU runs
#   bench/cuda/device.sh bench [ARGS...]  bench/cuda/bench.py ARGS
#   bench/cuda/device.sh layouts [ARGS...] bench/cuda/layouts.py ARGS (sliding
#                                         window and documents vs FlexAttention)
#   bench/cuda/device.sh all [ARGS...]    tests and bench
#   bench/cuda/device.sh tests-wgmma      the lit tests that need the GPU with
#                                         --wgmma added to each --target=cuda
#                                         run that can take it (a 9.0 GPU)
#   bench/cuda/device.sh tests-overlap    the same with --wgmma --kv-stages=2
#                                         --wgmma-overlap (the deferred P V)
#   bench/cuda/device.sh tests-tma        the same with --wgmma --kv-stages=2
#                                         --tma (TMA loads of the rings)
#   bench/cuda/device.sh tests-ws         the same with --wgmma --kv-stages=2
#                                         --tma --warp-specialize (a producer
#                                         warpgroup issues the loads)
#   bench/cuda/device.sh tests-pp         the same with --wgmma --kv-stages=2
#                                         --tma --wgmma-overlap
#                                         --warp-specialize --ping-pong
#   bench/cuda/device.sh blockmask [ARGS...] bench/cuda/block_mask.py ARGS
#                                         (attic's run-time classification
#                                         vs create_block_mask)
#   bench/cuda/device.sh streams          one stream per call against a stream
#                                         per step (attic-gpu-merge-chains
#                                         on/off), and stream-ordered device
#                                         buffers against cuMemAlloc/cuMemFree
#                                         (ATTIC_CUDA_STREAM_ORDERED=0), and
#                                         joined launches against a launch per
#                                         loop nest (fuse-launches=false) and
#                                         against neighbours in program order
#                                         only (fuse-levels=false): wall
#                                         and kernel times of the attention
#                                         and VCC layer examples
#   bench/cuda/device.sh sanitize [TOOLS...] the cuda-device lit tests with
#                                         attic-run under compute-sanitizer,
#                                         once per tool (default: memcheck
#                                         racecheck synccheck); an error fails
#                                         the test (exit 86), the reports are
#                                         in sanitize-TOOL-reports.tar.gz
#   bench/cuda/device.sh cpu [ARGS...]    the machine's CPU: attic against
#                                         PyTorch 2.x's CPU SDPA and OpenBLAS,
#                                         1 to 16 threads (bench/cpu/run.sh
#                                         --no-setup --torch=sdpa ARGS)
# Logs and results go to $OUT/MODE/ (OUT defaults to ./gpu-out), packed at
# the end into one file, $OUT/MODE.tar.gz: the device tool brings back at
# most 8 files of $OUT, and `sanitize` alone writes a report per process.
# SIGTERM still packs; a run killed with SIGKILL at the tool's limit
# leaves $OUT/MODE/ unpacked (bench.py rewrites its tables after every
# configuration; its files are at most two folders down, `cpu` mode's are
# not).
set -uo pipefail
cd "$(dirname "$0")/../.."
mode=${1:-all}; shift || true
modes="tests bench layouts all tests-wgmma tests-overlap tests-tma tests-ws tests-pp blockmask streams sanitize cpu"
if [[ " $modes " != *" $mode "* ]]; then
  echo "device.sh: unknown mode '$mode' (one of: $modes)" >&2
  exit 2
fi
dest=${OUT:-$PWD/gpu-out}
out=$dest/$mode
rm -rf "$out" "$dest/$mode.tar.gz"
mkdir -p "$out" || exit 1
# Scripts and per-process reports that need not come back as files.
scratch=$(mktemp -d) || exit 1
pack() {
  tar -C "$dest" -czf "$dest/$mode.tar.gz" "$mode" && rm -rf "$out" &&
    echo "device.sh: results in $dest/$mode.tar.gz ($(du -k "$dest/$mode.tar.gz" | cut -f1) KiB)"
  rm -rf "$scratch"
}
trap pack EXIT
export PYTHONUNBUFFERED=1

# A warm machine keeps the build unpacked by an earlier call, which may be
# an older bundle: unpack again whenever the bundle differs.
stamp=$(cat .gpubundle/build.tar.xz .gpubundle/llvm.tar.xz | cksum) || exit 1
if [[ ! -x build/tools/attic-run || "$(cat build/.gpubundle-stamp 2>/dev/null)" != "$stamp" ]]; then
  start=$(date +%s)
  tar -C / -xJf .gpubundle/llvm.tar.xz || exit 1
  tar -xJf .gpubundle/build.tar.xz || exit 1
  printf '%s\n' "$stamp" > build/.gpubundle-stamp
  echo "device.sh: bundle unpacked in $(( $(date +%s) - start )) s"
fi
export LD_LIBRARY_PATH=/usr/lib/llvm-22/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
# attic-compile links its shared libraries with -lomp (the Aot tests): the
# bundle carries libomp.so.5 alone.
[[ -e /usr/lib/llvm-22/lib/libomp.so ]] || ln -s libomp.so.5 /usr/lib/llvm-22/lib/libomp.so
# The build's lit configuration names the paths of the machine it was made on.
src=$(sed -n 's/^config.attic_src_root = "\(.*\)"/\1/p' build/test/lit.site.cfg.py)
if [[ -n "$src" && "$(realpath -m "$src")" != "$PWD" ]]; then
  mkdir -p "$(dirname "$src")" && ln -sfn "$PWD" "$src"
fi
sed -i "s|^config.python_with_numpy = .*|config.python_with_numpy = \"$(command -v python3)\"|" \
  build/test/lit.site.cfg.py
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader
build/runtime/attic-cuda-info || exit 1

# The lit tests that need the GPU, from their REQUIRES lines (they are not
# all named *cuda-device*); `tests` also runs every other *cuda* test (the
# simulator's, the pipeline's).
device_tests=$(grep -rlE '^(//|#)? *REQUIRES:.*cuda-device' test | xargs -n1 basename \
  | sed 's/\./\\./g' | sort | paste -sd'|')
gpu_tests="cuda|$device_tests"

# run_lit FILTER LOG [LIT ARGS...]: the lit tests matching FILTER, the whole
# output in $out/LOG, the result lines on stdout; a failure sets status.
run_lit() {
  local filter=$1 log=$2
  shift 2
  python3 /usr/lib/llvm-22/bin/lit -v build/test --filter "$filter" \
    --timeout="${ATTIC_LIT_TIMEOUT:-300}" "$@" 2>&1 | tee "$out/$log" \
    | grep -E '^(PASS|FAIL|UNSUPPORTED|XFAIL|UNRESOLVED|TIMEOUT)|Total|Passed|Failed|Unsupported|CUDA device' \
    || status=1
}

# write_wrapper FILE LINE: an attic-run at FILE that runs the shell line LINE
# (which ends in "$@") for --target=cuda runs and the build's attic-run
# itself for every other run.
write_wrapper() {
  printf '%s\n' '#!/usr/bin/env bash' \
    'cuda=0; prev=' \
    'for a in "$@"; do [[ $a == --target=cuda || ( $prev == --target && $a == cuda ) ]] && cuda=1; prev=$a; done' \
    "[[ \$cuda == 1 ]] || exec \"$PWD/build/tools/attic-run\" \"\$@\"" \
    "$2" > "$1"
  chmod +x "$1"
}

# run_lit_adding NAME LINE: the GPU lit tests with an attic-run that runs
# the shell line LINE (which ends in exec ... "$@") for --target=cuda runs,
# its log in $out/lit-NAME.log.
run_lit_adding() {
  local wrap=$scratch/$1-wrapper
  mkdir -p "$wrap"
  write_wrapper "$wrap/attic-run" "$2"
  run_lit "$device_tests" "lit-$1.log" --param attic_tools_prefix="$wrap"
}

status=0
if [[ $mode == tests-wgmma ]]; then
  # The GPU tests with wgmma for every --target=cuda run that can take it
  # (not with --async-copies=false or an explicit --cuda-pipeline, nor with
  # a response file @FILE, which holds one in the cleanups tests; nor
  # twice): what a default of wgmma on 9.0 devices would run. The other
  # modes below skip the same runs.
  run_lit_adding wgmma \
    "add=--wgmma; for a in \"\$@\"; do case \$a in --wgmma*|--async-copies=false|--cuda-pipeline*|@*) add= ;; esac; done; exec \"$PWD/build/tools/attic-run\" \$add \"\$@\""
fi
if [[ $mode == tests-overlap ]]; then
  # The same with the deferred P V: --wgmma --kv-stages=2 --wgmma-overlap
  # added to every --target=cuda run that can take them (not with
  # --async-copies=false, --kv-stages=1, an explicit --cuda-pipeline or
  # --wgmma-overlap already there; --wgmma not twice, and no --kv-stages
  # where the run has one).
  run_lit_adding overlap \
    "w=--wgmma; k=--kv-stages=2; o=--wgmma-overlap; for a in \"\$@\"; do case \$a in --wgmma-overlap|--async-copies=false|--kv-stages=1|--cuda-pipeline*|@*) w= k= o= ;; --wgmma) w= ;; --kv-stages=*) k= ;; esac; done; [[ -n \$o ]] || w= k=; exec \"$PWD/build/tools/attic-run\" \$w \$k \$o \"\$@\""
fi
if [[ $mode == tests-tma ]]; then
  # TMA loads: --wgmma --kv-stages=2 --tma added to every --target=cuda run
  # that can take them (not with --async-copies=false, --kv-stages=1, an
  # explicit --cuda-pipeline or --tma already there; --wgmma not twice, no
  # --kv-stages where the run has one; a run's --wgmma-overlap stays).
  run_lit_adding tma \
    "w=--wgmma; k=--kv-stages=2; t=--tma; for a in \"\$@\"; do case \$a in --tma|--async-copies=false|--kv-stages=1|--cuda-pipeline*|@*) w= k= t= ;; --wgmma) w= ;; --kv-stages=*) k= ;; esac; done; [[ -n \$t ]] || w= k=; exec \"$PWD/build/tools/attic-run\" \$w \$k \$t \"\$@\""
fi
if [[ $mode == tests-ws ]]; then
  # Warp specialization: --wgmma --kv-stages=2 --tma --warp-specialize added
  # to every --target=cuda run that can take them (as tests-tma; a run's
  # --tma takes --warp-specialize alone).
  run_lit_adding ws \
    "w=--wgmma; k=--kv-stages=2; t=--tma; s=--warp-specialize; for a in \"\$@\"; do case \$a in --warp-specialize|--async-copies=false|--kv-stages=1|--cuda-pipeline*|@*) w= k= t= s= ;; --wgmma) w= ;; --kv-stages=*) k= ;; --tma) t= ;; esac; done; [[ -n \$s ]] || w= k= t=; exec \"$PWD/build/tools/attic-run\" \$w \$k \$t \$s \"\$@\""
fi
if [[ $mode == tests-pp ]]; then
  # FlashAttention-3's schedule: --wgmma --kv-stages=2 --tma --wgmma-overlap
  # --warp-specialize --ping-pong added to every --target=cuda run that can
  # take them (not with --async-copies=false, --kv-stages=1, an explicit
  # --cuda-pipeline or --ping-pong already there; no flag twice).
  run_lit_adding pp \
    "w=--wgmma; k=--kv-stages=2; t=--tma; o=--wgmma-overlap; s=--warp-specialize; p=--ping-pong; for a in \"\$@\"; do case \$a in --ping-pong|--async-copies=false|--kv-stages=1|--cuda-pipeline*|@*) w= k= t= o= s= p= ;; --wgmma) w= ;; --kv-stages=*) k= ;; --tma) t= ;; --wgmma-overlap) o= ;; --warp-specialize) s= ;; esac; done; [[ -n \$p ]] || w= k= t= o= s=; exec \"$PWD/build/tools/attic-run\" \$w \$k \$t \$o \$s \$p \"\$@\""
fi
if [[ $mode == tests || $mode == all ]]; then
  # pipefail: the status is lit's (the summary lines always match).
  run_lit "$gpu_tests" lit-cuda.log
  for t in build/test/unittests/Runtime/AtticCudaRuntimeTests build/test/unittests/Runtime/AtticCudaAbiTests; do
    "$t" > "$out/$(basename "$t").log" 2>&1 && echo "PASS: $t" || { echo "FAIL: $t"; status=1; }
  done
  # The main job's GPU runs (scripts/run-example.sh).
  build/tools/attic-run examples/attention.mlir --entry=attention_f16 --target=cuda --check --bench=10 \
    || status=1
  build/tools/attic-run examples/vcc_layer.mlir --entry=vcc_layer --check --seed=1 --mask-keep=0.9 \
    --mask-keep-arg=1:0.04 --range-lo=-0.5 --range-hi=0.5 --target=cuda --bench=3 || status=1
fi
if [[ $mode == bench || $mode == all ]]; then
  python3 bench/cuda/bench.py --out "$out" "$@" || status=1
fi
if [[ $mode == blockmask ]]; then
  python3 bench/cuda/block_mask.py --out "$out" "$@" || status=1
fi
if [[ $mode == cpu ]]; then
  bench/cpu/run.sh --no-setup --python="$(command -v python3)" --torch=sdpa \
    --threads=1,2,4,8,16 --out="$out/cpu" "$@" || status=1
fi
run_streams() {
  # Both as PTX (format=isa, JIT-compiled by the driver for the device), so
  # that the kernels are the same and only the host's waits differ.
  local merge pipeline
  for merge in true false; do
    pipeline="attic-cuda-pipeline{format=isa merge-chains=$merge}"
    echo "== merge-chains=$merge"
    build/tools/attic-run examples/attention.mlir --entry=attention_f16 --target=cuda \
      --cuda-pipeline="$pipeline" --check --bench=20 || status=1
    build/tools/attic-run examples/vcc_layer.mlir --entry=vcc_layer --check --seed=1 \
      --mask-keep=0.9 --mask-keep-arg=1:0.04 --range-lo=-0.5 --range-hi=0.5 \
      --target=cuda --cuda-pipeline="$pipeline" --bench=10 || status=1
  done
  # One stream, with cuMemAlloc/cuMemFree (each free waits for the device).
  echo "== merge-chains=true ATTIC_CUDA_STREAM_ORDERED=0"
  ATTIC_CUDA_STREAM_ORDERED=0 build/tools/attic-run examples/vcc_layer.mlir \
    --entry=vcc_layer --check --seed=1 \
    --mask-keep=0.9 --mask-keep-arg=1:0.04 --range-lo=-0.5 --range-hi=0.5 \
    --target=cuda --cuda-pipeline="attic-cuda-pipeline{format=isa}" \
    --bench=10 || status=1
  # A launch per loop nest (71 for the layer) against independent kernels
  # joined (attic-gpu-fuse-launches, 43).
  echo "== merge-chains=true fuse-launches=false"
  build/tools/attic-run examples/vcc_layer.mlir --entry=vcc_layer --check --seed=1 \
    --mask-keep=0.9 --mask-keep-arg=1:0.04 --range-lo=-0.5 --range-hi=0.5 \
    --target=cuda --cuda-pipeline="attic-cuda-pipeline{format=isa fuse-launches=false}" \
    --bench=10 || status=1
  # Neighbours in program order only (fuse-levels=false, 52 launches)
  # against the levels of the dependence graph (43).
  echo "== merge-chains=true fuse-levels=false"
  build/tools/attic-run examples/vcc_layer.mlir --entry=vcc_layer --check --seed=1 \
    --mask-keep=0.9 --mask-keep-arg=1:0.04 --range-lo=-0.5 --range-hi=0.5 \
    --target=cuda --cuda-pipeline="attic-cuda-pipeline{format=isa fuse-levels=false}" \
    --bench=10 || status=1
  echo "== the encoder: fuse-levels=true, then false"
  for levels in true false; do
    build/tools/attic-run examples/vcc_encoder.mlir --entry=vcc_encoder --check --seed=1 \
      --mask-keep=0.9 --mask-keep-arg=1:0.04 --range-lo=-0.5 --range-hi=0.5 \
      --target=cuda --cuda-pipeline="attic-cuda-pipeline{format=isa fuse-levels=$levels}" \
      --bench=10 || status=1
  done
}
if [[ $mode == streams ]]; then
  run_streams > >(tee "$out/streams.log") 2>&1
fi
if [[ $mode == sanitize ]]; then
  cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  [[ -x $cs ]] || { echo "device.sh: no compute-sanitizer at $cs" >&2; exit 1; }
  tools=("$@")
  [[ ${#tools[@]} -gt 0 ]] || tools=(memcheck racecheck synccheck)
  for tool in "${tools[@]}"; do
    wrap=$scratch/sanitize-$tool
    mkdir -p "$wrap"
    # attic-run --target=cuda under the tool, its report in a file (stdout
    # stays the program's, for FileCheck); each run bounded in time. Runs
    # on the CPU (the --check references of the Aot tests, layouts-tc.mlir)
    # go straight to attic-run: the tool checks nothing there, and under it
    # they exited with status 255 and no output on an H100 (2026-11-26,
    # cause not established).
    write_wrapper "$wrap/attic-run" \
      "exec timeout ${ATTIC_SANITIZE_TIMEOUT:-300} \"$cs\" --tool $tool --error-exitcode 86 --print-limit 20 --log-file \"$wrap/%p.log\" \"$PWD/build/tools/attic-run\" \"\$@\""
    echo "== compute-sanitizer --tool $tool"
    run_lit "$device_tests" "sanitize-$tool.log" --param attic_tools_prefix="$wrap"
    # racecheck ends its report with "RACECHECK SUMMARY: N hazards", the
    # others with "ERROR SUMMARY: N errors".
    clean=$(grep -l -E '(ERROR SUMMARY: 0 errors|RACECHECK SUMMARY: 0 hazards)' "$wrap"/*.log 2>/dev/null | wc -l)
    dirty=$(grep -l -E '(ERROR SUMMARY|RACECHECK SUMMARY): [1-9]' "$wrap"/*.log 2>/dev/null | wc -l)
    echo "$tool: $clean runs clean, $dirty with errors"
    [[ $dirty -eq 0 ]] || status=1
    tar -C "$scratch" -czf "$out/sanitize-$tool-reports.tar.gz" "sanitize-$tool" \
      || status=1
  done
fi
if [[ $mode == layouts ]]; then
  python3 bench/cuda/layouts.py --out "$out" "$@" || status=1
fi
exit $status
