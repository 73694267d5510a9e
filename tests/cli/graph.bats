#!/usr/bin/env bats
# wspx run FILE: job graphs from YAML (wspx(5)): needs, if, skips, matrix
# legs, outputs, pools, builtins, up-to-date state, and the commands
# check, list and graph.

load helper
bats_require_minimum_version 1.5.0

@test "run: jobs run after what they need, and the exit status counts failures" {
	cat > jobs.yaml <<'Y'
jobs:
  a: {run: "echo a >> order"}
  b: {run: "echo b >> order", needs: [a]}
  c: {run: "echo c >> order", needs: [b]}
  d: {run: "exit 3", needs: [a]}
Y
	run "$WSPX" run -j4 jobs.yaml
	[ "$status" -eq 1 ]
	[ "$(cat order)" = "$(printf 'a\nb\nc')" ]
	[[ "$output" == *"wspx: d, the first to fail: exit status 3: exit 3"* ]]
}

@test "run: without FILE, wspx.yml is read, and the error names both when neither is there" {
	run "$WSPX" run
	jobsonly
	[ "$status" -eq 255 ]
	[[ "$output" == *"neither wspx.yml nor wspx.yaml"* ]]
	printf 'jobs:\n  hi: {run: echo hi}\n' > wspx.yml
	run "$WSPX" run
	jobsonly
	[ "$status" -eq 0 ]
	[ "$output" = "hi" ]
}

@test "run: FILE - reads the graph from stdin" {
	run sh -c 'printf "jobs:\n  x: {run: echo from-stdin}\n" | "$WSPX" run -'
	jobsonly
	[ "$status" -eq 0 ]
	[ "$output" = "from-stdin" ]
}

@test "a failed job's dependents are skipped with the reason; independent branches run" {
	cat > jobs.yaml <<'Y'
jobs:
  build: {run: "exit 1"}
  test: {run: "echo test", needs: [build]}
  deploy: {run: "echo deploy", needs: [test]}
  lint: {run: "echo lint"}
Y
	run "$WSPX" run jobs.yaml
	[ "$status" -eq 1 ]
	[[ "$output" == *"lint"* ]]
	[[ "$output" == *"wspx: skipped test: needs build, which failed"* ]]
	[[ "$output" == *"wspx: skipped deploy: needs test, which was skipped"* ]]
	[[ "$output" != *"echo test"* ]]
	[[ "${lines[*]}" != *" test"* ]] || [[ "$output" != *$'\ntest\n'* ]]
}

@test "if: success() is the default; failure(), always() and ! choose" {
	cat > jobs.yaml <<'Y'
jobs:
  bad: {run: "exit 2"}
  good: {run: "true"}
  onfail: {run: "echo onfail", needs: [bad], if: failure()}
  notonfail: {run: "echo notonfail", needs: [good], if: failure()}
  always: {run: "echo always", needs: [bad], if: "${{ always() }}"}
  negated: {run: "echo negated", needs: [bad], if: "!success()"}
  deep: {run: "echo deep", needs: [onfail], if: failure()}
Y
	run "$WSPX" run jobs.yaml
	[ "$status" -eq 1 ]
	[[ "$output" == *onfail* ]]
	[[ "$output" == *always* ]]
	[[ "$output" == *negated* ]]
	[[ "$output" == *"deep"* ]]
	[[ "$output" == *"skipped notonfail"* ]]
	! grep -qx notonfail <<< "$output"
}

@test "if: a job skipped without a failure skips its dependents too (success() needs every need to succeed)" {
	cat > jobs.yaml <<'Y'
jobs:
  a: {run: "true"}
  onlyonfail: {run: "echo x", needs: [a], if: failure()}
  after: {run: "echo after", needs: [onlyonfail]}
Y
	run "$WSPX" run jobs.yaml
	[ "$status" -eq 0 ]
	[[ "$output" == *"skipped after: needs onlyonfail, which was skipped"* ]]
}

@test "continue-on-error: the job is reported failed, the run's status ignores it, its dependents run" {
	cat > jobs.yaml <<'Y'
jobs:
  flaky: {run: "exit 4", continue-on-error: true}
  next: {run: "echo next", needs: [flaky]}
Y
	run "$WSPX" run jobs.yaml
	[ "$status" -eq 0 ]
	[[ "$output" == *"next"* ]]
	[[ "$output" == *"exit status 4"* ]]
}

@test "matrix: legs expand in order, values are quoted for the shell, and a leg can be a target" {
	cat > jobs.yaml <<'Y'
jobs:
  t:
    matrix: {opt: [O0, O2], san: ["a b", "$(touch pwned)"]}
    run: printf '%s|%s\n' ${{ matrix.opt }} ${{ matrix.san }}
Y
	run "$WSPX" list jobs.yaml
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = 't[opt=O0,san=a b]' ]
	[ "${lines[3]}" = 't[opt=O2,san=$(touch pwned)]' ]
	run "$WSPX" run -k jobs.yaml
	jobsonly
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "O0|a b" ]
	[ "${lines[1]}" = 'O0|$(touch pwned)' ]
	[ ! -e pwned ]
	run "$WSPX" run jobs.yaml 't[opt=O2,san=a b]'
	jobsonly
	[ "$status" -eq 0 ]
	[ "$output" = "O2|a b" ]
}

@test "matrix: include adds keys and legs, exclude removes legs, needs picks legs" {
	cat > jobs.yaml <<'Y'
jobs:
  t:
    matrix:
      os: [linux, mac]
      v: ["1", "2"]
      exclude: [{os: mac, v: "1"}]
      include: [{os: linux, extra: yes}, {os: bsd, v: "9"}]
    run: echo ${{ matrix.os }}-${{ matrix.v }}
  after:
    needs: ["t[os=linux]"]
    run: echo after
Y
	run "$WSPX" list jobs.yaml
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = 't[os=linux,v=1,extra=yes]' ]
	[ "${lines[1]}" = 't[os=linux,v=2,extra=yes]' ]
	[ "${lines[2]}" = 't[os=mac,v=2]' ]
	[ "${lines[3]}" = 't[os=bsd,v=9]' ]
	[ "${lines[4]}" = 'after' ]
	run "$WSPX" run jobs.yaml after
	[ "$status" -eq 0 ]
	[[ "$output" == *linux-1* ]]
	[[ "$output" == *linux-2* ]]
	[[ "$output" != *mac* ]]
	[[ "$output" != *bsd* ]]
}

@test "outputs: key=value lines in \$WSPX_OUTPUT reach the jobs that need it, quoted" {
	cat > jobs.yaml <<'Y'
jobs:
  version:
    run: |
      echo 'v=1.2 $(touch pwned)' >> "$WSPX_OUTPUT"
      printf 'notes<<END\nline one\nline two\nEND\n' >> "$WSPX_OUTPUT"
  use:
    needs: [version]
    run: printf '[%s]\n' ${{ needs.version.outputs.v }} ${{ needs.version.outputs.notes }} ${{ needs.version.outputs.none }}
Y
	run "$WSPX" run jobs.yaml
	jobsonly
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = '[v=1.2 $(touch pwned)]' ] || [ "${lines[0]}" = '[1.2 $(touch pwned)]' ]
	[ ! -e pwned ]
	[ "${lines[1]}" = '[line one' ]
	[ "${lines[2]}" = 'line two]' ]
	[ "${lines[3]}" = '[]' ]
}

@test "env, dir and shell: the file's env, the defaults', the job's; dir relative to the job file" {
	mkdir -p sub/work
	cat > sub/jobs.yaml <<'Y'
env: {A: file, B: file}
defaults: {env: {B: defaults}, dir: work}
jobs:
  show:
    env: {C: job}
    run: echo "$A $B $C $(basename "$PWD") $WSPX_JOB"
  other:
    dir: .
    shell: bash
    run: echo "$(basename "$PWD") ${BASH_VERSION:+bash}"
Y
	run "$WSPX" run -k sub/jobs.yaml
	jobsonly
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "file defaults job work show" ]
	[ "${lines[1]}" = "sub bash" ]
}

@test "run: a list of commands runs in one shell, stopping at the first that fails" {
	cat > jobs.yaml <<'Y'
jobs:
  steps:
    run:
      - X=1
      - echo "one $X"
      - |
        if true; then
          exit 5
        fi
      - echo never
Y
	run "$WSPX" run jobs.yaml
	jobsonly
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = "one 1" ]
	! grep -qx never <<< "$output" || false
	[[ "$output" == *"exit status 5"* ]]
}

@test "timeout and retries: a job's own limits" {
	cat > jobs.yaml <<'Y'
jobs:
  slow: {run: "sleep 10", timeout: 200ms}
  again: {run: "echo try >> tries; exit 1", retries: 2}
Y
	run "$WSPX" run --joblog log jobs.yaml
	[ "$status" -eq 2 ]
	[ "$(wc -l < tries)" -eq 3 ]
	[[ "$output" == *"killed after its --timeout"* ]]
	# (a job file's joblog names its jobs, a row per attempt)
	[ "$(awk -F'\t' '$9 == "again"' log | wc -l)" -eq 3 ]
	[ "$(awk -F'\t' '$9 == "slow"' log | wc -l)" -eq 1 ]
}

@test "pools: at most depth jobs of a pool run at once" {
	cat > jobs.yaml <<'Y'
pools: {one: 1}
jobs:
Y
	for i in 1 2 3 4 5 6; do
		printf '  p%d: {pool: one, run: "mkdir lock && sleep 0.05 && rmdir lock || echo overlap"}\n' "$i" >> jobs.yaml
	done
	run "$WSPX" run -j6 jobs.yaml
	[ "$status" -eq 0 ]
	[[ "$output" != *overlap* ]]
}

@test "builtins: echo, mkdir, write, copy, touch, remove, sha256, noop run in the process" {
	cat > jobs.yaml <<'Y'
jobs:
  dirs: {builtin: mkdir, with: {paths: [out/a/b]}}
  file: {builtin: write, needs: [dirs], with: {path: out/a/b/f.txt, text: hello}}
  cp: {builtin: copy, needs: [file], with: {from: out/a/b/f.txt, to: out/g.txt}}
  stamp: {builtin: touch, needs: [dirs], with: {paths: out/stamp}}
  sum: {builtin: sha256, needs: [cp], with: {files: [out/g.txt]}}
  say: {builtin: echo, with: {text: said}}
  group: {builtin: noop, needs: [sum, stamp, say]}
  clean: {builtin: remove, needs: [group], with: {paths: out/a}}
Y
	run "$WSPX" run -k jobs.yaml
	[ "$status" -eq 0 ]
	[ "$(cat out/g.txt)" = hello ]
	[ -e out/stamp ]
	[ ! -e out/a ]
	[[ "$output" == *"$(printf 'hello\n' | sha256sum | cut -d' ' -f1)  out/g.txt"* ]]
	[[ "$output" == *said* ]]
}

@test "builtin sleep holds no worker: two sleeps of 0.5s end together on -j1... and a failing builtin fails the job" {
	cat > jobs.yaml <<'Y'
jobs:
  s1: {builtin: sleep, with: {duration: 500ms}}
  s2: {builtin: sleep, with: {duration: 500ms}}
  s3: {builtin: sleep, with: {duration: 500ms}}
  s4: {builtin: sleep, with: {duration: 500ms}}
  bad: {builtin: copy, with: {from: missing.txt, to: x}}
Y
	start=$(date +%s%N)
	run "$WSPX" run -j1 jobs.yaml
	end=$(date +%s%N)
	[ "$status" -eq 1 ]
	[[ "$output" == *"missing.txt"* ]]
	[ $(( (end - start) / 1000000 )) -lt 1800 ]
}

@test "up to date: a job whose sources, generates and command are unchanged is not run again; --force runs it" {
	mkdir src
	echo 'int x;' > src/a.c
	cat > jobs.yaml <<'Y'
jobs:
  build:
    sources: ["src/**/*.c"]
    generates: [out.txt]
    run: cat src/a.c > out.txt && echo built >> count
Y
	run "$WSPX" run jobs.yaml
	jobsonly
	[ "$status" -eq 0 ]
	[ "$(wc -l < count)" -eq 1 ]
	run "$WSPX" run jobs.yaml
	[ "$status" -eq 0 ]
	[ "$(wc -l < count)" -eq 1 ]
	[[ "$output" == "wspx: 1 job up to date in "* ]]
	[ -e .jobs.yaml.wspx-state ]
	echo 'int y;' > src/a.c
	run "$WSPX" run jobs.yaml
	jobsonly
	[ "$(wc -l < count)" -eq 2 ]
	rm out.txt
	run "$WSPX" run jobs.yaml
	jobsonly
	[ "$(wc -l < count)" -eq 3 ]
	run "$WSPX" run --force jobs.yaml
	jobsonly
	[ "$(wc -l < count)" -eq 4 ]
	sed -i 's/echo built/echo built again/' jobs.yaml
	run "$WSPX" run jobs.yaml
	jobsonly
	[ "$(wc -l < count)" -eq 5 ]
}

@test "targets: only the named jobs and what they need run" {
	cat > jobs.yaml <<'Y'
jobs:
  a: {run: echo a}
  b: {run: echo b, needs: [a]}
  c: {run: echo c}
Y
	run "$WSPX" run -k jobs.yaml b
	jobsonly
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf 'a\nb')" ]
	run "$WSPX" run jobs.yaml nosuch
	jobsonly
	[ "$status" -eq 255 ]
	[[ "$output" == *"no job nosuch"* ]]
}

@test "-k orders output by the graph's order; --tag puts the job's name before each line" {
	cat > jobs.yaml <<'Y'
jobs:
  slow: {run: "sleep 0.3; echo slow"}
  fast: {run: "echo fast", needs: [slow]}
  other: {run: "echo other"}
Y
	run "$WSPX" run -k --tag -j3 jobs.yaml
	jobsonly
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = $'slow\tslow' ]
	[ "${lines[1]}" = $'fast\tfast' ]
	[ "${lines[2]}" = $'other\tother' ]
}

@test "graph prints dot; check is quiet on a good file; list names the jobs" {
	cat > jobs.yaml <<'Y'
jobs:
  a: {run: "true"}
  "b": {run: "true", needs: [a]}
Y
	run "$WSPX" check jobs.yaml
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	run "$WSPX" graph jobs.yaml
	[ "$status" -eq 0 ]
	[[ "$output" == "digraph wspx {"* ]]
	[[ "$output" == *'"a" -> "b";'* ]]
}

threepids() {
	[ -e pids ] && [ "$(wc -l < pids)" -ge 3 ]
}

@test "an interrupted run leaves no process behind" {
	cat > jobs.yaml <<'Y'
jobs:
  a: {run: "echo $$ >> pids; sleep 30 & echo $! >> pids; wait"}
  b: {run: "echo $$ >> pids; sleep 30"}
  c: {run: "echo never", needs: [a]}
Y
	"$WSPX" run -j2 jobs.yaml > out 2>&1 3>&- &
	pid=$!
	waituntil threepids
	# (SIGTERM: a background job of a script ignores SIGINT, and so
	# does wspx, as signals.bats shows)
	kill -TERM "$pid"
	wait "$pid" || st=$?
	[ "$st" -eq 143 ]
	allgone pids
	! grep -q never out || false
	grep -q "interrupted by SIGTERM: .*1 not started" out
}

@test "--dry-run shows the commands in the graph's order and runs nothing" {
	cat > jobs.yaml <<'Y'
jobs:
  b: {run: "touch made", needs: [a]}
  a: {run: "echo a"}
  c: {builtin: mkdir, with: {paths: d}}
Y
	run --separate-stderr "$WSPX" run --dry-run jobs.yaml
	[ "$status" -eq 0 ]
	# (each job's name as a comment before its command: `| sh` runs
	# the commands alone)
	[ "$output" = "$(printf '# a\necho a\n# b\ntouch made\n# c\nbuiltin mkdir')" ]
	[ "$stderr" = "wspx: 3 jobs would run" ]
	[ ! -e made ]
	[ ! -e d ]
}

@test "run: options that read input are refused for a job file" {
	printf 'jobs:\n  a: {run: "true"}\n' > jobs.yaml
	run "$WSPX" run -a x jobs.yaml
	[ "$status" -eq 255 ]
	[[ "$output" == *"not for a job file"* ]]
	run "$WSPX" run --tf x jobs.yaml
	[ "$status" -eq 255 ]
	[[ "$output" == *"--transfer-file, --return and --cleanup: not for a job file"* ]]
	# (--resume and its kin take a job file's joblog: progress.bats)
}

@test "a program named run, check, list or graph still runs after --, or by its path" {
	printf '#!/bin/sh\necho ran "$@"\n' > run
	chmod +x run
	run env PATH="$PWD:$PATH" "$WSPX" -- run ::: 1
	[ "$output" = "ran 1" ]
	run "$WSPX" ./run ::: 2
	[ "$output" = "ran 2" ]
}

@test "outputs: a job that declares its outputs makes a misspelt one an error" {
	cat > jobs.yaml <<'Y'
jobs:
  build: {run: "echo version=1 >> $WSPX_OUTPUT", outputs: [version]}
  use: {run: "echo ${{ needs.build.outputs.vesion }}", needs: [build]}
Y
	run "$WSPX" check jobs.yaml
	[ "$status" -eq 255 ]
	[ "$output" = "jobs.yaml:3:20: needs.build.outputs.vesion: job 'build' declares no output 'vesion' in its outputs:" ]
}

@test "if: cancelled() and always() jobs start after a --halt soon; others are cancelled" {
	cat > jobs.yaml <<'Y'
jobs:
  bad: {run: "until [ -e slow.started ]; do sleep 0.05; done; exit 1"}
  slow: {run: "touch slow.started; until grep -q 'starting no more jobs' err; do sleep 0.05; done"}
  next: {run: "echo next", needs: [slow]}
  cleanup: {run: "echo cleanup", needs: [slow], if: cancelled()}
  always: {run: "echo always", needs: [slow], if: always()}
Y
	# (bad fails once slow runs, and slow ends once the halt is said,
	# and so in force: no race, however loaded the machine)
	run sh -c '"$WSPX" run -j3 --halt soon,fail=1 jobs.yaml 2>err; st=$?; cat err; exit $st'
	[ "$status" -eq 1 ]
	[[ "$output" == *cleanup* ]]
	[[ "$output" == *always* ]]
	[[ "$output" == *"halted by --halt "*"1 not started"* ]]
	! grep -qx next <<< "$output"
}

@test "if: cancelled() is false in a run that was not stopped" {
	cat > jobs.yaml <<'Y'
jobs:
  a: {run: "true"}
  onstop: {run: "echo onstop", needs: [a], if: cancelled()}
Y
	run "$WSPX" run jobs.yaml
	[ "$status" -eq 0 ]
	[[ "$output" == *"skipped onstop: its if: cancelled() is false"* ]]
}

@test "continue-on-error: a builtin's failure is ignored too; no halt; its state is not kept" {
	cat > jobs.yaml <<'Y'
jobs:
  b: {builtin: copy, with: {from: nosuch, to: x}, continue-on-error: true}
  c: {run: "echo c", needs: [b]}
  flaky:
    run: "echo ran >> count; exit 1"
    sources: [jobs.yaml]
    continue-on-error: true
Y
	run "$WSPX" run --halt now,fail=1 jobs.yaml
	[ "$status" -eq 0 ]
	[[ "$output" == *c* ]]
	run "$WSPX" run jobs.yaml
	[ "$(wc -l < count)" -eq 2 ]
}

@test "outputs: the last value written wins, each attempt starts afresh, an up-to-date job that others read runs" {
	cat > jobs.yaml <<'Y'
jobs:
  v:
    run: |
      echo k=first >> "$WSPX_OUTPUT"; echo k=last >> "$WSPX_OUTPUT"
      test -e once || { echo bad=stale >> "$WSPX_OUTPUT"; touch once; exit 1; }
    retries: 1
    sources: [jobs.yaml]
  use: {run: "echo k=${{ needs.v.outputs.k }} bad=${{ needs.v.outputs.bad }}", needs: [v]}
Y
	run "$WSPX" run jobs.yaml
	[ "$status" -eq 0 ]
	[[ "$output" == *"k=last bad="* ]]
	[[ "$output" != *stale* ]]
	run "$WSPX" run -t jobs.yaml
	[[ "$output" == *"k=last bad="* ]]
	[[ "$output" != *"v is up to date"* ]]
}

@test "skips: the reason names the need, also for a failure further up" {
	cat > jobs.yaml <<'Y'
jobs:
  a: {run: "exit 1"}
  b: {run: "true", needs: [a]}
  c: {run: "true", needs: [b]}
Y
	run "$WSPX" run jobs.yaml
	[[ "$output" == *"skipped c: needs b, which was skipped"* ]]
	[[ "$output" != *"its if: is false"* ]]
}

@test "matrix: a key that an include gives some legs picks them, and is empty in the others" {
	cat > jobs.yaml <<'Y'
jobs:
  t:
    matrix: {os: [a, b], include: [{os: a, extra: "1"}]}
    run: echo [${{ matrix.os }}:${{ matrix.extra }}]
  u: {run: echo u, needs: ["t[extra=1]"]}
Y
	run "$WSPX" run -k jobs.yaml
	jobsonly
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "[a:1]" ]
	[ "${lines[1]}" = "[b:]" ]
	run "$WSPX" run jobs.yaml u
	jobsonly
	[ "$status" -eq 0 ]
	[[ "$output" == *"[a:1]"* ]]
	[[ "$output" != *"[b:]"* ]]
}

@test "run: --tagstring, -0, --total and ::: are refused for a job file" {
	printf 'jobs:\n  a: {run: "true"}\n' > jobs.yaml
	for o in "--tagstring x" -0 "--total 3"; do
		run "$WSPX" run $o jobs.yaml
		[ "$status" -eq 255 ]
		[[ "$output" == *"not for a job file"* ]]
	done
	run "$WSPX" run jobs.yaml ::: a
	[ "$status" -eq 255 ]
	[[ "$output" == *"input sources (:::): not for a job file"* ]]
}

@test "dir: a missing directory is named, for a command and for a builtin" {
	cat > jobs.yaml <<'Y'
jobs:
  c: {run: pwd, dir: nowhere}
  b: {builtin: touch, with: {paths: x}, dir: nowhere}
Y
	run "$WSPX" run jobs.yaml
	[ "$status" -eq 2 ]
	[[ "$output" == *"cannot run pwd in dir ./nowhere: No such file or directory"* ]] ||
	    [[ "$output" == *"cannot run pwd in dir nowhere: No such file or directory"* ]]
	[[ "$output" == *"b: dir nowhere: No such file or directory"* ]] ||
	    [[ "$output" == *"b: dir ./nowhere: No such file or directory"* ]]
}

@test "timeout: 0 of a job's own is no limit, whatever --timeout says" {
	cat > jobs.yaml <<'Y'
jobs:
  a: {run: "sleep 0.5", timeout: 0}
  b: {run: "sleep 5"}
Y
	run "$WSPX" run --timeout 200ms jobs.yaml
	[ "$status" -eq 1 ]
	[[ "$output" == *"killed after its --timeout"*"sleep 5"* ]]
	[[ "$output" != *"sleep 0.5"* ]]
}

@test "up to date: a FIFO among the sources does not hang the run" {
	mkfifo pipe
	cat > jobs.yaml <<'Y'
jobs:
  a: {run: "echo ran", sources: [pipe]}
Y
	run timeout 10 "$WSPX" run jobs.yaml
	[ "$status" -eq 0 ]
	[[ "$output" == *ran* ]]
}

@test "after a stop by a signal, only the jobs whose if: is always() or cancelled() start, builtins too" {
	cat > jobs.yaml <<'Y'
jobs:
  a: {run: "echo $$ > pids; sleep 30"}
  w: {builtin: write, needs: [a], if: always(), with: {path: after, text: x}}
  n: {builtin: write, needs: [a], with: {path: never, text: x}}
Y
	"$WSPX" run jobs.yaml > out 2>&1 3>&- &
	pid=$!
	waitfile pids
	kill -TERM "$pid"
	wait "$pid" || st=$?
	[ "$st" -eq 143 ]
	[ -e after ]
	[ ! -e never ]
	grep -q "interrupted by SIGTERM: .*1 not started" out
}

@test "after Ctrl-C or SIGTERM, an always() or cancelled() command runs to its end, past the stop's grace" {
	cat > jobs.yaml <<'Y'
jobs:
  a: {run: "touch started; sleep 30"}
  clean: {run: "sleep 1; touch cleaned", needs: a, if: always()}
  onstop: {run: "touch onstop", needs: a, if: cancelled()}
  next: {run: "touch next", needs: a}
Y
	"$WSPX" run --term-timeout 0.1 jobs.yaml > out 2>&1 3>&- &
	pid=$!
	waitfile started 30
	kill -TERM "$pid"
	wait "$pid" || st=$?
	cat out
	[ "$st" -eq 143 ]
	[ -e cleaned ]
	[ -e onstop ]
	[ ! -e next ]
}

@test "a second signal ends the always() jobs that run after a stop, and leaves no process" {
	cat > jobs.yaml <<'Y'
jobs:
  a: {run: "touch started; sleep 30"}
  clean: {run: "echo $$ >> pids; touch cleaning; sleep 30", needs: a, if: always()}
Y
	"$WSPX" run jobs.yaml > out 2>&1 3>&- &
	pid=$!
	waitfile started 30
	kill -TERM "$pid"
	waitfile cleaning 30
	kill -TERM "$pid"
	wait "$pid" || st=$?
	[ "$st" -eq 143 ]
	allgone pids
}

@test "a command with no shell syntax runs as the program, as make runs it, even a shell builtin's name" {
	mkdir bin
	printf '#!/bin/sh\necho program "$@" > marker\n' > bin/true
	chmod +x bin/true
	cat > jobs.yaml <<'Y'
jobs:
  a: {run: true x}
  b: {run: "true y; true z", needs: [a]}
Y
	run env PATH="$PWD/bin:$PATH" "$WSPX" run jobs.yaml
	[ "$status" -eq 0 ]
	[ "$(cat marker)" = "program x" ]
}

@test "graph --joblog colours each job by how the run went; graph JOB shows it and what it needs" {
	cat > jobs.yaml <<'Y'
jobs:
  a: {run: "true"}
  b: {run: "exit 1", needs: [a]}
  c: {run: "true", needs: [b]}
  d: {builtin: noop}
Y
	run "$WSPX" run --joblog log jobs.yaml
	[ "$status" -eq 1 ]
	run "$WSPX" graph --joblog log jobs.yaml
	[ "$status" -eq 0 ]
	[[ "$output" == *'"a" [style="filled", fillcolor=palegreen];'* ]]
	[[ "$output" == *'"b" [style="filled", fillcolor=salmon];'* ]]
	[[ "$output" == *'"c" [style="dashed", color=gray50, fontcolor=gray50];'* ]]
	[[ "$output" == *'"d" [style="rounded,filled", fillcolor=palegreen];'* ]]
	run "$WSPX" graph jobs.yaml b
	[ "$status" -eq 0 ]
	[[ "$output" == *'"a" -> "b";'* ]]
	[[ "$output" != *'"c"'* ]]
	[[ "$output" != *'"d"'* ]]
	printf 'not a joblog\n' > bad
	run "$WSPX" graph --joblog bad jobs.yaml
	[ "$status" -eq 255 ]
	[[ "$output" == *bad* ]]
}

@test "skip reasons are exact: a failure further up, and a job's own if:" {
	cat > jobs.yaml <<'Y'
jobs:
  z: {run: "exit 1"}
  y: {run: "true", needs: z, if: always()}
  x: {run: "echo x", needs: y}
  c: {run: "echo c", needs: z, if: cancelled()}
Y
	run "$WSPX" run jobs.yaml
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == *"skipped x: z failed, further up its needs"* ]]
	[[ "$output" == *"skipped c: its if: cancelled() is false"* ]]
}

@test "a stopped graph of 10,000 jobs says in one line how many did not start" {
	python3 -c "
print('jobs:')
print('  first: {run: \"touch started; sleep 30\"}')
for i in range(10000):
    print('  j%d: {needs: first, run: \"true\"}' % i)" > jobs.yaml
	"$WSPX" run jobs.yaml > out 2>&1 3>&- &
	pid=$!
	waitfile started 30
	kill -TERM "$pid"
	wait "$pid" || st=$?
	[ "$st" -eq 143 ]
	cat out
	# (the stop's line, the running job, its progress line, the last)
	[ "$(wc -l < out)" -le 4 ]
	grep -q "wspx: 10001 jobs in .*, interrupted by SIGTERM: 1 stopped, 10000 not started" out
}

@test "up-to-date jobs are one line at the end; -v or -t names each" {
	echo x > in.txt
	python3 -c "
print('jobs:')
for i in range(500):
    print('  j%d: {sources: [in.txt], generates: [o%d], run: \"touch o%d\"}' % (i, i, i))" > jobs.yaml
	run "$WSPX" run jobs.yaml
	jobsonly
	[ "$status" -eq 0 ]
	run "$WSPX" run jobs.yaml
	[ "$status" -eq 0 ]
	[[ "$output" == "wspx: 500 jobs up to date in "* ]]
	[ "${#lines[@]}" -eq 1 ]
	run "$WSPX" run -v jobs.yaml
	[ "${#lines[@]}" -eq 501 ]
	[[ "$output" == *"wspx: j0 is up to date"* ]]
	[[ "${lines[500]}" == "wspx: 500 jobs up to date in "* ]]
}

@test "the summary of failures names a job file's jobs, legs with their values" {
	cat > jobs.yaml <<'Y'
jobs:
  t:
    matrix: {n: ["1", "2"]}
    run: exit ${{ matrix.n }}
Y
	run "$WSPX" run jobs.yaml
	[ "$status" -eq 2 ]
	[[ "$output" == *"wspx: t[n=1]"*"exit status 1: exit"* ]]
	[[ "$output" == *"wspx: t[n=2]"*"exit status 2: exit"* ]]
	[[ "$output" == *", the first to fail: "* ]]
}

@test "an always() job that starts after the stop's grace is not left behind: wspx waits for it" {
	cat > jobs.yaml <<'Y'
jobs:
  a: {run: "trap '' INT TERM; touch started; sleep 30"}
  b: {needs: a, if: always(), run: "sleep 2; touch b_done"}
Y
	"$WSPX" run --term-timeout 0.2 jobs.yaml > out 2>&1 3>&- &
	pid=$!
	waitfile started 30
	kill -TERM "$pid"
	wait "$pid" || st=$?
	cat out
	[ "$st" -eq 143 ]
	[ -e b_done ]
}
