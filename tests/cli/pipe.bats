#!/usr/bin/env bats
# A reader that goes away: `wspx ... | head -1` stops wspx cleanly; any
# other failure to write the output is reported, with status 255.

load helper

@test "| head -1 stops wspx quickly, without error messages" {
	t0=$(date +%s)
	seq 100000 | "$WSPX" -j4 'echo {}; echo {} >> ran' 2> err | head -1 > first
	t=$(($(date +%s) - t0))
	[ "$(wc -l < first)" -eq 1 ]
	[ ! -s err ]
	[ "$(wc -l < ran)" -lt 50000 ]
	[ "$t" -lt 30 ]
}

@test "wspx dies of SIGPIPE when its reader goes away" {
	run bash -c 'seq 100000 | "$WSPX" -j2 echo | head -1 > /dev/null; echo "${PIPESTATUS[1]}"'
	[ "$output" = 141 ]
}

@test "output that cannot be written is an error, in every output mode" {
	for mode in --group -k --line-buffer --dry-run; do
		run sh -c '"$WSPX" '"$mode"' echo ::: a b c > /dev/full'
		[ "$status" -eq 255 ]
		[[ "$output" == "wspx: cannot write the output: No space left on device" ]]
	done
}

@test "a failed write starts no more jobs" {
	run sh -c 'seq 1000 | "$WSPX" -j2 "echo {}; echo {} >> ran" > /dev/full'
	[ "$status" -eq 255 ]
	[ "$(wc -l < ran)" -lt 500 ]
}

@test "a reader that goes away stops jobs that never end, as they print" {
	# (grouped output is printed only when a job ends: a job that never
	# ends meets no closed pipe)
	for mode in --line-buffer -k "-k --line-buffer"; do
		run timeout 20 bash -c '"$WSPX" '"$mode"' yes ::: 1 | head -1; echo "${PIPESTATUS[0]}"'
		[ "$output" = "$(printf '1\n141')" ]
	done
}

@test "--events - stops the run when its reader goes away" {
	run timeout 20 bash -c '"$WSPX" --events - -j2 "sleep 0.3; echo {} >> ran" ::: $(seq 20) 2>err | head -1 >/dev/null; echo "${PIPESTATUS[0]}"'
	[ "$output" = 141 ]
	[ ! -e ran ] || [ "$(wc -l < ran)" -lt 10 ]
	[ ! -s err ]
}

@test "a closed stderr costs no stdout" {
	run sh -c '"$WSPX" -k -j1 "echo out{}; echo err{} >&2" ::: a b c 2>&-'
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf 'outa\noutb\noutc')" ]
}
