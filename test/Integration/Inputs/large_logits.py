"""large_logits.py PREFIX B H N D TARGET SEED: writes PREFIX-{q,k,v}.npy
(f32, BxHxNxD) with q and k scaled so that the largest |q . k| / sqrt(D)
is TARGET: logits near f32's limit whose raw products q . k overflow f32
where the scale is below 1. Used by bad-input.test."""
import sys

import numpy as np

prefix = sys.argv[1]
b, h, n, d = (int(x) for x in sys.argv[2:6])
target, seed = float(sys.argv[6]), int(sys.argv[7])
rng = np.random.default_rng(seed)
q = rng.standard_normal((b, h, n, d))
k = rng.standard_normal((b, h, n, d))
largest = np.abs(np.einsum("bhqd,bhkd->bhqk", q, k)).max() / np.sqrt(d)
f = np.sqrt(target / largest)
np.save(prefix + "-q.npy", (q * f).astype(np.float32))
np.save(prefix + "-k.npy", (k * f).astype(np.float32))
np.save(prefix + "-v.npy", rng.standard_normal((b, h, n, d)).astype(np.float32))
