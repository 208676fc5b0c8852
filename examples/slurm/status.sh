#!/usr/bin/env bash
# Snakemake's cluster-status command for Slurm: prints running, success or failed for the job id
# that sbatch --parsable printed ("ID" or "ID;CLUSTER"). sacct when the cluster keeps accounting;
# else scontrol, which knows a finished job for MinJobAge seconds (the test cluster has no
# accounting database). A job neither knows is gone: failed, not waited for forever.
set -uo pipefail
id=${1%%;*}
state=$(sacct -n -X -P -j "$id" -o State 2> /dev/null | head -n 1)
[[ -n $state ]] || state=$(scontrol show job -o "$id" 2> /dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p')
case ${state%% *} in
  COMPLETED) echo success ;;
  PENDING | CONFIGURING | RUNNING | COMPLETING | SUSPENDED | REQUEUED | REQUEUE_HOLD | REQUEUE_FED | RESIZING | SIGNALING | STAGE_OUT | STOPPED) echo running ;;
  *) echo failed ;;
esac
