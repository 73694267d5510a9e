#!/usr/bin/env bats
# Remote jobs over ssh (-S, --slf, --ssh): against a private sshd on
# 127.0.0.1 that setup_file starts (services.bash), so "remote" is this
# machine through a real ssh connection; the jobs prove it with
# $SSH_CONNECTION, which names the sshd's port.  The remote directory is
# by default wspx's current directory, the same path here, so the files
# a remote job makes are seen by the test.  Covered: slots, -k, exit
# statuses, a host that refuses connections and one that is lost, --tf,
# --return, --cleanup, --workdir, --env, what --timeout, SIGTERM and
# --halt now leave behind (nothing), the joblog's Host column, a job's
# own exit 255, --slf, and the errors.

load helper
load services

HEADER=$(printf 'Seq\tHost\tStarttime\tJobRuntime\tSend\tReceive\tExitval\tSignal\tCommand')

setup_file() {
	start_sshd
}

teardown_file() {
	stop_sshd
}

# A second sshd is stopped; a failed test must not leave wspx or a remote
# job (a process with $mark in its command line) behind.
teardown() {
	if [ -n "${sshd2:-}" ]; then
		"$SERVICES/sshd.sh" stop "$sshd2"
	fi
	[ -z "${BATS_TEST_COMPLETED:-}" ] || return 0
	[ -n "${pid:-}" ] && kill -KILL "$pid" 2> /dev/null
	[ -n "${mark:-}" ] && killwith "$mark"
	return 0
}

# Run wspx with --ssh $MYSSH and the arguments "$@": stdout in out,
# stderr in err, the exit status in $st (all shown if the test fails).
rx() {
	st=0
	"$WSPX" --ssh "$MYSSH" "$@" > out 2> err || st=$?
	{ echo "wspx $*: status $st, stderr:"; cat err; } >&2
}

# Succeed if every line of out has the form "ARG 127.0.0.1 PORT
# 127.0.0.1 $SSH_PORT" ($SSH_CONNECTION in the test sshd's session) and
# the ARGs are the numbers 1 to $1.
allremote() {
	[ "$(cut -d' ' -f1 out | sort -n)" = "$(seq "$1")" ] &&
	[ "$(awk -v p="$SSH_PORT" '$2 == "127.0.0.1" && $4 == "127.0.0.1" &&
	    $5 == p' out | wc -l)" -eq "$1" ]
}

@test "-S N/SPEC: the jobs run through the sshd, N at a time, each output whole" {
	rx -S "2/$LOGIN" "$(counting)" ::: 1 2 3 4 5 6
	[ "$st" -eq 0 ]
	allremote 6
	# two at once, never more
	[ "$(maxof conc)" -eq 2 ]
	[ ! -e run.1 ]
}

@test "-S SPEC without N/: -j counts against the host's CPUs" {
	rx -j 1 -S "$LOGIN" "$(counting 0.3)" ::: 1 2 3
	[ "$st" -eq 0 ]
	allremote 3
	[ "$(maxof conc)" -eq 1 ]
	# the default: one job per CPU of the host (this machine)
	rm conc
	rx -S "$LOGIN" "$(counting 0.3)" ::: 1 2 3 4 5
	[ "$st" -eq 0 ]
	allremote 5
	[ "$(maxof conc)" -le "$(nproc)" ]
}

@test "-k and --tag over ssh: the same output as the same jobs run here" {
	job='sleep 0.$((7 - {})); echo x{}; echo y{}'
	rx -k --tag -S "3/$LOGIN" "$job" ::: 1 2 3 4 5 6
	[ "$st" -eq 0 ]
	"$WSPX" -k --tag -j3 "$job" ::: 1 2 3 4 5 6 > local.out
	[ "$(wc -l < out)" -eq 12 ]
	diff local.out out
}

@test "exit statuses: wspx exits with the count of failed remote jobs" {
	rx -S "2/$LOGIN" 'exit {}' ::: 0 3 0 5
	[ "$st" -eq 2 ]
	lst=0
	"$WSPX" 'exit {}' ::: 0 3 0 5 || lst=$?
	[ "$lst" -eq 2 ]
	rx -S "$LOGIN" 'echo {}; exit {}' ::: 3
	[ "$st" -eq 1 ]
	[ "$(cat out)" = 3 ]
}

@test "a host that refuses connections is left out with a warning; the others run every job" {
	rx -S "1/$BADLOGIN,2/$LOGIN" 'echo {} $SSH_CONNECTION' ::: 1 2 3 4 5 6
	[ "$st" -eq 0 ]
	allremote 6
	# the spec's wording: "wspx: host SPEC: cannot connect (ssh exit 255):
	# SSH'S LAST STDERR LINE; not using it"; checked: the host, the
	# reason, ssh's own words, the outcome, on one line
	grep -E "^wspx: host (1/)?$BADLOGIN: cannot connect.*Connection refused.*; not using it$" err
	[ "$(grep -cF "$BADLOGIN" err)" -eq 1 ]
	# no host at all
	rx -S "$BADLOGIN" touch ran ::: 1
	[ "$st" -eq 255 ]
	grep -Fx 'wspx: no host to run jobs on' err
	[ ! -e ran ]
	[ ! -s out ]
}

@test "a host whose connection is lost: its job runs again on another, the host is left out" {
	# a second sshd, with the same client key; the job that lands on it
	# stops that sshd and ends its own connection
	sshd2=$PWD/sshd2
	mkdir -m 700 "$sshd2"
	cp "$SSH_DIR"/client_key* "$sshd2"/
	p2=$(freeports 1)
	"$SERVICES/sshd.sh" start "$sshd2" "$p2"
	u=$$$RANDOM mark="lost$u"
	cat > lose <<'SH'
#!/bin/sh
# lose PORT DIR MARK: on the sshd of port PORT (state in DIR), stop that
# sshd, then kill this connection's own sshd process, and wait
case $SSH_CONNECTION in *" $1") ;; *) exit 0 ;; esac
echo "$3" >> lost
kill "$(cat "$2/sshd.pid")"
p=$$
while [ "$p" -gt 1 ]; do
	p=$(awk '{ print $4 }' "/proc/$p/stat")
	if [ "$(cat "/proc/$p/comm")" = sshd ]; then
		kill -9 "$p"
		break
	fi
done
sleep 30
SH
	chmod +x lose
	rx -S "1/root@127.0.0.1:$p2,1/$LOGIN" \
	    "./lose $p2 '$sshd2' '$mark'"' {}; echo {} $SSH_CONNECTION' ::: 1 2
	[ "$st" -eq 0 ]
	# one job got the lost host, and ran again on the other: both ended there
	[ "$(cat lost)" = "$mark" ]
	allremote 2
	grep -E "^wspx: host (1/)?root@127.0.0.1:$p2: connection lost.*; not using it$" err
}

@test "--tf, --return, --cleanup: files go to the remote --workdir and back" {
	mkdir -p local/in remote
	printf 'alpha\n' > local/in/a.txt
	printf 'beta\n' > local/in/b.txt
	rw=$PWD/remote
	cd local
	# the job runs in the remote directory, with the copy sent there
	job='pwd > {.}.out; tr a-z A-Z < {} >> {.}.out'
	rx -S "2/$LOGIN" --workdir "$rw" --tf {} --return {.}.out "$job" ::: in/a.txt in/b.txt
	[ "$st" -eq 0 ]
	[ "$(cat in/a.out)" = "$(printf '%s\nALPHA' "$rw")" ]
	[ "$(cat in/b.out)" = "$(printf '%s\nBETA' "$rw")" ]
	# without --cleanup, both files stay there
	for f in a.txt a.out b.txt b.out; do
		cmp "in/$f" "$rw/in/$f"
	done

	rm -r "$rw" in/a.out in/b.out
	rx -S "2/$LOGIN" --wd "$rw" --tf {} --return {.}.out --cleanup "$job" ::: in/a.txt in/b.txt
	[ "$st" -eq 0 ]
	[ "$(cat in/a.out)" = "$(printf '%s\nALPHA' "$rw")" ]
	[ "$(cat in/b.out)" = "$(printf '%s\nBETA' "$rw")" ]
	# no file left there (directories may be: GNU parallel removes the
	# empty ones, up to a --workdir it made)
	[ -z "$(find "$rw" -type f 2> /dev/null)" ]

	# --trc FILE: --transfer --return FILE --cleanup
	rm in/a.out in/b.out
	rx -S "2/$LOGIN" --wd "$rw" --trc {.}.out "$job" ::: in/a.txt in/b.txt
	[ "$st" -eq 0 ]
	[ "$(cat in/a.out)" = "$(printf '%s\nALPHA' "$rw")" ]
	[ "$(cat in/b.out)" = "$(printf '%s\nBETA' "$rw")" ]
	[ -z "$(find "$rw" -type f 2> /dev/null)" ]
	# the inputs here are untouched
	[ "$(cat in/a.txt)" = alpha ]
	[ "$(cat in/b.txt)" = beta ]
}

@test "--env NAME: the remote job gets wspx's value of NAME, and only the named" {
	export WSPX_T1="it's \"quoted\" \$HOME \`x\`  two  spaces; *"
	export WSPX_T2=second WSPX_T3=not-named
	rx -S "$LOGIN" --env WSPX_T1 --env WSPX_T2 \
	    'printf "[%s] [%s] [%s]\n" "$WSPX_T1" "$WSPX_T2" "${WSPX_T3-unset}"; : {}' ::: 1
	[ "$st" -eq 0 ]
	[ "$(cat out)" = "[$WSPX_T1] [second] [unset]" ]
}

@test "--nice N: the remote job runs at niceness N on its host" {
	rx -S "$LOGIN" --nice 6 'nice | cat; : {}' ::: 1
	[ "$st" -eq 0 ]
	[ "$(cat out)" = 6 ]
}

@test "the remote directory: by default wspx's current directory's path; --wd . the same" {
	mkdir -p 'sub dir/x'
	cd 'sub dir/x'
	here=$(pwd -P)
	rx -S "$LOGIN" 'pwd; echo {} > made' ::: 1
	[ "$st" -eq 0 ]
	[ "$(cat out)" = "$here" ]
	[ "$(cat made)" = 1 ]
	rx -S "$LOGIN" --wd . 'pwd; : {}' ::: 1
	[ "$(cat out)" = "$here" ]
	# a --workdir that does not exist is made
	rx -S "$LOGIN" --workdir "$BATS_TEST_TMPDIR/new/dir" 'pwd; : {}' ::: 1
	[ "$st" -eq 0 ]
	[ "$(cat out)" = "$BATS_TEST_TMPDIR/new/dir" ]
	[ -d "$BATS_TEST_TMPDIR/new/dir" ]
}

@test "--timeout over ssh: the remote job is killed, no process of it is left" {
	u=$$$RANDOM mark="sleep 1234$u"
	SECONDS=0
	rx -S "$LOGIN" --timeout 2 ::: "$mark"
	[ "$st" -eq 1 ]
	[ "$SECONDS" -lt 30 ]
	nonewith "$mark"
}

@test "SIGTERM to wspx during a remote job: no process of it is left" {
	u=$$$RANDOM mark="sleep 1234$u"
	"$WSPX" --ssh "$MYSSH" -S "$LOGIN" ::: "touch started; $mark" > out 2> err &
	pid=$!
	waitfile started 20
	kill -TERM "$pid"
	waitstatus "$pid"
	[ "$st" -eq 143 ]
	nonewith "$mark"
}

@test "--halt now,fail=1: the other running remote job is killed" {
	u=$$$RANDOM mark="sleep 1234$u"
	waiter='while [ ! -e started ]; do sleep 0.05; done; exit 1'
	rx -S "2/$LOGIN" --halt now,fail=1 ::: "touch started; $mark" "$waiter"
	[ -e started ]
	nonewith "$mark"
	# the same status as the same jobs run here
	rm started
	lst=0
	"$WSPX" -j2 --halt now,fail=1 ::: "touch started; $mark" "$waiter" > /dev/null 2>&1 || lst=$?
	nonewith "$mark"
	[ "$lst" -ne 0 ]
	[ "$st" -eq "$lst" ]
}

@test "--joblog: Host is the host as given, without N/, and : for this machine" {
	rx -S "2/$LOGIN" --joblog log 'exit {}' ::: 0 3
	[ "$st" -eq 1 ]
	[ "$(head -1 log)" = "$HEADER" ]
	[ "$(tail -n +2 log | sort -n | cut -f1,2,7,9)" = \
	  "$(printf '1\t%s\t0\texit 0\n2\t%s\t3\texit 3' "$LOGIN" "$LOGIN")" ]
	# a local host and a remote one: each row names where its job ran
	SSH_CONNECTION= rx -S "1/:,1/$LOGIN" --joblog log2 \
	    'sleep 0.3; echo {} "[$SSH_CONNECTION]"' ::: 1 2 3 4
	[ "$st" -eq 0 ]
	[ "$(tail -n +2 log2 | cut -f2 | LC_ALL=C sort -u)" = "$(printf ':\n%s' "$LOGIN")" ]
	while IFS=$'\t' read -r seq host _; do
		line=$(grep "^$seq " out)
		if [ "$host" = : ]; then
			[ "$line" = "$seq []" ]
		else
			[[ $line == "$seq ["*" $SSH_PORT]" ]]
		fi
	done < <(tail -n +2 log2)
}

@test "a remote job's own exit 255 is a failure like another: run once, the host kept" {
	rx -S "1/$LOGIN" 'echo {} >> count; exit 255' ::: 1
	[ "$st" -eq 1 ]
	[ "$(cat count)" = 1 ]
	rm count
	rx -S "1/$LOGIN" --joblog log 'echo {} >> count; exit 255' ::: 1 2
	[ "$st" -eq 2 ]
	[ "$(sort count)" = "$(printf '1\n2')" ]
	[ "$(tail -n +2 log | cut -f2,7 | sort -u)" = "$(printf '%s\t255' "$LOGIN")" ]
	! grep -q 'not using it' err
}

@test "--slf FILE: one spec a line, # comments and blank lines skipped" {
	printf '# the test sshd, two slots\n\n2/%s\n\n# the end\n' "$LOGIN" > hosts
	rx --slf hosts "$(counting 0.3)" ::: 1 2 3 4
	[ "$st" -eq 0 ]
	allremote 4
	[ "$(maxof conc)" -le 2 ]
	rx --sshloginfile hosts 'echo {} $SSH_CONNECTION' ::: 1
	[ "$st" -eq 0 ]
	allremote 1
}

@test "a bad spec, or an --slf file that cannot be read: an error naming it, exit 255" {
	rx --slf no-such-file touch ran ::: 1
	[ "$st" -eq 255 ]
	grep -F no-such-file err
	[ ! -s out ]
	[ ! -e ran ]
	for spec in root@127.0.0.1:notaport root@127.0.0.1: "x/$LOGIN"; do
		rx -S "$spec" touch ran ::: 1
		[ "$st" -eq 255 ]
		grep -F -- "$spec" err
		[ ! -s out ]
		[ ! -e ran ]
	done
}

@test "--pipe with -S is refused" {
	rx -S "$LOGIN" --pipe 'cat > got' < <(seq 3)
	[ "$st" -eq 255 ]
	grep -F -- --pipe err
	[ ! -s out ]
	[ ! -e got ]
}

@test "--trc on a host whose workdir is this directory: nothing copied, nothing removed" {
	# (the host is this machine: a shared file system looks the same)
	printf 'alpha\n' > a.txt
	rx -S "$LOGIN" --trc {.}.out 'tr a-z A-Z < {} > {.}.out' ::: a.txt
	[ "$st" -eq 0 ]
	# before the fix, --cleanup removed a.txt and a.out: the originals
	[ "$(cat a.txt)" = alpha ]
	[ "$(cat a.out)" = ALPHA ]
	[ -z "$(find . -name '*wspx*')" ]
}

@test "--tf over a file the host had: the copy replaces it, --cleanup keeps it" {
	mkdir -p remote
	printf 'new\n' > a.txt
	printf 'old\n' > remote/a.txt
	rx -S "$LOGIN" --wd "$PWD/remote" --tf {} --cleanup 'cat {}' ::: a.txt
	[ "$st" -eq 0 ]
	[ "$(cat out)" = new ]
	[ "$(cat remote/a.txt)" = new ]
	# an absolute path that is the very file here stays too
	printf 'abs\n' > abs.txt
	rx -S "$LOGIN" --wd "$PWD/remote" --tf "$PWD/abs.txt" --cleanup \
	    "cat $PWD/abs.txt; : {}" ::: 1
	[ "$st" -eq 0 ]
	[ "$(cat out)" = abs ]
	[ "$(cat abs.txt)" = abs ]
}

@test "a job file's hosts: and on: pin jobs to hosts; its env: and dir: reach the host" {
	mkdir -p sub
	cat > jobs.yaml <<YAML
hosts: ["2/$LOGIN", ":"]
env: {GREETING: "hello there", HOME: "$HOME"}
jobs:
  there:
    on: "$LOGIN"
    dir: sub
    run: echo "there \$GREETING \$HOME \${SSH_CONNECTION:+remote} \$(pwd) \$WSPX_JOB"
  here:
    on: ":"
    run: echo "here \${SSH_CONNECTION:-local}"
YAML
	rx -k run jobs.yaml
	[ "$st" -eq 0 ]
	# (and a progress line each)
	[ "$(grep -vc '^\[[0-9]/2\] ok ' out)" -eq 2 ]
	grep -qxF "here local" out
	grep -qxF "there hello there $HOME remote $PWD/sub there" out
	# on: must name one of hosts:
	sed -i 's/on: ":"/on: elsewhere/' jobs.yaml
	rx run jobs.yaml
	[ "$st" -eq 255 ]
	grep -q "jobs.yaml:9:9: on: 'elsewhere' is not one of hosts:" err
}

@test "a job file's values reach a remote host as data, and its script stops at a failing line there" {
	cat > jobs.yaml <<'YAML'
hosts: ["LOGIN"]
jobs:
  v:
    matrix: {x: ["$(touch PWNED) \"q\" 'x' `touch PWNED`"]}
    run: echo "got ${{ matrix.x }}"
  e:
    run: |
      false
      touch ran-after
YAML
	sed -i "s|LOGIN|$LOGIN|" jobs.yaml
	rx -k run jobs.yaml
	cat err
	[ "$st" -eq 1 ]
	grep -qxF "got \$(touch PWNED) \"q\" 'x' \`touch PWNED\`" out
	[ ! -e PWNED ]
	[ ! -e ran-after ]
}

@test "--events: a remote job's end event names its host; one run here has none" {
	rx -S "1/$LOGIN,1/:" --events ev.json 'sleep 0.5; echo {}' ::: 1 2
	[ "$st" -eq 0 ]
	python3 - "$LOGIN" <<'PY'
import json, sys
ends = [e for e in map(json.loads, open("ev.json")) if e["event"] == "end"]
assert len(ends) == 2, ends
hosts = sorted(e.get("host", ":") for e in ends)
assert hosts == sorted([sys.argv[1], ":"]), hosts
PY
}

# The review's findings, each with what showed it.

@test "-S : with --return: no crash, the file is where the job wrote it" {
	rx -S : --return x.out 'echo {} > x.out' ::: 1
	[ "$st" -eq 0 ]
	[ "$(cat x.out)" = 1 ]
	[ -z "$(find . -name '*wspx*')" ]
}

# Whether the three jobs of the test below have started (their first
# attempts), and whether process $1 is gone.
threestarted() {
	[ "$(ls started.* 2> /dev/null | wc -l)" -ge 3 ]
}
gone() {
	! kill -0 "$1" 2> /dev/null
}

# Whether $1 masters of the test sshd run.
mastersare() {
	[ "$(pgrep -fc "wspx-ssh-.* -p $SSH_PORT -M" || :)" = "$1" ]
}

@test "a master killed under several jobs: every one of them runs again" {
	u=$$$RANDOM
	# Each attempt marks its start, then waits for go: the first attempts
	# all run when their master goes, whatever the machine's load.
	"$WSPX" --ssh "$MYSSH" -S "3/$LOGIN" --joblog log \
	    "touch started.{}.\$\$; until [ -e go ]; do sleep 0.1; done; echo done {} # $u" \
	    ::: 1 2 3 > out 2> err & pid=$!
	waituntil threestarted
	# (the master is ssh -f's child, the one left)
	m=$(pgrep -f "wspx-ssh-[^ ]*/0\.0 -p $SSH_PORT -M")
	[ "$(echo "$m" | wc -w)" -eq 1 ]
	kill "$m"
	waituntil gone "$m"
	touch go
	st=0
	wait $pid || st=$?
	cat err >&2
	[ "$st" -eq 0 ]
	[ "$(sort out)" = "$(printf 'done %s\n' 1 2 3)" ]
	# each ran twice: 255 (lost), then 0
	[ "$(tail -n +2 log | cut -f7 | sort | uniq -c | awk '{print $1, $2}' |
	    tr '\n' ' ')" = "3 0 3 255 " ]
}

@test "a host found down while sending a file: the job goes to another host" {
	printf 'data\n' > in.txt
	# host "localhost" connects once, then its sessions and connections
	# fail as ssh does when the host is gone: 255
	cat > flaky <<SH
#!/bin/sh
case " \$* " in
*" localhost "*)
	case " \$* " in
	*" -M "*) [ -e "$PWD/connected" ] && exit 255
		touch "$PWD/connected" ;;
	*) exit 255 ;;
	esac ;;
esac
exec "$MYSSH" "\$@"
SH
	chmod +x flaky
	st=0
	"$WSPX" --ssh "$PWD/flaky" -S "1/localhost:$SSH_PORT,1/$LOGIN" \
	    --wd "$PWD/rw" --tf in.txt 'echo {} $(cat in.txt)' ::: 1 2 3 4 \
	    > out 2> err || st=$?
	cat err >&2
	[ "$st" -eq 0 ]
	[ "$(sort out)" = "$(printf '%s data\n' 1 2 3 4)" ]
	grep -q "host localhost:$SSH_PORT: connection lost" err
	! grep -q "could not start" err
}

@test "a fatal error after connecting leaves no connection behind" {
	before=$(pgrep -fc "wspx-ssh-.* -p $SSH_PORT -M" || :)
	rx -S "2/$LOGIN" --joblog /nonexistent/dir/log echo ::: a
	[ "$st" -eq 255 ]
	grep -q -- "--joblog /nonexistent/dir/log" err
	# (the master it opened goes as wspx exits; allow it the time)
	waituntil mastersare "$before"
}

@test "-X with -S: the lines fit ssh's one argument" {
	seq 1 100000 > nums
	rx -S "1/$LOGIN" -X 'echo {} | wc -w' :::: nums
	[ "$st" -eq 0 ]
	[ "$(awk '{ s += $1 } END { print s }' out)" -eq 100000 ]
}

@test "a login shell of the csh family gets commands it can read" {
	command -v tcsh > /dev/null || skip "tcsh is not installed"
	# ssh to a host whose login shell is tcsh: as sshd, run the joined
	# words with $SHELL -c
	cat > fakessh <<'SH'
#!/bin/sh
while [ $# -gt 0 ] && [ "$1" != -- ]; do shift; done
shift 2
[ $# -eq 0 ] && exit 0
SHELL=/usr/bin/tcsh exec /usr/bin/tcsh -c "$*"
SH
	chmod +x fakessh
	"$WSPX" --ssh "$PWD/fakessh" -S 1/fake -k 'printf "%s|\n" {}' \
	    ::: "a b" "it's" 'x!y' > out 2> err || { cat err >&2; false; }
	[ "$(cat out)" = "$(printf 'a b|\nit'"'"'s|\nx!y|')" ]
}

@test "--return that fails keeps the file there with --cleanup; its directories are made here" {
	mkdir -p rw
	rx -S "$LOGIN" --wd "$PWD/rw" --return 'sub/out{}' --return 'gone{}' \
	    --cleanup 'mkdir -p sub; echo precious > sub/out{}' ::: 1
	[ "$st" -eq 0 ]
	[ "$(cat sub/out1)" = precious ]
	grep -q -- "--return gone1" err
	# the fetched one is removed there, the one that did not come is not
	# there to remove; nothing half-made here
	[ ! -e rw/sub/out1 ]
	[ -z "$(find . -name '*.wspx-*')" ]
}

@test "--tf of one file to jobs on one host, --cleanup: none loses it while running" {
	printf 'shared\n' > common.dat
	# (the first sends it, the others find it there; the first ends,
	# and cleans up, while the others still sleep)
	rx -S "4/$LOGIN" --delay 0.5 --wd "$PWD/rw" --tf common.dat --cleanup \
	    'sleep {}; cat common.dat' ::: 1.5 4 4 4
	[ "$st" -eq 0 ]
	[ "$(grep -c shared out)" -eq 4 ]
	[ ! -e rw/common.dat ]
}

@test "--tf keeps a file's mode there; --return makes files as umask says" {
	printf '#!/bin/sh\necho ran\n' > run.sh
	chmod 750 run.sh
	rx -S "$LOGIN" --wd "$PWD/rw" --tf run.sh --return 'o{}' \
	    './run.sh > o{}' ::: 1
	[ "$st" -eq 0 ]
	[ "$(cat o1)" = ran ]
	[ "$(stat -c %a rw/run.sh)" = 750 ]
	[ "$(stat -c %a o1)" = "$(printf '%o' $((0666 & ~$(umask))))" ]
}

@test "--tf of a directory: the job does not start, with a message" {
	mkdir -p adir
	rx -S "$LOGIN" --wd "$PWD/rw" --tf adir 'echo {}' ::: 1
	[ "$st" -eq 1 ]
	grep -q -- "--transfer-file adir: Is a directory" err
	[ ! -s out ]
}

@test "--halt soon: a job waiting for its host does not start after the failure" {
	# b is ready only once a holds the host's one slot (c, here, waits
	# for a's mark): whichever job's thread is faster, b waits for the
	# host until a fails.
	cat > jobs.yaml <<YAML
hosts: ["1/$LOGIN", "1/:"]
jobs:
  a:
    on: "$LOGIN"
    run: touch a.started; sleep 1; exit 1
  c:
    on: ":"
    run: i=0; while [ ! -e a.started ] && [ \$i -lt 1200 ]; do sleep 0.05; i=\$((i + 1)); done; [ -e a.started ]
  b:
    needs: c
    on: "$LOGIN"
    run: echo b started
YAML
	rx --halt soon,fail=1 run jobs.yaml
	[ "$st" -eq 1 ]
	! grep -q "b started" out
}

@test "--workdir that is missing here, for jobs here: an error naming it" {
	rx --workdir "$PWD/nowhere" pwd ::: 1
	[ "$st" -eq 255 ]
	grep -q -- "--workdir $PWD/nowhere" err
	[ ! -s out ]
}

@test "--header's names of fields in --tf and --return, as in COMMAND" {
	mkdir -p local/in remote
	printf 'alpha\n' > local/in/a.txt
	rw=$PWD/remote
	cd local
	rx -S "$LOGIN" --wd "$rw" --header : --tf {file} --return {file.}.out \
	    'tr a-z A-Z < {file} > {file.}.out' ::: file in/a.txt
	[ "$st" -eq 0 ]
	[ "$(cat in/a.out)" = ALPHA ]
	cmp in/a.txt "$rw/in/a.txt"
}
