#!/usr/bin/env python3
"""attic's run-time block classification on a CUDA GPU against FlexAttention's create_block_mask.

Issue 13, item 3: the compiled step that classifies the 128x128 blocks of a
mask and returns the block lists (the analogue of create_block_mask), for
16 packed documents of N / 16 tokens (visible: doc[q] == doc[k]), B = H = 1:
  attic_layout  attic.block_mask of #attic.documents (per-block id ranges);
  attic_region  attic.block_mask of a mask region doc[q] == doc[k] evaluated
                on every element, as create_block_mask does;
  flex          create_block_mask(mask_mod, 1, 1, N, N, BLOCK_SIZE=128),
                eager (_compile=False, its default) and compiled (_compile=
                True: its first call, which compiles, is not timed).
The attic modules are bench/cpu/modifiers.sh's mask_layout and mask_region
(--emit), compiled by build/tools/attic-run --target=cuda; their times are
the medians of --bench: the kernels' (CUDA events around each launch) and
the call's wall clock (with the stream set-up and the copy of the lists to
the host). create_block_mask's is the median of --reps calls, each between
two CUDA events (host work included: the events wait for it), after
--warmup calls.
The lists are compared: per query block, attic's partial list against
kv_indices[:kv_num_blocks] and its full list against full_kv_indices as
sets. flex_eager_over_attic_*: create_block_mask's time over attic's wall
time (> 1: attic's step is faster). Writes block_mask.{csv,md} to --out;
exits 1 if a list differs or attic-run failed.

First run on an H100 on 2026-11-26 (bench/cuda/device.sh blockmask;
bench/results/cuda/h100-2026-11-26/block_mask.md).
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

import numpy as np
import torch

from bench import event_median_ms, parse_list


def attic_step(args, work, variant, n):
    """(median kernel ms, median wall ms, [partial count, partial idx, full
    count, full idx])."""
    module = subprocess.run(["bash", "bench/cpu/modifiers.sh",
                             "--emit=%s:%d" % (variant, n)],
                            stdout=subprocess.PIPE, check=True,
                            universal_newlines=True).stdout
    path = os.path.join(work, "%s.mlir" % variant)
    with open(path, "w") as f:
        f.write(module)
    outs = [os.path.join(work, "%s-%d.npy" % (variant, i)) for i in range(4)]
    try:
        proc = subprocess.run([args.attic_run, path, "--entry=f", "--target=cuda",
                               "--bench=%d" % args.reps] + ["--output=" + o for o in outs],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              universal_newlines=True, timeout=300)
    except subprocess.TimeoutExpired:
        print("attic-run timed out after 300 s", file=sys.stderr)
        return None, None, None
    kernel = re.search(r"kernel time: median ([0-9.]+) ms", proc.stdout)
    wall = re.search(r"^time: median ([0-9.]+) ms", proc.stdout, re.M)
    if proc.returncode != 0 or not kernel or not wall:
        print(proc.stdout, file=sys.stderr)
        return None, None, None
    return float(kernel.group(1)), float(wall.group(1)), [np.load(o) for o in outs]


def same_lists(attic, bm):
    """attic's (count, idx, full count, full idx) against a BlockMask."""
    flex = [t.cpu().numpy() for t in (bm.kv_num_blocks, bm.kv_indices,
                                      bm.full_kv_num_blocks, bm.full_kv_indices)]
    for c, i in ((0, 1), (2, 3)):
        for qb in range(attic[c].shape[-1]):
            a = set(attic[i][0, 0, qb, :attic[c][0, 0, qb]].tolist())
            f = set(flex[i][0, 0, qb, :flex[c][0, 0, qb]].tolist())
            if a != f:
                return False
    return True


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--attic-run", default="build/tools/attic-run")
    ap.add_argument("--n", default="4096,8192,16384,32768")
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--out", default=".")
    args = ap.parse_args()

    from torch.nn.attention.flex_attention import create_block_mask
    dev = torch.cuda.get_device_name()
    header = ("# %s, torch %s, CUDA %s, %s\n# 16 documents, B=H=1, 128x128 blocks\n"
              % (dev, torch.__version__, torch.version.cuda,
                 time.strftime("%Y-%m-%d %H:%M:%S")))
    print(header, end="", flush=True)
    work = tempfile.mkdtemp(prefix="attic-block-mask-")
    rows, bad = [], False
    for n in parse_list(args.n):
        ids = torch.arange(n, device="cuda") // (n // 16)
        mask_mod = lambda b, h, qi, ki: ids[qi] == ids[ki]
        row = {"N": n}
        lists = {}
        for variant in ("mask_layout", "mask_region"):
            name = variant.replace("mask", "attic")
            row[name + "_ms"], row[name + "_wall_ms"], lists[variant] = \
                attic_step(args, work, variant, n)
        for compiled in (False, True):
            make = lambda: create_block_mask(mask_mod, 1, 1, n, n, device="cuda",
                                             BLOCK_SIZE=128, _compile=compiled)
            bm = make()  # compiles when _compile=True
            row["flex_%s_ms" % ("compiled" if compiled else "eager")] = \
                event_median_ms(make, args.warmup, args.reps)
        for variant, got in lists.items():
            ok = got is not None and same_lists(got, bm)
            row[variant.replace("mask", "attic") + "_lists"] = "same" if ok else "DIFFER"
            bad |= not ok
        for variant in ("attic_layout", "attic_region"):
            ms = row[variant + "_wall_ms"]
            row["flex_eager_over_" + variant] = row["flex_eager_ms"] / ms if ms else None
        rows.append(row)
        print(row, flush=True)
    cols = ["N", "attic_layout_ms", "attic_layout_wall_ms", "attic_region_ms",
            "attic_region_wall_ms", "flex_eager_ms",
            "flex_compiled_ms", "flex_eager_over_attic_layout",
            "flex_eager_over_attic_region", "attic_layout_lists",
            "attic_region_lists"]
    fmt = lambda x: "-" if x is None else ("%.4g" % x if isinstance(x, float) else str(x))
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "block_mask.csv"), "w") as f:
        f.write(header + ",".join(cols) + "\n")
        for r in rows:
            f.write(",".join(fmt(r.get(c)) for c in cols) + "\n")
    table = header + "| " + " | ".join(cols) + " |\n|" + "---|" * len(cols) + "\n"
    for r in rows:
        table += "| " + " | ".join(fmt(r.get(c)) for c in cols) + " |\n"
    with open(os.path.join(args.out, "block_mask.md"), "w") as f:
        f.write(table)
    print(table)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
