#!/usr/bin/env python3
"""attic dense/causal fp16/bf16 attention on a CUDA GPU against PyTorch, side by side.

For every (dtype, D, N, causal) it draws Q, K, V once (--dtype: f16 and/or
bf16, [B, H, N, D], normal, from --seed), saves them as .npy (bf16 as its
bits, uint16, which attic-run reads as bf16) and runs, on those same inputs:
  attic   build/tools/attic-run --target=cuda on a static-shape attic.attention
          (attic-cuda-pipeline: the mma.sync flash kernel); its kernel time is
          the median of CUDA-event-timed launches (attic-run --bench);
  attic_sync  (--attic-sync) the same with --async-copies=false: K and V
          through registers instead of cp.async, the kernel before cp.async,
          for an A/B of the copies on the same inputs in the same run;
  attic_noinline  (--attic-noinline) the same with
          --inline-kernel-constants=false: the sizes reach the kernels as
          arguments instead of constants (2026-11-29), an A/B of the
          specialization (inline_vs_noinline > 1: the constants help);
  attic_ring  (--attic-ring) the same with --kv-stages=2: K and V rings of
          two slots in dynamic shared memory (the next block's copies
          overlapping the whole block), an A/B of the ring;
  attic_wgmma  (--attic-wgmma) the same with --wgmma: S = Q K^T on sm_90a's
          wgmma.mma_async (9.0 devices only), an A/B of wgmma;
  attic_overlap  (--attic-overlap) --wgmma --kv-stages=2 against the same
          with --wgmma-overlap (each block's P V during the next block's
          softmax): attic_wgmma_ring and attic_overlap, an A/B of the
          overlap (9.0 devices only);
  attic_stage3  (--attic-stage3) --wgmma --kv-stages=3 --wgmma-overlap: the
          overlap with three-slot rings (one barrier per key block instead
          of two), an A/B against attic_overlap (with --attic-overlap);
  attic_tma  (--attic-tma) --wgmma --kv-stages=2 --wgmma-overlap --tma: the
          overlap's rings filled by TMA loads (thread 0, mbarriers) instead
          of cp.async, an A/B against attic_overlap (with --attic-overlap);
  attic_tma2  (--attic-ws) --wgmma --kv-stages=2 --tma and attic_ws, the
          same with --warp-specialize (a producer warpgroup issues the TMA
          loads, the consumers release each slot through an mbarrier,
          setmaxnreg): an A/B of the warp specialization (neither has the
          deferred P V);
  attic_wso, attic_pp  (--attic-pingpong) --wgmma --kv-stages=2 --tma
          --wgmma-overlap --warp-specialize, without and with --ping-pong
          (the two consumer warpgroups take turns issuing their wgmmas):
          FlashAttention-3's schedule, an A/B of the ping-pong;
  sdpa    torch.nn.functional.scaled_dot_product_attention, flash backend only;
  cudnn   the same with the cuDNN backend only, where this PyTorch has it
          (SDPBackend.CUDNN_ATTENTION; --no-cudnn to skip; a configuration
          it rejects is noted and left empty);
  flex    torch FlexAttention (torch.compile'd), with the equivalent BlockMask:
          the causal mask for causal runs, no mask for dense runs (--flex-dense).
torch's times are the median of --reps CUDA-event-timed calls after --warmup
calls, the same method as attic-run's (no cache flush in either).
Each output is compared with an fp32 reference (SDPA's memory-efficient
backend on upcast inputs): err = max|out - ref| / max|ref|.
FLOPs: 4*B*H*N*N*D, half of that for causal (the FlashAttention convention).
Writes a CSV and a Markdown table to --out; prints the table last.
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
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel


def parse_list(text):
    return [int(x) for x in text.split(",") if x]


def event_median_ms(fn, warmup, reps):
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return float(np.median(times))


def rel_err(out, ref):
    out = out.float()
    if not torch.isfinite(out).all():
        return float("inf")
    return ((out - ref).abs().max() / ref.abs().max()).item()


MLIR = """func.func @attention(%q: tensor<{s}x{t}>, %k: tensor<{s}x{t}>, %v: tensor<{s}x{t}>) -> tensor<{s}x{t}> {{
  %o = attic.attention %q, %k, %v{c} : tensor<{s}x{t}>, tensor<{s}x{t}>, tensor<{s}x{t}> -> tensor<{s}x{t}>
  return %o : tensor<{s}x{t}>
}}
"""

# --dtype names: the torch dtype and the MLIR element type.
DTYPES = {"f16": (torch.float16, "f16"), "bf16": (torch.bfloat16, "bf16")}


def to_npy(t):
    """A CUDA tensor as a numpy array for attic-run: bf16 as its bits."""
    if t.dtype == torch.bfloat16:
        return t.view(torch.int16).cpu().numpy().view(np.uint16)
    return t.cpu().numpy()


def from_npy(a):
    """attic-run's .npy output as a CUDA tensor (uint16 = bf16 bits)."""
    if a.dtype == np.uint16:
        return torch.from_numpy(a.view(np.int16)).cuda().view(torch.bfloat16)
    return torch.from_numpy(a).cuda()


def run_attic(args, work, shape, causal, q, k, v, extra=()):
    s = "x".join(str(x) for x in shape)
    path = os.path.join(work, "attention.mlir")
    elem = "bf16" if q.dtype == torch.bfloat16 else "f16"
    with open(path, "w") as f:
        f.write(MLIR.format(s=s, t=elem, c=" causal" if causal else ""))
    files = []
    for name, t in (("q", q), ("k", k), ("v", v)):
        p = os.path.join(work, name + ".npy")
        np.save(p, to_npy(t))
        files.append(p)
    out = os.path.join(work, "o.npy")
    cmd = [args.attic_run, path, "--entry=attention", "--target=cuda",
           "--bench=%d" % args.reps, "--output=" + out] + \
          ["--input=" + p for p in files] + args.attic_arg + list(extra)
    t0 = time.time()
    try:
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              universal_newlines=True, timeout=args.attic_timeout)
    except subprocess.TimeoutExpired:
        return None, None, ["attic-run timed out after %d s" % args.attic_timeout]
    wall = time.time() - t0
    if proc.returncode != 0:
        print(proc.stdout, file=sys.stderr)
        return None, None, proc.stdout.strip().splitlines()[-1:]
    m = re.search(r"kernel time: median ([0-9.]+) ms", proc.stdout)
    if not m:
        print(proc.stdout, file=sys.stderr)
        return None, None, ["attic-run printed no kernel time"]
    o = from_npy(np.load(out))
    return float(m.group(1)), o, ["attic-run %.1f s" % wall]


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--attic-run", default="build/tools/attic-run")
    ap.add_argument("--n", default="1024,2048,4096,8192,16384,32768")
    ap.add_argument("--d", default="64,128")
    ap.add_argument("--batch", type=int, default=2)
    ap.add_argument("--heads", type=int, default=8)
    ap.add_argument("--causal", default="0,1")
    ap.add_argument("--dtype", default="f16",
                    help="comma list of f16 and bf16 (default f16)")
    ap.add_argument("--no-cudnn", action="store_true",
                    help="do not time SDPA's cuDNN backend")
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--no-flex", action="store_true")
    ap.add_argument("--flex-dense", action="store_true",
                    help="also time FlexAttention without a mask on dense runs")
    ap.add_argument("--attic-sync", action="store_true",
                    help="also time attic with --async-copies=false (A/B of "
                         "the cp.async staging)")
    ap.add_argument("--attic-ring", action="store_true",
                    help="also time attic with --kv-stages=2 (A/B of the "
                         "two-slot K/V ring)")
    ap.add_argument("--attic-wgmma", action="store_true",
                    help="also time attic with --wgmma (A/B of wgmma for "
                         "Q K^T; a compute capability 9.0 device)")
    ap.add_argument("--attic-overlap", action="store_true",
                    help="also time attic with --wgmma --kv-stages=2, with "
                         "and without --wgmma-overlap (A/B of the deferred "
                         "P V; a compute capability 9.0 device)")
    ap.add_argument("--attic-stage3", action="store_true",
                    help="also time attic with --wgmma --kv-stages=3 "
                         "--wgmma-overlap (A/B of one barrier per key block "
                         "against --attic-overlap's two; a 9.0 device)")
    ap.add_argument("--attic-tma", action="store_true",
                    help="also time attic with --wgmma --kv-stages=2 "
                         "--wgmma-overlap --tma (A/B of TMA loads against "
                         "--attic-overlap's cp.async; a 9.0 device)")
    ap.add_argument("--attic-ws", action="store_true",
                    help="also time attic with --wgmma --kv-stages=2 --tma, "
                         "with and without --warp-specialize (A/B of the "
                         "producer warpgroup; a 9.0 device)")
    ap.add_argument("--attic-pingpong", action="store_true",
                    help="also time attic with --wgmma --kv-stages=2 --tma "
                         "--wgmma-overlap --warp-specialize, with and without "
                         "--ping-pong (a 9.0 device)")
    ap.add_argument("--attic-noinline", action="store_true",
                    help="also time attic with --inline-kernel-constants="
                         "false (A/B of kernels specialized on the static "
                         "sizes; with the --attic-arg options of the attic "
                         "column)")
    ap.add_argument("--attic-arg", action="append", default=[],
                    help="extra attic-run argument (repeatable)")
    ap.add_argument("--out", default=".")
    ap.add_argument("--attic-timeout", type=int, default=180,
                    help="seconds one attic-run may take (a hang fails the row)")
    args = ap.parse_args()
    dtypes = [x for x in args.dtype.split(",") if x]
    for x in dtypes:
        if x not in DTYPES:
            ap.error("--dtype: expected f16 or bf16, got '%s'" % x)
    cudnn_backend = None if args.no_cudnn else getattr(SDPBackend, "CUDNN_ATTENTION", None)

    dev = torch.cuda.get_device_name()
    header = ("# %s, torch %s, CUDA %s, %s\n# B=%d H=%d %s, attic-run %s\n"
              % (dev, torch.__version__, torch.version.cuda,
                 time.strftime("%Y-%m-%d %H:%M:%S"), args.batch, args.heads,
                 "/".join(dtypes), " ".join(args.attic_arg)))
    print(header, end="", flush=True)

    flex = None
    if not args.no_flex:
        from torch.nn.attention.flex_attention import flex_attention, create_block_mask
        # One compiled kernel per shape; dynamo's default of 8 recompilations
        # would silently fall back to the unfused implementation.
        torch._dynamo.config.recompile_limit = 1000
        torch._dynamo.config.accumulated_recompile_limit = 10000
        flex = torch.compile(flex_attention, dynamic=False)

    def write_tables():
        """cuda_attention.{csv,md} of the rows so far (rewritten after
        every configuration: a run stopped at a time limit keeps them)."""
        cols = ["dtype", "D", "N", "causal", "attic_ms", "attic_tflops", "sdpa_ms",
                "sdpa_tflops", "flex_ms", "flex_tflops", "attic_vs_sdpa", "attic_vs_flex",
                "attic_err", "sdpa_err", "flex_err"]
        if any(r["cudnn_ms"] for r in rows):
            cols[cols.index("flex_ms"):cols.index("flex_ms")] = ["cudnn_ms", "cudnn_tflops"]
            cols.insert(cols.index("attic_vs_flex") + 1, "attic_vs_cudnn")
            cols.append("cudnn_err")
        if args.attic_sync:
            cols[6:6] = ["attic_sync_ms", "attic_sync_tflops", "async_vs_sync"]
            cols.append("attic_sync_err")
        if args.attic_noinline:
            cols[6:6] = ["attic_noinline_ms", "attic_noinline_tflops",
                         "inline_vs_noinline"]
            cols.append("attic_noinline_err")
        if args.attic_ring:
            cols[6:6] = ["attic_ring_ms", "attic_ring_tflops", "ring_vs_one"]
            cols.append("attic_ring_err")
        if args.attic_wgmma:
            cols[6:6] = ["attic_wgmma_ms", "attic_wgmma_tflops", "wgmma_vs_mma"]
            cols.append("attic_wgmma_err")
        if args.attic_overlap:
            cols[6:6] = ["attic_wgmma_ring_ms", "attic_wgmma_ring_tflops",
                         "attic_overlap_ms", "attic_overlap_tflops",
                         "overlap_vs_wgmma_ring", "overlap_vs_sdpa"]
            cols += ["attic_wgmma_ring_err", "attic_overlap_err"]
        if args.attic_stage3:
            cols[6:6] = ["attic_stage3_ms", "attic_stage3_tflops",
                         "stage3_vs_overlap", "stage3_vs_sdpa"]
            cols.append("attic_stage3_err")
        if args.attic_tma:
            cols[6:6] = ["attic_tma_ms", "attic_tma_tflops", "tma_vs_overlap"]
            cols.append("attic_tma_err")
        if args.attic_ws:
            cols[6:6] = ["attic_tma2_ms", "attic_tma2_tflops", "attic_ws_ms",
                         "attic_ws_tflops", "ws_vs_tma", "ws_vs_sdpa"]
            cols += ["attic_tma2_err", "attic_ws_err"]
        if args.attic_pingpong:
            cols[6:6] = ["attic_wso_ms", "attic_wso_tflops", "attic_pp_ms",
                         "attic_pp_tflops", "pp_vs_wso", "pp_vs_sdpa"]
            cols += ["attic_wso_err", "attic_pp_err"]
        os.makedirs(args.out, exist_ok=True)
        with open(os.path.join(args.out, "cuda_attention.csv"), "w") as f:
            f.write(header)
            f.write(",".join(cols) + "\n")
            for r in rows:
                f.write(",".join(fmt(r.get(c)) for c in cols) + "\n")
        table = header + "| " + " | ".join(cols) + " |\n|" + "---|" * len(cols) + "\n"
        for r in rows:
            table += "| " + " | ".join(fmt(r.get(c)) for c in cols) + " |\n"
        with open(os.path.join(args.out, "cuda_attention.md"), "w") as f:
            f.write(table)
        return table

    rows = []
    work = tempfile.mkdtemp(prefix="attic-bench-")
    configs = [(name, d, n, bool(c)) for name in dtypes for d in parse_list(args.d)
               for n in parse_list(args.n) for c in parse_list(args.causal)]
    for dtype_name, d, n, causal in configs:
        shape = (args.batch, args.heads, n, d)
        gen = torch.Generator(device="cuda").manual_seed(args.seed + n + d)
        q, k, v = (torch.randn(shape, generator=gen, device="cuda",
                               dtype=DTYPES[dtype_name][0]) for _ in range(3))
        flops = 4.0 * args.batch * args.heads * n * n * d * (0.5 if causal else 1.0)
        with sdpa_kernel([SDPBackend.EFFICIENT_ATTENTION]):
            ref = F.scaled_dot_product_attention(q.float(), k.float(), v.float(),
                                                 is_causal=causal)
        row = {"dtype": dtype_name, "D": d, "N": n, "causal": int(causal)}

        attic_ms, attic_o, notes = run_attic(args, work, shape, causal, q, k, v)
        row["attic_ms"] = attic_ms
        row["attic_err"] = rel_err(attic_o, ref) if attic_o is not None else None
        del attic_o
        # A/B variants of attic on the same inputs.
        for name, wanted, extra in (
                ("attic_sync", args.attic_sync, ["--async-copies=false"]),
                ("attic_noinline", args.attic_noinline,
                 ["--inline-kernel-constants=false"]),
                ("attic_ring", args.attic_ring, ["--kv-stages=2"]),
                ("attic_wgmma", args.attic_wgmma, ["--wgmma"]),
                ("attic_wgmma_ring", args.attic_overlap,
                 ["--wgmma", "--kv-stages=2"]),
                ("attic_overlap", args.attic_overlap,
                 ["--wgmma", "--kv-stages=2", "--wgmma-overlap"]),
                ("attic_stage3", args.attic_stage3,
                 ["--wgmma", "--kv-stages=3", "--wgmma-overlap"]),
                ("attic_tma", args.attic_tma,
                 ["--wgmma", "--kv-stages=2", "--wgmma-overlap", "--tma"]),
                ("attic_tma2", args.attic_ws,
                 ["--wgmma", "--kv-stages=2", "--tma"]),
                ("attic_ws", args.attic_ws,
                 ["--wgmma", "--kv-stages=2", "--tma", "--warp-specialize"]),
                ("attic_wso", args.attic_pingpong,
                 ["--wgmma", "--kv-stages=2", "--tma", "--wgmma-overlap",
                  "--warp-specialize"]),
                ("attic_pp", args.attic_pingpong,
                 ["--wgmma", "--kv-stages=2", "--tma", "--wgmma-overlap",
                  "--warp-specialize", "--ping-pong"])):
            row[name + "_ms"] = row[name + "_err"] = None
            if not wanted:
                continue
            ms, o, more = run_attic(args, work, shape, causal, q, k, v,
                                    extra=extra)
            row[name + "_ms"] = ms
            row[name + "_err"] = rel_err(o, ref) if o is not None else None
            notes += [name[6:] + ": " + note for note in more]
            del o

        def sdpa():
            with sdpa_kernel([SDPBackend.FLASH_ATTENTION]):
                return F.scaled_dot_product_attention(q, k, v, is_causal=causal)
        row["sdpa_err"] = rel_err(sdpa(), ref)
        row["sdpa_ms"] = event_median_ms(sdpa, args.warmup, args.reps)

        row["cudnn_ms"] = row["cudnn_err"] = None
        if cudnn_backend is not None:
            def cudnn():
                with sdpa_kernel([cudnn_backend]):
                    return F.scaled_dot_product_attention(q, k, v, is_causal=causal)
            try:
                row["cudnn_err"] = rel_err(cudnn(), ref)
                row["cudnn_ms"] = event_median_ms(cudnn, args.warmup, args.reps)
            except RuntimeError as e:
                notes.append("cudnn: %s" % str(e).strip().splitlines()[0][:100])

        row["flex_ms"] = row["flex_err"] = None
        if flex is not None and (causal or args.flex_dense):
            t0 = time.time()
            if causal:
                bm = create_block_mask(lambda b, h, qi, ki: qi >= ki, None, None,
                                       n, n, device="cuda")
            else:
                bm = None
            fx = lambda: flex(q, k, v, block_mask=bm)
            row["flex_err"] = rel_err(fx(), ref)
            notes.append("flex compile+first %.1f s" % (time.time() - t0))
            row["flex_ms"] = event_median_ms(fx, args.warmup, args.reps)
        for key in ("attic", "attic_sync", "attic_noinline", "attic_ring", "attic_wgmma",
                    "attic_wgmma_ring", "attic_overlap", "attic_stage3",
                    "attic_tma", "attic_tma2", "attic_ws", "attic_wso",
                    "attic_pp", "sdpa", "cudnn", "flex"):
            ms = row[key + "_ms"]
            row[key + "_tflops"] = flops / (ms * 1e-3) * 1e-12 if ms else None
        row["attic_vs_sdpa"] = (row["sdpa_ms"] / attic_ms) if attic_ms else None
        row["attic_vs_flex"] = (row["flex_ms"] / attic_ms) if attic_ms and row["flex_ms"] else None
        row["attic_vs_cudnn"] = (row["cudnn_ms"] / attic_ms) if attic_ms and row["cudnn_ms"] else None
        row["async_vs_sync"] = (row["attic_sync_ms"] / attic_ms) if attic_ms and row["attic_sync_ms"] else None
        row["inline_vs_noinline"] = (
            row["attic_noinline_ms"] / attic_ms
            if attic_ms and row["attic_noinline_ms"] else None)
        row["ring_vs_one"] = (attic_ms / row["attic_ring_ms"]) if attic_ms and row["attic_ring_ms"] else None
        row["wgmma_vs_mma"] = (attic_ms / row["attic_wgmma_ms"]) if attic_ms and row["attic_wgmma_ms"] else None
        row["overlap_vs_wgmma_ring"] = (
            row["attic_wgmma_ring_ms"] / row["attic_overlap_ms"]
            if row["attic_wgmma_ring_ms"] and row["attic_overlap_ms"] else None)
        row["stage3_vs_overlap"] = (
            row["attic_overlap_ms"] / row["attic_stage3_ms"]
            if row["attic_overlap_ms"] and row["attic_stage3_ms"] else None)
        row["tma_vs_overlap"] = (
            row["attic_overlap_ms"] / row["attic_tma_ms"]
            if row["attic_overlap_ms"] and row["attic_tma_ms"] else None)
        row["ws_vs_tma"] = (
            row["attic_tma2_ms"] / row["attic_ws_ms"]
            if row["attic_tma2_ms"] and row["attic_ws_ms"] else None)
        row["ws_vs_sdpa"] = (
            row["sdpa_ms"] / row["attic_ws_ms"] if row["attic_ws_ms"] else None)
        row["pp_vs_wso"] = (
            row["attic_wso_ms"] / row["attic_pp_ms"]
            if row["attic_wso_ms"] and row["attic_pp_ms"] else None)
        row["pp_vs_sdpa"] = (
            row["sdpa_ms"] / row["attic_pp_ms"] if row["attic_pp_ms"] else None)
        row["stage3_vs_sdpa"] = (
            row["sdpa_ms"] / row["attic_stage3_ms"]
            if row["attic_stage3_ms"] else None)
        row["overlap_vs_sdpa"] = (
            row["sdpa_ms"] / row["attic_overlap_ms"]
            if row["attic_overlap_ms"] else None)
        rows.append(row)
        write_tables()
        print("%s D=%d N=%d causal=%d: %s; %s" % (
            dtype_name, d, n, causal,
            ", ".join("%s=%s" % (k2, fmt(v2)) for k2, v2 in row.items()
                      if k2 not in ("dtype", "D", "N", "causal")),
            "; ".join(notes)), flush=True)
        del q, k, v, ref
        torch.cuda.empty_cache()

    table = write_tables()
    print(table)
    # The plot next to the CSV (bench/plot.py) where matplotlib is installed;
    # otherwise `bench/plot.py OUT/cuda_attention.csv` makes it afterwards.
    plot = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "plot.py")
    if subprocess.run([sys.executable, "-c", "import matplotlib"],
                      stderr=subprocess.DEVNULL).returncode == 0:
        subprocess.run([sys.executable, plot,
                        os.path.join(args.out, "cuda_attention.csv")])
    else:
        print("no matplotlib here: run bench/plot.py on cuda_attention.csv")
    bad = [r for r in rows if r["attic_err"] is None or not r["attic_err"] <= 2e-2]
    bad += [r for r in rows if args.attic_sync and (
        r["attic_sync_err"] is None or not r["attic_sync_err"] <= 2e-2)]
    bad += [r for r in rows if args.attic_ring and (
        r["attic_ring_err"] is None or not r["attic_ring_err"] <= 2e-2)]
    bad += [r for r in rows if args.attic_wgmma and (
        r["attic_wgmma_err"] is None or not r["attic_wgmma_err"] <= 2e-2)]
    bad += [r for r in rows if args.attic_overlap and any(
        r[key] is None or not r[key] <= 2e-2
        for key in ("attic_wgmma_ring_err", "attic_overlap_err"))]
    bad += [r for r in rows if args.attic_stage3 and (
        r["attic_stage3_err"] is None or not r["attic_stage3_err"] <= 2e-2)]
    bad += [r for r in rows if args.attic_tma and (
        r["attic_tma_err"] is None or not r["attic_tma_err"] <= 2e-2)]
    bad += [r for r in rows if args.attic_noinline and (
        r["attic_noinline_err"] is None or not r["attic_noinline_err"] <= 2e-2)]
    bad += [r for r in rows if args.attic_ws and any(
        r[key] is None or not r[key] <= 2e-2
        for key in ("attic_tma2_err", "attic_ws_err"))]
    bad += [r for r in rows if args.attic_pingpong and any(
        r[key] is None or not r[key] <= 2e-2
        for key in ("attic_wso_err", "attic_pp_err"))]
    return 1 if bad else 0


def fmt(x):
    if x is None:
        return "-"
    if isinstance(x, float):
        if x != x or x in (float("inf"), float("-inf")):
            return str(x)
        if abs(x) >= 100:
            return "%.1f" % x
        if abs(x) >= 0.01:
            return "%.3f" % x
        return "%.2e" % x
    return str(x)


if __name__ == "__main__":
    sys.exit(main())
