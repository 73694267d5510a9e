#!/usr/bin/env bats
# --events: a JSON line for every job's start and end, and a summary,
# written as they happen.

load helper

# python3: parse every line of $1 into evs, then run the assertions in $2.
checkevents() {
	python3 -c 'import json, sys
evs = [json.loads(l) for l in open(sys.argv[1])]
exec(sys.argv[2])' "$1" "$2"
}

@test "--events has one start and one end per job, then a summary" {
	seq 30 | "$WSPX" -j4 --events ev.jsonl \
	    'printf "%s\n" {}; [ {} -ne 7 ]' > out || [ $? -eq 1 ]
	checkevents ev.jsonl '
starts = [e for e in evs if e["event"] == "start"]
ends = [e for e in evs if e["event"] == "end"]
assert sorted(e["seq"] for e in starts) == list(range(1, 31))
assert sorted(e["seq"] for e in ends) == list(range(1, 31))
assert evs[-1]["event"] == "summary" and len(evs) == 61
s = evs[-1]
assert s["jobs"] == 30 and s["failed"] == 1 and s["succeeded"] == 29, s
assert s["exit_status"] == 1 and s["wall"] > 0
pos = {(e["event"], e["seq"]): i for i, e in enumerate(evs) if "seq" in e}
for e in ends:
    n = e["seq"]
    assert pos[("start", n)] < pos[("end", n)]
    assert 1 <= e["slot"] <= 4 and e["pid"] > 0
    assert e["command"] == "printf \"%%s\\n\" %d; [ %d -ne 7 ]" % (n, n), e
    assert e["start"] <= e["end"] and 0 <= e["runtime"] < 10
    assert e["exit"] == (1 if n == 7 else 0) and e["signal"] is None
    assert e["bytes"] == len(str(n)) + 1, e
'
}

@test "--events records a signal and a job that cannot start" {
	"$WSPX" --events ev.jsonl ::: 'kill -KILL $$' ./nonexistent 2> err ||
	    [ $? -eq 2 ]
	checkevents ev.jsonl '
ends = {e["command"]: e for e in evs if e["event"] == "end"}
k = ends["kill -KILL $$"]
assert k["signal"] == 9 and k["exit"] is None, k
n = ends["./nonexistent"]
assert n["exit"] is None and n["pid"] is None and "No such file" in n["error"], n
assert [e["event"] for e in evs].count("start") == 2
'
}

@test "--events - writes events to stdout and the jobs' output to stderr" {
	"$WSPX" --events - echo ::: a b > out 2> err
	checkevents out 'assert [e["event"] for e in evs].count("end") == 2'
	[ "$(sort err)" = "$(printf 'a\nb')" ]
}

@test "--events keeps hostile commands valid JSON" {
	printf '%s\0' 'a"b\c' "$(printf 'tab\there')" "$(printf '\001\377')" |
	    "$WSPX" -0 --events ev.jsonl printf '%s' > out
	checkevents ev.jsonl '
cmds = sorted(e["command"] for e in evs if e["event"] == "start")
assert len(cmds) == 3, cmds
assert any("a\"b\\c" in c for c in cmds), cmds
assert any("tab\there" in c for c in cmds), cmds
assert any("\u0001\u00ff" in c for c in cmds), cmds
'
}

@test "--events lines are written as jobs end, not at exit" {
	mkfifo ev
	"$WSPX" -j2 --events ev 'echo {}; [ {} = 1 ] || while [ ! -e go ]; do sleep 0.01; done' ::: 1 2 > out 3>&- &
	pid=$!
	exec 7< ev
	# job 1 ends while job 2 waits: its end event comes before the run ends
	while read -r line <&7; do
		case $line in *'"end"'*'"seq": 1'*) break ;; esac
	done
	[ ! -e go ]
	touch go
	cat <&7 > rest
	exec 7<&-
	waitstatus $pid
	[ "$st" -eq 0 ]
	grep -q '"summary"' rest
}

@test "--events: a file that cannot be written is an error before any job" {
	run "$WSPX" --events nodir/ev touch ran ::: a
	[ "$status" -eq 255 ]
	[[ "$output" == *"--events nodir/ev"* ]]
	[ ! -e ran ]
}
