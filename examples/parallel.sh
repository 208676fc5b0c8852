#!/usr/bin/env bash
# The same work as the Makefile with GNU parallel (Debian package `parallel`), one eom process per
# table, as many at once as there are cores. Each run is stateless, so the same line scales to
# many machines with `parallel --sshlogin`, a Slurm job array or any other engine.
#   examples/parallel.sh EOM OUT_DIR
set -euo pipefail
eom=${1:-eom}
out=${2:-examples/out}
cd "$(dirname "$0")/.."
mkdir -p "$out"
# {=3 uq() =}: the options column unquoted, so an empty one adds no argument
parallel --will-cite --halt now,fail=1 --colsep '\t' \
  "$eom" id {2} trajectories/{1}.csv {=3 uq\(\) =} -o "$out"/{1}.tau.csv :::: examples/tables.tsv
