#!/usr/bin/env bats
# Every error of a job file, once, clearly, at its place (wspx(5),
# "Errors"); YAML's core schema for booleans, numbers, nulls and tags.

load helper

@test "after a duplicate key, an unknown alias or a tag, wspx check still reports every other error" {
	cat > jobs.yaml <<'Y'
jobs:
  t: {run: echo, run: x}
  u: {needs: nope, run: *nothere}
  v: {run: !!python/object x, retries: many}
Y
	run "$WSPX" check jobs.yaml
	echo "$output"
	[ "$status" -eq 255 ]
	[[ "$output" == *"jobs.yaml:2:18: duplicate key 'run'"* ]]
	[[ "$output" == *"jobs.yaml:3:14: needs 'nope', which is not a job of the file"* ]]
	[[ "$output" == *"jobs.yaml:3:25: unknown alias '*nothere'"* ]]
	[[ "$output" == *"jobs.yaml:4:12: the tag !!python/object is not one of YAML's core tags"* ]]
	[[ "$output" == *"jobs.yaml:4:40: retries needs a whole number"* ]]
}

@test "a tag other than YAML's core ones is refused; the core ones are taken" {
	printf 'jobs:\n  a: {run: !custom x}\n' > jobs.yaml
	run "$WSPX" check jobs.yaml
	[ "$status" -eq 255 ]
	[[ "$output" == *"jobs.yaml:2:12: the tag !custom is not one of YAML's core tags"* ]]
	printf 'jobs:\n  a: {run: !!str x, retries: !!int 2, continue-on-error: !!bool true}\n' > jobs.yaml
	run "$WSPX" check jobs.yaml
	[ "$status" -eq 0 ]
}

@test "needs: [[t]] is one error, about the list" {
	printf 'jobs:\n  t: {run: "true"}\n  u: {needs: [[t]], run: "true"}\n' > jobs.yaml
	run "$WSPX" check jobs.yaml
	[ "$status" -eq 255 ]
	[ "$output" = "jobs.yaml:3:15: each item of needs needs to be a string, not a list" ]
}

@test "a NUL in a key or a value is an error at its place, not a string cut short" {
	printf 'jobs:\n  "a\\0b": {run: "true"}\n  c: {run: "echo x\\0y"}\n' > jobs.yaml
	run "$WSPX" check jobs.yaml
	echo "$output"
	[ "$status" -eq 255 ]
	[[ "$output" == *"jobs.yaml:2:3: a NUL character in a string"* ]]
	[[ "$output" == *"jobs.yaml:3:12: a NUL character in a string"* ]]
}

@test "a tab that indents says that YAML indents with spaces" {
	printf 'jobs:\n\ta: {run: "true"}\n' > jobs.yaml
	run "$WSPX" check jobs.yaml
	[ "$status" -eq 255 ]
	[ "$output" = "jobs.yaml:2:1: a tab: YAML indents with spaces only" ]
}

@test "an if: nested past its limit names the limit; a long value is cut in the message" {
	local deep
	deep=$(printf '%.0s(' $(seq 70))true$(printf '%.0s)' $(seq 70))
	printf 'jobs:\n  a: {run: "true", if: "%s"}\n' "$deep" > jobs.yaml
	run "$WSPX" check jobs.yaml
	[ "$status" -eq 255 ]
	[ "$output" = "jobs.yaml:2:24: if: parentheses and ! nest deeper than 64" ]
	printf 'jobs:\n  a: {run: "true", needs: %s}\n' "$(head -c 10000 /dev/zero | tr '\0' n)" > jobs.yaml
	run "$WSPX" check jobs.yaml
	[ "$status" -eq 255 ]
	[ "${#output}" -lt 600 ]
	[[ "$output" == *"bytes)..."*"', which is not a job of the file" ]]
}

@test "a cycle of 100,000 jobs is reported on one readable line" {
	python3 -c "
n = 100000
print('jobs:')
for i in range(n):
    print('  j%d: {needs: j%d, run: \"true\"}' % (i, (i + 1) % n))" > jobs.yaml
	run timeout 20 "$WSPX" check jobs.yaml
	[ "$status" -eq 255 ]
	[ "${#output}" -lt 600 ]
	[[ "$output" == *"a cycle of needs: j0 -> j1 -> j2 -> j3 -> ... 99992 more ... -> j99996 -> j99997 -> j99998 -> j99999 -> j0" ]]
}

@test "an expression's error points at its \${{, in a line and in a block" {
	cat > jobs.yaml <<'Y'
jobs:
  a: {run: "echo hi ${{ matrix.y }}"}
  b:
    matrix: {x: ["1"]}
    run: |
      echo one
      echo $(( ${{ matrix.x }} ))
Y
	run "$WSPX" check jobs.yaml
	echo "$output"
	[ "$status" -eq 255 ]
	[[ "$output" == *"jobs.yaml:2:21: matrix.y: job 'a' has no matrix key 'y'"* ]]
	[[ "$output" == *"jobs.yaml:7:16: '\${{ matrix.x }}' stands in arithmetic"* ]]
}

@test "booleans, numbers and nulls as YAML's core schema has them" {
	cat > jobs.yaml <<'Y'
env: {A: "1", KEEP: "k"}
jobs:
  t: {continue-on-error: True, run: "exit 1"}
  u: {continue-on-error: FALSE, retries: "0", run: "true"}
  v: {env: {A: ~, B: null}, run: 'echo "A=${A-unset} B=${B-unset} KEEP=$KEEP"'}
Y
	run "$WSPX" run jobs.yaml
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"A=unset B=unset KEEP=k"* ]]
	printf 'jobs:\n  a: {retries: " 5", run: "true"}\n  b: {retries: "5 ", run: "true"}\n' > jobs.yaml
	run "$WSPX" check jobs.yaml
	[ "$status" -eq 255 ]
	[[ "$output" == *"jobs.yaml:2:16: retries needs a whole number"* ]]
	[[ "$output" == *"jobs.yaml:3:16: retries needs a whole number"* ]]
}

@test "wspx graph --joblog with a joblog that is not there is an error" {
	printf 'jobs:\n  a: {run: "true"}\n' > jobs.yaml
	run "$WSPX" graph --joblog no-such-log jobs.yaml
	[ "$status" -eq 255 ]
	[[ "$output" == *"--joblog no-such-log: No such file or directory"* ]]
}

# The findings of tests/fuzz/jobfile, each with its input in
# tests/fuzz/corpus/jobfile/finding-*.

@test "a key that is not a string is an error at its place, not a crash" {
	printf 'jobs:\n  a: {run: "true"}\n? [x]\n: y\n' > jobs.yaml
	run "$WSPX" check jobs.yaml
	[ "$status" -eq 255 ]
	[ "$output" = "jobs.yaml:3:3: a key must be a plain string" ]
}

@test "an error at the end of a file without a last newline is on its last line" {
	printf -- '---' > jobs.yaml
	run "$WSPX" check jobs.yaml
	echo "$output"
	[ "$status" -eq 255 ]
	[[ "$output" == "jobs.yaml:1:4: "* ]]
	printf 'jobs:\n  a: {run: "x"' > jobs.yaml
	run "$WSPX" check jobs.yaml
	echo "$output"
	[ "$status" -eq 255 ]
	[[ "$output" == "jobs.yaml:2:15: "* ]]
}

@test "run: an empty list is an empty script, as run: \"\" is, not a crash" {
	# (found by tests/fuzz/jobfile: its command pointed nowhere)
	cp "$BATS_TEST_DIRNAME/../fuzz/corpus/jobfile/finding-empty-run-list" \
	    jobs.yaml
	run "$WSPX" run --dry-run jobs.yaml
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"1 job would run"* ]]
	run "$WSPX" run jobs.yaml
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"1 job ok"* ]]
}

@test "a here-document opened in backquotes in another's text ends with it: its expression is edited once" {
	# (found by tests/fuzz/jobfile: the inner text ran on past the outer
	# one, the expression after both was edited twice, and wspx run
	# corrupted its memory)
	cp "$BATS_TEST_DIRNAME/../fuzz/corpus/jobfile/finding-heredoc-in-heredoc-overlap" \
	    jobs.yaml
	run timeout 20 "$WSPX" run --dry-run jobs.yaml
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"2 jobs would run"* ]]
	run timeout 20 "$WSPX" check jobs.yaml
	[ "$status" -eq 0 ]
}

@test "a syntax error after text that is not ASCII is no tab: libyaml counts characters" {
	# (the tab check read the byte at libyaml's index, a count of
	# characters: a BOM in a flow sequence made it a tab past the end)
	cp "$BATS_TEST_DIRNAME/../fuzz/corpus/jobfile/finding-tab-error-past-end" \
	    jobs.yaml
	run "$WSPX" check jobs.yaml
	echo "$output"
	[ "$status" -eq 255 ]
	[[ "$output" == "jobs.yaml:3:58: did not find expected ',' or ']'"* ]]
}

@test "a tab after text that is not ASCII is still called a tab" {
	printf '\357\273\277# \303\251\303\251\303\251\njobs:\n  a:\n\trun: x\n' \
	    > jobs.yaml
	run "$WSPX" check jobs.yaml
	[ "$status" -eq 255 ]
	[ "$output" = "jobs.yaml:4:1: a tab: YAML indents with spaces only" ]
}

@test "a place in a block scalar is right after text that is not ASCII" {
	# (the block's indent was read at libyaml's index as a byte offset)
	{
		printf '#'
		printf '\303\251%.0s' $(seq 300)
		printf '\njobs:\n  a:\n    run: |\n      echo ${{ nosuch.x }}\n'
	} > jobs.yaml
	run "$WSPX" check jobs.yaml
	echo "$output"
	[ "$status" -eq 255 ]
	[[ "$output" == "jobs.yaml:5:12: "* ]]
}

@test "an expression in a quoted here-document delimiter is one error, and nothing leaks" {
	printf '%s\n' 'jobs:' '  j:' '    matrix: {x: [1]}' \
	    "    run: \"cat <<'E\${{ matrix.x }}'\\nx\\nE\"" > jobs.yaml
	run "$WSPX" check jobs.yaml
	echo "$output"
	[ "$status" -eq 255 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == "jobs.yaml:4:"* ]]
}

@test "an empty matrix key is refused: its legs could not be named" {
	printf 'jobs:\n  j: {matrix: {"": [1, 2]}, run: "true"}\n' > jobs.yaml
	run "$WSPX" check jobs.yaml
	[ "$status" -eq 255 ]
	[ "$output" = "jobs.yaml:2:16: a matrix key cannot be empty" ]
}

@test "a megabyte of (( before an expression is checked in one pass" {
	# (each place was scanned again to its end: hours for this file)
	python3 -c 'import sys; sys.stdout.write("jobs:\n  j:\n    matrix: {x: [1]}\n    run: \"" + "((" * 500000 + "${{ matrix.x }}\"\n")' > jobs.yaml
	run timeout 100 "$WSPX" check jobs.yaml
	echo "${output:0:300}"
	[ "$status" -ne 124 ]
}
