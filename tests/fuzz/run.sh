#!/bin/sh
# Run fuzz targets, one after the other, each from its corpus:
#
#	sh tests/fuzz/run.sh SECONDS tests/fuzz/NAME...
#	FUZZ_CPU=1 sh tests/fuzz/run.sh SECONDS tests/fuzz/NAME...
#
# SECONDS is wall time; with FUZZ_CPU set, it is the target's CPU time
# (user and system, its own and that of the children it waited for, as
# the trials of a regular expression that the --pipe and --colsep paths
# fork: read from /proc), so that a campaign on a shared machine gets the
# CPU it claims: the target is then stopped with SIGINT, on which
# libFuzzer prints its counts.
# Each target starts from tests/fuzz/corpus/NAME (its seeds and the inputs
# of past findings) and, if tests/fuzz/NAME.dict exists, its dictionary.
# What it adds is written to a work directory ($FUZZ_WORK, or a temporary
# one removed at the end), never to the tree.  The limits are those of
# tests/fuzz/README.md: 10 s for an input, 512 MB for the process and for
# one allocation.  libFuzzer closes the target's stdout and stderr (the
# command's messages on bad input); its own lines and any report stay.
# Prints each target's final counts; exits 1 after the first finding,
# whose input is left in the work directory and named.
set -u

if [ $# -lt 2 ]; then
	echo "usage: sh tests/fuzz/run.sh SECONDS tests/fuzz/NAME..." >&2
	exit 2
fi
seconds=$1
shift
if [ -n "${FUZZ_WORK:-}" ]; then
	work=$FUZZ_WORK
	mkdir -p "$work" || exit 2
else
	work=$(mktemp -d "${TMPDIR:-/tmp}/wspx-fuzzrun.XXXXXX") || exit 2
	trap 'rm -rf "$work"' EXIT
	trap 'exit 1' HUP INT TERM
fi
# The files the targets make for each input (fz_file) go to a tmpfs when
# there is one: on a disk, writing them takes most of the time.
if [ -z "${TMPDIR:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ]; then
	TMPDIR=/dev/shm
	export TMPDIR
fi
# A smaller quarantine than ASan's 256 MB, so that freed memory it holds
# back does not count against the 512 MB of the process.
ASAN_OPTIONS=${ASAN_OPTIONS:-quarantine_size_mb=64}
export ASAN_OPTIONS

# Stop process $1 with SIGINT once it and the children it waited for
# have had $2 seconds of CPU time; file $3 says that it was stopped so.
cpulimit() {
	hz=$(getconf CLK_TCK)
	while stat=$(cat "/proc/$1/stat" 2>/dev/null); do
		# (fields 14 to 17, utime stime cutime cstime, after the name
		# in parentheses)
		set -- "$1" "$2" "$3" $(printf '%s\n' "${stat##*) }" |
		    awk '{ print $12 + $13 + $14 + $15 }')
		if [ "$4" -ge $(($2 * hz)) ]; then
			: > "$3"
			kill -INT "$1"
			return
		fi
		sleep 5
	done
}

for target; do
	name=${target##*/}
	dir=$(dirname "$target")
	seeds=$dir/corpus/$name
	if [ ! -x "$target" ] || [ ! -d "$seeds" ]; then
		echo "$target: no such target, or no corpus $seeds" >&2
		exit 2
	fi
	mkdir -p "$work/$name/corpus" "$work/$name/findings"
	set -- -timeout=10 -rss_limit_mb=512 -malloc_limit_mb=512 \
	    -close_fd_mask=3 -print_final_stats=1 \
	    -artifact_prefix="$work/$name/findings/"
	if [ -n "${FUZZ_CPU:-}" ]; then
		set -- "$@" -max_total_time=0
	else
		set -- "$@" -max_total_time="$seconds"
	fi
	[ -f "$dir/$name.dict" ] && set -- "$@" -dict="$dir/$name.dict"
	log=$work/$name/log
	"$target" "$@" "$work/$name/corpus" "$seeds" > "$log" 2>&1 &
	pid=$!
	stopped=$work/$name/stopped
	rm -f "$stopped"
	[ -n "${FUZZ_CPU:-}" ] && cpulimit "$pid" "$seconds" "$stopped" &
	wait "$pid"
	rc=$?
	# (libFuzzer's status when interrupted is 72)
	[ "$rc" -eq 72 ] && [ -f "$stopped" ] && rc=0
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	cov=$(sed -n 's/^#[0-9].* cov: \([0-9]*\) .*/\1/p' "$log" | tail -n 1)
	spent="in ${seconds} s${FUZZ_CPU:+ of CPU}"
	[ "$rc" -ne 0 ] && spent="until a finding"
	echo "$name: ${runs:-?} runs $spent," \
	    "coverage ${cov:-?} edges, corpus $(ls "$seeds" | wc -l) seeds" \
	    "+ $(ls "$work/$name/corpus" | wc -l) new"
	if [ "$rc" -ne 0 ]; then
		tail -n 60 "$log" >&2
		echo "$name: FINDING (status $rc); the input is in" \
		    "$work/$name/findings/:" >&2
		ls "$work/$name/findings" >&2
		trap - EXIT
		exit 1
	fi
done
