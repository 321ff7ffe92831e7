"""Writes many.mlir (65 arguments of tensor<2xf32>, summed), their .npy
inputs, the list of --input options for xargs, and NumPy's sum."""
import os
import sys

import numpy as np

out = sys.argv[1]
n = 65
args = ", ".join("%%a%d: tensor<2xf32>" % i for i in range(n))
body = ["  %s1 = arith.addf %a0, %a1 : tensor<2xf32>"]
for i in range(2, n):
    body.append("  %%s%d = arith.addf %%s%d, %%a%d : tensor<2xf32>"
                % (i, i - 1, i))
with open(os.path.join(out, "many.mlir"), "w") as f:
    f.write("func.func @many(%s) -> tensor<2xf32> {\n%s\n"
            "  return %%s%d : tensor<2xf32>\n}\n"
            % (args, "\n".join(body), n - 1))
rng = np.random.default_rng(1)
total = np.zeros(2, np.float32)  # summed in the same order
with open(os.path.join(out, "args"), "w") as f:
    for i in range(n):
        a = rng.uniform(-1, 1, 2).astype(np.float32)
        total += a
        path = os.path.join(out, "m%d.npy" % i)
        np.save(path, a)
        f.write("--input %s\n" % path)
np.save(os.path.join(out, "sum.npy"), total)
