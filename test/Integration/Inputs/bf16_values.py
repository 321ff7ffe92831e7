"""bf16_values.py gen PREFIX SEED: writes PREFIX-{f64,si32,ui32,si64,ui64}.npy,
values at, just above and just below bf16 midpoints (where rounding twice
through f32 goes wrong), and specials. bf16_values.py check IN OUT s|u:
compares the bf16 conversions of the integers in IN (read back as f64 in
OUT) with bf16 rounding to nearest even computed exactly in Python
integers (the --check reference holds tensor elements as doubles, inexact
above 2^53). Used by bf16-conversions.test."""
import sys

import numpy as np


def generate(prefix, seed):
    rng = np.random.default_rng(seed)
    f = []
    for _ in range(56):
        m = int(rng.integers(128, 256))  # 8 significant bits
        e = int(rng.integers(-140, 120))
        mid = (2 * m + 1) * 2.0 ** (e - 1)  # between m and m + 1, times 2^e
        tweak = float(rng.choice([2.0**-30, -2.0**-30, 2.0**-45, -2.0**-45, 0.0]))
        v = mid * (1 + tweak)
        f.append(-v if rng.integers(2) else v)
    f += [1 + 2**-8 + 2**-30, 1.0, 0.0, -0.0, -3.3e38, 3.3961e38, 1e-45, 2.0**-140]
    np.save(prefix + "-f64.npy", np.array(f, np.float64))

    def ints(bits, signed):
        vals = []
        for _ in range(60):
            top = int(rng.integers(25, bits - 1 if signed else bits))
            m = int(rng.integers(128, 256))
            v = ((2 * m + 1) << (top - 9)) + int(rng.choice([1, -1, 0, 3]))
            vals.append(-v if signed and rng.integers(2) else v)
        vals += [2**24 + 2**16 + 1, 5, 0,
                 2**(bits - 1) - 1 if signed else 2**bits - 1]
        dtype = {32: np.int32, 64: np.int64}[bits]
        return np.array([v if v < 2**(bits - 1) else v - 2**bits for v in vals],
                        dtype)

    for name, bits, signed in (("si32", 32, True), ("ui32", 32, False),
                               ("si64", 64, True), ("ui64", 64, False)):
        np.save("%s-%s.npy" % (prefix, name), ints(bits, signed))


def bf16_of_int(v):
    sign, a = (-1 if v < 0 else 1), abs(v)
    shift = a.bit_length() - 8
    if shift <= 0:
        return v
    q, r = divmod(a, 1 << shift)
    half = 1 << (shift - 1)
    if r > half or (r == half and q % 2 == 1):
        q += 1
    return sign * (q << shift)


def check(inputs, outputs, kind):
    x, o = np.load(inputs), np.load(outputs)
    bad = 0
    for xi, oi in zip(x.tolist(), o.tolist()):
        v = xi % (1 << (8 * x.itemsize)) if kind == "u" else xi
        bad += float(bf16_of_int(v)) != oi
    print("%d of %d rounded as bf16 to nearest even" % (len(x) - bad, len(x)))


if sys.argv[1] == "gen":
    generate(sys.argv[2], int(sys.argv[3]))
else:
    check(sys.argv[2], sys.argv[3], sys.argv[4])
