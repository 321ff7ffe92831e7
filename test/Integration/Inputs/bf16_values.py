"""bf16_values.py gen PREFIX SEED: writes
PREFIX-{f64,si32,ui32,si64,ui64,si128,ui128}.npy (128-bit integers as
(high, low) int64 pairs),
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

    # 128-bit integers as int64 pairs (high, low), up to and past bf16's
    # range (2^128 and above is infinity), and at the types' limits.
    for name, signed in (("si128", True), ("ui128", False)):
        vals = []
        for _ in range(58):
            top = int(rng.integers(25, 127 if signed else 128))
            m = int(rng.integers(128, 256))
            v = ((2 * m + 1) << (top - 9)) + int(rng.choice([1, -1, 0, 3]))
            vals.append(-v if signed and rng.integers(2) else v)
        vals += [2**100 + 2**92 + 1, 2**64 - 1, 5, 0]
        vals += ([2**127 - 1, -2**127] if signed else [2**128 - 1, 2**127])
        words = [((v >> 64) % 2**64, v % 2**64) for v in vals]
        pairs = np.array([[h - 2**64 if h >= 2**63 else h,
                           l - 2**64 if l >= 2**63 else l] for h, l in words],
                         np.int64)
        np.save("%s-%s.npy" % (prefix, name), pairs)


def bf16_of_int(v):
    sign, a = (-1 if v < 0 else 1), abs(v)
    shift = a.bit_length() - 8
    if shift <= 0:
        return v
    q, r = divmod(a, 1 << shift)
    half = 1 << (shift - 1)
    if r > half or (r == half and q % 2 == 1):
        q += 1
    if q << shift >= 2**128:  # past bf16's largest, 255 * 2^120
        return sign * float("inf")
    return sign * (q << shift)


def check(inputs, outputs, kind):
    x, o = np.load(inputs), np.load(outputs)
    bad = 0
    if x.ndim == 2:  # (high, low) int64 pairs of 128-bit integers
        x = [h * 2**64 + l % 2**64 for h, l in x.tolist()]
        bits = 128
    else:
        x, bits = x.tolist(), 8 * x.itemsize
    for xi, oi in zip(x, o.tolist()):
        v = xi % (1 << bits) if kind == "u" else xi
        bad += float(bf16_of_int(v)) != oi
    print("%d of %d rounded as bf16 to nearest even" % (len(x) - bad, len(x)))


if sys.argv[1] == "gen":
    generate(sys.argv[2], int(sys.argv[3]))
else:
    check(sys.argv[2], sys.argv[3], sys.argv[4])
