#!/usr/bin/env python3
"""cuda_extract_binary.py [KERNEL] < module.mlir > object

Writes a kernel object of an MLIR file's gpu.binary ops to stdout: the PTX
text for format=isa (`assembly = "..."`), the cubin/fatbin bytes for
format=bin/fatbin (`bin = "..."`). MLIR prints string attributes with
\\XX hex escapes.

attic-cuda-pipeline compiles all kernels into one gpu.binary
(attic-gpu-merge-kernel-modules). With KERNEL, the PTX is cut down to the
entry function KERNEL: everything but the other `.entry` definitions (the
header, globals, device functions stay), which ptxas compiles alone. A
cubin cannot be cut: KERNEL then names the gpu.binary, or the whole cubin
that has the kernel's code section (.text.KERNEL). Without KERNEL: the
first gpu.binary, whole.

Also a module for cuda_ptxas_all.py: binaries(), entries(), entry_ptx()."""
import re
import sys

ENTRY = re.compile(r'^\.(?:visible |weak )?\.?entry ([\w$.]+)\(', re.M)


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
            out.extend(c.encode("utf-8"))
            i += 1
    return bytes(out)


def binaries(text):
    """(symbol, kind, bytes) of every gpu.binary; kind: assembly or bin."""
    return [(name, kind, unescape(body)) for name, kind, body in re.findall(
        r'gpu\.binary @([\w$.]+)\b.*?(assembly|bin) = "((?:[^"\\]|\\.)*)"',
        text, re.S)]


def _blocks(ptx):
    """The PTX as (entry name or None, lines): each entry from its
    `.entry` line to the `}` that closes it."""
    blocks, current, name = [], [], None
    for line in ptx.splitlines(keepends=True):
        match = ENTRY.match(line)
        if match and name is None:
            blocks.append((None, current))
            current, name = [], match.group(1)
        current.append(line)
        if name is not None and line.rstrip("\n") == "}":
            blocks.append((name, current))
            current, name = [], None
    blocks.append((name, current))
    return blocks


def entries(ptx):
    return [name for name, _ in _blocks(ptx) if name]


def entry_ptx(ptx, kernel):
    """The PTX without the entry functions other than `kernel`."""
    return "".join("".join(lines) for name, lines in _blocks(ptx)
                   if name is None or name == kernel)


def main():
    text = sys.stdin.read()
    found = binaries(text)
    kernel = sys.argv[1] if len(sys.argv) > 1 else None
    if kernel is None:
        if not found:
            sys.exit("no gpu.binary with an assembly or bin string")
        sys.stdout.buffer.write(found[0][2])
        return
    for name, kind, data in found:
        if kind == "assembly":
            ptx = data.decode("utf-8")
            if kernel in entries(ptx):
                sys.stdout.buffer.write(entry_ptx(ptx, kernel).encode("utf-8"))
                return
    for name, kind, data in found:
        if name == kernel:
            sys.stdout.buffer.write(data)
            return
    # A cubin holding the kernel's code section.
    for name, kind, data in found:
        if kind == "bin" and (b".text." + kernel.encode() + b"\0") in data:
            sys.stdout.buffer.write(data)
            return
    sys.exit("no entry function or gpu.binary named %s" % kernel)


if __name__ == "__main__":
    main()
