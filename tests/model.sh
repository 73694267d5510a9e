#!/bin/sh
# Check the Promela model of the pool's sleep/wake protocol with spin:
#
#	sh tests/model.sh lib/runtime/sleep.pml
#
# First the model as it is, each run an exhaustive search that must pass:
#   - a safety run: assertions and invalid end states (no never claim);
#   - for each `ltl NAME { ... }` formula in the model, a liveness run with
#     weak fairness (pan -a -f -N NAME).  These ignore assertions (-A),
#     which the safety run checks, so that each shows what its formula
#     catches on its own.
# Then its known-bad variants, which show that the model can see the
# mistakes the protocol guards against.  The model lists them in its header
# comment, one line ` * mutant NAME: what it breaks` each; MODEL_MUTANTS, a
# list of names, replaces that list (empty: none).  Each is built with spin
# -DNAME and searched as above, safety first, until a search reports an
# error; a variant that passes every search fails the check.
#
# The searches go MODEL_JOBS at a time (default 2).  Everything happens in
# a temporary directory, removed on exit.  Prints a line for the model and
# one per variant, naming the search that caught it, and exits 0 if the
# model passed and every variant was caught; otherwise prints what went
# wrong (for the model, pan's report and the counterexample) and exits 1.

set -u

if [ $# -ne 1 ]; then
	echo "usage: sh tests/model.sh model.pml" >&2
	exit 2
fi

if ! command -v spin >/dev/null 2>&1; then
	echo "model: spin is not installed: apt-get install spin" >&2
	exit 1
fi
cc=${CC:-cc}
if ! command -v "${cc%% *}" >/dev/null 2>&1; then
	echo "model: no C compiler: $cc" >&2
	exit 1
fi

model=$1
if [ ! -r "$model" ]; then
	echo "model: cannot read $model" >&2
	exit 1
fi
case $model in
/*)	abs=$model ;;
*)	abs=$(pwd)/$model ;;
esac

jobs=${MODEL_JOBS:-2}
case $jobs in
'' | *[!0-9]* | 0)
	echo "model: MODEL_JOBS must be a positive number" >&2
	exit 2
	;;
esac

if [ "${MODEL_MUTANTS+set}" = set ]; then
	mutants=$MODEL_MUTANTS
else
	mutants=$(sed -n \
	    's/^ \*[ 	]*mutant \([A-Za-z_][A-Za-z0-9_]*\):.*/\1/p' "$model")
fi
for m in $mutants; do
	case $m in
	[A-Za-z_]*[!A-Za-z0-9_]* | [!A-Za-z_]*)
		echo "model: not a mutant name: $m" >&2
		exit 2
		;;
	esac
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/wspx-model.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM
cd "$tmp" || exit 1
cp "$abs" model.pml || exit 1

start=$(date +%s)

# Generate the verifier, with the switch $1 defined if not empty.  spin
# prints each ltl formula it translates.
generate() {
	if ! spin ${1:+"-D$1"} -a model.pml > spin.out 2>&1 ||
	    [ ! -f pan.c ] || grep -q 'Error' spin.out; then
		cat spin.out
		return 1
	fi
}

# Exhaustive storage (no bitstate, no hash compaction), so a search that
# completes covers every reachable state.  -w: pan.c draws harmless
# warnings from recent compilers.
flags="-w -DVECTORSZ=2048 -DMEMLIM=4096"

# compile safety|ltl OPT: the verifier without the never claims for the
# safety run, or with them for the liveness runs, optimized as OPT says.
compile() {
	if [ "$1" = safety ]; then
		$cc $2 $flags -DSAFETY -DNOCLAIM -o pan-safety pan.c
	else
		$cc $2 $flags -o pan-ltl pan.c
	fi > "cc-$1.out" 2>&1 || { cat "cc-$1.out"; return 1; }
}

# search NAME: run one search (safety, or an ltl formula's name) with the
# verifier in the parent directory; pan's output in NAME.out.
# -m: the deepest search of the model is about 1,500 steps.
search() {
	if [ "$1" = safety ]; then
		../pan-safety -m200000
	else
		../pan-ltl -a -f -A -m200000 -N "$1"
	fi > "$1.out" 2>&1
	echo $? > "$1.rc"
}

# passed OUT: the search finished, found no error and was not cut short by
# the depth or memory bound.
passed() {
	[ "$(cat "${1%.out}.rc" 2>/dev/null)" = 0 ] &&
	    grep -q 'errors: 0$' "$1" && ! grep -q -e 'depth too small' \
	    -e 'out of memory' -e 'MEMLIM' -e 'Search not completed' "$1"
}

# caught OUT: the search reported an error, and not for want of memory or
# depth.
caught() {
	grep -q 'errors: [1-9]' "$1" &&
	    ! grep -q -e 'depth too small' -e 'out of memory' "$1"
}

# runmutant NAME: build the variant in mutant-NAME and search it until a
# search reports an error.  Leaves in mutant-NAME either `caught` (the
# search's name), `failed` (spin or cc output), or neither (it passed).
runmutant() {
	mkdir "mutant-$1" || return 1
	(
		cd "mutant-$1" || exit 1
		cp ../model.pml model.pml || exit 1
		mkdir run || exit 1
		# A variant's search stops at its first error, after a
		# few seconds at most: compiling is most of its cost, and
		# without optimization that is five times faster.
		if ! generate "$1" > failed ||
		    ! compile safety -O0 >> failed; then
			exit 1
		fi
		(cd run && search safety)
		if caught run/safety.out; then
			echo safety > caught
			exit 0
		fi
		compile ltl -O2 >> failed || exit 1
		for p in $props; do
			(cd run && search "$p")
			if caught "run/$p.out"; then
				echo "$p" > caught
				exit 0
			fi
		done
	)
}

# runtask TASK: a search of the model (safety or an ltl formula's name, in
# directory TASK) or mutant:NAME.
runtask() {
	case $1 in
	mutant:*)
		runmutant "${1#mutant:}"
		;;
	*)
		mkdir "$1" && (cd "$1" && ln -s ../model.pml model.pml &&
		    search "$1")
		;;
	esac
}

if ! generate "" > spin-model.out; then
	cat spin-model.out >&2
	echo "model: spin -a $model failed" >&2
	exit 1
fi
props=$(sed -n 's/^[ 	]*ltl[ 	][ 	]*\([A-Za-z_][A-Za-z0-9_]*\).*/\1/p' \
    model.pml)
compile safety -O2 > cc.out 2>&1 &
compile ltl -O2 >> cc.out 2>&1
rc=$?
wait $! || rc=1
if [ $rc -ne 0 ]; then
	cat cc.out >&2
	echo "model: cannot compile pan.c" >&2
	exit 1
fi

# The liveness runs are the longest, so they go first; then each lane
# takes the next task nobody has claimed (mkdir is atomic).
tasks="$props safety"
for m in $mutants; do
	tasks="$tasks mutant:$m"
done
lane=0
while [ $lane -lt "$jobs" ]; do
	(
		i=0
		for t in $tasks; do
			if mkdir "claim.$i" 2>/dev/null; then
				runtask "$t"
			fi
			i=$((i + 1))
		done
	) &
	lane=$((lane + 1))
done
wait

# The model must pass every search.
failed=
states=0
for name in $props safety; do
	if ! passed "$name/$name.out"; then
		failed="$failed $name"
		continue
	fi
	n=$(sed -n 's/^ *\([0-9][0-9]*\) states, stored.*/\1/p' \
	    "$name/$name.out")
	states=$((states + ${n:-0}))
done

# On failure: pan's report of each failed search, then the counterexample
# of the first one, replayed by spin.
if [ -n "$failed" ]; then
	trail=
	for name in $failed; do
		echo "model: $model: $name: FAILED" >&2
		if [ -f "$name/$name.out" ]; then
			grep -v '^Depth=' "$name/$name.out" >&2
		fi
		if [ -z "$trail" ] && [ -f "$name/model.pml.trail" ]; then
			trail=$name
		fi
	done
	if [ -n "$trail" ]; then
		echo "model: $model: $trail: counterexample:" >&2
		(cd "$trail" && spin -t -p -g model.pml) >&2
	fi
	echo "model: $model: errors in:$failed" >&2
	exit 1
fi
set -- $props
echo "model: $model: no errors: safety and $# ltl properties ($*)," \
    "$states states"

# Each variant must fail a search.
missed=0
for m in $mutants; do
	d=mutant-$m
	if [ -f "$d/caught" ]; then
		s=$(cat "$d/caught")
		why=$(sed -n 's/^pan:1: //p' "$d/run/$s.out" | sed 1q)
		n=$(sed -n 's/^ *\([0-9][0-9]*\) states, stored.*/\1/p' \
		    "$d/run/$s.out")
		echo "model: mutant $m: caught by $s: $why, ${n:-?} states"
		continue
	fi
	missed=$((missed + 1))
	if [ -s "$d/failed" ]; then
		cat "$d/failed" >&2
		echo "model: mutant $m: cannot build it (spin -D$m -a)" >&2
	else
		echo "model: mutant $m passed: the model cannot see that" \
		    "mistake" >&2
	fi
done

end=$(date +%s)
set -- $mutants
if [ $missed -ne 0 ]; then
	echo "model: $model: $missed of $# mutants not caught" >&2
	exit 1
fi
echo "model: $model: $# mutants caught, $((end - start)) s in all"
