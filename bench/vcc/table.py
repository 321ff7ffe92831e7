#!/usr/bin/env python3
"""Markdown tables from bench/vcc/run.sh's results.csv (stdlib only)."""
import csv
import sys

rows = list(csv.DictReader(open(sys.argv[1])))
R = {(r["variant"], r["body"], int(r["n"])): r for r in rows}
ns = sorted({int(r["n"]) for r in rows})
trees = [("vcc2", "two-level [16, n_c/16], budgets [90, 1]"),
         ("vccM", "multi-level (16 per level, C padded), budgets [90, 16, 8, ...]")]


def ms(v, b, n):
    r = R.get((v, b, n))
    return float(r["median_ms"]) if r else None


def fmt(x, spec=".1f"):
    return "-" if x is None else format(x, spec)


def kib(n):
    return f"{n // 1024}K"


out = []
out.append("## Time (median ms of the timed runs) and the VCC/dense ratio\n")
out.append("| n | dense ms | vcc2 rows | vcc2 ms | vcc2/dense | vccM rows | vccM ms | vccM/dense |")
out.append("|---|---|---|---|---|---|---|---|")
for n in ns:
    d = ms("dense", "full", n)
    cells = [kib(n), fmt(d)]
    for v, _ in trees:
        t = ms(v, "full", n)
        r = R.get((v, "full", n))
        cells += [r["rows"] if r else "-", fmt(t),
                  fmt(t / d, ".3f") + f" ({d / t:.1f}x faster)" if t and d else "-"]
    out.append("| " + " | ".join(cells) + " |")
loops, blas = ms("vcc2-loops", "full", 4096), ms("vcc2", "full", 4096)
if loops and blas:
    out.append(f"\nvcc2 at 4K with the GEMMs as loops (--blas=false): {loops:.1f} ms, "
               f"{loops / blas:.1f}x the time with OpenBLAS.")
out.append("\n## VCC scaling in n (time ratios; linear in n: 4.0 and 2.0)\n")
out.append("| tree | 64K/16K | 128K/64K | rows 16K, 64K, 128K | (r ratio)^2 64K/16K, 128K/64K |")
out.append("|---|---|---|---|---|")
for v, label in trees:
    a, b, c = ms(v, "full", 16384), ms(v, "full", 65536), ms(v, "full", 131072)
    rs = [int(R[(v, "full", n)]["rows"]) if (v, "full", n) in R else None for n in (16384, 65536, 131072)]
    sq = lambda x, y: fmt((y / x) ** 2 if x and y else None, ".2f")
    out.append(f"| {v}: {label} | {fmt(b / a if a and b else None, '.2f')} | "
               f"{fmt(c / b if b and c else None, '.2f')} | {', '.join(map(str, rs))} | "
               f"{sq(rs[0], rs[1])}, {sq(rs[1], rs[2])} |")
if any(r["body"] != "full" for r in rows):
    out.append("\n## Where the VCC time goes (ms per run of the 4-layer stack)\n")
    out.append("attention = full - noattn; rest of the layer (LN, projections, FFN "
               "on r rows, heads) = noattn - none; VCC ops = none (vip_order, "
               "gather_rows, tree_build, per layer the VIP queries, tree_select, "
               "vcc_compress, tree_update; tree_materialize, inverse gather).\n")
    out.append("| tree | n | rows | full | attention | rest of layer | VCC ops |")
    out.append("|---|---|---|---|---|---|---|")
    for v, _ in trees:
        for n in ns:
            f, na, no = ms(v, "full", n), ms(v, "noattn", n), ms(v, "none", n)
            if f is None:
                continue
            out.append(f"| {v} | {kib(n)} | {R[(v, 'full', n)]['rows']} | {fmt(f)} | "
                       f"{fmt(f - na if na is not None else None)} | "
                       f"{fmt(na - no if na is not None and no is not None else None)} | {fmt(no)} |")
out.append("\n## Memory (MiB): max RSS of the attic-run process / attic-run's heap peak of the compiled code\n")
out.append("| variant | body | n | rows | max RSS | heap peak | compile s |")
out.append("|---|---|---|---|---|---|---|")
for r in rows:
    out.append(f"| {r['variant']} | {r['body']} | {kib(int(r['n']))} | {r['rows']} | "
               f"{r['max_rss_mib']} | {r['heap_peak_mib']} | {r['compile_s']} |")
print("\n".join(out))
