#!/usr/bin/env bats
# Hostile job files under 1 MB, in one run: none hangs (timeout 20, a
# guard, not a measure), none takes over 100 MB, and each refusal names
# FILE:LINE:COLUMN.  (The values of hostile matrices and outputs are in
# values.bats: no file is made by any of them.)

load helper

# Check jobs.yaml: status in $st, output in the file out; fails if the
# file is 1 MB or more, the run is over 100 MB, or (for a refusal) the
# first line has no place.
hostile() {
	local kb
	[ "$(wc -c < jobs.yaml)" -lt 1048576 ]
	kb=$(python3 -c 'import resource, subprocess, sys
r = subprocess.run(sys.argv[1:], stdout=open("out", "w"), stderr=subprocess.STDOUT)
open("st", "w").write(str(r.returncode))
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' \
	    timeout 20 "$WSPX" check jobs.yaml)
	st=$(cat st)
	echo "status $st, $kb KB: $(head -c 300 out)"
	[ "$kb" -lt "$(rsslimit)" ]
	[ "$st" -ne 124 ]
	if [ "$st" -ne 0 ]; then
		[ "$st" -eq 255 ]
		grep -Eq '^jobs\.yaml:[0-9]+:[0-9]+: ' out
	fi
}

@test "hostile: nested aliases (a billion laughs)" {
	python3 - <<'P'
s = 'a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n'
for i in range(1, 10):
    s += 'a%d: &a%d [%s]\n' % (i, i, ",".join(["*a%d" % (i - 1)] * 10))
s += 'jobs:\n  t: {run: "true", with: *a9}\n'
open("jobs.yaml", "w").write(s)
P
	hostile
	[ "$st" -eq 255 ]
	grep -q "alias" out
}

@test "hostile: 29 KB of aliases for 10 million jobs" {
	python3 - <<'P'
vals = ",".join('"%d"' % i for i in range(64))
s = 'v: &v [%s]\njob: &J {matrix: {a: *v, b: *v}, run: "true"}\njobs:\n' % vals
s += "".join("  j%d: *J\n" % i for i in range(2500))
open("jobs.yaml", "w").write(s)
P
	hostile
	[ "$st" -eq 255 ]
}

@test "hostile: 100,000 levels of nesting" {
	python3 -c 'open("jobs.yaml", "w").write("jobs: " + "[" * 100000 + "]" * 100000 + "\n")'
	hostile
	[ "$st" -eq 255 ]
}

@test "hostile: duplicate keys, NUL bytes, tags, tabs" {
	printf 'jobs:\n  a: {run: x, run: y}\n  "b\\0c": {run: !!python/object "x\\0y"}\n' > jobs.yaml
	hostile
	[ "$st" -eq 255 ]
	printf 'jobs:\n\ta: {run: x}\n' > jobs.yaml
	hostile
	[ "$st" -eq 255 ]
}

@test "hostile: a cycle through 20,000 jobs, and a chain of 20,000" {
	python3 -c "
n = 20000
print('jobs:')
for i in range(n):
    print('  j%d: {needs: j%d, run: \"true\"}' % (i, (i + 1) % n))" > jobs.yaml
	hostile
	[ "$st" -eq 255 ]
	python3 -c "
n = 20000
print('jobs:')
print('  j0: {run: \"true\"}')
for i in range(1, n):
    print('  j%d: {needs: j%d, run: \"true\"}' % (i, i - 1))" > jobs.yaml
	hostile
	[ "$st" -eq 0 ]
}

@test "hostile: 16 legs with 5,000 expressions, and values in every place" {
	python3 - <<'P'
vals = ",".join('"%d"' % i for i in range(16))
run = " ".join("'${{ matrix.a }}' \"${{ matrix.a }}\"" for _ in range(2500))
open("jobs.yaml", "w").write("jobs:\n  t:\n    matrix: {a: [%s]}\n    run: echo %s\n" % (vals, run))
P
	hostile
	[ "$st" -eq 0 ]
}

@test "hostile: expressions in places that cannot take data" {
	printf 'jobs:\n  t:\n    matrix: {a: ["1"]}\n    run: echo $(( ${{ matrix.a }} ))\n' > jobs.yaml
	hostile
	[ "$st" -eq 255 ]
	grep -q "^jobs.yaml:4:19: " out
}
