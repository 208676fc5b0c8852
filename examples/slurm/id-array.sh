#!/usr/bin/env bash
# A Slurm job array for users without Snakemake: array task N computes the joint torques of line
# N of a tables file in the format of examples/tables.tsv (a table of trajectories/, its robot,
# extra options) into OUT_DIR/<table>.csv (eom id --output-dir), all or nothing, on as many
# threads as the task has CPUs. Relative paths are the submit folder's (sbatch runs the job
# there); the task's log, with eom's error message when the table is bad, is
# logs/eom-id-<job>_<task>.log. The task's exit code is eom's (2: a bad table).
#   mkdir -p logs
#   sbatch --array=1-$(wc -l < examples/tables.tsv) examples/slurm/id-array.sh EOM examples/tables.tsv out
#SBATCH --job-name=eom-id
#SBATCH --cpus-per-task=1
#SBATCH --output=logs/%x-%A_%a.log
set -euo pipefail
eom=$1
tables=$2
out=$3
IFS=$'\t' read -r table robot flags < <(sed -n "${SLURM_ARRAY_TASK_ID}p" "$tables")
echo "task $SLURM_ARRAY_TASK_ID of job $SLURM_ARRAY_JOB_ID on $(hostname): $table"
mkdir -p "$out"
# --jobs: the task's CPUs, not the node's (eom's default is every core of the machine)
# shellcheck disable=SC2086
exec "$eom" id "$robot" "trajectories/$table.csv" $flags --output-dir "$out" \
  --jobs "${SLURM_CPUS_PER_TASK:-1}" -q
