#!/bin/bash
# --pipe and --pipepart against GNU parallel and the floors, on a file of
# lines (seq 1 30000000, about 250 MB, in the page cache): each block of
# --block 10M goes to a `wc -l`, -j2.  The floors: one `wc -l` reading the
# file itself, and `cat file | wc -l` (what any tool that copies the data
# through a pipe pays).  Prints the median of each and the ratios the
# targets are stated in.
#
#   WSPX=./wspx RUNS=10 tests/bench/pipe.sh
#
# Needs hyperfine and GNU parallel; not part of make check.
set -euo pipefail
WSPX=${WSPX:-./wspx}
WSPX=$(cd "$(dirname "$WSPX")" && pwd)/$(basename "$WSPX")
RUNS=${RUNS:-10} J=${J:-2} LINES=${LINES:-30000000}
WORK=${WORK:-$(mktemp -d)}
export SHELL=/bin/sh PARALLEL_HOME=$WORK/parallel
mkdir -p "$PARALLEL_HOME" && touch "$PARALLEL_HOME/will-cite"
cd "$WORK"
[ -s big.txt ] || seq 1 "$LINES" > big.txt

cases=(
	floor "wc -l < big.txt"
	cat "cat big.txt | wc -l"
	gnu-pipe "parallel -j$J --pipe --block 10M wc -l < big.txt"
	wspx-pipe "$WSPX -j$J --pipe --block 10M wc -l < big.txt"
	wspx-pipe-stdin-pipe "cat big.txt | $WSPX -j$J --pipe --block 10M wc -l"
	gnu-pipepart "parallel -j$J --pipepart -a big.txt --block 10M wc -l"
	wspx-pipepart "$WSPX -j$J --pipepart -a big.txt --block 10M wc -l"
)
args=()
for ((i = 0; i < ${#cases[@]}; i += 2)); do
	# every command must count every line
	n=$(sh -c "${cases[i+1]}" | awk '{ s += $1 } END { print s }')
	if [ "$n" != "$LINES" ]; then
		echo "${cases[i]}: counted $n lines, not $LINES" >&2
		exit 1
	fi
	args+=(-n "${cases[i]}" "${cases[i+1]}")
done
hyperfine --style none --warmup 2 --runs "$RUNS" \
    --export-json "$WORK/pipe.json" "${args[@]}" > /dev/null
python3 - "$WORK/pipe.json" <<'PY'
import json, sys
m = {r["command"]: r["median"] for r in json.load(open(sys.argv[1]))["results"]}
for name, t in m.items():
    print(f"{name:<22} median {t * 1e3:8.1f} ms")
def ratio(a, b, target):
    print(f"{a} / {b}: {m[a] / m[b]:.2f}x (target <= {target}x)")
ratio("wspx-pipe", "gnu-pipe", 0.5)
ratio("wspx-pipe", "cat", 1.0)
ratio("wspx-pipepart", "gnu-pipepart", 0.5)
ratio("wspx-pipepart", "floor", 2.0)
PY
echo "work: $WORK" >&2
