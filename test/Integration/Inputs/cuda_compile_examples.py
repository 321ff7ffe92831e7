#!/usr/bin/env python3
"""Compiles every public function of examples/*.mlir for --target=cuda.

Runs `attic-run FILE --entry=NAME --target=cuda` for each, against the fake
CUDA driver (ATTIC_CUDA_DRIVER and ATTIC_FAKE_CUDA_MODE=device come from the
lit test), whose driver rejects every kernel image: a run that gets as far
as loading the kernels has lowered the entry through attic-cuda-pipeline
and JIT-compiled its host code. Any other outcome is reported, with the
last line attic-run printed, and fails the test (status 1).

Usage: cuda_compile_examples.py ATTIC_RUN EXAMPLES_DIR
"""
import glob
import os
import re
import subprocess
import sys

LOADED = "loading the CUDA kernels failed"


def main():
    attic_run, examples = sys.argv[1], sys.argv[2]
    failures, count = [], 0
    for path in sorted(glob.glob(os.path.join(examples, "*.mlir"))):
        with open(path) as f:
            names = re.findall(r"^func\.func @([A-Za-z0-9_]+)\(", f.read(), re.M)
        for name in names:
            count += 1
            proc = subprocess.run(
                [attic_run, path, "--entry=" + name, "--target=cuda"],
                stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                universal_newlines=True, timeout=300)
            lines = proc.stdout.strip().splitlines()
            if proc.returncode == 0 or not lines or LOADED not in lines[-1]:
                failures.append("%s @%s: exit %d: %s" % (
                    os.path.basename(path), name, proc.returncode,
                    lines[-1] if lines else "(no output)"))
    for failure in failures:
        print("FAILED: " + failure)
    print("compiled for CUDA: %d of %d example entries" %
          (count - len(failures), count))
    return 1 if failures or count == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
