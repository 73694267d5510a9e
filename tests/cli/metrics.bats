#!/usr/bin/env bats
# --metrics (JSON at exit) and --stats (text at exit): the runtime's own
# counters, and job runtime percentiles.

load helper

# python3: load the JSON file $1 and run the assertions in $2 on it (m).
checkjson() {
	python3 -c 'import json, sys
m = json.load(open(sys.argv[1]))
exec(sys.argv[2])' "$1" "$2"
}

@test "--metrics writes JSON whose counters add up" {
	seq 25 | "$WSPX" -j3 --metrics m.json 'echo {}; [ $(({} % 5)) -ne 0 ]' \
	    > out || [ $? -eq 5 ]
	[ "$(wc -l < out)" -eq 25 ]
	checkjson m.json '
j = m["jobs"]
assert j["total"] == 25 and j["executed"] == 25, j
assert j["succeeded"] == 20 and j["failed"] == 5 and j["skipped"] == 0, j
p = m["pool"]
assert p["executed"] == 25, p		# each job runs once in the pool
assert p["workers"] >= 1
for k in ("stolen", "injected", "sleeps", "wakes"):
    assert isinstance(p[k], int) and p[k] >= 0, k
assert p["injected"] <= p["executed"]
b = m["blocking"]
assert b["executed"] == 25 and b["cap"] == 3, b
assert 1 <= b["threads"] <= 3 and 0 <= b["idle_threads"] <= b["threads"]
assert b["queue_depth"] == 0
r = m["runtime"]
assert 0 < r["p50"] <= r["p90"] <= r["p99"] <= r["max"] < 10, r
assert m["wall"] > 0 and m["cpu"]["user"] >= 0 and m["cpu"]["system"] >= 0
assert m["exit_status"] == 5
'
}

@test "--metrics percentiles follow the job runtimes" {
	# 9 jobs of about 0s and one of 1s: p50 and p90 short, p99 and max
	# the long one (the 99th percentile of 10 jobs is the longest)
	"$WSPX" -j10 --metrics m.json 'sleep {}' ::: 0 0 0 0 0 0 0 0 0 1
	checkjson m.json '
r = m["runtime"]
assert r["p50"] <= r["p90"] < r["p99"] / 2, r
assert 1 <= r["p99"] <= r["max"] < 10 and r["max"] - r["p99"] < 0.02, r
'
}

@test "--metrics counts the jobs a signal kept from starting as skipped" {
	seq 100 | "$WSPX" -j1 --metrics m.json 'touch started.{}; sleep 10' 3>&- &
	pid=$!
	waitfile started.1
	kill -TERM $pid
	waitstatus $pid
	[ "$st" -eq 143 ]
	checkjson m.json '
j = m["jobs"]
assert j["executed"] >= 1 and j["skipped"] >= 1, j
assert j["executed"] + j["skipped"] == j["total"], j
assert m["exit_status"] == 143
'
}

@test "--metrics with a dry run, and with no input" {
	"$WSPX" --dry-run --metrics m.json echo ::: a b c > out
	checkjson m.json 'assert m["jobs"]["executed"] == 3 and m["pool"]["executed"] == 3'
	"$WSPX" --metrics m.json echo < /dev/null
	checkjson m.json 'assert m["jobs"]["total"] == 0 and m["runtime"]["max"] == 0'
}

@test "--metrics: a file that cannot be written is an error before any job" {
	run "$WSPX" --metrics nodir/m.json touch ran ::: a
	[ "$status" -eq 255 ]
	[[ "$output" == *"--metrics nodir/m.json"* ]]
	[ ! -e ran ]
	run "$WSPX" --metrics '' echo ::: a
	[ "$status" -eq 255 ]
	[[ "$output" == *"--metrics"* ]]
}

@test "--stats prints the counters to stderr at exit, and nothing else" {
	"$WSPX" -j2 --stats echo ::: a b c > out 2> err
	[ "$(sort out)" = "$(printf 'a\nb\nc')" ]
	grep -q '^wspx: 3 jobs: 3 succeeded, 0 failed, 0 skipped' err
	grep -q 'job runtime: p50 .*, p90 .*, p99 .*, max ' err
	grep -q 'work-stealing pool, 1 worker(s): executed 3, stolen [0-9]*, injected [0-9]*, sleeps [0-9]*, wakes [0-9]*' err
	grep -q 'blocking pool, cap 2: executed 3; at the end [0-9]* threads, [0-9]* idle, 0 queued' err
	grep -q 'CPU: wspx .*s user, .*s system; jobs .*s user' err
	[ "$(wc -l < err)" -eq 5 ]
}

@test "--metrics - writes the JSON to stdout after all the jobs' output" {
	"$WSPX" -k --metrics - echo ::: a b c > out
	[ "$(head -3 out)" = "$(printf 'a\nb\nc')" ]
	tail -n +4 out > m.json
	checkjson m.json 'assert m["jobs"]["total"] == 3, m'
	[ ! -e ./- ]
}
