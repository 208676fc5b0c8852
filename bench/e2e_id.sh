#!/usr/bin/env bash
# End to end: eom id over a 1,000,000-row CSV for the 7-DoF iiwa14 against eom convert of the
# same rows, with --jobs 1 / 2, and in batch mode over the same rows split in 4 files.
# Usage: bench/e2e_id.sh [BUILD_DIR] [ROWS]
set -euo pipefail
build=${1:-build}
rows=${2:-1000000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
eom="$build/eom"
robot="$(dirname "$0")/../robots/iiwa14.urdf"

. "$(dirname "$0")/timing.sh"

iiwa_table "$rows" > "$work/in.csv"
echo "input: $rows rows, $(du -m "$work/in.csv" | cut -f1) MB"

convert=$(best "$eom" convert "$work/in.csv" "$work/out.csv")
id1=$(best "$eom" id "$robot" "$work/in.csv" -o "$work/tau.csv" --jobs 1)
id2=$(best "$eom" id "$robot" "$work/in.csv" -o "$work/tau.csv" --jobs 2)
# batch: the same rows in 4 files
mkdir -p "$work/parts"
tail -n +2 "$work/in.csv" | split -l $(( (rows + 3) / 4 )) - "$work/parts/part_"
for f in "$work"/parts/part_*; do
  { head -1 "$work/in.csv"; cat "$f"; } > "$f.csv"
  rm "$f"
done
batch1=$(best "$eom" id "$robot" "$work"/parts/*.csv --output-dir "$work/out1" --jobs 1)
batch2=$(best "$eom" id "$robot" "$work"/parts/*.csv --output-dir "$work/out2" --jobs 2)
awk -v c="$convert" -v a="$id1" -v b="$id2" -v x="$batch1" -v y="$batch2" -v n="$rows" 'BEGIN {
  printf "eom convert                 %.2f s  %.0f rows/s\n", c, n / c
  printf "eom id --jobs 1             %.2f s  %.0f rows/s  (%.2f x convert)\n", a, n / a, a / c
  printf "eom id --jobs 2             %.2f s  %.0f rows/s  (%.2f x convert)\n", b, n / b, b / c
  printf "eom id 4 files, --jobs 1    %.2f s  %.0f rows/s\n", x, n / x
  printf "eom id 4 files, --jobs 2    %.2f s  %.0f rows/s\n", y, n / y
}'
