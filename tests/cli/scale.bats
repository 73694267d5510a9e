#!/usr/bin/env bats
# Streaming: input is read lazily with a bounded window of jobs in flight,
# so memory does not grow with the input, and numbering and order hold.

load helper

@test "200000 jobs: sequence numbers and keep-order hold" {
	seq 200000 > in
	run sh -c '"$WSPX" -j4 -k --dry-run echo {#} {} < in | awk "\$2 != NR || \$3 != NR" | wc -l'
	[ "$output" -eq 0 ]
	run sh -c '"$WSPX" -j4 --dry-run echo {#} < in | tail -1'
	[ "$output" = "echo 200000" ]
}

@test "memory does not grow with the input" {
	seq 1000 > small
	seq 1000000 > large
	a=$(maxrss sh -c '"$WSPX" --dry-run echo < small > /dev/null')
	b=$(maxrss sh -c '"$WSPX" --dry-run echo < large > /dev/null')
	echo "peak RSS: 1000 lines $a KiB, 1000000 lines $b KiB" >&3
	[ "$b" -lt $((a * 2)) ]
}

@test "keep-order with a slow first job does not hold the rest back" {
	cat > slow <<'SH'
#!/bin/sh
[ "$1" = 1 ] && while [ ! -e go ]; do sleep 0.01; done
[ "$1" = 50 ] && touch go
echo "$1"
SH
	chmod +x slow
	run sh -c 'seq 100 | "$WSPX" -j4 -k ./slow'
	[ "$status" -eq 0 ]
	[ "$output" = "$(seq 100)" ]
}
