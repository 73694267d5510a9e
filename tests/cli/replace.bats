#!/usr/bin/env bats
# Replacement strings in COMMAND: {} {.} {/} {//} {/.} {#} {%} {n} {n.}
# {n/} {n//} {n/.}, -I, and appending the input when COMMAND has none.

load helper

@test "with no replacement string the input is appended" {
	run "$WSPX" echo x ::: a
	[ "$output" = "x a" ]
}

@test "{} {.} {/} {//} {/.}" {
	run "$WSPX" echo {} {.} {/} {//} {/.} ::: dir/sub/file.tar.gz
	[ "$output" = "dir/sub/file.tar.gz dir/sub/file.tar file.tar.gz dir/sub file.tar" ]
	run "$WSPX" echo {.} {/} {//} {/.} ::: file
	[ "$output" = "file file . file" ]
	run "$WSPX" echo {//} ::: /top
	[ "$output" = "/" ]
	run "$WSPX" echo {.} ::: a.b/c
	[ "$output" = "a.b/c" ]
}

@test "{#} is the job's sequence number, {%} its slot" {
	run sh -c 'seq 6 | "$WSPX" -j2 -k echo {#} {%} {}'
	[ "${lines[0]}" = "1 1 1" ] || [ "${lines[0]}" = "1 2 1" ]
	[ "$(printf '%s\n' "${lines[@]}" | awk '{print $1}' | tr '\n' ' ')" = "1 2 3 4 5 6 " ]
	[ "$(printf '%s\n' "${lines[@]}" | awk '$2 < 1 || $2 > 2' | wc -l)" -eq 0 ]
}

@test "{n} and its forms pick the n-th field" {
	run "$WSPX" echo {2} {1} {2.} {1/} {2//} {2/.} ::: a/b.c ::: d/e.f
	[ "$output" = "d/e.f a/b.c d/e b.c d e" ]
	run "$WSPX" echo "[{3}]" ::: a ::: b
	[ "$output" = "[]" ]
}

@test "{-n} counts fields from the last one" {
	run "$WSPX" echo {-1} {-2} {-3}x ::: a ::: b
	[ "$output" = "b a x" ]
	run "$WSPX" --colsep , echo {-1/.} ::: x,dir/f.txt
	[ "$output" = f ]
}

@test "{} with several fields stands for all of them" {
	run "$WSPX" 'printf "%s|" {}' ::: a ::: "b c"
	[ "$output" = "a|b c|" ]
	printf '#!/bin/sh\nfor a; do printf "<%%s>" "$a"; done\n' > args
	chmod +x args
	run "$WSPX" ./args x{}y ::: a ::: "b c"
	[ "$output" = "<xa><b cy>" ]
}

@test "-I sets another string for the argument; {} is then text" {
	run "$WSPX" -I XX echo XX {} ::: a
	[ "$output" = "a {}" ]
	run "$WSPX" -I @ echo @.txt {.} ::: a.b
	[ "$output" = "a.b.txt a" ]
}

@test "a replacement inside a word" {
	run "$WSPX" echo --file={}.out ::: x
	[ "$output" = "--file=x.out" ]
}

@test "-q runs COMMAND's words as they are, one argument each" {
	run "$WSPX" -q sh -c 'echo "$0" "$1"' {} 'two  words' ::: x
	[ "$output" = "x two  words" ]
	run "$WSPX" -q --dry-run printf '%s|' a{}b ::: 'x y'
	[ "$output" = "printf '%s|' 'ax yb'" ]
}

@test "-q keeps the text around a replacement string, blanks and all" {
	run "$WSPX" -q printf '[%s]' 'pre {} post' ::: x
	[ "$output" = "[pre x post]" ]
	run "$WSPX" -q sh -c 'echo {} | tr a-z A-Z' ::: hello
	[ "$output" = HELLO ]
	run "$WSPX" -q printf '[%s]' '  a {} b  ' ::: x
	[ "$output" = "[  a x b  ]" ]
	run "$WSPX" -q --dry-run printf '[%s]' 'pre {} post' ::: x
	[ "$output" = "printf '[%s]' 'pre x post'" ]
}

@test "-q passes an empty word as an empty argument" {
	run "$WSPX" -q printf '[%s]' '' '' x ::: 'a b'
	[ "$output" = "[][][x][a b]" ]
}

# A program that prints each of its arguments in <>, run without a shell.
argsprog() {
	printf '#!/bin/sh\nfor a; do printf "<%%s>" "$a"; done\n' > args
	chmod +x args
}

@test "a field past the last one is no argument, run directly" {
	argsprog
	run "$WSPX" --colsep , ./args {1} {2} {3} ::: a,b
	[ "$output" = "<a><b>" ]
	run "$WSPX" --colsep , ./args x{3}y {1} ::: a,b
	[ "$output" = "<xy><a>" ]
	run "$WSPX" -n 2 -k ./args {1} {2} {3} ::: a b c
	[ "$output" = "<a><b><c>" ]
	echo data > from
	run "$WSPX" --colsep , cp {1} {2} {3} ::: from,to
	[ "$status" -eq 0 ]
	[ "$(cat to)" = data ]
}

@test "a field past the last one is no argument, run by a shell" {
	run "$WSPX" --colsep , 'printf "<%s>" {1} {3} {2} | cat' ::: a,b
	[ "$output" = "<a><b>" ]
	run "$WSPX" --colsep , --dry-run 'printf "<%s>" {1} {3} {2} | cat' ::: a,b
	[ "$output" = 'printf "<%s>" a  b | cat' ]
	run "$WSPX" --colsep , 'printf "<%s>" x{3}y {1} | cat' ::: a,b
	[ "$output" = "<xy><a>" ]
	run "$WSPX" --colsep , 'printf "<%s>" {3.} {3/} {3//} {3/.} {1} | cat' ::: a,b
	[ "$output" = "<a>" ]
}

@test "a field past the last one: with -q an empty argument; {-n} too" {
	run "$WSPX" --colsep , -q printf '<%s>' {1} {2} {3} ::: a,b
	[ "$output" = "<a><b><>" ]
	run "$WSPX" --colsep , -q printf '<%s>' '{3} {3}' ::: a,b
	[ "$output" = "< >" ]
	argsprog
	run "$WSPX" --colsep , ./args {-3} {-1} ::: a,b
	[ "$output" = "<b>" ]
}
