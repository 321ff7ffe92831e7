#!/usr/bin/env python3
"""block_lists.py PREFIX: inputs of examples/block_sparse.mlir @given_lists.

Q, K, V [1,4,1024,64] f32 uniform in [-1, 1) (seed 0) and FlexAttention-style
block lists for blocks of 128 (8 query blocks x 8 key blocks, one row for
every batch and head): query block qb sees key blocks qb and 0 in full and
qb-1 partially (the dense layout makes partial blocks full too). Also bad
lists: an index of 99 in query block 2 (PREFIX.bad_i.npy), a count of 9
(> capacity 8) in query block 5 (PREFIX.bad_n.npy), key block 0 listed
twice in the full list of query block 3 (PREFIX.dup_fn.npy and
PREFIX.dup_fi.npy), and key block 4 in both lists of query block 4
(PREFIX.both_i.npy)."""
import sys

import numpy as np

prefix = sys.argv[1]
rng = np.random.default_rng(0)
for name in ("q", "k", "v"):
    np.save(prefix + "." + name + ".npy",
            rng.uniform(-1, 1, (1, 4, 1024, 64)).astype(np.float32))
n = np.zeros((1, 1, 8), np.int32)
i = np.zeros((1, 1, 8, 8), np.int32)
fn = np.zeros((1, 1, 8), np.int32)
fi = np.zeros((1, 1, 8, 8), np.int32)
for qb in range(8):
    full = sorted({0, qb})
    fn[0, 0, qb] = len(full)
    fi[0, 0, qb, :len(full)] = full
    if qb > 1:
        n[0, 0, qb] = 1
        i[0, 0, qb, 0] = qb - 1
np.save(prefix + ".n.npy", n)
np.save(prefix + ".i.npy", i)
np.save(prefix + ".fn.npy", fn)
np.save(prefix + ".fi.npy", fi)
bad_i = i.copy()
bad_i[0, 0, 2, 0] = 99
np.save(prefix + ".bad_i.npy", bad_i)
bad_n = n.copy()
bad_n[0, 0, 5] = 9
np.save(prefix + ".bad_n.npy", bad_n)
dup_fn = fn.copy()
dup_fi = fi.copy()
dup_fn[0, 0, 3] = 3
dup_fi[0, 0, 3, :3] = [0, 0, 3]
np.save(prefix + ".dup_fn.npy", dup_fn)
np.save(prefix + ".dup_fi.npy", dup_fi)
both_i = i.copy()
both_i[0, 0, 4, 0] = 4
np.save(prefix + ".both_i.npy", both_i)
