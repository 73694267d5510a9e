#!/usr/bin/env bats
# $PARALLEL and GNU parallel's profiles (-J, the config files, --plain):
# options read before the command line's, as GNU parallel 20221122 reads
# them, compared with it on the same files.  Each test has a home of its
# own, so that no profile of the machine's is read.

load helper
load gnu

setup() {
	needgnu
	export HOME=$BATS_TEST_TMPDIR/home
	mkdir -p "$HOME"
	unset XDG_CONFIG_HOME XDG_CONFIG_DIRS
	WSPX=${WSPX:-$BATS_TEST_DIRNAME/../../wspx}
	case $WSPX in /*) ;; *) WSPX=$PWD/$WSPX ;; esac
	export WSPX
	unset WSPX_SHELL PARALLEL
	cd "$BATS_TEST_TMPDIR" || exit 1
}

@test "\$PARALLEL: its options come before the command line's, which win" {
	PARALLEL="-k --tag" same echo ::: a b
	[ "$(cat wspx.out)" = "$(printf 'a\ta\nb\tb')" ]
	PARALLEL="-k --tagstring x" same --tagstring y echo ::: a b
	[ "$(cat wspx.out)" = "$(printf 'y\ta\ny\tb')" ]
	# split as a shell splits, quotes and backslashes, no expansion
	PARALLEL="-k --tagstring 'a b' --colsep \\  -q" \
	    same echo '{2}' '$HOME' ::: 'x y'
	[ "$(cat wspx.out)" = "$(printf 'a b\ty $HOME')" ]
	PARALLEL='-k --tagstring "\"q\" \$x"' same echo ::: 1
	[ "$(cat wspx.out)" = "$(printf '"q" $x\t1')" ]
}

@test "profiles: the config files by default, -J NAME instead, -J ./FILE, and words after the options before the command" {
	printf -- '-k\n  # a comment, and a blank line\n\n--tag\n' \
	    > "$PARALLEL_HOME/config"
	same echo ::: a b
	[ "$(cat wspx.out)" = "$(printf 'a\ta\nb\tb')" ]
	printf -- '--tagstring "p q"\n' > "$HOME/.parallelrc"
	same echo ::: a
	[ "$(cat wspx.out)" = "$(printf 'p q\ta')" ]
	# -J reads the named profile, not the config files
	printf -- '-k -j1\n' > "$PARALLEL_HOME/one"
	same -J one echo ::: a b
	[ "$(cat wspx.out)" = "$(printf 'a\nb')" ]
	mkdir -p "$HOME/.parallel"
	printf -- '--tag\n' > "$HOME/.parallel/tags"
	same -J one -J tags echo ::: a b
	[ "$(cat wspx.out)" = "$(printf 'a\ta\nb\tb')" ]
	printf -- '-k\n' > here
	same -J ./here echo ::: b a
	[ "$(cat wspx.out)" = "$(printf 'b\na')" ]
	# a profile's words after its options go before the command
	printf -- '-k nice -n 5\n' > "$PARALLEL_HOME/niced"
	same -J niced sh -c nice ::: a
	[ "$(cat wspx.out)" = 5 ]
	# $PARALLEL after the profiles, the command line last
	PARALLEL=--tagstring=e same -J tags echo ::: a
	[ "$(cat wspx.out)" = "$(printf 'e\ta')" ]
}

@test "--plain reads no profile and not \$PARALLEL" {
	printf -- '--tag\n' > "$PARALLEL_HOME/config"
	PARALLEL="--tagstring x" same --plain echo ::: a
	[ "$(cat wspx.out)" = a ]
}

@test "a bad option of \$PARALLEL or of a profile: an error naming it, and its file and line; no job runs" {
	PARALLEL="--nosuch" run "$WSPX" touch ran ::: 1
	[ "$status" -eq 255 ]
	[[ "$output" == *'$PARALLEL: unknown option --nosuch'* ]]
	PARALLEL="--tagstring 'x" run "$WSPX" touch ran ::: 1
	[ "$status" -eq 255 ]
	[[ "$output" == *'$PARALLEL: a quote that is not closed, at column 13'* ]]
	printf -- '-k\n-j x\n' > "$PARALLEL_HOME/bad"
	run "$WSPX" -J bad touch ran ::: 1
	[ "$status" -eq 255 ]
	[[ "$output" == *"$PARALLEL_HOME/bad:2: -j: 'x' is not"* ]]
	printf -- '-k "x\n' > "$PARALLEL_HOME/config"
	run "$WSPX" touch ran ::: 1
	[ "$status" -eq 255 ]
	[[ "$output" == *"$PARALLEL_HOME/config:1:4: a quote that is not closed"* ]]
	[ ! -e ran ]
}

@test "-J NAME found nowhere is an error, where GNU parallel says nothing" {
	run "$WSPX" -J nosuch touch ran ::: 1
	[ "$status" -eq 255 ]
	[[ "$output" == *"-J nosuch: no profile nosuch in"* ]]
	run "$WSPX" -J ./nosuch touch ran ::: 1
	[ "$status" -eq 255 ]
	[[ "$output" == *"-J ./nosuch: cannot read the profile"* ]]
	[ ! -e ran ]
	# (GNU parallel runs the job)
	parallel -J nosuch true ::: 1
}

@test "a job file reads no profile and not \$PARALLEL; -J with one is refused" {
	printf 'jobs:\n  a:\n    run: echo ran\n' > wspx.yml
	printf -- '--nosuch\n' > "$PARALLEL_HOME/config"
	PARALLEL=--nosuch run "$WSPX" run --quiet
	[ "$status" -eq 0 ]
	[[ "$output" == *ran* ]]
	run "$WSPX" -J config run
	[ "$status" -eq 255 ]
	[[ "$output" == *"-J/--profile is for commands of the input, not for job files"* ]]
}
