#!/usr/bin/env bash
# The scale-out recipes of examples/ (doc/scaling.md) give, byte for byte, what serial runs give,
# and rerun only what is missing. Usage: examples.sh EOM SOURCE_DIR CASE, CASE one of
#   recipes            make and GNU parallel over tables.tsv; make is up to date afterwards
#   snakemake          the Snakefile (id, fd, deriv, summary); after one output is deleted, a
#                      rerun rebuilds that one only
#   parallel-resume    GNU parallel in remote mode on this machine (--sshlogin :) with a job log:
#                      a bad table fails and is logged; after it is fixed, --resume-failed reruns
#                      that one only
# Exit 77 (skipped) when the engine a case needs is not installed (scripts/deps.sh installs it).
set -uo pipefail
eom=$1
src=$2
case_name=$3
. "$(dirname "$0")/lib.sh"

# the tables of examples/tables.tsv, one "table robot flags" line each
tables() {
  cat "$src/examples/tables.tsv"
}
# same_files DIR_A DIR_B NAME...: the files NAME of both folders are byte-identical
same_files() {
  local a=$1 b=$2
  shift 2
  for name in "$@"; do
    cmp -s "$a/$name" "$b/$name" || fail "$b/$name differs from the serial run's"
  done
}

case $case_name in
recipes)
  needs make
  needs parallel
  mkdir serial
  while IFS=$'\t' read -r table robot flags; do
    # shellcheck disable=SC2086
    "$eom" id "$src/$robot" "$src/trajectories/$table.csv" $flags -o "serial/$table.tau.csv" ||
      fail "serial run of $table"
  done < <(tables)
  make -s -C "$src/examples" EOM="$eom" OUT="$work/make" -j2 > /dev/null || fail "make"
  make -q -C "$src/examples" EOM="$eom" OUT="$work/make" || fail "make is not up to date after a run"
  bash "$src/examples/parallel.sh" "$eom" "$work/parallel" > /dev/null || fail "parallel.sh"
  names=$(cd serial && ls)
  # shellcheck disable=SC2086
  same_files serial make $names
  # shellcheck disable=SC2086
  same_files serial parallel $names
  ;;
snakemake)
  needs snakemake
  # serial: the Snakefile's commands one after the other
  mkdir serial
  names=()
  while IFS=$'\t' read -r table robot flags; do
    # shellcheck disable=SC2086
    {
      "$eom" id "$src/$robot" "$src/trajectories/$table.csv" $flags --keep-input -q \
        -o "serial/$table.tau.csv" &&
        "$eom" fd "$src/$robot" "serial/$table.tau.csv" $flags -q -o "serial/$table.a.csv" &&
        "$eom" deriv "$src/$robot" "$src/trajectories/$table.csv" $flags --order 1 -q \
          -o "serial/$table.dtau.csv"
    } || fail "serial runs of $table"
    names+=("$table.tau.csv" "$table.a.csv" "$table.dtau.csv")
  done < <(tables)
  snakemake -s "$src/examples/Snakefile" -d "$work/run" --cores 2 --config eom="$eom" \
    > snakemake.log 2>&1 || fail "snakemake: $(tail -20 snakemake.log)"
  same_files serial run/out "${names[@]}"
  # the summary: every table's id run, in table order
  python3 - run/out/summary.json "$(tables | cut -f1 | sort | tr '\n' ' ')" << 'EOF' ||
import json, sys
runs = json.load(open(sys.argv[1]))
tables = sys.argv[2].split()
assert [r["output"] for r in runs] == ["out/%s.tau.csv" % t for t in tables], runs
assert all(r["written"] and r["exit_code"] == 0 and r["rows"] > 0 for r in runs), runs
EOF
    fail "summary.json does not list every table's run"
  # one output deleted: only it is made again
  rm run/out/ur5_wave.a.csv
  touch marker
  snakemake -s "$src/examples/Snakefile" -d "$work/run" --cores 2 --config eom="$eom" \
    > rerun.log 2>&1 || fail "snakemake rerun: $(tail -20 rerun.log)"
  rebuilt=$(find run/out -type f -newer marker | sort | tr '\n' ' ')
  [ "$rebuilt" = "run/out/ur5_wave.a.csv " ] || fail "the rerun rebuilt: $rebuilt"
  same_files serial run/out ur5_wave.a.csv
  ;;
parallel-resume)
  needs parallel
  mkdir in out
  cp "$src/trajectories/ur5_wave.csv" in/wave.csv
  head -n 200 "$src/trajectories/ur5_wave.csv" > in/start.csv
  printf 't,q.shoulder_pan_joint\n0,not-a-number\n' > in/broken.csv
  run() {
    parallel --will-cite --sshlogin : --joblog jobs.log "$@" \
      "$eom" id "$src/robots/ur5.urdf" "$work/in/{}.csv" -q -o "$work/out/{}.tau.csv" \
      ::: wave broken start
  }
  run > run.log 2>&1
  [ $? = 1 ] || fail "parallel should report one failed job: $(cat run.log)"
  # the job log: Seq Host Starttime JobRuntime Send Receive Exitval Signal Command
  exits=$(awk -F'\t' 'NR > 1 { print $7 }' jobs.log | sort | tr '\n' ' ')
  [ "$exits" = "0 0 2 " ] || fail "job log exit values: $exits"
  awk -F'\t' '$7 == 2' jobs.log | grep -q "in/broken.csv" || fail "the failed job is not broken's"
  [ ! -e out/broken.tau.csv ] || fail "a failed run left an output"
  # fixed, then resumed: the failed job alone runs again
  head -n 100 "$src/trajectories/ur5_wave.csv" > in/broken.csv
  touch marker
  run --resume-failed > rerun.log 2>&1 || fail "the resumed run failed: $(cat rerun.log)"
  [ "$(awk 'NR > 1' jobs.log | wc -l)" = 4 ] || fail "the resumed run ran more than one job"
  rebuilt=$(find out -type f -newer marker | tr '\n' ' ')
  [ "$rebuilt" = "out/broken.tau.csv " ] || fail "the resumed run wrote: $rebuilt"
  "$eom" id "$src/robots/ur5.urdf" in/broken.csv -q -o broken.serial.csv || fail "serial run"
  cmp -s broken.serial.csv out/broken.tau.csv || fail "the resumed output differs from a serial run"
  ;;
*)
  fail "unknown case $case_name"
  ;;
esac
exit 0
