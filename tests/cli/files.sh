#!/usr/bin/env bash
# File-handling contract of every subcommand that writes files: no output replaces an input,
# batch outputs never collide, symlinks/devices/permissions are respected, failed or interrupted
# runs leave nothing behind; every file a run reads is an input, stdin included; descriptors are
# written through. Cases that cannot run here exit 77 (skipped), root-only steps are skipped when
# not root. Usage: files.sh EOM SOURCE_DIR CASE (ctest runs each case).
set -uo pipefail
eom=$1
src=$2
case_name=$3
. "$(dirname "$0")/lib.sh"
robot=$src/robots/planar_2r.urdf
table=$src/trajectories/planar_2r_small.csv

skip() {
  echo "SKIPPED: $*"
  exit 77
}
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
  # job control: a script's background jobs would start with SIGINT and SIGQUIT ignored, which
  # eom keeps ignored
  set -m
  for signal in INT TERM HUP QUIT; do
    rm -f out.csv
    { head -5 "$table"; sleep 3; tail -n +6 "$table"; } | "$eom" id "$robot" - -o out.csv --jobs 1 &
    pid=$(jobs -p | tail -1)
    sleep 1
    # the eom process is the last of the pipeline
    kill -s "$signal" "$(pgrep -n -f "id $robot - -o out.csv")"
    wait "$pid"
    rc=$?
    expected=$((128 + $(kill -l "$signal")))
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
  grep -q "meshes: error: is a directory, not a robot file" out.txt || fail "$(cat out.txt)"
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
file-options-are-inputs)
  # every file a run reads, whatever option names it, is protected from every output
  cp "$table" a.csv && cp "$robot" r.urdf
  printf '{"joint1": {"damping": 0.1, "friction": 0.2}}\n' > friction.json
  cp friction.json friction.orig
  expect 2 "$eom" id r.urdf a.csv --friction-file friction.json -o friction.json
  stderr_has "the output friction.json is the input friction.json: refusing to replace an input"
  expect 2 "$eom" fd r.urdf a.csv --friction-file friction.json -o o.csv --summary-json ./friction.json
  stderr_has "refusing to replace an input"
  mkdir out && ln -s ../friction.json out/a.csv
  expect 2 "$eom" id r.urdf a.csv --friction-file friction.json --output-dir out
  stderr_has "refusing to replace an input"
  cmp -s friction.json friction.orig || fail "the friction file was replaced"
  head -3 "$src/trajectories/planar_2r_swing.csv" > init.csv && cp init.csv init.orig
  for option in --initial --torques --reference --wrenches; do
    controller=()
    [ $option = --reference ] && controller=(--controller pd)
    for out in "-o init.csv" "-o o.csv --summary-json $work/init.csv"; do
      # shellcheck disable=SC2086 # $out is two words
      expect 2 "$eom" sim r.urdf "$option" init.csv "${controller[@]}" --duration 0.01 $out
      stderr_has "is the input init.csv: refusing to replace an input"
    done
  done
  cmp -s init.csv init.orig || fail "a sim input was replaced"
  expect 2 "$eom" jac r.urdf --frame link2 --sample 10 -o o.csv --summary-json r.urdf
  stderr_has "the output r.urdf is the input r.urdf"
  expect 2 "$eom" ik r.urdf a.csv -o a.csv
  cmp -s r.urdf "$robot" && cmp -s a.csv "$table" || fail "an input was replaced"
  ;;
stdin-is-an-input)
  # `-` reads stdin, which is the file it is redirected from; `-` as an output is stdout
  cp "$table" a.csv && cp "$robot" r.urdf
  "$eom" id "$robot" - -o a.csv < a.csv 2> err.txt
  [ $? = 2 ] || fail "id - -o a.csv < a.csv: exit not 2"
  stderr_has "the output a.csv is the input - (stdin): refusing to replace an input"
  "$eom" id - a.csv -o r.urdf < r.urdf 2> err.txt
  [ $? = 2 ] || fail "id - -o r.urdf < r.urdf: exit not 2"
  "$eom" id "$robot" - -o o.csv --summary-json a.csv < a.csv 2> err.txt
  [ $? = 2 ] || fail "a summary over stdin's file: exit not 2"
  cmp -s a.csv "$table" && cmp -s r.urdf "$robot" || fail "an input was replaced"
  "$eom" convert a.csv x.ndjson && cp x.ndjson x.orig
  # stdout appending to the input would read its own output forever
  timeout 10 "$eom" convert x.ndjson - >> x.ndjson 2> err.txt
  [ $? = 2 ] || fail "convert x.ndjson - >> x.ndjson: exit not 2"
  stderr_has "the output - (stdout) is the input x.ndjson"
  timeout 10 "$eom" fk "$robot" - < a.csv >> a.csv 2> err.txt
  [ $? = 2 ] || fail "fk - < a.csv >> a.csv: exit not 2"
  cmp -s x.ndjson x.orig && cmp -s a.csv "$table" || fail "an input was changed"
  ;;
summary-is-the-table)
  # the summary and the table are compared as files, not as names
  expect 2 "$eom" id "$robot" "$table" -o out.json --summary-json "$work/out.json"
  stderr_has "the table is written there too"
  echo old > out.json && ln -s out.json link.json
  expect 2 "$eom" id "$robot" "$table" -o out.json --summary-json link.json
  stderr_has "the table is written there too"
  [ "$(cat out.json)" = old ] || fail "the table was written"
  # the table on stdout (a file, a pipe) and the summary on /dev/stdout
  expect 2 "$eom" id "$robot" "$table" --summary-json /dev/stdout
  stderr_has "the table is written there too"
  "$eom" id "$robot" "$table" --summary-json /proc/self/fd/1 2> err.txt | cat > piped.txt
  [ "${PIPESTATUS[0]}" = 2 ] || fail "a summary on the pipe of the table: exit not 2"
  [ ! -s piped.txt ] || fail "something was written to the pipe"
  expect 2 "$eom" id "$robot" "$table" -o /dev/stdout --summary-json -
  # stdout redirected to the table file itself
  echo old > t.csv
  "$eom" id "$robot" "$table" -o t.csv --summary-json - > t.csv 2> err.txt
  [ $? = 2 ] || fail "--summary-json - > t.csv with -o t.csv: exit not 2"
  ;;
summary-and-table-together)
  # one result: a summary that cannot be written leaves the table as it was, and no temporary
  cp "$table" a.csv && cp "$table" b.csv
  echo old > out.csv
  expect 2 "$eom" id "$robot" a.csv -o out.csv --summary-json /dev/full
  stderr_has "/dev/full: cannot write"
  [ "$(cat out.csv)" = old ] || fail "id: the table was written without its summary"
  expect 2 "$eom" sim "$robot" --duration 0.01 -o out.csv --summary-json /dev/full
  [ "$(cat out.csv)" = old ] || fail "sim: the table was written without its summary"
  expect 2 "$eom" jac "$robot" --frame link2 --sample 10 -o out.csv --summary-json /dev/full
  [ "$(cat out.csv)" = old ] || fail "jac --sample: the table was written without its summary"
  expect 2 "$eom" id "$robot" a.csv b.csv --output-dir out --summary-json /dev/full
  [ ! -e out/a.csv ] && [ ! -e out/b.csv ] || fail "batch: tables written without their summary"
  no_temporaries
  if [ "$(id -u)" != 0 ]; then  # root writes into a read-only directory anyway
    mkdir ro && chmod 555 ro
    expect 2 "$eom" id "$robot" a.csv -o out.csv --summary-json ro/s.json
    [ "$(cat out.csv)" = old ] || fail "read-only summary directory: the table was written"
  fi
  expect 0 "$eom" id "$robot" a.csv -o out.csv --summary-json s.json
  [ -s s.json ] && head -1 out.csv | grep -q '^t,tau.joint1' || fail "both should be written"
  ;;
keep-truncated-safe)
  blow=(sim "$robot" --torque joint1=1e300 --integrator euler --dt 0.5 --duration 100
    --keep-truncated)
  echo old > out.csv && chmod 600 out.csv
  expect 2 "$eom" "${blow[@]}" -o out.csv
  [ "$(cat out.csv)" = old ] || fail "the output was replaced by a failed run"
  [ -s out.truncated.csv ] || fail "no truncated file"
  [ "$(stat -c %a out.truncated.csv)" = 600 ] || fail "truncated mode $(stat -c %a out.truncated.csv)"
  # a second failure never replaces the first's rows (or a file of the user's)
  echo mine > out.truncated.csv
  expect 2 "$eom" "${blow[@]}" -o out.csv
  stderr_has "out.truncated.csv exists and eom does not replace it"
  [ "$(cat out.truncated.csv)" = mine ] || fail "the existing truncated file was replaced"
  rm out.truncated.csv
  expect 0 "$eom" sim "$robot" --duration 0.01 -o out.csv --keep-truncated
  [ "$(stat -c %a out.csv)" = 600 ] || fail "mode $(stat -c %a out.csv), expected 600"
  # written in place: refused, nothing replaced
  mkfifo fifo
  for out in /dev/null /dev/stdout fifo; do
    expect 2 "$eom" "${blow[@]}" -o $out
    stderr_has "needs -o naming a regular file"
  done
  [ -c /dev/null ] && [ -p fifo ] || fail "a device or FIFO was replaced"
  # through a link: its target is written, the truncated rows go next to it
  mkdir data && echo old > data/real.csv && ln -s data/real.csv link.csv
  expect 2 "$eom" "${blow[@]}" -o link.csv
  [ -L link.csv ] && [ "$(cat data/real.csv)" = old ] || fail "the link or its target changed"
  [ -s data/real.truncated.csv ] || fail "no data/real.truncated.csv"
  stderr_has "data/real.truncated.csv"
  rm data/real.truncated.csv
  expect 0 "$eom" sim "$robot" --duration 0.01 -o link.csv --keep-truncated
  [ -L link.csv ] && head -1 data/real.csv | grep -q '^t,q.joint1' || fail "link not written through"
  no_temporaries
  ;;
descriptors-written-through)
  # /dev/stdout and the like are the descriptors the shell opened: `>>` appends
  "$eom" id "$robot" "$table" > piped.csv
  echo "first line" > log
  for name in /dev/stdout /proc/self/fd/1 /dev/fd/1; do
    "$eom" id "$robot" "$table" -o $name >> log 2> err.txt || fail "$name: $(cat err.txt)"
  done
  "$eom" id "$robot" "$table" -o /dev/stderr 2>> log || fail "/dev/stderr"
  "$eom" id "$robot" "$table" -o /dev/fd/3 3>> log || fail "/dev/fd/3"
  (echo "first line" && cat piped.csv piped.csv piped.csv piped.csv piped.csv) | cmp -s - log ||
    fail "the log was not appended to: $(head -3 log)"
  ;;
dev-shm-is-a-regular-file)
  [ -d /dev/shm ] && [ -w /dev/shm ] || skip "no writable /dev/shm"
  shm=$(mktemp -d /dev/shm/eom-files.XXXXXX)
  trap 'rm -rf "$work" "$shm"' EXIT
  echo old > "$shm/out.csv"
  printf 't,q.joint1,q.joint2\n0,0,0\n1,abc,1\n' > bad.csv
  expect 2 "$eom" id "$robot" bad.csv -o "$shm/out.csv" --jobs 1
  [ "$(cat "$shm/out.csv")" = old ] || fail "a failed run changed a file in /dev/shm"
  inode=$(stat -c %i "$shm/out.csv")
  expect 0 "$eom" id "$robot" "$table" -o "$shm/out.csv"
  [ "$(stat -c %i "$shm/out.csv")" != "$inode" ] || fail "written in place, not renamed into place"
  [ "$(ls -A "$shm")" = out.csv ] || fail "left in /dev/shm: $(ls -A "$shm")"
  ;;
dangling-symlink-output)
  # a link is written through to its target, dangling or not; the link stays
  ln -s target.csv dangling.csv && ln -s s-target.json s.json
  expect 0 "$eom" id "$robot" "$table" -o dangling.csv --summary-json s.json
  [ -L dangling.csv ] && [ -L s.json ] || fail "a link was replaced"
  head -1 target.csv | grep -q '^t,tau.joint1' || fail "the target was not written"
  [ -s s-target.json ] || fail "the summary's target was not written"
  ln -s nowhere/x.csv broken.csv
  expect 2 "$eom" id "$robot" "$table" -o broken.csv
  [ -L broken.csv ] || fail "the link into a missing directory was replaced"
  ln -s loop1 loop2 && ln -s loop2 loop1
  expect 2 "$eom" id "$robot" "$table" -o loop1
  stderr_has "too many levels of symbolic links"
  [ -L loop1 ] || fail "the looping link was replaced"
  no_temporaries
  ;;
file-size-limit-leaves-nothing)
  # SIGXFSZ: a write over `ulimit -f` (1 KiB here) ends the run, its temporary removed
  echo t,q.joint1,q.joint2 > long.csv
  awk 'BEGIN { for (k = 0; k < 2000; ++k) print k / 1000 ",0.1,0.2" }' >> long.csv
  (ulimit -f 1 && exec "$eom" id "$robot" long.csv -o out.csv --jobs 1 2> err.txt)
  rc=$?
  [ "$rc" = 153 ] || fail "exit $rc, expected 153 (128 + SIGXFSZ): $(cat err.txt)"
  [ ! -e out.csv ] || fail "out.csv was written"
  no_temporaries
  ;;
many-pending-outputs)
  # a batch with a summary keeps its finished tables as temporaries until the summary is written:
  # more than 256 of them, all removed by a signal
  mkdir in
  for k in $(seq -w 0 299); do cp "$table" "in/$k.csv"; done
  mkfifo in/zz.csv
  "$eom" id "$robot" in/*.csv --output-dir out --jobs 1 --summary-json s.json 2> err.txt &
  pid=$!
  for _ in $(seq 300); do
    [ "$(ls -A out 2> /dev/null | wc -l)" -ge 300 ] && break
    sleep 0.1
  done
  [ "$(ls -A out | wc -l)" = 300 ] || fail "expected 300 pending temporaries: $(ls -A out | wc -l)"
  kill -s TERM $pid
  wait $pid
  rc=$?
  [ "$rc" = 143 ] || fail "exit $rc, expected 143"
  [ -z "$(ls -A out)" ] || fail "left behind: $(ls -A out | head -3) ($(ls -A out | wc -l) files)"
  [ ! -e s.json ] || fail "summary written"
  ;;
full-stdout-is-an-error)
  # a report or table on stdout that cannot be written is exit 2, never 0 with a truncated result
  [ -w /dev/full ] || skip "no /dev/full"
  full() {
    "$eom" "$@" > /dev/full 2> err.txt
    local rc=$?
    [ "$rc" = 2 ] || fail "$* > /dev/full: exit $rc, expected 2"
    stderr_has "cannot write"
  }
  full info "$robot"
  full info "$robot" --format json
  full info "$robot" -o /dev/full
  full check "$robot"
  full check "$robot" --format json
  full id "$robot" "$table"
  full convert "$table" -
  ;;
info-output)
  # eom info -o: the same summary as on stdout, all or nothing, never over the robot; -q keeps
  # the warnings about links eom works around off stderr
  antenna=$src/tests/data/urdf/antenna.urdf
  expect 0 "$eom" info "$antenna" --format json
  mv out.txt stdout.json
  grep -q "warning: .*base_antenna_left_link" err.txt || fail "no warning without -q: $(cat err.txt)"
  expect 0 "$eom" info "$antenna" --format json -q -o info.json
  [ ! -s out.txt ] && [ ! -s err.txt ] || fail "-o -q printed: $(cat out.txt err.txt)"
  cmp -s info.json stdout.json || fail "-o wrote other bytes than stdout"
  cp "$robot" robot.urdf
  expect 2 "$eom" info robot.urdf -o ./robot.urdf
  stderr_has "refusing to replace an input"
  cmp -s robot.urdf "$robot" || fail "the robot was replaced"
  expect 2 "$eom" info robot.urdf -o missing/info.txt
  stderr_has "missing/info.txt: cannot create"
  [ ! -e missing ] || fail "created missing/"
  no_temporaries
  ;;
long-output-name)
  # names of 239 to 255 bytes, the most a file system allows (the temporary once added 17 bytes
  # and failed from 239; it now keeps 32 bytes of the name): a table, a summary and a plot
  "$eom" id "$robot" "$table" > expected.csv 2> /dev/null
  mkdir -p sub
  for n in $(seq 239 255); do
    long=$(printf 'x%.0s' $(seq $((n - 4)))).csv
    "$eom" id "$robot" "$table" -o "sub/$long" 2> err.txt || fail "$n bytes: $(cat err.txt)"
    cmp -s "sub/$long" expected.csv || fail "$n bytes: output differs"
    rm "sub/$long"
  done
  long=$(printf 'x%.0s' $(seq 250))
  "$eom" id "$robot" "$table" -o - --summary-json "$long.json" > /dev/null 2> err.txt ||
    fail "summary: $(cat err.txt)"
  [ -s "$long.json" ] || fail "no summary written"
  "$eom" plot "$table" --y q.joint1 --format svg -o "$long.svg" 2> err.txt ||
    fail "plot: $(cat err.txt)"
  [ -s "$long.svg" ] || fail "no plot written"
  # --keep-truncated's OUT.truncated.csv is 10 bytes longer than OUT: kept where it fits (245
  # bytes), refused before the run where it would not (250), nothing written
  blow=(sim "$robot" --torque joint1=1e300 --integrator euler --dt 0.5 --duration 100
    --keep-truncated)
  fits=$(printf 'y%.0s' $(seq 241)).csv
  expect 2 "$eom" "${blow[@]}" -o "$fits"
  [ -s "${fits%.csv}.truncated.csv" ] || fail "245 bytes: no truncated file"
  over=$(printf 'z%.0s' $(seq 246)).csv
  expect 2 "$eom" "${blow[@]}" -o "$over"
  stderr_has "would be 260 bytes, over the 255 a file name may have (choose a shorter -o)"
  [ ! -e "$over" ] || fail "250 bytes: the output was written"
  no_temporaries
  ;;
*)
  fail "unknown case $case_name"
  ;;
esac
echo "ok: $case_name"
