#!/usr/bin/env bats
# The failure policy: --retries and --retry-delay, --timeout (a fixed
# time or a percentage of the median), --halt in every form (exit
# statuses compared with GNU parallel's on the same jobs), --delay.

load helper

# Whether process $1 is gone (or a zombie, dead but not yet reaped by
# whoever adopted it).
dead() {
	! kill -0 "$1" 2>/dev/null ||
	    [ "$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null)" = Z ]
}

@test "--retries N: N more attempts, each a joblog row; only the last one's output" {
	run sh -c '"$WSPX" --retries 2 --joblog log "echo try >> tries; echo out; exit 1 # {}" ::: a 2>/dev/null'
	[ "$status" -eq 1 ]
	[ "$output" = "out" ]
	[ "$(wc -l < tries)" -eq 3 ]
	[ "$(tail -n +2 log | wc -l)" -eq 3 ]
}

@test "--retries with -k: a failed attempt's output is never printed, also as the head" {
	# The head of -k printed its output live, so a first attempt that
	# failed was printed as well as the retry (out1 out1 out2 ...).
	for i in 1 2 3 4 5; do
		rm -f flag*
		run "$WSPX" -k -j4 --retries 2 \
		    'echo out{}; [ -e flag{} ] || { touch flag{}; exit 1; }' \
		    ::: 1 2 3 4 5 6
		[ "$status" -eq 0 ]
		[ "$output" = "$(printf 'out%s\n' 1 2 3 4 5 6)" ]
	done
}

@test "--retries: a job that succeeds on a retry counts as a success" {
	run "$WSPX" --retries 3 --events ev 'echo x >> n; [ $(wc -l < n) -ge 2 ] # {}' ::: a
	[ "$status" -eq 0 ]
	[ "$(wc -l < n)" -eq 2 ]
	grep -q '"event": "end".*"attempt": 1, "retry": true' ev
	grep -q '"event": "end".*"exit": 0.*"attempt": 2, "retry": false' ev
	[ "$(grep -c '"event": "start"' ev)" -eq 2 ]
}

@test "--retries 0 means no retry, not GNU parallel's forever" {
	run "$WSPX" --retries 0 'echo x >> n; exit 1 # {}' ::: a
	[ "$status" -eq 1 ]
	[ "$(wc -l < n)" -eq 1 ]
}

@test "--retry-delay waits before each retry, twice as long each time" {
	start=$(date +%s%N)
	run "$WSPX" --retries 2 --retry-delay 0.3 'date +%s%N >> at; exit 1 # {}' ::: a
	[ "$status" -eq 1 ]
	mapfile -t at < at
	[ "${#at[@]}" -eq 3 ]
	# 0.3 s, then 0.6 s (a little more under load, never less)
	[ $(((at[1] - at[0]) / 1000000)) -ge 300 ]
	[ $(((at[2] - at[1]) / 1000000)) -ge 600 ]
	[ $(((at[2] - at[1]) / 1000000)) -lt 3000 ]
}

@test "--retry-delay holds no slot: other jobs run meanwhile" {
	run "$WSPX" -j1 --retries 1 --retry-delay 2 \
	    '[ {} = b ] && date +%s%N > b.at; [ {} = b ] || exit 1' ::: a b
	[ -e b.at ]
}

@test "--timeout: the job's group gets SIGTERM, its grandchild dies too" {
	start=$SECONDS
	run "$WSPX" --timeout 0.5 --joblog log \
	    'sh -c "sleep 60 & echo \$! > gc; wait"; echo never # {}' ::: 1
	[ "$status" -eq 1 ]
	[ $((SECONDS - start)) -lt 10 ]
	[[ $output == *"wspx: killed after its --timeout (0.5s)"* ]]
	! grep -qx never <<< "$output" || false
	[ "$(tail -1 log | cut -f7,8)" = "$(printf -- '-1\t15')" ]
	waituntil dead "$(cat gc)"
}

@test "--timeout: a job that ignores SIGTERM gets SIGKILL after --term-timeout" {
	run "$WSPX" --timeout 0.3 --term-timeout 0.3 --joblog log \
	    'trap "" TERM; sleep 30 # {}' ::: 1
	[ "$status" -eq 1 ]
	[ "$(tail -1 log | cut -f7,8)" = "$(printf -- '-1\t9')" ]
}

@test "--timeout N%: jobs far slower than the median are killed" {
	run "$WSPX" -j1 --timeout 300% --joblog log 'sleep {}' ::: \
	    0.1 0.1 0.1 0.1 5 0.1
	[ "$status" -eq 1 ]
	[ "$(awk -F'\t' '$7 == -1 { print $9 }' log)" = "sleep 5" ]
	[ "$(awk -F'\t' '$7 == 0' log | wc -l)" -eq 5 ]
}

@test "--timeout: a timed-out job is retried with --retries" {
	run "$WSPX" --timeout 0.3 --retries 1 \
	    'echo x >> n; [ $(wc -l < n) -ge 2 ] || sleep 30 # {}' ::: 1
	[ "$status" -eq 0 ]
	[ "$(wc -l < n)" -eq 2 ]
}

@test "--timeout and --halt: bad values are errors naming the option" {
	run "$WSPX" --timeout 0 true ::: 1
	[ "$status" -eq 255 ]
	[[ $output == *"--timeout"* ]]
	run "$WSPX" --halt sometimes true ::: 1
	[ "$status" -eq 255 ]
	[[ $output == *"--halt"*"sometimes"* ]]
	run "$WSPX" --retries -1 true ::: 1
	[ "$status" -eq 255 ]
}

# The exit status of wspx and of GNU parallel under --halt $1, -j1, for
# jobs exiting with 0 3 5 0 7.
halts() {
	local h=$1 w=0 g=0
	"$WSPX" -j1 --halt "$h" 'exit {}' ::: 0 3 5 0 7 > /dev/null 2>&1 ||
	    w=$?
	if command -v parallel > /dev/null; then
		parallel --will-cite -j1 --halt "$h" 'exit {}' ::: 0 3 5 0 7 \
		    > /dev/null 2>&1 || g=$?
	else
		g=$2	# measured with GNU parallel 20221122
	fi
	echo "--halt $h: wspx $w, GNU parallel $g, recorded $2"
	[ "$w" -eq "$g" ] && [ "$w" -eq "$2" ]
}

@test "--halt: every form exits as GNU parallel does" {
	halts never 3
	halts 0 3
	halts 1 3
	halts 2 3
	halts -1 0
	halts -2 0
	halts 50% 60
	halts now,fail=1 3
	halts soon,fail=2 2
	halts now,fail=50% 60
	halts now,success=1 0
	halts soon,success=2 0
	halts soon,success=50% 60
	halts now,done=1 0
	halts soon,done=2 1
	halts now,done=40% 20
}

@test "--halt soon: nothing new starts, running jobs finish" {
	run "$WSPX" -j2 --halt soon,fail=1 \
	    'sleep {}; echo {} >> ran; [ {} != 0.2 ]' ::: 0.2 1 3 4
	[ "$status" -eq 1 ]
	[ "$(sort ran | tr '\n' ' ')" = "0.2 1 " ]
	[[ $output == *"--halt soon,fail=1: this job failed"* ]]
}

@test "--halt now: the running jobs are killed, grandchildren too" {
	start=$SECONDS
	run "$WSPX" -j2 --joblog log --halt now,fail=1 \
	    'if [ {} = 1 ]; then sleep 0.3; exit 4; fi; sh -c "sleep 60 & echo \$! > gc; wait"' ::: 1 2 3
	[ "$status" -eq 4 ]
	[ $((SECONDS - start)) -lt 10 ]
	waituntil dead "$(cat gc)"
	[ "$(awk -F'\t' '$1 == 2 { print $7 "," $8 }' log)" = "-1,15" ]
	[ "$(awk -F'\t' '$1 == 3' log | wc -l)" -eq 0 ]
}

@test "--halt now,fail=1: a job killed by a signal gives 128+N" {
	run "$WSPX" --halt now,fail=1 'kill -SEGV $$ # {}' ::: 1
	[ "$status" -eq 139 ]
}

@test "--halt now,success=1: the first success stops the rest" {
	run "$WSPX" -j2 --halt now,success=1 'sleep {}' ::: 0.1 30
	[ "$status" -eq 0 ]
}

@test "--delay: jobs start at least DUR apart" {
	# (the start times wspx records as it spawns each job: a date run
	# by the job would add the shell's start-up, which varies by more
	# than the test's slack on a loaded machine)
	"$WSPX" -j4 --delay 0.2 --joblog log 'true {}' ::: 1 2 3 4
	[ "$(wc -l < log)" -eq 5 ]
	tail -n +2 log | cut -f3 | sort -n | awk 'NR > 1 &&
	    $1 - prev < 0.195 { exit 1 } { prev = $1 }'
}

@test "--delay with --halt now: the jobs waiting for their turn give it up, and the run ends" {
	# (with a delay of 30s, the run ends at once or hangs: the jobs in
	# line for their turns, tickets held, must not wait for each other)
	run timeout 20 "$WSPX" -j4 --delay 30 --halt now,fail=1 --joblog log \
	    'exit {}' ::: 3 0 0 0 0 0
	[ "$status" -eq 3 ]
	[ "$(tail -n +2 log | cut -f1)" = 1 ]
	run timeout 20 "$WSPX" -j4 --delay 30 --halt soon,fail=1 'exit {}' \
	    ::: 3 0 0 0
	[ "$status" -eq 3 ]
	cat > wspx.yml <<'EOF'
jobs:
  a:
    run: exit 3
  b:
    run: "true"
  c:
    run: "true"
EOF
	run timeout 20 "$WSPX" run -j4 --delay 30 --halt now,fail=1
	[ "$status" -eq 3 ]
	[[ "$output" == *"1 failed, 2 not started"* ]]
}

@test "--delay and SIGTERM: the jobs waiting for their turn are cancelled, and the run ends" {
	timeout 20 "$WSPX" -j4 --delay 30 'touch s.{}; exec sleep 30' ::: \
	    1 2 3 4 5 2> err &
	pid=$!
	waitfile s.1
	kill -TERM "$pid"
	rc=0
	wait "$pid" || rc=$?
	[ "$rc" -eq 143 ]
	[ "$(echo s.*)" = s.1 ]
}

@test "--delay with --retries: a retry takes a turn DUR apart, and the first attempts stay in input order" {
	run timeout 20 "$WSPX" -j4 --delay 0.2 --retries 2 --joblog log \
	    'if [ {} = 1 ] && [ ! -e tried ]; then : > tried; exit 1; fi' \
	    ::: 1 2 3 4 5
	[ "$status" -eq 0 ]
	[ "$(tail -n +2 log | wc -l)" -eq 6 ]
	tail -n +2 log | sort -s -t "$(printf '\t')" -k3,3n > bystart
	cut -f3 bystart | awk 'NR > 1 && $1 - prev < 0.195 { exit 1 }
	    { prev = $1 }'
	cut -f1 bystart | awk '!seen[$1]++' > firsts
	[ "$(cat firsts)" = "$(seq 5)" ]
}

@test "--timeout: a job that catches SIGTERM and exits 0 still failed" {
	run "$WSPX" --timeout 0.3 'trap "exit 0" TERM; sleep 30 & wait # {}' ::: 1
	[ "$status" -eq 1 ]
}
