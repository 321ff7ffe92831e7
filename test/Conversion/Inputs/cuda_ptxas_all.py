#!/usr/bin/env python3
"""cuda_ptxas_all.py PTXAS ARCH < module.mlir

Runs `PTXAS -arch=ARCH -v` on the PTX of every kernel (entry function) of
the gpu.binary ops in an MLIR file (format=isa), each cut out of its
binary's PTX alone (cuda_extract_binary.entry_ptx), and prints one line
per kernel (registers, spill bytes) and a
summary: `kernels: N, rejected: R, spilling: S, serialized: W`, where R
counts kernels that ptxas does not accept, S those with spill stores or
loads and W those whose wgmma.mma_async ptxas serializes: its C75xx
notes, "Potential Performance Loss: wgmma.mma_async instructions are
serialized ..." and "warpgroup.wait is injected ... to allow use of
registers defined by GMMA" (ptxas 13 on a register read before its
wgmma.wait_group), which wait where the code meant to overlap."""
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cuda_extract_binary import binaries, entries, entry_ptx  # noqa: E402

ptxas, arch = sys.argv[1], sys.argv[2]
kernels = []
for _, kind, data in binaries(sys.stdin.read()):
    if kind == "assembly":
        ptx = data.decode("utf-8")
        kernels += [(name, entry_ptx(ptx, name)) for name in entries(ptx)]
rejected = spilling = serialized = 0
with tempfile.TemporaryDirectory() as tmp:
    for name, ptx in kernels:
        path = "%s/%s.ptx" % (tmp, name)
        with open(path, "w") as f:
            f.write(ptx)
        run = subprocess.run([ptxas, "-arch=" + arch, "-v", path, "-o",
                              path + ".cubin"], capture_output=True, text=True)
        log = run.stdout + run.stderr
        if run.returncode != 0:
            rejected += 1
            print("%s: rejected: %s" % (name, log.strip().splitlines()[-1:]))
            continue
        spills = [int(n) for n in re.findall(r"(\d+) bytes spill (?:stores|loads)", log)]
        regs = re.findall(r"Used (\d+) registers", log)
        if any(spills):
            spilling += 1
        serial = re.search(r"\(C75\d\d\)", log) is not None
        serialized += serial
        print("%s: %s registers, %d spill bytes%s" %
              (name, regs[0] if regs else "?", sum(spills),
               ", wgmma serialized" if serial else ""))
print("kernels: %d, rejected: %d, spilling: %d, serialized: %d" %
      (len(kernels), rejected, spilling, serialized))
