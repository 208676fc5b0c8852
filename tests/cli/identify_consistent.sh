#!/usr/bin/env bash
# eom identify's consistent fit (the default method), parameter by parameter, on the noise-free
# log of tests/data/identify/ur5_true.urdf (scripts/make_identify_data.py: the shipped UR5 with
# every body heavier, its centre of mass moved and its inertia scaled, each still consistent, and
# friction on every joint), identified from the shipped robots/ur5.urdf. The true and the prior
# parameters are read from the two URDFs by identify_consistent.py, not by eom. Needs python3.
# Usage: identify_consistent.sh EOM SOURCE_DIR CASE.
set -uo pipefail
eom=$1
src=$2
case_name=$3
. "$(dirname "$0")/lib.sh"

# check PARAMS MODE [ARGS]: identify_consistent.py's checks; prints what it counted
check() {
  python3 "$src/tests/cli/identify_consistent.py" "$src/tests/data/identify/ur5_true.urdf" \
    "$src/robots/ur5.urdf" "$@" || fail "identify_consistent.py $*"
}
log=$src/tests/data/identify/ur5_log.csv

case $case_name in
  pure)
    # a pure fit (--prior-weight 0, taken as 1e-7): every body physical, and each parameter the
    # torques determine alone (its std given: the 18 first and second moments that are base
    # parameters by themselves, and fv, fc of the six joints) the true one. Tolerance 1e-8 of the
    # largest of its kind: the identified robot's torques match the log's to 1e-8 of their RMS
    # (cli: identify-ur5-consistent-check), the base regressor's condition number is 855 and the
    # pull of W = 1e-7 moves the fit by about W^2 times the condition number squared (1e-8); the
    # log's torques themselves are exact to 17 digits. Measured: 4e-10.
    expect 0 "$eom" identify "$src/robots/ur5.urdf" "$log" --prior-weight 0 -o params.csv -q
    [ "$(check params.csv physical)" = "6 12" ] || fail "not every body and joint checked"
    read -r count worst <<< "$(check params.csv identified 1e-8)"
    [ "$count" = 30 ] || fail "$count parameters with a std, expected 30 ($worst)"
    ;;
  prior)
    # the default pull toward the file (--prior-weight 1e-3): every body physical, and the nine
    # parameters no torque depends on (the shoulder's but its Izz: it turns about gravity's axis)
    # within 1e-3 of the file's values, relative to the largest of their kind, where the truth is
    # 1.4 % of the heaviest mass and 3 % of the largest second moment away. They are not kept
    # exactly: the shoulder's Izz, which the torques tell (in a combination), moves the body's
    # log-Cholesky parameters that the mass and the other moments share (measured: 6e-5).
    expect 0 "$eom" identify "$src/robots/ur5.urdf" "$log" -o params.csv --base-parameters base.csv -q
    [ "$(check params.csv physical)" = "6 12" ] || fail "not every body and joint checked"
    [ "$(check params.csv prior base.csv 1e-3)" = 9 ] || fail "not the shoulder's nine"
    ;;
  *)
    fail "unknown case $case_name"
    ;;
esac
exit 0
