#!/usr/bin/python3
"""Joins attic-bench-attention's CSV and torch_attention.py's CSV.

    merge.py --attic A.csv --torch T.csv --sgemm GFLOPS --out OUT.csv

Writes OUT.csv (one row per N and causal setting) and prints a table with the
ratios the issue asks for: attic's GFLOP/s as a share of the sgemm GFLOP/s
measured in the same run, and attic's speedup over OpenBLAS-based and
PyTorch eager attention (baseline time / attic time).
"""
import argparse
import csv

# attic-bench-attention's bound for attic against OpenBLAS.
TOLERANCE = 1e-4


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--attic", required=True)
    parser.add_argument("--torch", required=True)
    parser.add_argument("--sgemm", type=float, required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()

    with open(args.torch) as f:
        torch_rows = {(r["n"], r["causal"]): r for r in csv.DictReader(f)}
    rows = []
    with open(args.attic) as f:
        for r in csv.DictReader(f):
            t = torch_rows.get((r["n"], r["causal"]))
            if t is None:
                raise SystemExit(f"merge.py: no torch row for N={r['n']} causal={r['causal']}")
            attic_ms, blas_ms, torch_ms = float(r["attic_ms"]), float(r["blas_ms"]), float(t["torch_ms"])
            # torch's output against attic's, at the bound of attic's own
            # check against OpenBLAS: a baseline that computes something
            # else has no speed-up to report.
            torch_ok = float(t["torch_vs_attic_max_rel_err"]) <= TOLERANCE
            rows.append({
                "n": r["n"], "causal": r["causal"], "heads": r["heads"], "d": r["d"],
                "attic_threads": r["attic_threads"], "openblas_num_threads": r["openblas_num_threads"],
                "torch_threads": t["torch_threads"],
                "attic_ms": r["attic_ms"], "blas_ms": r["blas_ms"], "torch_ms": t["torch_ms"],
                "attic_gflops": r["attic_gflops"], "blas_gflops": r["blas_gflops"],
                "torch_gflops": t["torch_gflops"], "sgemm_gflops": f"{args.sgemm:.1f}",
                "attic_share_of_sgemm": f"{float(r['attic_gflops']) / args.sgemm:.3f}",
                "speedup_vs_blas": f"{blas_ms / attic_ms:.2f}",
                "speedup_vs_torch": f"{torch_ms / attic_ms:.2f}",
                "attic_vs_blas_max_rel_err": r["attic_max_rel_err"],
                "torch_vs_attic_max_rel_err": t["torch_vs_attic_max_rel_err"],
                "torch_mode": t["torch_mode"],
                # attic's own failure first (torch then differs too).
                "check": ("torch-differs" if r["check"] == "ok" and not torch_ok
                          else r["check"]),
            })
    with open(args.out, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        writer.writeheader()
        writer.writerows(rows)
    print(f"{'N':>6} {'causal':>6} {'attic_GF':>9} {'blas_GF':>8} {'torch_GF':>8} "
          f"{'attic/sgemm':>11} {'x_blas':>7} {'x_torch':>7} {'check':>5}")
    for r in rows:
        print(f"{r['n']:>6} {r['causal']:>6} {float(r['attic_gflops']):9.1f} "
              f"{float(r['blas_gflops']):8.1f} {float(r['torch_gflops']):8.1f} "
              f"{float(r['attic_share_of_sgemm']) * 100:10.0f}% "
              f"{float(r['speedup_vs_blas']):7.2f} {float(r['speedup_vs_torch']):7.2f} "
              f"{r['check']:>5}")
    torch_bad = sum(r["check"] == "torch-differs" for r in rows)
    attic_bad = sum(r["check"] not in ("ok", "torch-differs") for r in rows)
    if torch_bad or attic_bad:
        raise SystemExit(
            f"merge.py: {attic_bad} row(s) failed attic's check against "
            f"OpenBLAS, {torch_bad} row(s) have torch's output differing from "
            f"attic's by more than {TOLERANCE} (max rel err)")


if __name__ == "__main__":
    main()
