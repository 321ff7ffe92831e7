"""Prints a module with a layout of N nested attic attributes (bad-input.test):
#attic.causal inside N - 1 alternating #attic.intersect / #attic.union.

nested_layouts.py N          the layout written out, one attribute in the next
nested_layouts.py N aliases  one alias per level (#a1 = #attic.union<[#a0]>)
nested_layouts.py N shared   one alias per level, used twice by the next
                             (#a1 = #attic.union<[#a0, #a0]>: 2^N - 1 nodes)
"""
import sys

n = int(sys.argv[1])
mode = sys.argv[2] if len(sys.argv) > 2 else "text"
kind = lambda i: "union" if i % 2 else "intersect"
if mode == "text":
    layout = "#attic.causal"
    for i in range(n - 1):
        layout = "#attic.%s<[%s]>" % (kind(i), layout)
    print("#l = " + layout)
else:
    print("#a0 = #attic.causal")
    for i in range(n - 1):
        uses = ["#a%d" % i] * (2 if mode == "shared" else 1)
        print("#a%d = #attic.%s<[%s]>" % (i + 1, kind(i), ", ".join(uses)))
    print("#l = #a%d" % (n - 1))
print("func.func private @f() attributes {l = #l}")
