#!/usr/bin/env bash
# End to end: eom deriv --christoffel (nv^3 columns per row) on serial chains of N revolute
# joints, for N from 6 to 100, over a table of ROWS rows of q, v and a: seconds per row and ns per
# symbol written, against eom deriv --order 0 without the symbols on the same rows.
# Usage: bench/e2e_christoffel.sh [BUILD_DIR] [ROWS]
set -euo pipefail
build=${1:-build}
rows=${2:-20}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
eom="$build/eom"
. "$(dirname "$0")/timing.sh"

# chain N: unit links 0.1 m apart, joint axes turning x, y, z
chain() {
  awk -v n="$1" 'BEGIN {
    print "<robot name=\"chain\">"
    for (i = 0; i <= n; ++i)
      printf "<link name=\"l%d\"><inertial><mass value=\"1\"/><inertia ixx=\"0.01\" iyy=\"0.02\" izz=\"0.03\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial></link>\n", i
    for (i = 0; i < n; ++i)
      printf "<joint name=\"j%d\" type=\"revolute\"><parent link=\"l%d\"/><child link=\"l%d\"/><origin xyz=\"0 0 0.1\"/><axis xyz=\"%s\"/><limit lower=\"-3\" upper=\"3\" effort=\"1\" velocity=\"1\"/></joint>\n", i, i, i + 1, substr("1 0 00 1 00 0 1", 1 + 5 * (i % 3), 5)
    print "</robot>" }' > "$work/chain.urdf"
  awk -v n="$1" -v rows="$rows" 'BEGIN {
    printf "t"; for (i = 0; i < n; i++) printf ",q.j%d,v.j%d,a.j%d", i, i, i; printf "\n"
    for (k = 0; k < rows; k++) {
      printf "%g", k / 100
      for (i = 0; i < n; i++) printf ",%.17g,%.17g,%.17g", sin(0.1 * k + i), cos(0.1 * k + i), -sin(0.1 * k + i)
      printf "\n"
    }
  }' > "$work/in.csv"
}

printf "%5s %12s %12s %14s %12s\n" nv "s/row" "ns/symbol" "order 0 s/row" "MB/row"
for n in 6 12 25 50 100; do
  chain "$n"
  plain=$(best "$eom" deriv "$work/chain.urdf" "$work/in.csv" --order 0 --no-derive -q -o "$work/out.csv")
  full=$(best "$eom" deriv "$work/chain.urdf" "$work/in.csv" --order 0 --no-derive -q --christoffel -o "$work/out.csv")
  mb=$(du -m "$work/out.csv" | cut -f1)
  awk -v n="$n" -v f="$full" -v p="$plain" -v r="$rows" -v mb="$mb" 'BEGIN {
    printf "%5d %12.4f %12.1f %14.5f %12.1f\n", n, f / r, 1e9 * f / (r * n * n * n), p / r, mb / r }'
done
