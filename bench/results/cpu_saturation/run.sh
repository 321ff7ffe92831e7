#!/usr/bin/env bash
# A/B of two attic-run builds on "$(dirname "$0")/saturation.mlir", alternated, same inputs (seeded).
#   run.sh OLD_ATTIC_RUN NEW_ATTIC_RUN ROUNDS   (ENTRIES="masked softcap" to choose)
old=$1 new=$2 rounds=${3:-3}
for entry in ${ENTRIES:-dense masked softcap}; do
  for r in $(seq "$rounds"); do
    for which in old new; do
      bin=$old; [[ $which == new ]] && bin=$new
      t=$("$bin" "$(dirname "$0")/saturation.mlir" --entry=$entry --bench=5 --mask-keep=0.9 --seed=1 2>&1 | sed -n 's/^time: median \([0-9.]*\) ms.*/\1/p')
      echo "$entry $which $r $t"
    done
  done
done
