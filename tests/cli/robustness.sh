#!/usr/bin/env bash
# Inputs that once crashed, hung or grew without bound: no recursion whose depth the input
# decides, mimic cycles and chains, simulation times a double cannot resolve, memory of a long
# simulation, rows longer than the cap, messages quoting megabytes, numbers beyond a double. Usage: robustness.sh EOM SOURCE_DIR CASE (ctest runs each case).
set -uo pipefail
eom=$1
src=$2
case_name=$3
. "$(dirname "$0")/lib.sh"

# Whether eom is built with AddressSanitizer: its shadow memory, redzones and quarantine of freed
# blocks inflate resident memory, so peaks are asserted only without it (the Release pass)
sanitized() {
  # the whole listing read (no grep -q): an early exit would end ldd by SIGPIPE, which pipefail
  # turns into "not sanitized"
  case $(ldd "$eom" 2> /dev/null) in
  *libasan*) return 0 ;;
  *) return 1 ;;
  esac
}

# chain.urdf: a serial chain of N unit links, revolute and fixed joints alternating
chain() {
  awk -v n="$1" 'BEGIN {
    print "<robot name=\"chain\">"
    for (i = 0; i <= n; ++i)
      printf "<link name=\"l%d\"><inertial><mass value=\"1\"/><inertia ixx=\"0.01\" iyy=\"0.01\" izz=\"0.01\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial></link>\n", i
    for (i = 0; i < n; ++i) {
      type = i % 2 ? "fixed" : "revolute"
      limit = i % 2 ? "" : "<limit lower=\"-1\" upper=\"1\" effort=\"1\" velocity=\"1\"/>"
      printf "<joint name=\"j%d\" type=\"%s\"><parent link=\"l%d\"/><child link=\"l%d\"/><origin xyz=\"0 0 0.1\"/><axis xyz=\"1 0 0\"/>%s</joint>\n", i, type, i, i + 1, limit
    }
    print "</robot>" }' > chain.urdf
}

# mimic.urdf: a palm with three prismatic fingers; finger a mimics MIMIC_A, b mimics MIMIC_B
# ("" for none), c is free
fingers() {
  {
    echo '<robot name="fingers"><link name="palm"><inertial><mass value="1"/><inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial></link>'
    for f in a b c; do
      echo "<link name=\"$f\"><inertial><mass value=\"1\"/><inertia ixx=\"0.1\" iyy=\"0.1\" izz=\"0.1\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial></link>"
    done
    for f in a b c; do
      mimic=
      [ "$f" = a ] && [ -n "$1" ] && mimic="<mimic joint=\"$1\" multiplier=\"2\" offset=\"0.5\"/>"
      [ "$f" = b ] && [ -n "$2" ] && mimic="<mimic joint=\"$2\" multiplier=\"3\" offset=\"0\"/>"
      echo "<joint name=\"$f\" type=\"prismatic\"><parent link=\"palm\"/><child link=\"$f\"/><axis xyz=\"0 1 0\"/><limit lower=\"-10\" upper=\"10\" effort=\"1\" velocity=\"1\"/>$mimic</joint>"
    done
    echo '</robot>'
  } > mimic.urdf
}

case $case_name in
deep-chain)
  # 8,000 links: loading, checking and computing walk the tree without recursion
  chain 8000
  expect 0 "$eom" info chain.urdf
  grep -q "nq: 4000  nv: 4000" out.txt || fail "info: $(head -3 out.txt)"
  expect 0 "$eom" check chain.urdf
  grep -q "ok" out.txt || fail "check: $(cat out.txt)"
  # the tip of a straight chain 0.1 m per joint above the root, all joints at 0
  awk 'BEGIN { for (i = 0; i < 8000; i += 2) printf "%sq.j%d", i ? "," : "", i; print "";
               for (i = 0; i < 8000; i += 2) printf "%s0", i ? "," : ""; print "" }' > zero.csv
  expect 0 "$eom" fk chain.urdf zero.csv --frames l8000 -o tip.csv
  tail -1 tip.csv | awk -F, '{ exit !($1 == 0 && $2 == 0 && ($3 - 800) ^ 2 < 1e-18) }' ||
    fail "tip at $(tail -1 tip.csv)"
  ;;
mimic-cycle)
  # a follows b follows a: no joint has a value of its own; refused when loaded, naming both
  fingers b a
  expect 1 "$eom" check mimic.urdf
  grep -q "error: mimic cycle: joints 'a' and 'b'" out.txt || fail "check: $(cat out.txt)"
  printf 'q.c\n0.25\n' > c.csv
  expect 2 "$eom" fk mimic.urdf c.csv --frames a
  stderr_has "mimic.urdf:[0-9]*: mimic cycle: joints 'a' and 'b'"
  [ ! -s out.txt ] || fail "fk wrote $(cat out.txt)"
  ;;
mimic-chain-out-of-order)
  # a = 2 b + 0.5 and b = 3 c, a written before its leader b: c = 0.25 gives b = 0.75, a = 2
  fingers b c
  printf 'q.c\n0.25\n' > c.csv
  expect 0 "$eom" fk mimic.urdf c.csv --frames a,b -q
  header=$(head -1 out.txt)
  row=$(tail -1 out.txt)
  ay=$(echo "$header" | tr ',' '\n' | grep -nx 'a.y' | cut -d: -f1)
  by=$(echo "$header" | tr ',' '\n' | grep -nx 'b.y' | cut -d: -f1)
  [ "$(echo "$row" | cut -d, -f"$ay")" = 2 ] || fail "a.y: $row ($header)"
  [ "$(echo "$row" | cut -d, -f"$by")" = 0.75 ] || fail "b.y: $row ($header)"
  ;;
extreme-axis)
  # axes whose norm a double cannot hold (1e308 1e308 0 overflows, 1e-200 0 1e-200 underflows)
  # still name a direction: a quarter turn about (1, 1, 0) / sqrt 2 is the unit quaternion
  # (0.5, 0.5, 0, sqrt 1/2), about (1, 0, 1) / sqrt 2 it is (0.5, 0, 0.5, sqrt 1/2)
  for axis in "1e308 1e308 0" "1e-200 0 1e-200"; do
    cat > axis.urdf <<EOF
<robot name="axis"><link name="base"/><link name="arm"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>
<joint name="turn" type="continuous"><parent link="base"/><child link="arm"/><axis xyz="$axis"/></joint></robot>
EOF
    printf 'q.turn\n1.5707963267948966\n' > quarter.csv
    expect 0 "$eom" fk axis.urdf quarter.csv --frames arm -q
    expected="0.5,0.5,0,0.7071067811865476"
    [ "$axis" = "1e308 1e308 0" ] || expected="0.5,0,0.5,0.7071067811865476"
    tail -1 out.txt | awk -F, -v want="$expected" '{ split(want, w, ","); bad = 0
      for (k = 1; k <= 4; ++k) { d = $(k + 3) - w[k]; if (d * d > 1e-28) bad = 1 } exit bad }' ||
      fail "axis $axis: $(cat out.txt)"
  done
  ;;
sim-time-resolution)
  # near t = 1e12 s a double resolves 1.2e-4 s: a run whose clock would reach there cannot
  # advance its time by 1 ms steps exactly and is refused, at once, instead of integrating on
  # times that round (or never advance)
  robot=$src/robots/planar_2r.urdf
  expect 2 timeout 20 "$eom" sim "$robot" --duration 1e12 --dt 1e-3 -o x.csv
  stderr_has "too fine for times near 1e+12 s"
  [ ! -e x.csv ] || fail "output written by a refused run"
  # a start at 1e12 s is fine: the clock counts from the start, t is written exactly
  printf 't,q.joint1,q.joint2\n1e12,0,0\n' > late.csv
  expect 0 timeout 20 "$eom" sim "$robot" --initial late.csv --duration 0.002 --dt 1e-3 -o y.csv
  [ "$(cut -d, -f1 y.csv | tr '\n' ' ')" = "t 1000000000000 1000000000000.001 1000000000000.002 " ] ||
    fail "t: $(cut -d, -f1 y.csv | tr '\n' ' ')"
  ;;
sim-memory-independent-of-duration)
  # a simulation of 1e5 s at 1 ms: 1e8 steps, whose output times were once held as a table
  # (800 MB before the first step); the first second of the run stays small
  robot=$src/robots/planar_2r.urdf
  "$eom" sim "$robot" --duration 1e5 --dt 1e-3 -q -o /dev/null 2> err.txt &
  pid=$!
  sleep 1.5
  peak=$(awk '/VmHWM/ { print $2 }' "/proc/$pid/status" 2> /dev/null)
  kill "$pid" 2> /dev/null
  wait "$pid" 2> /dev/null
  [ -n "$peak" ] || fail "sim ended within 1.5 s: $(cat err.txt)"
  [ "$peak" -lt 300000 ] || fail "peak resident memory ${peak} kB after 1.5 s"
  ;;
sim-table-columns-used)
  # --torques (like --reference and --wrenches) holds only the columns it reads: a log of 500
  # other columns over 10,000 rows held 40 MB of doubles; now t and the two torques are held
  command -v /usr/bin/time > /dev/null || { echo "skipped: no /usr/bin/time"; exit 0; }
  robot=$src/robots/planar_2r.urdf
  awk 'BEGIN { printf "t,tau.joint1,tau.joint2"; for (c = 0; c < 500; c++) printf ",extra%d", c
    printf "\n"; for (r = 0; r < 10000; r++) { printf "%g,1,0", r * 0.001
    for (c = 0; c < 500; c++) printf ",%d", c; printf "\n" } }' > wide.csv
  expect 0 /usr/bin/time -f "peak %M kB" "$eom" sim "$robot" --torques wide.csv --duration 0.01 \
    -o wide_out.csv
  peak=$(sed -n 's/^peak \([0-9]*\) kB$/\1/p' err.txt)
  [ -n "$peak" ] || fail "no peak measured: $(cat err.txt)"
  sanitized || [ "$peak" -lt 25000 ] || fail "peak resident memory ${peak} kB"
  # the same torques from a table of only the columns read: the same rows
  cut -d, -f1-3 wide.csv > narrow.csv
  expect 0 "$eom" sim "$robot" --torques narrow.csv --duration 0.01 -o narrow_out.csv
  cmp -s wide_out.csv narrow_out.csv || fail "the extra columns changed the result"
  ;;
sim-tables-streamed)
  # --reference, --torques and --wrenches are read as the run reaches them: a million-row table
  # held 305 MB; now a few rows are held, so a run over 300,000 rows of the UR5 (56 and 152
  # bytes a row held before) peaks within a few MB of one over 1,000 rows
  command -v /usr/bin/time > /dev/null || { echo "skipped: no /usr/bin/time"; exit 0; }
  robot=$src/robots/ur5.urdf
  joints="shoulder_pan_joint shoulder_lift_joint elbow_joint wrist_1_joint wrist_2_joint wrist_3_joint"
  # ROWS PREFIX: t at 1 ms and a slow sine per joint
  table() {
    awk -v n="$1" -v p="$2" -v j="$joints" 'BEGIN { k = split(j, name, " "); printf "t"
      for (c = 1; c <= k; c++) printf ",%s.%s", p, name[c]; printf "\n"
      for (r = 0; r < n; r++) { printf "%.3f", r / 1000
        for (c = 1; c <= k; c++) printf ",%.6f", 0.3 * sin(r / 1000 + c); printf "\n" } }'
  }
  # RUN NAME ROWS OPTIONS...: the peak resident memory (kB) of sim over the table's duration
  peak_of() {
    local name=$1 rows=$2
    shift 2
    expect 0 /usr/bin/time -f "peak %M kB" "$eom" sim "$robot" --duration $(( rows / 1000 )) \
      --output-dt 1 "$@" -o "$name.csv"
    sed -n 's/^peak \([0-9]*\) kB$/\1/p' err.txt
  }
  for rows in 1000 300000; do
    table $rows q > q$rows.csv
    table $rows tau > tau$rows.csv
  done
  short=$(peak_of ref_short 1000 --controller pd --reference q1000.csv)
  long=$(peak_of ref_long 300000 --controller pd --reference q300000.csv)
  echo "reference: peak $short kB over 1,000 rows, $long kB over 300,000"
  grep -q "three-point differences" err.txt || fail "v and a not derived: $(cat err.txt)"
  sanitized || [ "$long" -lt $(( short + 8000 )) ] || fail "reference: $long kB against $short"
  short=$(peak_of tau_short 1000 --torques tau1000.csv)
  long=$(peak_of tau_long 300000 --torques tau300000.csv)
  echo "torques: peak $short kB over 1,000 rows, $long kB over 300,000"
  sanitized || [ "$long" -lt $(( short + 8000 )) ] || fail "torques: $long kB against $short"
  # the rows of the run reach the table's last rows: the whole table was followed
  [ "$(tail -1 tau_long.csv | cut -d, -f1)" = 300 ] || fail "last row $(tail -1 tau_long.csv)"
  # a bad row far down is still refused, naming it, and nothing is written
  sed '250001s/^\([^,]*\),[^,]*/\1,oops/' tau300000.csv > bad.csv
  expect 2 "$eom" sim "$robot" --duration 300 --output-dt 1 --torques bad.csv -o bad_out.csv
  stderr_has "^eom sim: error: bad.csv:250001:9: column tau.shoulder_pan_joint: .oops. is not a number"
  [ ! -e bad_out.csv ] || fail "output written by a failed run"
  ;;
jac-sample-bound)
  # --sample keeps two doubles a sample for its exact quantiles: 2^31 - 1 were accepted (34 GB);
  # the documented most is 10,000,000
  robot=$src/robots/ur5.urdf
  expect 2 "$eom" jac "$robot" --frame tool0 --sample 2147483647 -o x.csv
  stderr_has "^eom jac: error: --sample 2147483647 is more than the 10000000 configurations it draws at the most"
  expect 2 "$eom" jac "$robot" --frame tool0 --sample 10000001 -o x.csv
  [ ! -e x.csv ] || fail "output written"
  expect 0 "$eom" jac "$robot" --frame tool0 --sample 1000 -o x.csv
  ;;
option-values)
  # NaN, infinities and overflowing numbers are refused when the command line is parsed, and
  # usage errors read like every other error: "eom <command>: error: ...", naming the option
  robot=$src/robots/planar_2r.urdf
  expect 2 "$eom" sim "$robot" --duration 1 --dt nan -o x.csv
  stderr_has "^eom sim: error: --dt: not a finite number: nan"
  expect 2 "$eom" sim "$robot" --duration 1 --controller pd --kp 1,inf -o x.csv
  stderr_has "^eom sim: error: --kp: not a finite number: inf"
  expect 2 "$eom" sim "$robot" --duration 1e400 -o x.csv
  stderr_has "^eom sim: error: --duration: not a finite number: 1e400"
  expect 2 "$eom" ik "$robot" tests.csv --frame link2 --position-tolerance -1
  stderr_has "^eom ik: error: --position-tolerance: -1 must be positive"
  expect 2 "$eom" ik "$robot" tests.csv --frame link2 --timeout -1
  stderr_has "^eom ik: error: --timeout: -1 must not be negative$"
  expect 2 "$eom" id "$robot" "$src/trajectories/planar_2r_swing.csv" --bogus
  stderr_has "^eom id: error: .*--bogus"
  stderr_has "Run 'eom id --help' for the options."
  [ ! -e x.csv ] || fail "output written by a refused command line"
  ;;
friction-file-not-json)
  # a friction file that is a directory, or holds a number beyond a double: errors naming the
  # file, never "internal error"
  robot=$src/robots/planar_2r.urdf
  table=$src/trajectories/planar_2r_swing.csv
  mkdir friction.d
  expect 2 "$eom" id "$robot" "$table" --friction --friction-file friction.d -o tau.csv
  stderr_has "^eom id: error: friction.d: is a directory, not a friction file"
  echo '{"joint1": {"damping": 1e400}}' > huge.json
  expect 2 "$eom" id "$robot" "$table" --friction --friction-file huge.json -o tau.csv
  stderr_has "^eom id: error: huge.json:1:24: '1e400' is out of the range of a double (beyond 1.8e308)"
  [ ! -e tau.csv ] || fail "output written by a failed run"
  ;;
sim-step-longer-than-run)
  # --dt beyond --duration takes one step of the duration, and says so
  expect 0 "$eom" sim "$src/robots/planar_2r.urdf" --duration 0.1 --dt 0.5 -o x.csv
  stderr_has "^eom sim: warning: --dt 0.5 is longer than --duration 0.1: one step of 0.1 s is taken"
  [ "$(tail -1 x.csv | cut -d, -f1)" = 0.1 ] || fail "last row $(tail -1 x.csv)"
  # however short the run: the step is taken, its end written, and the summary says so
  expect 0 "$eom" sim "$src/robots/planar_2r.urdf" --duration 1e-9 -o x.csv --summary-json s.json
  stderr_has "^eom sim: warning: --dt 0.001 is longer than --duration 1e-09: one step of 1e-09 s is taken"
  [ "$(cut -d, -f1 x.csv | tr '\n' ' ')" = "t 0 1e-09 " ] || fail "rows $(cat x.csv)"
  grep -q '"rows": 2,' s.json || fail "summary: $(cat s.json)"
  grep -q '"steps": 1,' s.json || fail "summary: $(cat s.json)"
  # an output step of 0 would write rows without end: refused as a step of 0 is
  expect 2 "$eom" sim "$src/robots/planar_2r.urdf" --duration 1 --output-dt 0 -o x0.csv
  stderr_has "^eom sim: error: --output-dt: 0 must be positive"
  [ ! -e x0.csv ] || fail "x0.csv written"
  ;;
overlong-rows)
  # a row longer than the 16 MiB cap is an error naming its line, read with bounded memory (a
  # 1 GB line was once held three times over); JSON strings are bounded likewise
  robot=$src/robots/planar_2r.urdf
  { printf 't,q.joint1,q.joint2\n0,0,0\n1,'
    head -c 40000000 /dev/zero | tr '\0' 1
    printf ',0\n'; } > long.csv
  /usr/bin/time -f %M -o rss.txt "$eom" id "$robot" long.csv -o tau.csv > out.txt 2> err.txt
  [ $? = 2 ] || fail "exit not 2: $(cat err.txt)"
  stderr_has "^eom id: error: long.csv:3: the line is longer than 16 MiB, the most one row of a table may take$"
  peak=$(tail -1 rss.txt)
  sanitized || [ "$peak" -lt 65536 ] || fail "peak resident memory $peak kB for a 40 MB line"
  [ ! -e tau.csv ] || fail "output written by a failed run"
  { printf '{"t":0,"q.joint1":0,"q.joint2":0,"note":""}\n{"t":1,"q.joint1":0,"q.joint2":0,"note":"'
    head -c 20000000 /dev/zero | tr '\0' x
    printf '"}\n'; } > long.ndjson
  expect 2 "$eom" convert long.ndjson -o x.csv
  stderr_has "^eom convert: error: long.ndjson:2:41: a string longer than 16 MiB"
  [ ! -e x.csv ] || fail "output written by a failed run"
  ;;
long-input-quoted)
  # messages quote at most 60 bytes of the input and say how long it was: a number of 1 MB in a
  # URDF attribute or a table cell, a column name of 1 MB
  robot=$src/robots/planar_2r.urdf
  digits=$(head -c 1000000 /dev/zero | tr '\0' 7)
  printf '0,/<mass value="[^"]*"/s//<mass value="%sx"/\n' "$digits" > big.sed
  sed -f big.sed "$robot" > big.urdf
  expect 2 "$eom" info big.urdf
  stderr_has "big.urdf:[0-9]*: <mass value=\"7\{60\}\.\.\. (1000001 bytes)\">: '7\{60\}\.\.\.' (1000001 bytes) is not a number$"
  [ "$(wc -c < err.txt)" -lt 400 ] || fail "a message of $(wc -c < err.txt) bytes"
  printf 't,q.joint1,q.joint2\n0,0,%sx\n' "$digits" > big.csv
  expect 2 "$eom" id "$robot" big.csv
  stderr_has "big.csv:2:5: column q.joint2: '7\{60\}\.\.\.' (1000001 bytes) is not a number$"
  [ "$(wc -c < err.txt)" -lt 400 ] || fail "a message of $(wc -c < err.txt) bytes"
  printf 't,q.joint1,q.joint2,q.%s\n0,0,0,0\n' "$digits" > name.csv
  expect 2 "$eom" id "$robot" name.csv
  stderr_has "column q\.7\{58\}\.\.\. (1000002 bytes): the model has no joint coordinate '7\{60\}\.\.\.' (1000000 bytes)"
  [ "$(wc -c < err.txt)" -lt 400 ] || fail "a message of $(wc -c < err.txt) bytes"
  ;;
urdf-extreme-numbers)
  # numbers a double cannot hold are named for what they are: a mass below the smallest double
  # underflows, one beyond the largest overflows; an inertia whose sums overflow is no inertia
  # the dynamics can use, and not "without inertia" either
  robot=$src/robots/planar_2r.urdf
  sed '0,/<mass value="[^"]*"/s//<mass value="1e-400"/' "$robot" > tiny.urdf
  expect 2 "$eom" info tiny.urdf
  stderr_has "tiny.urdf:[0-9]*: <mass value=\"1e-400\">: '1e-400' underflows to 0 (below the smallest double, 4.9e-324)$"
  sed '0,/<mass value="[^"]*"/s//<mass value="1e400"/' "$robot" > huge.urdf
  expect 2 "$eom" info huge.urdf
  stderr_has "huge.urdf:[0-9]*: <mass value=\"1e400\">: '1e400' is out of the range of a double (beyond 1.8e308)$"
  sed 's/ixx="[^"]*"/ixx="1e308"/; s/iyy="[^"]*"/iyy="1e308"/; s/izz="[^"]*"/izz="1e308"/' "$robot" > big.urdf
  expect 1 "$eom" check big.urdf
  grep -q "without inertia" out.txt && fail "check: $(cat out.txt)"
  grep -q "error: link 'link1': inertia ixx 1e+308, iyy 1e+308 and izz 1e+308 overflows" out.txt ||
    fail "check: $(cat out.txt)"
  expect 2 "$eom" info big.urdf
  stderr_has "big.urdf:[0-9]*: link 'link1': inertia ixx 1e+308, iyy 1e+308 and izz 1e+308 overflows: the sums of its entries are beyond a double (1.8e308)$"
  # an inertia of 1e300 is beyond what a model may state (1e21 kg m^2), whatever the command
  sed '0,/ixx="[^"]*"/s//ixx="1e300"/' "$robot" > beyond.urdf
  expect 2 "$eom" info beyond.urdf
  stderr_has "beyond.urdf:[0-9]*: link 'link1' (the body moved by joint 'joint1') has a rotational inertia of 1e+300 kg m^2, beyond the 1e+21 kg m^2 a model may state"
  # an inertia of 1e18 about an axis no joint turns: what the joints move is real, but lost in
  # its round-off; forward dynamics says so rather than "moves no mass or inertia"
  sed '0,/ixx="[^"]*"/s//ixx="1e18"/' "$robot" > drowned.urdf
  expect 0 "$eom" id "$robot" "$src/trajectories/planar_2r_small.csv" --keep-input -o tau.csv
  expect 2 "$eom" fd drowned.urdf tau.csv -o fd.csv
  grep -q "no mass or inertia" err.txt && fail "fd: $(cat err.txt)"
  stderr_has "lost in the round-off of the model's largest inertias"
  [ ! -e fd.csv ] || fail "fd.csv written"
  ;;
out-of-memory)
  # a header of 1.9 million columns under a 200 MB limit: allocation fails, and that is said as
  # what it is, exit 2 with no output, not an internal error (AddressSanitizer reserves terabytes
  # of address space, so a limit on it cannot run there)
  sanitized && { echo "SKIPPED: needs a binary without ASan"; exit 77; }
  python3 -c "
n = 1900000
print(','.join('c%d' % i for i in range(n)))
print(','.join('1' for i in range(n)))" > wide.csv
  (ulimit -v 200000 && "$eom" convert wide.csv out.csv > out.txt 2> err.txt)
  rc=$?
  [ $rc = 2 ] || fail "exit $rc, expected 2: $(cat err.txt)"
  stderr_has "^eom convert: error: out of memory: the input needs more memory than this process may use"
  [ ! -e out.csv ] || fail "out.csv written"
  ;;
stdin-closed)
  # `-` with stdin closed is an input error naming stdin, for a robot as for a table (eom check
  # reports it on stdout, as what it found)
  robot=$src/robots/planar_2r.urdf
  "$eom" check - > out.txt 2> err.txt <&-
  [ $? = 2 ] || fail "eom check - <&-: exit not 2 ($(cat out.txt err.txt))"
  grep -q "^<stdin>: error: cannot read: stdin is closed$" out.txt || fail "check: $(cat out.txt)"
  for command in "info -" "id $robot -" "convert - x.csv"; do
    # shellcheck disable=SC2086
    "$eom" $command > out.txt 2> err.txt <&-
    rc=$?
    [ $rc = 2 ] || fail "eom $command <&-: exit $rc ($(cat err.txt))"
    stderr_has "^eom ${command%% *}: error: <stdin>: cannot read: stdin is closed$"
  done
  [ ! -e x.csv ] || fail "output written by a failed run"
  ;;
deep-nesting)
  # 100,000 levels in every format eom reads: refused at a documented depth (JSON models and
  # friction files, URDF and MJCF) or read without recursion (JSON tables); eom check reports on
  # the other files of the call
  python3 -c "
n = 100000
lists = '[' * n + ']' * n
open('name.json', 'w').write('{\"format\": \"dh\", \"name\": ' + lists + '}')
open('dh_a.json', 'w').write('{\"format\": \"dh\", \"joints\": [{\"name\": \"j\", \"a\": ' + lists + '}]}')
open('friction.json', 'w').write('{\"joint1\": ' + lists + '}')
open('deep.urdf', 'w').write('<robot name=\"r\">\\n' + '<link>' * n + '</link>' * n + '</robot>')
open('deep.xml', 'w').write('<mujoco>\\n<worldbody>' + '<body><geom size=\"0.1\"/>' * n + '</body>' * n + '</worldbody></mujoco>')
open('table.ndjson', 'w').write('{\"t\": 0, \"q\": ' + '{\"a\": ' * n + '0' + '}' * n + '}\\n')"
  robot=$src/robots/planar_2r.urdf
  expect 2 "$eom" check name.json dh_a.json "$robot" deep.urdf deep.xml
  for f in name.json dh_a.json; do
    grep -q "^$f:1: error: objects and lists nested more than 100 deep, the most eom reads$" out.txt ||
      fail "check $f: $(cut -c1-300 out.txt)"
    grep -q "^$f: cannot be read$" out.txt || fail "check $f: $(cut -c1-300 out.txt)"
  done
  for f in deep.urdf deep.xml; do
    grep -q "^$f:2: error: malformed XML: elements nested more than 98 deep, the most eom reads$" out.txt ||
      fail "check $f: $(cut -c1-300 out.txt)"
  done
  grep -q "^$robot: ok" out.txt || fail "the other file unreported: $(cut -c1-300 out.txt)"
  table=$src/trajectories/planar_2r_swing.csv
  expect 2 "$eom" id "$robot" "$table" --friction --friction-file friction.json -o tau.csv
  stderr_has "^eom id: error: friction.json:1:111: objects and lists nested more than 100 deep"
  [ ! -e tau.csv ] || fail "output written by a failed run"
  # a table's objects nest into one column name, whatever their depth
  expect 0 "$eom" convert table.ndjson table.csv
  [ "$(head -c 7 table.csv)" = "t,q.a.a" ] || fail "table: $(head -c 100 table.csv)"
  ;;
unbounded-files)
  # a device as a robot file, an MJCF include, a mesh or a friction file never ends: refused at
  # once, naming the file; a regular file beyond 64 MiB is refused by its size, a pipe at 64 MiB
  robot=$src/robots/planar_2r.urdf
  table=$src/trajectories/planar_2r_swing.csv
  ln -s /dev/zero zero.urdf
  ln -s /dev/urandom mesh.stl
  echo '<mujoco><include file="/dev/zero"/></mujoco>' > include.xml
  echo '<mujoco><asset><mesh file="mesh.stl"/></asset><worldbody><body><joint/>
  <geom type="mesh" mesh="mesh"/></body></worldbody></mujoco>' > mesh.xml
  expect 2 timeout 20 "$eom" check /dev/zero /dev/urandom zero.urdf include.xml mesh.xml "$robot"
  for f in /dev/zero /dev/urandom zero.urdf; do
    grep -q "^$f: error: is neither a regular file nor a pipe (a device may never end): not read as a robot file$" out.txt ||
      fail "check $f: $(cat out.txt)"
  done
  grep -q "^include.xml:1: error: <include file=\"/dev/zero\">: '/dev/zero': is neither a regular file nor a pipe" out.txt ||
    fail "include: $(cat out.txt)"
  grep -q "^mesh.xml:1: error: <mesh file=\"mesh.stl\">: 'mesh.stl': is neither a regular file nor a pipe (a device may never end): not read as a mesh$" out.txt ||
    fail "mesh: $(cat out.txt)"
  grep -q "^$robot: ok" out.txt || fail "the other file unreported: $(cat out.txt)"
  expect 2 timeout 20 "$eom" id "$robot" "$table" --friction --friction-file /dev/zero -o tau.csv
  stderr_has "^eom id: error: /dev/zero: is neither a regular file nor a pipe (a device may never end): not read as a friction file$"
  expect 2 timeout 20 "$eom" info - < /dev/zero
  stderr_has "^eom info: error: <stdin>: is neither a regular file nor a pipe"
  # 64 MiB + 1 byte: a sparse file refused by its size, the same bytes through a pipe when read
  truncate -s $((64 * 1024 * 1024 + 1)) big.urdf
  expect 2 "$eom" info big.urdf
  stderr_has "^eom info: error: big.urdf: larger than 64 MiB, the most eom reads of a robot file$"
  cat big.urdf | "$eom" info - > out.txt 2> err.txt
  stderr_has "^eom info: error: <stdin>: larger than 64 MiB, the most eom reads of a robot file$"
  [ ! -e tau.csv ] || fail "output written by a failed run"
  ;;
*)
  echo "unknown case $case_name"
  exit 2
  ;;
esac
