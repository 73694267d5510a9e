#!/usr/bin/env bash
# Two builds of wspx side by side, for a change that must not move the
# costs (a refactoring, a reorganisation): the spawn, shell and graph
# cases of the command-line anchor benchmark, with the posix_spawn floor,
# each case one run in which the two builds take turns.
#
#   tests/bench/abtest.sh OLD_WSPX NEW_WSPX      # from the project root
#   N=2000 J=2 L=40 W=50 RUNS=10 tests/bench/abtest.sh ...
#
# Prints, per case, the median of each build, the ratio new/old, and the
# floor's median where there is one.
set -euo pipefail
[[ $# -eq 2 ]] || { echo "usage: $0 OLD_WSPX NEW_WSPX" >&2; exit 2; }
abs() { echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"; }
OLD=$(abs "$1") NEW=$(abs "$2")
N=${N:-2000} J=${J:-2} L=${L:-40} W=${W:-50} RUNS=${RUNS:-10}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
# The same shell for everything that needs one (wspx takes the shell it
# was started from, which is sh here, as for the anchors).
export SHELL=/bin/sh
cd "$WORK"

# The floor: posix_spawn and waitpid of each job's argv, J at a time.
cat > floor.c <<'C'
#define _POSIX_C_SOURCE 200809L
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

extern char **environ;

/* floor N J PROG ARGS...: run PROG ARGS N times, J at once, each with
 * its number in place of an argument "{}". */
int
main(int argc, char **argv)
{
	long n = atol(argv[1]), j = atol(argv[2]), i, running = 0;
	char num[32], *args[64];
	int k, st;
	pid_t pid;

	for (k = 3; k < argc && k - 3 < 63; k++)
		args[k - 3] = strcmp(argv[k], "{}") == 0 ? num : argv[k];
	args[k - 3] = NULL;
	for (i = 1; i <= n; i++) {
		snprintf(num, sizeof(num), "%ld", i);
		if (running == j && wait(&st) > 0)
			running--;
		if (posix_spawn(&pid, args[0], NULL, NULL, args, environ) == 0)
			running++;
	}
	while (running-- > 0)
		wait(&st);
	return 0;
}
C
cc -O2 -o floor floor.c
seq "$N" > args
sed 's/^/echo job /' args > lines
{
	echo "jobs:"
	for ((l = 0; l < L; l++)); do
		for ((i = 0; i < W; i++)); do
			if ((l == 0)); then
				echo "  n${l}_$i: {run: \"true\"}"
			else
				echo "  n${l}_$i: {run: \"true\", needs: [n$((l - 1))_$i, n$((l - 1))_$(((i + 1) % W))]}"
			fi
		done
	done
} > graph.yaml

# case NAME FLOOR OLDCMD NEWCMD: RUNS rounds, each of which runs the
# floor, old and new once, old and new in turns first, so that a drift of
# the machine's load falls on both alike; medians of the wall times.
case_() {
	python3 - "$RUNS" "$@" <<'PY'
import statistics, subprocess, sys, time
runs, name, floor, old, new = int(sys.argv[1]), *sys.argv[2:6]
cmds = {"old": old, "new": new}
if floor:
    cmds["floor"] = floor
times = {k: [] for k in cmds}
def once(cmd):
    t = time.perf_counter()
    subprocess.run(cmd, shell=True, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - t
for k in cmds:                      # a warm-up of each
    once(cmds[k])
for r in range(runs):
    order = ["old", "new"] if r % 2 == 0 else ["new", "old"]
    for k in (["floor"] if floor else []) + order:
        times[k].append(once(cmds[k]))
m = {k: statistics.median(v) for k, v in times.items()}
line = (f'{name:<6} old {m["old"] * 1e3:8.1f} ms   new {m["new"] * 1e3:8.1f} ms'
        f'   new/old {m["new"] / m["old"]:5.3f}')
if floor:
    line += f'   floor {m["floor"] * 1e3:8.1f} ms'
print(line)
PY
}

case_ spawn "sh -c './floor $N $J /bin/true {}'" \
    "sh -c '$OLD -j$J true < args'" "sh -c '$NEW -j$J true < args'"
case_ shell "sh -c './floor $N $J /bin/sh -c \"echo job \\\$1\" sh {} > /dev/null'" \
    "sh -c '$OLD -j$J < lines > /dev/null'" "sh -c '$NEW -j$J < lines > /dev/null'"
case_ graph "" "$OLD run -j$J graph.yaml" "$NEW run -j$J graph.yaml"
