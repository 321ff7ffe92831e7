# The inputs of qk-prescale.test: q . k overflowing f32 at D = 64 while
# the logits (scale 1/8) are finite. Usage: qk_prescale.py PREFIX
import numpy as np, sys
r = np.random.default_rng(5)
a = 2.6e18
q = (a * r.uniform(0.9, 1.0, (1, 2, 64, 64))).astype(np.float32)
# Key row j has a fraction j/63 of negative entries: q . k from about
# +4.3e38 to -4.3e38, overflowing f32 at both ends.
k = a * r.uniform(0.9, 1.0, (1, 2, 64, 64))
for j in range(64):
    k[:, :, j, r.permutation(64)[:j]] *= -1
k = k.astype(np.float32)
v = r.uniform(-1, 1, (1, 2, 64, 64)).astype(np.float32)
m = np.ones((1, 64), bool); m[0, ::5] = False
d = sys.argv[1]
for n, x in [('q', q), ('k', k), ('v', v), ('m', m)]:
    np.save(f'{d}.{n}.npy', x)
s = np.einsum('bhqd,bhkd->bhqk', q.astype(np.float64), k.astype(np.float64))
print('max |q.k| %.2e, overflowing f32: %d' % (abs(s).max(), (abs(s) > np.finfo(np.float32).max).sum()))
# Every q . k about -3.9e38 (all -inf unscaled): a masked row's output was
# silently 0; its logits (about -4.9e37) are all finite.
np.save(f'{d}.kneg.npy', -np.abs(k))
