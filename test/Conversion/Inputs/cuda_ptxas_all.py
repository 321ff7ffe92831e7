#!/usr/bin/env python3
"""cuda_ptxas_all.py PTXAS ARCH < module.mlir

Runs `PTXAS -arch=ARCH -v` on the PTX of every gpu.binary in an MLIR file
(format=isa) and prints one line per kernel (registers, spill bytes) and a
summary: `kernels: N, rejected: R, spilling: S, serialized: W`, where R
counts kernels that ptxas does not accept, S those with spill stores or
loads and W those whose wgmma.mma_async ptxas serializes: its C75xx
notes, "Potential Performance Loss: wgmma.mma_async instructions are
serialized ..." and "warpgroup.wait is injected ... to allow use of
registers defined by GMMA" (ptxas 13 on a register read before its
wgmma.wait_group), which wait where the code meant to overlap."""
import re
import subprocess
import sys
import tempfile


def unescape(body):
    out = bytearray()
    i = 0
    while i < len(body):
        c = body[i]
        if c == "\\":
            if body[i + 1] in "\\\"":
                out.append(ord(body[i + 1]))
                i += 2
            else:
                out.append(int(body[i + 1:i + 3], 16))
                i += 3
        else:
            out.extend(c.encode())
            i += 1
    return bytes(out)


ptxas, arch = sys.argv[1], sys.argv[2]
text = sys.stdin.read()
binaries = re.findall(r'gpu\.binary @([\w$.]+)\b.*?assembly = "((?:[^"\\]|\\.)*)"',
                      text, re.S)
rejected = spilling = serialized = 0
with tempfile.TemporaryDirectory() as tmp:
    for name, body in binaries:
        path = "%s/%s.ptx" % (tmp, name)
        with open(path, "wb") as f:
            f.write(unescape(body))
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
      (len(binaries), rejected, spilling, serialized))
