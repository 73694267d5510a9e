#!/usr/bin/env bats
# Exit status as GNU parallel: 0, the number of failed jobs up to 100, 101
# for more, 255 for usage errors; a job that cannot start is a failure.

load helper

@test "0 when every job succeeds" {
	run "$WSPX" true ::: 1 2 3
	[ "$status" -eq 0 ]
}

@test "the number of failed jobs, up to 100" {
	run "$WSPX" 'exit {}' ::: 0 1 2 0 3
	[ "$status" -eq 3 ]
	run sh -c 'seq 100 | "$WSPX" false'
	[ "$status" -eq 100 ]
}

@test "101 when more than 100 jobs failed" {
	run sh -c 'seq 150 | "$WSPX" false'
	[ "$status" -eq 101 ]
}

@test "a job killed by a signal counts as failed" {
	run "$WSPX" 'kill -9 $$; : {}' ::: 1
	[ "$status" -eq 1 ]
}

@test "a command that cannot start fails with a message naming its program alone" {
	run "$WSPX" -k ./no-such-program {} ::: a b
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "wspx: cannot run ./no-such-program: No such file or directory" ]
	[ "${lines[1]}" = "${lines[0]}" ]
	# (and the summary names each job by its command)
	[[ "$output" == *"wspx: job 1"*": could not start: No such file or directory: ./no-such-program a"* ]]
	[[ "$output" == *"wspx: job 2"*": could not start: No such file or directory: ./no-such-program b"* ]]
	touch notexec
	run "$WSPX" ./notexec ::: a
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = "wspx: cannot run ./notexec: Permission denied" ]
	mkdir adir
	run "$WSPX" ./adir/ ::: a
	[ "$status" -eq 1 ]
	[[ "${lines[0]}" == "wspx: cannot run ./adir/: "* ]]
}

@test "an executable script without #! runs with /bin/sh, as execvp does" {
	printf 'echo "hi $1"\n' > script
	chmod +x script
	run "$WSPX" -k ./script ::: 1 2
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf 'hi 1\nhi 2')" ]
	run env PATH="$PWD:$PATH" "$WSPX" script ::: 3
	[ "$output" = "hi 3" ]
}

@test "with -k, the messages of jobs that cannot start are in input order" {
	for i in 1 2 3; do
		run sh -c '"$WSPX" -k -j3 "./no-such-{}" ::: 1 2 3 4 5 6 2>&1'
		[ "$status" -eq 6 ]
		[ "$(printf '%s\n' "${lines[@]}" | grep '^wspx: cannot run' | sed 's/.*no-such-\([0-9]\).*/\1/' | tr -d '\n')" = 123456 ]
	done
}

@test "a command too long to run is named in short, with the reason" {
	python3 -c "print('q' * 300000)" > long
	run "$WSPX" -j1 printf '%.3s\n' :::: long
	[ "$status" -eq 1 ]
	[[ "${lines[0]}" == "wspx: cannot run printf"*"... (3000"*" bytes): Argument list too long" ]]
	[ "${#lines[0]}" -lt 400 ]
	# and the failure summary names it in short too
	[ "${lines[1]}" = "wspx: 1 job failed:" ]
	[[ "${lines[2]}" == "wspx: job 1, the first to fail: could not start: Argument list too long: printf"*"... (3000"*" bytes)" ]]
	[ "${#lines[@]}" -eq 3 ]
	[ "${#output}" -lt 800 ]
}

@test "255 for usage errors, with a message naming the option" {
	run "$WSPX" --no-such-option
	[ "$status" -eq 255 ]
	[[ "$output" == *"--no-such-option"* ]]
	run "$WSPX" -n
	[ "$status" -eq 255 ]
	[[ "$output" == *"-n"*"needs a value"* ]]
	run "$WSPX" --dry-run=yes
	[ "$status" -eq 255 ]
	for d in 3x inf nan 0x10 -1 1e3 100000 25h 1441m 86401s; do
		run "$WSPX" --term-timeout $d echo ::: a
		[ "$status" -eq 255 ]
		[[ "$output" == *"--term-timeout"* ]]
	done
	run "$WSPX" --term-timeout 100000ms --dry-run echo ::: a
	[ "$status" -eq 0 ]
}

@test "usage errors name the option as it was typed" {
	run "$WSPX" --jobs=abc echo ::: a
	[ "$status" -eq 255 ]
	[[ "$output" == "wspx: --jobs: 'abc' "* ]]
	run "$WSPX" -j abc echo ::: a
	[[ "$output" == "wspx: -j: 'abc' "* ]]
	run "$WSPX" --max-args=-1 echo ::: a
	[[ "$output" == "wspx: --max-args: '-1' "* ]]
	run "$WSPX" --delimiter ab echo ::: a
	[[ "$output" == "wspx: --delimiter: 'ab' "* ]]
	run "$WSPX" --colsep '(' echo ::: a
	[ "$status" -eq 255 ]
	[[ "$output" == *"--colsep: '(' is not a regular expression"* ]]
	run "$WSPX" --jobs
	[[ "$output" == "wspx: --jobs needs a value"* ]]
}

@test "an unknown letter in bundled short options is named with its word" {
	run "$WSPX" -k- echo ::: a
	[ "$status" -eq 255 ]
	[[ "$output" == "wspx: unknown option '-' in -k-"* ]]
	run "$WSPX" -y echo ::: a
	[[ "$output" == "wspx: unknown option -y"* ]]
}

@test "out-of-range numbers say what the limit is" {
	run "$WSPX" -j 65536 echo ::: a
	[ "$status" -eq 255 ]
	[[ "$output" == *"more than 65535"* ]]
	run "$WSPX" -n 99999999999999999999999 echo ::: a
	[ "$status" -eq 255 ]
	[[ "$output" == *"-n: '99999999999999999999999' is more than"* ]]
	run "$WSPX" --total 9223372036854775808 echo ::: a
	[ "$status" -eq 255 ]
	[[ "$output" == *"--total"*"is more than"* ]]
}

@test "an input file that cannot be opened is named with its option" {
	run "$WSPX" -a ./no-such-file echo
	[ "$status" -eq 255 ]
	[[ "$output" == "wspx: -a ./no-such-file: No such file"* ]]
	run "$WSPX" echo :::: ./no-such-file
	[ "$status" -eq 255 ]
	[[ "$output" == "wspx: :::: ./no-such-file: No such file"* ]]
	run "$WSPX" --arg-file '' echo
	[ "$status" -eq 255 ]
	[[ "$output" == *"--arg-file"*"empty"* ]]
}

@test "a stdout closed at start is a write error, not /dev/null" {
	run sh -c '"$WSPX" echo ::: a >&-'
	[ "$status" -eq 255 ]
	[[ "$output" == *"wspx: cannot write the output: Bad file descriptor"* ]]
	# with -u the job meets the closed stdout itself, and fails
	run sh -c '"$WSPX" -u echo ::: a >&-'
	[ "$status" -eq 1 ]
	[[ "$output" == *error* ]]	# as the shell or echo words it
	run sh -c '"$WSPX" --version >&-'
	[ "$status" -eq 255 ]
	# nothing written, nothing wrong; and no file took fd 1
	run sh -c '"$WSPX" -k "true {}; echo err >&2" ::: a b >&-'
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf 'err\nerr')" ]
}
