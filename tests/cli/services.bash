# Private services for the remote-execution tests, started with the
# scripts of tests/services by a test file's setup_file and stopped by its
# teardown_file: an sshd on 127.0.0.1 for remote.bats, a one-node Slurm
# cluster for slurm.bats.  Each gets ports that are free at the time, so
# that other copies of them on this machine are no matter.  The variables
# setup_file exports reach every test; tests `load services` for the
# functions.  $WSPX_SERVICES, if set, names another directory of the same
# scripts.

SERVICES=${WSPX_SERVICES:-$BATS_TEST_DIRNAME/../services}

# Print $1 (default 1) distinct TCP ports that nothing is bound to now, on
# any address, from 20000-32767: below the kernel's ephemeral range, so
# that no connection takes one as its local port meanwhile.  Never 6817
# or 6818, Slurm's usual ports, nor 2222, a test sshd's: a daemon that is
# down now may want them later.
freeports() {
	python3 - "${1:-1}" <<'PY'
import random, socket, sys
n = int(sys.argv[1])
ports = []
while len(ports) < n:
    p = random.randint(20000, 32767)
    if p in ports or p in (2222, 6817, 6818):
        continue
    try:
        for addr in ('0.0.0.0', '127.0.0.1'):
            s = socket.socket()
            s.bind((addr, p))
            s.close()
    except OSError:
        continue
    ports.append(p)
print(*ports)
PY
}

# Start an sshd with its files in a new directory $SSH_DIR, and export:
#   MYSSH     an ssh command for --ssh: ssh with the sshd's ssh_config
#             (its client key, host keys not checked, batch mode,
#             SHLVL=1 sent so that root's bash skips ~/.bashrc)
#   SSH_PORT  the sshd's port; LOGIN=root@127.0.0.1:$SSH_PORT its spec
#   BADLOGIN  root@127.0.0.1:PORT on a port where nothing listens: a host
#             that refuses connections
# On a failure, stops what it started and fails.
start_sshd() {
	local bad
	SSH_DIR=$(mktemp -d "${TMPDIR:-/tmp}/wspx-test-sshd.XXXXXX") || return 1
	export SSH_DIR
	# shellcheck disable=SC2046
	set -- $(freeports 2)
	SSH_PORT=$1 bad=$2
	if ! "$SERVICES/sshd.sh" start "$SSH_DIR" "$SSH_PORT"; then
		stop_sshd
		return 1
	fi
	printf '#!/bin/sh\nexec ssh -F %s "$@"\n' "$SSH_DIR/ssh_config" \
		> "$SSH_DIR/myssh"
	chmod 755 "$SSH_DIR/myssh"
	export MYSSH=$SSH_DIR/myssh SSH_PORT LOGIN=root@127.0.0.1:$SSH_PORT
	export BADLOGIN=root@127.0.0.1:$bad
}

# Stop the sshd of start_sshd, with the connections it still serves, and
# remove $SSH_DIR.  Safe to call when nothing or only part started.
stop_sshd() {
	[ -n "${SSH_DIR:-}" ] && [ -d "$SSH_DIR" ] || return 0
	"$SERVICES/sshd.sh" stop "$SSH_DIR"
	rm -rf "$SSH_DIR"
}

# Start the Slurm cluster (4 CPUs on node localhost, partition debug) in
# a new directory $SLURM_DIR under /tmp, and export SLURM_CONF for srun,
# salloc, squeue, scancel.  munged wants o+x on every directory above its
# socket, hence /tmp, not the test's temporary directory (0700).  The
# caller's own allocation, if any, is forgotten: the tests choose where
# they run.  On a failure, stops what it started and fails.
start_slurm() {
	local v
	for v in $(compgen -v SLURM_); do
		unset "$v"
	done
	SLURM_DIR=$(mktemp -d /tmp/wspx-test-slurm.XXXXXX) || return 1
	export SLURM_DIR
	# shellcheck disable=SC2046
	if ! "$SERVICES/slurm.sh" start "$SLURM_DIR" 4 $(freeports 2); then
		stop_slurm
		return 1
	fi
	export SLURM_CONF=$SLURM_DIR/slurm.conf
}

# Stop the cluster of start_slurm (its jobs cancelled first) and remove
# $SLURM_DIR.  Safe to call when nothing or only part started.
stop_slurm() {
	[ -n "${SLURM_DIR:-}" ] && [ -d "$SLURM_DIR" ] || return 0
	"$SERVICES/slurm.sh" stop "$SLURM_DIR"
	rm -rf "$SLURM_DIR"
}

# The pids of the processes whose command line contains $1 (pgrep leaves
# itself out).
procs() {
	pgrep -f -- "$1" || :
}

# Succeed once no process has $1 in its command line, waiting up to
# ${2:-6} seconds; otherwise show them and fail.
nonewith() {
	local end=$((SECONDS + ${2:-6}))
	while [ -n "$(procs "$1")" ]; do
		if [ "$SECONDS" -ge "$end" ]; then
			echo "still running, with '$1' in their command line:" >&2
			ps -o pid,ppid,pgid,stat,args -p "$(procs "$1" | paste -sd,)" >&2
			return 1
		fi
		sleep 0.1
	done
}

# Kill, by pid, what a failed test left with $1 in its command line.
killwith() {
	local p
	for p in $(procs "$1"); do
		kill -KILL "$p" 2> /dev/null || :
	done
}

# The largest number on the lines of file $1 (0 when there is none).
maxof() {
	sort -n "$1" 2> /dev/null | tail -1 | grep . || echo 0
}

# A job's command line that counts the jobs running at once: it makes the
# directory run.{#} in the job's directory, appends how many run.*
# directories exist to the file conc there, waits ${1:-0.5} s, removes
# its directory, and prints "{} $SSH_CONNECTION $SLURM_STEP_ID".  Every
# job counted is running (a job's directory is gone before it ends), so
# the largest number in conc never exceeds the jobs really running at
# once, whatever the timing.
# shellcheck disable=SC2016
COUNTING='mkdir run.{#} && ls -d run.* | wc -l >> conc; sleep %s; rmdir run.{#}; echo {} "$SSH_CONNECTION" "$SLURM_STEP_ID"'
counting() {
	# shellcheck disable=SC2059
	printf "$COUNTING" "${1:-0.5}"
}
