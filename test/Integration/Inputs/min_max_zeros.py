"""min_max_zeros.py gen PREFIX: writes PREFIX-{x,y}-{f32,f64}.npy, 19 pairs
with zeros of both signs, equal values, NaNs, infinities and ordinary
values. min_max_zeros.py check PREFIX MAX MIN TYPE: compares the results
(1 / maximumf, 1 / minimumf of the pairs) bit for bit with IEEE-754
maximum / minimum computed here (-0 below +0, NaN propagated; numpy's
np.maximum(0.0, -0.0) is -0.0). Used by min-max-zeros.test."""
import sys

import numpy as np

NAN = float("nan")
INF = float("inf")
PAIRS = [(0.0, -0.0), (-0.0, 0.0), (0.0, 0.0), (-0.0, -0.0), (1.5, 1.5),
         (-2.0, -2.0), (NAN, 1.0), (1.0, NAN), (NAN, -0.0), (-0.0, NAN),
         (INF, -INF), (-INF, INF), (-1.0, 2.0), (2.0, -1.0), (1e-40, -0.0),
         (-1e-40, 0.0), (3.0, 0.0), (-0.0, -3.0), (0.0, 1e-45)]


def generate(prefix):
    for name, dtype in (("f32", np.float32), ("f64", np.float64)):
        np.save(f"{prefix}-x-{name}.npy", np.array([p[0] for p in PAIRS], dtype))
        np.save(f"{prefix}-y-{name}.npy", np.array([p[1] for p in PAIRS], dtype))


def ieee(a, b, larger):
    """IEEE-754 2019 maximum (larger) or minimum of a and b."""
    if np.isnan(a) or np.isnan(b):
        return a + b
    if a == b:  # zeros of either sign, or the same value
        both_negative = np.signbit(a) and np.signbit(b)
        either_negative = np.signbit(a) or np.signbit(b)
        return b if (both_negative if larger else either_negative) == np.signbit(b) else a
    return max(a, b) if larger else min(a, b)


def maximum(x, y):
    return np.array([ieee(a, b, True) for a, b in zip(x, y)], x.dtype)


def minimum(x, y):
    return np.array([ieee(a, b, False) for a, b in zip(x, y)], x.dtype)


def check(prefix, max_path, min_path, name):
    x = np.load(f"{prefix}-x-{name}.npy")
    y = np.load(f"{prefix}-y-{name}.npy")
    bad = 0
    with np.errstate(divide="ignore"):
        for path, fn in ((max_path, maximum), (min_path, minimum)):
            got = np.load(path)
            want = (1 / fn(x, y)).astype(x.dtype)
            for i in range(len(x)):
                same = (np.isnan(got[i]) and np.isnan(want[i])) or (
                    got[i] == want[i] and np.signbit(got[i]) == np.signbit(want[i]))
                if not same:
                    bad += 1
                    print(f"{fn.__name__}({x[i]!r}, {y[i]!r}): 1/result is "
                          f"{got[i]!r}, expected {want[i]!r}")
    print(f"{2 * len(x) - bad} of {2 * len(x)} as IEEE maximum / minimum")


if __name__ == "__main__":
    if sys.argv[1] == "gen":
        generate(sys.argv[2])
    else:
        check(*sys.argv[2:6])
