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

@test "the directory of the \$WSPX_OUTPUT files is made for a job that runs, removed at the end, and not made when nothing runs" {
	mkdir t
	echo a > in.txt
	cat > jobs.yaml <<'Y'
jobs:
  gen:
    sources: [in.txt]
    generates: [out.txt]
    run: |
      cp in.txt out.txt
      echo "${WSPX_OUTPUT%/*}" > where
Y
	# (LeakSanitizer cannot run under ptrace)
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
	TMPDIR=$PWD/t strace -f -qq -e trace=mkdir -o trace1 "$WSPX" run jobs.yaml
	[[ "$(cat where)" == "$PWD/t/wspx."* ]]
	grep -q "mkdir(\"$PWD/t/wspx\." trace1
	[ -z "$(ls -A t)" ]
	# (nothing to do: no directory made)
	run env TMPDIR=$PWD/t strace -f -qq -e trace=mkdir -o trace2 \
	    "$WSPX" run jobs.yaml
	[ "$status" -eq 0 ]
	[[ "$output" == *"1 job up to date"* ]]
	cat trace2
	! grep -q 'mkdir(' trace2 || false
	# (a TMPDIR that cannot be used is still an error before any job)
	rm -f out.txt
	run env TMPDIR=$PWD/no-such-dir "$WSPX" run jobs.yaml
	[ "$status" -eq 255 ]
	[[ "$output" == *"cannot make a directory in $PWD/no-such-dir: No such file or directory"* ]]
	[ ! -e out.txt ]
	# (a file, even one that may be written and searched)
	printf '#!/bin/sh\n' > afile
	chmod 777 afile
	run env TMPDIR=$PWD/afile "$WSPX" run jobs.yaml
	[ "$status" -eq 255 ]
	[[ "$output" == *"cannot make a directory in $PWD/afile: Not a directory"* ]]
	[ ! -e out.txt ]
}

@test "a job whose \$WSPX_OUTPUT directory cannot be made fails, saying why; the run goes on" {
	cat > jobs.yaml <<'Y'
jobs:
  a: {run: "echo ran a > a.txt"}
  b: {needs: a, run: "echo never"}
Y
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
	run strace -f -qq -o /dev/null -e trace=mkdir \
	    -e inject=mkdir:error=ENOSPC "$WSPX" run jobs.yaml
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == *"cannot run a (no directory for \$WSPX_OUTPUT in "*"): No space left on device"* ]]
	[[ "$output" == *"skipped b: needs a, which failed"* ]]
	[ ! -e a.txt ]
}
