# For the tests that compare wspx with GNU parallel 20221122 on the same
# arguments (make check installs it).

# GNU parallel with a home of its own (no ~/.parallel, no citation
# notice); skips the test when it is not installed.
needgnu() {
	command -v parallel > /dev/null || skip "GNU parallel is not installed"
	export PARALLEL_HOME=$BATS_TEST_TMPDIR/ph
	mkdir -p "$PARALLEL_HOME"
	touch "$PARALLEL_HOME/will-cite"
}

# Run the same arguments through GNU parallel and wspx, with the file $IN
# (default /dev/null) as stdin, and fail unless stdout and the exit status
# are exactly the same.  The outputs are left in gnu.out and wspx.out;
# with $FILTER, stdout is first passed through that shell command (for
# what is not the same from run to run, as a joblog's times).
same() {
	needgnu
	local in=${IN:-/dev/null} gs ws f=${FILTER:-cat}
	{ parallel "$@" < "$in" 2> gnu.err && echo 0 > gnu.rc ||
	    echo $? > gnu.rc; } | sh -c "$f" > gnu.out
	{ "$WSPX" "$@" < "$in" 2> wspx.err && echo 0 > wspx.rc ||
	    echo $? > wspx.rc; } | sh -c "$f" > wspx.out
	gs=$(cat gnu.rc)
	ws=$(cat wspx.rc)
	if ! cmp -s gnu.out wspx.out || [ "$gs" != "$ws" ]; then
		echo "differs: $*" >&2
		echo "GNU parallel, status $gs:" >&2
		cat gnu.out >&2
		echo "wspx, status $ws:" >&2
		cat wspx.out wspx.err >&2
		return 1
	fi
}
