#!/usr/bin/env bash
# End to end: eom identify over a generated log of the 7-DoF iiwa14 (t, q, v, a and the torques
# eom id computes from them) against eom id over the same log, wall time best of 3 (the report,
# quiet, with the summary, least squares), and the peak memory of eom identify and eom id at
# ROWS / 10 and ROWS rows (it must not grow with the rows).
# Usage: bench/e2e_identify.sh [BUILD_DIR] [ROWS]
set -euo pipefail
build=${1:-build}
rows=${2:-1000000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
eom="$build/eom"
robot="$(dirname "$0")/../robots/iiwa14.urdf"

. "$(dirname "$0")/timing.sh"

# the table of bench/e2e_id.sh with the torques eom id computes from it
log() {
  iiwa_table "$1" > "$work/in.csv"
  "$eom" id "$robot" "$work/in.csv" --keep-input -o "$2"
}
log $((rows / 10)) "$work/small.csv"
log "$rows" "$work/log.csv"
echo "log: $rows rows, $(du -m "$work/log.csv" | cut -f1) MB"

id=$(best "$eom" id "$robot" "$work/log.csv" -o "$work/tau.csv")
# the default run reports on stderr (the file's model's residuals found in the fit's pass);
# --summary-json reads the log a second time for the identified model's largest residuals
identify=$(best "$eom" identify "$robot" "$work/log.csv" -o "$work/params.csv" 2> /dev/null)
quiet=$(best "$eom" identify "$robot" "$work/log.csv" -o "$work/params.csv" -q)
summary=$(best "$eom" identify "$robot" "$work/log.csv" -o "$work/params.csv" \
  --summary-json "$work/s.json" 2> /dev/null)
least=$(best "$eom" identify "$robot" "$work/log.csv" --method least-squares \
  -o "$work/params.csv" 2> /dev/null)
peak() { /usr/bin/time -f %M "$@" 2>&1 > /dev/null | tail -1; }
# CPU seconds (user + system) of one run: eom id reads in a second thread, identify in one
cpu() { /usr/bin/time -f "%U %S" "$@" 2>&1 > /dev/null | tail -1 | awk '{ print $1 + $2 }'; }
id_cpu=$(cpu "$eom" id "$robot" "$work/log.csv" -o "$work/tau.csv")
identify_cpu=$(cpu "$eom" identify "$robot" "$work/log.csv" -o "$work/params.csv" -q)
id_small_kb=$(peak "$eom" id "$robot" "$work/small.csv" -o "$work/tau.csv")
id_large_kb=$(peak "$eom" id "$robot" "$work/log.csv" -o "$work/tau.csv")
small_kb=$(peak "$eom" identify "$robot" "$work/small.csv" -o "$work/params.csv" -q)
large_kb=$(peak "$eom" identify "$robot" "$work/log.csv" -o "$work/params.csv" -q)
awk -v a="$id" -v b="$identify" -v q="$quiet" -v j="$summary" -v c="$least" -v s="$small_kb" \
  -v l="$large_kb" -v is="$id_small_kb" -v il="$id_large_kb" -v n="$rows" -v ic="$id_cpu" \
  -v jc="$identify_cpu" 'BEGIN {
  printf "eom id                          %.2f s  %.0f rows/s\n", a, n / a
  printf "eom identify                    %.2f s  %.0f rows/s  (%.2f x id)\n", b, n / b, b / a
  printf "eom identify -q                 %.2f s  %.0f rows/s  (%.2f x id)\n", q, n / q, q / a
  printf "eom identify --summary-json     %.2f s  %.0f rows/s  (%.2f x id)\n", j, n / j, j / a
  printf "eom identify --method least-sq. %.2f s  %.0f rows/s  (%.2f x id)\n", c, n / c, c / a
  printf "CPU time: eom id %.2f s, eom identify -q %.2f s (%.2f x)\n", ic, jc, jc / ic
  printf "peak memory of eom identify     %.1f MB at %d rows, %.1f MB at %d rows\n", s / 1024, n / 10, l / 1024, n
  printf "peak memory of eom id           %.1f MB at %d rows, %.1f MB at %d rows\n", is / 1024, n / 10, il / 1024, n
}'
