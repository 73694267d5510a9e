#!/usr/bin/env bats
# Off a terminal: nothing but the jobs' output by default; --progress
# prints plain lines, --total gives them a total before the input ends.

load helper

@test "off a terminal nothing but the jobs' output appears by default" {
	run "$WSPX" -j2 'echo {}; echo e{} >&2' ::: a b c
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | sort)" = "$(printf 'a\nb\nc\nea\neb\nec')" ]
	# even with TERM set and a slow job, as under CI
	TERM=xterm "$WSPX" 'sleep 0.5; echo {}' ::: x > out 2> err
	[ "$(cat out)" = x ]
	[ ! -s err ]
}

@test "--progress prints plain lines to stderr, no carriage return or escape" {
	seq 8 | "$WSPX" -j2 --progress-interval 0.1 'sleep 0.1; echo {}' \
	    > out 2> err
	[ "$(sort -n out)" = "$(seq 8)" ]
	[ "$(grep -c '^wspx ' err)" -ge 3 ]
	[ "$(tr -d -c '\r\033' < err | wc -c)" -eq 0 ]
	# the last line is the final count
	tail -1 err | grep -q '^wspx 8/8 100% | 0 running, 0 queued, 0 failed'
	# done, running, queued, failed, rate, elapsed, ETA on every line
	[ "$(grep -c -v -E '^wspx [0-9]+/([0-9]+ [0-9]+%|\?) \| [0-9]+ running, [0-9]+ queued, [0-9]+ failed \| [0-9.]+/s \| [0-9.:]+s?, ETA ([0-9.:]+s?|\?)$' err)" -eq 0 ]
}

@test "--progress: the total is ? while input streams, known at its end" {
	mkfifo in
	"$WSPX" --progress-interval 0.1 echo < in > out 2> err 3>&- &
	pid=$!
	exec 7> in
	echo 1 >&7
	while ! grep -q '^wspx 1/?' err; do sleep 0.05; done
	echo 2 >&7
	exec 7>&-
	waitstatus $pid
	[ "$st" -eq 0 ]
	tail -1 err | grep -q '^wspx 2/2 100%'
}

@test "--total gives the total and an ETA before the input ends" {
	mkfifo in
	"$WSPX" --total 4 --progress-interval 0.1 echo < in > out 2> err 3>&- &
	pid=$!
	exec 7> in
	echo 1 >&7
	while ! grep -q '^wspx 1/4 25% .*ETA [0-9]' err; do sleep 0.05; done
	printf '2\n3\n4\n' >&7
	exec 7>&-
	waitstatus $pid
	[ "$st" -eq 0 ]
	tail -1 err | grep -q '^wspx 4/4 100%'
}

@test "--progress default interval is a few seconds; bad values are errors" {
	"$WSPX" --progress 'sleep 0.3' ::: 1 > out 2> err
	# a short run: only the final line
	[ "$(wc -l < err)" -eq 1 ]
	run "$WSPX" --progress-interval 0 echo ::: a
	[ "$status" -eq 255 ]
	[[ "$output" == *"--progress-interval"* ]]
	run "$WSPX" --total -3 echo ::: a
	[ "$status" -eq 255 ]
	[[ "$output" == *"--total"* ]]
}
