#!/usr/bin/env bash
# Bash completion (completions/eom.bash) against the built eom: subcommands, options, frame and
# joint names read from the ROBOT on the command line. Usage: completion.sh EOM SOURCE_DIR
set -uo pipefail
eom=$1
src=$2
# shellcheck source=/dev/null
source "$src/completions/eom.bash"
complete_words() {
  COMP_WORDS=("$@")
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  COMPREPLY=()
  _eom
  echo "${COMPREPLY[*]}"
}
expect() {
  local want=$1
  shift
  local got
  got=$(complete_words "$@")
  [ "$got" = "$want" ] || { echo "FAILED: '$*' completed to '$got', expected '$want'"; exit 1; }
}
ur5=$src/robots/ur5.urdf
expect "fk fd" "$eom" f
expect "tool0" "$eom" fk "$ur5" x.csv --frames too
expect "tool0,wrist_1_link tool0,wrist_2_link tool0,wrist_3_link" "$eom" fk "$ur5" x.csv --frames tool0,wri
expect "FL_FOOT,FR_SHOULDER FL_FOOT,FR_UPPER_LEG FL_FOOT,FR_LOWER_LEG FL_FOOT,FR_FOOT" "$eom" id "$src/robots/solo12.urdf" x.csv --contacts FL_FOOT,FR
expect "--friction --friction-coefficient --friction-file --friction-smoothing --from" "$eom" id "$ur5" x.csv --fr
expect "json" "$eom" id "$ur5" x.csv --format j
expect "shoulder_lift_joint,wrist_1_joint shoulder_lift_joint,wrist_2_joint shoulder_lift_joint,wrist_3_joint" \
  "$eom" fd "$ur5" x.csv --lock shoulder_lift_joint,wri
# NAME=VALUE options complete the joint and its '='; enumerated options their choices
expect "shoulder_pan_joint= shoulder_lift_joint=" "$eom" sim "$ur5" --q0 sho
expect "elbow_joint=0.1,wrist_1_joint= elbow_joint=0.1,wrist_2_joint= elbow_joint=0.1,wrist_3_joint=" \
  "$eom" sim "$ur5" --setpoint elbow_joint=0.1,wri
expect "elbow_joint=" "$eom" sim "$ur5" --torque el
expect "elbow_joint=" "$eom" sim "$ur5" --v0 el
expect "elbow_joint=" "$eom" excite "$ur5" --limits el
expect "wrist_3_link" "$eom" excite "$ur5" --only wrist_3
expect "d-optimal" "$eom" excite "$ur5" --criterion d
expect "rk4 rk45" "$eom" sim "$ur5" --integrator rk
expect "pd pd-gravity" "$eom" sim "$ur5" --controller p
expect "drop" "$eom" id "$ur5" x.csv --duplicates d
expect "three-point" "$eom" id "$ur5" x.csv --derive t
expect "--partial" "$eom" identify "$ur5" x.csv --par
echo "ok: completion"
