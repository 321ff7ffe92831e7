#!/usr/bin/env python3
"""Writes attentions whose mask region is a long chain of tests.

usage: long_region.py TERMS [N]

@band_f32 and @band_f16 (B = 1, H = 2, N queries and keys, D = 16) keep
key k for query q where k == q - 2c for some c in [0, TERMS): every other
key of a causal band, written as TERMS compares ORed together (4 TERMS + 2
ops), the kind of region (a long list of cases) whose unrolled copies made
code generation slow.
"""
import sys


def attention(name, terms, n, elem):
    t = f"tensor<1x2x{n}x16x{elem}>"
    lines = [
        f"func.func @{name}(%q: {t}, %k: {t}, %v: {t}) -> {t} {{",
        "  %o = attic.attention %q, %k, %v mask_mod {",
        "  ^bb0(%b: index, %h: index, %qi: index, %ki: index):",
        "    %none = arith.constant false",
    ]
    prev = "%none"
    for c in range(terms):
        lines += [
            f"    %c{c} = arith.constant {2 * c} : index",
            f"    %d{c} = arith.subi %qi, %c{c} : index",
            f"    %e{c} = arith.cmpi eq, %ki, %d{c} : index",
            f"    %o{c} = arith.ori {prev}, %e{c} : i1",
        ]
        prev = f"%o{c}"
    lines += [
        f"    attic.yield {prev} : i1",
        f"  }} : {t}, {t}, {t} -> {t}",
        f"  return %o : {t}",
        "}",
    ]
    return "\n".join(lines)


def main():
    terms = int(sys.argv[1])
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 64
    print(attention("band_f32", terms, n, "f32"))
    print(attention("band_f16", terms, n, "f16"))


if __name__ == "__main__":
    main()
