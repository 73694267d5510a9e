#!/usr/bin/env bats
# What holds jobs back: --memfree, --load, and make's jobserver (wspx as
# its client under make -jN, and as its server with --jobserver).

load helper
load gnu

# A job that counts the jobs running at once: each holds a file in
# running/ while it runs and appends how many it saw to peaks.
setup_file() {
	export CONC="$BATS_FILE_TMPDIR/conc.sh"
	cat > "$CONC" <<-'EOF'
	#!/bin/sh
	mkdir -p running
	touch running/$$
	ls running | wc -l >> peaks
	sleep 0.3
	rm -f running/$$
	EOF
	chmod +x "$CONC"
}

peak() {
	sort -n peaks | tail -n 1
}

# MemTotal and MemAvailable, in KiB.
meminfo() {
	awk -v k="$1:" '$1 == k { print $2 }' /proc/meminfo
}

@test "--memfree more than the machine's memory: nothing starts, wspx says why" {
	run "$WSPX" --memfree 1000T 'touch ran' ::: a
	[ "$status" -eq 255 ]
	[[ "$output" == "wspx: --memfree 1000T: more than this machine's memory ("*"): no job could ever start" ]]
	[ ! -e ran ]
}

@test "--memfree above what is available: jobs wait, and wspx says why once" {
	total=$(meminfo MemTotal) avail=$(meminfo MemAvailable)
	want=$(( (total + avail) / 2 ))
	[ "$want" -gt "$avail" ] || skip "MemAvailable is MemTotal here"
	"$WSPX" --memfree "${want}K" 'touch ran' ::: a b 2> err &
	pid=$!
	waituntil grep -q 'waiting to start jobs' err
	sleep 1
	kill -TERM "$pid"
	wait "$pid" || :
	[ ! -e ran ]
	[[ "$(head -1 err)" == "wspx: --memfree ${want}K: waiting to start jobs: "*" available" ]]
	# (then the stop's line: no job was running)
	[ "$(sed -n 2p err)" = "wspx: SIGTERM: starting no more jobs" ]
	[ "$(wc -l < err)" -eq 2 ]
	[ "$(grep -c waiting err)" -eq 1 ]
}

@test "--memfree below what is available: the jobs run" {
	run "$WSPX" --memfree 1M 'echo {}' ::: a
	# (what else was said, if anything: check-tsan once saw more than
	# "a" here, with status 0, and did not show it)
	[ "$status" -eq 0 ] || { echo "status $status: $output"; false; }
	[ "$output" = a ] || { echo "output: $output"; false; }
}

@test "--memfree and --load: bad values are usage errors naming the option" {
	for v in abc 1KB -5G 1e3; do
		run "$WSPX" --memfree "$v" true ::: a
		[ "$status" -eq 255 ]
		[[ "$output" == "wspx: --memfree: '$v' is not a size"* ]]
	done
	for v in abc 0 -100 1%x; do
		run "$WSPX" --load "$v" true ::: a
		[ "$status" -eq 255 ]
		[[ "$output" == "wspx: --load: '$v'"* ]]
	done
}

# The 1-minute load average is above $1.
loadabove() {
	awk -v min="$1" '{ exit !($1 > min) }' /proc/loadavg
}

@test "--load: no job starts while the load average is N or more" {
	# make some load if the machine has none
	if ! loadabove 0.05; then
		for i in 1 2; do timeout 60 sh -c 'while :; do :; done' & done
		waituntil loadabove 0.05
	fi
	"$WSPX" --load 0.01 'touch ran' ::: a 2> err &
	pid=$!
	waituntil grep -q 'waiting to start jobs' err
	kill -TERM "$pid"
	wait "$pid" || :
	pkill -f 'while :; do :; done' || :
	[ ! -e ran ]
	[[ "$(cat err)" == "wspx: --load 0.01: waiting to start jobs: the load average is "* ]]
}

@test "--load 1000% and --load +10: the jobs run" {
	run "$WSPX" --load 1000% echo ::: a
	[ "$output" = a ]
	run "$WSPX" --load +10 echo ::: b
	[ "$output" = b ]
}

@test "--load FILE: the limit the file holds, read again when it changes, as GNU parallel's" {
	echo 1000% > limit
	IN=/dev/null same -k --load limit echo ::: a b
	[ "$(cat wspx.out)" = "$(printf 'a\nb')" ]
	if ! loadabove 0.05; then
		for i in 1 2; do timeout 60 sh -c 'while :; do :; done' & done
		waituntil loadabove 0.05
	fi
	echo 0.01 > limit
	"$WSPX" --load limit 'touch ran' ::: a 2> err &
	pid=$!
	waituntil grep -q 'waiting to start jobs' err
	# a file that no longer holds a load: a warning, the limit stays
	echo soon > limit
	waituntil grep -q 'holds no load' err
	[ ! -e ran ]
	echo 1000000 > limit
	wait "$pid"
	pkill -f 'while :; do :; done' || :
	[ -e ran ]
	grep -q "^wspx: --load limit: holds no load (N, N%, +N, -N): the limit stays 0.01$" err
	run "$WSPX" --load nosuch true ::: a
	[ "$status" -eq 255 ]
	[[ "$output" == *"--load: 'nosuch' is not a load (N, N%, +N, -N) or a file that holds one"* ]]
}

@test "jobserver client: make -j2 around wspx -j8 never runs more than 2 jobs" {
	printf 'all:\n\t+"$(WSPX)" -j8 "%s # {}" ::: 1 2 3 4 5 6 7 8 9 10\n' "$CONC" > Makefile
	run make -s -j2 WSPX="$WSPX"
	[ "$status" -eq 0 ]
	[ "$(wc -l < peaks)" -eq 10 ]
	[ "$(peak)" -eq 2 ]
	# and the pipe form is what make 4.3 passed
	printf 'all:\n\t+@echo "$$MAKEFLAGS"\n' > M2
	[[ "$(make -s -j2 -f M2)" == *"--jobserver-auth="[0-9]*,[0-9]* ]]
}

@test "jobserver client: a recipe line without + gets a warning and wspx's own -j" {
	printf 'all:\n\t"$(WSPX)" -j3 "%s # {}" ::: 1 2 3 4 5 6\n' "$CONC" > Makefile
	run make -s -j2 WSPX="$WSPX"
	[ "$status" -eq 0 ]
	[[ "$output" == *"wspx: MAKEFLAGS names a jobserver that is not open here"*"running -j 3 on its own"* ]]
	[ "$(peak)" -eq 3 ]
}

@test "jobserver client: tokens come back when jobs are killed by --timeout or --halt" {
	printf 'all:\n\t+"$(WSPX)" -j4 --timeout 0.3 "sleep 5 # {}" ::: 1 2 3 4 || :\n\t+"$(WSPX)" -j4 --halt now,fail=1 "sleep {}; exit 1" ::: 0.1 5 5 5 || :\n\t+"$(WSPX)" -j4 "%s # {}" ::: 1 2 3 4 5 6\n' "$CONC" > Makefile
	run make -s -j3 WSPX="$WSPX"
	[ "$status" -eq 0 ]
	# make 4.3 says so when a token went missing
	[[ "$output" != *"INTERNAL"* && "$output" != *"jobserver tokens"* ]]
	[ "$(peak)" -eq 3 ]
}

@test "jobserver client: tokens come back when wspx is interrupted" {
	# (each job notes its parent, wspx, whatever the program's name)
	printf 'all:\n\t+"$(WSPX)" -j4 "echo \\$$PPID > wspx.pid; touch started.{}; sleep 30" ::: 1 2 3 || :\n\t+"$(WSPX)" -j4 "%s # {}" ::: 1 2 3 4 5 6\n' "$CONC" > Makefile
	make -s -j3 WSPX="$WSPX" > out 2>&1 &
	make=$!
	waitcount 3 'started.*'
	kill -TERM "$(cat wspx.pid)"
	wait "$make"
	[[ "$(cat out)" != *"INTERNAL"* && "$(cat out)" != *"jobserver tokens"* ]]
	[ "$(wc -l < peaks)" -eq 6 ]
	[ "$(peak)" -eq 3 ]
}

@test "jobserver server: a job's make under wspx --jobserver -j2 never runs more than 2" {
	printf 'all: a b c d\na b c d:\n\t@"%s"\n' "$CONC" > Makefile
	run "$WSPX" --jobserver -j2 'make -s # {}' ::: 1 2 3
	[ "$status" -eq 0 ]
	[ "$(wc -l < peaks)" -eq 12 ]
	[ "$(peak)" -eq 2 ]
	# without it, each job's make adds its own -j
	rm peaks
	run "$WSPX" -j2 'make -s -j4 # {}' ::: 1 2 3
	[ "$(peak)" -gt 2 ]
}

@test "jobserver server: MAKEFLAGS names it for the jobs, and only with --jobserver" {
	run "$WSPX" --jobserver -j3 'echo "$MAKEFLAGS" # {}' ::: a
	[[ "$output" == *"-j3 --jobserver-auth="[0-9]*,[0-9]* ]]
	run env -u MAKEFLAGS "$WSPX" -j3 'echo "[$MAKEFLAGS]" # {}' ::: a
	[ "$output" = "[]" ]
}
