"""nan_row.py IN OUT ROW [summary FILE ...]: copies the .npy IN to OUT with
row ROW (over the last dimension, leading dimensions flattened) set to NaN.
With `summary`, prints for each FILE the flattened rows that hold a NaN and
whether every other value is finite. Used by nan-inputs.test."""
import sys

import numpy as np

if len(sys.argv) < 4:
    sys.exit("nan_row.py: expected IN OUT ROW [summary FILE ...]")
source, target, row = sys.argv[1], sys.argv[2], int(sys.argv[3])
a = np.load(source).copy()
flat = a.reshape(-1, a.shape[-1])
flat[row] = np.nan
np.save(target, a)
if len(sys.argv) > 4 and sys.argv[4] == "summary":
    for path in sys.argv[5:]:
        values = np.load(path)
        rows = values.reshape(-1, values.shape[-1])
        nan_rows = np.flatnonzero(np.isnan(rows).any(axis=1)).tolist()
        others = np.delete(rows, nan_rows, axis=0)
        print(f"nan rows {nan_rows} others finite {bool(np.isfinite(others).all())}")
