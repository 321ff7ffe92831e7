#!/usr/bin/env python3
"""Writes the seed corpus of attic-mlir-fuzzer: every .mlir test file and
example of the source tree, split at `// -----` (lit's --split-input-file
marker), one seed per part of at most 64 KiB (the fuzzer's input limit). A file
with a line `// fuzz-seed: skip` is left out: the reproducers of crashes
in upstream MLIR that attic cannot fix (the fuzzer would stop at them).

    split_mlir_seeds.py SOURCE_ROOT OUTPUT_DIR
"""
import glob
import os
import sys


def main():
    root, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    patterns = ["test/**/*.mlir", "examples/*.mlir"]
    files = sorted({f for p in patterns
                    for f in glob.glob(os.path.join(root, p), recursive=True)})
    count = 0
    for path in files:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        if "// fuzz-seed: skip" in text:
            continue
        parts = text.split("// -----")
        name = os.path.relpath(path, root).replace(os.sep, "_")
        for i, part in enumerate(parts):
            if not part.strip() or len(part.encode()) > 64 * 1024:
                continue
            with open(os.path.join(out, "%s.%d" % (name, i)), "w",
                      encoding="utf-8") as seed:
                seed.write(part)
            count += 1
    print("split_mlir_seeds: %d seeds from %d files" % (count, len(files)))


if __name__ == "__main__":
    main()
