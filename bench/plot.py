#!/usr/bin/python3
"""bench/plot.py CSV [--out PNG] [--title TITLE]: time against sequence
length for every implementation in a benchmark's CSV, log-log, as a PNG next
to it (default: the CSV's name with .png), like Figure 1 of the VCC paper.

Reads the two CSV shapes attic's benchmarks write ('#' lines are comments):
  long: columns n (or N), variant (or pair), ms   -> one line per variant
  wide: columns n (or N) and <impl>_ms           -> one line per column
Configuration columns (causal, D, heads, body, ...) that take several values
split the lines further: a line per value, named "impl (causal=on)". Debian's python3-matplotlib
(scripts/setup.sh installs it); Agg backend, no display needed."""

import argparse
import csv
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


# Columns that describe a configuration rather than a measurement.
SPLIT = ("causal", "D", "d", "heads", "body", "batch", "dtype", "threads",
         "attic_threads")


def number(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def series(rows):
    """{label: [(n, ms), ...]} from the rows of either CSV shape."""
    if not rows:
        return {}
    columns = list(rows[0].keys())
    ncol = "n" if "n" in columns else "N" if "N" in columns else None
    if ncol is None:
        sys.exit("plot.py: error: no column n or N")
    names = [c for c in ("variant", "pair") if c in columns]
    if names and "ms" in columns:
        timed = [("ms", None)]
    else:
        timed = [(c, c[:-3]) for c in columns
                 if c.endswith("_ms") and c not in ("min_ms", "max_ms")]
        if "median_ms" in columns:
            timed = [("median_ms", "")]
    if not timed:
        sys.exit("plot.py: error: no time column (ms, median_ms or *_ms)")
    # Configuration columns that take several values split the lines.
    keys = [c for c in columns if c in SPLIT and len({r[c] for r in rows}) > 1]
    out = {}
    for r in rows:
        n = number(r[ncol])
        if n is None:
            continue
        for column, impl in timed:
            ms = number(r[column])
            if ms is None or ms <= 0:
                continue
            label = r[names[0]] if impl is None else (impl or "time")
            extra = ", ".join("%s=%s" % (k, r[k]) for k in keys)
            if names and impl is not None:
                label = r[names[0]] + (" " + impl if impl else "")
            if extra:
                label += " (%s)" % extra
            out.setdefault(label, []).append((n, ms))
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("csv")
    parser.add_argument("--out")
    parser.add_argument("--title")
    args = parser.parse_args()
    with open(args.csv) as f:
        lines = [l for l in f if not l.startswith("#") and l.strip()]
    rows = list(csv.DictReader(lines))
    lines_by_label = series(rows)
    if not lines_by_label:
        sys.exit("plot.py: error: %s: no timings to plot" % args.csv)
    out = args.out or os.path.splitext(args.csv)[0] + ".png"
    fig, ax = plt.subplots(figsize=(7.5, 5))
    for label, points in sorted(lines_by_label.items()):
        points.sort()
        ax.plot([p[0] for p in points], [p[1] for p in points], marker="o",
                markersize=3, label=label)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("sequence length N")
    ax.set_ylabel("time (ms)")
    ax.set_title(args.title or os.path.relpath(args.csv))
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize="small", ncol=2 if len(lines_by_label) > 8 else 1)
    fig.tight_layout()
    fig.savefig(out, dpi=100)
    print("plot: %s" % out)


if __name__ == "__main__":
    main()
