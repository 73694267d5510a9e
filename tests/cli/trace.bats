#!/usr/bin/env bats
# --trace FILE: the run in the Chrome trace event format (wspx(1),
# "Watching a run"): valid JSON with the format's fields on every event, a
# span per attempt named by its job, instants for retries, timeouts and
# stops, counter events; whole events, and only the closing ] missing,
# after SIGKILL.

load helper

# check FILE [ADD]: FILE (with ADD appended) parses as a JSON array whose
# every event has the fields its phase needs; prints "PH NAME" per event.
check() {
	python3 - "$1" "${2:-}" <<'PY'
import json, sys
text = open(sys.argv[1]).read() + sys.argv[2]
events = json.loads(text)
assert isinstance(events, list) and events, "not a non-empty array"
need = {"X": ("ts", "dur"), "i": ("ts", "s"), "C": ("ts", "args"),
        "M": ("args",)}
for e in events:
    assert isinstance(e.get("name"), str), e
    assert e.get("ph") in need, e
    assert isinstance(e.get("pid"), int) and isinstance(e.get("tid"), int), e
    for k in need[e["ph"]]:
        assert k in e, (k, e)
    if "ts" in e:
        assert isinstance(e["ts"], (int, float)) and e["ts"] >= 0, e
    if e["ph"] == "X":
        assert e["dur"] >= 0, e
        for k in ("seq", "command", "attempt", "bytes"):
            assert k in e["args"], (k, e)
    if e["ph"] == "C":
        assert all(isinstance(v, (int, float)) for v in e["args"].values()), e
    print(e["ph"], e["name"])
PY
}

@test "a stdin run's trace is a JSON array of valid events: a span per job on its slot's track, counters, named tracks" {
	"$WSPX" -j2 --trace t.json 'echo {}' ::: a b c d > out
	[ "$(sort out | tr '\n' ' ')" = "a b c d " ]
	run check t.json
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(grep -c '^X echo ' <<< "$output")" -eq 4 ]
	for j in a b c d; do
		grep -qx "X echo $j" <<< "$output"
	done
	grep -qx 'M process_name' <<< "$output"
	grep -qx 'M thread_name' <<< "$output"
	grep -qx 'C jobs' <<< "$output"
	grep -qx 'C threads' <<< "$output"
	grep -qx 'C scheduler' <<< "$output"
	# (ended properly: the array is closed)
	[ "$(tail -c 2 t.json)" = "]" ]
	python3 -c '
import json, sys
ev = json.load(open("t.json"))
spans = [e for e in ev if e["ph"] == "X"]
assert {e["tid"] for e in spans} <= {1, 2}, spans
assert all(e["pid"] == 1 and e["args"]["exit"] == 0 for e in spans)
assert sorted(e["args"]["seq"] for e in spans) == [1, 2, 3, 4]
names = {(e["pid"], e["tid"]): e["args"]["name"] for e in ev
         if e["name"] == "thread_name"}
assert all(names[(1, e["tid"])] == "slot %d" % e["tid"] for e in spans)
# the last sample: everything done, nothing running
jobs = [e for e in ev if e["name"] == "jobs over"][-1]["args"]
assert jobs["done"] == 4 and jobs["failed"] == 0, jobs
'
}

@test "each attempt is a span, a retried one with a retry instant; a timeout is an instant" {
	"$WSPX" --trace t.json --retries 3 'exit 1; : {}' ::: x || true
	run check t.json
	[ "$status" -eq 0 ]
	python3 -c '
import json
ev = json.load(open("t.json"))
spans = [e for e in ev if e["ph"] == "X"]
retries = [e for e in ev if e["ph"] == "i" and e["name"] == "retry"]
n = len(spans)
assert n > 1 and [e["args"]["attempt"] for e in spans] == list(
    range(1, n + 1)), spans
assert all(e["name"] == "exit 1; : x" and e["cat"] == "failed" and
           e["args"]["exit"] == 1 for e in spans), spans
# (every attempt but the last is followed by another)
assert len(retries) == n - 1, retries
'
	run "$WSPX" --trace t2.json --timeout 0.2 'sleep 30; : {}' ::: x
	[ "$status" -ne 0 ]
	run check t2.json
	[ "$status" -eq 0 ]
	grep -qx 'i timeout' <<< "$output"
	grep -qx 'X sleep 30; : x' <<< "$output"
}

@test "a job file's trace names each span by its job; a halt is an instant" {
	cat > jobs.yaml <<'Y'
jobs:
  first: {run: "echo one"}
  second: {needs: first, run: "exit 3"}
  third: {needs: first, run: "true"}
Y
	run "$WSPX" run --trace t.json --halt now,fail=1 -j1 jobs.yaml
	[ "$status" -ne 0 ]
	run check t.json
	echo "$output"
	[ "$status" -eq 0 ]
	grep -qx 'X first' <<< "$output"
	grep -qx 'X second' <<< "$output"
	grep -qx 'i halted by --halt now,fail=1' <<< "$output"
	python3 -c '
import json
ev = json.load(open("t.json"))
s = [e for e in ev if e["ph"] == "X" and e["name"] == "second"][0]
assert s["cat"] == "failed" and s["args"]["exit"] == 3, s
assert "exit 3" in s["args"]["command"], s
'
}

@test "a builtin's span is on the track of the pool worker that ran it" {
	cat > jobs.yaml <<'Y'
jobs:
  cmd: {run: "true"}
  note: {builtin: echo, with: {text: [hi]}, needs: [cmd]}
Y
	run "$WSPX" run --trace t.json jobs.yaml
	[ "$status" -eq 0 ]
	run check t.json
	[ "$status" -eq 0 ]
	python3 -c '
import json
ev = json.load(open("t.json"))
n = [e for e in ev if e["ph"] == "X" and e["name"] == "note"]
c = [e for e in ev if e["ph"] == "X" and e["name"] == "cmd"]
assert len(n) == 1 and n[0]["tid"] > 1000000, n
assert len(c) == 1 and 1 <= c[0]["tid"] < 1000000, c
assert n[0]["args"]["needs"] == ["cmd"] and c[0]["args"]["needs"] == [], n
names = {e["tid"]: e["args"]["name"] for e in ev
         if e["name"] == "thread_name"}
assert names[n[0]["tid"]] == "worker %d" % (n[0]["tid"] - 1000000), names
assert names[c[0]["tid"]] == "slot %d" % c[0]["tid"], names
over = [e for e in ev if e["name"] == "run over"]
assert len(over) == 1 and over[0]["args"]["jobs"] == 2, over
for k in ("wall", "cpu_user", "cpu_system", "slots", "exit_status"):
    assert k in over[0]["args"], k
'
}

# The number of spans in the trace $1 so far.
spans() {
	grep -c '"ph": "X"' "$1" || true
}

@test "after SIGKILL mid-run the trace holds whole events and lacks only the closing ]" {
	"$WSPX" -j1 --trace t.json \
	    'if [ {} = 3 ]; then echo $$ > pid; exec sleep 30; fi; echo {}' \
	    ::: 1 2 3 > /dev/null &
	local w=$!
	waitfile pid 30
	waituntil test "$(spans t.json)" -ge 2
	kill -KILL "$w"
	wait "$w" || true
	kill "$(cat pid)" 2>/dev/null || true
	[ "$(tail -c 1 t.json)" != "]" ]
	run check t.json
	[ "$status" -ne 0 ]
	run check t.json "]"
	echo "$output"
	[ "$status" -eq 0 ]
	grep -q '^X if \[ 1 = 3 \]; then' <<< "$output"
	grep -q '^X if \[ 2 = 3 \]; then' <<< "$output"
	# wspx report reads it as the viewers do, without the ]
	run "$WSPX" report t.json
	[ "$status" -eq 0 ]
	grep -q '^jobs  *2$' <<< "$output"
}

@test "a SIGTERM that stops the run is an instant on every track" {
	"$WSPX" -j1 --trace t.json 'echo $$ > pid; exec sleep 30; : {}' ::: 1 &
	local w=$!
	waitfile pid 30
	kill -TERM "$w"
	wait "$w" || true
	run check t.json
	[ "$status" -eq 0 ]
	grep -qx 'i interrupted by SIGTERM' <<< "$output"
	grep -qx 'X echo $$ > pid; exec sleep 30; : 1' <<< "$output"
}

@test "--trace - is refused, and a file that cannot be opened is an error before any job" {
	run "$WSPX" --trace - touch ran ::: 1
	[ "$status" -eq 255 ]
	[[ "$output" == *"--trace"*"'-'"*"is not a file"* ]]
	[ ! -e ran ]
	run "$WSPX" --trace no/such/dir/t.json touch ran ::: 1
	[ "$status" -eq 255 ]
	[[ "$output" == *"--trace no/such/dir/t.json: No such file or directory"* ]]
	[ ! -e ran ]
	# (one that cannot be written, too: the first event is written at
	# once)
	run "$WSPX" --trace /dev/full touch ran ::: 1
	[ "$status" -eq 255 ]
	[[ "$output" == *"--trace /dev/full: No space left on device"* ]]
	[ ! -e ran ]
	run "$WSPX" run --trace /dev/full nothing.yaml
	[ "$status" -eq 255 ]
}

@test "a trace that cannot be written while the run goes stops the run, and keeps whole events" {
	# (a file size limit of 4 KiB: wspx ignores SIGXFSZ, its write
	# fails with EFBIG; the jobs get the signal's default back)
	run bash -c 'ulimit -f 4; "$WSPX" -j2 --trace t.json "echo {}" ::: $(seq 500)'
	echo "$output" | tail -5
	[ "$status" -eq 255 ]
	[[ "$output" == *"--trace t.json: File too large"* ]]
	# (stopped: not every job ran)
	[ "$(grep -cx '[0-9]*' <<< "$output")" -lt 500 ]
	[ "$(wc -c < t.json)" -le 4096 ]
	if [ "$(tail -c 2 t.json)" = "]" ]; then
		run check t.json
	else
		run check t.json "]"
	fi
	[ "$status" -eq 0 ]
	grep -q '^X echo ' <<< "$output"
}
