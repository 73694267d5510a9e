#!/usr/bin/env bats
# Telling the user what failed: the summary at exit, GitHub Actions'
# groups and ::error:: lines, --eta and --bar.

load helper

@test "summary: each failed job, how it ended, its last stderr lines; the first marked" {
	run sh -c '"$WSPX" -j1 "echo e1 >&2; echo e2 >&2; exit {}" ::: 0 3 5 2>&1 >/dev/null | grep -v "^e[12]$"'
	[ "${lines[0]}" = "wspx: 2 jobs failed:" ]
	[ "${lines[1]}" = "wspx: job 2, the first to fail: exit status 3: echo e1 >&2; echo e2 >&2; exit 3" ]
	[ "${lines[2]}" = "    e1" ]
	[ "${lines[3]}" = "    e2" ]
	[ "${lines[4]}" = "wspx: job 3: exit status 5: echo e1 >&2; echo e2 >&2; exit 5" ]
	[ "${#lines[@]}" -eq 7 ]
}

@test "summary: a signal by name, a timeout, a command that cannot start" {
	run sh -c '"$WSPX" -j1 --timeout 1 ::: "kill -SEGV \$\$" "sleep 30" ./no-such-cmd 2>&1'
	[ "$status" -eq 3 ]
	[[ "$output" == *"wspx: job 1, the first to fail: killed by SIGSEGV: kill -SEGV \$\$"* ]]
	[[ "$output" == *"wspx: job 2: killed after its --timeout (SIGTERM): sleep 30"* ]]
	[[ "$output" == *"wspx: job 3: could not start: No such file or directory: ./no-such-cmd"* ]]
}

@test "summary: only the last 5 stderr lines; control characters escaped; long commands cut" {
	long=$(printf 'x%.0s' $(seq 300))
	run sh -c '"$WSPX" "for i in 1 2 3 4 5 6 7; do echo line\$i >&2; done; printf \"bell\\a\\033[31mred\\n\" >&2; exit 1 # $1" ::: a 2>&1 >/dev/null | sed -n "/^wspx: 1 job failed/,\$p"' sh "$long"
	[ "${lines[0]}" = "wspx: 1 job failed:" ]
	[[ "${lines[1]}" == *"... ("*" bytes)" ]]
	[ "${#lines[1]}" -lt 220 ]
	[ "${lines[2]}" = "    line4" ]
	[ "${lines[5]}" = "    line7" ]
	[ "${lines[6]}" = '    bell\x07\x1b[31mred' ]
	[ "${#lines[@]}" -eq 7 ]
	# the escape character itself never reaches the terminal
	! printf '%s' "$output" | grep -q "$(printf '\033')"
}

@test "summary: a newline in the command is escaped, the stderr tail kept whole" {
	run sh -c '"$WSPX" -q sh -c "echo oops >&2; exit 4" ::: "a
b" 2>&1'
	[[ "$output" == *"exit status 4: sh -c 'echo oops >&2; exit 4' 'a\\nb'"* ]]
	[[ "$output" == *"    oops"* ]]
}

@test "summary: at most 10 failures listed, the rest counted" {
	run sh -c '"$WSPX" -j2 "exit 1 # {}" ::: $(seq 25) 2>&1'
	[ "$status" -eq 25 ]
	[ "${lines[0]}" = "wspx: 25 jobs failed:" ]
	[ "$(printf '%s\n' "${lines[@]}" | grep -c '^wspx: job ')" -eq 10 ]
	[ "${lines[11]}" = "wspx: and 15 more failed jobs" ]
}

@test "summary: cancelled jobs counted apart, with what cancelled them" {
	run sh -c '"$WSPX" -j2 --halt now,fail=1 "sleep {}; exit 1" ::: 0.2 20 20 20 2>&1'
	[ "$status" -eq 1 ]
	[[ "$output" == *"wspx: 1 job failed; 3 cancelled by --halt now,fail=1:"* ]]
	[ "$(printf '%s\n' "${lines[@]}" | grep -c '^wspx: job ')" -eq 1 ]
}

@test "summary: none when nothing failed, none for a retried job that succeeded" {
	run sh -c '"$WSPX" true ::: 1 2 2>&1'
	[ "$status" -eq 0 ] && [ -z "$output" ]
	run sh -c '"$WSPX" --retries 1 "echo x >> n; [ \$(wc -l < n) -ge 2 ] # {}" ::: a 2>&1'
	[ "$status" -eq 0 ] && [ -z "$output" ]
}

@test "summary: a retried job is one failure, with its last attempt" {
	run sh -c '"$WSPX" --retries 2 "echo try\$(cat n 2>/dev/null) >&2; echo x >> n; exit 1 # {}" ::: a 2>&1 >/dev/null | sed -n "/failed:/,\$p"'
	[ "${lines[0]}" = "wspx: 1 job failed:" ]
	[ "${lines[2]}" = "    tryx x" ]
	[ "${#lines[@]}" -eq 3 ]
}

@test "summary: with --results the stderr lines come from the file" {
	run sh -c '"$WSPX" --results out "echo bad >&2; exit 2 # {}" ::: a 2>&1'
	[ "$status" -eq 1 ]
	[ "${lines[1]}" = "wspx: job 1, the first to fail: exit status 2: echo bad >&2; exit 2 # a" ]
	[ "${lines[2]}" = "    bad" ]
}

@test "GitHub Actions: a group per job's output and an ::error:: line per failure, on stdout with the output" {
	run sh -c 'GITHUB_ACTIONS=true "$WSPX" -k -j2 "echo out {}; echo err {} >&2; exit {}" ::: 0 2 2>err >out'
	[ "$status" -eq 1 ]
	# (the runner reads stdout and stderr through two pipes: markers on
	# stderr could land anywhere among the output, and break folding)
	[ "$(sed -n 1,3p out)" = "$(printf '::group::echo out 0; echo err 0 >&2; exit 0\nout 0\n::endgroup::')" ]
	[ "$(sed -n 4,7p out)" = "$(printf '::group::echo out 2; echo err 2 >&2; exit 2\nout 2\n::endgroup::\n::error title=wspx job 2 failed::exit status 2: echo out 2; echo err 2 >&2; exit 2')" ]
	[ "$(sed -n 1,2p err)" = "$(printf 'err 0\nerr 2')" ]
}

@test "GitHub Actions: exactly one group per job on stdout" {
	run sh -c 'GITHUB_ACTIONS=true "$WSPX" -k echo ::: a b 2>/dev/null'
	[ "$output" = "$(printf '::group::echo a\na\n::endgroup::\n::group::echo b\nb\n::endgroup::')" ]
}

@test "GitHub Actions: a job file's groups and errors are titled by the jobs' names" {
	cat > jobs.yaml <<'Y'
jobs:
  t:
    matrix: {n: ["1", "0"]}
    run: |
      echo "testing n=${{ matrix.n }}"
      exit ${{ matrix.n }}
Y
	run sh -c 'GITHUB_ACTIONS=true "$WSPX" run -k jobs.yaml 2>/dev/null'
	jobsonly
	[ "$status" -eq 1 ]
	[ "$output" = "$(printf '::group::t[n=1]\ntesting n=1\n::endgroup::\n::error title=t[n=1] failed::exit status 1\n::group::t[n=0]\ntesting n=0\n::endgroup::')" ]
}

@test "GitHub Actions: %, CR and LF of a command escaped as the runner reads them" {
	run sh -c 'GITHUB_ACTIONS=true "$WSPX" -q printf "%s" ::: "50%
x" 2>/dev/null'
	[ "${lines[0]}" = "::group::printf %25s '50%25%0Ax'" ]
}

@test "GitHub Actions: nothing of it without GITHUB_ACTIONS=true, or in a dry run" {
	run sh -c 'GITHUB_ACTIONS=false "$WSPX" "exit 1 # {}" ::: a 2>&1'
	[[ "$output" != *"::"* ]]
	run sh -c 'GITHUB_ACTIONS=true "$WSPX" --dry-run echo ::: a 2>&1'
	[ "$output" = "echo a" ]
}

@test "GitHub Actions: with --line-buffer, the ::error:: line alone" {
	run sh -c 'GITHUB_ACTIONS=true "$WSPX" --line-buffer "exit 3 # {}" ::: a 2>&1'
	[[ "$output" == *"::error title=wspx job 1 failed::exit status 3: exit 3 # a"* ]]
	[[ "$output" != *"::group::"* ]]
}

@test "--eta and --bar: progress lines off a terminal, the last at the end" {
	for opt in --eta --bar; do
		run sh -c '"$WSPX" '"$opt"' true ::: 1 2 3 2>&1 </dev/null'
		[ "$status" -eq 0 ]
		[[ "${lines[${#lines[@]}-1]}" == "wspx 3/3 100% |"*"ETA"* ]]
	done
}
