#!/usr/bin/env bash
# A one-node Slurm cluster for the tests (test infrastructure, not a product): this machine is
# both the controller and the compute node. Installs slurm-wlm and munge from Debian when they
# are missing, writes a minimal slurm.conf into the state folder, starts its own munged,
# slurmctld and slurmd (their own socket, ports and spool, so a real cluster's daemons on this
# machine are neither used nor disturbed), and waits until sinfo shows the node idle.
#
#   scripts/slurm-up.sh            (as root, as CI runs; scripts/slurm-down.sh stops it)
#   export SLURM_CONF=${EOM_SLURM_DIR:-/tmp/eom-slurm}/slurm.conf   # then sbatch, sinfo, sacct...
#
# Safe to run twice: a cluster already up is left as it is. Exit 0 when the node is idle, 77
# with the reason on stderr when the daemons cannot start here (not root, no packages, a
# container that forbids them); then whatever it started is stopped again.
set -uo pipefail
state=${EOM_SLURM_DIR:-/tmp/eom-slurm}
export SLURM_CONF=$state/slurm.conf

skip() {
  echo "slurm-up: skipped: $*" >&2
  bash "$(dirname "$0")/slurm-down.sh" > /dev/null 2>&1
  exit 77
}
# alive NAME: the daemon NAME that this script started (its pid file) is running
alive() {
  [[ -s $state/$1.pid ]] && kill -0 "$(cat "$state/$1.pid")" 2> /dev/null
}
# wait_for SECONDS CMD...: retry CMD every 0.2 s until it succeeds or SECONDS pass
wait_for() {
  local tries=$(($1 * 5))
  shift
  while ((tries-- > 0)); do
    "$@" > /dev/null 2>&1 && return 0
    sleep 0.2
  done
  return 1
}
node_idle() {
  [[ $(sinfo -h -n "$node" -o %T 2> /dev/null) == idle ]]
}
# the node takes jobs (idle, or running some)
node_up() {
  [[ $(sinfo -h -n "$node" -o %T 2> /dev/null) =~ ^(idle|mixed|allocated|completing)$ ]]
}

[[ $(id -u) == 0 ]] || skip "needs root (it installs packages and runs slurmd), as CI runs"
node=$(hostname -s)
if alive munged && alive slurmctld && alive slurmd && node_up; then
  echo "slurm-up: already up ($SLURM_CONF)"
  exit 0
fi

if ! command -v slurmctld > /dev/null || ! command -v slurmd > /dev/null ||
  ! command -v munged > /dev/null; then
  command -v apt-get > /dev/null || skip "slurm-wlm and munge are not installed and there is no apt-get"
  echo "slurm-up: installing slurm-wlm and munge" >&2
  {
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends slurm-wlm munge ||
      { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y \
        --no-install-recommends slurm-wlm munge; }
  } > /dev/null 2>&1 || skip "apt-get could not install slurm-wlm and munge"
fi

mkdir -p "$state/spool" "$state/state"
chmod 700 "$state"

# munge: its own key and socket (slurm.conf's AuthInfo points every Slurm command at them)
if ! alive munged; then
  [[ -s $state/munge.key ]] ||
    { dd if=/dev/urandom of="$state/munge.key" bs=1024 count=1 status=none && chmod 600 "$state/munge.key"; }
  rm -f "$state/munge.socket" "$state/munge.socket.lock"
  munged --force --socket="$state/munge.socket" --key-file="$state/munge.key" \
    --pid-file="$state/munged.pid" --log-file="$state/munged.log" \
    --seed-file="$state/munged.seed" < /dev/null > /dev/null 2>&1 ||
    skip "munged does not start: $(tail -3 "$state/munged.log" 2> /dev/null)"
  wait_for 10 bash -c "munge -n -S '$state/munge.socket' | unmunge -S '$state/munge.socket'" ||
    skip "munged does not answer: $(tail -3 "$state/munged.log" 2> /dev/null)"
fi

# No cgroups (a container has none to give): processes tracked through /proc, no task
# confinement, no accounting database (finished jobs are in the jobcomp text file and, for
# MinJobAge seconds, in scontrol show job). select/cons_tres with CR_CPU shares the node per CPU,
# as a cluster shares its nodes; ports away from a real cluster's 6817/6818.
cpus=$(nproc)
cat > "$SLURM_CONF" << EOF
ClusterName=eomtest
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=16817
SlurmdPort=16818
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$state/munge.socket
CredType=cred/munge
StateSaveLocation=$state/state
SlurmdSpoolDir=$state/spool
SlurmctldPidFile=$state/slurmctld.pid
SlurmdPidFile=$state/slurmd.pid
SlurmctldLogFile=$state/slurmctld.log
SlurmdLogFile=$state/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$state/jobcomp.txt
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
ReturnToService=2
MinJobAge=600
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
KillWait=5
MpiDefault=none
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=debug Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF

if ! alive slurmctld; then
  # -i: no state from an earlier run (jobs and node states start afresh)
  slurmctld -i -f "$SLURM_CONF" < /dev/null > /dev/null 2>&1 ||
    skip "slurmctld does not start: $(tail -3 "$state/slurmctld.log" 2> /dev/null)"
fi
if ! alive slurmd; then
  slurmd -f "$SLURM_CONF" < /dev/null > /dev/null 2>&1 ||
    skip "slurmd does not start: $(tail -3 "$state/slurmd.log" 2> /dev/null)"
fi
wait_for 30 node_idle ||
  skip "the node does not become idle: $(sinfo -h -N -o '%N %T %E' 2> /dev/null)" \
    "$(tail -3 "$state/slurmd.log" 2> /dev/null)"
echo "slurm-up: node $node idle ($SLURM_CONF)"
