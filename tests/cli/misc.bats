#!/usr/bin/env bats
# --dry-run, -v, -t, --version, --help.

load helper

@test "--dry-run prints the commands in input order and runs nothing" {
	run "$WSPX" -j4 --dry-run touch {}.made ::: a b c d e f
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf 'touch %s.made\n' a b c d e f)" ]
	[ "$(ls *.made 2>/dev/null | wc -l)" -eq 0 ]
}

@test "--dry-run shows a command as soon as its input line is read" {
	mkfifo in
	"$WSPX" --dry-run echo < in > out 3>&- &
	pid=$!
	exec 4> in
	echo a >&4
	waituntil grep -qx 'echo a' out
	echo b >&4
	waituntil grep -qx 'echo b' out
	exec 4>&-
	waitstatus $pid
	[ "$st" -eq 0 ]
	[ "$(cat out)" = "$(printf 'echo a\necho b')" ]
}

@test "--dry-run gives the jobs slot numbers in turn" {
	run "$WSPX" -j3 --dry-run echo {%} {#} ::: a b c d e
	[ "$output" = "$(printf 'echo %s %s\n' 1 1 2 2 3 3 1 4 2 5)" ]
}

@test "--dry-run shows the shell line with its quoting" {
	run "$WSPX" --dry-run 'echo {} | wc -c' ::: "it's"
	[ "$output" = "echo 'it'\\''s' | wc -c" ]
}

@test "-t and --verbose print each command to stderr as it starts" {
	"$WSPX" -t -k echo ::: a b > out 2> err
	[ "$(cat out)" = "$(printf 'a\nb')" ]
	[ "$(sort err)" = "$(printf 'echo a\necho b')" ]
	"$WSPX" --verbose -j1 --tag echo ::: a b > out 2> err
	[ "$(cat out)" = "$(printf 'a\ta\nb\tb')" ]
	[ "$(cat err)" = "$(printf 'echo a\necho b')" ]
	"$WSPX" -t --dry-run echo ::: a b > out 2> err
	[ "$(cat out)" = "$(printf 'echo a\necho b')" ]
	[ "$(sort err)" = "$(printf 'echo a\necho b')" ]
}

@test "-v prints each command on stdout, just before its output" {
	"$WSPX" -v -j1 echo ::: a b > out 2> err
	[ "$(cat out)" = "$(printf 'echo a\na\necho b\nb')" ]
	[ ! -s err ]
	run "$WSPX" -v -k -j4 echo ::: a b c d e f
	[ "$output" = "$(printf 'echo %s\n%s\n' a a b b c c d d e e f f)" ]
	"$WSPX" -v -k --tag 'echo o; echo e >&2' ::: a b > out 2> err
	printf 'a\techo o; echo e >&2 a\na\to\nb\techo o; echo e >&2 b\nb\to\n' |
	    cmp - out
	[ "$(cat err)" = "$(printf 'a\te a\nb\te b')" ]
	run "$WSPX" -v -u echo ::: a
	[ "$output" = "$(printf 'echo a\na')" ]
	run "$WSPX" -v --dry-run -k echo ::: a b
	[ "$output" = "$(printf 'echo a\necho b')" ]
	run "$WSPX" -vt -j1 echo ::: a
	[ "$output" = "$(printf 'echo a\necho a\na')" ]
}

@test "--version and --help" {
	run "$WSPX" --version
	[ "$status" -eq 0 ]
	[[ "$output" == "wspx "[0-9]* ]]
	run "$WSPX" --help
	[ "$status" -eq 0 ]
	[[ "$output" == *"usage: wspx"* ]]
	[[ "$output" == *"--keep-order"* ]]
	run "$WSPX" -h
	[ "$status" -eq 0 ]
}
