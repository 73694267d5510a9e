#!/usr/bin/env bats
# A job file's run as a CI log tells it (issue 20): a progress line per
# job, named; one last line; names in every report; GitHub's markers and
# step summary; file order; what task runners offer (desc, list --json,
# NAME=value, suggestions, options after FILE); --resume by name.

load helper
bats_require_minimum_version 1.5.0

# A failed test leaves no wspx behind (a --watch waits for ever).
teardown() {
	if [ -n "${pid:-}" ]; then kill -KILL "$pid" 2> /dev/null; fi
	return 0
}

# A duration as the progress and last lines print it.
DUR='[0-9]+(\.[0-9])?s|[0-9]+:[0-9][0-9](:[0-9][0-9])?'

@test "off a terminal: a line per job as it ends, position, result, name, time, then its output" {
	cat > jobs.yaml <<'Y'
jobs:
  build: {run: "echo built"}
  test:
    needs: [build]
    matrix: {n: [1, 2]}
    run: |
      echo "testing n=${{ matrix.n }}"
      test ${{ matrix.n }} = 1
Y
	run --separate-stderr "$WSPX" run -j1 jobs.yaml
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 6 ]
	[[ "${lines[0]}" =~ ^\[1/3\]\ ok\ build\ ($DUR)$ ]]
	[ "${lines[1]}" = "built" ]
	[[ "${lines[2]}" =~ ^\[2/3\]\ ok\ test\[n=1\]\ ($DUR)$ ]]
	[ "${lines[3]}" = "testing n=1" ]
	[[ "${lines[4]}" =~ ^\[3/3\]\ FAILED\ test\[n=2\]\ exit\ 1\ ($DUR)$ ]]
	[ "${lines[5]}" = "testing n=2" ]
	# the failure summary names the job, the command second, on one line
	[[ "$stderr" == *"wspx: test[n=2], the first to fail: exit status 1: echo \"testing n=2\"\\ntest 2 = 1"$'\n'* ]]
}

@test "--quiet: a line for the failed jobs only; -q stays --quote" {
	cat > jobs.yaml <<'Y'
jobs:
  good: {run: "true"}
  bad: {run: "exit 3"}
Y
	run --separate-stderr "$WSPX" run --quiet jobs.yaml
	[ "$status" -eq 1 ]
	[[ "$output" =~ ^\[[12]/2\]\ FAILED\ bad\ exit\ 3\ ($DUR)$ ]]
	run "$WSPX" --quiet echo ::: a
	[ "$status" -eq 255 ]
	[[ "$output" == *"--quiet is for job files"* ]]
	run "$WSPX" -q --qu echo ::: 'a  b'
	[ "$output" = "a  b" ]
}

@test "the run ends with one line: counts and wall time; one kind is said once" {
	cat > jobs.yaml <<'Y'
jobs:
  a: {run: "true"}
  b: {run: "exit 1"}
  c: {needs: [b], run: "true"}
  d: {sources: [jobs.yaml], generates: [d.out], run: "touch d.out"}
Y
	run --separate-stderr "$WSPX" run jobs.yaml
	[ "$status" -eq 1 ]
	[[ "${stderr_lines[-1]}" =~ ^wspx:\ 4\ jobs\ in\ ($DUR):\ 2\ ok,\ 1\ failed,\ 1\ skipped$ ]]
	run --separate-stderr "$WSPX" run jobs.yaml d
	[ "$status" -eq 0 ]
	[ "$output" = "" ]
	[[ "$stderr" =~ ^wspx:\ 1\ job\ up\ to\ date\ in\ ($DUR)$ ]]
	run --separate-stderr "$WSPX" run jobs.yaml a
	[[ "$stderr" =~ ^wspx:\ 1\ job\ ok\ in\ ($DUR)$ ]]
}

@test "a run stopped by SIGINT says so in its last line; SIGTERM says what was running" {
	cat > jobs.yaml <<'Y'
jobs:
  slow: {run: "touch started; sleep 30"}
  after: {needs: [slow], run: "true"}
Y
	# (env: a job of a script has SIGINT ignored, and wspx keeps it so)
	env --default-signal "$WSPX" run jobs.yaml > out 2> err 3>&- &
	pid=$!
	waitfile started 30
	kill -INT "$pid"
	waitstatus "$pid"
	[ "$st" -eq 130 ]
	[[ "$(tail -1 err)" =~ ^wspx:\ 2\ jobs\ in\ ($DUR),\ interrupted\ by\ SIGINT:\ 1\ stopped,\ 1\ not\ started$ ]]
	grep -q '^\[1/2\] STOPPED slow ' out
	rm -f started
	"$WSPX" run jobs.yaml > out 2> err 3>&- &
	pid=$!
	waitfile started 30
	kill -TERM "$pid"
	waitstatus "$pid"
	[ "$st" -eq 143 ]
	grep -q '^wspx: SIGTERM: starting no more jobs, sending SIGTERM to the 1 running (SIGKILL after 2s):$' err
	grep -q '^wspx: running: slow (seq 1, slot 1, .*): touch started; sleep 30$' err
	grep -q 'interrupted by SIGTERM' err
}

@test "--halt now does not blame a job wspx itself killed for a stop" {
	printf '#!/bin/sh\ntouch "s$1"\nexec sleep 30\n' > job
	chmod +x job
	"$WSPX" --halt now,fail=1 ./job ::: 1 2 > out 2> err 3>&- &
	pid=$!
	waitfile s1 30
	waitfile s2 30
	kill -TERM "$pid"
	waitstatus "$pid"
	[ "$st" -eq 143 ]
	! grep -q "this job failed" err || false
	! grep -q -- "--halt" err || false
	grep -q "^wspx: SIGTERM: starting no more jobs, sending SIGTERM to the 2 running" err
}

@test "the halt's message and the SIGUSR1 list name a job file's jobs" {
	cat > jobs.yaml <<'Y'
jobs:
  long: {run: "touch started; until [ -e go ]; do sleep 0.05; done"}
  bad: {needs: [long], run: "exit 2"}
Y
	"$WSPX" run --halt now,fail=1 jobs.yaml > out 2> err 3>&- &
	pid=$!
	waitfile started 30
	kill -USR1 "$pid"
	waituntil grep -q "^wspx: running: long (seq 1, slot 1, " err
	touch go
	waitstatus "$pid"
	[ "$st" -eq 2 ]
	grep -qx "wspx: --halt now,fail=1: this job failed: bad" err
}

@test "GitHub Actions: exactly two groups on stdout for two inputs; a job file's named, with the error after" {
	GITHUB_ACTIONS=true run --separate-stderr "$WSPX" -k echo ::: a b
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf '::group::echo a\na\n::endgroup::\n::group::echo b\nb\n::endgroup::')" ]
	[ "$stderr" = "" ]
	cat > jobs.yaml <<'Y'
jobs:
  test:
    matrix: {n: [2]}
    run: echo "n=${{ matrix.n }}"; exit 1
Y
	GITHUB_ACTIONS=true run --separate-stderr "$WSPX" run jobs.yaml
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 5 ]
	[[ "${lines[0]}" == "[1/1] FAILED test[n=2] exit 1 "* ]]
	[ "${lines[1]}" = "::group::test[n=2]" ]
	[ "${lines[2]}" = "n=2" ]
	[ "${lines[3]}" = "::endgroup::" ]
	[ "${lines[4]}" = "::error title=test[n=2] failed::exit status 1" ]
}

@test "\$GITHUB_STEP_SUMMARY: a Markdown table of the jobs is appended, values escaped" {
	cat > jobs.yaml <<'Y'
jobs:
  build: {run: "true"}
  test:
    needs: [build]
    matrix: {n: ["a|b"]}
    run: 'echo "error: bad <input>" >&2; exit 4'
  report: {needs: [test], run: "true"}
Y
	echo "before" > summary.md
	GITHUB_STEP_SUMMARY=$PWD/summary.md run "$WSPX" run jobs.yaml
	[ "$status" -eq 1 ]
	[ "$(head -1 summary.md)" = "before" ]
	grep -qx '### wspx run jobs\\.yaml' summary.md
	grep -qx '| job | result | time | why |' summary.md
	grep -q '^| build | ok | [0-9.:s]* |  |$' summary.md
	grep -qx '| test\\\[n=a\\|b\\\] | \*\*failed\*\* | [0-9.:s]* | exit status 4: error: bad &lt;input\\> |' summary.md
	grep -qx '| report | skipped |  | needs test\\\[n=a\\|b\\\], which failed |' summary.md
	grep -q '^3 jobs in ' summary.md
	# a dry run writes none
	GITHUB_STEP_SUMMARY=$PWD/dry.md run "$WSPX" run --dry-run jobs.yaml
	[ ! -e dry.md ]
}

@test "jobs released together start in file order under -j1: matrix legs and siblings" {
	cat > jobs.yaml <<'Y'
jobs:
  root: {run: "true"}
  m:
    needs: [root]
    matrix: {n: [1, 2, 3, 4, 5]}
    run: echo m${{ matrix.n }} >> order
  s1: {run: echo s1 >> siblings}
  s2: {run: echo s2 >> siblings}
  s3: {run: echo s3 >> siblings}
  s4: {run: echo s4 >> siblings}
  after: {needs: [s4, root], run: echo after >> siblings}
Y
	for i in 1 2 3; do
		rm -f order siblings
		run "$WSPX" run -j1 jobs.yaml
		[ "$status" -eq 0 ]
		[ "$(cat order)" = "$(printf 'm%s\n' 1 2 3 4 5)" ]
		[ "$(cat siblings)" = "$(printf '%s\n' s1 s2 s3 s4 after)" ]
	done
}

@test "--dry-run names each job in a comment before its command, which | sh runs alone" {
	cat > jobs.yaml <<'Y'
env: {GREETING: hello}
jobs:
  say:
    matrix: {who: ["a b"]}
    run: echo "$GREETING ${{ matrix.who }}" >> said
Y
	run --separate-stderr "$WSPX" run --dry-run jobs.yaml
	[ "$output" = "$(printf '# say[who=a b]\necho "hello a b" >> said')" ]
	[ "$stderr" = "wspx: 1 job would run" ]
	[ ! -e said ]
}

@test "--dry-run and -v show the file's variables as the job sees them, where that means the same" {
	cat > jobs.yaml <<'Y'
env: {CC: cc, CFLAGS: "-O2 -g", BAD: "a $(touch PWNED) b", Q: "x'y", EMPTY: ""}
jobs:
  t:
    run: |
      echo $CC ${CFLAGS} "$CFLAGS" '$CC' \$CC $BAD "$BAD" $Q "$Q" $EMPTY $HOME # $CC
      cat <<EOF
      $CC
      EOF
Y
	run --separate-stderr "$WSPX" run --dry-run jobs.yaml
	[ "${lines[1]}" = "echo cc -O2 -g \"-O2 -g\" '\$CC' \\\$CC \$BAD \"\$BAD\" \$Q \"x'y\" \$EMPTY \$HOME # \$CC" ]
	[ "${lines[3]}" = '$CC' ]
	# what | sh runs is what the job runs, and no value runs
	"$WSPX" run --dry-run jobs.yaml 2> /dev/null | CC=cc CFLAGS="-O2 -g" BAD='a $(touch PWNED) b' Q="x'y" EMPTY= sh > piped
	"$WSPX" run -k jobs.yaml > ran 2> /dev/null
	[ "$(cat piped)" = "$(grep -v '^\[' ran)" ]
	[ ! -e PWNED ]
	# the caller's CC, the file does not set: a reference
	printf 'jobs:\n  u: {run: "echo $USER"}\n' > u.yaml
	run --separate-stderr "$WSPX" run --dry-run u.yaml
	[ "${lines[1]}" = 'echo $USER' ]
}

@test "desc: wspx list aligns the descriptions; --json gives name, desc, needs and legs" {
	cat > jobs.yaml <<'Y'
jobs:
  build: {desc: Build the program, run: "true"}
  test:
    desc: Run one test leg
    needs: [build]
    matrix: {n: [1, "a\"b"]}
    run: "true"
  lint: {run: "true"}
Y
	run "$WSPX" list jobs.yaml
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "build        Build the program" ]
	[ "${lines[1]}" = "test[n=1]    Run one test leg" ]
	[ "${lines[2]}" = 'test[n=a"b]  Run one test leg' ]
	[ "${lines[3]}" = "lint" ]
	run "$WSPX" list --json jobs.yaml
	[ "$status" -eq 0 ]
	python3 -c '
import json, sys
v = json.loads(sys.argv[1])
assert [j["name"] for j in v] == ["build", "test[n=1]", "test[n=a\"b]", "lint"], v
assert v[0]["desc"] == "Build the program" and v[3]["desc"] is None, v
assert v[2]["needs"] == ["build"] and v[2]["matrix"] == {"n": "a\"b"}, v
assert v[0]["matrix"] == {} and v[0]["needs"] == [], v' "$output"
	run "$WSPX" run --json jobs.yaml
	[ "$status" -eq 255 ]
	[[ "$output" == *"--json is for wspx list"* ]]
	run "$WSPX" check jobs.yaml
	[ "$status" -eq 0 ]
}

@test "NAME=value on the command line overrides every env: and rebuilds what it changes" {
	cat > jobs.yaml <<'Y'
env: {CC: gcc}
jobs:
  a: {run: 'echo "a $CC" >> log', sources: [jobs.yaml], generates: [a.out], env: {CC: tcc}}
  b: {run: 'echo "b $CC"'}
Y
	touch a.out
	run --separate-stderr "$WSPX" run -j1 jobs.yaml CC=clang
	[ "$status" -eq 0 ]
	[ "$(cat log)" = "a clang" ]
	[ "${lines[2]}" = "b clang" ]
	# the same value: up to date; another: runs again
	run "$WSPX" run jobs.yaml a CC=clang
	[ "$(cat log)" = "a clang" ]
	run "$WSPX" run jobs.yaml CC='x y' a
	[ "$(tail -1 log)" = "a x y" ]
	# the caller's environment does not override the file, as make's
	CC=cc run --separate-stderr "$WSPX" run jobs.yaml b
	[ "${lines[1]}" = "b gcc" ]
	run "$WSPX" list jobs.yaml CC=x
	[ "$status" -eq 255 ]
	[[ "$output" == *"CC=x: a variable is only for wspx run"* ]]
}

@test "options after FILE are options; a misspelt job or option gets a suggestion" {
	printf 'jobs:\n  test: {run: echo ran}\n  build: {run: "true"}\n' > jobs.yaml
	run --separate-stderr "$WSPX" run jobs.yaml --quiet test -j1
	[ "$status" -eq 0 ]
	[ "$output" = "ran" ]
	run "$WSPX" run jobs.yaml tset
	[ "$status" -eq 255 ]
	[ "$output" = "wspx: jobs.yaml: no job tset (did you mean test?)" ]
	run "$WSPX" run jobs.yaml --jbos 2
	[ "$status" -eq 255 ]
	[[ "$output" == "wspx: unknown option --jbos (did you mean --jobs?)"* ]]
	# (after --, a word is a job's name)
	run "$WSPX" run jobs.yaml -- --quiet
	[ "$status" -eq 255 ]
	[[ "$output" == *"no job --quiet"* ]]
}

@test "--events and -v name a job file's jobs; --tag tags with the name" {
	printf 'jobs:\n  hello: {run: "echo hi"}\n' > jobs.yaml
	run "$WSPX" run --events ev.json jobs.yaml
	[ "$status" -eq 0 ]
	python3 -c '
import json
ev = [json.loads(l) for l in open("ev.json")]
jobs = [e["job"] for e in ev if e["event"] in ("start", "end")]
assert jobs == ["hello", "hello"], ev' 
	run --separate-stderr "$WSPX" run -v jobs.yaml
	[ "${lines[1]}" = "# hello" ]
	[ "${lines[2]}" = "echo hi" ]
	[ "${lines[3]}" = "hi" ]
	run --separate-stderr "$WSPX" run --tag jobs.yaml
	[ "${lines[1]}" = $'hello\thi' ]
}

@test "--resume-failed and --retry-failed find a job file's jobs by name in the joblog" {
	cat > jobs.yaml <<'Y'
jobs:
  build: {run: "echo build >> ran"}
  test:
    needs: [build]
    matrix: {n: [1, 2]}
    run: echo test${{ matrix.n }} >> ran; test ! -e fail${{ matrix.n }}
  report: {needs: [test], run: "echo report >> ran"}
  lint: {run: "echo lint >> ran"}
Y
	touch fail2
	run "$WSPX" run --joblog log jobs.yaml
	[ "$status" -eq 1 ]
	rm fail2 ran
	# the failed leg and what needs it; the rest was done
	run --separate-stderr "$WSPX" run -j1 --joblog log --retry-failed jobs.yaml
	[ "$status" -eq 0 ]
	[ "$(cat ran)" = "$(printf 'test2\nreport')" ]
	[[ "$stderr" == *": 2 ok, 3 done before" ]]
	rm ran
	run "$WSPX" run --joblog log --resume-failed jobs.yaml
	[ "$status" -eq 0 ]
	[ ! -e ran ]
	# --resume: a job with any row is done; a new job is not
	printf '  new: {run: "echo new >> ran"}\n' >> jobs.yaml
	run "$WSPX" run --joblog log --resume jobs.yaml
	[ "$(cat ran)" = "new" ]
	run "$WSPX" run --resume jobs.yaml
	[ "$status" -eq 255 ]
	[[ "$output" == *"--resume needs --joblog FILE"* ]]
}

@test "on a terminal, the status line counts the jobs waiting on needs and names the running one" {
	command -v script >/dev/null || skip "no script(1)"
	cat > jobs.yaml <<'Y'
jobs:
  first: {run: "touch started; until [ -e go ]; do sleep 0.05; done"}
  second: {needs: [first], run: "true"}
  third: {needs: [second], run: "true"}
Y
	TERM=xterm script -qfc "\"$WSPX\" run jobs.yaml" /dev/null > tty 2>&1 &
	pid=$!
	waitfile started 30
	waituntil grep -q 'first [0-9.:s]* | 1 running, 0 queued, 2 waiting' tty
	touch go
	wait "$pid"
	grep -q 'wspx: 3 jobs ok in ' tty
	# (the status line's own summary gives way to the last line)
	! grep -q 'jobs, 0 failed, 0 skipped in' tty
}

@test "wspx run --help lists the options that apply to job files, not those of the input" {
	run "$WSPX" run --help
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "usage: wspx run [OPTIONS] [FILE [JOB...]] [NAME=VALUE...]" ]]
	for o in "-j, --jobs" "--force" "--quiet" "--joblog" "--retry-failed" "--dry-run" "--halt"; do
		grep -qF -- "$o" <<< "$output"
	done
	for o in "--arg-file" "--pipe" "--colsep" "--shell" "--xargs" "--files"; do
		! grep -qF -- "$o" <<< "$output" || false
	done
	# (the stdin mode's help has them all)
	run "$WSPX" --help
	grep -qF -- "--pipe" <<< "$output"
}

# Whether the build job of the --watch test ran $1 times; whether wspx
# has been watching $1 times.
builds() {
	[ "$(grep -c built count)" -eq "$1" ]
}
watches() {
	[ "$(grep -c '^wspx: watching' err)" -eq "$1" ]
}

@test "--watch: an edit of a source runs what it makes out of date; SIGINT stops it, nothing left behind" {
	mkdir -p src/sub tmp
	echo a > src/a.c
	echo b > src/sub/b.c
	cat > jobs.yaml <<'Y'
jobs:
  build:
    sources: ["src/**/*.c"]
    generates: [out]
    run: cat src/a.c src/sub/b.c > out; echo built >> count
  other:
    sources: [jobs.yaml]
    generates: [other.out]
    run: touch other.out; echo other >> count
Y
	TMPDIR=$PWD/tmp env --default-signal "$WSPX" run --watch jobs.yaml > out.log 2> err 3>&- &
	pid=$!
	waituntil grep -q "^wspx: watching .* for changes to the sources (Ctrl-C stops)$" err
	[ "$(sort count)" = "$(printf 'built\nother')" ]
	echo a2 > src/a.c
	waituntil grep -q "a source changed" err
	waituntil builds 2
	# (other is up to date: only what the edit touched ran)
	[ "$(grep -c other count)" -eq 1 ]
	[ "$(cat out)" = "$(printf 'a2\nb')" ]
	# a file deeper down
	echo b2 > src/sub/b.c
	waituntil builds 3
	waituntil watches 3
	kill -INT "$pid"
	waitstatus "$pid"
	[ "$st" -eq 130 ]
	[ "$(grep -c built count)" -eq 3 ]
	grep -qx "wspx: stopped watching: SIGINT" err
	[ -z "$(ls tmp)" ]
	run "$WSPX" --watch echo ::: a
	[ "$status" -eq 255 ]
	printf 'jobs:\n  a: {run: "true"}\n' > nosrc.yaml
	run "$WSPX" run --watch nosrc.yaml
	[ "$status" -eq 255 ]
	[[ "$output" == *"--watch: no job of the run has sources: nothing to watch"* ]]
}

@test "on a terminal, Ctrl-C erases the status line, and the last line says the run was interrupted" {
	command -v script >/dev/null || skip "no script(1)"
	printf 'jobs:\n  a: {run: "touch started; sleep 30"}\n  b: {needs: a, run: "true"}\n' > jobs.yaml
	mkfifo keys
	# (env: a job of a script has SIGINT ignored, and wspx keeps it so)
	TERM=xterm script -qfc "env --default-signal \"$WSPX\" run jobs.yaml" /dev/null < keys > tty 2>&1 &
	pid=$!
	exec 4> keys
	waitfile started 30
	waituntil grep -q 'a [0-9.:s]* | 1 running' tty
	# (the terminal's Ctrl-C: its line discipline sends SIGINT)
	printf '\003' >&4
	waitstatus "$pid"
	exec 4>&-
	last=$(tr '\r' '\n' < tty | grep -v '^$' | tail -1)
	# the status line erased first, then the one line
	[[ "$last" == $'\e[K'"wspx: 2 jobs in "*", interrupted by SIGINT: 1 stopped, 1 not started" ]]
}
