#!/usr/bin/env bash
# The scale-out recipes of examples/ (make, GNU parallel) give, byte for byte, what a serial run
# gives, and make is incremental. Usage: examples.sh EOM SOURCE_DIR
set -euo pipefail
eom=$1
src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$src"
# serial: one table after the other
mkdir -p "$work/serial"
while IFS=$'\t' read -r table robot flags; do
  # shellcheck disable=SC2086
  "$eom" id "$robot" "trajectories/$table.csv" $flags -o "$work/serial/$table.tau.csv"
done < examples/tables.tsv
make -s -C examples EOM="$eom" OUT="$work/make" -j2 > /dev/null
make -q -C examples EOM="$eom" OUT="$work/make" || { echo "FAILED: make is not up to date after a run"; exit 1; }
bash examples/parallel.sh "$eom" "$work/parallel" > /dev/null
for f in "$work"/serial/*.csv; do
  name=$(basename "$f")
  cmp "$f" "$work/make/$name" || { echo "FAILED: make: $name differs"; exit 1; }
  cmp "$f" "$work/parallel/$name" || { echo "FAILED: parallel: $name differs"; exit 1; }
done
echo "ok: $(ls "$work"/serial | wc -l) tables, make and parallel equal to serial"
