#!/usr/bin/env bash
# Robot logs as they come (doc/logs.md): each log of tests/data/logs/ (scripts/make_real_logs.py)
# gives what the same motion written cleanly (ur5_clean.csv: t = k / 1000 s, q only) gives.
# The stamps of every log are exact, so the seconds since the first row are the same doubles as
# the clean log's t, and the torques agree to the last bit (tabdiff with 1e-12 allows round-off).
# Usage: logs.sh EOM TABDIFF SOURCE_DIR CASE (ctest runs each case).
set -uo pipefail
eom=$1
tabdiff=$2
src=$3
case_name=$4
. "$(dirname "$0")/lib.sh"
robot=$src/robots/ur5.urdf
logs=$src/tests/data/logs

# clean.csv: eom id of the clean log, the reference
reference() {
  expect 0 "$eom" id "$robot" "$logs/ur5_clean.csv" -q -o clean.csv
}
# same_as_clean FILE: FILE's torques (and t) are the clean log's
same_as_clean() {
  "$tabdiff" clean.csv "$1" 1e-12 1e-12 || fail "$1 differs from the clean log's torques"
}
# column FILE NAME: the values of a column of a CSV file, one per line, as written
column() {
  python3 -c 'import csv, sys
rows = csv.DictReader(open(sys.argv[1], newline=""))
print("\n".join(r[sys.argv[2]] for r in rows))' "$1" "$2"
}
# t_is FILE LINES EXPECTED: the t of those rows of FILE (sed line addresses), as written
t_is() {
  local got
  got=$(column "$1" t | sed -n "$2" | tr '\n' ' ')
  [ "$got" = "$3" ] || fail "$1: t is $got"
}
# without_t FILE: FILE without its first column (t), into FILE.rest
without_t() {
  cut -d, -f2- "$1" > "$1.rest"
}

case $case_name in
duplicates)
  # loggers repeat rows: refused by default, naming the option; dropped with it, the rest as
  # the clean log gives (lines 10 and 50 of the clean log written twice)
  reference
  awk 'NR == 10 || NR == 50 { print } { print }' "$logs/ur5_clean.csv" > repeats.csv
  expect 2 "$eom" id "$robot" repeats.csv -o tau.csv
  stderr_has "^eom id: error: repeats.csv:11: t is not strictly increasing (t = 0.008 after 0.008): cannot derive .*; the row repeats the stamp of the row before (--duplicates drop skips such rows)$"
  expect 0 "$eom" id "$robot" repeats.csv --duplicates drop -o dropped.csv
  stderr_has "^eom id: warning: repeats.csv:11: 2 rows repeating the stamp of the row before dropped (--duplicates drop), the first here$"
  same_as_clean dropped.csv
  ;;
nanoseconds-as-seconds)
  # a time column in nanoseconds read as seconds: steps of 1e6 "s", derivatives all but 0
  expect 0 "$eom" id "$robot" "$logs/ur5_epoch_ns.csv" --time-column field.header.stamp -o tau.csv
  stderr_has "ur5_epoch_ns.csv: the usual step in t is 1e+06 s, implausible for a robot log: the derivatives taken from it all but vanish; in nanoseconds? --time-scale 1e-9 makes it 0.001 s$"
  # in seconds, no word
  expect 0 "$eom" id "$robot" "$logs/ur5_epoch_ns.csv" --time-column field.header.stamp \
    --time-scale 1e-9 -o tau.csv
  ! grep -q implausible err.txt || fail "warned on a plausible step: $(cat err.txt)"
  ;;
unresolvable-steps)
  # stamps that increase by less than the seconds since the first row resolve: 1e-19 s steps,
  # 1 ms steps at 1e22 ns; said as such, not as "not increasing"
  awk -F, -v OFS=, 'NR == 1 { print; next } { $1 = (NR - 2) "e-19"; print }' \
    "$logs/ur5_clean.csv" > fine.csv
  expect 2 "$eom" id "$robot" fine.csv -o tau.csv
  stderr_has "^eom id: error: fine.csv:3: t increases by less than a double resolves in the seconds since the first row (t = 1e-19 after 0): cannot derive .* over such a step$"
  awk -F, -v OFS=, 'NR == 1 { print; next } { $1 = "1000000000000000" sprintf("%07d", (NR - 2) * 1000000); print }' \
    "$logs/ur5_clean.csv" > far.csv
  expect 2 "$eom" id "$robot" far.csv --time-scale 1e-9 -o tau.csv
  stderr_has "^eom id: error: far.csv:3: t increases by less than a double resolves"
  ;;
epoch-ns)
  # rostopic echo -p: field.header.stamp in ns since the epoch (1.7e18: beyond a double)
  reference
  expect 0 "$eom" id "$robot" "$logs/ur5_epoch_ns.csv" --time-column field.header.stamp \
    --time-scale 1e-9 --time-origin first -o epoch.csv
  same_as_clean epoch.csv
  ;;
epoch-ns-exact-t)
  # by default t is the stamp in seconds, every digit written; the torques are still exact
  reference
  expect 0 "$eom" id "$robot" "$logs/ur5_epoch_ns.csv" --time-column field.header.stamp \
    --time-scale 1e-9 -q -o epoch.csv
  t_is epoch.csv 1,3p "1700000000.123456789 1700000000.124456789 1700000000.125456789 "
  without_t epoch.csv
  without_t clean.csv
  "$tabdiff" clean.csv.rest epoch.csv.rest 1e-12 1e-12 || fail "torques differ"
  ;;
keep-digit-for-digit)
  # --keep passes columns as the input wrote them: the stamp, text with quotes and commas
  expect 0 "$eom" id "$robot" "$logs/ur5_epoch_ns.csv" --time-column field.header.stamp \
    --time-scale 1e-9 -q --keep field.header.stamp,%time:received,field.header.frame_id,note \
    -o kept.csv
  for name in field.header.stamp field.header.frame_id note; do
    [ "$(column kept.csv $name)" = "$(column "$logs/ur5_epoch_ns.csv" $name)" ] ||
      fail "column $name was not passed through as written"
  done
  [ "$(column kept.csv received)" = "$(column "$logs/ur5_epoch_ns.csv" %time)" ] ||
    fail "%time renamed received"
  # in the input's order, t where the time column is
  head -1 kept.csv | grep -q '^received,t,field.header.stamp,field.header.frame_id,note,tau\.' ||
    fail "header: $(head -1 kept.csv)"
  grep -q '^1700000000123706789,1700000000.123456789,1700000000123456789,base_link,"phase 0, ""start""",' kept.csv ||
    fail "first row: $(sed -n 2p kept.csv)"
  # --keep-input: every column, the time column under its own name beside t
  expect 0 "$eom" id "$robot" "$logs/ur5_epoch_ns.csv" --time-column field.header.stamp \
    --time-scale 1e-9 -q --keep-input --format ndjson -o all.ndjson
  head -1 all.ndjson | grep -q '^{"%time":1700000000123706789,"field.header.seq":0,"t":1700000000.123456789,"field.header.stamp":1700000000123456789,"field.header.frame_id":"base_link",' ||
    fail "keep-input: $(head -1 all.ndjson)"
  ;;
zero-ns)
  reference
  expect 0 "$eom" id "$robot" "$logs/ur5_zero_ns.csv" --time-column field.header.stamp \
    --time-scale 1e-9 -q -o zero.csv
  same_as_clean zero.csv
  ;;
epoch-seconds)
  # t in seconds since the epoch with microsecond digits (more than a double holds)
  reference
  expect 0 "$eom" id "$robot" "$logs/ur5_epoch_s.csv" --time-origin first -q -o first.csv
  same_as_clean first.csv
  expect 0 "$eom" id "$robot" "$logs/ur5_epoch_s.csv" -q -o epoch.csv
  [ "$(column epoch.csv t | sed -n 2p)" = "1700000000.124456" ] || fail "t: $(sed -n 3p epoch.csv)"
  ;;
ros2-ndjson)
  # nested objects flattened: header.stamp.sec and .nanosec are one time column
  reference
  expect 0 "$eom" id "$robot" "$logs/ur5_ros2.ndjson" --time-column header.stamp \
    --time-origin first -q -o ros2.csv
  same_as_clean ros2.csv
  expect 0 "$eom" id "$robot" "$logs/ur5_ros2.ndjson" --time-column header.stamp -q -o ros2.csv \
    --keep header.frame_id,ok
  sed -n 2p ros2.csv | grep -q '^1700000000.123456789,base_link,true,' || fail "$(sed -n 2p ros2.csv)"
  ;;
ros2-csv)
  reference
  expect 0 "$eom" id "$robot" "$logs/ur5_ros2.csv" --time-column header.stamp --time-origin first \
    -q -o ros2.csv
  same_as_clean ros2.csv
  ;;
ros2-convert)
  # the nested NDJSON converts to its flat columns, and those back to the same table
  expect 0 "$eom" convert "$logs/ur5_ros2.ndjson" flat.csv
  cmp -s flat.csv "$logs/ur5_ros2.csv" || fail "$(diff flat.csv "$logs/ur5_ros2.csv" | head -5)"
  expect 0 "$eom" convert flat.csv flat.ndjson
  expect 0 "$eom" convert flat.ndjson again.csv
  cmp -s again.csv "$logs/ur5_ros2.csv" || fail "$(diff again.csv "$logs/ur5_ros2.csv" | head -5)"
  ;;
text-convert)
  # text columns stay text, RFC 4180 quoting both ways, stamps digit for digit
  expect 0 "$eom" convert "$logs/ur5_epoch_ns.csv" log.json
  grep -q '"field.header.stamp":1700000000123456789,"field.header.frame_id":"base_link"' log.json ||
    fail "$(head -2 log.json)"
  grep -q '"note":"phase 0, \\"start\\""' log.json || fail "$(head -2 log.json)"
  expect 0 "$eom" convert log.json log.csv
  cmp -s log.csv "$logs/ur5_epoch_ns.csv" || fail "$(diff log.csv "$logs/ur5_epoch_ns.csv" | head -5)"
  ;;
semicolon)
  # a spreadsheet's export: BOM, semicolons, CRLF; said on stderr
  reference
  expect 0 "$eom" id "$robot" "$logs/ur5_semicolon.csv" -o semicolon.csv
  stderr_has "ur5_semicolon.csv: fields separated by semicolons (detected from the header row"
  same_as_clean semicolon.csv
  expect 0 "$eom" convert "$logs/ur5_semicolon.csv" converted.csv
  sed -n 2p converted.csv | grep -q '^0,0.4,.*,"run 1, take 0"$' || fail "$(sed -n 2p converted.csv)"
  ;;
separator-option)
  reference
  expect 0 "$eom" id "$robot" "$logs/ur5_semicolon.csv" --separator semicolon -o semicolon.csv
  ! grep -q "separated by" err.txt || fail "a separator given is not reported: $(cat err.txt)"
  same_as_clean semicolon.csv
  # the wrong separator: one column named by the whole header
  expect 2 "$eom" id "$robot" "$logs/ur5_semicolon.csv" --separator comma -o /dev/null
  stderr_has "missing column"
  # a decimal comma is named as such
  printf 't;q.joint1;q.joint2\n0;0,5;1\n' > comma.csv
  expect 2 "$eom" id "$src/robots/planar_2r.urdf" comma.csv --static -o /dev/null
  stderr_has "comma.csv:2:3: column q.joint1: '0,5' is not a number (a decimal comma? eom reads numbers with a decimal point)"
  ;;
tab)
  tr ',' '\t' < "$logs/ur5_clean.csv" > tabs.tsv
  reference
  expect 0 "$eom" id "$robot" tabs.tsv -o tabs.csv
  stderr_has "tabs.tsv: fields separated by tabs"
  same_as_clean tabs.csv
  ;;
did-you-mean)
  sed '1s/q.elbow_joint/q.elbow/' "$logs/ur5_clean.csv" > elbow.csv
  expect 2 "$eom" id "$robot" elbow.csv -o /dev/null
  stderr_has "elbow.csv:1: column q.elbow: the model has no joint coordinate 'elbow' (did you mean 'elbow_joint'?)"
  expect 2 "$eom" id "$robot" "$logs/ur5_ros2.csv" --time-column header.stam -o /dev/null
  stderr_has "no column header.stam (nor header.stam.sec and header.stam.nanosec) (did you mean 'header.stamp.sec'"
  ;;
bad-nanosec)
  sed '3s/^1700000000,124456789,/1700000000,1e9,/' "$logs/ur5_ros2.csv" > bad.csv
  expect 2 "$eom" id "$robot" bad.csv --time-column header.stamp -o /dev/null
  stderr_has "bad.csv:3: column header.stamp.nanosec: '1e9' is not nanoseconds (an integer from 0 to 999999999)"
  ;;
short-segment-error-alone)
  # a stretch after a dropped message too short to derive: the error alone, naming its lines,
  # with no word before it about v and a derived from q (work that was then not done)
  head -n 405 "$src/tests/data/derivation/planar_2r_1khz_gap.csv" > short.csv
  expect 2 "$eom" id "$src/robots/planar_2r.urdf" short.csv -o tau.csv
  [ "$(wc -l < err.txt)" = 1 ] || fail "more than the error on stderr: $(cat err.txt)"
  stderr_has "short.csv:403: deriving v needs at least 5 rows (a fit of degree 4), the segment of lines 403-405 between gaps in t has 3"
  [ ! -e tau.csv ] || fail "tau.csv written"
  ;;
sim-text-columns)
  # unused text columns of --initial and --torques are ignored
  printf 't,label,q.joint1,q.joint2\n0,"start, at rest",0.1,0.2\n' > init.csv
  printf 't,tau.joint1,tau.joint2,note\n0,0,0,"none"\n1,0,0,\n' > tau.csv
  expect 0 "$eom" sim "$src/robots/planar_2r.urdf" --initial init.csv --torques tau.csv \
    --duration 0.01 -q -o sim.csv
  ;;
sim-epoch-ns-tables)
  # sim's own tables with the log's stamps: --initial and --torques in ns since the epoch (1.7e18,
  # beyond a double) run on one exact clock, so the states are the clean log's to the last bit and
  # t is the stamp in seconds, every digit kept
  expect 0 "$eom" id "$robot" "$logs/ur5_clean.csv" -q -o clean_tau.csv
  expect 0 "$eom" sim "$robot" --initial "$logs/ur5_clean.csv" --torques clean_tau.csv \
    --duration 0.05 -q -o clean_sim.csv
  expect 0 "$eom" id "$robot" "$logs/ur5_epoch_ns.csv" --time-column field.header.stamp \
    --time-scale 1e-9 --keep field.header.stamp -q -o ns_tau.csv
  expect 0 "$eom" sim "$robot" --initial "$logs/ur5_epoch_ns.csv" --torques ns_tau.csv \
    --time-column field.header.stamp --time-scale 1e-9 --duration 0.05 -q -o ns_sim.csv
  t_is ns_sim.csv '1p;2p;51p' "1700000000.123456789 1700000000.124456789 1700000000.173456789 "
  without_t clean_sim.csv
  without_t ns_sim.csv
  cmp -s clean_sim.csv.rest ns_sim.csv.rest || fail "the states differ from the clean log's"
  # seconds since the start: the clean run's file, t included
  expect 0 "$eom" sim "$robot" --initial "$logs/ur5_epoch_ns.csv" --torques ns_tau.csv \
    --time-column field.header.stamp --time-scale 1e-9 --time-origin first --duration 0.05 -q \
    -o first.csv
  cmp -s clean_sim.csv first.csv || fail "--time-origin first differs from the clean run"
  ;;
sim-ros2-stamp-tables)
  # ROS 2 split stamps (header.stamp.sec, header.stamp.nanosec) in --initial and --reference
  expect 0 "$eom" sim "$robot" --initial "$logs/ur5_clean.csv" --controller pd-gravity \
    --reference "$logs/ur5_clean.csv" --duration 0.05 -q -o clean_sim.csv
  expect 0 "$eom" sim "$robot" --initial "$logs/ur5_ros2.csv" --controller pd-gravity \
    --reference "$logs/ur5_ros2.csv" --time-column header.stamp --time-origin first \
    --duration 0.05 -q -o ros2_sim.csv
  cmp -s clean_sim.csv ros2_sim.csv || fail "the ROS 2 stamped run differs from the clean one"
  expect 2 "$eom" sim "$robot" --initial "$logs/ur5_ros2.csv" --controller pd-gravity \
    --reference "$logs/ur5_ros2.csv" --time-column header.stmp --duration 0.05 -o x.csv
  stderr_has "ur5_ros2.csv:1: --time-column: no column header.stmp (nor header.stmp.sec and header.stmp.nanosec)"
  ;;
*)
  fail "unknown case $case_name"
  ;;
esac
exit 0
