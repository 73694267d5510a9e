#!/usr/bin/env bats
# The job's environment: WSPX_SEQ and WSPX_SLOT, and GNU parallel's names.

load helper

@test "WSPX_SEQ, WSPX_SLOT, PARALLEL_SEQ, PARALLEL_JOBSLOT" {
	run "$WSPX" -j2 -k 'echo $WSPX_SEQ $PARALLEL_SEQ $WSPX_SLOT $PARALLEL_JOBSLOT {%}; : {}' ::: a b c
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 3 ]
	for i in 0 1 2; do
		set -- ${lines[$i]}
		[ "$1" -eq $((i + 1)) ]
		[ "$2" -eq $((i + 1)) ]
		[ "$3" = "$5" ]
		[ "$4" = "$5" ]
	done
}

@test "an outer wspx's variables are replaced, not duplicated" {
	run env WSPX_SEQ=99 WSPX_SLOT=99 "$WSPX" -q sh -c 'env | grep -c "^WSPX_SEQ="' ::: x
	[ "$output" = 1 ]
	run env WSPX_SEQ=99 "$WSPX" 'echo $WSPX_SEQ; : {}' ::: x
	[ "$output" = 1 ]
}

@test "the rest of the environment is passed on" {
	run env FOO=bar "$WSPX" 'echo $FOO; : {}' ::: x
	[ "$output" = bar ]
}

@test "jobs get /dev/null as stdin, not wspx's input" {
	run sh -c 'printf "a\nb\n" | "$WSPX" -k -q sh -c "cat; echo \$0"'
	[ "$output" = "$(printf 'a\nb')" ]
}
