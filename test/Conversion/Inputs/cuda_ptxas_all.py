#!/usr/bin/env python3
"""cuda_ptxas_all.py PTXAS ARCH < module.mlir

Runs `PTXAS -arch=ARCH -v` on the PTX of every gpu.binary in an MLIR file
(format=isa) and prints one line per kernel (registers, spill bytes) and a
summary: `kernels: N, rejected: R, spilling: S`, where R counts kernels
that ptxas does not accept and S those with spill stores or loads."""
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
rejected = spilling = 0
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
        print("%s: %s registers, %d spill bytes" %
              (name, regs[0] if regs else "?", sum(spills)))
print("kernels: %d, rejected: %d, spilling: %d" % (len(binaries), rejected, spilling))
