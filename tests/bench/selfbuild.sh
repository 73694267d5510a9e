#!/usr/bin/env bash
# A real multi-file C build both ways: wspx's own sources (the ~100 objects
# of the program and its two archives), built by this tree's Makefile with
# make -j$J and by a job file that runs the very commands make would
# (taken from `make -n`, the same flags), with wspx run -j$J.  Then each
# no-op build.  Medians of $RUNS in one run, with hyperfine.
#
#   tests/bench/selfbuild.sh            # from the top of the tree, after make
#
# Each compile job's sources are its .c file and every header, as the
# Makefile's rules have it; its generates, its object.
set -euo pipefail
J=${J:-2} RUNS=${RUNS:-5}
TOP=$(pwd)
WSPX=${WSPX:-$TOP/wspx}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
sh tests/need.sh tests/bench/selfbuild.sh hyperfine python3 make cc || exit 1

for d in make wspx; do
	mkdir "$WORK/$d"
	cp -r "$TOP/lib" "$TOP/cmd" "$TOP/Makefile" "$WORK/$d/"
	make -s -C "$WORK/$d" clean >/dev/null 2>&1 || true
done

# The commands of a full build, one per line (continuations joined).
make -s -C "$WORK/make" -n -B wspx | sed -e ':a' -e '/\\$/N; s/\\\n//; ta' \
    >"$WORK/commands"
python3 - "$WORK/commands" >"$WORK/wspx/build.yaml" <<'PY'
import re, sys, json
lines = [l.strip() for l in open(sys.argv[1]) if l.strip()]
hdrs = ["lib/**/*.h", "cmd/**/*.h"]
print("jobs:")
compiles, i = [], 0
for l in lines:
    m = re.search(r" -c -o (\S+\.o) (\S+\.c)$", l)
    if not m:
        continue
    i += 1
    name = f"cc{i}"
    compiles.append(name)
    print(f"  {name}:")
    print(f"    desc: {json.dumps(m.group(2))}")
    print(f"    run: {json.dumps(l)}")
    print(f"    sources: {json.dumps([m.group(2)] + hdrs)}")
    print(f"    generates: {json.dumps([m.group(1)])}")
archives = []
for l in lines:
    m = re.match(r"ar rcs (\S+) (.*)$", l)
    if not m:
        continue
    name = "ar_" + re.sub(r"\W", "_", m.group(1))
    archives.append(name)
    objs = m.group(2).split()
    print(f"  {name}:")
    print(f"    needs: {json.dumps(compiles)}")
    print(f"    run: {json.dumps(['rm -f ' + m.group(1), l])}")
    print(f"    sources: {json.dumps(objs)}")
    print(f"    generates: [{m.group(1)}]")
link = [l for l in lines if " -o wspx " in l][0]
objs = [w for w in link.split() if w.endswith(".o") or w.endswith(".a")]
print("  link:")
print(f"    needs: {json.dumps(compiles + archives)}")
print(f"    run: {json.dumps(link)}")
print(f"    sources: {json.dumps(objs)}")
print("    generates: [wspx]")
PY

clean='rm -f lib/*/*.o cmd/*/*.o cmd/*.o *.a wspx .build.yaml.wspx-state'
cd "$WORK"
hyperfine -N --style none --warmup 1 --runs "$RUNS" \
    --export-json "$WORK/build.json" \
    -n make "sh -c 'cd make && $clean && make -s -j$J wspx'" \
    -n wspx "sh -c 'cd wspx && $clean && $WSPX run -j$J build.yaml >/dev/null 2>&1'" \
    >/dev/null
(cd make && make -s -j"$J" wspx)
(cd wspx && "$WSPX" run -j"$J" build.yaml >/dev/null 2>&1)
hyperfine -N --style none --warmup 1 --runs "$RUNS" \
    --export-json "$WORK/noop.json" \
    -n make "sh -c 'cd make && make -s -j$J wspx'" \
    -n wspx "sh -c 'cd wspx && $WSPX run -j$J build.yaml >/dev/null 2>&1'" \
    >/dev/null
python3 - "$WORK/build.json" "$WORK/noop.json" <<'PY'
import json, sys
for path, case in zip(sys.argv[1:], ("selfbuild", "selfnoop")):
    r = {x["command"]: x["median"] for x in json.load(open(path))["results"]}
    for tool in ("make", "wspx"):
        print(f'{case:<10} {tool:<5} median {r[tool] * 1e3:9.1f} ms   '
              f'vs make {r[tool] / r["make"]:5.2f}x')
PY
