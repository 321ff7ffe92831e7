"""Which cleanups between attic-cuda-pipeline's passes change a kernel's PTX.

usage: cleanup_bisect.py KERNEL OPTIONS SET...
  KERNEL   a kernel of test/Conversion/Inputs/cuda_configs.mlir, e.g.
           f16_d64_dense_kernel
  OPTIONS  attic-cuda-pipeline's options; format=isa is added
  SET      where to insert canonicalize,cse: "none", "all", pass indices
           "36,42" or ranges "33:46" (end excluded), as --list numbers them
  --list   prints the pipeline's top-level passes with their indices

For each SET: the kernel's PTX lines and its ex2, selp and wgmma.mma_async
instructions (counts in the code, not executed; no GPU needed). Run from
the repository root after scripts/setup.sh, with Debian's python3. Used for
bench/results/cuda/inline-kernel-constants-static.md, e.g.
  cleanup_bisect.py f16_d64_dense_kernel "chip=sm_90a wgmma=true \\
    kv-stages=2 wgmma-overlap=true tma=true warp-specialize=true \\
    ping-pong=true" none all 36 42 36,42
"""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OPT = os.path.join(ROOT, "build", "tools", "attic-opt")
CONFIGS = os.path.join(ROOT, "test", "Conversion", "Inputs", "cuda_configs.mlir")
EXTRACT = os.path.join(ROOT, "test", "Conversion", "Inputs", "cuda_extract_binary.py")
sys.path.insert(0, os.path.join(ROOT, "test", "Integration", "Inputs"))
from interleave_pipeline import pipeline_passes  # noqa: E402


def parse_set(spec, count):
    if spec == "none":
        return set()
    if spec == "all":
        return set(range(count))
    chosen = set()
    for part in spec.split(","):
        if ":" in part:
            lo, hi = part.split(":")
            chosen.update(range(int(lo), int(hi)))
        else:
            chosen.add(int(part))
    return chosen


def measure(passes, after, kernel):
    out = []
    for i, p in enumerate(passes):
        out.append(p)
        if i in after:
            out += ["canonicalize", "cse"]
    compiled = subprocess.run(
        [OPT, CONFIGS, "--pass-pipeline=builtin.module(" + ",".join(out) + ")"],
        capture_output=True, text=True)
    if compiled.returncode:
        return "error: " + compiled.stderr.strip().splitlines()[0]
    ptx = subprocess.run([sys.executable, EXTRACT, kernel], input=compiled.stdout,
                         capture_output=True, text=True).stdout
    if not ptx:
        return "error: no PTX for " + kernel
    return "lines=%d ex2=%d selp=%d wgmma=%d" % (
        len(ptx.splitlines()), ptx.count("ex2."), ptx.count("selp."),
        ptx.count("wgmma.mma_async"))


def main():
    args = sys.argv[1:]
    if len(args) < 2:
        sys.exit(__doc__)
    kernel, options, sets = args[0], args[1], args[2:]
    try:
        passes = pipeline_passes("attic-cuda-pipeline", "format=isa " + options,
                                 OPT)
    except subprocess.CalledProcessError as e:
        said = [line for line in (e.stderr or "").splitlines()
                if "error:" in line]
        sys.exit("cleanup_bisect.py: attic-cuda-pipeline{%s}: %s" %
                 (options, said[0] if said else "attic-opt failed"))
    if "--list" in sets:
        for i, p in enumerate(passes):
            print(i, p[:100])
        return
    for spec in sets:
        print(spec, measure(passes, parse_set(spec, len(passes)), kernel),
              flush=True)


main()
