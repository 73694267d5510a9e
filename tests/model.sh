#!/bin/sh
# Check the Promela model of the pool's sleep/wake protocol with spin:
#
#	sh tests/model.sh lib/sleep.pml
#
# Runs, each as an exhaustive search:
#   - a safety run: assertions and invalid end states (no never claim);
#   - for each `ltl NAME { ... }` formula in the model, a liveness run with
#     weak fairness (pan -a -f -N NAME).  These ignore assertions (-A),
#     which the safety run checks, so that each shows what its formula
#     catches on its own.
# The runs go MODEL_JOBS at a time (default 2).  Everything happens in a
# temporary directory, removed on exit.  Prints one summary line and exits
# 0 if no run reports an error or an incomplete search; otherwise prints
# pan's report and the counterexample, and exits 1.

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

tmp=$(mktemp -d "${TMPDIR:-/tmp}/wspx-model.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM
cd "$tmp" || exit 1
cp "$abs" model.pml || exit 1

start=$(date +%s)

# Generate the verifier.  spin prints each ltl formula it translates.
if ! spin -a model.pml > spin.out 2>&1 || [ ! -f pan.c ] ||
    grep -q 'Error' spin.out; then
	cat spin.out >&2
	echo "model: spin -a $model failed" >&2
	exit 1
fi
props=$(sed -n 's/^[ 	]*ltl[ 	][ 	]*\([A-Za-z_][A-Za-z0-9_]*\).*/\1/p' \
    model.pml)

# Two verifiers: one without the never claims for the safety run, one with
# them for the liveness runs.  Exhaustive storage (no bitstate, no hash
# compaction), so a search that completes covers every reachable state.
# -w: pan.c draws harmless warnings from recent compilers.
flags="-O2 -w -DVECTORSZ=2048 -DMEMLIM=4096"
$cc $flags -DSAFETY -DNOCLAIM -o pan-safety pan.c > cc-safety.out 2>&1 &
$cc $flags -o pan-ltl pan.c > cc-ltl.out 2>&1
rc=$?
wait $! || rc=1
if [ $rc -ne 0 ]; then
	cat cc-safety.out cc-ltl.out >&2
	echo "model: cannot compile pan.c" >&2
	exit 1
fi

# runone NAME: run one search in directory NAME, output in NAME/pan.out.
# -m: the deepest search of the model is about 1,500 steps.
runone() {
	mkdir "$1" || return 1
	(
		cd "$1" || exit 1
		ln -s ../model.pml model.pml
		if [ "$1" = safety ]; then
			../pan-safety -m200000
		else
			../pan-ltl -a -f -A -m200000 -N "$1"
		fi > pan.out 2>&1
		echo $? > rc
	)
}

# Run the searches in `jobs` lanes; each lane runs every jobs-th search.
set -- safety $props
lane=0
while [ $lane -lt "$jobs" ]; do
	(
		i=0
		for name in "$@"; do
			if [ $((i % jobs)) -eq $lane ]; then
				runone "$name"
			fi
			i=$((i + 1))
		done
	) &
	lane=$((lane + 1))
done
wait

# Check each search: it must have finished, found no error and not been cut
# short by the depth or memory bound.
failed=
states=0
for name in "$@"; do
	out=$name/pan.out
	if [ ! -f "$out" ] || [ "$(cat "$name/rc" 2>/dev/null)" != 0 ] ||
	    ! grep -q 'errors: 0$' "$out" ||
	    grep -q -e 'depth too small' -e 'out of memory' -e 'MEMLIM' \
	    -e 'Search not completed' "$out"; then
		failed="$failed $name"
		continue
	fi
	n=$(sed -n 's/^ *\([0-9][0-9]*\) states, stored.*/\1/p' "$out")
	states=$((states + ${n:-0}))
done

# On failure: pan's report of each failed search, then the counterexample
# of the first one, replayed by spin.
if [ -n "$failed" ]; then
	trail=
	for name in $failed; do
		echo "model: $model: $name: FAILED" >&2
		if [ -f "$name/pan.out" ]; then
			grep -v '^Depth=' "$name/pan.out" >&2
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

end=$(date +%s)
set -- $props
echo "model: $model: no errors: safety and $# ltl properties ($*)," \
    "$states states, $((end - start)) s"
