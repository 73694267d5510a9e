#!/usr/bin/env bash
# The spawn case on a machine already busy: four busy loops run while
# `wspx -j2 true` and `xargs -P2 -n1 true` each start 2,000 trues, the
# two taking turns (medians of $RUNS in one run, with hyperfine).  A
# runtime that spins while it waits would lose its slots' time to the
# loops here, where a quiet machine hides it.
#
#   tests/bench/saturated.sh          # from the top of the tree, after make
set -euo pipefail
N=${N:-2000} J=${J:-2} RUNS=${RUNS:-5} LOOPS=${LOOPS:-4}
WSPX=${WSPX:-$(pwd)/wspx}
WORK=$(mktemp -d)
pids=()
cleanup() {
	((${#pids[@]})) && kill "${pids[@]}" 2>/dev/null
	rm -rf "$WORK"
}
trap cleanup EXIT
sh tests/need.sh tests/bench/saturated.sh hyperfine || exit 1
seq "$N" >"$WORK/args"
for ((i = 0; i < LOOPS; i++)); do
	sh -c 'while :; do :; done' &
	pids+=($!)
done
cd "$WORK"
hyperfine -N --style none --warmup 1 --runs "$RUNS" --export-json "$WORK/s.json" \
    -n xargs "sh -c 'xargs -P$J -n1 true <args'" \
    -n wspx "sh -c '$WSPX -j$J true <args'" >/dev/null
python3 - "$WORK/s.json" "$LOOPS" <<'PY'
import json, sys
r = {x["command"]: x["median"] for x in json.load(open(sys.argv[1]))["results"]}
for tool in ("xargs", "wspx"):
    print(f'saturated({sys.argv[2]} loops) {tool:<6} median {r[tool] * 1e3:9.1f} ms   '
          f'vs xargs {r[tool] / r["xargs"]:5.2f}x')
PY
