"""Prints a module with a layout of N nested attic attributes (bad-input.test):
#attic.causal inside N - 1 alternating #attic.intersect / #attic.union."""
import sys

n = int(sys.argv[1])
layout = "#attic.causal"
for i in range(n - 1):
    layout = "#attic.%s<[%s]>" % ("union" if i % 2 else "intersect", layout)
print("#l = " + layout)
print("func.func private @f() attributes {l = #l}")
