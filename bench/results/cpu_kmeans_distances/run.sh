#!/usr/bin/env bash
# K-means distances: the sgemm form |c|^2 - 2 x.c (attic-run-old, built
# from 3c30d13^) against sum (x - c)^2 per row up to head dim 4
# (attic-run-new4, built from the commit that set the threshold), on the
# same generated inputs (--seed=1), alternated, medians of --bench=5, 3
# rounds. D = 8 and 16 take the sgemm form in both (a control). Run from
# this directory with LD_LIBRARY_PATH pointing at build/lib.
for round in 1 2 3; do
  for entry in kmeans_d4 clustered_d4 kmeans_d8 kmeans_d16 clustered_d16; do
    for build in old new4; do
      ms=$(./attic-run-$build kmeans_bench.mlir --entry=$entry --seed=1 --bench=5 2>&1 | sed -n 's/^time: median \([0-9.]*\) ms.*/\1/p')
      echo "round=$round entry=$entry build=$build median_ms=$ms"
    done
  done
done
