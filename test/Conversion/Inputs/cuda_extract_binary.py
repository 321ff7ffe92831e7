#!/usr/bin/env python3
"""cuda_extract_binary.py [SYMBOL] < module.mlir > object

Writes the kernel object of `gpu.binary @SYMBOL` (default: the first
gpu.binary) in an MLIR file to stdout: the PTX text for format=isa
(`assembly = "..."`), the cubin/fatbin bytes for format=bin/fatbin
(`bin = "..."`). MLIR prints string attributes with \\XX hex escapes."""
import re
import sys

text = sys.stdin.read()
symbol = sys.argv[1] if len(sys.argv) > 1 else r"[\w$.]+"
match = re.search(r'gpu\.binary @' + symbol +
                  r'\b.*?(assembly|bin) = "((?:[^"\\]|\\.)*)"', text, re.S)
if not match:
    sys.exit("no gpu.binary @%s with an assembly or bin string" %
             (sys.argv[1] if len(sys.argv) > 1 else "*"))
out = bytearray()
body = match.group(2)
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
        out.extend(c.encode("utf-8"))
        i += 1
sys.stdout.buffer.write(bytes(out))
