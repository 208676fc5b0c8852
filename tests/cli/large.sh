#!/usr/bin/env bash
# Scale: a 200-joint serial chain and a 100-body tree (scripts/make_large_robots.py wrote
# tests/data/large/) through every subcommand. Usage: large.sh EOM TABDIFF SOURCE_DIR ROBOT CASE,
# ROBOT chain200 or tree100 (ctest runs each pair).
set -uo pipefail
eom=$1
tabdiff=$2
src=$3
name=$4
case_name=$5
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 2
robot=$src/tests/data/large/$name.urdf
table=$src/tests/data/large/$name.csv
joints=$(head -1 "$table" | tr ',' '\n' | grep -c '^q\.')
last=b$joints  # the last body: the chain's tip, a leaf of the tree

fail() {
  echo "FAILED ($name $case_name): $*"
  exit 1
}
# ok CMD...: must exit 0 with nothing on stderr
ok() {
  "$@" > out.txt 2> err.txt || fail "exit $?: $* ($(head -c 2000 err.txt))"
  [ -s err.txt ] && fail "stderr: $(head -c 2000 err.txt)"
  return 0
}

case $case_name in
info)
  ok "$eom" info "$robot"
  grep -q "^nq: $joints  nv: $joints  moving joints: $joints" out.txt || fail "$(head -5 out.txt)"
  ;;
check)
  ok "$eom" check "$robot"
  grep -q ": ok ($joints moving joints, $((joints + 1)) links" out.txt || fail "$(tail -1 out.txt)"
  ;;
fk)
  ok "$eom" fk "$robot" "$table" --frames "$last" -o fk.csv
  [ "$(head -1 fk.csv)" = "t,$last.x,$last.y,$last.z,$last.qx,$last.qy,$last.qz,$last.qw" ] ||
    fail "header $(head -1 fk.csv)"
  [ "$(wc -l < fk.csv)" = 6 ] || fail "$(wc -l < fk.csv) lines"
  ;;
convert)
  # every double exactly through NDJSON and JSON
  ok "$eom" convert "$table" t.ndjson
  ok "$eom" convert t.ndjson t.json
  ok "$eom" convert t.json back.csv
  ok "$eom" convert "$table" direct.csv
  cmp -s back.csv direct.csv || fail "the CSV -> NDJSON -> JSON -> CSV round trip changed the table"
  ;;
id-fd)
  # fd undoes id: the accelerations come back (ABA against RNEA, O(n) both)
  ok "$eom" id "$robot" "$table" --keep-input -o tau.csv
  ok "$eom" fd "$robot" tau.csv -o fd.csv
  "$tabdiff" "$table" fd.csv 1e-8 1e-8 || fail "fd(id(a)) != a"
  ;;
sim)
  ok "$eom" sim "$robot" --duration 0.01 --dt 0.001 --energy -q -o sim.csv
  [ "$(wc -l < sim.csv)" = 12 ] || fail "$(wc -l < sim.csv) lines, expected a header and 11 rows"
  ;;
ik)
  # the poses of the last body along the table, solved back (exit 0: every row converged)
  ok "$eom" fk "$robot" "$table" --frames "$last" -o targets.csv
  ok "$eom" ik "$robot" targets.csv --frame "$last" -o ik.csv
  [ "$(wc -l < ik.csv)" = 6 ] || fail "$(wc -l < ik.csv) lines"
  ;;
deriv)
  # order 0 is inverse dynamics
  ok "$eom" id "$robot" "$table" -o tau.csv
  ok "$eom" deriv "$robot" "$table" --order 0 -o deriv.csv
  "$tabdiff" tau.csv deriv.csv 1e-8 1e-8 || fail "eom deriv --order 0 != eom id"
  ;;
jac)
  ok "$eom" jac "$robot" "$table" --frame "$last" -q -o jac.csv
  [ "$(wc -l < jac.csv)" = 6 ] || fail "$(wc -l < jac.csv) lines"
  ;;
*) fail "unknown case" ;;
esac
echo "ok: $name $case_name"
