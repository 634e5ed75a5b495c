#!/usr/bin/env bash
# A private single-node Slurm cluster (munge + slurmctld + slurmd) for testing
# `ccsim sweep --slurm` on one machine. Everything lives in one state folder:
# its own munge key and socket, slurm.conf, spool, logs and pid files, on
# non-default ports, so it touches no system-wide Slurm or munge setup.
#
#   scripts/slurm-local.sh start <state-dir>   configure, start, wait until the node is idle
#   scripts/slurm-local.sh stop  <state-dir>   stop the daemons this script started
#   scripts/slurm-local.sh env   <state-dir>   print `export SLURM_CONF=...` for clients
#
# Needs the Debian packages slurm-wlm and munge (root: the daemons run as the
# invoking user, which must be root for slurmd to start jobs as other users;
# tests run as root in CI).
set -euo pipefail

cmd=${1:-}
state=${2:-}
if [[ -z "$cmd" || -z "$state" ]]; then
  echo "usage: $0 start|stop|env <state-dir>" >&2
  exit 2
fi

conf="$state/slurm.conf"

stop_pidfile() {
  local f=$1
  if [[ -f "$f" ]]; then
    local pid
    pid=$(cat "$f")
    if [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null; then
      kill "$pid" 2>/dev/null || true
      for _ in $(seq 1 50); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
      done
      kill -9 "$pid" 2>/dev/null || true
    fi
    rm -f "$f"
  fi
}

case "$cmd" in
  env)
    echo "export SLURM_CONF=$conf"
    ;;
  stop)
    stop_pidfile "$state/slurmd.pid"
    stop_pidfile "$state/slurmctld.pid"
    stop_pidfile "$state/munged.pid"
    ;;
  start)
    for bin in munged slurmctld slurmd sbatch sinfo; do
      command -v "$bin" >/dev/null || { echo "$bin not found: install the Debian packages slurm-wlm and munge" >&2; exit 3; }
    done
    mkdir -p "$state"/{munge,spool,ctld}
    chmod 700 "$state" "$state/munge"
    state=$(cd "$state" && pwd)
    conf="$state/slurm.conf"
    host=$(hostname -s)
    user=$(id -un)
    cpus=$(nproc)
    mem=$(awk '/MemTotal/ { printf "%d", $2 / 1024 * 0.8 }' /proc/meminfo)
    # ports from the state folder's name, so two clusters on one machine do not clash
    base=$((20000 + $(printf '%s' "$state" | cksum | cut -d' ' -f1) % 20000))

    # munge: a fresh key and a private socket
    if [[ ! -f "$state/munge/munge.key" ]]; then
      dd if=/dev/urandom of="$state/munge/munge.key" bs=1024 count=1 status=none
      chmod 400 "$state/munge/munge.key"
    fi
    munged --force --key-file="$state/munge/munge.key" --socket="$state/munge/munge.sock" \
      --pid-file="$state/munged.pid" --log-file="$state/munge/munged.log" --seed-file="$state/munge/munged.seed"

    cat >"$conf" <<EOF
ClusterName=ccsim-local
SlurmctldHost=$host
SlurmctldPort=$base
SlurmdPort=$((base + 1))
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/munge
AuthInfo=socket=$state/munge/munge.sock
CredType=cred/munge
StateSaveLocation=$state/ctld
SlurmdSpoolDir=$state/spool
SlurmctldPidFile=$state/slurmctld.pid
SlurmdPidFile=$state/slurmd.pid
SlurmctldLogFile=$state/slurmctld.log
SlurmdLogFile=$state/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
DefMemPerCPU=1024
ReturnToService=2
SlurmdTimeout=30
InactiveLimit=0
MinJobAge=300
KillWait=5
NodeName=$host CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
    export SLURM_CONF="$conf"
    slurmctld -f "$conf" -i
    slurmd -f "$conf" -N "$host"
    for _ in $(seq 1 100); do
      st=$(sinfo -h -N -o '%T' 2>/dev/null | head -1 || true)
      if [[ "$st" == idle* || "$st" == mixed* ]]; then
        echo "slurm up: node $host ($cpus CPUs, ${mem} MB), partition local; export SLURM_CONF=$conf"
        exit 0
      fi
      sleep 0.2
    done
    echo "slurm did not come up (node state: ${st:-unknown}); logs in $state" >&2
    tail -n 20 "$state/slurmctld.log" "$state/slurmd.log" >&2 || true
    exit 1
    ;;
  *)
    echo "unknown command $cmd (start, stop, env)" >&2
    exit 2
    ;;
esac
