#!/usr/bin/env bash
# The scale-out recipes of examples/ (doc/scaling.md) give, byte for byte, what serial runs give,
# and rerun only what is missing. Usage: examples.sh EOM SOURCE_DIR CASE, CASE one of
#   recipes            make and GNU parallel over tables.tsv; make is up to date afterwards
#   snakemake          the Snakefile (id, fd, deriv, summary, and the identification's map to
#                      partial fits and their merge, which equals one run over every log byte for
#                      byte); after one output is deleted, a rerun rebuilds that one only (the
#                      merged parameters: the merge's outputs, from the partial fits there)
#   parallel-resume    GNU parallel in remote mode on this machine (--sshlogin :) with a job log:
#                      a bad table fails and is logged; after it is fixed, --resume-failed reruns
#                      that one only
# and on the one-node Slurm cluster of scripts/slurm-up.sh (the ctest fixture starts and stops it):
#   slurm-snakemake    the Snakefile through sbatch (the examples/slurm profile) equals serial
#                      runs (the merged identification: one run over every log); one job cancelled (scancel) while it runs fails the run, and the rerun
#                      makes exactly the outputs that are missing
#   slurm-array        examples/slurm/id-array.sh, one table per array task: a bad table fails its
#                      task with exit 2, the others' outputs are complete, and resubmitting that
#                      index alone finishes the set
#   slurm-all-or-nothing  a task cancelled while eom writes into the shared folder leaves neither
#                      the output nor its temporary; the outputs already there are untouched
# Exit 77 (skipped) when the engine a case needs is not installed (scripts/deps.sh installs it) or
# the test cluster is not up (scripts/slurm-up.sh printed why).
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

# serial_torques DIR: DIR/<table>.tau.csv, eom id run by hand on every table
serial_torques() {
  mkdir "$1"
  while IFS=$'\t' read -r table robot flags; do
    # shellcheck disable=SC2086
    "$eom" id "$src/$robot" "$src/trajectories/$table.csv" $flags -o "$1/$table.tau.csv" ||
      fail "serial run of $table"
  done < <(tables)
}
# serial_workflow DIR: the Snakefile's commands run by hand, one after the other, into DIR; the
# names of their outputs in the array `names`
serial_workflow() {
  mkdir "$1"
  names=()
  while IFS=$'\t' read -r table robot flags; do
    # shellcheck disable=SC2086
    {
      "$eom" id "$src/$robot" "$src/trajectories/$table.csv" $flags --keep-input -q \
        -o "$1/$table.tau.csv" &&
        "$eom" fd "$src/$robot" "$1/$table.tau.csv" $flags -q -o "$1/$table.a.csv" &&
        "$eom" deriv "$src/$robot" "$src/trajectories/$table.csv" $flags --order 1 -q \
          -o "$1/$table.dtau.csv"
    } || fail "serial runs of $table"
    names+=("$table.tau.csv" "$table.a.csv" "$table.dtau.csv")
  done < <(tables)
  # the identification: each log's partial fit, and one run over every log (not a merge), which
  # the Snakefile's merge of the partial fits must give byte for byte
  mkdir "$1/identify"
  local logs=() log robot flags identify_robot identify_flags
  while IFS=$'\t' read -r log robot flags; do
    # one robot and one set of options for every log (the Snakefile checks it)
    identify_robot=$robot identify_flags=$flags
    logs+=("$src/examples/logs/$log.csv")
    # shellcheck disable=SC2086
    "$eom" identify "$src/$robot" "$src/examples/logs/$log.csv" $flags -q \
      --partial "$1/identify/$log.partial.json" || fail "serial partial fit of $log"
    names+=("identify/$log.partial.json")
  done < "$src/examples/logs.tsv"
  # shellcheck disable=SC2086
  "$eom" identify "$src/$identify_robot" "${logs[@]}" $identify_flags -q -o "$1/identify/params.csv" \
    --base-parameters "$1/identify/base.csv" --urdf-out "$1/identify/identified.urdf" ||
    fail "serial identification over every log"
  names+=(identify/params.csv identify/base.csv identify/identified.urdf)
}
# summary_lists_every_table FILE: the Snakefile's summary.json holds every table's id run, in
# table order
summary_lists_every_table() {
  python3 - "$1" "$(tables | cut -f1 | sort | tr '\n' ' ')" << 'EOF' ||
import json, sys
runs = json.load(open(sys.argv[1]))
tables = sys.argv[2].split()
assert [r["output"] for r in runs] == ["out/%s.tau.csv" % t for t in tables], runs
assert all(r["written"] and r["exit_code"] == 0 and r["rows"] > 0 for r in runs), runs
EOF
    fail "$1 does not list every table's run"
}
# needs_cluster: the test cluster of scripts/slurm-up.sh answers (never a real cluster: only its
# own slurm.conf is used); else skip
needs_cluster() {
  export SLURM_CONF=${EOM_SLURM_DIR:-/tmp/eom-slurm}/slurm.conf
  [ -s "$SLURM_CONF" ] && sinfo -h > /dev/null 2>&1 ||
    { echo "the test Slurm cluster is not up (scripts/slurm-up.sh said why): skipped"; exit 77; }
}
# job_state JOB: "state exit" of a job or array task (JOB_TASK), from sacct where the cluster keeps
# accounting, else from scontrol (the test cluster has no accounting database)
job_state() {
  local line
  line=$(sacct -n -X -P -j "$1" -o State,ExitCode 2> /dev/null | head -n 1)
  if [ -z "$line" ]; then
    line=$(scontrol show job -o "$1" 2> /dev/null |
      sed -n 's/.*JobState=\([A-Z_]*\).* ExitCode=\([0-9:]*\).*/\1|\2/p' | head -n 1)
  fi
  echo "${line/|/ }"
}
# wait_until SECONDS CMD...: retry CMD every 0.1 s until it succeeds; fail after SECONDS
wait_until() {
  local tries=$(($1 * 10))
  shift
  until "$@"; do
    ((tries-- > 0)) || fail "timed out waiting for: $*"
    sleep 0.1
  done
}

case $case_name in
recipes)
  needs make
  needs parallel
  serial_torques serial
  make -s -C "$src/examples" EOM="$eom" OUT="$work/make" -j2 > /dev/null || fail "make"
  make -q -C "$src/examples" EOM="$eom" OUT="$work/make" || fail "make is not up to date after a run"
  bash "$src/examples/parallel.sh" "$eom" "$work/parallel" > /dev/null || fail "parallel.sh"
  outputs=$(cd serial && ls)
  # shellcheck disable=SC2086
  same_files serial make $outputs
  # shellcheck disable=SC2086
  same_files serial parallel $outputs
  ;;
snakemake)
  needs snakemake
  serial_workflow serial
  snakemake -s "$src/examples/Snakefile" -d "$work/run" --cores 2 --config eom="$eom" \
    > snakemake.log 2>&1 || fail "snakemake: $(tail -20 snakemake.log)"
  same_files serial run/out "${names[@]}"
  summary_lists_every_table run/out/summary.json
  # one output deleted: only it is made again
  rm run/out/ur5_wave.a.csv
  touch marker
  snakemake -s "$src/examples/Snakefile" -d "$work/run" --cores 2 --config eom="$eom" \
    > rerun.log 2>&1 || fail "snakemake rerun: $(tail -20 rerun.log)"
  rebuilt=$(find run/out -type f -newer marker | sort | tr '\n' ' ')
  [ "$rebuilt" = "run/out/ur5_wave.a.csv " ] || fail "the rerun rebuilt: $rebuilt"
  same_files serial run/out ur5_wave.a.csv
  # the merged parameters deleted: the reduce runs again (its three outputs) from the partial
  # fits there, and no log is read again
  rm run/out/identify/params.csv
  touch marker
  snakemake -s "$src/examples/Snakefile" -d "$work/run" --cores 2 --config eom="$eom" \
    > rerun.log 2>&1 || fail "snakemake rerun: $(tail -20 rerun.log)"
  rebuilt=$(find run/out -type f -newer marker | sort | tr '\n' ' ')
  expected="run/out/identify/base.csv run/out/identify/identified.urdf run/out/identify/params.csv "
  [ "$rebuilt" = "$expected" ] || fail "the rerun after the merged parameters were deleted rebuilt: $rebuilt"
  same_files serial run/out identify/params.csv identify/base.csv identify/identified.urdf
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
slurm-snakemake)
  needs snakemake
  needs_cluster
  serial_workflow serial
  # each rule an sbatch job; --keep-going: the jobs the cancelled one does not feed still run.
  # CI=true: Snakemake 7 asks for the jobs' states every second instead of every 10 s
  export CI=true
  snakemake -s "$src/examples/Snakefile" -d "$work/run" --profile "$src/examples/slurm" \
    --config eom="$eom" --keep-going > run.log 2>&1 &
  engine=$!
  # a failed check stops this Snakemake too (slurm-down cancels its jobs)
  trap 'kill "$engine" 2> /dev/null; rm -rf "$work"' EXIT
  # the first id job seen running is cancelled (its job runs Snakemake itself first: seconds)
  running_id_job() {
    job=$(squeue -h -t RUNNING -n eom-inverse_dynamics -o %i | head -n 1)
    [ -n "$job" ]
  }
  wait_until 300 running_id_job
  scancel "$job"
  wait "$engine"
  rc=$?
  [ "$rc" = 1 ] || fail "snakemake should fail with the cancelled job: exit $rc, $(tail -20 run.log)"
  [ "$(job_state "$job")" = "CANCELLED 0:15" ] || fail "job $job: $(job_state "$job")"
  # missing: the cancelled table's torques, their summary and accelerations, and summary.json
  missing=$(for name in "${names[@]}" $(tables | cut -f1 | sed 's/$/.id.json/') summary.json; do
    [ -e "run/out/$name" ] || echo "run/out/$name"
  done | sort | tr '\n' ' ')
  table=$(echo "$missing" | sed -n 's|.*run/out/\([^ ]*\)\.a\.csv .*|\1|p')
  [ -n "$table" ] &&
    [ "$missing" = "run/out/$table.a.csv run/out/$table.id.json run/out/$table.tau.csv run/out/summary.json " ] ||
    fail "after the cancelled job, missing: $missing"
  touch marker
  snakemake -s "$src/examples/Snakefile" -d "$work/run" --profile "$src/examples/slurm" \
    --config eom="$eom" > rerun.log 2>&1 || fail "snakemake rerun: $(tail -20 rerun.log)"
  rebuilt=$(find run/out -type f -newer marker | sort | tr '\n' ' ')
  [ "$rebuilt" = "$missing" ] || fail "the rerun rebuilt: $rebuilt; missing were: $missing"
  same_files serial run/out "${names[@]}"
  summary_lists_every_table run/out/summary.json
  ;;
slurm-array)
  needs_cluster
  serial_torques serial
  # a submit folder as on a cluster's shared file system: robots/, trajectories/, a tables file
  # whose third line is a table that is not a table
  mkdir trajectories logs
  ln -s "$src/robots" robots
  cp "$src"/trajectories/*.csv trajectories/
  printf 't,q.shoulder_pan_joint\n0,not-a-number\n' > trajectories/broken.csv
  { tables | head -n 2 && printf 'broken\trobots/ur5.urdf\t\n' && tables | tail -n +3; } > tables.tsv
  count=$(wc -l < tables.tsv)
  array=$(sbatch --parsable --wait --array="1-$count" "$src/examples/slurm/id-array.sh" \
    "$eom" tables.tsv out 2> submit.err)
  [ $? = 2 ] || fail "sbatch --wait should give the failed task's exit 2: $(cat submit.err)"
  for task in $(seq "$count"); do
    expected="COMPLETED 0:0"
    [ "$task" = 3 ] && expected="FAILED 2:0"
    [ "$(job_state "${array}_$task")" = "$expected" ] ||
      fail "task $task: $(job_state "${array}_$task"), expected $expected"
  done
  grep -q "eom id: error: trajectories/broken.csv:1: missing columns" "logs/eom-id-${array}_3.log" ||
    fail "the failed task's log: $(cat "logs/eom-id-${array}_3.log")"
  [ ! -e out/broken.csv ] || fail "the failed task left an output"
  while IFS=$'\t' read -r table _; do
    cmp -s "serial/$table.tau.csv" "out/$table.csv" || fail "out/$table.csv differs from a serial run"
  done < <(tables)
  # fixed, and that index alone resubmitted: the set is complete, nothing else rewritten
  head -n 100 "$src/trajectories/ur5_wave.csv" > trajectories/broken.csv
  touch marker
  again=$(sbatch --parsable --wait --array=3 "$src/examples/slurm/id-array.sh" \
    "$eom" tables.tsv out 2> submit.err) || fail "the resubmitted task failed: $(cat submit.err)"
  [ "$(job_state "${again}_3")" = "COMPLETED 0:0" ] || fail "resubmitted: $(job_state "${again}_3")"
  rebuilt=$(find out -type f -newer marker | tr '\n' ' ')
  [ "$rebuilt" = "out/broken.csv " ] || fail "the resubmitted task wrote: $rebuilt"
  "$eom" id "$src/robots/ur5.urdf" trajectories/broken.csv -q -o broken.serial.csv || fail "serial run"
  cmp -s broken.serial.csv out/broken.csv || fail "the resubmitted output differs from a serial run"
  [ "$(ls out | wc -l)" = "$count" ] || fail "out/ holds: $(ls -A out)"
  ;;
slurm-all-or-nothing)
  needs_cluster
  robot=$src/robots/ur5.urdf
  table=$src/trajectories/ur5_wave.csv
  mkdir out
  "$eom" id "$robot" "$table" -q -o serial.csv || fail "serial run"
  sbatch --wait -o done.log --wrap "'$eom' id '$robot' '$table' -q -o out/done.csv" > /dev/null ||
    fail "the first job: $(cat done.log)"
  # a task whose table arrives slowly: cancelled while eom writes its temporary in out/
  job=$(sbatch --parsable -o slow.log --wrap \
    "{ head -n 5 '$table'; sleep 60; tail -n +6 '$table'; } | '$eom' id '$robot' - --jobs 1 -q -o out/slow.csv")
  temporary_written() {
    compgen -G "out/.slow.csv.eom-*.tmp" > /dev/null
  }
  wait_until 300 temporary_written
  scancel "$job"
  ended() {
    [[ $(job_state "$job") == CANCELLED* ]] && ! squeue -h -j "$job" -t RUNNING,COMPLETING | grep -q .
  }
  wait_until 60 ended
  [ "$(ls -A out)" = "done.csv" ] || fail "after the cancelled task, out/ holds: $(ls -A out)"
  cmp -s serial.csv out/done.csv || fail "out/done.csv changed"
  # resubmitted, the task writes the whole file
  sbatch --wait -o slow.log --wrap \
    "{ head -n 5 '$table'; tail -n +6 '$table'; } | '$eom' id '$robot' - --jobs 1 -q -o out/slow.csv" \
    > /dev/null || fail "the resubmitted task: $(cat slow.log)"
  cmp -s serial.csv out/slow.csv || fail "out/slow.csv differs from a serial run"
  ;;
*)
  fail "unknown case $case_name"
  ;;
esac
exit 0
