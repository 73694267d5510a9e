#!/usr/bin/env bats
# A job file is bounded on any input, and nothing hangs (wspx(5),
# "Limits"): files that expand, patterns that explode, files that are
# not files; leg names that would repeat; temporary directories removed
# on every way out.  Each run has timeout 20 as a guard against a hang,
# not as a measure.

load helper

# Run "$@" (status in $st, output in out) and print its peak RSS in KiB.
rss() {
	python3 -c 'import resource, subprocess, sys
r = subprocess.run(sys.argv[1:], stdout=open("out", "w"), stderr=subprocess.STDOUT)
open("st", "w").write(str(r.returncode))
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' "$@"
}

@test "29 KB of aliases naming 10 million jobs is refused at the job that passes a million, in little memory" {
	python3 - <<'P'
vals = ",".join('"%d"' % i for i in range(64))
s = 'v: &v [%s]\njob: &J {matrix: {a: *v, b: *v}, run: "true"}\njobs:\n' % vals
s += "".join("  j%d: *J\n" % i for i in range(2500))
open("jobs.yaml", "w").write(s)
P
	local kb
	kb=$(rss timeout 20 "$WSPX" check jobs.yaml)
	cat out
	[ "$(cat st)" -eq 255 ]
	grep -q "jobs.yaml:248:3: the file has more than 1000000 jobs, legs counted, with this one" out
	[ "$kb" -lt "$(rsslimit)" ]
}

@test "a 4,096-leg job with 5,000 expressions is checked once, not once a leg" {
	python3 - <<'P'
vals = ",".join('"%d"' % i for i in range(4096))
run = " ".join("${{ matrix.a }}" for _ in range(5000))
open("jobs.yaml", "w").write("jobs:\n  t:\n    matrix: {a: [%s]}\n    run: echo %s\n" % (vals, run))
P
	run timeout 20 "$WSPX" check jobs.yaml
	[ "$status" -eq 0 ]
}

@test "a pattern of many ** walks each directory once" {
	local a b
	for a in 1 2 3 4 5 6 7 8 9 10 11 12; do
		for b in 1 2 3 4 5 6 7 8 9 10 11 12; do
			mkdir -p "d$a/e$b/f/g/h/i/j"
		done
	done
	cat > jobs.yaml <<'Y'
jobs:
  t: {sources: ["**/**/**/**/**/**/**/nomatch", "**/x*/**/x*/**/nomatch"], generates: [o], run: touch o}
Y
	run timeout 20 "$WSPX" run jobs.yaml
	[ "$status" -eq 0 ]
	[ -e o ]
}

@test "wspx check /dev/zero is an error, not all the memory" {
	run timeout 20 "$WSPX" check /dev/zero
	[ "$status" -eq 255 ]
	[[ "$output" == *"/dev/zero: larger than 64 MiB: not a job file"* ]]
}

@test "a job file that is not a regular file runs in the current directory and keeps no state, and says so" {
	mkdir sub
	printf 'jobs:\n  a: {run: pwd, sources: [jobs.yaml], generates: [x]}\n' > jobs.yaml
	cd sub
	run bash -c '"$WSPX" run <(cat ../jobs.yaml)'
	[ "$status" -eq 0 ]
	[[ "$output" == *"$PWD"* ]]
	[[ "$output" == *"is not a regular file: its jobs run in the current directory, with no up-to-date state"* ]]
	run bash -c 'cat ../jobs.yaml | "$WSPX" run /dev/stdin'
	[ "$status" -eq 0 ]
	[[ "$output" == *"/dev/stdin is not a regular file"* ]]
	[ ! -e /dev/.stdin.wspx-state ]
}

@test "legs are unique and their names escape , = [ ] and \\: a repeated leg is an error at the matrix" {
	cat > jobs.yaml <<'Y'
jobs:
  t:
    matrix: {x: ["1", "1"]}
    run: "true"
Y
	run "$WSPX" check jobs.yaml
	[ "$status" -eq 255 ]
	[[ "$output" == *"jobs.yaml:3:13: the matrix makes the leg t[x=1] more than once"* ]]
	cat > jobs.yaml <<'Y'
jobs:
  t:
    matrix: {a: ["1,b=2", "1"], b: ["2"]}
    run: echo "${{ matrix.a }}"
  u: {needs: 't[a=1\,b\=2]', run: "true"}
Y
	run "$WSPX" list jobs.yaml
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = 't[a=1\,b\=2,b=2]' ]
	[ "${lines[1]}" = 't[a=1,b=2]' ]
	run "$WSPX" run -j1 jobs.yaml t
	[ "$status" -eq 0 ]
	[[ "$output" == *"1,b=2"* ]]
}

@test "the temporary directory is removed when the run cannot start and when a signal ends it" {
	mkdir tmp
	printf 'executor: slurm\njobs:\n  a: {run: echo hi}\n' > jobs.yaml
	TMPDIR=$PWD/tmp SLURM_JOB_ID= run env -u SLURM_JOB_ID "$WSPX" run jobs.yaml
	[ "$status" -eq 255 ]
	[ -z "$(ls tmp)" ]
	printf 'jobs:\n  a: {run: "touch started; sleep 60"}\n' > jobs.yaml
	TMPDIR=$PWD/tmp "$WSPX" run jobs.yaml &
	local pid=$!
	waitfile started 30
	[ -n "$(ls tmp)" ]
	kill -TERM "$pid"
	waitstatus "$pid"
	[ "$st" -eq 143 ]
	[ -z "$(ls tmp)" ]
}
