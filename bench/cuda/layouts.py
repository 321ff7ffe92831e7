#!/usr/bin/env python3
"""attic's sparse layouts on a CUDA GPU against FlexAttention with the same BlockMask.

Patterns (fp16, [B, H, N, D], causal):
  window   causal sliding window of --window keys (Mistral):
           attic #attic.window<left = W-1, right = 0>;
           Flex mask_mod q - W < k <= q
  docs     --docs documents of N / docs tokens packed per sequence, causal
           within a document: attic #attic.intersect<[causal, documents]>
           with the ids as a layout operand; Flex mask_mod ids[q] == ids[k]
           and k <= q
For each (pattern, N) Q, K, V are drawn once (normal, --seed) and both run on
them: attic through build/tools/attic-run --target=cuda (kernel time: the
median of CUDA-event-timed launches of --bench), Flex through torch.compile'd
flex_attention with create_block_mask's BlockMask (built once, not timed; its
build time is printed), the median of --reps CUDA-event-timed calls after
--warmup. Both are compared with an fp32 reference (the dense masked formula,
computed per query block on the GPU): err = max|out - ref| / max|ref|.
Ratio = flex time / attic time (> 1: attic is faster). Writes a CSV and a
Markdown table to --out.

Written without a GPU (issue 12's session had none): run it on the next
GPU session after bench/cuda/device.sh tests.
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
import torch._dynamo

# The timing and error helpers of the dense benchmark (same folder).
from bench import event_median_ms, parse_list, rel_err


def reference(q, k, v, visible, block=1024):
    """The dense masked formula in fp32, a query block at a time."""
    b, h, n, d = q.shape
    out = torch.empty(b, h, n, v.shape[-1], device=q.device, dtype=torch.float32)
    kf, vf = k.float(), v.float()
    for q0 in range(0, n, block):
        q1 = min(q0 + block, n)
        s = torch.einsum("bhqd,bhkd->bhqk", q[:, :, q0:q1].float(), kf) / d ** 0.5
        mask = visible(torch.arange(q0, q1, device=q.device)[:, None],
                       torch.arange(n, device=q.device)[None, :])
        s = s.masked_fill(~mask, float("-inf"))
        out[:, :, q0:q1] = torch.softmax(s, dim=-1).nan_to_num(0.0) @ vf
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--attic-run", default="build/tools/attic-run")
    ap.add_argument("--n", default="8192,16384,32768")
    ap.add_argument("--d", type=int, default=64)
    ap.add_argument("--batch", type=int, default=2)
    ap.add_argument("--heads", type=int, default=8)
    ap.add_argument("--window", type=int, default=512)
    ap.add_argument("--docs", type=int, default=16)
    ap.add_argument("--patterns", default="window,docs")
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default=".")
    ap.add_argument("--attic-timeout", type=int, default=180,
                    help="seconds for one attic-run (a hang fails that row)")
    args = ap.parse_args()

    from torch.nn.attention.flex_attention import create_block_mask, flex_attention
    torch._dynamo.config.recompile_limit = 1000
    torch._dynamo.config.accumulated_recompile_limit = 10000
    flex = torch.compile(flex_attention, dynamic=False)

    dev = torch.cuda.get_device_name()
    header = ("# %s, torch %s, CUDA %s, %s\n# B=%d H=%d D=%d fp16, window %d, %d documents\n"
              % (dev, torch.__version__, torch.version.cuda,
                 time.strftime("%Y-%m-%d %H:%M:%S"), args.batch, args.heads,
                 args.d, args.window, args.docs))
    print(header, end="", flush=True)
    work = tempfile.mkdtemp(prefix="attic-layouts-")
    rows = []
    for pattern in args.patterns.split(","):
        for n in parse_list(args.n):
            shape = (args.batch, args.heads, n, args.d)
            gen = torch.Generator(device="cuda").manual_seed(args.seed + n)
            q, k, v = (torch.randn(shape, generator=gen, device="cuda",
                                   dtype=torch.float16) for _ in range(3))
            ids = (torch.arange(n, device="cuda") // (n // args.docs)).to(torch.int32)
            s = "x".join(str(x) for x in shape)
            t = "tensor<%sxf16>" % s
            if pattern == "window":
                w = args.window
                visible = lambda qi, ki: (ki <= qi) & (ki > qi - w)
                mask_mod = lambda b, h, qi, ki: (ki <= qi) & (ki > qi - w)
                layout = "layout(#attic.window<left = %d, right = 0>)" % (w - 1)
                signature = "%%q: %s, %%k: %s, %%v: %s" % (t, t, t)
                extra = []
            else:
                visible = lambda qi, ki: (ki <= qi) & (ids[qi] == ids[ki])
                mask_mod = lambda b, h, qi, ki: (ki <= qi) & (ids[qi] == ids[ki])
                layout = ("causal layout(#attic.documents<query_ids = 0, key_ids = 0>) "
                          "layout_operands(%%ids : tensor<%dx%dxi32>)" % (args.batch, n))
                signature = "%%q: %s, %%k: %s, %%v: %s, %%ids: tensor<%dx%dxi32>" % (
                    t, t, t, args.batch, n)
                ids_path = os.path.join(work, "ids.npy")
                np.save(ids_path, ids.cpu().numpy()[None, :].repeat(args.batch, 0))
                extra = ["--input=" + ids_path]
            mlir = os.path.join(work, "f.mlir")
            with open(mlir, "w") as f:
                f.write("func.func @f(%s) -> %s {\n  %%o = attic.attention %%q, %%k, %%v %s "
                        ": %s, %s, %s -> %s\n  return %%o : %s\n}\n"
                        % (signature, t, layout, t, t, t, t, t))
            inputs = []
            for name, x in (("q", q), ("k", k), ("v", v)):
                p = os.path.join(work, name + ".npy")
                np.save(p, x.cpu().numpy())
                inputs.append("--input=" + p)
            out = os.path.join(work, "o.npy")
            cmd = ([args.attic_run, mlir, "--entry=f", "--target=cuda",
                    "--bench=%d" % args.reps, "--output=" + out] + inputs + extra)
            try:
                proc = subprocess.run(cmd, stdout=subprocess.PIPE,
                                      stderr=subprocess.STDOUT,
                                      universal_newlines=True,
                                      timeout=args.attic_timeout)
            except subprocess.TimeoutExpired:
                proc = subprocess.CompletedProcess(
                    cmd, 124, "attic-run timed out after %d s" % args.attic_timeout)
            ref = reference(q, k, v, visible)
            row = {"pattern": pattern, "N": n}
            m = re.search(r"kernel time: median ([0-9.]+) ms", proc.stdout)
            if proc.returncode != 0 or not m:
                print(proc.stdout, file=sys.stderr)
                row["attic_ms"] = row["attic_err"] = None
            else:
                row["attic_ms"] = float(m.group(1))
                row["attic_err"] = rel_err(torch.from_numpy(np.load(out)).cuda(), ref)
            t0 = time.time()
            bm = create_block_mask(mask_mod, None, None, n, n, device="cuda")
            torch.cuda.synchronize()
            row["flex_block_mask_s"] = time.time() - t0
            fx = lambda: flex(q, k, v, block_mask=bm)
            row["flex_err"] = rel_err(fx(), ref)
            row["flex_ms"] = event_median_ms(fx, args.warmup, args.reps)
            row["flex_over_attic"] = (row["flex_ms"] / row["attic_ms"]
                                      if row["attic_ms"] else None)
            rows.append(row)
            print(row, flush=True)
            del q, k, v, ref
            torch.cuda.empty_cache()
    cols = ["pattern", "N", "attic_ms", "flex_ms", "flex_over_attic", "attic_err",
            "flex_err", "flex_block_mask_s"]
    os.makedirs(args.out, exist_ok=True)
    fmt = lambda x: "-" if x is None else ("%.4g" % x if isinstance(x, float) else str(x))
    with open(os.path.join(args.out, "cuda_layouts.csv"), "w") as f:
        f.write(header + ",".join(cols) + "\n")
        for r in rows:
            f.write(",".join(fmt(r.get(c)) for c in cols) + "\n")
    table = header + "| " + " | ".join(cols) + " |\n|" + "---|" * len(cols) + "\n"
    for r in rows:
        table += "| " + " | ".join(fmt(r.get(c)) for c in cols) + " |\n"
    with open(os.path.join(args.out, "cuda_layouts.md"), "w") as f:
        f.write(table)
    print(table)
    bad = [r for r in rows if r["attic_err"] is None or not r["attic_err"] <= 2e-2]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
