#!/usr/bin/env bats
# wspx report FILE (wspx(1), "Watching a run"): the totals, the slowest
# jobs and a job file's critical path from a trace, an --events file or a
# joblog; --svg draws the run.  Exact numbers come from files written
# here with known times; real runs are checked for what does not rest on
# timing (which jobs, how many, which path).

load helper
bats_require_minimum_version 1.5.0

# A trace of a diamond: a 1 s, then b 3 s and c 0.5 s, then d 2 s, on two
# slots; the critical path is a, b, d (6 s of the 6 s wall).
diamond() {
	cat > diamond.json <<'J'
[
{"name": "process_name", "ph": "M", "pid": 1, "tid": 0, "args": {"name": "wspx"}},
{"name": "a", "cat": "ok", "ph": "X", "ts": 0, "dur": 1000000, "pid": 1, "tid": 1, "args": {"seq": 1, "command": "sleep 1", "exit": 0, "attempt": 1, "bytes": 0, "needs": []}},
{"name": "c", "cat": "ok", "ph": "X", "ts": 1000000, "dur": 500000, "pid": 1, "tid": 2, "args": {"seq": 3, "command": "sleep 0.5", "exit": 0, "attempt": 1, "bytes": 0, "needs": ["a"]}},
{"name": "b", "cat": "ok", "ph": "X", "ts": 1000000, "dur": 3000000, "pid": 1, "tid": 1, "args": {"seq": 2, "command": "sleep 3", "exit": 0, "attempt": 1, "bytes": 0, "needs": ["a"]}},
{"name": "d", "cat": "failed", "ph": "X", "ts": 4000000, "dur": 2000000, "pid": 1, "tid": 1, "args": {"seq": 4, "command": "sleep 2; false", "exit": 1, "attempt": 1, "bytes": 0, "needs": ["b", "c"]}},
{"name": "run over", "cat": "run", "ph": "i", "s": "g", "ts": 6000000, "pid": 1, "tid": 0, "args": {"jobs": 4, "failed": 1, "skipped": 0, "wall": 6.0, "cpu_user": 0.25, "cpu_system": 0.5, "slots": 2, "exit_status": 1}}
]
J
}

@test "report: a diamond's totals, slowest jobs and critical path, exactly" {
	diamond
	run "$WSPX" report diamond.json
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "diamond.json (trace)" ]
	grep -qx 'wall time        6.00s' <<< "$output"
	grep -qx 'jobs             4, 1 failed' <<< "$output"
	grep -qx "job time         6.50s, the attempts' times on slots added" <<< "$output"
	grep -qx "CPU time         0.75s, the jobs' user and system" <<< "$output"
	grep -qx 'parallelism      1.08 on average, 2 at most, of 2 slots' \
	    <<< "$output"
	grep -qx 'idle slot time   5.50s, 46% of 2 x 6.00s' <<< "$output"
	# slowest first, the failed one said so
	[ "$(sed -n '/^slowest jobs$/,/^$/p' <<< "$output" | sed 1d |
	    tr -s ' ' | sed '/^$/d' | tr '\n' '|')" = \
	    " 3.00s b| 2.00s d (failed)| 1.00s a| 0.50s c|" ]
	[ "$(sed -n '/^critical path/,$p' <<< "$output" | tr -s ' ' |
	    tr '\n' '|')" = \
	    "critical path 3 jobs, 6.00s of the 6.00s wall| 1.00s a| 3.00s b| 2.00s d|" ]
}

@test "report: --top N lists N jobs; --top 0 none" {
	diamond
	run "$WSPX" report --top 1 diamond.json
	[ "$status" -eq 0 ]
	[ "$(sed -n '/^slowest jobs$/,/^$/p' <<< "$output" | grep -c s$)" -eq 1 ]
	run "$WSPX" report --top=0 diamond.json
	[ "$status" -eq 0 ]
	! grep -q '^slowest' <<< "$output"
}

@test "report: the parallelism of a known --events file: 4 jobs of 1 s on 2 slots in 2 s" {
	for i in 1 2 3 4; do
		s=$(( (i - 1) / 2 + 100 ))
		printf '{"event": "end", "seq": %d, "slot": %d, "pid": 1, "command": "job %d", "start": %d.0, "end": %d.0, "runtime": 1.0, "exit": 0, "signal": null, "bytes": 0, "attempt": 1, "retry": false}\n' \
		    "$i" $(( (i - 1) % 2 + 1 )) "$i" "$s" $(( s + 1 ))
	done > ev.json
	run "$WSPX" report ev.json
	echo "$output"
	[ "$status" -eq 0 ]
	grep -qx 'wall time        2.00s' <<< "$output"
	grep -qx 'parallelism      2.00 on average, 2 at most, of 2 slots' \
	    <<< "$output"
	grep -qx 'idle slot time   0.00s, 0% of 2 x 2.00s' <<< "$output"
	grep -qx 'critical path    none: no job needs another' <<< "$output"
}

@test "report: the parallelism of a real -j2 run: never more than its 2 slots" {
	run "$WSPX" -j 2 --events ev.json 'sleep 0.3; echo' ::: 1 2 3 4 5 6
	[ "$status" -eq 0 ]
	run "$WSPX" report ev.json
	echo "$output"
	[ "$status" -eq 0 ]
	grep -qx 'jobs             6' <<< "$output"
	# (how much they overlapped rests on the machine's load; that they
	# never passed -j, and that the average is job time over wall, not)
	grep -qE '^parallelism      [0-2]\.[0-9][0-9] on average, [12] at most, of 2 slots$' <<< "$output"
	awk '/^parallelism/ { exit !($2 > 0 && $2 <= 2.0) }' <<< "$output"
}

@test "report: a real diamond run's critical path, from its trace and from its events" {
	cat > jobs.yaml <<'Y'
jobs:
  a: {run: "sleep 0.2"}
  b: {run: "sleep 2", needs: [a]}
  c: {run: "true", needs: [a]}
  d: {run: "sleep 0.2", needs: [b, c]}
  e: {run: "true"}
Y
	run "$WSPX" run -j 3 --trace t.json --events ev.json jobs.yaml
	[ "$status" -eq 0 ]
	for f in t.json ev.json; do
		run "$WSPX" report "$f"
		echo "$output"
		[ "$status" -eq 0 ]
		grep -qx 'jobs             5' <<< "$output"
		grep -q '^critical path    3 jobs, ' <<< "$output"
		[ "$(sed -n '/^critical path/,$p' <<< "$output" | sed 1d |
		    awk '{print $2}' | tr '\n' ' ')" = "a b d " ]
		grep -q 'of 3 slots$' <<< "$output"
	done
}

@test "report: a joblog's slot handed on within its rounding (1 ms) is one slot, whatever the floating point makes of it" {
	local a b
	# jobs 3 and 4 start 1 ms before 1 and 2 end, as the joblog's
	# rounded times can show a slot handed on at once
	for a in 0.101 0.201 0.301 0.501 0.701; do
		printf 'Seq\tHost\tStarttime\tJobRuntime\tSend\tReceive\tExitval\tSignal\tCommand\n' > log
		printf '%s\t:\t1700000000.000\t%10s\t0\t0\t0\t0\tsleep\n' 1 $a 2 $a >> log
		b=${a#0}
		b=1700000000${b%1}0	# (a - 0.001 after the start)
		printf '%s\t:\t%s\t     0.300\t0\t0\t0\t0\tsleep\n' \
		    3 "$b" 4 "$b" >> log
		run "$WSPX" report log
		[ "$status" -eq 0 ]
		grep -q '^parallelism .*, 2 at most, of 2 slots$' <<< "$output"
	done
}

@test "report: a joblog, with its slots given back and no critical path" {
	run "$WSPX" -j 2 --joblog log 'sleep 0.3; echo' ::: 1 2 3 4
	[ "$status" -eq 0 ]
	run "$WSPX" report log
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "log (joblog)" ]
	grep -qx 'jobs             4' <<< "$output"
	grep -qx 'CPU time         not in a joblog' <<< "$output"
	grep -q '^parallelism .*, 2 at most, of 2 slots$' <<< "$output"
	grep -q '^critical path    not in a joblog' <<< "$output"
	[ "$(grep -c 'sleep 0.3; echo [1-4]$' <<< "$output")" -eq 4 ]
}

@test "report: retries are attempts of one job; a timeout is said" {
	run "$WSPX" --retries 2 --joblog log --events ev.json false ::: 1
	[ "$status" -eq 1 ]
	run "$WSPX" report ev.json
	echo "$output"
	[ "$status" -eq 0 ]
	grep -qx 'jobs             1, 1 failed (3 attempts)' <<< "$output"
	run "$WSPX" --timeout 0.2 --trace t.json 'sleep 5' ::: 1
	[ "$status" -eq 1 ]
	run "$WSPX" report t.json
	[ "$status" -eq 0 ]
	grep -q 'sleep 5 1 (timed out)$' <<< "$output"
}

# png_colors FILE: the distinct colours of a PNG (8-bit RGB or RGBA, as
# rsvg-convert writes), as rrggbb lines with their pixel counts.
png_colors() {
	python3 - "$1" <<'PY'
import struct, sys, zlib, collections
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n"
pos, idat = 8, b""
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b"IHDR":
        w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
    elif kind == b"IDAT":
        idat += body
    pos += 12 + n
assert depth == 8 and ctype in (2, 6), (depth, ctype)
bpp = 3 if ctype == 2 else 4
raw, stride, prev, out = zlib.decompress(idat), w * bpp, None, []
for y in range(h):
    f, row = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = row[i - bpp] if i >= bpp else 0
        b = prev[i] if prev else 0
        c = prev[i - bpp] if prev and i >= bpp else 0
        if f == 1: row[i] = (row[i] + a) & 255
        elif f == 2: row[i] = (row[i] + b) & 255
        elif f == 3: row[i] = (row[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            row[i] = (row[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    prev = row
    out.append(row)
count = collections.Counter()
for row in out:
    for x in range(w):
        count["%02x%02x%02x" % tuple(row[x * bpp:x * bpp + 3])] += 1
for k, v in count.items():
    print(k, v)
PY
}

@test "report --svg: valid XML, renders to a PNG with the bars' colours, a title per bar" {
	diamond
	run "$WSPX" report --svg run.svg diamond.json
	[ "$status" -eq 0 ]
	xmllint --noout run.svg
	rsvg-convert run.svg -o run.png
	run png_colors run.png
	[ "$status" -eq 0 ]
	# the ok green and the failed red fill many pixels each
	[ "$(awk '$1 == "43a047" {print $2}' <<< "$output")" -gt 1000 ]
	[ "$(awk '$1 == "e53935" {print $2}' <<< "$output")" -gt 1000 ]
	# hover titles name the jobs; the path is outlined (3 bars)
	for j in a b c d; do
		grep -q "<title>$j: " run.svg
	done
	[ "$(grep -c 'stroke="#000" stroke-width="1.5"><title>' run.svg)" -eq 3 ]
	grep -q '<title>c: 0.50s, ok</title>' run.svg
	grep -q '<title>d: 2.00s, failed</title>' run.svg
}

@test "report --svg: 100,000 jobs merge into a bounded picture" {
	python3 - <<'PY'
import json
with open("big.json", "w") as f:
    f.write("[\n")
    for i in range(100000):
        slot = i % 8 + 1
        f.write(json.dumps({"name": "job %d" % i, "ph": "X",
            "ts": (i // 8) * 1000, "dur": 900, "pid": 1, "tid": slot,
            "cat": "ok", "args": {"seq": i + 1, "command": "x",
            "exit": 0 if i % 1000 else 1, "attempt": 1, "bytes": 0}}) + ",\n")
    f.write('{"name": "process_name", "ph": "M", "pid": 1, "tid": 0, "args": {"name": "wspx"}}\n]\n')
PY
	run "$WSPX" report --svg big.svg big.json
	[ "$status" -eq 0 ]
	grep -qx 'jobs             100000, 100 failed' <<< "$output"
	xmllint --noout big.svg
	# at most a rect a pixel column a row, whatever the jobs
	[ "$(grep -c '<rect' big.svg)" -lt 10000 ]
	[ "$(wc -c < big.svg)" -lt 2000000 ]
	grep -q '<title>[0-9]* jobs, [0-9]* not ok</title>' big.svg
}

@test "report: a trace cut inside its last event is read up to it, with a warning" {
	diamond
	head -c -120 diamond.json | sed '$d' > cut.json
	printf '{"name": "e", "ph": "X", "ts": 1' >> cut.json
	run "$WSPX" report cut.json
	echo "$output"
	[ "$status" -eq 0 ]
	grep -q 'cut.json: its last event is cut short; left out' <<< "$output"
	grep -qx 'jobs             4, 1 failed' <<< "$output"
}

@test "report: bad files and options are errors that name them" {
	run "$WSPX" report
	[ "$status" -eq 255 ]
	grep -q 'report: which file' <<< "$output"
	run "$WSPX" report nosuch.json
	[ "$status" -eq 255 ]
	grep -q 'report: cannot open nosuch.json: No such file' <<< "$output"
	printf '[\n{"name": "a", "ph": "X", "ts": 0,\n  "dur": tru}\n]\n' > bad.json
	run "$WSPX" report bad.json
	[ "$status" -eq 255 ]
	grep -qx 'wspx: report: bad.json:3:10: not a JSON value' <<< "$output"
	printf '[{"ph": "X"} {"ph": "X"}]' > bad2.json
	run "$WSPX" report bad2.json
	[ "$status" -eq 255 ]
	grep -qx 'wspx: report: bad2.json:1:14: a trace needs , or ] after an event' <<< "$output"
	printf 'hello\n' > text
	run "$WSPX" report text
	[ "$status" -eq 255 ]
	grep -q 'text:1:1: not a trace (--trace), an events file' <<< "$output"
	printf 'Seq\tHost\tStarttime\tJobRuntime\tSend\tReceive\tExitval\tSignal\tCommand\n1\t:\tnow\t1\t0\t0\t0\t0\tx\n' > log
	run "$WSPX" report log
	[ "$status" -eq 255 ]
	grep -q 'log:2:5: Starttime is not a number' <<< "$output"
	run "$WSPX" report a.json b.json
	[ "$status" -eq 255 ]
	grep -q 'report: one FILE, not a.json and b.json' <<< "$output"
	run "$WSPX" report --top x log
	[ "$status" -eq 255 ]
	run "$WSPX" report --frobnicate log
	[ "$status" -eq 255 ]
	grep -q 'report: unknown option --frobnicate' <<< "$output"
}

@test "report --svg into a directory that is not there: an error, and no file" {
	diamond
	run "$WSPX" report --svg nodir/run.svg diamond.json
	[ "$status" -eq 255 ]
	grep -q 'report: --svg nodir/run.svg: No such file' <<< "$output"
	[ ! -e nodir ]
	# a picture that is written is whole: no temporary left beside it
	run "$WSPX" report --svg run.svg diamond.json
	[ "$status" -eq 0 ]
	[ "$(ls | grep -c '^run\.svg')" -eq 1 ]
}

@test "-- report runs a program named report, as the stdin mode's command" {
	mkdir bin
	printf '#!/bin/sh\necho "report got $1"\n' > bin/report
	chmod +x bin/report
	run env PATH="$PWD/bin:$PATH" "$WSPX" -- report ::: x
	[ "$status" -eq 0 ]
	[ "$output" = "report got x" ]
}

@test "report - reads the standard input; a run's options before report are refused" {
	diamond
	run "$WSPX" report - < diamond.json
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "- (trace)" ]
	grep -qx 'jobs             4, 1 failed' <<< "$output"
	run "$WSPX" -j 4 report diamond.json
	[ "$status" -eq 255 ]
	grep -q 'report takes its own options, after it, not -j' <<< "$output"
}

@test "report: a run with no job (a no-op build) has zeros and an empty picture" {
	printf '[\n{"name": "process_name", "ph": "M", "pid": 1, "tid": 0, "args": {"name": "wspx"}}\n]\n' > empty.json
	run "$WSPX" report --svg empty.svg empty.json
	echo "$output"
	[ "$status" -eq 0 ]
	grep -qx 'wall time        0.00s' <<< "$output"
	grep -qx 'jobs             0' <<< "$output"
	xmllint --noout empty.svg
}

@test "report: hostile numbers are errors or zeros, never a hang or a wrong cast" {
	printf '[{"name":"a","ph":"X","ts":0,"dur":1e400,"pid":1,"tid":1}]' > inf.json
	run timeout 20 "$WSPX" report --svg inf.svg inf.json
	[ "$status" -eq 255 ]
	grep -qx 'wspx: report: inf.json:1:36: a number too large' <<< "$output"
	[ "$(ls | grep -c '^inf\.svg')" -eq 0 ]
	# huge, negative and fractional tids, pids, seqs; a span that ends
	# before it starts
	printf '[{"name":"a","ph":"X","ts":5,"dur":-3,"pid":-1,"tid":1e20,"args":{"seq":-1,"attempt":1e300}},\n{"name":"b","ph":"X","ts":1e300,"dur":1e306,"pid":1e9,"tid":-4}]\n' > odd.json
	run timeout 20 "$WSPX" report --svg odd.svg odd.json
	echo "$output"
	[ "$status" -eq 0 ]
	xmllint --noout odd.svg
	# events whose times are too far apart for their difference (found
	# by tests/fuzz/runlog)
	printf '{"event": "end", "seq": 1, "slot": 1, "start": -1.7e308, "end": -1.7e308, "exit": 0}\n{"event": "end", "seq": 2, "slot": 1, "start": 1.7e308, "exit": 0}\n' > far.jsonl
	run "$WSPX" report --svg far.svg far.jsonl
	[ "$status" -eq 255 ]
	grep -qx "wspx: report: far.jsonl:1:1: an event's start or end is out of range" <<< "$output"
	printf 'Seq\tHost\tStarttime\tJobRuntime\tSend\tReceive\tExitval\tSignal\tCommand\n1\t:\tnan\t1\t0\t0\t0\t0\tx\n' > log
	run "$WSPX" report log
	[ "$status" -eq 255 ]
	grep -q 'log:2:5: Starttime is not a number' <<< "$output"
	printf 'Seq\tHost\tStarttime\tJobRuntime\tSend\tReceive\tExitval\tSignal\tCommand\n1\t:\t100\t-3\t0\t0\t0\t0\tx\n' > log
	run "$WSPX" report log
	[ "$status" -eq 255 ]
	grep -q 'log:2:9: JobRuntime is negative' <<< "$output"
}

@test "report: a joblog's rows: nine columns, CRLF ends, slots per host" {
	printf 'Seq\tHost\tStarttime\tJobRuntime\tSend\tReceive\tExitval\tSignal\n1\t:\t100\t1\t0\t0\t0\t0\n' > log8
	run "$WSPX" report log8
	[ "$status" -eq 255 ]
	grep -q 'log8:2:.*: a joblog row has nine columns' <<< "$output"
	printf 'Seq\tHost\tStarttime\tJobRuntime\tSend\tReceive\tExitval\tSignal\tCommand\r\n1\t:\t100\t1\t0\t0\t0\t0\tjob one\r\n' > logcr
	run "$WSPX" report logcr
	[ "$status" -eq 0 ]
	grep -q '  job one$' <<< "$output"
	{
		printf 'Seq\tHost\tStarttime\tJobRuntime\tSend\tReceive\tExitval\tSignal\tCommand\n'
		for i in 1 2 3 4; do
			printf '%d\th%d\t100\t1\t0\t0\t0\t0\tjob %d\n' "$i" $(( i % 2 + 1 )) "$i"
		done
	} > hosts.log
	run "$WSPX" report hosts.log
	echo "$output"
	[ "$status" -eq 0 ]
	grep -qx 'parallelism      4.00 on average, 4 at most, of 4 slots' <<< "$output"
}

@test "report: an attempt of no length does not raise the peak; back to back is not at once" {
	for r in '1 100 101' '2 102 102' '3 103 104' '4 104 105'; do
		set -- $r
		printf '{"event": "end", "seq": %d, "slot": 1, "command": "j%d", "start": %d, "end": %d, "exit": 0, "attempt": 1}\n' "$1" "$1" "$2" "$3"
	done > ev.json
	run "$WSPX" report ev.json
	echo "$output"
	[ "$status" -eq 0 ]
	grep -q '^parallelism .*, 1 at most, of 1 slot$' <<< "$output"
}

@test "report: a job's name over 200 bytes keeps the critical path right" {
	long=$(printf 'x%.0s' $(seq 230))
	cat > jobs.yaml <<Y
jobs:
  $long: {run: "sleep 0.5"}
  b: {run: "true"}
  c: {run: "true", needs: [$long, b]}
Y
	run "$WSPX" run --trace t.json jobs.yaml
	[ "$status" -eq 0 ]
	run "$WSPX" report t.json
	echo "$output"
	[ "$status" -eq 0 ]
	grep -q '^critical path    2 jobs, ' <<< "$output"
	grep -q "  $long\$" <<< "$output"
}

@test "report: a trace cut inside a string of its last event is read up to it" {
	diamond
	head -n 5 diamond.json > cut.json
	printf '{"name": "e", "ph": "X", "cat": "o' >> cut.json
	run "$WSPX" report cut.json
	echo "$output"
	[ "$status" -eq 0 ]
	grep -q 'its last event is cut short; left out' <<< "$output"
	grep -qx 'jobs             3' <<< "$output"
}

@test "report: error places are where the bad value starts" {
	printf '[\n  12345,\n]\n' > n.json
	run "$WSPX" report n.json
	[ "$status" -eq 255 ]
	grep -qx 'wspx: report: n.json:2:3: a trace event is an object' <<< "$output"
	printf '{"event": "end"}\n  {"seq": 1}\n' > ev.json
	run "$WSPX" report ev.json
	[ "$status" -eq 255 ]
	grep -qx 'wspx: report: ev.json:2:3: an event needs its "event" key' <<< "$output"
}

@test "report --svg: names with broken UTF-8, surrogates, U+FFFF and markup stay valid XML" {
	printf '[{"name":"a \355\240\200 b \340\200\200 c \364\220\200\200 d \\uffff e <&\\"> \\u0001","ph":"X","ts":0,"dur":1000000,"pid":1,"tid":1,"args":{"seq":1,"exit":0}}]' > u.json
	run "$WSPX" report --svg u.svg u.json
	[ "$status" -eq 0 ]
	xmllint --noout u.svg
	grep -q '<title>a ??? b ??? c ???? d ??? e &lt;&amp;&quot;&gt; ?: ' u.svg
}

@test "report --svg -: refused; a picture that cannot be written prints no report" {
	diamond
	run "$WSPX" report --svg - diamond.json
	[ "$status" -eq 255 ]
	grep -q -- '--svg' <<< "$output"
	run --separate-stderr "$WSPX" report --svg nodir/x.svg diamond.json
	[ "$status" -eq 255 ]
	[ -z "$output" ]
}
