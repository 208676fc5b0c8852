#!/usr/bin/env bash
# End to end: eom jac (the default report: Jacobian of the tip frame, SVD, rank, condition,
# manipulability, nullity, the singularity scan) over a 1,000,000-row table of q for the 7-DoF
# iiwa14, against eom convert of the same rows, with --jobs 1 / 2.
# Usage: bench/e2e_jac.sh [BUILD_DIR] [ROWS]
set -euo pipefail
build=${1:-build}
rows=${2:-1000000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
eom="$build/eom"
robot="$(dirname "$0")/../robots/iiwa14.urdf"

# q_i = 0.5 cos(w_i t + i); 17 significant digits like real logs
awk -v n="$rows" 'BEGIN {
  printf "t"; for (i = 1; i <= 7; i++) printf ",q.iiwa_joint_%d", i
  printf "\n"
  for (k = 0; k < n; k++) {
    t = k / 1000; printf "%.17g", t
    for (i = 1; i <= 7; i++) printf ",%.17g", 0.5 * cos(0.7 * i * t + i)
    printf "\n"
  }
}' > "$work/in.csv"
echo "input: $rows rows, $(du -m "$work/in.csv" | cut -f1) MB"

. "$(dirname "$0")/timing.sh"

convert=$(best "$eom" convert "$work/in.csv" "$work/out.csv")
jac1=$(best "$eom" jac "$robot" "$work/in.csv" --frame iiwa_link_ee -q -o "$work/jac.csv" --jobs 1)
jac2=$(best "$eom" jac "$robot" "$work/in.csv" --frame iiwa_link_ee -q -o "$work/jac.csv" --jobs 2)
jacobian=$(best "$eom" jac "$robot" "$work/in.csv" --frame iiwa_link_ee -q --jacobian -o "$work/jac.csv" --jobs 2)
echo "output columns: $(head -1 "$work/jac.csv" | tr ',' '\n' | wc -l) with --jacobian"
awk -v c="$convert" -v a="$jac1" -v b="$jac2" -v j="$jacobian" -v n="$rows" 'BEGIN {
  printf "eom convert                       %.2f s  %.0f rows/s\n", c, n / c
  printf "eom jac --jobs 1                  %.2f s  %.0f rows/s  (%.2f x convert)\n", a, n / a, a / c
  printf "eom jac --jobs 2                  %.2f s  %.0f rows/s  (%.2f x convert)\n", b, n / b, b / c
  printf "eom jac --jacobian --jobs 2       %.2f s  %.0f rows/s  (%.2f x convert)\n", j, n / j, j / c
}'
