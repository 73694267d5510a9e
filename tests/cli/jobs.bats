#!/usr/bin/env bats
# -j: how many jobs run at once, and its forms N, N%, +N, -N, 0.

load helper

# A job that records the most jobs it saw running at once: it creates
# run.$1 and counts the run.* files until it has seen $2 (then it creates
# "release", so that the others stop waiting) or release exists, or 3 s
# pass; it writes the most it counted to seen.$1 and removes run.$1.
counter() {
	cat > count <<'SH'
#!/bin/sh
touch run.$1
max=0 n=0
while :; do
	k=$(ls run.* 2>/dev/null | wc -l)
	[ "$k" -gt "$max" ] && max=$k
	[ "$k" -ge "$2" ] && touch release
	if [ -e release ] || [ $n -ge 300 ]; then break; fi
	sleep 0.01; n=$((n + 1))
done
echo "$max" > seen.$1
rm -f run.$1
SH
	chmod +x count
}

@test "-j N runs N jobs at once, never more" {
	counter
	run "$WSPX" -j3 ./count {} 3 ::: 1 2 3 4 5 6
	[ "$status" -eq 0 ]
	# three ran at once, never more
	[ "$(cat seen.* | sort -n | tail -1)" -eq 3 ]
	[ ! -e run.1 ]
}

@test "-P N and --max-procs N are -j N, as with xargs" {
	counter
	run "$WSPX" -P 2 ./count {} 2 ::: 1 2 3 4
	[ "$status" -eq 0 ]
	[ "$(cat seen.* | sort -n | tail -1)" -eq 2 ]
	rm -f seen.* release
	run "$WSPX" --max-procs=3 ./count {} 3 ::: 1 2 3 4 5 6
	[ "$(cat seen.* | sort -n | tail -1)" -eq 3 ]
}

@test "-j beyond the open-file limit runs fewer at once, never fails jobs" {
	run bash -c 'ulimit -n 150; "$WSPX" -j300 "sleep 0.1; echo {}" ::: $(seq 300) 2> err | wc -l; echo "${PIPESTATUS[0]}"; cat err'
	[ "${lines[0]}" -eq 300 ]
	[ "${lines[1]}" -eq 0 ]
	[[ "${lines[2]}" == "wspx: -j 300: only enough open files (ulimit -n 150) for "*" jobs at once"* ]]
}

@test "-j1 runs the jobs one after another, in order" {
	run sh -c 'seq 20 | "$WSPX" -j1 -q sh -c "echo \$0"'
	[ "$output" = "$(seq 20)" ]
}

# The most jobs seen running at once with -j $1, expecting $2.
maxrunning() {
	rm -f seen.* run.* release
	"$WSPX" -j "$1" ./count {} "$2" ::: $(seq $(($2 * 2)))
	cat seen.* | sort -n | tail -1
}

@test "-j forms: N%, +N, -N" {
	counter
	# (the CPUs of the affinity mask, as nproc counts them)
	cpus=$(nproc)
	[ "$(maxrunning 100% $cpus)" -eq "$cpus" ]
	[ "$(maxrunning +2 $((cpus + 2)))" -eq $((cpus + 2)) ]
	[ "$(maxrunning -100 1)" -eq 1 ]
	[ "$(maxrunning 50% $(((cpus + 1) / 2)))" -eq $((cpus / 2 > 0 ? cpus / 2 : 1)) ]
	# an upper bound with no waiting: slot numbers never pass the count
	[ "$(maxslot -100)" -eq 1 ]
	[ "$(maxslot +2)" -le $((cpus + 2)) ]
}

@test "-j 0 runs as many jobs at once as the limits allow, as GNU parallel does" {
	counter
	local n=$(($(nproc) * 4 + 4))
	[ "$(maxrunning 0 $n)" -ge "$n" ]
	# bounded by the open files, and silently: it asked for what fits
	run bash -c 'ulimit -n 64; "$WSPX" -j0 echo {%} ::: $(seq 40) \
	    2> err | sort -n | tail -1; cat err'
	[ "${#lines[@]}" -eq 1 ]
	[ "${lines[0]}" -ge 1 ]
	[ "${lines[0]}" -le 5 ]
	# and by the user's processes: each job is a process and a thread
	# (root only: the limit binds others, whose processes count)
	[ "$(id -u)" -eq 0 ] || skip "ulimit -u binds only root harmlessly"
	run bash -c 'ulimit -u 40; "$WSPX" -j0 echo {%} ::: $(seq 60) |
	    sort -n | tail -1'
	[ "$output" -ge 1 ]
	[ "$output" -le 20 ]
}

# The highest slot number ({%}) used by 20 jobs with -j $1.
maxslot() {
	"$WSPX" -j "$1" echo {%} ::: $(seq 20) | sort -n | tail -1
}

@test "bad -j values are usage errors" {
	for j in x 2x +x 5%% -; do
		run "$WSPX" -j "$j" echo ::: a
		[ "$status" -eq 255 ]
		[[ "$output" == *"-j"* ]]
	done
}
