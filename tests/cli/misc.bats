#!/usr/bin/env bats
# --dry-run, -v, --version, --help.

load helper

@test "--dry-run prints the commands in input order and runs nothing" {
	run "$WSPX" -j4 --dry-run touch {}.made ::: a b c d e f
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf 'touch %s.made\n' a b c d e f)" ]
	[ "$(ls *.made 2>/dev/null | wc -l)" -eq 0 ]
}

@test "--dry-run shows the shell line with its quoting" {
	run "$WSPX" --dry-run 'echo {} | wc -c' ::: "it's"
	[ "$output" = "echo 'it'\\''s' | wc -c" ]
}

@test "-v prints each command to stderr as it starts" {
	"$WSPX" -v -k echo ::: a b > out 2> err
	[ "$(cat out)" = "$(printf 'a\nb')" ]
	[ "$(sort err)" = "$(printf 'echo a\necho b')" ]
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

@test "'wspx run FILE' (job graphs, not built yet) is an error, not an empty run" {
	run "$WSPX" run -j2 graph.yaml < /dev/null
	[ "$status" -eq 255 ]
	[[ "$output" == *"run: job graphs from a YAML file are not supported yet"* ]]
	printf '#!/bin/sh\necho ran "$@"\n' > run
	chmod +x run
	run env PATH="$PWD:$PATH" "$WSPX" -- run ::: 1
	[ "$output" = "ran 1" ]
	run "$WSPX" ./run ::: 2
	[ "$output" = "ran 2" ]
}
