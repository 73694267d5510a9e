#!/usr/bin/env bats
# -p, --interactive: a question on the terminal before each job, as GNU
# parallel asks it; a job declined does not run, and counts as failed.

load helper
load gnu

# Run "$@" on a terminal of its own (a pty), answering the questions it
# asks ("?..." on the screen) with the comma-separated answers in $1, in
# turn, "n" once they are used up (an answer TERM sends the command
# SIGTERM instead); print what the terminal showed, and exit with the
# command's status (128 + N if signal N killed it).
answering() {
	python3 -c '
import os, pty, signal, sys
answers = sys.argv[1].split(",") if sys.argv[1] else []
pid, fd = pty.fork()
if pid == 0:
    os.execvp(sys.argv[2], sys.argv[2:])
seen, asked = b"", 0
while True:
    try:
        d = os.read(fd, 4096)
    except OSError:
        break
    if not d:
        break
    seen += d
    while seen.count(b"?...") > asked:
        a = answers[asked] if asked < len(answers) else "n"
        if a == "TERM":
            os.kill(pid, signal.SIGTERM)
        else:
            os.write(fd, a.encode() + b"\n")
        asked += 1
_, st = os.waitpid(pid, 0)
sys.stdout.write(seen.decode("latin1").replace("\r", ""))
code = os.waitstatus_to_exitcode(st)
sys.exit(128 - code if code < 0 else code)' "$@"
}

# The same answers to GNU parallel and wspx, with the given arguments;
# the jobs' output in NAME.out, the joblog in NAME.log, the screen in
# NAME.tty, the status in NAME.rc.
bothanswer() {
	needgnu
	local answers=$1 prog name
	shift
	for name in gnu wspx; do
		prog=parallel
		[ "$name" = wspx ] && prog=$WSPX
		answering "$answers" sh -c 'n=$1; shift
		    "$0" --joblog "$n.log" "$@" > "$n.out"' \
		    "$prog" "$name" "$@" > "$name.tty" && echo 0 > "$name.rc" ||
		    echo $? > "$name.rc"
	done
}

@test "-p asks before each job and runs it on y; a job declined counts as failed, -2 in the joblog, as GNU parallel" {
	bothanswer 'y,n,Y, yes,no,' -p -j1 echo ::: a b c d e f
	[ "$(cat wspx.out)" = "$(printf 'a\nc\nd')" ]
	cmp gnu.out wspx.out
	[ "$(cat gnu.rc)" -eq 3 ]
	[ "$(cat wspx.rc)" -eq 3 ]
	[ "$(cut -f 7,9 wspx.log)" = "$(cut -f 7,9 gnu.log)" ]
	[ "$(cut -f 7 wspx.log | tr '\n' ' ')" = "Exitval 0 -2 0 0 -2 -2 " ]
	# the questions, the command and " ?..." each, and the answers
	grep -qx 'echo b ?...n' wspx.tty
	grep -qx 'echo d ?... yes' wspx.tty
	[ "$(grep -c '?\.\.\.' wspx.tty)" -eq 6 ]
	grep -q "job 2, the first to fail: declined at the -p question: echo b" wspx.tty
	# --interactive, and all declined
	bothanswer 'n,n' --interactive echo ::: a b
	[ ! -s wspx.out ]
	[ "$(cat wspx.rc)" -eq 2 ]
	[ "$(cat gnu.rc)" -eq 2 ]
}

@test "-p with jobs at once asks about each once, one question at a time" {
	# (the jobs' output to a file, not to the screen of the questions)
	answering 'y,y,y,y' sh -c '"$0" -p -j4 -k "echo {}" ::: 1 2 3 4 > out' \
	    "$WSPX" > tty
	[ "$(grep -c '^echo [1-4] ?\.\.\.y$' tty)" -eq 4 ]
	[ "$(cat out)" = "$(printf '1\n2\n3\n4')" ]
}

@test "-p with no terminal is an error before any job; a dry run asks nothing" {
	run setsid -w "$WSPX" -p touch {} ::: made
	[ "$status" -eq 255 ]
	[[ "$output" == *"-p asks on the terminal, and there is none"* ]]
	[ ! -e made ]
	run setsid -w "$WSPX" -p --dry-run echo ::: a
	[ "$status" -eq 0 ]
	[ "$output" = "echo a" ]
	printf 'jobs:\n  a: {run: "true"}\n' > jobs.yaml
	run "$WSPX" run -p jobs.yaml
	[ "$status" -eq 255 ]
	[[ "$output" == *"-p: not for a job file"* ]]
}

@test "a stop while -p asks gives the question up, with no answer waited for" {
	# with an hour of grace, wspx would wait that long for the job that
	# asks, were its question not given up
	run timeout 60 bash -c "$(declare -f answering); answering 'y,TERM' \
	    \"\$0\" --term-timeout 1h -p -j1 touch {} ::: a b" "$WSPX"
	[ "$status" -eq 143 ]
	[ -e a ]
	[ ! -e b ]
	[[ "$output" == *"touch b ?..."* ]]
}

@test "-p with --files: a job declined leaves no file and prints no name" {
	mkdir tmp
	local rc=0
	answering 'y,n' sh -c '"$0" -p -j1 -k --files --tmpdir tmp echo ::: a b \
	    > names' "$WSPX" > tty || rc=$?
	[ "$rc" -eq 1 ]
	[ "$(wc -l < names)" -eq 1 ]
	[ "$(cat "$(cat names)")" = a ]
	[ "$(ls tmp | wc -l)" -eq 1 ]
}

@test "-p: --events says a job declined was declined" {
	local rc=0
	answering 'n' "$WSPX" -p --events ev echo ::: a > tty || rc=$?
	[ "$rc" -eq 1 ]
	grep -q '"error": *"declined at the -p question"' ev
	[ "$(grep -c Success ev)" -eq 0 ]
}
