#!/usr/bin/env python3
"""Random attic.attention ops run end to end against the reference.

Each case is a random attention: a random layout (every kind of
AtticLayouts.td, and intersections and unions of them, blocked ones
included), random shapes (lengths that are not multiples of any block,
Nq != Nk, grouped-query heads, D != Dv), element type, causal flag, scale,
key bias (per batch or per head), key mask, and sometimes a mask or score
region. The function is compiled and run by attic-run with --check on the
CPU with random code-generation options, through the emulated CUDA mapping,
(small f16/bf16 cases) in the GPU simulator's tensor-core kernel, and
ahead of time (attic-compile's library run by attic-aot-run, from C with
libattic_rt.so alone, against the reference's results). A third of the
CPU runs are repeated with another thread count, and every result must be
bitwise the same (determinism). The
lit tests run fixed cases; this looks for the combinations nobody wrote
down. Only the standard library: run it with any python3.

  scripts/sweep-layouts.py [COUNT] [--seed=N] [--keep=DIR] [--targets=cpu,emulated,simulated,aot]
  scripts/sweep-layouts.py --others [COUNT] ...
  scripts/sweep-layouts.py --given-lists [COUNT] ...
  scripts/sweep-layouts.py --vcc [COUNT] ...
  scripts/sweep-layouts.py --large [COUNT] ...   (sequences up to 3000, not 400)
  scripts/sweep-layouts.py --bad-lists [COUNT] ...
  scripts/sweep-layouts.py --l2 [COUNT] ...      (every case as attic.block_attention)

--bad-lists gives every case caller-given lists with one defect (a count
outside [0, L], an index outside [0, nKB), a list not strictly ascending,
a block in both lists), which attic-run must report (exit 1, the
runtime's message) on the CPU, the emulated mapping and the simulator.

About one case in ten has block lists given by the caller (constants):
random key blocks per query block, split into a partial and a full list
(a full block is visible whole, whatever the layout, causal flag and mask
region say), with garbage past the counts. --given-lists gives every
case such lists.

With --vcc, the cases are VCC encoders written by attic-gen vcc-encoder
with random sizes (layers, batch, tree levels and fanouts, VIP tokens,
heads, budgets, the authors' layer choices), on the CPU, the emulated
CUDA mapping and ahead of time.

With --others, the cases are the other families instead (kernelized,
LSH, clustered, Skeinformer, Informer, Linformer, Nystrom, Synthesizer,
composite slice attention: random shapes
and parameters within what their verifiers accept), on the CPU and the
emulated CUDA mapping.

A quarter of the attention cases have dynamic shapes (given by --shape).

Needs build/ (scripts/setup.sh). Exit status 1 if any run failed; the
failing case's file and command are printed (and kept with --keep).
"""

import os
import random
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ATTIC_RUN = os.environ.get("ATTIC_RUN") or os.path.join(ROOT, "build", "tools", "attic-run")


def positional(r, nq, nk):
    """A random positional (compile-time classified) layout."""
    n = max(nq, nk)
    align = r.choice(["", ", align = bottom_right"])
    kind = r.choice(["causal", "window", "dilated", "strided", "fixed",
                     "global", "sinks", "block_diagonal", "blocked"])
    if kind == "causal":
        return r.choice(["#attic.causal", "#attic.causal<bottom_right>"])
    if kind == "window":
        return "#attic.window<left = %d, right = %d%s>" % (
            r.randint(0, n), r.randint(0, n // 2), align)
    if kind == "dilated":
        return "#attic.dilated<left = %d, right = %d, dilation = %d%s>" % (
            r.randint(0, n), r.randint(0, n), r.randint(1, 9), align)
    if kind == "strided":
        return "#attic.strided<stride = %d%s>" % (r.randint(1, 40), align)
    if kind == "fixed":
        block = r.randint(1, 70)
        return "#attic.fixed<block = %d, summary = %d>" % (
            block, r.randint(1, block))
    if kind == "global":
        tokens = sorted(r.sample(range(max(nq, nk) + 5), r.randint(1, 4)))
        return "#attic.global<tokens = [%s]>" % ", ".join(map(str, tokens))
    if kind == "sinks":
        return "#attic.sinks<count = %d>" % r.randint(1, 20)
    if kind == "block_diagonal":
        query = r.randint(1, 64)
        key = r.randint(1, 96)
        causal = ", causal = true" if r.random() < 0.4 and key >= query else ""
        return "#attic.block_diagonal<query = %d, key = %d%s>" % (
            query, key, causal)
    inner = positional(r, max(1, nq // 8), max(1, nk // 8))
    while inner.startswith("#attic.blocked"):
        inner = positional(r, max(1, nq // 8), max(1, nk // 8))
    return "#attic.blocked<size = %d, layout = %s>" % (r.randint(1, 48), inner)


def layout(r, nq, nk, ids):
    """A random layout, possibly a composition; `ids` gets the layout
    operands it needs (document ids) appended."""
    def atom():
        x = r.random()
        if x < 0.12:
            if not ids:
                ids.append("ids")
            return "#attic.documents<query_ids = 0, key_ids = 0>"
        if x < 0.22:
            return "#attic.random<block = %d, count = %d, seed = %d>" % (
                r.choice([1, 8, 16, 32, 50]), r.randint(1, 3), r.randint(0, 999))
        return positional(r, nq, nk)
    x = r.random()
    if x < 0.15:
        return None
    if x < 0.6:
        return atom()
    op = r.choice(["union", "intersect"])
    parts = [atom() for _ in range(r.randint(2, 3))]
    return "#attic.%s<[%s]>" % (op, ", ".join(parts))


MASK_REGIONS = [
    # affine: a window relative to the diagonal
    ("affine", """
      mask_mod {
      ^bb0(%b: index, %h: index, %qi: index, %ki: index):
        %c = arith.constant {c} : index
        %d = arith.addi %qi, %c : index
        %p = arith.cmpi sle, %ki, %d : index
        attic.yield %p : i1
      }"""),
    # not affine: a key pattern depending on the head
    ("modulo", """
      mask_mod {
      ^bb0(%b: index, %h: index, %qi: index, %ki: index):
        %c3 = arith.constant 3 : index
        %s = arith.addi %ki, %h : index
        %m = arith.remui %s, %c3 : index
        %z = arith.constant 0 : index
        %p = arith.cmpi ne, %m, %z : index
        attic.yield %p : i1
      }"""),
]

SCORE_REGIONS = [
    ("softcap", """
      score_mod {
      ^bb0(%s: f32, %b: index, %h: index, %qi: index, %ki: index):
        %cap = arith.constant {c}.0 : f32
        %x = arith.divf %s, %cap : f32
        %t = math.tanh %x : f32
        %r = arith.mulf %t, %cap : f32
        attic.yield %r : f32
      }"""),
    ("distance", """
      score_mod {
      ^bb0(%s: f32, %b: index, %h: index, %qi: index, %ki: index):
        %d = arith.subi %ki, %qi : index
        %di = arith.index_cast %d : index to i64
        %df = arith.sitofp %di : i64 to f32
        %c = arith.constant -{coef} : f32
        %a = math.absf %df : f32
        %pen = arith.mulf %a, %c : f32
        %r = arith.addf %s, %pen : f32
        attic.yield %r : f32
      }"""),
]


GIVEN_ONLY = False  # --given-lists: every case has caller-given lists
BAD_LISTS = False  # --bad-lists: given lists with one defect, which must be reported
L2_SHARE = 0.15  # the share of cases written as attic.block_attention (--l2: all)
MAX_LEN = 400  # the longest sequences, but in the simulator (--large: 3000)


# Regions that read captures (function arguments): per-head slopes
# [Hq] of f32 (ALiBi-like) and a per-key table [B, Nk] of f32.
CAPTURE_MASK = ("table", """
      mask_mod {
      ^bb0(%b: index, %h: index, %qi: index, %ki: index{args}):
        %x = tensor.extract %cap_t[%b, %ki] : {tt}
        %lim = arith.constant -0.6 : f32
        %p = arith.cmpf ogt, %x, %lim : f32
        attic.yield %p : i1
      }""")
CAPTURE_SCORE = ("slopes", """
      score_mod {
      ^bb0(%s: f32, %b: index, %h: index, %qi: index, %ki: index{args}):
        %sl = tensor.extract %cap_s[%h] : {st}
        %d = arith.subi %ki, %qi : index
        %di = arith.index_cast %d : index to i64
        %df = arith.sitofp %di : i64 to f32
        %tenth = arith.constant {tenth} : f32
        %wsl = arith.mulf %sl, %tenth : f32
        %pen = arith.mulf %wsl, %df : f32
        %r = arith.addf %s, %pen : f32
        attic.yield %r : f32
      }""")


def case(r, small, low_precision=False):
    """A random function; returns (mlir text, description, dtype)."""
    dtype = r.choice(["f16", "bf16"] if low_precision else ["f32", "f16", "bf16"])
    b = r.randint(1, 2)
    hkv = r.randint(1, 2 if small else 3)
    hq = hkv * r.randint(1, 2 if small else 3)
    hi = 160 if small else MAX_LEN
    nq = r.randint(1, hi)
    nk = nq if r.random() < 0.5 else r.randint(1, hi)
    if small or dtype != "f32":
        d = r.choice([16, 32, 64]) if small else r.choice([8, 16, 24, 32, 64])
    else:
        d = r.randint(1, 70)
    dv = d if r.random() < 0.7 else (r.choice([16, 32, 64]) if small
                                     else r.randint(1, 70))
    ids = []
    lay = layout(r, nq, nk, ids)
    # Block lists (FlexAttention's BlockMask) from attic.block_mask, of this
    # layout or of another one: then a key is visible where both allow it.
    lists = None
    if r.random() < 0.2:
        lists = lay if lay and r.random() < 0.5 else \
            (layout(r, nq, nk, ids) or "#attic.dense")
    # Or lists given by the caller (constants): random key blocks, full
    # ones where the layout may not visit every key, garbage past counts.
    if GIVEN_ONLY:
        lists = None
    given = lists is None and (GIVEN_ONLY or r.random() < 0.12)
    if ids:
        nk = nq  # one ids tensor serves the queries and the keys
    causal = r.random() < 0.3
    scale = r.choice([None, None, 0.05, 0.3, 1.0, -0.2])
    bias = r.choice([None, None, "batch", "head"])
    mask = r.random() < 0.3
    mask_region = r.choice(MASK_REGIONS) if r.random() < 0.15 else None
    score_region = r.choice(SCORE_REGIONS) if r.random() < 0.15 else None
    # Captures: one or both regions read function arguments.
    captures = r.random() < 0.12
    if captures:
        if r.random() < 0.6:
            mask_region = CAPTURE_MASK
        if r.random() < 0.6 or mask_region is not CAPTURE_MASK:
            score_region = CAPTURE_SCORE

    t = lambda *s: "tensor<%sx%s>" % ("x".join(map(str, s)), dtype)
    qt, kt, vt, ot = t(b, hq, nq, d), t(b, hkv, nk, d), t(b, hkv, nk, dv), \
        t(b, hq, nq, dv)
    args = ["%%q: %s" % qt, "%%k: %s" % kt, "%%v: %s" % vt]
    clauses, body = [], []
    if causal:
        clauses.append("causal")
    if scale is not None:
        clauses.append("scale %r" % scale)
    if lay:
        clauses.append("layout(%s)" % lay)
    if ids:
        # Document ids, not sorted: id = ((i / L) * 7 + b) mod 3.
        body.append("""  %%ids = tensor.generate {
  ^bb0(%%bb: index, %%i: index):
    %%len = arith.constant %d : index
    %%c7 = arith.constant 7 : index
    %%c3 = arith.constant 3 : index
    %%doc = arith.divui %%i, %%len : index
    %%x = arith.muli %%doc, %%c7 : index
    %%y = arith.addi %%x, %%bb : index
    %%z = arith.remui %%y, %%c3 : index
    %%id = arith.index_cast %%z : index to i32
    tensor.yield %%id : i32
  } : tensor<%dx%dxi32>""" % (r.randint(1, 80), b, nq))
        if lay and "documents" in lay:
            clauses.append("layout_operands(%%ids : tensor<%dx%dxi32>)"
                           % (b, nq))
    if bias:
        bt = "tensor<%dx%dxf32>" % (b, nk) if bias == "batch" else \
            "tensor<%dx%dx%dxf32>" % (b, hq, nk)
        args.append("%%bias: %s" % bt)
        clauses.append("bias(%%bias : %s)" % bt)
    if mask:
        mt = "tensor<%dx%dxi1>" % (b, nk)
        args.append("%%mask: %s" % mt)
        clauses.append("mask(%%mask : %s)" % mt)
    # Lists with one batch (head) row stand for every batch (head); the
    # verifiers refuse them where the attention's layout or mask region
    # depends on the batch (documents, a region reading %b) or on the head
    # (random, a region reading %h), so such cases get full-size lists.
    def region_reads(name):
        if not mask_region:
            return False
        text = "\n".join(l for l in mask_region[1].splitlines()
                         if "^bb0" not in l)
        return re.search(r"%" + name + r"\b", text) is not None
    by_batch = "documents" in (lay or "") or region_reads("b")
    by_head = "random" in (lay or "") or region_reads("h")
    list_blocks = None
    if lists:
        bq = r.choice([64, 128]) if small else r.randint(1, 128)
        bk = r.choice([16, 32, 64, 128]) if small else r.randint(1, 160)
        bp = b if "documents" in lists or by_batch or r.random() < 0.5 \
            else 1
        hp = hq if "random" in lists or by_head or r.random() < 0.5 else 1
        nqb, cap = -(-nq // bq), -(-nk // bk)
        t3 = "tensor<%dx%dx%dxi32>" % (bp, hp, nqb)
        t4 = "tensor<%dx%dx%dx%dxi32>" % (bp, hp, nqb, cap)
        operands = ("layout_operands(%%ids : tensor<%dx%dxi32>) " % (b, nq)
                    if "documents" in lists else "")
        body.append("""  %%nq = arith.constant %d : index
  %%nk = arith.constant %d : index
  %%e3 = tensor.empty() : %s
  %%e4 = tensor.empty() : %s
  %%n, %%i, %%fn, %%fi = attic.block_mask layout(%s) %ssizes(%%nq, %%nk)
      outs(%%e3, %%e4, %%e3, %%e4 : %s, %s, %s, %s)
      {block_q = %d : i64, block_k = %d : i64} -> %s, %s, %s, %s""" % (
            nq, nk, t3, t4, lists, operands, t3, t4, t3, t4, bq, bk,
            t3, t4, t3, t4))
        clauses.append("blocks(%%n, %%i, %%fn, %%fi : %s, %s, %s, %s) "
                       "block_sizes [%d, %d]" % (t3, t4, t3, t4, bq, bk))
        list_blocks = (bq, bk)
    if given:
        bq = r.choice([64, 128]) if small else r.randint(1, 128)
        bk = r.choice([16, 32, 64, 128]) if small else r.randint(1, 160)
        bp = b if by_batch else r.choice([1, b])
        hp = hq if by_head else r.choice([1, hq])
        nqb, nkb = -(-nq // bq), -(-nk // bk)
        cap, fcap = r.randint(1, nkb), r.randint(1, nkb)
        rows = bp * hp * nqb
        counts, indices, fcounts, findices = [], [], [], []
        for _ in range(rows):
            chosen = sorted(r.sample(range(nkb), r.randint(0, nkb)))
            r.shuffle(chosen)
            part = sorted(chosen[:r.randint(0, min(cap, len(chosen)))])
            rest = [k for k in chosen if k not in part]
            full = sorted(rest[:r.randint(0, min(fcap, len(rest)))])
            for c, l, n, lst in ((counts, indices, cap, part),
                                 (fcounts, findices, fcap, full)):
                c.append(len(lst))
                # Entries past the count are never read: garbage.
                l.extend(lst + [r.choice([0, nkb, -1, 2 ** 31 - 1])
                                for _ in range(n - len(lst))])
        if BAD_LISTS:
            expect = corrupt(r, rows, nkb, cap, fcap, counts, indices,
                             fcounts, findices, hp, nqb)
        t3 = "tensor<%dx%dx%dxi32>" % (bp, hp, nqb)
        t4 = "tensor<%dx%dx%dx%dxi32>" % (bp, hp, nqb, cap)
        t4f = "tensor<%dx%dx%dx%dxi32>" % (bp, hp, nqb, fcap)
        const = lambda name, values, ty: \
            "  %%%s = arith.constant dense<[%s]> : tensor<%dxi32>\n" \
            "  %%%s = tensor.expand_shape %%%s_flat %s output_shape %s " \
            ": tensor<%dxi32> into %s" % (
                name + "_flat", ", ".join(map(str, values)), len(values),
                name, name, "[[%s]]" % ", ".join(
                    str(i) for i in range(ty.count("x"))),
                "[%s]" % ", ".join(ty[7:ty.rindex("x")].split("x")),
                len(values), ty)
        body.append(const("n", counts, t3))
        body.append(const("i", indices, t4))
        body.append(const("fn", fcounts, t3))
        body.append(const("fi", findices, t4f))
        clauses.append("blocks(%%n, %%i, %%fn, %%fi : %s, %s, %s, %s) "
                       "block_sizes [%d, %d]" % (t3, t4, t3, t4f, bq, bk))
        list_blocks = (bq, bk)
        lists = "given"
    regions = ""
    if mask_region:
        regions += mask_region[1].replace("{c}", str(r.randint(-20, 60)))
    if score_region:
        # The distance penalties grow with |k - q|: over a few hundred, the
        # logits' f32 rounding alone misses 1e-5 (docs/getting-started.md;
        # --large failed 2 cases in 190 at 1.2e-5), so in sequences longer
        # than 400 the penalty per token shrinks and stays under about 40.
        reach = 400.0 / max(400, nq, nk)
        c = r.randint(1, 30)
        regions += score_region[1].replace("{c}", str(c)).replace(
            "{coef}", repr(float("0.0%d" % c) * reach)).replace(
            "{tenth}", repr(0.1 * reach))
    block_args = ""
    if captures:
        st = "tensor<%dxf32>" % hq
        tt = "tensor<%dx%dxf32>" % (b, nk)
        args += ["%%slopes: %s" % st, "%%table: %s" % tt]
        clauses.append("captures(%%slopes, %%table : %s, %s)" % (st, tt))
        block_args = ", %%cap_s: %s, %%cap_t: %s" % (st, tt)
        regions = regions.replace("{st}", st).replace("{tt}", tt)
    regions = regions.replace("{args}", "")
    regions = re.sub(r"(\^bb0\([^)]*)\):", lambda m: m.group(1) + block_args
                     + "):", regions)
    l2 = r.random() < L2_SHARE
    if l2:
        text = block_attention(r, args, body, clauses, regions, list_blocks,
                               (qt, kt, vt, ot), (b, hq, nq, d, dv), dtype)
    else:
        text = "func.func @f(%s) -> %s {\n%s\n" % (", ".join(args), ot,
                                                    "\n".join(body))
        text += "  %%o = attic.attention %%q, %%k, %%v %s%s\n      : %s, %s, %s -> %s\n" % (
            " ".join(clauses), regions, qt, kt, vt, ot)
        text += "  return %%o : %s\n}\n" % ot
    desc = "%s B=%d Hq=%d Hkv=%d Nq=%d Nk=%d D=%d Dv=%d %s" % (
        dtype, b, hq, hkv, nq, nk, d, dv, " ".join(
            c for c in clauses if not c.startswith("layout_operands")))
    if lists:
        desc += " lists=" + lists
    if mask_region:
        desc += " mask_mod=" + mask_region[0]
    if score_region:
        desc += " score_mod=" + score_region[0]
    if captures:
        desc += " (captures)"
    if l2:
        desc += " (as attic.block_attention)"
    if BAD_LISTS:
        desc += " expect-error=" + expect
    return text, desc, dtype


def corrupt(r, rows, nkb, cap, fcap, counts, indices, fcounts, findices,
            hp, nqb):
    """--bad-lists: one defect in valid lists (a count outside [0, L], an
    index outside [0, nKB), a list not strictly ascending, a block in both
    lists of a query block); returns what the runtime's report of it must
    contain, pieces separated by "|" (the list and its [b, h, qb] row)."""
    kind = r.choice(["count", "index", "order", "both"])
    row = r.randrange(rows)

    def at(row):
        return "%d, %d, %d" % (row // (hp * nqb), row // nqb % hp, row % nqb)
    if kind == "order":
        rows_ok = [x for x in range(rows) if counts[x] >= 2]
        if rows_ok:
            row = r.choice(rows_ok)
            t = r.randrange(counts[row] - 1)
            e = row * cap + t
            if r.random() < 0.5:  # swapped
                indices[e], indices[e + 1] = indices[e + 1], indices[e]
            else:  # listed twice
                indices[e + 1] = indices[e]
            return "lists: kv_indices[%s, :] lists key block|" \
                "each list must be strictly ascending" % at(row)
        kind = "count"
    if kind == "both":
        rows_ok = [x for x in range(rows)
                   if counts[x] >= 1 and fcounts[x] < fcap]
        if rows_ok:
            row = r.choice(rows_ok)
            block = indices[row * cap + r.randrange(counts[row])]
            full = sorted(findices[row * fcap:row * fcap + fcounts[row]] +
                          [block])
            findices[row * fcap:row * fcap + len(full)] = full
            fcounts[row] += 1
            return "lists: query block [%s] lists key block %d in kv_indices " \
                "and in full_kv_indices" % (at(row), block)
        kind = "count"
    if kind == "index":
        rows_ok = [x for x in range(rows) if counts[x] >= 1]
        if rows_ok:
            row = r.choice(rows_ok)
            t = r.randrange(counts[row])
            bad = r.choice([-1, nkb, nkb + 5, -2 ** 31, 2 ** 31 - 1])
            indices[row * cap + t] = bad
            return "lists: kv_indices[%s, :] lists key block %d, outside " \
                "[0, %d)" % (at(row), bad, nkb)
        kind = "count"
    full = r.random() < 0.5
    c, n = (fcounts, fcap) if full else (counts, cap)
    c[row] = r.choice([-1, n + 1, n + 7, -2 ** 31, 2 ** 31 - 1])
    name = "full_kv" if full else "kv"
    return "lists: %s_num_blocks[%s] = %d, outside [0, %d] (the capacity " \
        "of %s_indices)" % (name, at(row), c[row], n, name)


def block_attention(r, args, body, clauses, regions, list_blocks, types,
                    dims, dtype):
    """The case as the L2 core op, attic.block_attention: `causal` and the
    layout become its layout attribute, the scale an attribute (the
    default 1/sqrt(D) when none), random block sizes (the lists' own with
    lists), and sometimes the lse destination and the pooled epilogue
    (weights [B, Nq] into [B, Hq, ceil(Nq/block_q), Dv] of f32)."""
    qt, kt, vt, ot = types
    b, hq, nq, d, dv = dims
    lay, scale, ins = None, None, []
    causal = "causal" in clauses
    for c in clauses:
        if c.startswith("layout("):
            lay = c[7:-1]
        elif c.startswith("scale "):
            scale = float(c[6:])
        elif c.startswith("blocks("):
            ins.append(c[:c.index(" block_sizes")])
        elif c != "causal":
            ins.append(c)
    # The L2 op's order: bias, mask, layout_operands, blocks, pool.
    order = ["bias(", "mask(", "layout_operands(", "blocks(", "captures("]
    ins.sort(key=lambda c: [c.startswith(o) for o in order].index(True))
    if causal:
        lay = "#attic.intersect<[#attic.causal, %s]>" % lay if lay else \
            "#attic.causal"
    lay = lay or "#attic.dense"
    if scale is None:
        scale = 1.0 / d ** 0.5
    bq, bk = list_blocks or (r.randint(1, 128), r.randint(1, 160))
    lse = r.random() < 0.5
    pool = r.random() < 0.4
    lt = "tensor<%dx%dx%dxf32>" % (b, hq, nq)
    pt = "tensor<%dx%dx%dx%dxf32>" % (b, hq, -(-nq // bq), dv)
    body = list(body) + ["  %%init = tensor.empty() : %s" % ot]
    results = [ot]
    if lse:
        body.append("  %%lse = tensor.empty() : %s" % lt)
        results.append(lt)
    if pool:
        args = args + ["%%w: tensor<%dx%dxf32>" % (b, nq)]
        body.append("  %%pool = tensor.empty() : %s" % pt)
        ins.append("pool(%%w : tensor<%dx%dxf32> into %%pool : %s)" % (
            b, nq, pt))
        results.append(pt)
    text = "func.func @f(%s) -> (%s) {\n%s\n" % (
        ", ".join(args), ", ".join(results), "\n".join(body))
    text += ("  %%o:%d = attic.block_attention ins(%%q, %%k, %%v : %s, %s, %s) "
             "%s\n      outs(%%init : %s%s)%s\n      {layout = %s, "
             "scale = %r : f32, block_q = %d : i64, block_k = %d : i64} "
             "-> %s\n") % (
        len(results), qt, kt, vt, " ".join(ins), ot,
        ", lse %%lse : %s" % lt if lse else "", regions, lay, scale, bq, bk,
        ", ".join(results))
    text += "  return %s : %s\n}\n" % (
        ", ".join("%%o#%d" % i for i in range(len(results))),
        ", ".join(results))
    return text


TENSOR = re.compile(r"tensor<((?:\d+x)+)(f32|f16|bf16|i1)>")


def make_dynamic(r, text):
    """The f32/f16/bf16/i1 tensor types of `text` with random dims dynamic
    (one choice per distinct type, so that uses agree), and the --shape
    options that give the arguments their sizes back. The query's head dim
    stays static when there is no `scale` (the default needs it)."""
    signature = text[:text.index(") ->")]
    args = [m.group(0) for m in TENSOR.finditer(signature)]
    shapes = ["--shape=%d:%s" % (i, a[7:a.rindex("x")])
              for i, a in enumerate(args)]
    choice = {}
    for t in sorted(set(m.group(0) for m in TENSOR.finditer(text))):
        dims = t[7:t.rindex("x")].split("x")
        keep = [r.random() < 0.3 for _ in dims]
        if t == args[0] and " scale " not in text:
            keep[-1] = True
        choice[t] = "tensor<%sx%s>" % ("x".join(
            d if k else "?" for d, k in zip(dims, keep)),
            t[t.rindex("x") + 1:-1])
    text = TENSOR.sub(lambda m: choice[m.group(0)], text)
    return dynamic_destinations(text), shapes


EMPTY = re.compile(r"  %(init|lse|pool) = tensor.empty\(\) : (tensor<[^>]*>)")


def dynamic_destinations(text):
    """The destinations of attic.block_attention (%init [B,Hq,Nq,Dv], %lse
    [B,Hq,Nq], %pool [B,Hq,ceil(Nq/block_q),Dv]) with dynamic dims get
    them from the query and the value (tensor.dim)."""
    if not any("?" in m.group(2) for m in EMPTY.finditer(text)):
        return text
    qt = re.search(r"%q: (tensor<[^>]*>)", text).group(1)
    vt = re.search(r"%v: (tensor<[^>]*>)", text).group(1)
    bq = int(re.search(r"block_q = (\d+)", text).group(1))
    # Names of their own: the regions' values share the function's scope.
    dims = ["  %%dc%d = arith.constant %d : index" % (i, i) for i in range(4)]
    dims += ["  %%dq%d = tensor.dim %%q, %%dc%d : %s" % (i, i, qt)
             for i in range(3)]
    dims += ["  %%dv3 = tensor.dim %%v, %%dc3 : %s" % vt,
             "  %%cbq = arith.constant %d : index" % bq,
             "  %nqb = arith.ceildivui %dq2, %cbq : index"]
    sizes = {"init": ["%dq0", "%dq1", "%dq2", "%dv3"],
             "lse": ["%dq0", "%dq1", "%dq2"],
             "pool": ["%dq0", "%dq1", "%nqb", "%dv3"]}

    def empty(m):
        shape = m.group(2)[7:m.group(2).rindex("x")].split("x")
        given = [v for v, d in zip(sizes[m.group(1)], shape) if d == "?"]
        return "  %%%s = tensor.empty(%s) : %s" % (
            m.group(1), ", ".join(given), m.group(2))
    text = EMPTY.sub(empty, text)
    head = text.index("{\n") + 2
    return text[:head] + "\n".join(dims) + "\n" + text[head:]


def divisors(n):
    return [c for c in range(1, n + 1) if n % c == 0]


def other_case(r):
    """A random op of the other families (kernelized, LSH, clustered,
    sketches), f32; returns (mlir text, description)."""
    b, h = r.randint(1, 2), r.randint(1, 3)
    n = r.randint(2, 300)
    d = r.randint(1, 48)
    dv = d if r.random() < 0.6 else r.randint(1, 48)
    t = lambda *s: "tensor<%sxf32>" % "x".join(map(str, s))
    kind = r.choice(["kernelized", "lsh", "clustered", "skeinformer",
                     "informer", "linformer", "nystrom", "synthesizer",
                     "slice"])
    if kind == "slice":
        return slice_case(r)
    nk = n
    if kind in ("kernelized", "clustered", "skeinformer", "informer",
                "linformer") and r.random() < 0.4:
        nk = r.randint(2, 300)
    if kind == "synthesizer" and r.random() < 0.4:
        nk = r.randint(2, 300)
    mask = r.random() < 0.4 and kind in ("kernelized", "lsh", "clustered",
                                         "synthesizer")
    args, extra, attrs = [], "", []
    if kind == "lsh":
        buckets = r.choice([1, 2, 4, 6, 8, 16, 32])
        attrs = ["buckets = %d : i64" % buckets,
                 "rounds = %d : i64" % r.randint(1, 4),
                 "chunk = %d : i64" % r.choice(divisors(n)),
                 "seed = %d : i64" % r.randint(0, 99)]
        if r.random() < 0.4:
            attrs.append("causal")
        args = ["%%qk: %s" % t(b, h, n, d), "%%v: %s" % t(b, h, n, dv)]
        operands, types = "%qk, %v", [t(b, h, n, d), t(b, h, n, dv)]
        op = "attic.lsh_attention"
    elif kind == "synthesizer":
        # Factors per head (no batch), the values per batch and head.
        args = ["%%r1: %s" % t(h, n, d), "%%r2: %s" % t(h, nk, d),
                "%%v: %s" % t(b, h, nk, dv)]
        operands, types = "%r1, %r2, %v", [t(h, n, d), t(h, nk, d),
                                           t(b, h, nk, dv)]
        op = "attic.synthesizer_attention"
        if nk == n and r.random() < 0.5:
            attrs.append("causal")
        if r.random() < 0.5:
            attrs.append("scale = %r : f32" % r.choice([0.1, 0.5, 2.0]))
    else:
        args = ["%%q: %s" % t(b, h, n, d), "%%k: %s" % t(b, h, nk, d),
                "%%v: %s" % t(b, h, nk, dv)]
        operands, types = "%q, %k, %v", [t(b, h, n, d), t(b, h, nk, d),
                                         t(b, h, nk, dv)]
        op = "attic.%s_attention" % kind
        if kind == "kernelized":
            fmap = r.choice(["elu_plus_one", "relu", "performer_relu",
                             "favor_plus", "cosformer"])
            op += " " + fmap
            if fmap in ("performer_relu", "favor_plus"):
                attrs += ["features = %d : i64" % r.randint(1, 96),
                          "seed = %d : i64" % r.randint(0, 99)]
            if nk == n and r.random() < 0.4:
                attrs += ["causal", "chunk = %d : i64" % r.choice(divisors(n))]
            if r.random() < 0.3:
                extra = " normalize rmsnorm"
        elif kind == "clustered":
            attrs = ["clusters = %d : i64" % r.randint(1, min(n, 40)),
                     "iterations = %d : i64" % r.randint(1, 10),
                     "seed = %d : i64" % r.randint(0, 99)]
            if r.random() < 0.4:
                attrs.append("topk = %d : i64" % r.randint(1, nk))
        elif kind == "skeinformer":
            attrs = ["samples = %d : i64" % r.randint(1, nk),
                     "seed = %d : i64" % r.randint(0, 99)]
            extra = r.choice(["", " sampling uniform", " normalization simple"])
        elif kind == "informer":
            attrs = ["factor = %d : i64" % r.randint(1, 8),
                     "seed = %d : i64" % r.randint(0, 99)]
        elif kind == "linformer":
            hp, pp = r.choice([1, h]), r.randint(1, 64)
            args.append("%%e: %s" % t(hp, pp, nk))
            extra = " projection(%%e : %s)" % t(hp, pp, nk)
        elif kind == "nystrom":
            attrs = ["landmarks = %d : i64" % r.choice(divisors(n))]
    if mask:
        args.append("%%m: tensor<%dx%dxi1>" % (b, nk if kind != "lsh" else n))
        extra = " mask(%%m : tensor<%dx%dxi1>)" % (b, nk) + extra
    ot = t(b, h, n, dv)
    text = "func.func @f(%s) -> %s {\n" % (", ".join(args), ot)
    text += "  %%o = %s %s%s%s\n      : %s -> %s\n" % (
        op, operands, extra, " {%s}" % ", ".join(attrs) if attrs else "",
        ", ".join(types), ot)
    text += "  return %%o : %s\n}\n" % ot
    desc = "%s B=%d H=%d N=%d Nk=%d D=%d Dv=%d%s {%s}" % (
        op, b, h, n, nk, d, dv, extra, ", ".join(attrs))
    return text, desc


def slice_case(r):
    """A random attic.slice_attention (composite slice attention, f32):
    [B, N, D] with N a multiple of the slice length, D of the heads."""
    b, heads = r.randint(1, 2), r.randint(1, 4)
    dim = heads * r.randint(1, 12)
    slc = r.randint(1, 24)
    slices = r.randint(1, 12)
    n = slc * slices
    alpha = r.choice([1, 3])
    causal = r.random() < 0.4
    borrowed = (alpha - 1) * slc // 2
    window = borrowed + slc if causal else 2 * borrowed + slc
    t = lambda *s: "tensor<%sxf32>" % "x".join(map(str, s))
    mask = r.random() < 0.5
    args = ["%%x: %s" % t(b, n, dim), "%%wq: %s" % t(dim, dim),
            "%%wk: %s" % t(dim, dim), "%%wv: %s" % t(dim, dim),
            "%%pl: %s" % t(window, dim), "%%pg: %s" % t(slices, dim)]
    if mask:
        args.append("%%m: tensor<%dx%dxi1>" % (b, n))
    attrs = ["slice = %d : i64" % slc, "extension = %d : i64" % alpha,
             "heads = %d : i64" % heads] + (["causal"] if causal else [])
    text = "func.func @f(%s) -> %s {\n" % (", ".join(args), t(b, n, dim))
    text += ("  %%o = attic.slice_attention %%x weights(%%wq, %%wk, %%wv) "
             "positions(%%pl, %%pg)%s {%s}\n      : %s, %s, %s, %s -> %s\n") % (
        " mask(%%m : tensor<%dx%dxi1>)" % (b, n) if mask else "",
        ", ".join(attrs), t(b, n, dim), t(dim, dim), t(window, dim),
        t(slices, dim), t(b, n, dim))
    text += "  return %%o : %s\n}\n" % t(b, n, dim)
    desc = "attic.slice_attention B=%d N=%d D=%d%s {%s}" % (
        b, n, dim, " mask" if mask else "", ", ".join(attrs))
    return text, desc


def vcc_case(r, path):
    """A random VCC encoder written by attic-gen vcc-encoder (layers, a
    tree of 1-3 levels, VIP tokens, heads, budgets, the authors' layer
    choices) into `path`; returns (description, the attic-run options for
    its masks: arg 1 the VIP mask, with about num_vip / 2 true)."""
    levels = r.randint(1, 3)
    fanouts = [r.randint(2, 6 if levels > 1 else 40) for _ in range(levels)]
    num_vip = r.randint(1, 16)
    tokens = num_vip
    product = 1
    for f in fanouts:
        product *= f
    tokens = num_vip + product
    budgets = [1 if r.random() < 0.8 else 0]
    for j in range(levels - 2, -1, -1):
        budgets.insert(0, r.randint(0, fanouts[j + 1] * budgets[0]))
    heads = r.randint(1, 4)
    options = ["--layers=%d" % r.randint(1, 3), "--batch=%d" % r.randint(1, 2),
               # A model dim of 2 ties the scores below f32's resolution
               # (docs/vcc.md): J would be decided by rounding.
               "--tokens=%d" % tokens,
               "--dim=%d" % (heads * r.randint(max(1, -(-4 // heads)), 10)),
               "--heads=%d" % heads, "--ffn-dim=%d" % r.randint(1, 48),
               "--num-vip=%d" % num_vip,
               "--fanouts=" + ",".join(map(str, fanouts)),
               "--budgets=" + ",".join(map(str, budgets))]
    if r.random() < 0.5:
        options += ["--gelu", "--vip-votes", "--mean-eps=1e-4",
                    "--bias-eps=1e-4"]
    run([os.path.join(os.path.dirname(ATTIC_RUN), "attic-gen"),
         "vcc-encoder", "--name=f", "-o", path] + options)
    keep = min(0.5, num_vip / (3.0 * tokens))
    return "vcc-encoder " + " ".join(options), [
        "--mask-keep=0.9", "--mask-keep-arg=1:%.3f" % keep,
        "--range-lo=-0.5", "--range-hi=0.5"]


def run(cmd):
    """(output, exit status) of `cmd`; a run past 10 minutes is a failure."""
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
        return p.stdout + p.stderr, p.returncode
    except subprocess.TimeoutExpired:
        return "timeout", -1


def results_of(text):
    """The number of results of @f."""
    signature = text[text.index("func.func @f("):]
    signature = signature[:signature.index("{\n")]
    return signature[signature.index(") ->"):].count("tensor<")


def run_threads(cmd, text, workdir, i, threads):
    """Determinism: the case on the CPU with --check and `threads[0]`
    threads, then with `threads[1]`; every result must be bitwise the same
    (the compiled code parallelizes independent rows and blocks only).
    Both runs use --blas=false: OpenBLAS's sgemm, which the matmuls of the
    --others and --vcc cases call, may round differently with another
    thread count (README, Threads). Returns (commands, output, status)."""
    cmd = [c for c in cmd if not c.startswith("--cpu-threads=")] + \
        ["--blas=false"]
    files = [[os.path.join(workdir, "case%d.t%d.out%d.npy" % (i, t, k))
              for k in range(results_of(text))] for t in threads]
    cmds = [(cmd if n == 0 else [c for c in cmd if c != "--check"]) +
            ["--cpu-threads=%d" % t] + ["--output=" + f for f in files[n]]
            for n, t in enumerate(threads)]
    out, rc = "", 0
    for c in cmds:
        o, rc = run(c)
        out += o
        if rc != 0:
            break
    if rc == 0:
        for a, b in zip(*files):
            with open(a, "rb") as fa, open(b, "rb") as fb:
                if fa.read() != fb.read():
                    out += "\n%s differs from %s (threads %d and %d)" % (
                        b, a, threads[0], threads[1])
                    rc = 1
    for f in files[0] + files[1]:
        if os.path.exists(f) and rc == 0:
            os.remove(f)
    return [" ".join(c) for c in cmds], out, rc


def run_aot(cmd, text, shapes, workdir, i, dtype):
    """The ahead-of-time path: attic-run --check saves the inputs and the
    reference's results, attic-compile builds the library with the same
    CPU options, and attic-aot-run (C, libattic_rt.so alone) compares its
    results with the reference's. Returns (commands, output, status)."""
    tools = os.path.dirname(ATTIC_RUN)
    signature = text[text.index("func.func @f("):]
    signature = signature[:signature.index("{\n")]
    n_args = signature[:signature.index(") ->")].count(": tensor<")
    n_res = results_of(text)
    inputs = [os.path.join(workdir, "case%d.in%d.npy" % (i, a))
              for a in range(n_args)]
    refs = [os.path.join(workdir, "case%d.ref%d.npy" % (i, a))
            for a in range(n_res)]
    lib = os.path.join(workdir, "libcase%d.so" % i)
    options = [c for c in cmd if c.startswith(("--block-", "--vector-width",
                                               "--register-"))]
    cmds = [cmd + ["--save-input=" + x for x in inputs] +
            ["--reference-output=" + x for x in refs],
            [os.path.join(tools, "attic-compile"), cmd[1], "--entry=f",
             "-o", lib, "--header=-"] + shapes + options,
            [os.path.join(tools, "attic-aot-run"), lib, "f"] +
            [a for x in inputs for a in ("--input", x)] +
            [a for x in refs for a in ("--reference", x)] +
            ["--tolerance", "1e-5" if dtype == "f32" else "1e-2"]]
    out = ""
    for c in cmds:
        o, rc = run(c)
        out += o
        if rc != 0 or "at most 256 are unrolled" in o:
            break
    for x in inputs + refs + [lib]:
        if os.path.exists(x):
            os.remove(x)
    if rc == 0 and "FAILED" in out:
        rc = 1
    return [" ".join(c) for c in cmds], out, rc


def main():
    count, seed, keep = 40, 1, None
    targets = ["cpu", "emulated", "simulated", "aot"]
    others = vcc = False
    for a in sys.argv[1:]:
        if a.startswith("--seed="):
            seed = int(a[7:])
        elif a.startswith("--keep="):
            keep = a[7:]
        elif a == "--others":
            others = True
        elif a == "--vcc":
            vcc = True
        elif a == "--given-lists":
            global GIVEN_ONLY
            GIVEN_ONLY = True
        elif a == "--bad-lists":
            global BAD_LISTS
            GIVEN_ONLY = BAD_LISTS = True
            targets = ["cpu", "emulated", "simulated"]
        elif a == "--large":
            global MAX_LEN
            MAX_LEN = 3000
        elif a == "--l2":
            global L2_SHARE
            L2_SHARE = 1.0
        elif a.startswith("--targets="):
            targets = a[10:].split(",")
            unknown = set(targets) - {"cpu", "emulated", "simulated", "aot"}
            if unknown or not targets:
                sys.exit("sweep-layouts.py: unknown target(s) %s; the "
                         "targets are cpu, emulated, simulated and aot" %
                         ", ".join(sorted(unknown)))
        elif a in ("-h", "--help"):
            print(__doc__)
            return 0
        elif a.isdigit():
            count = int(a)
        else:
            sys.exit("sweep-layouts.py: unknown argument '%s' (--help "
                     "lists them)" % a)
    r = random.Random(seed)
    workdir = keep or tempfile.mkdtemp(prefix="sweep-layouts-")
    os.makedirs(workdir, exist_ok=True)
    ok = bad = refusals = 0
    for i in range(count):
        target = targets[i % len(targets)]
        sim = target == "simulated"
        vcc_options = []
        if vcc:
            target = ["cpu", "emulated", "aot"][i % 3]
            path = os.path.join(workdir, "case%d.mlir" % i)
            desc, vcc_options = vcc_case(r, path)
            with open(path) as f:
                text = f.read()
        elif others:
            target = ["cpu", "emulated", "aot"][i % 3]
            text, desc = other_case(r)
        else:
            text, desc, dtype = case(r, small=sim, low_precision=sim)
        shapes = []
        if not others and not vcc and "tensor.generate" not in text and \
                r.random() < 0.25:
            text, shapes = make_dynamic(r, text)
            desc += " (dynamic)"
        path = os.path.join(workdir, "case%d.mlir" % i)
        with open(path, "w") as f:
            f.write(text)
        cmd = [ATTIC_RUN, path, "--check", "--seed=%d" % r.randint(0, 99)] + \
            (vcc_options or ["--mask-keep=0.%d" % r.randint(1, 9)]) + shapes
        if target in ("cpu", "aot"):
            if not others and not vcc:
                cmd += ["--block-q=%d" % r.randint(1, 160),
                        "--block-k=%d" % r.randint(1, 300),
                        "--vector-width=%d" % r.choice([2, 4, 8, 16]),
                        "--register-rows=%d" % r.randint(1, 5),
                        "--register-chunks=%d" % r.randint(1, 3),
                        "--cpu-threads=%d" % r.randint(1, 3)]
        elif target == "emulated":
            cmd += ["--target=cuda-emulated"]
        else:
            bq = r.choice([64, 128])
            cmd += ["--target=cuda-simulated", "--block-q=%d" % bq,
                    "--block-k=%d" % r.choice([16, 32, 48, 64, 128])]
            if r.random() < 0.6:
                # wgmma, and FlashAttention-3's schedule piece by piece.
                stages = r.randint(1, 3)
                cmd += ["--wgmma", "--kv-stages=%d" % stages]
                if stages > 1 and r.random() < 0.5:
                    cmd.append("--wgmma-overlap")
                if stages > 1 and r.random() < 0.6:
                    cmd.append("--tma")
                    if r.random() < 0.6:
                        cmd.append("--warp-specialize")
                        if bq == 128 and "--wgmma-overlap" in cmd and \
                                r.random() < 0.6:
                            cmd.append("--ping-pong")
        if target == "aot":
            cmd, out, rc = run_aot(cmd, text, shapes, workdir, i,
                                   "f32" if others or vcc else dtype)
        elif target == "cpu" and r.random() < 0.3:
            threads = r.sample([1, 2, 3], 2)
            cmd, out, rc = run_threads(cmd, text, workdir, i, threads)
        else:
            out, rc = run(cmd)
        # Refusals with the documented message count as correct: a key
        # block too wide to unroll, more VIP tokens than num_vip (random
        # VIP masks can have them).
        refused = "at most 256 are unrolled" in out or \
            re.search(r"has \d+ VIP tokens, more than num_vip", out)
        if BAD_LISTS:
            # The defect reported (one line, exit 1), never a signal, a
            # hang or a result.
            expect = re.search(r" expect-error=(.*?)(?: \(dynamic\))?$",
                               desc).group(1)
            refused = 0 < rc < 128 and \
                all(words in out for words in expect.split("|")) and \
                "the results are not valid" in out and ": ok" not in out
        if (rc == 0 and ": ok" in out and not BAD_LISTS) or refused:
            ok += 1
            refusals += bool(refused) and not BAD_LISTS
            if not keep:
                os.remove(path)
            print("%d ok (%s%s): %s" % (i, target, ", refused" if refused
                                        else "", desc), flush=True)
        else:
            bad += 1
            print("%d FAIL(%d) (%s): %s\n  %s\n  %s" % (
                i, rc, target, desc,
                "\n  ".join(cmd) if isinstance(cmd[0], list) or " " in cmd[0]
                else " ".join(cmd),
                "\n  ".join(out.strip().splitlines()[-3:])), flush=True)
    if not keep and not bad:
        os.rmdir(workdir)
        workdir = "removed"
    print("ok=%d bad=%d (files: %s)" % (ok, bad, workdir))
    if ok and refusals == ok:
        # Every case refused with a documented message: nothing was
        # compared with the reference, which a run must not pass for.
        print("every case was refused: nothing was checked")
        return 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
