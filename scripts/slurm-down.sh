#!/usr/bin/env bash
# Stops the one-node test cluster of scripts/slurm-up.sh: the daemons it started, by the pids in
# its state folder (slurmd, slurmctld, munged, in that order), after cancelling the jobs still
# queued or running, then removes the folder. Safe to run twice and when nothing runs; a daemon
# that does not stop within 10 s is killed.
#   scripts/slurm-down.sh
set -uo pipefail
state=${EOM_SLURM_DIR:-/tmp/eom-slurm}
[[ -d $state ]] || exit 0
export SLURM_CONF=$state/slurm.conf

# jobs still queued or running are cancelled first, so that their processes end with them
if [[ -s $state/slurmctld.pid ]] && kill -0 "$(cat "$state/slurmctld.pid")" 2> /dev/null; then
  jobs=$(squeue -h -o %i 2> /dev/null)
  if [[ -n $jobs ]]; then
    # shellcheck disable=SC2086
    scancel $jobs 2> /dev/null
    for _ in $(seq 50); do
      [[ -z $(squeue -h -o %i 2> /dev/null) ]] && break
      sleep 0.2
    done
  fi
fi
for daemon in slurmd slurmctld munged; do
  [[ -s $state/$daemon.pid ]] || continue
  pid=$(cat "$state/$daemon.pid")
  # the pid is still this daemon's (not a number reused since)
  [[ $(cat "/proc/$pid/comm" 2> /dev/null) == "$daemon" ]] || continue
  kill "$pid" 2> /dev/null
  for _ in $(seq 50); do
    kill -0 "$pid" 2> /dev/null || break
    sleep 0.2
  done
  kill -0 "$pid" 2> /dev/null && kill -9 "$pid" 2> /dev/null
done
# a job step's slurmstepd outlives slurmd when a job still runs: stop those of this cluster (they
# have slurmd's environment, which names the state folder)
for comm in /proc/[0-9]*/comm; do
  pid=${comm#/proc/}
  pid=${pid%/comm}
  [[ $(cat "$comm" 2> /dev/null) == slurmstepd ]] &&
    grep -qzF "SLURM_CONF=$state/slurm.conf" "/proc/$pid/environ" 2> /dev/null &&
    kill -9 "$pid" 2> /dev/null
done
rm -rf "$state"
echo "slurm-down: stopped"
