#!/usr/bin/env bats
# Which shell runs the command lines that need one: --shell, $WSPX_SHELL,
# the shell wspx was started from, $SHELL, /bin/sh, in that order; and
# bash for a bash function exported with export -f.
#
# Each job reports the shell that ran it: the program of its own process.
# A shell that runs a single command replaces itself with it (exec), so
# each parent shell gets a second command after wspx ("; exit $?").

load helper

# A command line (the ';' needs a shell) that prints the shell's program.
SHOW='readlink /proc/$$/exe; : {}'
export SHOW

# The path of program $1, symbolic links resolved, as /proc shows it.  A
# shell the tests need is not optional: its absence fails the test.
prog() {
	local p
	p=$(command -v "$1") || {
		echo "$1 is not installed: apt-get install $1" >&2
		return 1
	}
	readlink -f "$p"
}

# A fake shell that shows how it was called instead of running anything.
fakeshell() {
	printf '#!/bin/sh\nprintf "%%s|" "$@"; echo\n' > "$1"
	chmod +x "$1"
}

@test "the parent shell runs the jobs: sh, dash, bash" {
	run env SHELL="$(prog bash)" sh -c '"$WSPX" "$SHOW" ::: x; exit $?'
	[ "$status" -eq 0 ]
	[ "$output" = "$(readlink -f /bin/sh)" ]
	run env SHELL="$(prog bash)" dash -c '"$WSPX" "$SHOW" ::: x; exit $?'
	[ "$output" = "$(prog dash)" ]
	run env SHELL="$(prog dash)" bash -c '"$WSPX" "$SHOW" ::: x; exit $?'
	[ "$output" = "$(prog bash)" ]
}

@test "the parent shell runs the jobs: zsh, ksh, mksh" {
	for sh in zsh ksh mksh; do
		run env SHELL="$(prog bash)" "$(prog $sh)" -c \
		    '"$WSPX" "$SHOW" ::: x; exit $?'
		[ "$status" -eq 0 ]
		[ "$output" = "$(prog $sh)" ]
	done
}

@test "the parent shell runs the jobs: busybox sh and ash" {
	local bb
	bb=$(prog busybox)
	# what the job's shell runs: its program and its arguments
	cmd='readlink /proc/$$/exe; tr "\0" " " < /proc/$$/cmdline; : {}'
	export cmd
	for applet in sh ash; do
		run env SHELL="$(prog bash)" busybox $applet -c \
		    '"$WSPX" "$cmd" ::: x; exit $?'
		[ "$status" -eq 0 ]
		[ "${lines[0]}" = "$bb" ]
		[[ "${lines[1]}" == "$bb $applet -c "* ]]
	done
	# called by a link named for the applet, as /bin/sh often is
	ln -s "$bb" sh
	run env SHELL="$(prog bash)" ./sh -c '"$WSPX" "$cmd" ::: x; exit $?'
	[ "${lines[0]}" = "$bb" ]
	[[ "${lines[1]}" == "$bb sh -c "* ]]
}

@test "busybox running another applet is no shell: \$SHELL decides" {
	prog busybox
	# (busybox timeout would exec wspx, as env does; xargs waits for it)
	run env SHELL="$(prog zsh)" sh -c \
	    'echo x | busybox xargs "$WSPX" "$SHOW" :::; exit $?'
	[ "$status" -eq 0 ]
	[ "$output" = "$(prog zsh)" ]
	# and a shell in busybox would have run the job
	run env SHELL="$(prog zsh)" busybox sh -c '"$WSPX" "$SHOW" ::: x; exit $?'
	[ "$output" = "$(prog busybox)" ]
}

@test "a parent that is no shell (python3, timeout) leaves it to \$SHELL" {
	run env SHELL="$(prog zsh)" bash -c '"$WSPX" "$SHOW" ::: x; exit $?'
	[ "$output" = "$(prog bash)" ]
	SHELL=$(prog zsh) run fromprogram "$WSPX" "$SHOW" ::: x
	[ "$status" -eq 0 ]
	[ "$output" = "$(prog zsh)" ]
	SHELL=$(prog mksh) run timeout 60 "$WSPX" "$SHOW" ::: x
	[ "$output" = "$(prog mksh)" ]
}

@test "a \$SHELL that is no shell wspx knows gives way to /bin/sh" {
	fakeshell fish
	for sh in "$PWD/fish" "$(prog python3)" /usr/bin/nu ''; do
		SHELL=$sh run fromprogram "$WSPX" "$SHOW" ::: x
		[ "$status" -eq 0 ]
		[ "$output" = "$(readlink -f /bin/sh)" ]
	done
	unset SHELL
	run fromprogram "$WSPX" "$SHOW" ::: x
	[ "$output" = "$(readlink -f /bin/sh)" ]
	SHELL=$(prog ksh) run fromprogram "$WSPX" "$SHOW" ::: x
	[ "$output" = "$(prog ksh)" ]
}

@test "the parent beats \$SHELL, WSPX_SHELL the parent, --shell WSPX_SHELL" {
	export SHELL
	SHELL=$(prog zsh)
	run dash -c '"$WSPX" "$SHOW" ::: x; exit $?'
	[ "$output" = "$(prog dash)" ]
	WSPX_SHELL=$(prog mksh) run dash -c '"$WSPX" "$SHOW" ::: x; exit $?'
	[ "$output" = "$(prog mksh)" ]
	WSPX_SHELL=mksh run fromprogram "$WSPX" "$SHOW" ::: x
	[ "$output" = "$(prog mksh)" ]
	WSPX_SHELL=mksh run dash -c '"$WSPX" --shell ksh "$SHOW" ::: x; exit $?'
	[ "$output" = "$(prog ksh)" ]
	# an empty WSPX_SHELL is unset
	WSPX_SHELL= run dash -c '"$WSPX" "$SHOW" ::: x; exit $?'
	[ "$output" = "$(prog dash)" ]
}

@test "WSPX_SHELL takes any shell, quoted for its kind, busybox with sh" {
	fakeshell fish
	fakeshell mysh
	WSPX_SHELL=./fish run "$WSPX" 'echo {} |cat' ::: "a'b"
	[ "$output" = "-c|echo 'a\\'b' |cat|" ]
	WSPX_SHELL=$PWD/mysh run "$WSPX" 'echo {} |cat' ::: "a'b"
	[ "$output" = "-c|echo 'a'\\''b' |cat|" ]
	WSPX_SHELL=busybox run "$WSPX" 'tr "\0" " " < /proc/$$/cmdline; : {}' ::: x
	[[ "$output" == "busybox sh -c "* ]]
}

@test "a WSPX_SHELL that cannot run is an error naming it, before any job" {
	mkdir adir
	touch notexec
	for sh in /no/such/shell no-such-shell-here ./notexec ./adir; do
		WSPX_SHELL=$sh run "$WSPX" 'touch ran{}; echo {}' ::: 1 2
		[ "$status" -eq 255 ]
		[[ "$output" == *"WSPX_SHELL=$sh: not a program"* ]]
		[ ! -e ran1 ]
		[ ! -e ran2 ]
	done
	# unless --shell is given: then WSPX_SHELL is not looked at
	WSPX_SHELL=/no/such/shell run "$WSPX" --shell sh 'echo {}; :' ::: 1
	[ "$status" -eq 0 ]
	[ "$output" = 1 ]
}

# A bash function, exported; and a program and a function both named both.
functions() {
	myfunc() { echo "myfunc $* in bash"; }
	both() { echo "function both $*"; }
	export -f myfunc both
	mkdir -p bin
	printf '#!/bin/sh\necho "program both $*"\n' > bin/both
	chmod +x bin/both
	PATH=$PWD/bin:$PATH
}

@test "an exported bash function as COMMAND runs in bash, whatever the shell" {
	functions
	WSPX_SHELL=dash run "$WSPX" -k myfunc ::: a b
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf 'myfunc a in bash\nmyfunc b in bash')" ]
	WSPX_SHELL=dash run "$WSPX" -k 'myfunc {} | tr a-z A-Z' ::: a
	[ "$output" = "MYFUNC A IN BASH" ]
	WSPX_SHELL=dash run "$WSPX" -k -q myfunc 'x y' ::: "a'b"
	[ "$output" = "myfunc x y a'b in bash" ]
	# from a zsh, which passes the function on (dash drops it)
	run "$(prog zsh)" -c '"$WSPX" -k myfunc ::: a; exit $?'
	[ "$output" = "myfunc a in bash" ]
	# from bash, which would have run it directly, without a shell
	run "$WSPX" myfunc ::: a
	[ "$output" = "myfunc a in bash" ]
}

@test "an exported bash function from the input runs in bash" {
	functions
	WSPX_SHELL=dash run "$WSPX" -k {} x ::: myfunc echo
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf 'myfunc x in bash\nx')" ]
	printf '%s\n' 'myfunc a' 'myfunc b|tr a-z A-Z' 'echo $0' > cmds
	WSPX_SHELL=dash run "$WSPX" -k -a cmds
	[ "$output" = "$(printf 'myfunc a in bash\nMYFUNC B IN BASH\ndash')" ]
}

@test "a name that is a program and a function: bash runs the function" {
	functions
	# as GNU parallel: bash prefers the function, other shells run the
	# program
	WSPX_SHELL=bash run "$WSPX" -k both ::: a
	[ "$output" = "function both a" ]
	run "$WSPX" -k {} x ::: both
	[ "$output" = "function both x" ]
	WSPX_SHELL=dash run "$WSPX" -k both ::: a
	[ "$output" = "program both a" ]
	run "$(prog zsh)" -c '"$WSPX" -k both ::: a; exit $?'
	[ "$output" = "program both a" ]
}

@test "an exported function with no bash in PATH fails, saying so" {
	functions
	mkdir nobash
	ln -s "$(prog dash)" nobash/dash
	run env PATH="$PWD/nobash" WSPX_SHELL=dash "$WSPX" -k myfunc ::: a
	[ "$status" -eq 1 ]
	msg='an exported bash function, and no bash in PATH'
	[ "${lines[0]}" = "wspx: cannot run myfunc a: $msg" ]
	run env PATH="$PWD/nobash" WSPX_SHELL=dash "$WSPX" -k {} ::: myfunc
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = "wspx: cannot run myfunc: $msg" ]
}

@test "a command that starts with a shell builtin runs in the shell, as GNU parallel runs it" {
	# dash's echo reads backslash escapes and knows no -e; coreutils'
	# echo, run directly, does the opposite
	run dash -c '"$WSPX" -k echo {} ::: "a\nb" -e; exit $?'
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf 'a\nb\n-e')" ]
	# the same with each input line a command
	run dash -c 'printf "%s\n" "echo a\\\\nb" "echo -e" |
	    "$WSPX" -k; exit $?'
	[ "$output" = "$(printf 'a\nb\n-e')" ]
}
