#!/usr/bin/env bash
# Runs every ```sh block of a Markdown guide, in order and as written, from
# the root of the source tree, in one bash with -euo pipefail, printing each
# block's output. test/Docs/getting-started.test runs docs/getting-started.md
# this way, so the guide's commands are exercised by the test suite.
#   test/Docs/run-guide.sh GUIDE.md SOURCE_ROOT
set -euo pipefail
guide=$1
root=$2
script=$(mktemp)
trap 'rm -f "$script"' EXIT
{
  echo 'set -euo pipefail'
  awk '/^```sh$/ {inside = 1; print "echo \"--- block " ++n "\""; next}
       /^```$/ && inside {inside = 0; next}
       inside {print}' "$guide"
} > "$script"
cd "$root"
bash "$script"
