#!/usr/bin/env bash
# Bounded memory: peak RSS (GNU time's "Maximum resident set size") of eom id, fd, deriv, jac and
# convert streaming a ~1 GB CSV (7-DoF iiwa14: t, q, v, a, tau; generated, never committed)
# to /dev/null, one table with the default --jobs (reading overlapped with computing).
# Usage: bench/e2e_memory.sh [BUILD_DIR] [MEGABYTES] [COMMAND...]  (default: all; needs
# /usr/bin/time: Debian's `time`)
set -euo pipefail
build=${1:-build}
megabytes=${2:-1024}
shift $(($# < 2 ? $# : 2))
commands=${*:-id fd deriv jac convert pipe}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
eom="$build/eom"
robot="$(dirname "$0")/../robots/iiwa14.urdf"

# about 560 bytes a row: q_i = 0.5 cos(w_i t + i) with exact v and a, any tau
rows=$((megabytes * 1024 * 1024 / 560))
awk -v n="$rows" 'BEGIN {
  printf "t"
  split("q v a tau", kinds, " ")
  for (k = 1; k <= 4; k++) for (i = 1; i <= 7; i++) printf ",%s.iiwa_joint_%d", kinds[k], i
  printf "\n"
  for (r = 0; r < n; r++) {
    t = r / 1000; printf "%.17g", t
    for (i = 1; i <= 7; i++) printf ",%.17g", 0.5 * cos(0.7 * i * t + i)
    for (i = 1; i <= 7; i++) printf ",%.17g", -0.35 * i * sin(0.7 * i * t + i)
    for (i = 1; i <= 7; i++) printf ",%.17g", -0.245 * i * i * cos(0.7 * i * t + i)
    for (i = 1; i <= 7; i++) printf ",%.17g", 10 * sin(0.3 * i * t)
    printf "\n"
  }
}' > "$work/in.csv"
echo "input: $rows rows, $(du -m "$work/in.csv" | cut -f1) MB"

# peak RSS (MB) and wall time of one command
measure() {
  local label=$1
  shift
  /usr/bin/time -f "%M %e" -o "$work/time.txt" "$@" > /dev/null
  read -r kb seconds < "$work/time.txt"
  printf '%-26s peak RSS %6.1f MB  %7.1f s\n' "$label" "$(echo "$kb" | awk '{ print $1 / 1024 }')" "$seconds"
}
for command in $commands; do
  case $command in
    id) measure "eom id" "$eom" id "$robot" "$work/in.csv" -q -o /dev/null ;;
    fd) measure "eom fd" "$eom" fd "$robot" "$work/in.csv" -q -o /dev/null ;;
    # d3q derived from the rows (a fitted window), so the window is in the figure too
    deriv) measure "eom deriv --order 1" "$eom" deriv "$robot" "$work/in.csv" --order 1 -q -o /dev/null ;;
    jac) measure "eom jac" "$eom" jac "$robot" "$work/in.csv" --frame iiwa_link_ee -q -o /dev/null ;;
    convert) measure "eom convert (to NDJSON)" "$eom" convert "$work/in.csv" -q --format ndjson -o /dev/null ;;
    pipe) measure "eom id (stdin, NDJSON)" bash -c "'$eom' convert '$work/in.csv' --format ndjson | '$eom' id '$robot' - --from ndjson -q -o /dev/null" ;;
    *) echo "unknown command $command" >&2; exit 2 ;;
  esac
done
