#!/usr/bin/env bats
# -p, --interactive: a question on the terminal before each job, as GNU
# parallel asks it; a job declined does not run, and counts as failed.

load helper
load gnu

# Run "$@" on a terminal of its own (a pty), answering the questions it
# asks ("?..." on the screen) with the comma-separated answers in $1, in
# turn, "n" once they are used up; print what the terminal showed, and
# exit with the command's status.
answering() {
	python3 -c '
import os, pty, sys
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
        os.write(fd, a.encode() + b"\n")
        asked += 1
_, st = os.waitpid(pid, 0)
sys.stdout.write(seen.decode("latin1").replace("\r", ""))
sys.exit(os.waitstatus_to_exitcode(st))' "$@"
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
	answering 'y,y,y,y' "$WSPX" -p -j4 -k 'echo {}' ::: 1 2 3 4 > tty
	[ "$(grep -c '^echo [1-4] ?\.\.\.y$' tty)" -eq 4 ]
	[ "$(grep -cx '[1-4]' tty)" -eq 4 ]
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
}
