#!/usr/bin/env bats
# GNU parallel habits wspx takes as GNU parallel 20221122 does, each
# compared with it where it runs: durations in every form it reads.

load helper
load gnu

@test "a duration in GNU parallel's forms, units summed, any case: as GNU parallel" {
	local d
	# (GNU parallel's --timeout takes no number without a unit after
	# one with: 1m30 is refused there, read by its --delay; wspx takes
	# it in both)
	for d in 2h30m 1d 1m30s 1.5h 2H 1D 30m1h 23h59m60s 1s1s 10 0.5m; do
		same -k --timeout "$d" echo ::: a b
		[ "$(cat wspx.out)" = "a
b" ]
	done
	for d in 0m0 0h0.0m0s 0.0d; do
		same -k --delay "$d" echo ::: a b
	done
	run "$WSPX" -k --timeout 1m30 echo ::: a b
	[ "$status" -eq 0 ]
}

@test "--timeout 0m0.5s kills a sleep of 10 s, as GNU parallel does" {
	same --timeout 0m0.5s sleep ::: 10
	[ ! -s wspx.out ]
}

@test "a duration's units are summed: 23h59m60s is a day, one second more is refused with the option" {
	run "$WSPX" --timeout 23h59m61s echo ::: a
	[ "$status" -eq 255 ]
	[ "${lines[0]}" = "wspx: --timeout: '23h59m61s' is more than a day" ]
	run "$WSPX" --delay 1440m1 echo ::: a
	[ "$status" -eq 255 ]
	[ "${lines[0]}" = "wspx: --delay: '1440m1' is more than a day" ]
	run "$WSPX" --timeout 86399s1000ms echo ::: a
	[ "$status" -eq 0 ]
	[ "$output" = a ]
}

@test "what GNU parallel evaluates as Perl is not a duration: 1m/3, 1h-1m, 1e3" {
	local d
	for d in 1m/3 1h-1m 1e3 '1 m' 1mx; do
		run "$WSPX" --timeout "$d" echo ::: a
		[ "$status" -eq 255 ]
		[ "${lines[0]}" = "wspx: --timeout: '$d' is not a duration (like 2s, 500ms, 1m30s, 2h, 1d)" ]
	done
}

@test "a job file's timeout: and the sleep builtin take the same forms" {
	cat > jobs.yaml <<'Y'
defaults: {timeout: 1h30m}
jobs:
  a: {run: "true", timeout: 1m30}
  b: {builtin: sleep, with: {duration: 0m0.1s}}
  c: {run: "true", timeout: 2h30m1s}
Y
	run "$WSPX" check jobs.yaml
	[ "$status" -eq 0 ]
	run "$WSPX" run jobs.yaml
	[ "$status" -eq 0 ]
	sed -i 's/2h30m1s/24h0m1s/' jobs.yaml
	run "$WSPX" check jobs.yaml
	[ "$status" -eq 255 ]
	[ "$output" = "jobs.yaml:5:29: timeout: '24h0m1s' is more than a day" ]
}

@test "a retried job's joblog has a row per attempt; wspx(1)'s awk counts the failed jobs" {
	local man=$BATS_TEST_DIRNAME/../../man/wspx.1 count
	# ok ends well, once on its second attempt, never on none of four
	run "$WSPX" --retries 3 --joblog log '[ {} != never ] || exit 2
	    [ -e flag{} ] && exit 0; touch flag{}; [ {} = ok ]' ::: ok once never
	[ "$status" -eq 1 ]
	[ "$(awk -F'\t' 'NR > 1 && $7 != 0' log | wc -l)" -eq 5 ]
	count=$(sed -n '/in the joblog of one run:/,/^\.Ed/p' "$man" |
	    sed '1,2d;$d; s/\\e/\\/g')
	[ -n "$count" ]
	[ "$(sh -c "$count")" = 1 ]
}

@test "\$PARALLEL_PID: every job of the input gets the process ID of its wspx, as with GNU parallel" {
	needgnu
	local who
	for who in parallel "$WSPX"; do
		sh -c 'echo $$; exec "$0" -k "echo \$PARALLEL_PID" ::: a b' \
		    "$who" > out
		[ "$(wc -l < out)" -eq 3 ]
		[ "$(sed -n 2p out)" = "$(sed -n 1p out) a" ]
		[ "$(sed -n 3p out)" = "$(sed -n 1p out) b" ]
	done
	# (an outer one's is replaced)
	PARALLEL_PID=1 "$WSPX" 'echo $PARALLEL_PID' ::: a > out
	[ "$(cat out)" != "1 a" ]
	# a job file's jobs get none, as they get no $PARALLEL_SEQ
	printf 'jobs:\n  a:\n    run: echo "pid=$PARALLEL_PID"\n' > wspx.yml
	env -u PARALLEL_PID "$WSPX" run --quiet > out
	[ "$(cat out)" = "pid=" ]
}

@test "--number-of-cpus, -cores, -threads and -sockets count the CPUs wspx may run on, as GNU parallel does" {
	local o
	for o in --number-of-cpus --number-of-cores --number-of-threads \
	    --number-of-sockets; do
		same $o
		[ "$(cat wspx.out)" -ge 1 ]
	done
	[ "$(cat wspx.out)" -le "$("$WSPX" --number-of-cores)" ]
	[ "$("$WSPX" --number-of-cores)" -le "$("$WSPX" --number-of-threads)" ]
	[ "$("$WSPX" --number-of-threads)" -eq "$(nproc)" ]
	# on one CPU of the affinity mask (taskset), as nproc counts
	command -v taskset > /dev/null || skip "taskset is not installed"
	for o in --number-of-cores --number-of-threads --number-of-sockets; do
		[ "$(taskset -c 0 "$WSPX" $o)" -eq 1 ]
		[ "$(taskset -c 0 parallel $o)" -eq 1 ]
	done
	# and -j's default is that one CPU: every job in slot 1
	seq 4 | taskset -c 0 "$WSPX" echo {%} > slots
	[ "$(sort -u slots)" = 1 ]
}

@test "--nice N: each job, and every process of its pipeline, runs at niceness N, as with GNU parallel" {
	local n
	for n in 7 19 40 -3; do
		same -k --nice "$n" 'nice | cat; : {}' ::: a b
	done
	[ "$(sort -u wspx.out)" = "$(nice -n -3 nice)" ]
	# 0 keeps wspx's own, as GNU parallel's --nice 0 does
	for who in parallel "$WSPX"; do
		nice -n 4 "$who" --nice 0 'nice; : {}' ::: a > out
		[ "$(cat out)" = 4 ]
	done
	# a job file's jobs too
	printf 'jobs:\n  a:\n    run: nice\n' > wspx.yml
	"$WSPX" run --quiet --nice 9 > out
	[ "$(cat out)" = 9 ]
	run "$WSPX" --nice 1.5 nice ::: a
	[ "$status" -eq 255 ]
	[[ "$output" == *"--nice: '1.5' is not a whole number"* ]]
}

@test "--header : names the fields of each ::: source by its first value, as GNU parallel does" {
	run "$WSPX" -k --header : echo {a} {b} ::: a 1 2 ::: b x y
	[ "$status" -eq 0 ]
	[ "$output" = "1 x
1 y
2 x
2 y" ]
	run "$WSPX" -k --header : --link echo {b}{a} ::: a 1 2 ::: b x y
	[ "$output" = "x1
y2" ]
	# a header alone makes no job
	run "$WSPX" --header : echo {a} ::: a
	[ "$status" -eq 0 ] && [ -z "$output" ]
	same -k --header : echo {a} {b} ::: a 1 2 ::: b x y
	same -k --header : echo {a} {b} ::: a 1 2 :::+ b x y
	same -k --header : --tagstring {a} echo {#} ::: a 1 2
	same -k --header : -N2 echo {a} ::: a 1 2 3
	same --header : echo {a} ::: a
}

@test "--header on stdin or -a files splits the first line at TABs, untrimmed, or at --colsep" {
	printf 'a\tb\n1\t2\n3\t4\n' > tab
	printf 'x/d.c\n1/q.txt\n' > path
	printf 'a,b\n 1 , 2 \n' > csv
	printf 'n\tm\n 1 \t 2\n' > blanks
	run "$WSPX" -k --header : echo {b}-{a} {1} < tab
	[ "$output" = "2-1 1
4-3 3" ]
	run "$WSPX" -k --header : --colsep , -a csv echo "[{b}]"
	[ "$output" = "[2]" ]
	# GNU parallel's five forms of a name
	run "$WSPX" --header : -a path echo {x/d.c.} {x/d.c/} {x/d.c//} \
	    {x/d.c/.}
	[ "$output" = "1/q q.txt 1 q" ]
	IN=tab same -k --header : echo {a}-{b}
	IN=tab same -k --header : echo
	IN=tab same -k --header 1 echo {b}
	IN=tab same -k --header 0 echo {b}
	IN=csv same -k --header : --colsep , echo "[{a}]" "[{b}]"
	IN=blanks same -k --header : echo "[{n}]" "[{m}]"
	IN=path same -k --header : echo {x/d.c.} {x/d.c/} {x/d.c//} {x/d.c/.}
	same -k --header : -a tab -a path echo {a} {b} {x/d.c}
}

@test "--header's record is the first as it is: -r, -E and -L skip none, a CRLF line's CR is not in the names" {
	printf '\na\n1\n' > blankfirst
	printf 'a\r\n1\r\n' > crlf
	printf 'a \nb\n1\n' > cont
	run "$WSPX" -k -r --header : echo "[{a}]" < blankfirst
	[ "$output" = "[{a}] a
[{a}] 1" ]
	run "$WSPX" --header : echo "[{a}]" < crlf
	[ "$output" = $'[1\r]' ]
	IN=blankfirst same -k -r --header : echo "[{a}]"
	IN=crlf same -k --header : echo "[{a}]"
	printf 'a\r\0001\0' > crlf0
	IN=crlf0 same -k -0 --header : echo "[{a}]"
	IN=cont same -k -L1 --header : echo "[{a }]"
	same -k -E a --header : echo "[{a}]" ::: a b a c
}

@test "--header's names are data: a value's quoting is {1}'s, and a name read as a number means its own field" {
	run "$WSPX" -k --header : echo {a} ::: a '$(echo X)' "it's" ';echo Y'
	[ "$output" = "\$(echo X)
it's
;echo Y" ]
	# (GNU parallel rewrites {2} to {1}, then {1} to {2}: "y y")
	run "$WSPX" -k --header : echo {2} {1} ::: 2 x ::: 1 y
	[ "$output" = "x y" ]
	# a name that is the first of two fits both; an empty one is none
	run "$WSPX" -k --header : echo {a} {} ::: a 1 ::: a 2 ::: '' 3
	[ "$output" = "1 1 2 3" ]
}

@test "--header is taken without --pipe (--cat and its kin are not), and with --pipe is the blocks' header" {
	run "$WSPX" --header : --cat cat ::: a 1
	[ "$status" -ne 0 ]
	[[ "$output" == *"--cat needs --pipe"* ]]
	# (--semaphore's command has no input to name; a home of the
	# test's own for the semaphore)
	export PARALLEL_HOME=$BATS_TEST_TMPDIR/ph
	mkdir -p "$PARALLEL_HOME"
	run "$WSPX" --semaphore --fg --header : echo hi
	[ "$status" -eq 0 ] && [ "$output" = hi ]
	run "$WSPX" -k --header : --pipe cat <<< $'a\n1'
	[ "$output" = "a
1" ]
}
