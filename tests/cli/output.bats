#!/usr/bin/env bats
# Output: grouped (default), --line-buffer, -u, -k, --tag, --tagstring; no
# byte lost and none interleaved, whatever the jobs print.

load helper
load gnu

# A script printing $2 lines "job $1 line N" (N = 1..$2), 10000 at a time.
bigjob() {
	cat > big <<'SH'
#!/bin/sh
awk -v j="$1" -v n="$2" 'BEGIN { for (i = 1; i <= n; i++) print "job " j " line " i }'
SH
	chmod +x big
}

@test "large outputs of concurrent jobs arrive whole and ungarbled" {
	bigjob
	run sh -c '"$WSPX" -j8 ./big {} 100000 ::: 1 2 3 4 5 6 7 8 > out'
	[ "$status" -eq 0 ]
	# byte for byte: the same as running the jobs one by one
	for j in 1 2 3 4 5 6 7 8; do ./big $j 100000; done | sort > want
	sort out | cmp - want
	# grouped: each job's lines are contiguous and in order
	[ "$(awk '{print $2}' out | uniq | wc -l)" -eq 8 ]
	awk '{ if ($2 == last && $4 != n + 1) exit 1; last = $2; n = $4 }' out
}

@test "a job's stdout comes whole, then its stderr" {
	run "$WSPX" -j2 'echo out1; echo err1 >&2; echo out2; echo err2 >&2; : {}' ::: x
	[ "$output" = "$(printf 'out1\nout2\nerr1\nerr2')" ]
}

@test "memory stays bounded: large output spills to a file" {
	bigjob
	# 4 jobs printing 20 MB each, then 4 printing 100 MB each: held in
	# memory the second run would take 320 MB more; spilled, the same
	# (output memory is 64 MiB in all).  Compared with each other, not
	# with a fixed size, so that it holds under the sanitizers too.
	small=$(maxrss sh -c '"$WSPX" -j4 ./big {} 1000000 ::: 1 2 3 4 > out')
	kib=$(maxrss sh -c '"$WSPX" -j4 ./big {} 5000000 ::: 1 2 3 4 > out')
	echo "peak RSS $small KiB for 80 MB of output, $kib KiB for 400 MB" >&3
	[ "$kib" -lt $((small * 3 / 2)) ]
	[ "$(wc -l < out)" -eq 20000000 ]
	[ "$(awk '{print $2}' out | uniq | wc -l)" -eq 4 ]
}

# Job a starts a line, waits until job b has printed a whole line, then
# ends its own line. With SYNCOUT set, "printed" means seen by wspx's
# reader: job a waits until the line is in ./out, where the test sends
# wspx's output; otherwise it waits until job b has written it.
halflines() {
	cat > half <<'SH'
#!/bin/sh
if [ "$1" = a ]; then
	printf AAAA; touch astarted
	while [ ! -e b ]; do sleep 0.01; done
	if [ -n "$SYNCOUT" ]; then
		until grep -qx BBBB out; do sleep 0.01; done
	fi
	printf 'AAAA\n'
else
	while [ ! -e astarted ]; do sleep 0.01; done
	printf 'BBBB\n'; touch b
fi
SH
	chmod +x half
}

# Job a prints a line, waits until job b's line is in ./out (where the
# test sends wspx's output), prints another: by lines the output is
# A1 B A2, grouped B A1 A2.  Waiting for wspx to print B, not for job b to
# write it, keeps the order from depending on which reader runs first.
# With SYNCOUT set (by lines), job b likewise waits until A1 is in ./out;
# grouped, A1 is printed only when job a ends, so b waits for a1 only.
twolines() {
	cat > two <<'SH'
#!/bin/sh
if [ "$1" = a ]; then
	echo A1; touch a1
	until grep -qx B out; do sleep 0.01; done
	echo A2
else
	while [ ! -e a1 ]; do sleep 0.01; done
	if [ -n "$SYNCOUT" ]; then
		until grep -qx A1 out; do sleep 0.01; done
	fi
	echo B
fi
SH
	chmod +x two
}

@test "output that cannot go to a temporary file waits in memory, whole" {
	# Job 2 ends while job 1 sleeps, so -k keeps its 2 MB, past the
	# memory share: to a file limited to 200 KiB, then to memory.
	(ulimit -f 200; "$WSPX" -k -j2 'sleep {}; head -c 2000000 /dev/zero' \
	    ::: 1 0 2> err | wc -c > count)
	[ "$(cat count)" -eq 4000000 ]
	grep -q "temporary files in .*: output waited in memory" err
	TMPDIR=$PWD/no-such-dir "$WSPX" -k -j2 \
	    'sleep {}; head -c 2000000 /dev/zero' ::: 1 0 2> err | wc -c > count
	[ "$(cat count)" -eq 4000000 ]
	grep -q "no-such-dir: No such file" err
}

@test "output that waits in memory past 64 MiB stops the run, bounded, as GNU parallel stops" {
	# No spill file can take more than 100 KiB (ulimit -f), so what a job
	# prints would all wait in memory: wspx keeps 64 MiB at most, then
	# drops it and stops the run with 255, printing nothing of it.  Two
	# sizes compared with each other, not with a fixed size, so that it
	# holds under the sanitizers too: held whole, 1.2 GB would take
	# 900 MB more than 300 MB.
	small=$(maxrss sh -c 'ulimit -f 100; "$WSPX" -j1 \
	    "head -c 300000000 /dev/zero; : {}" ::: 1 > out 2> err;
	    echo $? > rc')
	[ "$(cat rc)" -eq 255 ]
	[ ! -s out ]
	grep -q "temporary files in .*: the output that waited in memory reached its bound (64 MiB)" err
	kib=$(maxrss sh -c 'ulimit -f 100; "$WSPX" -j1 \
	    "head -c 1200000000 /dev/zero; : {}" ::: 1 > out 2> err;
	    echo $? > rc')
	[ "$(cat rc)" -eq 255 ]
	echo "peak RSS $small KiB for 300 MB, $kib KiB for 1.2 GB" >&3
	[ "$kib" -lt $((small + 150000)) ]
	# and with -k, a job behind the one that prints live
	run sh -c 'ulimit -f 100; "$WSPX" -k -j2 "if [ {} = 1 ]; then
	    until [ -e never ]; do sleep 1; done; else
	    head -c 300000000 /dev/zero; fi" ::: 1 2 > out'
	[ "$status" -eq 255 ]
	[ ! -s out ]
}

@test "a full --tmpdir stops the run with 255 and prints nothing, as GNU parallel" {
	mkdir tiny
	mount -t tmpfs -o size=1m tmpfs tiny 2> /dev/null ||
	    skip "cannot mount a tmpfs here"
	local rc=0
	same --tmpdir tiny -j2 'head -c 100000000 /dev/zero; : {}' ::: 1 2 ||
	    rc=$?
	umount tiny
	[ "$rc" -eq 0 ]
	[ "$(cat wspx.rc)" -eq 255 ]
	[ ! -s wspx.out ]
}

@test "--group, the default, can be asked for; the last mode given wins" {
	twolines
	SYNCOUT=1 "$WSPX" -j2 --line-buffer ./two ::: a b > out
	[ "$(cat out)" = "$(printf 'A1\nB\nA2')" ]
	rm -f a1
	"$WSPX" -j2 --line-buffer --group ./two ::: a b > out
	[ "$(cat out)" = "$(printf 'B\nA1\nA2')" ]
	rm -f a1
	"$WSPX" -j2 ./two ::: a b > out
	[ "$(cat out)" = "$(printf 'B\nA1\nA2')" ]
	halflines
	run "$WSPX" -j2 -u --group -k ./half ::: a b
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf 'AAAAAAAA\nBBBB')" ]
}

@test "--line-buffer prints whole lines as they come" {
	halflines
	SYNCOUT=1 "$WSPX" -j2 --line-buffer ./half ::: a b > out
	[ "$(cat out)" = "$(printf 'BBBB\nAAAAAAAA')" ]
}

@test "-u lets jobs write directly (their lines may interleave)" {
	halflines
	run "$WSPX" -j2 -u ./half ::: a b
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf 'AAAABBBB\nAAAA')" ]
}

@test "-k prints output in input order" {
	# each job waits for the next one to finish: they end in reverse
	cat > rev <<'SH'
#!/bin/sh
[ "$1" = 5 ] || while [ ! -e done.$(($1 + 1)) ]; do sleep 0.01; done
echo "$1"; touch done.$1
SH
	chmod +x rev
	run "$WSPX" -j5 -k ./rev ::: 1 2 3 4 5
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf '1\n2\n3\n4\n5')" ]
}

@test "-k streams the oldest job's output live" {
	cat > live <<'SH'
#!/bin/sh
if [ "$1" = 1 ]; then
	echo first; while [ ! -e go ]; do sleep 0.01; done; echo last
else
	echo second
fi
SH
	chmod +x live
	mkfifo out
	"$WSPX" -j2 -k ./live ::: 1 2 > out 3>&- &
	exec 7< out
	read -r line <&7
	[ "$line" = first ]	# printed while job 1 still runs
	touch go
	read -r line <&7
	[ "$line" = last ]
	read -r line <&7
	[ "$line" = second ]
	exec 7<&-
	wait $!
}

@test "--tag and --tagstring put a tag before each line" {
	run "$WSPX" -k --tag 'echo x; echo y; : {}' ::: a b
	[ "$output" = "$(printf 'a\tx\na\ty\nb\tx\nb\ty')" ]
	run "$WSPX" -k --tagstring '[{#}:{}]' echo hi ::: a
	[ "$output" = "$(printf '[1:a]\thi a')" ]
	run "$WSPX" -k --tagstring plain echo ::: a
	[ "$output" = "$(printf 'plain\ta')" ]
	run "$WSPX" -k --tag 'printf "no newline"; : {}' ::: a
	[ "$output" = "$(printf 'a\tno newline')" ]
}

@test "-u with -k or --tag is a usage error" {
	run "$WSPX" -u -k echo ::: a
	[ "$status" -eq 255 ]
	[[ "$output" == *"-u and -k"* ]]
	run "$WSPX" -u --tag echo ::: a
	[ "$status" -eq 255 ]
	[[ "$output" == *"--tag"* ]]
}

@test "--tagstring reads \\t, \\n, \\r and octal escapes, as GNU parallel does" {
	run "$WSPX" --tagstring 'a\tb' echo ::: x
	[ "$output" = "$(printf 'a\tb\tx')" ]
	"$WSPX" --tagstring '\101\12\181\9\r\\t' echo ::: x > out
	printf 'A\0012\00181\071\r\\\t\tx\n' | cmp - out
	run "$WSPX" --tagstring '<{}>\n' echo ::: 'a\tb'
	[ "$output" = "$(printf '<a\\tb>\n\ta\\tb')" ]
	run "$WSPX" --tagstring '\173}' echo ::: x
	[ "$output" = "$(printf 'x\tx')" ]
}

@test "a --tagstring that would hold a NUL or no byte is an error" {
	run "$WSPX" --tagstring 'a\0' echo ::: x
	[ "$status" -eq 255 ]
	[[ "$output" == *"--tagstring: 'a\\0' makes a NUL byte"* ]]
	run "$WSPX" --tag-string '\400' echo ::: x
	[ "$status" -eq 255 ]
	[[ "$output" == *"--tag-string: '\\400' has an octal escape over"* ]]
}

@test "--tmpdir is where output waits, and the jobs' TMPDIR" {
	mkdir spill
	# Job 2 ends while job 1 waits for it: -k keeps job 2's 2 MB, past
	# the memory share, in a file; $TMPDIR would be no place for it.
	TMPDIR=$PWD/no-such-dir "$WSPX" --tmpdir "$PWD/spill" -k -j2 \
	    'if [ {} = 1 ]; then while [ ! -e two ]; do sleep 0.01; done; fi
	    head -c 2000000 /dev/zero; [ {} = 1 ] || touch two' \
	    ::: 1 2 2> err | wc -c > count
	[ "$(cat count)" -eq 4000000 ]
	[ ! -s err ]
	run "$WSPX" --tmpdir "$PWD/spill" 'echo "$TMPDIR" {}' ::: a
	[ "$output" = "$PWD/spill a" ]
	run "$WSPX" --tempdir=spill 'echo "$TMPDIR" {}' ::: a
	[ "$output" = "spill a" ]
}

@test "a --tmpdir that cannot be used is an error before any job" {
	run "$WSPX" --tmpdir no-such-dir touch ran ::: a
	[ "$status" -eq 255 ]
	[[ "$output" == *"--tmpdir: 'no-such-dir' cannot be used: No such file or directory"* ]]
	touch file
	run "$WSPX" --tmpdir file touch ran ::: a
	[ "$status" -eq 255 ]
	[[ "$output" == *"--tmpdir: 'file' is not a directory"* ]]
	[ ! -e ran ]
}
