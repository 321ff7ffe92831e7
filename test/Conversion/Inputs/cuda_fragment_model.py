#!/usr/bin/env python3
"""Lane-level model of attic's tensor-core attention kernel (the mma.sync
pattern of attic-gpu-map-tiles, lib/Conversion/AtticToGPU/TensorCoreTiles.cpp).

It checks the fragment bookkeeping of the derivation on the CPU, apart from
the generated IR (which the GPU simulator runs:
test/Integration/cuda-simulated-layouts.test). Every lane of a warp holds exactly the registers
that the generated code loads: Q pairs, the K and V B operands from
ldmatrix .x4 (.trans for V) of the row-major shared tiles Ks and Vs at the
kernel's per-lane row addresses, S and O accumulators, P re-packed as A
operands. An mma is computed only from those per-lane registers, rebuilt
into matrices with the PTX ISA's "Matrix Fragments for mma.m16n8k16"
layouts; ldmatrix hands out its pairs by the PTX ISA's ldmatrix layout. Quad reductions use the
shuffle pattern of the kernel (xor 1, xor 2). Tails, causal masks, key bias
and key masks follow the kernel's rules. The result is compared with a
plain dense softmax(QK^T*scale + bias) V in float64. Exits 1 on a mismatch.
"""
import sys

import numpy as np

LANES = 32


def a_layout(g, t):
    # (row, col) of a0..a7 of lane (g, t) in the 16x16 A operand.
    return [(g, 2 * t), (g, 2 * t + 1), (g + 8, 2 * t), (g + 8, 2 * t + 1),
            (g, 2 * t + 8), (g, 2 * t + 9), (g + 8, 2 * t + 8),
            (g + 8, 2 * t + 9)]


def b_layout(g, t):
    # (row k, col n) of b0..b3 in the 16x8 B operand.
    return [(2 * t, g), (2 * t + 1, g), (2 * t + 8, g), (2 * t + 9, g)]


def c_layout(g, t):
    # (row, col) of c0..c3 in the 16x8 C/D operand.
    return [(g, 2 * t), (g, 2 * t + 1), (g + 8, 2 * t), (g + 8, 2 * t + 1)]


def mma(a_regs, b_regs, c_regs, dtype):
    """a_regs[lane] = 8 values (4 pairs), b_regs[lane] = 4, c_regs[lane] = 4.
    Returns the new per-lane C registers."""
    A = np.zeros((16, 16))
    B = np.zeros((16, 8))
    C = np.zeros((16, 8))
    for lane in range(LANES):
        g, t = lane // 4, lane % 4
        for v, (r, c) in zip(a_regs[lane], a_layout(g, t)):
            A[r, c] = v
        for v, (r, c) in zip(b_regs[lane], b_layout(g, t)):
            B[r, c] = v
        for v, (r, c) in zip(c_regs[lane], c_layout(g, t)):
            C[r, c] = v
    A = A.astype(dtype).astype(np.float64)  # the multiplicands are 16-bit
    B = B.astype(dtype).astype(np.float64)
    D = A @ B + C
    return [[D[r, c] for (r, c) in c_layout(lane // 4, lane % 4)]
            for lane in range(LANES)]


def quad(values, op):
    # shuffle xor 1, then xor 2, over the lanes of each quad.
    v = list(values)
    for off in (1, 2):
        v = [op(v[l], v[l ^ off]) for l in range(LANES)]
    return v


def ldmatrix_x4(tile, lane_row, lane_col, trans):
    """ldmatrix.sync.aligned.m8n8.x4(.trans).b16 of `tile`: lane 8i + r
    gives the address (row, column) of row r of matrix i (8 elements).
    Returns per lane the 4 pairs (row i = matrix i): M_i[g][2t..2t+1], or
    with .trans M_i[2t][g], M_i[2t+1][g]."""
    mats = []
    for i in range(4):
        rows = []
        for r in range(8):
            l = 8 * i + r
            rr, cc = lane_row(l), lane_col(l)
            assert cc % 8 == 0, "ldmatrix rows must be 16-byte aligned"
            rows.append(list(tile[rr, cc:cc + 8]))
        mats.append(rows)
    out = []
    for l in range(LANES):
        g, t = l // 4, l % 4
        out.append([[mats[i][2 * t][g], mats[i][2 * t + 1][g]] if trans else
                    [mats[i][g][2 * t], mats[i][g][2 * t + 1]]
                    for i in range(4)])
    return out


def kernel(q, k, v, bias, mask, causal, scale, bq, bk, dtype):
    """q: [Nq,D], k: [Nk,D], v: [Nk,Dv] of one (batch, head); bias: [Nk] or
    None; mask: [Nk] bool or None. Returns [Nq,Dv]."""
    nq, d = q.shape
    nk, dv = v.shape
    out = np.full((nq, dv), np.nan)
    log2e = 1.4426950408889634
    for q0 in range(0, nq, bq):
        key_end = min(nk, q0 + bq) if causal else nk
        for w in range(bq // 16):
            # Per lane state.
            lanes = [(l // 4, l % 4) for l in range(LANES)]
            row = [[q0 + 16 * w + g, q0 + 16 * w + g + 8] for g, _ in lanes]
            rc = [[min(r, nq - 1) for r in rr] for rr in row]
            qfrag = []
            for kc in range(d // 16):
                regs = []
                for l, (g, t) in enumerate(lanes):
                    c, ch = 16 * kc + 2 * t, 16 * kc + 8 + 2 * t
                    regs.append([*q[rc[l][0], c:c + 2], *q[rc[l][1], c:c + 2],
                                 *q[rc[l][0], ch:ch + 2],
                                 *q[rc[l][1], ch:ch + 2]])
                qfrag.append(regs)
            m = [[-np.inf, -np.inf] for _ in range(LANES)]
            lsum = [[0.0, 0.0] for _ in range(LANES)]
            acc = [[[0.0] * 4 for _ in range(LANES)] for _ in range(dv // 8)]
            for k0 in range(0, -(-key_end // bk) * bk, bk):
                # Shared tiles: Ks[r] = K[k0+r], Vs[r] = V[k0+r] (0 past
                # Nk), term.
                ks = np.zeros((bk, d))
                vs = np.zeros((bk, dv))
                term = np.zeros(bk)
                for r in range(bk):
                    key = k0 + r
                    if key < nk:
                        ks[r] = k[key]
                        vs[r] = v[key]
                    ok = key < nk and (mask is None or mask[min(key, nk - 1)])
                    t_ = bias[min(key, nk - 1)] * log2e if bias is not None else 0.0
                    term[r] = t_ if ok else -np.inf
                # S chunks nc, nc+1: B operands from one ldmatrix .x4 of Ks
                # per 16 columns kc (lane l: row 8(nc + l/16) + l%8,
                # column 16kc + 8((l/8)%2)).
                s = []
                for nc in range(0, bk // 8, 2):
                    c = [[[0.0] * 4 for _ in range(LANES)] for _ in range(2)]
                    for kc in range(d // 16):
                        frags = ldmatrix_x4(
                            ks, lambda l: 8 * (nc + l // 16) + l % 8,
                            lambda l: 16 * kc + 8 * ((l // 8) % 2), False)
                        for h in range(2):
                            b = [frags[l][2 * h] + frags[l][2 * h + 1]
                                 for l in range(LANES)]
                            c[h] = mma(qfrag[kc], b, c[h], dtype)
                    s.extend(c)
                # sv[l][r][2nc+e]
                sv = [[[], []] for _ in range(LANES)]
                for l, (g, t) in enumerate(lanes):
                    for nc in range(bk // 8):
                        for e in range(2):
                            j = 8 * nc + 2 * t + e
                            for r in range(2):
                                x = s[nc][l][2 * r + e] * scale * log2e + term[j]
                                if causal and not (k0 + j <= row[l][r]):
                                    x = -np.inf
                                sv[l][r].append(x)
                p = [[None, None] for _ in range(LANES)]
                alpha = [[None, None] for _ in range(LANES)]
                for r in range(2):
                    mx = quad([max(sv[l][r]) for l in range(LANES)], max)
                    for l in range(LANES):
                        mnew = max(m[l][r], mx[l])
                        msafe = 0.0 if mnew == -np.inf else mnew
                        alpha[l][r] = 2.0 ** (m[l][r] - msafe)
                        p[l][r] = [2.0 ** (x - msafe) for x in sv[l][r]]
                        lsum[l][r] = alpha[l][r] * lsum[l][r] + sum(p[l][r])
                        m[l][r] = mnew
                for j in range(dv // 8):
                    for l in range(LANES):
                        acc[j][l] = [acc[j][l][0] * alpha[l][0], acc[j][l][1] * alpha[l][0],
                                     acc[j][l][2] * alpha[l][1], acc[j][l][3] * alpha[l][1]]
                for kk in range(bk // 16):
                    a = []
                    for l in range(LANES):
                        pp = p[l]
                        a.append([pp[0][2 * (2 * kk)], pp[0][2 * (2 * kk) + 1],
                                  pp[1][2 * (2 * kk)], pp[1][2 * (2 * kk) + 1],
                                  pp[0][2 * (2 * kk + 1)], pp[0][2 * (2 * kk + 1) + 1],
                                  pp[1][2 * (2 * kk + 1)], pp[1][2 * (2 * kk + 1) + 1]])
                    # Chunks j, j+1: B operands from one ldmatrix .x4 .trans
                    # of Vs (lane l: row 16kk + 8((l/8)%2) + l%8, column
                    # 8(j + l/16)).
                    for j in range(0, dv // 8, 2):
                        frags = ldmatrix_x4(
                            vs, lambda l: 16 * kk + 8 * ((l // 8) % 2) + l % 8,
                            lambda l: 8 * (j + l // 16), True)
                        for h in range(2):
                            b = [frags[l][2 * h] + frags[l][2 * h + 1]
                                 for l in range(LANES)]
                            acc[j + h] = mma(a, b, acc[j + h], dtype)
            for r in range(2):
                lq = quad([lsum[l][r] for l in range(LANES)], lambda x, y: x + y)
                for l, (g, t) in enumerate(lanes):
                    inv = 1.0 / lq[l] if lq[l] > 0 else 0.0
                    if row[l][r] < nq:
                        for j in range(dv // 8):
                            for e in range(2):
                                out[row[l][r], 8 * j + 2 * t + e] = acc[j][l][2 * r + e] * inv
    return out


def reference(q, k, v, bias, mask, causal, scale):
    nq, nk = q.shape[0], k.shape[0]
    s = q @ k.T * scale
    if bias is not None:
        s = s + bias[None, :]
    allowed = np.ones((nq, nk), bool)
    if mask is not None:
        allowed &= mask[None, :]
    if causal:
        allowed &= np.arange(nk)[None, :] <= np.arange(nq)[:, None]
    s = np.where(allowed, s, -np.inf)
    out = np.zeros((nq, v.shape[1]))
    for i in range(nq):
        if not allowed[i].any():
            continue
        e = np.exp(s[i] - s[i][allowed[i]].max())
        out[i] = e @ v / e.sum()
    return out


def main():
    rng = np.random.default_rng(5)
    cases = [
        # nq, nk, d, dv, causal, bias, mask, bq, bk
        (40, 70, 32, 16, False, False, False, 32, 32),
        (40, 70, 32, 16, True, False, False, 32, 32),
        (70, 40, 16, 32, True, True, True, 16, 16),
        (33, 49, 64, 64, False, True, True, 64, 64),
        (20, 20, 16, 16, False, False, "none", 16, 16),
    ]
    worst = 0.0
    for nq, nk, d, dv, causal, use_bias, use_mask, bq, bk in cases:
        for dtype in (np.float16,):
            q = rng.uniform(-1, 1, (nq, d)).astype(dtype).astype(np.float64)
            k = rng.uniform(-1, 1, (nk, d)).astype(dtype).astype(np.float64)
            v = rng.uniform(-1, 1, (nk, dv)).astype(dtype).astype(np.float64)
            bias = rng.uniform(-1, 1, nk) if use_bias else None
            if use_mask == "none":
                mask = np.zeros(nk, bool)  # every key masked: rows give 0
            else:
                mask = rng.uniform(0, 1, nk) < 0.8 if use_mask else None
            scale = 1 / np.sqrt(d)
            got = kernel(q, k, v, bias, mask, causal, scale, bq, bk, dtype)
            want = reference(q, k, v, bias, mask, causal, scale)
            if not np.isfinite(got).all():
                print("non-finite output for case", (nq, nk, d, dv, causal))
                return 1
            err = np.abs(got - want).max() / max(np.abs(want).max(), 1e-30)
            if use_mask == "none":
                err = np.abs(got).max()
            worst = max(worst, err)
            print(f"nq={nq} nk={nk} d={d} dv={dv} causal={causal} "
                  f"bias={use_bias} mask={use_mask} bq={bq} bk={bk}: "
                  f"max_rel_err={err:.2e}")
    # P is rounded to f16 before P V, as in the kernel.
    if worst > 2e-3:
        print(f"FAIL: worst relative error {worst:.2e}")
        return 1
    print(f"ok: worst relative error {worst:.2e}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
