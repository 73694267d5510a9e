#!/bin/sh
# A one-node Slurm cluster for the remote tests and benchmarks: munged,
# slurmctld and slurmd, run as root.
#
#	tests/services/slurm.sh start DIR CPUS SLURMCTLD_PORT SLURMD_PORT
#	tests/services/slurm.sh stop DIR
#
# Every file of it is in DIR, and its daemons listen on the ports given,
# so that it needs nothing of this machine's own Slurm or munge setup and
# leaves that alone.  munged wants every directory above its socket
# searchable by everyone: DIR is made mode 755, and those above must be
# (/tmp is).  start writes DIR/slurm.conf, which clients are given in
# SLURM_CONF: one node, localhost, with CPUS CPUs (however many this
# machine has), in one partition, debug, the default.  It succeeds once a
# step runs; otherwise it stops what it started and fails, and the
# daemons' logs in DIR say why.  stop cancels the jobs and ends the
# daemons; nothing running is not an error.

set -u
PATH=$PATH:/usr/sbin

usage() {
	echo "usage: $0 start DIR CPUS SLURMCTLD_PORT SLURMD_PORT | stop DIR" >&2
	exit 2
}

# The pids of the processes of DIR's cluster.  They are found by the
# variable WSPX_TEST_SLURM=DIR, which the daemons are started with and
# the slurmstepd of each step inherits from slurmd: those outlive slurmd,
# and name no file of DIR.  (A job gets the environment of its srun
# instead.)
ours() {
	grep -lzxF -- "WSPX_TEST_SLURM=$dir" /proc/[0-9]*/environ 2> /dev/null |
	    cut -d/ -f3
}

# Whether daemon $1 of DIR's cluster runs.
running() {
	for p in $(ours); do
		[ "$(cat "/proc/$p/comm" 2> /dev/null)" = "$1" ] && return 0
	done
	return 1
}

stop() {
	# Jobs are cancelled while slurmctld still runs, so that slurmd
	# ends their steps and processes.  (A Slurm client retries for long
	# when a daemon does not answer: each one here has a few seconds.)
	if running slurmctld; then
		timeout 10 scancel --partition debug 2> /dev/null
		n=0
		while [ -n "$(timeout 5 squeue -h 2> /dev/null)" ] &&
		    [ "$n" -lt 50 ]; do
			sleep 0.2
			n=$((n + 1))
		done
	fi
	pids=$(ours)
	[ -n "$pids" ] || return 0
	# shellcheck disable=SC2086
	kill -TERM $pids 2> /dev/null
	n=0
	while [ -n "$(ours)" ] && [ "$n" -lt 50 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	pids=$(ours)
	# shellcheck disable=SC2086
	[ -z "$pids" ] || kill -KILL $pids 2> /dev/null
	return 0
}

fail() {
	echo "slurm.sh: $*" >&2
	stop
	exit 1
}

# daemon NAME ARG...: start daemon NAME, marked as DIR's; it goes into
# the background itself.
daemon() {
	WSPX_TEST_SLURM=$dir "$@" ||
	    fail "$1 did not start: $(tail -n 3 "$dir/$1.log" 2> /dev/null)"
}

# await NAME COMMAND...: wait until COMMAND succeeds, at most 20 s, while
# daemon NAME runs.
await() {
	name=$1
	shift
	n=0
	until "$@"; do
		if ! running "$name" || [ "$n" -ge 100 ]; then
			fail "$name is not ready: $(tail -n 3 "$dir/$name.log")"
		fi
		sleep 0.2
		n=$((n + 1))
	done
}

ctld_up() {
	timeout 5 scontrol ping 2> /dev/null | grep -q 'is UP'
}

node_idle() {
	[ "$(timeout 5 sinfo -h -n localhost -o %t 2> /dev/null)" = idle ]
}

start() {
	cpus=$1 ctldport=$2 slurmdport=$3
	for p in munged munge slurmctld slurmd scontrol sinfo srun scancel \
	    squeue; do
		command -v "$p" > /dev/null ||
		    fail "$p is not installed (make check installs it)"
	done
	mkdir -p "$dir/state" "$dir/spool" || fail "cannot make $dir"
	chmod 755 "$dir" || fail "cannot make $dir searchable"
	(umask 077 && head -c 1024 /dev/urandom > "$dir/munge.key") ||
	    fail "cannot make $dir/munge.key"
	# Every path is in DIR: the default ones, under /var and /run, may
	# be another cluster's.  Not Slurm's defaults either, which track
	# processes with cgroups (not set up here) and give a job a whole
	# node: processes are tracked by their parents, jobs get CPUs, and the
	# node may have more CPUs than this machine.
	cat > "$dir/slurm.conf" << EOF
ClusterName=wspxtest
SlurmctldHost=localhost
SlurmctldPort=$ctldport
SlurmdPort=$slurmdport
AuthInfo=socket=$dir/munge.sock
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SlurmdParameters=config_overrides
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
	export SLURM_CONF="$dir/slurm.conf"
	daemon munged --key-file="$dir/munge.key" --socket="$dir/munge.sock" \
	    --pid-file="$dir/munged.pid" --log-file="$dir/munged.log" \
	    --seed-file="$dir/munged.seed"
	daemon slurmctld
	await slurmctld ctld_up
	# The node is named localhost, not after this machine.
	daemon slurmd -N localhost
	await slurmd node_idle
	timeout 30 srun -n 1 true ||
	    fail "a step does not run: $(tail -n 3 "$dir/slurmd.log")"
}

[ $# -ge 2 ] || usage
# The paths go into slurm.conf, where they must be absolute.
case $2 in
/*) dir=$2 ;;
*) dir=$PWD/$2 ;;
esac
case $1 in
start) [ $# -eq 5 ] || usage; start "$3" "$4" "$5" ;;
stop) [ $# -eq 2 ] || usage; stop ;;
*) usage ;;
esac
