#!/usr/bin/env bats
# --semaphore, GNU parallel's sem: COMMAND runs once, holding one of the -j
# slots of a semaphore shared by wspx processes started apart; --fg waits
# for it, --wait for every holder.

load helper
load gnu

# A home of the test's own for the semaphores (never the user's
# ~/.parallel).
ownhome() {
	export PARALLEL_HOME=$BATS_TEST_TMPDIR/ph
	mkdir -p "$PARALLEL_HOME"
}

# A COMMAND for the semaphore that holds its slot until the FIFO $1 is
# written (or closed by the writer), then appends "done" to file $2.
holding() {
	printf 'read x < %s; echo done >> %s' "$1" "$2"
}

@test "--semaphore --fg: COMMAND once, with {} empty, wspx's stdin, and its exit status, as GNU parallel" {
	same --semaphore --id t --fg 'echo b; exit 3'
	[ "$(cat wspx.out)" = b ] && [ "$(cat wspx.rc)" = 3 ]
	same --semaphore --id t --fg --tag echo 'a{}b'
	[ "$(cat wspx.out)" = "$(printf '\tab')" ]
	same --fg echo plain
	[ "$(cat wspx.out)" = plain ]
	printf 'from stdin\n' > in
	IN=in same --semaphore --fg cat
	[ "$(cat wspx.out)" = 'from stdin' ]
	same --semaphore --fg 'kill -9 $$'
	[ "$(cat wspx.rc)" = 137 ]
}

@test "--semaphore in the background: wspx exits 0 at once, COMMAND's output comes later, as GNU parallel's" {
	# (same reads the output to its end, which the background child
	# writes)
	same --semaphore --id t 'echo a; exit 3'
	[ "$(cat wspx.out)" = a ] && [ "$(cat wspx.rc)" = 0 ]
	same --id t2 echo by-id
	[ "$(cat wspx.out)" = by-id ]
	mkfifo hold
	"$WSPX" --semaphore --id bg "$(holding hold done)" > out
	# (wspx returned while COMMAND waits for the FIFO)
	[ ! -e done ]
	echo > hold
	"$WSPX" --semaphore --id bg --wait
	[ "$(cat done)" = done ]
}

@test "--semaphore -j 2: at most two COMMANDs at once, whatever the timing; --wait returns after the last" {
	ownhome
	mkdir running
	for i in 1 2 3 4 5 6; do
		"$WSPX" --semaphore -j 2 --id two 'touch running/$$
		    ls running | wc -l >> counts; sleep 0.1; rm running/$$
		    echo ran >> ran'
	done
	"$WSPX" --semaphore --id two --wait
	[ "$(wc -l < ran)" -eq 6 ]
	[ "$(sort -n counts | tail -n 1)" -le 2 ]
	[ -z "$(ls running)" ]
}

@test "--wait waits for a holder that ends after it began" {
	ownhome
	mkfifo hold
	"$WSPX" --semaphore --id w "$(holding hold done)"
	( "$WSPX" --semaphore --id w --wait; cat done > seen 2>&1 ) &
	local waiter=$!
	# (whether --wait has begun or not, it must not return before
	# COMMAND wrote done)
	sleep 0.5
	echo > hold
	# (that one alone: bats has a process of its own in the background
	# with BATS_TEST_TIMEOUT)
	wait "$waiter"
	[ "$(cat seen)" = done ]
}

@test "a holder killed with SIGKILL leaves its slot free: the next one runs at once" {
	ownhome
	mkfifo hold
	"$WSPX" --semaphore --id k 'echo $PARALLEL_PID > holder
	    echo $$ > job; read x < hold'
	waitfile job
	waitfile holder
	kill -9 "$(cat holder)"
	# (the job itself, orphaned, does not hold the slot)
	run "$WSPX" --semaphore --id k --st -60 --fg echo ran
	echo > hold
	[ "$status" -eq 0 ] && [ "$output" = ran ]
}

@test "--semaphore-timeout: -DUR gives up with 1, DUR runs without a slot, as GNU parallel" {
	needgnu
	mkfifo hold ghold
	"$WSPX" --semaphore --id st "$(holding hold done)"
	parallel --semaphore --id st "$(holding ghold gdone)"
	same --semaphore --id st --st -0.5 echo ran
	[ "$(cat wspx.rc)" = 1 ] && [ ! -s wspx.out ]
	grep -q 'no slot of semaphore st came free within 0.5s: echo' wspx.err
	same --semaphore --id st --semaphore-timeout 0.5 --fg echo ran
	[ "$(cat wspx.rc)" = 0 ] && [ "$(cat wspx.out)" = ran ]
	same --semaphore --id st --semaphoretimeout -1s --fg echo ran
	[ "$(cat wspx.rc)" = 1 ]
	# (--wait gives up too, also with a positive timeout)
	run "$WSPX" --semaphore --id st --wait --st -0.2
	[ "$status" -eq 1 ] && [[ $output == *"semaphore st still held after 0.2s"* ]]
	run "$WSPX" --semaphore --id st --wait --st 0.2
	[ "$status" -eq 1 ]
	echo > hold
	echo > ghold
	"$WSPX" --semaphore --id st --wait
	parallel --semaphore --id st --wait
	[ "$(cat done)" = done ]
}

@test "--semaphore without --id: stdin's terminal names it, else notty; a name never leaves the directory" {
	export PARALLEL_HOME=$BATS_TEST_TMPDIR/home
	"$WSPX" --semaphore --fg true < /dev/null
	"$WSPX" --semaphore --id '../x/y' --fg true
	[ "$(ls "$PARALLEL_HOME/semaphores")" = "$(printf '%s\n' \
	    wspx-2e2e2fx2fy wspx-notty)" ]
	if command -v script > /dev/null; then
		script -qec "$WSPX --semaphore --fg true" /dev/null < /dev/null
		ls "$PARALLEL_HOME/semaphores" | grep -q 'wspx-2fdev2f'
	fi
}

@test "--semaphore refuses what it cannot do, naming it" {
	ownhome
	run "$WSPX" --semaphore
	[ "$status" -eq 255 ] && [[ $output == *"--semaphore needs a COMMAND"* ]]
	run "$WSPX" --semaphore echo ::: a b
	[ "$status" -eq 255 ] && [[ $output == *"with no input: not :::"* ]]
	run "$WSPX" --semaphore -a /dev/null echo
	[ "$status" -eq 255 ] && [[ $output == *"not -a"* ]]
	run "$WSPX" --semaphore -j0 echo
	[ "$status" -eq 255 ] && [[ $output == *"-j 0"* ]]
	run "$WSPX" --wait echo x
	[ "$status" -eq 255 ] && [[ $output == *"runs no COMMAND: echo"* ]]
	run "$WSPX" --semaphore -p echo
	[ "$status" -eq 255 ] && [[ $output == *"-p or --tty"*"(use --fg)"* ]]
	run "$WSPX" --semaphore --pipe cat
	[ "$status" -eq 255 ] && [[ $output == *"--semaphore and --pipe"* ]]
	run "$WSPX" --st x echo
	[ "$status" -eq 255 ] && [[ $output == *"--st"* ]]
	printf 'jobs:\n  a:\n    run: echo a\n' > jobs.yaml
	run "$WSPX" run jobs.yaml --fg
	[ "$status" -eq 255 ] && [[ $output == *"--semaphore and its kin"* ]]
	unset PARALLEL_HOME
	HOME= run "$WSPX" --semaphore --fg echo
	[ "$status" -eq 255 ] && [[ $output == *'nor $HOME'* ]]
}
