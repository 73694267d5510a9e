#!/usr/bin/env bats
# Signals: the first SIGINT, SIGTERM or SIGHUP starts nothing new and sends
# that signal exactly once to each running job's process group; SIGKILL
# follows after --term-timeout, or at once on a second signal; wspx then
# exits 128+signal, and no job, grandchild or zombie is left.

load helper

# A job that logs each INT or TERM it gets to sig.$1, starts a grandchild in
# its group (a background sleep, which ignores SIGINT as sh sets it up),
# and waits.  With $2 = ignore it ignores INT and TERM itself.
mkjob() {
	cat > job <<'SH'
#!/bin/sh
echo $$ >> pids
if [ "$2" = ignore ]; then
	trap 'echo INT >> sig.$1' INT
	trap 'echo TERM >> sig.$1' TERM
else
	trap 'echo INT >> sig.$1; exit 1' INT
	trap 'echo TERM >> sig.$1; exit 1' TERM
fi
sleep 1000 &
echo $! >> pids
touch started.$1
while :; do wait; done
SH
	chmod +x job
}

# Start wspx in a session of its own (so that its process group can get
# the terminal's signal), with the given arguments; sets $pid.  A command
# that a script starts with & has SIGINT and SIGQUIT ignored, and wspx
# keeps them so: env gives them their default actions back first.
start() {
	setsid env --default-signal "$WSPX" "$@" > out 2> err 3>&- &
	pid=$!
}

# A failed test must not leave wspx or its jobs behind, stopped or not.
teardown() {
	local f
	[ -z "${BATS_TEST_COMPLETED:-}" ] && [ -n "${pid:-}" ] || return 0
	kill -KILL "$pid" 2>/dev/null || true
	for f in pid.*; do
		[ -e "$f" ] && kill -KILL -- "-$(cat "$f")" 2>/dev/null
	done
	return 0
}

@test "the terminal's SIGINT reaches each job once, through wspx" {
	mkjob
	start -j3 --term-timeout 10s ./job {} ::: 1 2 3
	waitcount 3 'started.*'
	kill -INT -- -$pid	# the whole foreground group, as Ctrl-C does
	waitstatus $pid
	[ "$st" -eq 130 ]
	for j in 1 2 3; do
		[ "$(cat sig.$j)" = INT ]
	done
	allgone pids
}

@test "SIGTERM to wspx: jobs get SIGTERM once, wspx exits 143" {
	mkjob
	start -j2 --term-timeout 10s ./job {} ::: 1 2
	waitcount 2 'started.*'
	kill -TERM $pid
	waitstatus $pid
	[ "$st" -eq 143 ]
	[ "$(cat sig.1)" = TERM ]
	[ "$(cat sig.2)" = TERM ]
	allgone pids
}

@test "SIGHUP: exit 129" {
	mkjob
	start -j1 --term-timeout 10s ./job {} ::: 1
	waitfile started.1
	kill -HUP $pid
	waitstatus $pid
	[ "$st" -eq 129 ]
	allgone pids
}

@test "jobs that ignore the signal get SIGKILL after --term-timeout" {
	mkjob
	start -j2 --term-timeout 0.5s ./job {} ignore ::: 1 2
	waitcount 2 'started.*'
	t0=$(date +%s%N)
	kill -INT $pid
	waitstatus $pid
	t=$((($(date +%s%N) - t0) / 1000000))
	[ "$st" -eq 130 ]
	[ "$t" -ge 400 ]
	[ "$t" -lt 5000 ]
	[ "$(cat sig.1)" = INT ]
	[ "$(cat sig.2)" = INT ]
	allgone pids
}

@test "a second SIGINT kills at once" {
	mkjob
	start -j2 --term-timeout 60s ./job {} ignore ::: 1 2
	waitcount 2 'started.*'
	kill -INT $pid
	until [ -s sig.1 ] && [ -s sig.2 ]; do sleep 0.01; done
	t0=$(date +%s%N)
	kill -INT $pid
	waitstatus $pid
	t=$((($(date +%s%N) - t0) / 1000000))
	[ "$st" -eq 130 ]
	[ "$t" -lt 5000 ]
	[ "$(cat sig.1)" = INT ]	# one forwarded signal, then SIGKILL
	allgone pids
}

@test "no job starts after the signal" {
	mkjob
	start -j1 --term-timeout 10s ./job {} ::: 1 2 3 4 5
	waitfile started.1
	kill -TERM $pid
	waitstatus $pid
	[ "$st" -eq 143 ]
	[ "$(ls started.* | wc -l)" -eq 1 ]
	allgone pids
}

@test "a signal while the input is still being read stops the reading" {
	mkjob
	mkfifo in
	setsid env --default-signal "$WSPX" -j1 --term-timeout 10s ./job {} \
	    < in > out 2> err 3>&- &
	pid=$!
	exec 7> in
	echo 1 >&7
	waitfile started.1
	kill -INT $pid
	waitstatus $pid
	exec 7>&-
	[ "$st" -eq 130 ]
	allgone pids
}

@test "SIGQUIT stops the run like SIGINT: exit 131" {
	mkjob
	start -j1 --term-timeout 10s ./job {} ::: 1
	waitfile started.1
	kill -QUIT $pid
	waitstatus $pid
	[ "$st" -eq 131 ]
	allgone pids
}

# The state letter (R, S, T...) of process $1.
pstate() {
	ps -o stat= -p "$1" | cut -c1
}

procstopped() {
	[ "$(pstate "$1")" = T ]
}

# Every process whose pid is listed in the files $@ is stopped (T).
allstopped() {
	local p
	for p in $(cat "$@"); do
		[ "$(pstate "$p")" = T ] || return 1
	done
}

# None of them is stopped.
nonestopped() {
	local p
	for p in $(cat "$@"); do
		[ "$(pstate "$p")" != T ] || return 1
	done
}

@test "Ctrl-Z stops the jobs with wspx, and they go on with it" {
	# Once ready, a job forks nothing more (a stop that caught its shell
	# inside a fork would leave it in D, not T): it waits for a sleep.
	cat > loop <<'SH'
#!/bin/sh
sleep 1000 &
echo $! > child.$1
echo $$ > pid.$1
touch ready.$1
wait
SH
	chmod +x loop
	start -j2 ./loop {} ::: 1 2
	waitfile ready.1 && waitfile ready.2
	kill -TSTP $pid
	waituntil procstopped $pid
	waituntil allstopped pid.1 pid.2 child.1 child.2
	kill -CONT $pid
	waituntil nonestopped pid.1 pid.2 child.1 child.2
	kill $(cat child.1 child.2)
	waitstatus $pid
	[ "$st" -eq 0 ]
}

@test "a stop ends even when the output's reader takes nothing" {
	# A reader that holds the pipe open and never reads, as a paused
	# pager: wspx's writes block once the pipe is full.
	mkfifo fifo
	sleep 120 < fifo &
	reader=$!
	setsid env --default-signal "$WSPX" --line-buffer -j2 \
	    'echo $$ >> pids; exec yes {}' \
	    ::: 1 2 > fifo 2> err 3>&- &
	pid=$!
	waitcount 1 pids
	sleep 0.5
	kill -INT $pid
	sleep 0.2
	kill -INT $pid
	waitstatus $pid
	kill $reader
	[ "$st" -eq 130 ]
	allgone pids
}

# Whether signal $2 is ignored in the SigIgn line of /proc/PID/status that
# is in file $1 (as a job printed it).
ignores() {
	local mask
	mask=$(sed -n 's/^SigIgn:[[:space:]]*//p' "$1")
	[ -n "$mask" ] || { echo "no SigIgn line in $1" >&2; return 1; }
	[ $(((16#$mask >> ($2 - 1)) & 1)) -eq 1 ]
}

# ./job: a job that says it started, waits for the file go, then saves
# its SigIgn line in ign and prints done.
waitingjob() {
	cat > job <<'SH'
#!/bin/sh
touch started
while [ ! -e go ]; do sleep 0.01; done
grep SigIgn /proc/self/status > ign
echo done
SH
	chmod +x job
}

@test "under nohup, SIGHUP leaves wspx and its jobs running, and they keep it ignored" {
	waitingjob
	nohup "$WSPX" ./job ::: 1 > out 2> err 3>&- &
	pid=$!
	waitfile started
	kill -HUP $pid
	kill -HUP $pid
	touch go
	waitstatus $pid
	[ "$st" -eq 0 ]
	[ "$(cat out)" = done ]
	ignores ign 1			# SIGHUP
}

@test "a background wspx of a script ignores SIGINT and SIGQUIT, and so do its jobs" {
	waitingjob
	# A non-interactive shell starts a background job with SIGINT and
	# SIGQUIT ignored.
	sh -c '"$WSPX" ./job ::: 1 > out 2> err & echo $! > wpid; wait' 3>&- &
	shpid=$!
	waitfile started
	pid=$(cat wpid)
	kill -INT $pid
	kill -QUIT $pid
	touch go
	waitstatus $shpid
	[ "$(cat out)" = done ]
	ignores ign 2			# SIGINT
	ignores ign 3			# SIGQUIT
	! ignores ign 1			# SIGHUP: not ignored at start
}

@test "jobs get the SIGPIPE that wspx was started with, not wspx's own" {
	# wspx ignores SIGPIPE itself; a job gets the default back...
	"$WSPX" grep SigIgn ::: /proc/self/status > ign
	! ignores ign 13 || false
	run sh -c '"$WSPX" "yes | head -1; : {}" ::: 1'
	[ "$status" -eq 0 ]
	[ "$output" = y ]
	# ...unless it was ignored when wspx started.
	sh -c 'trap "" PIPE; exec "$WSPX" grep SigIgn ::: /proc/self/status' \
	    > ign
	ignores ign 13
	# and the signal mask it was started with, not its threads' own
	"$WSPX" grep SigBlk ::: /proc/self/status > blk
	[ "$(cat blk)" = "$(grep SigBlk /proc/self/status)" ]
}

@test "started with SIGCHLD ignored, wspx still sees its jobs' statuses, and its jobs start with SIGCHLD at its default" {
	# (ignored, the kernel would reap the jobs itself: every job would
	# seem to have succeeded)
	run perl -e '$SIG{CHLD} = "IGNORE"; exec @ARGV or exit 99' -- \
	    "$WSPX" false ::: 1
	[ "$status" -eq 1 ]
	run perl -e '$SIG{CHLD} = "IGNORE"; exec @ARGV or exit 99' -- \
	    "$WSPX" 'exit {}' ::: 3
	[ "$status" -eq 1 ]
	[[ "$output" == *"exit status 3"* ]]
	perl -e '$SIG{CHLD} = "IGNORE"; exec @ARGV or exit 99' -- \
	    "$WSPX" grep SigIgn ::: /proc/self/status > ign
	! ignores ign 17 || false
}

# Whether wspx ($pid) waits in a read or a poll of its input.
readswait() {
	grep -Eq 'pipe_read|poll' "/proc/$pid/wchan" 2> /dev/null
}

@test "Ctrl-C while wspx reads --header's names, the input {##} counts, or a linked stdin: it exits 130 at once" {
	local args
	mkfifo in
	for args in '--header : echo {a}' '--plus echo {##}' \
	    '--link echo {1} {2} :::: - ::: x'; do
		# (word splitting wanted: the arguments of one run)
		# shellcheck disable=SC2086
		setsid env --default-signal "$WSPX" $args < in > out 2> err \
		    3>&- &
		pid=$!
		exec 7> in
		echo a >&7
		# (the read has begun: a signal sent before would kill wspx
		# by its default action, proving nothing)
		waituntil readswait
		kill -INT $pid
		waituntil eval '! kill -0 $pid 2> /dev/null'
		exec 7>&-
		waitstatus $pid
		echo "$args: status $st" >&2
		[ "$st" -eq 130 ]
		[ ! -s out ]
	done
}
