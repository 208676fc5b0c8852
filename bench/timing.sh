# Sourced by the bench/e2e_*.sh scripts.
# best CMD...: the best of 3 wall-clock seconds of a command (its stdout discarded)
best() {
  local best=""
  for _ in 1 2 3; do
    local start end
    start=$(date +%s.%N)
    "$@" > /dev/null
    end=$(date +%s.%N)
    best=$(echo "$start $end ${best:-1e9}" | awk '{ d = $2 - $1; print (d < $3 ? d : $3) }')
  done
  echo "$best"
}
# iiwa_table ROWS: a ROWS-row CSV of t, q, v, a for the 7-DoF iiwa14 on stdout, q_i =
# 0.5 cos(w_i t + i) with exact v and a, 17 significant digits like real logs
iiwa_table() {
  awk -v n="$1" 'BEGIN {
    printf "t"; for (i = 1; i <= 7; i++) printf ",q.iiwa_joint_%d", i
    for (i = 1; i <= 7; i++) printf ",v.iiwa_joint_%d", i
    for (i = 1; i <= 7; i++) printf ",a.iiwa_joint_%d", i
    printf "\n"
    for (k = 0; k < n; k++) {
      t = k / 1000; printf "%.17g", t
      for (i = 1; i <= 7; i++) printf ",%.17g", 0.5 * cos(0.7 * i * t + i)
      for (i = 1; i <= 7; i++) printf ",%.17g", -0.35 * i * sin(0.7 * i * t + i)
      for (i = 1; i <= 7; i++) printf ",%.17g", -0.245 * i * i * cos(0.7 * i * t + i)
      printf "\n"
    }
  }'
}
