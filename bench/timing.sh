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
