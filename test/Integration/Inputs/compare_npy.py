"""compare_npy.py WRAPPED PLAIN REFERENCE [...]: for each triple, the
largest |difference| of the compiled result of a wrapping mask region
(WRAPPED) and of the region's reference (REFERENCE, f64) from the compiled
result of a region that keeps the same keys without wrapping (PLAIN), with
ok when both are below 1e-5 (the outputs differ only in summation order).
Used by modifiers-wrapping.test, and with PLAIN = REFERENCE (a reference
output) by sketch-examples.test and primitives.test."""
import sys

import numpy as np

paths = sys.argv[1:]
if len(paths) % 3:
    sys.exit("compare_npy.py: expected triples WRAPPED PLAIN REFERENCE")
for i in range(0, len(paths), 3):
    wrapped, plain, reference = (np.load(p).astype(np.float64)
                                 for p in paths[i:i + 3])
    compiled_error = float(np.abs(wrapped - plain).max())
    reference_error = float(np.abs(reference - plain).max())
    verdict = "ok" if max(compiled_error, reference_error) < 1e-5 else "FAIL"
    print(f"same keys: compiled {compiled_error:.2e}, reference "
          f"{reference_error:.2e}: {verdict}")
