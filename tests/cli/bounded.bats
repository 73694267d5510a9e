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

@test "a dry run of 24,576 jobs from a 1 KB file shows them in the file's order, in little memory" {
	python3 - <<'P'
vals = ",".join('"%d"' % i for i in range(64))
s = 'jobs:\n  j0: &J {matrix: {a: &v [%s], b: *v}, run: "echo x"}\n' % vals
s += "".join("  j%d: *J\n" % i for i in range(1, 6))
open("jobs.yaml", "w").write(s)
P
	local kb
	kb=$(rss timeout 60 "$WSPX" run --dry-run jobs.yaml)
	[ "$(cat st)" -eq 0 ]
	# (the legs of j0, then j1's...: a comment line and a command each)
	grep -c '^# j' out > n
	[ "$(cat n)" -eq 24576 ]
	python3 - <<'P'
lines = [l for l in open("out") if l.startswith("# j")]
want = ["# j%d[a=%d,b=%d]\n" % (j, a, b) for j in range(6)
        for a in range(64) for b in range(64)]
assert lines == want, "out of order"
P
	# The memory of the dry run, against that of reading the file: the
	# jobs' output is not held (34 MB against 11; 75 when it was held,
	# newest first, and 79 against 14 on a loaded machine when two
	# workers showed jobs at once).  ThreadSanitizer's shadow memory is
	# several times the program's (568 MB): there the order above is the
	# check.
	local check
	check=$(rss "$WSPX" check jobs.yaml)
	echo "peak RSS: $kb KiB, $check KiB to check the file"
	[ -n "${TSAN_OPTIONS:-}" ] || [ "$kb" -lt $((5 * check)) ]
}

@test "a 4,096-leg job with 5,000 expressions is checked once, not once a leg, and refused by its weight" {
	python3 - <<'P'
vals = ",".join('"%d"' % i for i in range(4096))
run = " ".join("${{ matrix.a }}" for _ in range(5000))
open("jobs.yaml", "w").write("jobs:\n  t:\n    matrix: {a: [%s]}\n    run: echo %s\n" % (vals, run))
P
	run timeout 20 "$WSPX" check jobs.yaml
	[ "$status" -eq 255 ]
	# (a leg: 10, 2 for each of the 5,000 uses, 1 for each 16 bytes of
	# the script; the limit: 262144 and twice the file's bytes)
	w=$(( 10 + 2 * 5000 + (5 + 5000 * 16 - 1) / 16 ))
	[ "$output" = "jobs.yaml:2:3: job 't' (4096 legs of weight $w) brings the file's expanded weight to $((4096 * w)), past the $((262144 + 2 * $(wc -c < jobs.yaml))) that a file of $(wc -c < jobs.yaml) bytes may have: see Limits in wspx(5)" ]
}

@test "a file's weight: legs 10, expressions 2 and 1 for each 16 bytes of their value; the limit is 262144 and twice the file's bytes" {
	# six aliases of 4,096 legs, and k with 64 x n legs: the largest n
	# the limit lets in passes, one more is refused at k
	python3 - <<'P'
def text(n):
    vals = ",".join('"%d"' % i for i in range(64))
    s = 'jobs:\n  j0: &J {matrix: {a: &v [%s], b: *v}, run: "true"}\n' % vals
    s += "".join("  j%d: *J\n" % i for i in range(1, 6))
    return s + '  k: {matrix: {a: *v, b: [%s]}, run: "true"}\n' % ",".join(
        str(i) for i in range(n))
n = max(n for n in range(1, 64)
        if 10 * (6 * 4096 + 64 * n) <= 262144 + 2 * len(text(n)))
open("fits.yaml", "w").write(text(n))
open("over.yaml", "w").write(text(n + 1))
P
	run "$WSPX" check fits.yaml
	[ "$status" -eq 0 ]
	run "$WSPX" check over.yaml
	[ "$status" -eq 255 ]
	[[ "$output" == "over.yaml:8:3: job 'k' ("*" legs of weight 10) brings the file's expanded weight to "* ]]
	# four aliases of 4,096 legs, with an expression used twice in a
	# script of 36 bytes (2): a value of 1 byte weighs 2 x 2 a leg, one
	# of 64 bytes 2 x (2 + 4)
	for v in b "$(printf '%064d' 7)"; do
		printf 'jobs:\n  t: &T {matrix: {a: ["%s", "c"], b: [%s]}, run: "echo ${{ matrix.a }} ${{ matrix.a }}"}\n  u: *T\n  v: *T\n  w: *T\n' \
		    "$v" "$(seq -s, 1 2048)" > "jobs$v.yaml"
	done
	run "$WSPX" check jobsb.yaml
	[ "$status" -eq 0 ]
	run "$WSPX" check jobs0*.yaml
	[ "$status" -eq 255 ]
	[[ "$output" == *"job 'v' (4096 legs of weight 24) brings the file's expanded weight to 294912, past the"* ]]
}

@test "a file's environment and its scripts' bytes weigh for every leg" {
	# 500 entries of the file's env: 1 each, with the leg's 10
	python3 - <<'P'
env = ", ".join("E%d: x" % i for i in range(500))
vals = ",".join('"%d"' % i for i in range(64))
open("env.yaml", "w").write('env: {%s}\njobs:\n  j: {matrix: {a: [%s], b: [%s]}, run: "true"}\n' % (env, vals, vals))
open("text.yaml", "w").write('jobs:\n  j: {matrix: {a: [%s], b: [%s]}, run: "echo %s"}\n' % (vals, vals, "abcdefghij " * 350))
P
	run "$WSPX" check env.yaml
	[ "$status" -eq 255 ]
	[[ "$output" == "env.yaml:3:3: job 'j' (4096 legs of weight 510) brings"* ]]
	# a script of 3,855 bytes: 1 for each 16
	run "$WSPX" check text.yaml
	[ "$status" -eq 255 ]
	[[ "$output" == "text.yaml:2:3: job 'j' (4096 legs of weight 250) brings"* ]]
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
