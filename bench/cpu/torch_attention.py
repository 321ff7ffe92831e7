#!/usr/bin/python3
"""PyTorch CPU attention on the inputs attic-bench-attention saved.

    torch_attention.py --dir DIR --n 1024,2048 --threads T --reps R --csv OUT
                       [--impl eager|sdpa]

--impl sdpa times torch.nn.functional.scaled_dot_product_attention instead
of the eager form (PyTorch 2.x; its CPU backend is a flash-style kernel that
never forms the N^2 logits; "mode" is then "sdpa"). Debian's PyTorch 1.13
has no SDPA: that is an error.

For each N reads DIR/{q,k,v}_N.npy ([B,H,N,D] f32), times
softmax(Q K^T * scale [+ causal -inf]) V in eager PyTorch (median of R runs
after one warm-up), and compares the result with attic's output
DIR/attic_N_{dense,causal}.npy (max |a-b| / max |attic|). The product is
formed for all heads at once while B*H*N^2 f32 logits fit in --max-logits-gib;
beyond that one head at a time (the "mode" column says which), since the
batched form would need two N^2 buffers per head.
"""
import argparse
import csv
import math
import os
import statistics
import sys
import time

import numpy as np
import torch


def eager_attention(q, k, v, scale, causal, per_head):
    if per_head:
        out = torch.empty_like(q)
        for b in range(q.shape[0]):
            for h in range(q.shape[1]):
                out[b, h] = eager_attention(q[b, h][None, None], k[b, h][None, None],
                                            v[b, h][None, None], scale, causal,
                                            False)[0, 0]
        return out
    scores = torch.matmul(q, k.transpose(-2, -1)).mul_(scale)
    if causal:
        n_q, n_k = scores.shape[-2], scores.shape[-1]
        hidden = torch.ones(n_q, n_k, dtype=torch.bool).triu_(1)
        scores.masked_fill_(hidden, float("-inf"))
    probs = torch.softmax(scores, dim=-1)
    return torch.matmul(probs, v)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", required=True)
    parser.add_argument("--n", required=True, help="comma-separated N")
    parser.add_argument("--threads", type=int, required=True)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--csv", required=True)
    parser.add_argument("--max-logits-gib", type=float, default=4.0)
    parser.add_argument("--impl", choices=("eager", "sdpa"), default="eager")
    args = parser.parse_args()
    sdpa = getattr(torch.nn.functional, "scaled_dot_product_attention", None)
    if args.impl == "sdpa" and sdpa is None:
        sys.exit(f"torch_attention.py: error: --impl sdpa needs PyTorch 2.x "
                 f"(this is {torch.__version__})")
    if args.threads <= 0 or args.reps <= 0:
        sys.exit("torch_attention.py: error: --threads and --reps must be positive")

    torch.set_num_threads(args.threads)
    rows = []
    with torch.inference_mode():
        for n in [int(x) for x in args.n.split(",")]:
            arrays = {}
            for name in ("q", "k", "v"):
                path = os.path.join(args.dir, f"{name}_{n}.npy")
                if not os.path.exists(path):
                    sys.exit(f"torch_attention.py: error: {path}: not found")
                arrays[name] = torch.from_numpy(np.load(path))
            q, k, v = arrays["q"], arrays["k"], arrays["v"]
            b, h, _, d = q.shape
            scale = 1.0 / math.sqrt(d)
            per_head = b * h * n * n * 4 / 2**30 > args.max_logits_gib
            mode = "sdpa" if args.impl == "sdpa" else (
                "per-head" if per_head else "batched")
            for causal in (False, True):
                if args.impl == "sdpa":
                    attend = lambda: sdpa(q, k, v, is_causal=causal, scale=scale)
                else:
                    attend = lambda: eager_attention(q, k, v, scale, causal, per_head)
                out = attend()  # warm-up
                times = []
                for _ in range(args.reps):
                    start = time.perf_counter()
                    out = attend()
                    times.append((time.perf_counter() - start) * 1e3)
                ms = statistics.median(times)
                flops = 4.0 * b * h * n * n * d / (2 if causal else 1)
                ref_path = os.path.join(
                    args.dir, f"attic_{n}_{'causal' if causal else 'dense'}.npy")
                ref = torch.from_numpy(np.load(ref_path))
                err = (out - ref).abs().max().item() / max(ref.abs().max().item(), 1e-30)
                rows.append({"n": n, "causal": "on" if causal else "off",
                             "torch_threads": torch.get_num_threads(),
                             "torch_ms": f"{ms:.3f}",
                             "torch_gflops": f"{flops / (ms * 1e6):.3f}",
                             "torch_mode": mode,
                             "torch_vs_attic_max_rel_err": f"{err:.3e}"})
                print(f"torch N={n} causal={'on' if causal else 'off'}: "
                      f"{ms:.1f} ms, {flops / (ms * 1e6):.2f} GFLOP/s, "
                      f"{mode}, "
                      f"max rel diff vs attic {err:.2e}", flush=True)
                del out
    with open(args.csv, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        writer.writeheader()
        writer.writerows(rows)


if __name__ == "__main__":
    main()
