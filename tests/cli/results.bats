#!/usr/bin/env bats
# --results DIR: DIR/SEQ/stdout, stderr and exitval, written by the job
# itself, never through a symbolic link planted in DIR or under it.

load helper

@test "--results: each job's stdout, stderr and exit value in DIR/SEQ/, nothing printed" {
	run "$WSPX" -j2 --results out 'echo out {}; echo err {} >&2; exit {}' ::: 0 3
	[ "$status" -eq 1 ]
	# nothing of the jobs' output is printed (GNU parallel prints none)
	[[ "$output" != *"out 0"* && "$output" != *"err 0"* ]]
	[ "$(cat out/1/stdout)" = "out 0" ]
	[ "$(cat out/1/stderr)" = "err 0" ]
	[ "$(cat out/1/exitval)" = 0 ]
	[ "$(cat out/2/stdout)" = "out 3" ]
	[ "$(cat out/2/stderr)" = "err 3" ]
	[ "$(cat out/2/exitval)" = 3 ]
	[ "$(ls out | sort | tr '\n' ' ')" = "1 2 " ]
}

@test "--results: exitval is what \$? would be: 128+N for a signal, 127 for no such command" {
	run "$WSPX" -j1 --results out ::: 'kill -SEGV $$' './no-such-command'
	[ "$status" -eq 2 ]
	[ "$(cat out/1/exitval)" = 139 ]
	[ "$(cat out/2/exitval)" = 127 ]
}

@test "--results creates DIR and its parents, with the user's umask" {
	run sh -c 'umask 027; "$WSPX" --results a/b/c echo hi ::: x'
	[ "$status" -eq 0 ]
	[ "$(cat a/b/c/1/stdout)" = "hi x" ]
	[ "$(stat -c %a a/b/c)" = 750 ]
	[ "$(stat -c %a a/b/c/1)" = 750 ]
	[ "$(stat -c %a a/b/c/1/stdout)" = 640 ]
	[ "$(stat -c %a a/b/c/1/exitval)" = 640 ]
}

@test "--results: a file planted as a symlink is never followed: the run stops, naming it" {
	mkdir -p out/2 victimdir
	echo precious > victim
	ln -s "$PWD/victim" out/2/stdout
	ln -s "$PWD/victimdir" out/3
	run "$WSPX" -j1 --results out 'echo {}; sleep 0.1' ::: $(seq 1 50)
	[ "$status" -eq 255 ]
	[[ "$output" == *"wspx: --results: out/2/stdout: a symbolic link (not followed)"* ]]
	[ "$(cat victim)" = precious ]
	[ -z "$(ls victimdir)" ]
	[ "$(cat out/1/stdout)" = 1 ]
	# the run stopped there (a job or two may have started meanwhile)
	[ "$(ls out | wc -l)" -lt 10 ]
}

@test "--results: a planted symlink to a directory, a hard link and a FIFO are refused" {
	mkdir victimdir
	mkdir out && ln -s "$PWD/victimdir" out/1
	run "$WSPX" --results out echo ::: a
	[ "$status" -eq 255 ]
	[[ "$output" == *"out/1: a symbolic link (not followed)"* ]]
	[ -z "$(ls victimdir)" ]
	rm -rf out && mkdir -p out/1 && echo precious > victim
	ln victim out/1/stderr
	run "$WSPX" --results out echo ::: a
	[ "$status" -eq 255 ]
	[[ "$output" == *"out/1/stderr: has another hard link (not written)"* ]]
	[ "$(cat victim)" = precious ]
	rm -rf out && mkdir -p out/1 && mkfifo out/1/stdout
	run timeout 10 "$WSPX" --results out echo ::: a
	[ "$status" -eq 255 ]
	[[ "$output" == *"out/1/stdout: not a regular file"* ]]
}

@test "--results DIR may itself be a symlink: the user named it" {
	mkdir real
	ln -s real link
	run "$WSPX" --results link echo ::: a
	[ "$status" -eq 0 ]
	[ "$(cat real/1/stdout)" = a ]
}

@test "--results: a retried job's files hold its last attempt; the joblog counts the stdout file" {
	run "$WSPX" --retries 2 --joblog log --results out 'echo try >> n; echo out$(wc -l < n); [ $(wc -l < n) -ge 2 ] # {}' ::: a
	[ "$status" -eq 0 ]
	[ "$(cat out/1/stdout)" = out2 ]
	[ "$(cat out/1/exitval)" = 0 ]
	# Receive of the last row: the 5 bytes of "out2\n"
	[ "$(tail -n 1 log | cut -f 6)" = 5 ]
}

@test "--results: the old files of a rerun are replaced, not added to" {
	"$WSPX" --results out 'echo a long first line # {}' ::: x
	"$WSPX" --results out 'echo b # {}' ::: x
	[ "$(cat out/1/stdout)" = b ]
}

@test "--results: table files and replacement strings are refused, naming the option" {
	for v in out.csv out.tsv out.json 'out/{}'; do
		run "$WSPX" --results "$v" echo ::: a
		[ "$status" -eq 255 ]
		[[ "$output" == *"--results: '$v'"*"not supported"* ]]
	done
	[ ! -e out.csv ] && [ ! -e out ]
}

@test "--results in a dry run writes nothing" {
	run "$WSPX" --dry-run --results out echo ::: a
	[ "$status" -eq 0 ]
	[ "$output" = "echo a" ]
	[ ! -e out/1 ]
}

@test "--results: jobs cancelled before they start touch no file (and not wspx's stdin)" {
	# (a job cancelled in its slot once had no files open, and its end
	# wrote an exitval through, then closed, fds 0, 0 and 0)
	run sh -c 'seq 1 200 | "$WSPX" -j1 --results out --halt soon,fail=1 "exit 1 # {}" 2>&1'
	[ "$status" -eq 1 ]
	[[ "$output" != *"--results"* ]]
	[[ "$output" == *"wspx: 1 job failed; "*" cancelled by --halt soon,fail=1:"* ]]
	[ "$(ls out)" = 1 ]
}
