#!/usr/bin/env bats
# SIGUSR1 lists the running jobs on stderr and disturbs nothing.

load helper

@test "SIGUSR1 lists the running jobs: seq, command, runtime" {
	"$WSPX" -j2 -k --events ev \
	    'touch started.{}; while [ ! -e go ]; do sleep 0.01; done; echo {}' \
	    ::: a b c > out 2> err 3>&- &
	pid=$!
	# a start event is written once the job is in the running table
	n=0
	until [ "$(grep -c '"start"' ev 2>/dev/null)" = 2 ]; do
		n=$((n + 1)); [ "$n" -lt 3000 ]; sleep 0.01
	done
	kill -USR1 $pid
	n=0
	until [ "$(grep -c 'running:' err)" -ge 2 ]; do
		n=$((n + 1)); [ "$n" -lt 1000 ]; sleep 0.01
	done
	grep -q '^wspx: running: seq 1, slot [12], [0-9.]*s: touch started.a; while' err
	grep -q '^wspx: running: seq 2, slot [12], [0-9.]*s: touch started.b; while' err
	[ "$(wc -l < err)" -eq 2 ]
	touch go
	waitstatus $pid
	[ "$st" -eq 0 ]
	[ "$(cat out)" = "$(printf 'a\nb\nc')" ]
	[ "$(wc -l < err)" -eq 2 ]
}

@test "SIGUSR1 with no job running says so" {
	mkfifo in
	"$WSPX" --events ev echo < in > out 2> err 3>&- &
	pid=$!
	exec 7> in
	echo x >&7
	# the end event is written once the job has left the running table
	n=0
	until grep -q '"end"' ev 2>/dev/null; do
		n=$((n + 1)); [ "$n" -lt 1000 ]; sleep 0.01
	done
	kill -USR1 $pid
	n=0
	until [ -s err ]; do n=$((n + 1)); [ "$n" -lt 1000 ]; sleep 0.01; done
	exec 7>&-
	waitstatus $pid
	[ "$st" -eq 0 ]
	[ "$(cat err)" = "wspx: running: no job" ]
}
