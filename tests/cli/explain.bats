#!/usr/bin/env bats
# --explain (issue 20) says why each job runs or is up to date, one line
# each, as ninja's -d explain; the stat cache (issue 21) reads no file
# whose stat is unchanged and misses no change; a state file of the older
# format is rebuilt, never trusted.

load helper
bats_require_minimum_version 1.5.0

# A small build: two compile legs, a link, a lint with no files.
mkbuild() {
	mkdir -p src
	echo 'int add;' > src/add.c
	echo 'int sub;' > src/sub.c
	echo '#define N 1' > src/common.h
	cat > jobs.yaml <<'Y'
env:
  CFLAGS: -O2
jobs:
  compile:
    matrix: {unit: [add, sub]}
    sources: ["src/${{ matrix.unit }}.c", "src/*.h"]
    generates: ["${{ matrix.unit }}.o"]
    run: cat src/${{ matrix.unit }}.c src/*.h > ${{ matrix.unit }}.o
  link:
    needs: [compile]
    sources: [add.o, sub.o]
    generates: [app]
    run: cat add.o sub.o > app
  lint:
    run: "true"
Y
}

# The explain line of job $1 in $stderr (without "wspx: explain: ").
why() {
	local line
	while IFS= read -r line; do
		case $line in
		"wspx: explain: $1 "*) echo "${line#"wspx: explain: $1 "}"; return ;;
		esac
	done <<< "$stderr"
	echo "no explain line for $1"
}

@test "--explain: a line for each job, run or up to date, and why" {
	mkbuild
	run --separate-stderr "$WSPX" run --explain jobs.yaml
	[ "$status" -eq 0 ]
	[ "$(why 'compile[unit=add]')" = "runs: no record" ]
	[ "$(why link)" = "runs: no record" ]
	[ "$(why lint)" = "runs: no sources: nor generates:" ]
	run --separate-stderr "$WSPX" run --explain jobs.yaml
	[ "$status" -eq 0 ]
	[ "$(why 'compile[unit=add]')" = "is up to date" ]
	[ "$(why 'compile[unit=sub]')" = "is up to date" ]
	[ "$(why link)" = "is up to date" ]
	[ "$(why lint)" = "runs: no sources: nor generates:" ]
	[ "$(grep -c '^wspx: explain: ' <<< "$stderr")" -eq 4 ]
	[[ "$stderr" == *"wspx: 4 jobs in "*": 1 ok, 3 up to date"* ]]
}

@test "--explain after each kind of change names it" {
	mkbuild
	"$WSPX" run jobs.yaml > /dev/null 2>&1
	echo 'int add = 1;' > src/add.c
	run --separate-stderr "$WSPX" run --explain jobs.yaml
	[ "$(why 'compile[unit=add]')" = "runs: src/add.c changed" ]
	[ "$(why 'compile[unit=sub]')" = "is up to date" ]
	[ "$(why link)" = "runs: add.o changed" ]
	# a header every leg names
	echo '#define N 2' > src/common.h
	run --separate-stderr "$WSPX" run --explain jobs.yaml
	[ "$(why 'compile[unit=sub]')" = "runs: src/common.h changed" ]
	echo '#define M 1' > src/more.h
	run --separate-stderr "$WSPX" run --explain jobs.yaml
	[ "$(why 'compile[unit=sub]')" = "runs: src/more.h is new" ]
	rm src/more.h
	run --separate-stderr "$WSPX" run --explain jobs.yaml
	[ "$(why 'compile[unit=sub]')" = "runs: src/more.h is gone" ]
	# a generated file removed, then changed
	rm app
	run --separate-stderr "$WSPX" run --explain jobs.yaml
	[ "$(why link)" = "runs: app missing" ]
	echo tampered > app
	run --separate-stderr "$WSPX" run --explain jobs.yaml
	[ "$(why link)" = "runs: app changed" ]
	# the environment: the file's, then the command line's
	sed -i 's/-O2/-O3/' jobs.yaml
	run --separate-stderr "$WSPX" run --explain jobs.yaml
	[ "$(why link)" = "runs: env CFLAGS changed" ]
	run --separate-stderr "$WSPX" run --explain jobs.yaml CFLAGS=-Os
	[ "$(why 'compile[unit=add]')" = "runs: env CFLAGS changed" ]
	# the command
	"$WSPX" run jobs.yaml > /dev/null 2>&1
	sed -i 's/cat add.o sub.o > app/cat sub.o add.o > app/' jobs.yaml
	run --separate-stderr "$WSPX" run --explain jobs.yaml
	[ "$(why link)" = "runs: command changed" ]
	[ "$(why 'compile[unit=add]')" = "is up to date" ]
	# --force
	run --separate-stderr "$WSPX" run --explain --force jobs.yaml
	[ "$(why link)" = "runs: --force" ]
}

@test "--explain: each message is one write, so the lines of jobs on several threads never mix" {
	# (stderr is a datagram socket: each write is one datagram, and a
	# line written in parts would show as a datagram without its end)
	mkbuild
	"$WSPX" run jobs.yaml > /dev/null 2>&1
	rm app
	echo 'int add = 1;' > src/add.c
	python3 - "$WSPX" run --explain jobs.yaml <<'P'
import socket, subprocess, sys
mine, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)
p = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=theirs)
theirs.close()
mine.settimeout(0.2)
grams = []
while True:
    try:
        grams.append(mine.recv(65536).decode())
    except socket.timeout:
        if p.poll() is not None:
            break
assert p.wait() == 0
text = "".join(grams)
print(text, end="")
for g in grams:
    assert g.endswith("\n"), "a line in parts: %r" % g
assert "explain: link runs: add.o changed (and 1 more)" in text, text
assert "explain: compile[unit=sub] is up to date" in text, text
P
}

@test "--explain with --dry-run: a need that would run, and nothing recorded" {
	mkbuild
	"$WSPX" run jobs.yaml > /dev/null 2>&1
	cp .jobs.yaml.wspx-state state.before
	echo 'int sub = 2;' > src/sub.c
	run --separate-stderr "$WSPX" run --explain --dry-run jobs.yaml
	[ "$status" -eq 0 ]
	[ "$(why 'compile[unit=sub]')" = "runs: src/sub.c changed" ]
	[ "$(why 'compile[unit=add]')" = "is up to date" ]
	[ "$(why link)" = "runs: compile[unit=sub] would run first" ]
	[ "$output" = "# compile[unit=sub]
cat src/sub.c src/*.h > sub.o
# link
cat add.o sub.o > app
# lint
true" ]
	[[ "$stderr" == *"wspx: 4 jobs: 3 would run, 1 up to date"* ]]
	[ "$(cat src/sub.c)" = 'int sub = 2;' ]
	# the dry run ran nothing; the next explains as it did
	run --separate-stderr "$WSPX" run --explain --dry-run jobs.yaml
	[ "$(why 'compile[unit=sub]')" = "runs: src/sub.c changed" ]
}

@test "--dry-run -v with every job up to date names each (what was staged is shown)" {
	mkbuild
	"$WSPX" run jobs.yaml > /dev/null 2>&1
	sed -i '/^  lint:/,$d' jobs.yaml
	run --separate-stderr "$WSPX" run --dry-run -v jobs.yaml
	[ "$status" -eq 0 ]
	[ "$output" = "" ]
	[[ "$stderr" == *"wspx: compile[unit=add] is up to date"* ]]
	[[ "$stderr" == *"wspx: compile[unit=sub] is up to date"* ]]
	[[ "$stderr" == *"wspx: link is up to date"* ]]
	[[ "$stderr" == *"wspx: 3 jobs up to date"* ]]
}

@test "--explain is for job files, and only by its whole name" {
	run "$WSPX" --explain echo ::: a
	[ "$status" -eq 255 ]
	[[ "$output" == *"--explain is for job files"* ]]
	mkbuild
	run "$WSPX" run --expl jobs.yaml
	[ "$status" -eq 255 ]
	[[ "$output" != *"explain:"* ]]
}

@test "a no-op run trusts the stat cache: a source whose stat is unchanged is not read" {
	mkbuild
	touch -d '1 hour ago' src/*
	"$WSPX" run jobs.yaml > /dev/null 2>&1
	grep -q "	src/add.c\$" .jobs.yaml.wspx-state
	# What the cache says of src/add.c is believed while its stat stays:
	# a wrong sum there, and the job runs, though the file never changed.
	sed -i '/	src\/add.c$/s/\t[0-9a-f]\{64\}\t/\t'"$(printf '0%.0s' {1..64})"'\t/' .jobs.yaml.wspx-state
	run --separate-stderr "$WSPX" run --explain jobs.yaml
	[ "$(why 'compile[unit=add]')" = "runs: src/add.c changed" ]
	[ "$(why 'compile[unit=sub]')" = "is up to date" ]
	# and the run put it right
	run --separate-stderr "$WSPX" run --explain jobs.yaml
	[ "$(why 'compile[unit=add]')" = "is up to date" ]
}

@test "a source replaced by mv, same size and mtime, rebuilds" {
	mkbuild
	touch -d '1 hour ago' src/*
	"$WSPX" run jobs.yaml > /dev/null 2>&1
	echo 'int odd;' > other.c
	touch -r src/add.c other.c
	mv other.c src/add.c
	run --separate-stderr "$WSPX" run --explain jobs.yaml
	[ "$(why 'compile[unit=add]')" = "runs: src/add.c changed" ]
	[ "$(cat add.o)" = "int odd;
#define N 1" ]
}

@test "a pattern added that names no new file runs the job, and --explain says the patterns changed; reordered, they do not" {
	mkbuild
	"$WSPX" run jobs.yaml > /dev/null 2>&1
	sed -i 's|sources: \["src/${{ matrix.unit }}.c", "src/\*.h"\]|sources: ["src/*.h", "src/${{ matrix.unit }}.c"]|' jobs.yaml
	grep -q 'sources: \["src/\*.h", "src/${{ matrix.unit }}.c"\]' jobs.yaml
	run --separate-stderr "$WSPX" run --explain jobs.yaml
	[ "$(why 'compile[unit=add]')" = "is up to date" ]
	sed -i 's|"src/\*.h", |"src/*.h", "src/common.h", |' jobs.yaml
	grep -q '"src/common.h"' jobs.yaml
	run --separate-stderr "$WSPX" run --explain jobs.yaml
	[ "$status" -eq 0 ]
	[ "$(why 'compile[unit=add]')" = "runs: its sources: or generates: patterns changed" ]
	[ "$(why link)" = "is up to date" ]
}

@test "a state file of format 2 (a digest over each file, not each pattern) is emptied with a warning: every job runs once" {
	mkbuild
	"$WSPX" run jobs.yaml > /dev/null 2>&1
	run --separate-stderr "$WSPX" run jobs.yaml
	[[ "$stderr" == *"1 ok, 3 up to date"* ]]
	sed -i '1s/^wspx-state 3$/wspx-state 2/' .jobs.yaml.wspx-state
	[ "$(head -n 1 .jobs.yaml.wspx-state)" = "wspx-state 2" ]
	run --separate-stderr "$WSPX" run --explain jobs.yaml
	[ "$status" -eq 0 ]
	[[ "$stderr" == *".jobs.yaml.wspx-state: of an older wspx: emptied; every job runs once"* ]]
	[ "$(why 'compile[unit=add]')" = "runs: no record" ]
	[[ "$stderr" == *"4 jobs ok"* ]]
	run --separate-stderr "$WSPX" run jobs.yaml
	[[ "$stderr" != *"older"* ]]
	[[ "$stderr" == *"1 ok, 3 up to date"* ]]
}

@test "a state file of the older format is emptied with a warning: every job runs once" {
	mkbuild
	printf 'wspx-state 1\n%s\tlink\n' "$(printf 'a%.0s' {1..64})" > .jobs.yaml.wspx-state
	run --separate-stderr "$WSPX" run --explain jobs.yaml
	[ "$status" -eq 0 ]
	[[ "$stderr" == *"wspx: ./.jobs.yaml.wspx-state: of an older wspx: emptied; every job runs once"* || "$stderr" == *".jobs.yaml.wspx-state: of an older wspx: emptied; every job runs once"* ]]
	[ "$(why link)" = "runs: no record" ]
	[ "$(head -n 1 .jobs.yaml.wspx-state)" = "wspx-state 3" ]
	run --separate-stderr "$WSPX" run jobs.yaml
	[[ "$stderr" != *"older"* ]]
	[[ "$stderr" == *"1 ok, 3 up to date"* ]]
}

@test "the same job file run from another directory is up to date (the state keys are the file's, not the caller's)" {
	mkbuild
	mkdir elsewhere
	"$WSPX" run jobs.yaml > /dev/null 2>&1
	run --separate-stderr "$WSPX" run --explain jobs.yaml
	[ "$(why link)" = "is up to date" ]
	cd elsewhere
	run --separate-stderr "$WSPX" run --explain ../jobs.yaml
	[ "$(why link)" = "is up to date" ]
	[ "$(why 'compile[unit=add]')" = "is up to date" ]
	run --separate-stderr "$WSPX" run --explain "$BATS_TEST_TMPDIR/jobs.yaml"
	[ "$(why link)" = "is up to date" ]
}

@test "a pattern many jobs name is expanded once, and again after a job ends: a file a need made is a source" {
	mkdir -p gen
	echo '#define BASE 0' > gen/base.h
	cat > jobs.yaml <<'Y'
jobs:
  make-header:
    generates: [gen/made.h]
    run: echo '#define MADE 1' > gen/made.h
  early:
    sources: ["gen/*.h"]
    run: "true"
  use:
    needs: [make-header]
    matrix: {n: [1, 2, 3]}
    sources: ["gen/*.h"]
    generates: ["out${{ matrix.n }}"]
    run: cat gen/*.h > out${{ matrix.n }}
Y
	# (early looks at gen/*.h before make-header ends, under -j1 and
	# after it too: use must see gen/made.h all the same)
	run --separate-stderr "$WSPX" run -j1 --explain jobs.yaml
	[ "$status" -eq 0 ]
	[ "$(cat out2)" = "#define BASE 0
#define MADE 1" ]
	run --separate-stderr "$WSPX" run -j1 --explain jobs.yaml
	[ "$(why 'use[n=1]')" = "is up to date" ]
	[ "$(why 'use[n=3]')" = "is up to date" ]
	echo '#define MORE 2' > gen/more.h
	run --separate-stderr "$WSPX" run --explain jobs.yaml
	[ "$(why 'use[n=1]')" = "runs: gen/more.h is new" ]
	[ "$(why 'use[n=2]')" = "runs: gen/more.h is new" ]
	[ "$(why 'make-header')" = "is up to date" ]
}

@test "the same pattern text from two directories is two patterns: sub/*.c here, *.c in dir: sub" {
	mkdir sub
	echo top > a.c
	echo low > sub/a.c
	cat > jobs.yaml <<'Y'
jobs:
  here:
    sources: ["sub/*.c"]
    generates: [out1]
    run: cat sub/*.c > out1
  there:
    dir: sub
    sources: ["*.c"]
    generates: [out2]
    run: cat *.c > out2
Y
	for j in 1 2; do
		run --separate-stderr "$WSPX" run -j1 --explain jobs.yaml
		[ "$status" -eq 0 ]
	done
	[ "$(why here)" = "is up to date" ]
	[ "$(why there)" = "is up to date" ]
	echo lower > sub/a.c
	run --separate-stderr "$WSPX" run -j1 --explain jobs.yaml
	[ "$status" -eq 0 ]
	[ "$(why here)" = "runs: sub/a.c changed" ]
	[ "$(why there)" = "runs: a.c changed" ]
	[ "$(cat out1)" = lower ]
	[ "$(cat sub/out2)" = lower ]
	echo other > a.c
	run --separate-stderr "$WSPX" run -j1 --explain jobs.yaml
	[ "$(why here)" = "is up to date" ]
	[ "$(why there)" = "is up to date" ]
}

@test "--explain names a source that cannot be read, not parts it never looked at" {
	mkbuild
	"$WSPX" run jobs.yaml > /dev/null 2>&1
	rm src/common.h
	mkfifo src/pipe.h
	# (a dry run: the job itself would wait on the FIFO)
	run --separate-stderr "$WSPX" run --dry-run --explain jobs.yaml
	[ "$(why 'compile[unit=add]')" = "runs: src/pipe.h is not a regular file" ]
	rm src/pipe.h
	sed -i 's|"src/\*.h"|"src/common.h"|' jobs.yaml
	run --separate-stderr "$WSPX" run --dry-run --explain jobs.yaml
	[ "$(why 'compile[unit=add]')" = "runs: src/common.h does not exist or matches nothing" ]
}
