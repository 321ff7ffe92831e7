"""check-lowered-ir.test.py DIR: the reference outputs of
@extended_mul and @exponent_bits (Inputs/check-lowered-ir.mlir) against
Python's integers and NumPy."""
import sys

import numpy as np

d = sys.argv[1]


def wrap(value, width):
    value &= (1 << width) - 1
    return value - (1 << width) if value >> (width - 1) else value


m32, m64 = -766435501, -3372466712981458921
a = [int(v) for v in np.load(f"{d}/a.npy")]
b = [int(v) for v in np.load(f"{d}/b.npy")]
expected = [
    [wrap((x % 2**32) * (m32 % 2**32), 32) for x in a],
    [wrap(((x % 2**32) * (m32 % 2**32)) >> 32, 32) for x in a],
    [wrap((x * m32) >> 32, 32) for x in a],
    [((y % 2**64) * (m64 % 2**64) % 2**64) >> 16 for y in b],
    [(((y % 2**64) * (m64 % 2**64)) >> 64) >> 16 for y in b],
    [(((y * m64) >> 64) % 2**64) >> 16 for y in b],
]
exact = 0
for i, want in enumerate(expected):
    got = [int(v) for v in np.load(f"{d}/m{i}.npy")]
    if got != want:
        sys.exit(f"result #{i}: reference {got}, expected {want}")
    exact += len(got)
print(f"extended multiplies: {exact} values exact")

x = np.load(f"{d}/x.npy").astype(np.float64)
e = np.clip(np.frexp(np.abs(x))[1] - 1 + 127, 1, 253)
want = x * np.ldexp(1.0, (127 - e).astype(int))
got = np.load(f"{d}/scaled.npy")
if not np.array_equal(got, want):
    sys.exit(f"exponent bits: reference {got}, expected {want}")
print(f"exponent bits: {len(got)} values exact")
