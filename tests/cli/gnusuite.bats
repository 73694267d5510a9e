#!/usr/bin/env bats
# What GNU parallel's own test suite (its 2015 mirror, run case by case
# with GNU parallel 20221122 and with wspx behind a `parallel` shim) found
# wspx doing otherwise: each case compared with GNU parallel on the same
# input.

load helper
load gnu

@test "-N0: {} and the other replacement strings of a job of no arguments are no argument, with and without -q" {
	seq 2 > in
	IN=in same -k -N0 echo replace {} curlies
	[ "$(cat wspx.out)" = "replace curlies
replace curlies" ]
	IN=in same -k -N0 echo replace {} curlies\;
	IN=in same -k -N0 -q echo a x{}y {1} {.} {/} b
	[ "$(head -1 wspx.out)" = "a xy b" ]
	IN=in same -k -N0 -q echo a {.} {#} b
	IN=in same -k -N0 -X echo a {} b
	IN=in same -k -N0 --tagstring 't{}t' echo a {} b
	# (a field a job with arguments does not have stays '' with -q)
	same -k -q --colsep , echo a {2} b ::: x
	[ "$(cat wspx.out)" = "a  b" ]
	same -k -q echo a {} b ::: ''
}

@test "-n 0 is -N 0 unless -N is given: a job per record, with no argument" {
	seq 3 > in
	IN=in same -k -n 0 echo x
	[ "$(cat wspx.out)" = "$(printf 'x\nx\nx')" ]
	IN=in same -k -n 0 echo {} x
	IN=in same -k -n 0 -N 2 echo x
	[ "$(cat wspx.out)" = "$(printf 'x 1 2\nx 3')" ]
	IN=in same -k -N 1 -n 0 echo x
	# 000 is 0 too
	IN=in same -k -n 000 echo x
	IN=in same -k -N 00 echo x
}

# A joblog's rows with the times (Starttime, JobRuntime) blanked.
untimed='awk -F "\t" -v OFS="\t" "NF == 9 && \$1 != \"Seq\" { \$3 = \$4 = \"T\" } 1"'

@test "--joblog - writes the joblog to stdout, the header first and each row after its job's output" {
	FILTER=$untimed same -k -j3 --joblog - 'sleep {}; echo out {}' ::: \
	    0.3 0.1 0.2
	[ "$(sed -n 1p wspx.out | cut -f1,9)" = "$(printf 'Seq\tCommand')" ]
	[ "$(sed -n 3p wspx.out | cut -f1,6,9)" = \
	    "$(printf '1\t8\tsleep 0.3; echo out 0.3')" ]
	FILTER=$untimed same -k --joblog - 'echo {}; exit {}' ::: 0 1 2
	FILTER=$untimed same -j1 --joblog - echo ::: a b c
	# a dry run runs nothing to log
	same --dry-run --joblog - echo ::: a b
	[ ! -e ./- ]
}

@test "--joblog -: a row follows its job's last byte in every output mode, and no frame drops a retry's row" {
	# (a last line without its newline: the row goes on after it; and
	# Receive blanked: GNU counts 2 bytes of "x" with --lb, 0 with -u;
	# and --files' names, which are random)
	local unsized="$untimed | awk -F '\t' -v OFS='\t' 'NF == 9 { \$6 = \"B\" } 1' | sed 's|^/tmp/par.*[.]par\$|FILE|'"
	for o in --lb -u --files '--files --lb'; do
		FILTER=$unsized same $o --joblog - printf x ::: 1
	done
	"$WSPX" --files --lb --joblog - printf x ::: 1 > files.out
	[ "$(cat "$(sed -n 2p files.out)")" = x ]
	[ "$(sed -n 3p files.out | cut -f1,6)" = "$(printf '1\t1')" ]
	# -k: job 2 ends first, and its row waits for job 1's output
	cat > order.sh <<'EOS'
if [ "$1" = 2 ]; then echo two; : > two.done; exit 0; fi
while [ ! -e two.done ]; do sleep 0.05; done
sleep 0.3
echo one
EOS
	for o in --lb --group; do
		rm -f two.done
		FILTER=$untimed same -k -j2 $o --joblog - sh order.sh ::: 1 2
		[ "$(cut -f1 wspx.out | tr '\n' ' ')" = "Seq one 1 two 2 " ]
	done
	# GitHub Actions' folding frames each job; each attempt keeps its row
	GITHUB_ACTIONS=true run "$WSPX" --retries 3 --joblog - 'echo hi; exit 1' \
	    ::: 1
	[ "$status" -eq 1 ]
	[ "$(printf '%s\n' "$output" | grep -c "$(printf '^1\t:\t')")" -eq 4 ]
	[[ "$output" == *"::endgroup::"* ]]
}

@test "--joblog - with --resume and its kin is refused: there is no file to resume from" {
	for o in --resume --resume-failed --retry-failed; do
		run "$WSPX" --joblog - $o echo ::: a
		[ "$status" -eq 255 ]
		[[ "$output" == *"$o needs --joblog FILE: --joblog - writes"* ]]
	done
	printf 'jobs:\n  a:\n    run: echo a\n' > wspx.yml
	run "$WSPX" run --joblog - --resume
	[ "$status" -eq 255 ]
	[[ "$output" == *"--resume needs --joblog FILE: --joblog - writes"* ]]
	[ ! -e ./- ]
}

@test "--files: the joblog's Receive counts the bytes of each job's file, as GNU parallel's" {
	needgnu
	mkdir g w
	parallel -j1 --files --tmpdir g --joblog gnu.log 'printf %{}s x' ::: \
	    1 20 300 > /dev/null
	"$WSPX" -j1 --files --tmpdir w --joblog wspx.log 'printf %{}s x' ::: \
	    1 20 300 > /dev/null
	cut -f1,5-9 gnu.log > gnu.rows
	cut -f1,5-9 wspx.log > wspx.rows
	diff gnu.rows wspx.rows
	[ "$(sed -n 4p wspx.rows | cut -f3)" = 300 ]
}

@test "-L with ::: arguments: an argument ending in a blank goes on into the next, as a line does" {
	same -kr -L2 echo ::: foo '' 'ole ' bar quux
	[ "$(cat wspx.out)" = "foo ole bar
quux" ]
	same -k -L2 echo ::: foo '' 'ole ' bar quux
	same -k -L1 echo ::: 'a ' 'b  ' c d
	same -k -L2 --colsep , echo {1}-{2} ::: 'a,b ' c,d e,f
	# (the list as a file, the same lines)
	printf '%s\n' foo '' 'ole ' bar quux > args
	same -kr -L2 echo :::: args
}

@test "-E: the end mark ends the input also where a continued line would go on" {
	printf '%s\n' foo '' 'ole ' bar quux > in
	IN=in same -kr -L2 -E bar echo
	[ "$(cat wspx.out)" = "foo ole " ]
	IN=in same -k -L2 -E bar echo
	IN=in same -kr -L1 -E bar echo
	same -k -L1 -E c echo ::: 'a ' 'b  ' c d
	same -k -L1 -E c echo ::: 'a ' 'b  ' d c x
}

@test "-X: --tagstring gets the context replacement, a word repeated per argument" {
	same -j1 -X --tagstring a{}b echo ::: 3 4
	[ "$(cat wspx.out)" = "a3b a4b	3 4" ]
	same -j1 -X --tagstring a{.}b echo ::: 3.x 4.y
	same -j1 -kX --tagstring {#}:{} echo ::: a c ::: b
	# (-m and a job of one argument are as before)
	same -j1 -k -m --tagstring t{}t echo {} ::: a c
	same -j1 -k --tagstring t{}t echo {} ::: a c
}

@test "-X with several sources or --colsep repeats the word once per argument, not per record" {
	same -j1 -kX echo {}-{.} ::: a ::: b
	[ "$(cat wspx.out)" = "a-a b-b" ]
	same -j1 -kX echo {}-{.} ::: a c ::: b d
	same -j1 -kX echo {#}-{} ::: a ::: b
	same -j1 -kX echo {/}_{} ::: x/a x/c ::: b
	same -j1 -kX --colsep , echo {}- ::: a,b c,d
	# a field by number is the job's, in every repetition
	same -j1 -kX echo {}-{2} ::: a c ::: b d
	same -j1 -kX echo {1}-{} ::: a c ::: b d
	same -j1 -kX -q echo 'x{}y' ::: 'a b' c
	same -j1 -km echo {}-{.} ::: a ::: b
}

@test "--transfer-file, --return and --cleanup without -S: a warning each, and the jobs run here" {
	same -k --transferfile {} echo ::: a b
	[ "$(cat wspx.err)" = "wspx: --transfer-file is ignored without a remote host (-S)" ]
	same --return {}.out echo ::: a
	[ "$(cat wspx.err)" = "wspx: --return is ignored without a remote host (-S)" ]
	same --cleanup echo ::: a
	[ "$(cat wspx.err)" = "wspx: --cleanup is ignored without a remote host (-S)" ]
	same --trc {}.out echo ::: a
	[ "$(wc -l < wspx.err)" -eq 3 ]
	same --transfer echo ::: a
	# -S : is this machine: nothing to say
	same -S : --cleanup echo ::: a
	[ ! -s wspx.err ]
}

@test "--header with a regex that may match nothing is tried on the input, not on the empty start" {
	printf '%%head1\n%%head2\n1\n2\n3\n4\n' > in
	IN=in same -k --pipe -N2 --header '(%.*\n)*' 'echo JOB{#}; cat'
	[ "$(cat wspx.out)" = "JOB1
%head1
%head2
1
2
JOB2
%head1
%head2
3
4" ]
	cp wspx.out want
	(printf '%%h%s\n' 1 2 3; seq 1 20000) > big
	IN=big same -k --pipe -N 1000 --header '(%.*\n)*' 'echo J; cat'
	IN=big same -k --pipe --block 10k --header '(%.*\n)+' 'echo J; cat'
	# (--pipepart alike; GNU parallel gives the first block the first
	# line alone, the second the second, the rest none)
	run "$WSPX" -k --pipepart -a in --header '(%.*\n)*' 'echo JOB{#}; cat'
	[ "$output" = "$(cat want)" ]
	# a pipe that gives the header a line at a time
	{ printf '%%head1\n'; sleep 0.2; printf '%%head2\n1\n2\n3\n4\n'; } |
	    "$WSPX" -k --pipe -N2 --header '(%.*\n)*' 'echo JOB{#}; cat' > out
	[ "$(cat out)" = "$(cat want)" ]
}

# The Seq column of a joblog's rows, in the order of their Starttime.
startorder='awk -F "\t" "NF == 9 && \$1 != \"Seq\"" |
    sort -t "$(printf "\t")" -s -k3,3n | cut -f1'

@test "--delay keeps the input order of the starts: the slots do not race for the turn" {
	seq 10 > in
	IN=in FILTER=$startorder same -j4 --timeout 1 --delay .3 --joblog - \
	    echo
	[ "$(cat wspx.out)" = "$(seq 10)" ]
	# (and through the gates for memory and load, open)
	"$WSPX" -j4 --delay .1 --memfree 1k --load 1000 --joblog - echo \
	    :::: in | sh -c "$startorder" > gates.out
	[ "$(cat gates.out)" = "$(seq 10)" ]
}
