#!/usr/bin/env bats
# Errors in a job file: each is FILE:LINE:COLUMN: message, wspx check
# reports all of them, sorted by place, and nothing runs (status 255).

load helper

# check FILE-CONTENT: write it to jobs.yaml and run wspx check on it.
check() {
	printf '%s\n' "$1" > jobs.yaml
	run "$WSPX" check jobs.yaml
}

@test "a YAML syntax error names its place" {
	check 'jobs:
  a: {run: "true"
  b: x'
	[ "$status" -eq 255 ]
	[ "${lines[0]}" = "jobs.yaml:3:3: did not find expected ',' or '}' (while parsing a flow mapping that started at 2:6)" ]
}

@test "unknown keys name the nearest known one, everywhere" {
	check 'jobs:
  a:
    rn: "true"
    neds: [b]
  b: {run: "true", timeot: 1s}
defualts: {shell: sh}'
	[ "$status" -eq 255 ]
	[ "${lines[0]}" = "jobs.yaml:2:3: job 'a' has neither run nor builtin (builtin: noop makes a group)" ]
	[ "${lines[1]}" = "jobs.yaml:3:5: unknown key 'rn' in a job (did you mean 'run'?)" ]
	[ "${lines[2]}" = "jobs.yaml:4:5: unknown key 'neds' in a job (did you mean 'needs'?)" ]
	[ "${lines[3]}" = "jobs.yaml:5:20: unknown key 'timeot' in a job (did you mean 'timeout'?)" ]
	[ "${lines[4]}" = "jobs.yaml:6:1: unknown key 'defualts' in the file (did you mean 'defaults'?)" ]
}

@test "wrong types and bad values name the value's place" {
	check 'jobs:
  a:
    run: {x: 1}
    retries: many
    timeout: 10 minutes
    continue-on-error: yes please
    env: [A]'
	[ "$status" -eq 255 ]
	[[ "$output" == *"jobs.yaml:3:10: run needs a list, not a mapping"* ]]
	[[ "$output" == *"jobs.yaml:4:14: retries needs a whole number from 0 to 1000"* ]]
	[[ "$output" == *"jobs.yaml:5:14: timeout: '10 minutes' is not a duration"* ]]
	[[ "$output" == *"jobs.yaml:6:24: continue-on-error needs true or false"* ]]
	[[ "$output" == *"jobs.yaml:7:10: env needs a mapping, not a list"* ]]
}

@test "duplicate job names (which libyaml lets through) are errors at the second" {
	check 'jobs:
  a: {run: "true"}
  b: {run: "true"}
  a: {run: "false"}'
	[ "$status" -eq 255 ]
	[[ "$output" == *"jobs.yaml:4:3: duplicate key 'a' (first at 2:3)"* ]]
}

@test "needs: a missing job, a missing leg, a job that needs itself" {
	check 'jobs:
  a: {run: "true", needs: [nosuch]}
  b: {run: "true", needs: b}
  m: {run: "true", matrix: {x: ["1"]}}
  c: {run: "true", needs: ["m[x=2]", "m[y=1]"]}'
	[ "$status" -eq 255 ]
	[[ "$output" == *"jobs.yaml:2:28: needs 'nosuch', which is not a job of the file"* ]]
	[[ "$output" == *"jobs.yaml:3:27: job 'b' needs itself"* ]]
	[[ "$output" == *"jobs.yaml:5:28: needs 'm[x=2]', and no leg of its matrix has those values"* ]]
	[[ "$output" == *"jobs.yaml:5:38: needs 'm[y=1]', and that is not a leg of its matrix"* ]]
}

@test "a cycle is printed as its path" {
	check 'jobs:
  a: {run: "true", needs: [c]}
  b: {run: "true", needs: [a]}
  c: {run: "true", needs: [b]}'
	[ "$status" -eq 255 ]
	[ "${lines[0]}" = "jobs.yaml:2:3: a cycle of needs: a -> c -> b -> a" ]
}

@test "an unknown builtin or pool, a bad with:, an unknown expression" {
	check 'pools: {link: 1}
jobs:
  a: {builtin: sha265, with: {files: [x]}}
  b: {builtin: copy, with: {form: x, to: y}}
  c: {run: "true", pool: lnk}
  d: {run: "echo ${{ github.sha }}"}
  e: {run: "echo ${{ matrix.x }}"}'
	[ "$status" -eq 255 ]
	[[ "$output" == *"jobs.yaml:3:16: unknown builtin 'sha265' (did you mean 'sha256'?)"* ]]
	[[ "$output" == *"jobs.yaml:4:"*"'form'"*"(did you mean 'from'?)"* ]]
	[[ "$output" == *"jobs.yaml:5:26: pool 'lnk' is not in pools:"* ]]
	[[ "$output" == *"jobs.yaml:6:18: '\${{ github.sha }}' is not an expression wspx knows"* ]]
	[[ "$output" == *"jobs.yaml:7:18: matrix.x: job 'e' has no matrix key 'x'"* ]]
}

@test "a matrix past the limit is an error, not a memory blow-up" {
	v='["0","1","2","3","4","5","6","7","8","9"]'
	check "jobs:
  a:
    run: \"true\"
    matrix: {a: $v, b: $v, c: $v, d: $v, e: $v}"
	[ "$status" -eq 255 ]
	[[ "$output" == *"jobs.yaml:4:13: the matrix expands to more than 4096 legs"* ]]
}

@test "an alias bomb is refused quickly" {
	{
		echo 'a0: &a0 [x, x, x, x, x, x, x, x, x, x]'
		for i in 1 2 3 4 5 6 7 8 9; do
			p=$((i - 1))
			echo "a$i: &a$i [*a$p, *a$p, *a$p, *a$p, *a$p, *a$p, *a$p, *a$p, *a$p, *a$p]"
		done
		echo 'jobs: {x: {run: "true"}}'
	} > jobs.yaml
	run timeout 10 "$WSPX" check jobs.yaml
	[ "$status" -eq 255 ]
	[ "$output" = "jobs.yaml:7:45: aliases expand the document past 10000000 nodes (an alias bomb?)" ]
}

@test "check reports every error, and run runs nothing when there is one" {
	check 'jobs:
  a: {run: "touch ran"}
  b: {run: "true", needs: [zz]}
  c: {run: "true", timeout: forever}'
	[ "$status" -eq 255 ]
	[ "${#lines[@]}" -ge 2 ]
	run "$WSPX" run jobs.yaml
	[ "$status" -eq 255 ]
	[ ! -e ran ]
}

@test "a file that is not there, or not a job file" {
	run "$WSPX" check nosuch.yaml
	[ "$status" -eq 255 ]
	[[ "$output" == *"nosuch.yaml"*"No such file"* ]]
	check '- a
- b'
	[ "$status" -eq 255 ]
	[[ "$output" == *"jobs.yaml:1:1: a job file is a mapping with jobs: in it"* ]]
	check 'jobs: {}'
	[ "$status" -eq 255 ]
	[[ "$output" == *"jobs is empty"* ]]
}

@test "graphs of 100,000 jobs load and run without recursion: a chain and a layer" {
	python3 -c '
print("jobs:")
print("  n0: {builtin: noop}")
for i in range(1, 100000):
    print("  n%d: {builtin: noop, needs: [n%d]}" % (i, i - 1))' > chain.yaml
	python3 -c '
print("jobs:")
for i in range(100000):
    print("  n%d: {builtin: noop}" % i)' > wide.yaml
	run "$WSPX" check chain.yaml
	[ "$status" -eq 0 ]
	run "$WSPX" run chain.yaml
	[ "$status" -eq 0 ]
	run "$WSPX" run wide.yaml
	[ "$status" -eq 0 ]
}

@test "a file that cannot be read is named without a place; a bad run: is one error" {
	run "$WSPX" check /
	[ "$status" -eq 255 ]
	[[ "$output" == "wspx: /: "* ]]
	check 'jobs:
  a: {run: {x: 1}}'
	[ "$status" -eq 255 ]
	[ "${#lines[@]}" -eq 1 ]
}

@test "env names, expressions in sources, and timeout on a builtin are checked" {
	check 'jobs:
  a:
    run: "true"
    env: {"A B": x}
    sources: ["${{ matrix.nope }}"]
  b: {builtin: noop, timeout: 1s}'
	[ "$status" -eq 255 ]
	[[ "$output" == *"jobs.yaml:4:11: 'A B' is not a name for an environment variable"* ]]
	[[ "$output" == *"jobs.yaml:5:16: matrix.nope: job 'a' has no matrix key 'nope'"* ]]
	[[ "$output" == *"jobs.yaml:6:31: timeout is for commands, not builtins"* ]]
}

@test "nesting deeper than 1000 levels is refused at once, with its place" {
	python3 -c "print('jobs: ' + '[' * 100000 + ']' * 100000)" > jobs.yaml
	run timeout 20 "$WSPX" check jobs.yaml
	[ "$status" -eq 255 ]
	[ "$output" = "jobs.yaml:1:1006: nested deeper than 1000 levels" ]
}
