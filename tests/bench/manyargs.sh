#!/usr/bin/env bash
# Many arguments per job: `seq 1000000 | wspx -X true` against
# `xargs true` and `parallel -X true`, in one hyperfine run (A B C A B C
# ...), medians and ratios to xargs.  As the anchors do, every tool gets
# /bin/sh as its shell.
#
#   tests/bench/manyargs.sh ./wspx [RUNS]
set -euo pipefail
WSPX=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
RUNS=${2:-5}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
export SHELL=/bin/sh PARALLEL_HOME=$WORK/ph
mkdir -p "$PARALLEL_HOME" && touch "$PARALLEL_HOME/will-cite"
sh tests/need.sh tests/bench/manyargs.sh hyperfine parallel || exit 1
seq 1000000 >"$WORK/args"
cd "$WORK"
# the same arguments reach each tool: count them once
for t in "xargs true" "$WSPX -X true" "parallel -X true"; do
	n=$(sh -c "${t/true/echo} <args" | wc -w)
	[ "$n" -eq 1000000 ] || { echo "$t passed $n arguments" >&2; exit 1; }
done
hyperfine -N --style none --warmup 1 --runs "$RUNS" --export-json r.json \
	-n xargs "sh -c 'xargs true <args'" \
	-n wspx "sh -c '$WSPX -X true <args'" \
	-n parallel "sh -c 'parallel -X true <args'" >/dev/null
python3 - r.json <<'PY'
import json, sys
r = {x["command"]: x["median"] for x in json.load(open(sys.argv[1]))["results"]}
for k, v in r.items():
    print(f"{k:<9} median {v*1e3:9.1f} ms   vs xargs {v/r['xargs']:6.2f}x")
PY
