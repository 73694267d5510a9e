#!/usr/bin/env bats
# Up-to-date checks that are never stale (wspx(5), "Up to date"): the
# sources as they were when the job started, and everything else that
# can change what a job does (its environment, shell, directory, values).

load helper
bats_require_minimum_version 1.5.0

@test "a source edited while its job runs is seen changed by the next run" {
	echo old > src.txt
	cat > jobs.yaml <<'Y'
jobs:
  copy:
    sources: [src.txt]
    generates: [obj.txt]
    run: cp src.txt obj.txt && touch started && while [ ! -e go ]; do sleep 0.05; done
Y
	"$WSPX" run jobs.yaml > run1.out 2>&1 &
	local pid=$!
	waitfile started 30
	echo new > src.txt
	touch go
	wait "$pid"
	[ "$(cat obj.txt)" = old ]
	rm -f started go
	touch go
	run "$WSPX" run jobs.yaml
	[ "$status" -eq 0 ]
	[[ "$output" != *"up to date"* ]]
	[ "$(cat obj.txt)" = new ]
	run "$WSPX" run -v jobs.yaml
	[[ "$output" == *"copy is up to date"* ]]
}

# Run jobs.yaml twice: the first builds, the second must say up to date;
# then apply the sed expression $1 to it: the next run must build again.
rebuilds_after() {
	run "$WSPX" run jobs.yaml
	[ "$status" -eq 0 ]
	run "$WSPX" run jobs.yaml
	[[ "$output" == *"up to date"* ]]
	sed -i "$1" jobs.yaml
	run "$WSPX" run jobs.yaml
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" != *"up to date"* ]]
}

@test "changing a job's env:, the file's env: or the defaults' rebuilds it" {
	echo x > in.txt
	cat > jobs.yaml <<'Y'
env: {TOP: "1"}
defaults: {env: {DEF: "1"}}
jobs:
  cc:
    env: {CFLAGS: "-O2"}
    sources: [in.txt]
    generates: [out.txt]
    run: echo "$CFLAGS $TOP $DEF" > out.txt
Y
	rebuilds_after 's/-O2/-O0/'
	[ "$(cat out.txt)" = "-O0 1 1" ]
	rebuilds_after 's/TOP: "1"/TOP: "2"/'
	rebuilds_after 's/DEF: "1"/DEF: "2"/'
	[ "$(cat out.txt)" = "-O0 2 2" ]
}

@test "changing the shell or the dir rebuilds" {
	mkdir d e
	echo x > d/in.txt
	echo x > e/in.txt
	cat > jobs.yaml <<'Y'
jobs:
  t:
    shell: sh
    dir: d
    sources: [in.txt]
    generates: [out.txt]
    run: echo built > out.txt
Y
	rebuilds_after 's/shell: sh/shell: bash/'
	rebuilds_after 's/dir: d/dir: e/'
	[ "$(cat e/out.txt)" = built ]
}

@test "a changed output of a job it needs rebuilds it" {
	echo 1 > ver.txt
	echo x > in.txt
	cat > jobs.yaml <<'Y'
jobs:
  p: {run: "echo v=$(cat ver.txt) >> \"$WSPX_OUTPUT\""}
  c:
    needs: p
    sources: [in.txt]
    generates: [out.txt]
    run: echo "${{ needs.p.outputs.v }}" > out.txt
Y
	run "$WSPX" run jobs.yaml
	[ "$status" -eq 0 ]
	run "$WSPX" run -v jobs.yaml
	[[ "$output" == *"c is up to date"* ]]
	echo 2 > ver.txt
	run "$WSPX" run jobs.yaml
	[ "$status" -eq 0 ]
	[[ "$output" != *"up to date"* ]]
	[ "$(cat out.txt)" = 2 ]
}

@test "two runs of one job file at once keep each other's records" {
	echo x > in.txt
	cat > jobs.yaml <<'Y'
jobs:
  a:
    sources: [in.txt]
    generates: [a.out]
    run: touch a.started && while [ ! -e b.started ]; do sleep 0.05; done; touch a.out
  b:
    sources: [in.txt]
    generates: [b.out]
    run: touch b.started && while [ ! -e a.started ]; do sleep 0.05; done; touch b.out
Y
	"$WSPX" run jobs.yaml a > a.log 2>&1 &
	local pa=$!
	"$WSPX" run jobs.yaml b > b.log 2>&1 &
	local pb=$!
	wait "$pa"
	wait "$pb"
	run "$WSPX" run -v jobs.yaml
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"a is up to date"* ]]
	[[ "$output" == *"b is up to date"* ]]
}

@test "a state file that is a symbolic link or a FIFO is refused, not followed or waited on" {
	echo x > in.txt
	cat > jobs.yaml <<'Y'
jobs:
  t: {sources: [in.txt], generates: [out.txt], run: touch out.txt}
Y
	echo precious > target
	ln -s target .jobs.yaml.wspx-state
	run "$WSPX" run jobs.yaml
	[ "$status" -eq 0 ]
	[[ "$output" == *".jobs.yaml.wspx-state: a symbolic link (not followed): every job runs"* ]]
	[ "$(cat target)" = precious ]
	rm .jobs.yaml.wspx-state
	mkfifo .jobs.yaml.wspx-state
	run timeout 20 "$WSPX" run jobs.yaml
	[ "$status" -eq 0 ]
	[[ "$output" == *".jobs.yaml.wspx-state: not a regular file: every job runs"* ]]
}

@test "--dry-run lists only what would run, as make -n: not the jobs up to date, but those after a job that would make files" {
	echo a > a.src
	echo b > b.src
	cat > jobs.yaml <<'Y'
jobs:
  setup: {run: "true"}
  ca: {needs: setup, sources: [a.src], generates: [a.o], run: "cp a.src a.o"}
  cb: {needs: setup, sources: [b.src], generates: [b.o], run: "cp b.src b.o"}
  link: {needs: [ca, cb], sources: [a.o, b.o], generates: [app], run: "cat a.o b.o > app"}
Y
	run "$WSPX" run jobs.yaml
	jobsonly
	[ "$status" -eq 0 ]
	run --separate-stderr "$WSPX" run --dry-run jobs.yaml
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf '# setup\ntrue')" ]
	[ "$stderr" = "wspx: 4 jobs: 1 would run, 3 up to date" ]
	echo a2 > a.src
	run --separate-stderr "$WSPX" run --dry-run jobs.yaml
	[ "$output" = "$(printf '# setup\ntrue\n# ca\ncp a.src a.o\n# link\ncat a.o b.o > app')" ]
	[ "$stderr" = "wspx: 4 jobs: 3 would run, 1 up to date" ]
	# (nothing was run or recorded by the dry runs)
	[ "$(cat a.o)" = a ]
	run "$WSPX" run -k jobs.yaml
	jobsonly
	[ "$(cat app)" = "$(printf 'a2\nb')" ]
}

# How many times wspx (not the jobs, which only write it) opened path to
# read it, in the strace log $1.
reads_of() {
	grep -c "\"$2\", O_RDONLY" "$1" || true
}

@test "a generated file is read once in a run: by its job's end, not again by the jobs that need it" {
	# (mid ends after gen's end read big.out, so use looks at it in a
	# later epoch, when big.out, just written, is still too young to be
	# trusted from its stat alone; gen writes it a clock tick or more
	# before it ends, as a real job does, so that no later write could
	# leave its stat as it was)
	cat > jobs.yaml <<'Y'
jobs:
  gen: {run: "head -c 300000 /dev/zero > big.out; sleep 0.05", generates: [big.out]}
  mid: {needs: [gen], run: "true"}
  use: {needs: [gen, mid], sources: [big.out], run: "true"}
Y
	# (LeakSanitizer cannot run under ptrace: make check-asan's build
	# would fail at its exit)
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
	strace -f -qq -e trace=openat,open -o trace1 "$WSPX" run -j2 jobs.yaml
	[ "$(reads_of trace1 big.out)" -eq 1 ]
	# (and once in a no-op run: gen's check, then use's)
	run strace -f -qq -e trace=openat,open -o trace2 "$WSPX" run -j2 jobs.yaml
	[ "$status" -eq 0 ]
	[ "$(reads_of trace2 big.out)" -le 1 ]
}

@test "what a job made is recorded alike by its own thread (small files) and by the pool (over 1 MiB, or a wildcard)" {
	echo x > in.txt
	cat > jobs.yaml <<'Y'
jobs:
  small: {sources: [in.txt], generates: [small.out], run: "cat in.txt > small.out"}
  big:
    sources: [in.txt]
    generates: [big.out]
    run: "head -c 2000000 /dev/zero > big.out; cat in.txt >> big.out"
  wild: {sources: [in.txt], generates: ["w/*.out"], run: "mkdir -p w && cat in.txt > w/a.out"}
  use:
    needs: [small, big, wild]
    sources: [small.out, big.out, "w/*.out"]
    generates: [all.out]
    run: "cat small.out w/a.out > all.out; tail -c 2 big.out >> all.out"
Y
	run "$WSPX" run -j2 jobs.yaml
	[ "$status" -eq 0 ]
	[ "$(cat all.out)" = "$(printf 'x\nx\nx')" ]
	run "$WSPX" run -v -j2 jobs.yaml
	[ "$status" -eq 0 ]
	for j in small big wild use; do
		[[ "$output" == *"$j is up to date"* ]]
	done
	# a file a job made, edited: that job runs again, the others not
	local f j
	for j in small big wild; do
		case $j in
		small) f=small.out ;; big) f=big.out ;; wild) f=w/a.out ;;
		esac
		echo y >> "$f"
		run "$WSPX" run -v -j2 jobs.yaml
		echo "$output"
		[ "$status" -eq 0 ]
		[[ "$output" != *"$j is up to date"* ]]
		[[ "$output" == *"use is up to date"* ]]
		[ "$(tail -c 2 "$f")" = x ]
	done
}
