#!/usr/bin/env bats
# Input can never inject shell syntax: values put into a shell command are
# quoted for that shell; commands with no shell syntax run without one.

load helper

# A program that prints each argument on a line of its own.
printargs() {
	printf '#!/bin/sh\nfor a; do printf "%%s\\n" "$a"; done\n' > printargs
	chmod +x printargs
}

hostile() {
	printf '%s\n' '$(touch pwned1)' '`touch pwned2`' "'; touch pwned3; '" \
	    '"; touch pwned4; "' 'a b' '*' '$HOME' '\' 'x;touch pwned5' \
	    '-n' '' > hostile
}

# None of the hostile lines ran as shell syntax.
nopwned() {
	local i
	for i in 1 2 3 4 5; do
		[ ! -e pwned$i ] || { echo "pwned$i exists" >&2; return 1; }
	done
}

@test "hostile input is passed literally when run without a shell" {
	hostile
	printargs
	run "$WSPX" -k -a hostile ./printargs
	[ "$status" -eq 0 ]
	[ "$output" = "$(cat hostile)" ]
	nopwned
}

@test "hostile input is quoted when the command needs a shell" {
	hostile
	run "$WSPX" -k -a hostile 'printf "%s\n" {} | cat'
	[ "$status" -eq 0 ]
	[ "$output" = "$(cat hostile)" ]
	nopwned
}

@test "newlines in -0 input stay inside one argument" {
	printf 'two\nlines\0$(touch pwned)\nx\0' > in
	run "$WSPX" -0 -k -a in 'printf "<%s>\n" {} | cat'
	[ "$output" = "$(printf '<two\nlines>\n<$(touch pwned)\nx>')" ]
	[ ! -e pwned ]
}

@test "fish: a value %self stays data, not fish's process id (found by tests/fuzz/template)" {
	command -v fish > /dev/null || skip "no fish"
	run "$WSPX" -k --shell "$(command -v fish)" echo {} ::: %self %selfx
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf '%s\n' %self %selfx)" ]
	run "$WSPX" --dry-run --shell fish echo {} ::: %self
	[ "$output" = "echo '%self'" ]
}

@test "quoting follows the shell: bash, dash, and fish or csh if present" {
	hostile
	for sh in bash dash fish csh tcsh; do
		path=$(command -v $sh) || continue
		run "$WSPX" -k --shell "$path" -a hostile 'printf "%s\n" {} | cat'
		[ "$status" -eq 0 ]
		[ "$output" = "$(cat hostile)" ]
		nopwned
	done
}

@test "a command with no shell syntax runs without a shell" {
	printargs
	# a shell that leaves a mark when it runs
	printf '#!/bin/sh\ntouch shellran\nexec /bin/sh "$@"\n' > marksh
	chmod +x marksh
	run "$WSPX" --shell ./marksh -k ./printargs {} x ::: "a b"
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf 'a b\nx')" ]
	[ ! -e shellran ]
	run "$WSPX" --shell ./marksh 'echo {} | cat' ::: x
	[ "$status" -eq 0 ]
	[ "$output" = x ]
	[ -e shellran ]
	run "$WSPX" --dry-run echo {} ::: "a b"
	[ "$output" = "echo 'a b'" ]
}

@test "shell builtins with no program of their own run in the shell" {
	# (shopt NAME fails when the option is off)
	run env SHELL=/bin/bash "$WSPX" -k shopt ::: extglob nullglob
	[ "$status" -eq 2 ]
	[[ "${lines[0]}" == extglob*off ]]
	[[ "${lines[1]}" == nullglob*off ]]
	run env SHELL=/bin/bash "$WSPX" 'mapfile -t a <<< {}; echo ${#a[@]}' ::: x
	[ "$output" = 1 ]
	run "$WSPX" cd ::: /
	[ "$status" -eq 0 ]
}

@test "a --shell that cannot run is an error naming it, before any job" {
	mkdir adir
	touch notexec
	for sh in /no/such/shell no-such-shell-here ./notexec ./adir; do
		run "$WSPX" --shell "$sh" 'touch ran{}; echo {}' ::: 1 2
		[ "$status" -eq 255 ]
		[[ "$output" == *"--shell $sh"* ]]
		[ ! -e ran1 ]
		[ ! -e ran2 ]
	done
	run "$WSPX" --shell '' echo ::: 1
	[ "$status" -eq 255 ]
	[[ "$output" == *"--shell"*"empty"* ]]
}

@test "a \$SHELL that cannot run is replaced by /bin/sh" {
	SHELL=/no/such/bash run fromprogram "$WSPX" -k 'echo $0 {}' ::: x y
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf '/bin/sh x\n/bin/sh y')" ]
}

@test "a command with shell syntax runs under \$SHELL or --shell" {
	SHELL=/bin/bash run fromprogram "$WSPX" 'echo $BASH_VERSION {} | grep -c .' ::: x
	[ "$output" = "1" ]
	printf '#!/bin/sh\necho "fake shell: $2"\n' > fakesh
	chmod +x fakesh
	run "$WSPX" --shell ./fakesh 'echo {} | cat' ::: x
	[ "$output" = "fake shell: echo x | cat" ]
}

@test "a \$SHELL wspx cannot quote for is replaced by /bin/sh" {
	SHELL=/usr/bin/nu run fromprogram "$WSPX" 'echo $0 {}' ::: x
	[ "$output" = "/bin/sh x" ]
	SHELL=/bin/bash5 run fromprogram "$WSPX" --dry-run 'echo {} |cat' ::: "a'b"
	[ "$output" = "echo 'a'\''b' |cat" ]
}

@test "each input line with no COMMAND is a whole command" {
	printf 'echo one\necho two && echo three\nprintf "%%s\\n" "quoted words"\n' > cmds
	run "$WSPX" -k -a cmds
	[ "$output" = "$(printf 'one\ntwo\nthree\nquoted words')" ]
}
