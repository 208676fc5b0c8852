#!/usr/bin/env bash
# End to end: eom excite on the shipped UR5 and iiwa14 with the options of doc/excite.md's
# examples (2000 evaluations of the criterion by default), wall time best of 3 and CPU time of
# one run, with the evaluations and the condition numbers the report gives.
# Usage: bench/e2e_excite.sh [BUILD_DIR]
set -euo pipefail
build=${1:-build}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
eom="$build/eom"
robots="$(dirname "$0")/../robots"

. "$(dirname "$0")/timing.sh"

cpu() { /usr/bin/time -f "%U %S" "$@" 2>&1 > /dev/null | tail -1 | awk '{ print $1 + $2 }'; }
# time NAME ARGS...: one line per example
time_excite() {
  local name=$1
  shift
  local wall cpu_s report
  wall=$(best "$eom" excite "$@" -o "$work/out.csv" -q)
  cpu_s=$(cpu "$eom" excite "$@" -o "$work/out.csv" -q)
  report=$("$eom" excite "$@" -o "$work/out.csv" 2>&1 > /dev/null | head -1)
  printf "%-8s wall %.2f s, CPU %.2f s: %s\n" "$name" "$wall" "$cpu_s" "$report"
}
time_excite ur5 "$robots/ur5.urdf" --period 10 --harmonics 5 --rate 100
time_excite iiwa14 "$robots/iiwa14.urdf" --velocity-scale 0.5 --max-acceleration 3 --cycles 2 \
  --seed 7
