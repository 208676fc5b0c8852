#!/usr/bin/env bash
# File-handling contract of every subcommand that writes files: no output replaces an input,
# batch outputs never collide, symlinks/devices/permissions are respected, failed or interrupted
# runs leave nothing behind. Usage: files.sh EOM SOURCE_DIR CASE (ctest runs each case).
set -uo pipefail
eom=$1
src=$2
case_name=$3
. "$(dirname "$0")/lib.sh"
robot=$src/robots/planar_2r.urdf
table=$src/trajectories/planar_2r_small.csv

no_temporaries() {
  local left
  left=$(find "$work" -name '*.eom-*' -o -name '*.tmp*' | head -1)
  [ -z "$left" ] || fail "temporary left behind: $left"
}

case $case_name in
batch-output-dir-over-inputs)
  cp "$table" a.csv && cp "$table" b.csv
  expect 2 "$eom" id "$robot" a.csv b.csv --output-dir .
  grep -q "is the input a.csv" err.txt || fail "message: $(cat err.txt)"
  cmp -s a.csv "$table" && cmp -s b.csv "$table" || fail "an input was replaced"
  ;;
output-names-input)
  cp "$table" a.csv && ln -s a.csv link.csv
  for out in a.csv ./a.csv link.csv "$work/a.csv"; do
    expect 2 "$eom" id "$robot" a.csv -o "$out"
    grep -q "refusing to replace an input" err.txt || fail "message for $out: $(cat err.txt)"
  done
  expect 2 "$eom" fk "$robot" a.csv -o a.csv
  expect 2 "$eom" convert a.csv ./a.csv
  expect 2 "$eom" id "$robot" a.csv -o "$robot"
  cmp -s a.csv "$table" || fail "the input was replaced"
  [ -L link.csv ] || fail "the link was replaced"
  ;;
batch-same-base-name)
  mkdir a b && cp "$table" a/run.csv && cp "$table" b/run.csv
  expect 2 "$eom" id "$robot" a/run.csv b/run.csv --output-dir out
  grep -q "a/run.csv and b/run.csv would both be written to out/run.csv" err.txt ||
    fail "message: $(cat err.txt)"
  [ -z "$(ls -A out 2> /dev/null)" ] || fail "batch wrote files"
  ;;
symlink-output-written-through)
  echo old > real.csv && ln -s real.csv link.csv
  expect 0 "$eom" id "$robot" "$table" -o link.csv
  [ -L link.csv ] || fail "the symlink was replaced by a file"
  head -1 real.csv | grep -q '^t,tau.joint1' || fail "the target was not written"
  no_temporaries
  ;;
permissions-kept)
  echo old > out.csv && chmod 600 out.csv
  expect 0 "$eom" id "$robot" "$table" -o out.csv
  [ "$(stat -c %a out.csv)" = 600 ] || fail "mode $(stat -c %a out.csv), expected 600"
  ;;
devices-written-directly)
  expect 0 "$eom" id "$robot" "$table" -o /dev/null
  "$eom" id "$robot" "$table" -o /dev/stdout > direct.csv 2> err.txt || fail "/dev/stdout: $(cat err.txt)"
  "$eom" id "$robot" "$table" > piped.csv
  cmp -s direct.csv piped.csv || fail "-o /dev/stdout differs from stdout"
  [ -L /dev/stdout ] || fail "/dev/stdout was replaced"
  mkfifo fifo
  "$eom" id "$robot" "$table" -o fifo 2> err.txt &
  cat fifo > from_fifo.csv
  wait $! || fail "fifo: $(cat err.txt)"
  cmp -s from_fifo.csv piped.csv || fail "fifo output differs"
  [ -p fifo ] || fail "the fifo was replaced"
  ;;
unknown-extension-is-csv)
  expect 0 "$eom" id "$robot" "$table" -o out.txt
  head -1 out.txt | grep -q '^t,tau.joint1' || fail "out.txt is not CSV"
  expect 0 "$eom" convert "$table" copy.dat
  "$eom" convert "$table" - > direct.csv
  "$eom" convert copy.dat - > back.csv && cmp -s back.csv direct.csv || fail "convert .dat"
  ;;
interrupted-run-leaves-nothing)
  for signal in INT TERM; do
    rm -f out.csv
    { head -5 "$table"; sleep 3; tail -n +6 "$table"; } | "$eom" id "$robot" - -o out.csv --jobs 1 &
    pid=$(jobs -p | tail -1)
    sleep 1
    # the eom process is the last of the pipeline
    kill -s "$signal" "$(pgrep -n -f "id $robot - -o out.csv")"
    wait "$pid"
    rc=$?
    expected=$([ $signal = INT ] && echo 130 || echo 143)
    [ "$rc" = "$expected" ] || fail "SIG$signal: exit $rc, expected $expected"
    [ ! -e out.csv ] || fail "SIG$signal: out.csv was written"
    no_temporaries
  done
  ;;
fail-on-limit-writes-nothing)
  expect 1 "$eom" id "$robot" "$src/tests/data/id/planar_2r_over_limit.csv" --fail-on-limit -o out.csv
  [ ! -e out.csv ] || fail "out.csv was written"
  grep -q "eom id: error: .*tau.joint1 exceeds its effort limit" err.txt || fail "$(cat err.txt)"
  grep -q "out.csv not written" err.txt || fail "$(cat err.txt)"
  no_temporaries
  ;;
directories-among-arguments)
  mkdir meshes
  expect 2 "$eom" check meshes "$robot"
  grep -q "meshes: error: is a directory, not a URDF file" out.txt || fail "$(cat out.txt)"
  grep -q "planar_2r.urdf: ok" out.txt || fail "the other file was not checked: $(cat out.txt)"
  expect 2 "$eom" id "$robot" meshes
  grep -q "meshes: is a directory, not a table" err.txt || fail "$(cat err.txt)"
  expect 2 "$eom" id meshes "$table"
  echo x > plain
  cp "$table" a.csv
  expect 2 "$eom" id "$robot" "$table" a.csv --output-dir plain
  grep -q "output-dir plain: exists and is not a directory" err.txt || fail "$(cat err.txt)"
  ! grep -q "internal error" err.txt || fail "internal error"
  ;;
batch-one-bad-file)
  printf 't,q.joint1,q.joint2\n0,abc,1\n' > bad.csv
  cp "$table" good.csv
  expect 2 "$eom" id "$robot" bad.csv good.csv --output-dir out
  [ -s out/good.csv ] || fail "the good file was not written"
  [ ! -e out/bad.csv ] || fail "the bad file left an output"
  no_temporaries
  ;;
*)
  fail "unknown case $case_name"
  ;;
esac
echo "ok: $case_name"
