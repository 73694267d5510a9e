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
