#!/bin/sh
# A private sshd on 127.0.0.1 for the remote tests and benchmarks:
#
#	tests/services/sshd.sh start DIR PORT
#	tests/services/sshd.sh stop DIR
#
# It has keys and a configuration of its own, all in DIR, so that it
# needs nothing of this machine's ssh setup and leaves that alone.
# start writes there the host key, sshd_config, a client key that root
# logs in with (one DIR already has is kept, so that two sshds may share
# it) and ssh_config, the client's settings: `ssh -F DIR/ssh_config -p
# PORT root@127.0.0.1` logs in.  It succeeds once that works; otherwise it
# stops what it started and fails.  The sshd's pid is in DIR/sshd.pid, its
# log in DIR/sshd.log.  stop ends the sshd and the connections it still
# serves; nothing running is not an error.

set -u
# sshd is in /usr/sbin, and must be started by its full path (it
# starts itself again for each connection).
PATH=$PATH:/usr/sbin

usage() {
	echo "usage: $0 start DIR PORT | stop DIR" >&2
	exit 2
}

# The pids of DIR's sshd: the one whose command line names its
# sshd_config (the pid file alone could name a process that has since
# died and whose pid went to another).
listener() {
	pgrep -f -- "$dir/sshd_config"
}

stop() {
	pids=$(listener)
	[ -n "$pids" ] || return 0
	# Its children serve the connections still open; a ControlMaster
	# left open would keep its connection, and them, alive.
	for p in $pids; do
		pids="$pids $(pgrep -P "$p")"
	done
	# shellcheck disable=SC2086
	kill -TERM $pids 2> /dev/null
	n=0
	while [ -n "$(listener)" ] && [ "$n" -lt 50 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	# shellcheck disable=SC2086
	kill -KILL $pids 2> /dev/null
	rm -f "$dir/sshd.pid"
	return 0
}

fail() {
	echo "sshd.sh: $*" >&2
	stop
	exit 1
}

start() {
	port=$1
	for p in sshd ssh ssh-keygen pgrep; do
		command -v "$p" > /dev/null ||
		    fail "$p is not installed (make check installs it)"
	done
	mkdir -p "$dir" || fail "cannot make $dir"
	# sshd wants this directory, which only the system's sshd service
	# makes.
	mkdir -p /run/sshd || fail "cannot make /run/sshd"
	for key in host_key client_key; do
		[ -f "$dir/$key" ] ||
		    ssh-keygen -q -t ed25519 -N '' -f "$dir/$key" ||
		    fail "cannot make $dir/$key"
	done
	cat > "$dir/sshd_config" << EOF
ListenAddress 127.0.0.1:$port
HostKey $dir/host_key
AuthorizedKeysFile $dir/client_key.pub
PidFile $dir/sshd.pid
# DIR is often below /tmp, which everyone may write to: StrictModes would
# refuse the key there.
StrictModes no
# For the SetEnv of ssh_config.
AcceptEnv SHLVL
EOF
	cat > "$dir/ssh_config" << EOF
IdentityFile $dir/client_key
# Only this key, even if an ssh-agent offers others.
IdentitiesOnly yes
# No password prompt: a login that fails fails at once.
BatchMode yes
# The host key is new each time: not checked, not remembered, and ssh's
# warning about it kept out of the output the tests read.
StrictHostKeyChecking no
UserKnownHostsFile /dev/null
LogLevel ERROR
# bash, root's shell, runs each command sshd gives it, and reads ~/.bashrc
# first unless SHLVL is set: that can take long (a pyenv init, on a busy
# machine, seconds) and upset the timings of the tests and benchmarks.
SetEnv SHLVL=1
EOF
	rm -f "$dir/sshd.pid"
	"$(command -v sshd)" -f "$dir/sshd_config" -E "$dir/sshd.log" ||
	    fail "sshd did not start: $(tail -n 3 "$dir/sshd.log")"
	# sshd writes its pid file once it listens, and exits if it cannot
	# (the port is taken).
	n=0
	until [ -s "$dir/sshd.pid" ]; do
		if [ -z "$(listener)" ] || [ "$n" -ge 100 ]; then
			fail "sshd did not start: $(tail -n 3 "$dir/sshd.log")"
		fi
		sleep 0.1
		n=$((n + 1))
	done
	ssh -F "$dir/ssh_config" -p "$port" root@127.0.0.1 true ||
	    fail "cannot log in to the sshd on port $port; see $dir/sshd.log"
}

[ $# -ge 2 ] || usage
# The paths go into the configurations, where they must be absolute.
case $2 in
/*) dir=$2 ;;
*) dir=$PWD/$2 ;;
esac
case $1 in
start) [ $# -eq 3 ] || usage; start "$3" ;;
stop) [ $# -eq 2 ] || usage; stop ;;
*) usage ;;
esac
