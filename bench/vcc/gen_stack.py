#!/usr/bin/env python3
"""Emits MLIR for a stack of pre-LN transformer layers, dense or VCC.

The layer is include/attic/Reference/Vcc.h's transformerLayer on rows
[R, d]:  a = MHA(LN1(x), key bias); h = x + a; y = h + W2 relu(W1 LN2(h) + b1) + b2
with LayerNorm as linalg.generic, projections and FFN as linalg.matmul
(biases and residuals are the matmuls' initial C), heads via expand_shape
and linalg.transpose, attic.attention with the key bias.

  dense: the layers on all n tokens.
  vcc:   vip_order (every (n/n_p)-th token is a VIP token) + gather_rows,
         tree_build once; per layer tree_select (VIP queries = LN1(P) Wq + bq,
         keys from the layer's LN1 and Wk), vcc_compress, the layer on the
         r = n_p + |J| rows with the count bias, tree_update; then
         tree_materialize once, [P; C] and the inverse reorder.

The entry function is @stack(x [1,n,d], wattn [L,4,d,d] (q, k, v, o),
vec [L,9,d] (ln1 gamma, ln1 beta, bq, bk, bv, bo, ln2 gamma, ln2 beta, b2),
w1 [L,d,f], b1 [L,f], w2 [L,f,d]) -> [1,n,d]; both variants take the same
arguments, so attic-run's seeded inputs give them the same weights.

--tree=multi pads C with invalid tokens to the next power of two and uses
fanouts of 16 per level (the remainder at the top) with per-level budgets
[90, 16, 8, 8, ...] (clipped to what each level can split, root split),
instead of the two-level --fanouts/--budgets.

--body=noattn replaces attention by its value input (to time the rest);
--body=none makes each layer the identity on its rows (to time the VCC
machinery alone).
"""
import argparse
import math
import sys


class Emitter:
    def __init__(self):
        self.lines = []
        self.count = 0

    def fresh(self, hint="v"):
        self.count += 1
        return f"%{hint}{self.count}"

    def op(self, text, hint="v"):
        name = self.fresh(hint)
        self.lines.append(f"  {name} = {text}")
        return name

    def raw(self, text):
        self.lines.append(f"  {text}")


def t(*shape, elt="f32"):
    return "tensor<" + "x".join(str(s) for s in shape) + f"x{elt}>"


class Layers:
    def __init__(self, em, d, heads, ffn, nlayers, body):
        self.em, self.d, self.heads, self.ffn, self.L = em, d, heads, ffn, nlayers
        self.dh = d // heads
        self.body = body
        em.raw("%zero = arith.constant 0.0 : f32")
        em.raw(f"%inv_d = arith.constant {1.0 / d!r} : f32")
        em.raw("%eps = arith.constant 1.0e-05 : f32")
        em.raw("%one = arith.constant 1.0 : f32")

    # Weights of layer l (rank-reducing slices of the stacked arguments).
    def weight(self, l, i):
        d, L = self.d, self.L
        return self.em.op(f"tensor.extract_slice %wattn[{l}, {i}, 0, 0] [1, 1, {d}, {d}] [1, 1, 1, 1] : {t(L, 4, d, d)} to {t(d, d)}", "w")

    def vec(self, l, i):
        d, L = self.d, self.L
        return self.em.op(f"tensor.extract_slice %vec[{l}, {i}, 0] [1, 1, {d}] [1, 1, 1] : {t(L, 9, d)} to {t(d)}", "b")

    def empty(self, *shape):
        return self.em.op(f"tensor.empty() : {t(*shape)}", "e")

    def layer_norm(self, x, rows, gamma, beta):
        em, d = self.em, self.d
        z = em.op(f"linalg.fill ins(%zero : f32) outs({self.empty(rows)} : {t(rows)}) -> {t(rows)}", "z")
        red = ('indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], '
               'iterator_types = ["parallel", "reduction"]')
        s = em.op(f"linalg.generic {{{red}}} ins({x} : {t(rows, d)}) outs({z} : {t(rows)}) {{\n"
                  f"  ^bb0(%a: f32, %acc: f32):\n"
                  f"    %s = arith.addf %a, %acc : f32\n"
                  f"    linalg.yield %s : f32\n  }} -> {t(rows)}", "sum")
        red2 = ('indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>], '
                'iterator_types = ["parallel", "reduction"]')
        v = em.op(f"linalg.generic {{{red2}}} ins({x}, {s} : {t(rows, d)}, {t(rows)}) outs({z} : {t(rows)}) {{\n"
                  f"  ^bb0(%a: f32, %sm: f32, %acc: f32):\n"
                  f"    %m = arith.mulf %sm, %inv_d : f32\n"
                  f"    %c = arith.subf %a, %m : f32\n"
                  f"    %c2 = arith.mulf %c, %c : f32\n"
                  f"    %r = arith.addf %c2, %acc : f32\n"
                  f"    linalg.yield %r : f32\n  }} -> {t(rows)}", "var")
        par = ('indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>, '
               'affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], '
               'iterator_types = ["parallel", "parallel"]')
        return em.op(f"linalg.generic {{{par}}} ins({x}, {s}, {v}, {gamma}, {beta} : {t(rows, d)}, {t(rows)}, {t(rows)}, {t(d)}, {t(d)}) "
                     f"outs({self.empty(rows, d)} : {t(rows, d)}) {{\n"
                     f"  ^bb0(%a: f32, %sm: f32, %sq: f32, %g: f32, %bt: f32, %o: f32):\n"
                     f"    %m = arith.mulf %sm, %inv_d : f32\n"
                     f"    %var = arith.mulf %sq, %inv_d : f32\n"
                     f"    %ve = arith.addf %var, %eps : f32\n"
                     f"    %sd = math.sqrt %ve : f32\n"
                     f"    %r = arith.divf %one, %sd : f32\n"
                     f"    %c = arith.subf %a, %m : f32\n"
                     f"    %n = arith.mulf %c, %r : f32\n"
                     f"    %y = arith.mulf %n, %g : f32\n"
                     f"    %y2 = arith.addf %y, %bt : f32\n"
                     f"    linalg.yield %y2 : f32\n  }} -> {t(rows, d)}", "ln")

    def broadcast_rows(self, bias, rows, cols):
        return self.em.op(f"linalg.broadcast ins({bias} : {t(cols)}) outs({self.empty(rows, cols)} : {t(rows, cols)}) dimensions = [0]", "bc")

    def add_row_bias(self, x, bias, rows, cols):
        par = ('indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], '
               'iterator_types = ["parallel", "parallel"]')
        return self.em.op(f"linalg.generic {{{par}}} ins({x}, {bias} : {t(rows, cols)}, {t(cols)}) outs({self.empty(rows, cols)} : {t(rows, cols)}) {{\n"
                          f"  ^bb0(%a: f32, %b: f32, %o: f32):\n"
                          f"    %s = arith.addf %a, %b : f32\n"
                          f"    linalg.yield %s : f32\n  }} -> {t(rows, cols)}", "res")

    def matmul(self, a, b, init, m, k, n):
        return self.em.op(f"linalg.matmul ins({a}, {b} : {t(m, k)}, {t(k, n)}) outs({init} : {t(m, n)}) -> {t(m, n)}", "mm")

    def project(self, x, w, bias, rows):
        d = self.d
        return self.matmul(x, w, self.broadcast_rows(bias, rows, d), rows, d, d)

    def split_heads(self, x, rows):
        em, d, H, dh = self.em, self.d, self.heads, self.dh
        x4 = em.op(f"tensor.expand_shape {x} [[0, 1], [2, 3]] output_shape [1, {rows}, {H}, {dh}] : {t(rows, d)} into {t(1, rows, H, dh)}", "x4")
        return em.op(f"linalg.transpose ins({x4} : {t(1, rows, H, dh)}) outs({self.empty(1, H, rows, dh)} : {t(1, H, rows, dh)}) permutation = [0, 2, 1, 3]", "hd")

    def merge_heads(self, x, rows):
        em, d, H, dh = self.em, self.d, self.heads, self.dh
        x4 = em.op(f"linalg.transpose ins({x} : {t(1, H, rows, dh)}) outs({self.empty(1, rows, H, dh)} : {t(1, rows, H, dh)}) permutation = [0, 2, 1, 3]", "tr")
        return em.op(f"tensor.collapse_shape {x4} [[0, 1], [2, 3]] : {t(1, rows, H, dh)} into {t(rows, d)}", "mg")

    def vip_queries(self, l, p, rows):
        """LN1(P) Wq + bq as [1, H, n_p, dh] (tree_select's queries)."""
        ln = self.layer_norm(p, rows, self.vec(l, 0), self.vec(l, 1))
        return self.split_heads(self.project(ln, self.weight(l, 0), self.vec(l, 2), rows), rows)

    def layer(self, l, x, rows, key_bias):
        """transformerLayer on x [rows, d]; key_bias [1, rows] or None."""
        em, d, f, H, dh = self.em, self.d, self.ffn, self.heads, self.dh
        if self.body == "none":
            return x
        ln1 = self.layer_norm(x, rows, self.vec(l, 0), self.vec(l, 1))
        q = self.split_heads(self.project(ln1, self.weight(l, 0), self.vec(l, 2), rows), rows)
        k = self.split_heads(self.project(ln1, self.weight(l, 1), self.vec(l, 3), rows), rows)
        v = self.split_heads(self.project(ln1, self.weight(l, 2), self.vec(l, 4), rows), rows)
        if self.body == "noattn":
            a = v
        else:
            bias = f" bias({key_bias} : {t(1, rows)})" if key_bias else ""
            scale = 1.0 / math.sqrt(dh)
            a = em.op(f"attic.attention {q}, {k}, {v} scale {scale!r}{bias} : {t(1, H, rows, dh)}, {t(1, H, rows, dh)}, {t(1, H, rows, dh)} -> {t(1, H, rows, dh)}", "att")
        a2 = self.merge_heads(a, rows)
        h = self.matmul(a2, self.weight(l, 3), self.add_row_bias(x, self.vec(l, 5), rows, d), rows, d, d)
        ln2 = self.layer_norm(h, rows, self.vec(l, 6), self.vec(l, 7))
        w1 = em.op(f"tensor.extract_slice %w1[{l}, 0, 0] [1, {d}, {f}] [1, 1, 1] : {t(self.L, d, f)} to {t(d, f)}", "w")
        b1 = em.op(f"tensor.extract_slice %b1[{l}, 0] [1, {f}] [1, 1] : {t(self.L, f)} to {t(f)}", "b")
        w2 = em.op(f"tensor.extract_slice %w2[{l}, 0, 0] [1, {f}, {d}] [1, 1, 1] : {t(self.L, f, d)} to {t(f, d)}", "w")
        f1 = self.matmul(ln2, w1, self.broadcast_rows(b1, rows, f), rows, d, f)
        par = ('indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], '
               'iterator_types = ["parallel", "parallel"]')
        relu = em.op(f"linalg.generic {{{par}}} ins({f1} : {t(rows, f)}) outs({self.empty(rows, f)} : {t(rows, f)}) {{\n"
                     f"  ^bb0(%a: f32, %o: f32):\n"
                     f"    %r = arith.maximumf %a, %zero : f32\n"
                     f"    linalg.yield %r : f32\n  }} -> {t(rows, f)}", "relu")
        return self.matmul(relu, w2, self.add_row_bias(h, self.vec(l, 8), rows, d), rows, f, d)


def j_size(fanouts, budgets):
    return 1 + sum(h * (f - 1) for f, h in zip(fanouts, budgets))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--variant", choices=["dense", "vcc"], required=True)
    ap.add_argument("--n", type=int, required=True, help="sequence length")
    ap.add_argument("--d", type=int, default=256)
    ap.add_argument("--heads", type=int, default=4)
    ap.add_argument("--ffn", type=int, default=1024)
    ap.add_argument("--layers", type=int, default=4)
    ap.add_argument("--num-vip", type=int, default=64, help="n_p")
    ap.add_argument("--fanouts", default="16,auto",
                    help="tree fanouts from the leaves up; 'auto' is n_c divided by the others")
    ap.add_argument("--budgets", default="90,1",
                    help="budgets h_1..h_L; 'all' for a level splits every candidate (no compression)")
    ap.add_argument("--tree", choices=["two-level", "multi"], default="two-level")
    ap.add_argument("--body", choices=["full", "noattn", "none"], default="full")
    args = ap.parse_args()

    n, d, L, f = args.n, args.d, args.layers, args.ffn
    if d % args.heads:
        sys.exit("gen_stack.py: d must be a multiple of heads")
    em = Emitter()
    header = (f"func.func @stack(%x: {t(1, n, d)}, %wattn: {t(L, 4, d, d)}, %vec: {t(L, 9, d)}, "
              f"%w1: {t(L, d, f)}, %b1: {t(L, f)}, %w2: {t(L, f, d)}) -> {t(1, n, d)} {{")
    layers = Layers(em, d, args.heads, f, L, args.body)
    info = {}
    if args.variant == "dense":
        x = em.op(f"tensor.collapse_shape %x [[0, 1], [2]] : {t(1, n, d)} into {t(n, d)}", "x")
        for l in range(L):
            x = layers.layer(l, x, n, None)
        out = em.op(f"tensor.expand_shape {x} [[0, 1], [2]] output_shape [1, {n}, {d}] : {t(n, d)} into {t(1, n, d)}", "out")
        info["rows"] = n
    else:
        np_, nc_real = args.num_vip, n - args.num_vip
        if args.tree == "multi":
            nc = 1 << (nc_real - 1).bit_length()
            fanouts, rest = [], nc
            while rest % 16 == 0 and rest > 16:
                fanouts.append(16)
                rest //= 16
            fanouts.append(rest)
            targets = [90, 16] + [8] * len(fanouts)
            budgets = [0] * len(fanouts)
            budgets[-1] = 1
            for j in range(len(fanouts) - 2, -1, -1):
                budgets[j] = min(targets[j], fanouts[j + 1] * budgets[j + 1])
        else:
            nc = nc_real
            fan = args.fanouts.split(",")
            known = math.prod(int(x) for x in fan if x != "auto")
            if nc % known:
                sys.exit(f"gen_stack.py: n_c = {nc} is not a multiple of the fanouts' product {known}")
            fanouts = [nc // known if x == "auto" else int(x) for x in fan]
            if math.prod(fanouts) != nc:
                sys.exit(f"gen_stack.py: fanouts {fanouts} do not multiply to n_c = {nc}")
            bud = args.budgets.split(",")
            if len(bud) != len(fanouts):
                sys.exit("gen_stack.py: one budget per level")
            budgets = [0 if b == "all" else int(b) for b in bud]
            # 'all' splits every candidate of the level: h_j = f_{j+1} h_{j+1}.
            for j in range(len(budgets) - 1, -1, -1):
                if bud[j] == "all":
                    budgets[j] = 1 if j == len(budgets) - 1 else fanouts[j + 1] * budgets[j + 1]
        nj = j_size(fanouts, budgets)
        r = np_ + nj
        info.update(rows=r, fanouts=fanouts, budgets=budgets, J=nj, n_c=nc_real, padded_n_c=nc)
        tree = f"!attic.tree<1x{nc}x{d}xf32, fanouts = [{', '.join(map(str, fanouts))}]>"
        stride = max(n // np_, 1)
        em.raw(f"%vip = tensor.generate {{\n  ^bb0(%b: index, %i: index):\n"
               f"    %stride = arith.constant {stride} : index\n    %c0 = arith.constant 0 : index\n"
               f"    %m = arith.remui %i, %stride : index\n    %isv = arith.cmpi eq, %m, %c0 : index\n"
               f"    tensor.yield %isv : i1\n  }} : {t(1, n, elt='i1')}")
        em.raw(f"%perm, %inverse = attic.vip_order %vip {{num_vip = {np_} : i64}} : {t(1, n, elt='i1')} -> {t(1, n, elt='i64')}, {t(1, n, elt='i64')}")
        xp = em.op(f"attic.gather_rows %x[%perm] : {t(1, n, d)}, {t(1, n, elt='i64')} -> {t(1, n, d)}", "xp")
        p = em.op(f"tensor.extract_slice {xp}[0, 0, 0] [1, {np_}, {d}] [1, 1, 1] : {t(1, n, d)} to {t(1, np_, d)}", "p")
        c = em.op(f"tensor.extract_slice {xp}[0, {np_}, 0] [1, {nc_real}, {d}] [1, 1, 1] : {t(1, n, d)} to {t(1, nc_real, d)}", "c")
        if nc != nc_real:  # invalid padding tokens after C
            pad = nc - nc_real
            c = em.op(f"tensor.pad {c} low[0, 0, 0] high[0, {pad}, 0] {{\n  ^bb0(%i: index, %j: index, %k: index):\n"
                      f"    tensor.yield %zero : f32\n  }} : {t(1, nc_real, d)} to {t(1, nc, d)}", "cpad")
            em.raw(f"%valid = tensor.generate {{\n  ^bb0(%b: index, %i: index):\n"
                   f"    %ncr = arith.constant {nc_real} : index\n    %v = arith.cmpi ult, %i, %ncr : index\n"
                   f"    tensor.yield %v : i1\n  }} : {t(1, nc, elt='i1')}")
        else:
            em.raw(f"%valid = arith.constant dense<true> : {t(1, nc, elt='i1')}")
        tr = em.op(f"attic.tree_build {c}, %valid : {t(1, nc, d)}, {t(1, nc, elt='i1')} -> {tree}", "tree")
        for l in range(L):
            p2 = em.op(f"tensor.collapse_shape {p} [[0, 1], [2]] : {t(1, np_, d)} into {t(np_, d)}", "p2")
            qv = layers.vip_queries(l, p2, np_)
            wk, bk = layers.weight(l, 1), layers.vec(l, 3)
            g1, be1 = layers.vec(l, 0), layers.vec(l, 1)
            j = em.op(f"attic.tree_select {tr}, {qv}, {wk}, {bk}, {g1}, {be1} {{budgets = [{', '.join(map(str, budgets))}], "
                      f"heads = {args.heads}, scale = {1.0 / math.sqrt(d // args.heads)!r} : f32}} : {tree}, "
                      f"{t(1, args.heads, np_, d // args.heads)}, {t(d, d)}, {t(d)}, {t(d)}, {t(d)} -> {t(1, nj, elt='i64')}", "j")
            sx = em.fresh("sx")
            bias = em.fresh("bias")
            em.raw(f"{sx}, {bias} = attic.vcc_compress {p}, {tr}, {j} : {t(1, np_, d)}, {tree}, {t(1, nj, elt='i64')} -> {t(1, r, d)}, {t(1, r)}")
            x2 = em.op(f"tensor.collapse_shape {sx} [[0, 1], [2]] : {t(1, r, d)} into {t(r, d)}", "x")
            y2 = layers.layer(l, x2, r, bias)
            y = em.op(f"tensor.expand_shape {y2} [[0, 1], [2]] output_shape [1, {r}, {d}] : {t(r, d)} into {t(1, r, d)}", "y")
            p = em.op(f"tensor.extract_slice {y}[0, 0, 0] [1, {np_}, {d}] [1, 1, 1] : {t(1, r, d)} to {t(1, np_, d)}", "p")
            yj = em.op(f"tensor.extract_slice {y}[0, {np_}, 0] [1, {nj}, {d}] [1, 1, 1] : {t(1, r, d)} to {t(1, nj, d)}", "yj")
            tr = em.op(f"attic.tree_update {tr}, {j}, {yj} : {tree}, {t(1, nj, elt='i64')}, {t(1, nj, d)} -> {tree}", "tree")
        cm = em.op(f"attic.tree_materialize {tr} : {tree} -> {t(1, nc, d)}", "cm")
        if nc != nc_real:
            cm = em.op(f"tensor.extract_slice {cm}[0, 0, 0] [1, {nc_real}, {d}] [1, 1, 1] : {t(1, nc, d)} to {t(1, nc_real, d)}", "cm")
        full = em.op(f"tensor.concat dim(1) {p}, {cm} : ({t(1, np_, d)}, {t(1, nc_real, d)}) -> {t(1, n, d)}", "full")
        out = em.op(f"attic.gather_rows {full}[%inverse] : {t(1, n, d)}, {t(1, n, elt='i64')} -> {t(1, n, d)}", "out")
    print(f"// Generated by bench/vcc/gen_stack.py {' '.join(sys.argv[1:])}")
    print("// " + ", ".join(f"{k}={v}" for k, v in info.items()))
    print(header)
    print("\n".join(em.lines))
    print(f"  return {out} : {t(1, n, d)}")
    print("}")


if __name__ == "__main__":
    main()
