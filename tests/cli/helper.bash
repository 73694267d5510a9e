# Shared setup for the CLI tests: every test runs $WSPX (default: the
# wspx built at the top of the tree) in its own temporary directory.

setup() {
	WSPX=${WSPX:-$BATS_TEST_DIRNAME/../../wspx}
	case $WSPX in /*) ;; *) WSPX=$PWD/$WSPX ;; esac
	export WSPX
	# a WSPX_SHELL of the caller would choose the jobs' shell (shell.bats)
	unset WSPX_SHELL
	# and a $PARALLEL of the caller would add options (profiles.bats)
	unset PARALLEL
	cd "$BATS_TEST_TMPDIR" || exit 1
}

# Run "$@" as the child of a program that is not a shell, so that $SHELL
# chooses the shell for command lines, not the test's bash.
fromprogram() {
	python3 -c 'import subprocess, sys
sys.exit(subprocess.run(sys.argv[1:]).returncode)' "$@"
}

# Wait until the file $1 exists (a job's marker), at most $2 seconds
# (default 10); fail the test if it never appears.
waitfile() {
	local n=0 max=$((${2:-10} * 100))
	while [ ! -e "$1" ]; do
		n=$((n + 1))
		if [ "$n" -gt "$max" ]; then
			echo "timed out waiting for $1" >&2
			return 1
		fi
		sleep 0.01
	done
}

# Wait, at most 30 s, until the command "$@" succeeds.
waituntil() {
	local end=$((SECONDS + 30))
	until "$@"; do
		if [ "$SECONDS" -ge "$end" ]; then
			echo "timed out waiting for: $*" >&2
			return 1
		fi
		sleep 0.01
	done
}

# Wait until $1 files match the glob $2, at most 10 seconds.
waitcount() {
	local n=0 k
	while :; do
		k=$(ls -1 $2 2>/dev/null | wc -l)
		[ "$k" -ge "$1" ] && return 0
		n=$((n + 1))
		if [ "$n" -gt 1000 ]; then
			echo "timed out: $k of $1 files matching $2" >&2
			return 1
		fi
		sleep 0.01
	done
}

# Succeed if no process with a pid listed in the file $1 is alive, waiting
# up to 5 s: a SIGKILL sent to a group as wspx exits takes a moment to land.
# A zombie is dead (once wspx has exited, its reaper is init), and so is a
# pid that ps no longer shows; only ps's state decides, as a zombie reaped
# between two looks would otherwise seem alive.
allgone() {
	local p s end=$((SECONDS + 5)) alive
	while :; do
		alive=
		for p in $(cat "$1"); do
			s=$(ps -o stat= -p "$p" | cut -c1)
			if [ -n "$s" ] && [ "$s" != Z ]; then
				alive=$p
				break
			fi
		done
		[ -z "$alive" ] && return 0
		if [ "$SECONDS" -ge "$end" ]; then
			echo "process $alive is still alive:" >&2
			ps -o pid,pgid,stat,args -p "$alive" >&2
			return 1
		fi
		sleep 0.05
	done
}

# Run the command "$@" and print its peak resident set size in KiB.
maxrss() {
	python3 -c 'import resource, subprocess, sys
subprocess.run(sys.argv[1:], check=True)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' "$@"
}

# Wait for the background process $1 and set $st to its exit status.
waitstatus() {
	st=0
	wait "$1" || st=$?
}

# 100 MB in KiB; three times that under ASan or TSan (make check-asan
# and check-tsan set ASAN_OPTIONS and TSAN_OPTIONS), whose shadow memory
# counts in the RSS.
rsslimit() {
	if [ -n "${ASAN_OPTIONS:-}${TSAN_OPTIONS:-}" ]; then
		echo 307200
	else
		echo 102400
	fi
}

# A job file's run prints a progress line per job ("[3/7] ok build 0.4s")
# and ends with one line ("wspx: 7 jobs in 0.4s: ..."); progress.bats
# tests them.  The tests of what the jobs themselves print drop them from
# $output and $lines with this.
jobsonly() {
	local line kept=()
	for line in "${lines[@]}"; do
		case $line in
		'['[0-9]*/[0-9]*'] ok '* | '['[0-9]*/[0-9]*'] FAILED '* | \
		'['[0-9]*/[0-9]*'] STOPPED '*) ;;
		'wspx: '[0-9]*' job'*' in '*) ;;
		*) kept+=("$line") ;;
		esac
	done
	lines=("${kept[@]}")
	output=$(printf '%s\n' "${kept[@]}")
	if [ ${#kept[@]} -eq 0 ]; then output=; fi
}
