#!/usr/bin/env bats
# A job's outputs ($WSPX_OUTPUT, wspx(5) "Outputs") as GitHub Actions
# reads $GITHUB_OUTPUT: a malformed line or an unended value fails the
# job, naming the line; the file is a regular file of at most 1 MiB, read
# without waiting; a continue-on-error job's outputs are read.

load helper

@test "a line that is no output fails the job, naming the line" {
	cat > jobs.yaml <<'Y'
jobs:
  o: {run: "printf 'a=1\\n\\ngarbage here\\n' >> \"$WSPX_OUTPUT\""}
  u: {needs: o, run: "echo never"}
Y
	run "$WSPX" run jobs.yaml
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == *"wspx: o: its \$WSPX_OUTPUT line 3: 'garbage here' is not NAME=VALUE nor NAME<<DELIMITER"* ]]
	[[ "$output" == *"skipped u: needs o, which failed"* ]]
}

@test "a value whose delimiter line never comes fails the job" {
	cat > jobs.yaml <<'Y'
jobs:
  o: {run: "printf 'x=1\\nnotes<<END\\nline\\n' >> \"$WSPX_OUTPUT\""}
Y
	run "$WSPX" run jobs.yaml
	[ "$status" -eq 1 ]
	[[ "$output" == *"o: its \$WSPX_OUTPUT line 2: no line 'END' ends the value of notes"* ]]
}

@test "a continue-on-error job's outputs are read" {
	cat > jobs.yaml <<'Y'
jobs:
  p: {continue-on-error: true, run: "echo v=set >> \"$WSPX_OUTPUT\"; exit 3"}
  q: {needs: p, run: "echo got ${{ needs.p.outputs.v }}"}
Y
	run "$WSPX" run jobs.yaml
	echo "$output"
	[[ "$output" == *"got set"* ]]
}

@test "an output that is a FIFO, a link to /dev/zero or over 1 MiB fails its job at once" {
	cat > jobs.yaml <<'Y'
jobs:
  fifo: {run: "mkfifo \"$WSPX_OUTPUT\""}
  zero: {run: "ln -s /dev/zero \"$WSPX_OUTPUT\""}
  big: {run: "head -c 1100000 /dev/zero | tr '\\0' a | sed 's/^/v=/' >> \"$WSPX_OUTPUT\""}
Y
	run timeout 20 "$WSPX" run jobs.yaml
	echo "$output"
	[ "$status" -eq 3 ]
	[[ "$output" == *"fifo: its \$WSPX_OUTPUT is not a regular file"* ]]
	[[ "$output" == *"zero: its \$WSPX_OUTPUT is a symbolic link"* ]]
	[[ "$output" == *"big: its \$WSPX_OUTPUT holds more than 1 MiB"* ]]
}
