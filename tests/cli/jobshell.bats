#!/usr/bin/env bats
# The shell of a job file's commands (wspx(5), "shell"): its shell:, else
# /bin/sh, never the caller's; -e, so that a script stops at its first
# failing line; the job's own PATH; lists in every shell.

load helper

@test "a job file's commands run in /bin/sh whoever calls wspx, zsh included" {
	command -v zsh >/dev/null || skip "no zsh"
	cat > jobs.yaml <<'Y'
env: {CFLAGS: "-O2 -g"}
jobs:
  words: {run: 'set -- $CFLAGS; echo "$# words"'}
Y
	run zsh -c '"$WSPX" run jobs.yaml'
	jobsonly
	[ "$status" -eq 0 ]
	[ "$output" = "2 words" ]
	SHELL=$(command -v zsh) WSPX_SHELL=zsh run fromprogram "$WSPX" run jobs.yaml
	jobsonly
	[ "$output" = "2 words" ]
}

@test "--shell is refused for a job file, which names its own shell" {
	printf 'jobs:\n  a: {run: touch ran}\n' > jobs.yaml
	run "$WSPX" run --shell bash jobs.yaml
	[ "$status" -eq 255 ]
	[[ "$output" == *"--shell (a job file's commands run in its shell:, else in /bin/sh): not for a job file"* ]]
	[ ! -e ran ]
}

@test "a script stops at its first failing line, as make, just and GitHub Actions stop" {
	cat > jobs.yaml <<'Y'
jobs:
  s:
    run: |
      echo before
      false
      echo after
  b:
    shell: bash
    run: |
      false
      echo after-bash
Y
	run "$WSPX" run jobs.yaml
	[ "$status" -eq 2 ]
	[[ "$output" == *"before"* ]]
	# (the summary of failures shows the commands, on one line each)
	! grep -qx 'after\|after-bash' <<< "$output"
}

@test "a command without a shell finds its program in the job's own PATH" {
	mkdir bin
	printf '#!/bin/sh\necho mytool ran\n' > bin/mytool
	chmod +x bin/mytool
	cat > jobs.yaml <<Y
jobs:
  t: {env: {PATH: "$PWD/bin:/usr/bin:/bin"}, run: mytool}
Y
	run "$WSPX" run jobs.yaml
	jobsonly
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$output" = "mytool ran" ]
}

@test "jobs with PATHs of their own each find their own program of one name" {
	mkdir one two
	printf '#!/bin/sh\necho one\n' > one/mytool
	printf '#!/bin/sh\necho two\n' > two/mytool
	chmod +x one/mytool two/mytool
	# (the same program named in two PATHs, each job more than once: a
	# lookup remembered by name alone would give both the same)
	cat > jobs.yaml <<Y
jobs:
  a: {env: {PATH: "$PWD/one:/usr/bin:/bin"}, matrix: {n: [1, 2, 3]}, run: mytool}
  b: {env: {PATH: "$PWD/two:/usr/bin:/bin"}, matrix: {n: [1, 2, 3]}, run: mytool}
Y
	run "$WSPX" run -j2 jobs.yaml
	jobsonly
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(grep -cx one <<< "$output")" -eq 3 ]
	[ "$(grep -cx two <<< "$output")" -eq 3 ]
}

@test "a relative entry of a job's PATH is looked for from the job's directory" {
	mkdir -p sub/bin bin elsewhere
	printf '#!/bin/sh\necho from sub\n' > sub/bin/mytool
	printf '#!/bin/sh\necho from the caller\n' > bin/mytool
	chmod +x sub/bin/mytool bin/mytool
	cat > jobs.yaml <<'Y'
jobs:
  t: {dir: sub, env: {PATH: "bin:/usr/bin:/bin"}, run: mytool}
Y
	run "$WSPX" run jobs.yaml
	jobsonly
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$output" = "from sub" ]
	cd elsewhere
	run "$WSPX" run ../jobs.yaml
	jobsonly
	[ "$status" -eq 0 ]
	[ "$output" = "from sub" ]
}

@test "an empty entry of a job's PATH is the job's directory, as execvp has it" {
	mkdir -p sub
	printf '#!/bin/sh\necho from sub\n' > sub/mytool
	chmod +x sub/mytool
	# (a trailing colon, as PATH=$PATH:$X leaves with X empty; and one
	# between two entries)
	cat > jobs.yaml <<'Y'
jobs:
  a: {dir: sub, env: {PATH: "/usr/bin:/bin:"}, run: mytool}
  b: {dir: sub, env: {PATH: "/usr/bin::/bin"}, run: mytool}
Y
	run "$WSPX" run -j1 jobs.yaml
	jobsonly
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf 'from sub\nfrom sub')" ]
}

@test "run: lists work in every shell, stop at the first failing string, and take an empty string" {
	local sh
	for sh in sh bash zsh fish tcsh; do
		command -v "$sh" >/dev/null || continue
		cat > jobs.yaml <<Y
jobs:
  ok: {shell: $sh, run: ["echo one", "", "echo two"]}
  bad: {shell: $sh, run: ["echo first", "false", "echo never"]}
  empty: {shell: $sh, run: [""]}
Y
		run "$WSPX" run -j1 jobs.yaml
		echo "$sh: $output"
		[ "$status" -eq 1 ]
		grep -qx one <<< "$output"
		grep -qx two <<< "$output"
		grep -qx first <<< "$output"
		! grep -q '^never' <<< "$output" || false
		[[ "$output" == *"1 job failed"* ]]
	done
}

@test "a shell that is not a program, or is not one shell's name, is an error at its place" {
	cat > jobs.yaml <<'Y'
defaults: {shell: /nonexistent/bash}
jobs:
  a: {run: "touch ran"}
  b: {shell: "bash -e", run: "touch ran"}
  c: {shell: python3, run: "touch ran"}
  d: {shell: ksh99, run: "touch ran"}
Y
	run "$WSPX" check jobs.yaml
	echo "$output"
	[ "$status" -eq 255 ]
	[[ "$output" == *"jobs.yaml:4:14: shell needs a program, without arguments"* ]]
	[[ "$output" == *"jobs.yaml:5:14: shell: 'python3' is not a shell wspx writes commands for"* ]]
	sed -i '/^  [bc]:/d' jobs.yaml
	run "$WSPX" check jobs.yaml
	[ "$status" -eq 255 ]
	[[ "$output" == *"jobs.yaml:1:19: shell: /nonexistent/bash: no such program"* ]]
	[[ "$output" == *"jobs.yaml:4:14: shell: ksh99: no such program in PATH"* ]]
	run "$WSPX" run jobs.yaml
	[ "$status" -eq 255 ]
	[[ "$output" == *"jobs.yaml:1:19: shell: /nonexistent/bash: no such program"* ]]
	[ ! -e ran ]
}

@test "the shell a job names is found in wspx's PATH, whatever PATH its env: sets" {
	command -v bash >/dev/null || skip "no bash"
	cat > jobs.yaml <<'Y'
jobs:
  a: {shell: bash, env: {PATH: /nonexistent}, run: 'echo "in $PATH"'}
Y
	run "$WSPX" run jobs.yaml
	[ "$status" -eq 0 ]
	[[ "$output" == *"in /nonexistent"* ]]
}

@test "the ssh of hosts: is found in wspx's PATH, not in the PATH a job's env: sets for the host" {
	# (a stand-in for ssh that runs the command here: the -M and -O of
	# a control master end at once; the command follows "--" and a host)
	mkdir bin
	cat > bin/myssh <<'S'
#!/bin/sh
for a; do case $a in -M|-O) exit 0 ;; esac; done
while [ $# -gt 0 ] && [ "$1" != "--" ]; do shift; done
shift 2
exec /bin/sh -c "$1"
S
	chmod +x bin/myssh
	cat > jobs.yaml <<'Y'
hosts: [fakehost]
jobs:
  a: {env: {PATH: "/opt/remote-only/bin:/bin:/usr/bin"}, run: "echo remote-ok"}
Y
	PATH="$PWD/bin:$PATH" run "$WSPX" --ssh myssh run jobs.yaml
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"remote-ok"* ]]
}
