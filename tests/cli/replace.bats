#!/usr/bin/env bats
# Replacement strings in COMMAND: {} {.} {/} {//} {/.} {#} {%} {n} {n.}
# {n/} {n//} {n/.}, -I and the options that rename them, and appending
# the input when COMMAND has none.

load helper
load gnu

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

@test "--er, --bnr, --bner, --dnr, --seqreplace, --slotreplace as GNU parallel" {
	local o args='/a/b.c a/b.c b.c /a/b a/b b'
	for o in --extensionreplace --er --basenamereplace --bnr \
	    --basenameextensionreplace --bner --dirnamereplace --dnr \
	    --seqreplace --slotreplace; do
		# (one job at a time: {%} is then 1, whatever the machine)
		same -j1 -k "$o" FOO echo FOO ::: $args
		same -j1 -k -X "$o" FOO echo FOO ::: $args
		same -j1 -k "$o" ,, echo x,,y ::: A/B.C
	done
}

@test "a renamed string takes its positional forms along; {} is then text" {
	# GNU parallel reads {1} as a form of {}: renamed, neither is special
	same -k -I X echo X {} {1} ::: d/a.b.c
	same -k --er X echo X {.} {1.} ::: d/a.b.c
	same -k --bnr X echo X {/} {1/} ::: d/a.b.c
	same -k --bner X echo X {/.} {1/.} ::: d/a.b.c
	same -k --dnr X echo X {//} {1//} ::: d/a.b.c
	same -k -j1 --seqreplace X --slotreplace Y echo X Y {#} {%} ::: a b
	# a new name that starts with { has positional forms of its own
	same -k --er '{x}' echo '{x}' '{2x}' '{-1x}' ::: a.b ::: c.d
}

@test "the longer name wins, and a name another string had is taken from it" {
	same -k --er Z --bnr ZZ echo Z ZZ ZZZ ::: d/a.b.c
	same -k --bnr Z --er ZZ echo Z ZZ ZZZ ::: d/a.b.c
	same -k --er {} echo {} X ::: d/a.b.c
	same -k --er {1} echo {1} {2} ::: d/a.b.c
	same -k --seqreplace {} echo {} {#} ::: d/a.b.c
	same -k --plus --er '{+/}' echo '{+/}' '{+.}' ::: a/b.c
	same -k --bnr BNR --er ER 'echo BNR ER; echo {/} {.}' ::: a/b.c
}

@test "--tagstring reads the strings as renamed" {
	same -I X --tagstring X echo X ::: a
	same -I X --tagstring '{}' echo X ::: a
	same --seqreplace S --tagstring 'S{#}' echo ::: a
}

@test "a field number may be followed by blanks, as GNU parallel reads it" {
	same -k echo '{1 }' '{1  .}' '{-1 /}' '{2	//}' ::: a/b.c ::: d/e.f
}

@test "--parens: {= =} is then text; a position alone in the brackets is {n}" {
	same -k echo '{=2=}' '{=-1=}' ::: a ::: b
	same -k --parens ,,,, echo ,,2,, '{=2=}' '{=s/a/b/=}' ::: a ::: b
	same -k --parens '<<>>' echo '<<1>>' x ::: a ::: b
	# with an odd length, the opening half is the shorter, as in GNU
	same -k --parens '<>>' echo '<2>>' ::: a ::: b
}

@test "Perl in --parens' brackets is refused, naming it; nothing runs" {
	run "$WSPX" --parens ,,,, echo ',,s/a/b/,,' ::: a
	[ "$status" -eq 255 ]
	[ "$output" = "wspx: echo ,,s/a/b/,,: ,,s/a/b/,, is Perl code, which GNU parallel runs and wspx does not (use the shell, or --plus strings)" ]
	run "$WSPX" echo '{= $_ .= 1 =}' ::: a
	[ "$status" -eq 255 ]
	[[ "$output" = *": {= \$_ .= 1 =} is Perl code,"* ]]
}

@test "an empty new name, a --parens of one byte, and the retired -U are refused" {
	# (GNU parallel loops for ever on --er '')
	run "$WSPX" --er '' echo ::: a
	[ "$status" -eq 255 ]
	[[ "$output" = "wspx: --er: '' is empty"* ]]
	run "$WSPX" --seqreplace= echo ::: a
	[ "$status" -eq 255 ]
	[[ "$output" = "wspx: --seqreplace: '' is empty"* ]]
	run "$WSPX" --parens x echo ::: a
	[ "$status" -eq 255 ]
	[[ "$output" = "wspx: --parens: 'x' needs an opening and a closing"* ]]
	run "$WSPX" -U x echo ::: a
	[ "$status" -eq 255 ]
	[[ "$output" = *"-U is GNU parallel's and not supported: GNU parallel retired it (use --er)" ]]
}

@test "a job file refuses the options that rename replacement strings" {
	printf 'jobs:\n  a:\n    run: echo hi\n' > jobs.yaml
	for o in --er --bnr --bner --dnr --seqreplace --slotreplace --parens; do
		run "$WSPX" run "$o" XX jobs.yaml
		[ "$status" -eq 255 ]
		[[ "$output" = *"-I, -i, --parens and the options that rename replacement strings: not for a job file"* ]]
	done
}
