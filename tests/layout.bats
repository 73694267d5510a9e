#!/usr/bin/env bats
# tests/layout.sh on small synthetic trees: one that keeps every rule
# passes, and each test breaks one rule and expects exactly the lines that
# rule prints.  The script runs under dash, from the top of the tree.

LAYOUT=$BATS_TEST_DIRNAME/layout.sh

# put FILE LINE...: write the lines to FILE, making its folder.
put() {
	mkdir -p "$(dirname "$1")"
	f=$1
	shift
	printf '%s\n' "$@" > "$f"
}

# compile X: the object of lib/.../X.c, as the Makefile builds it.
compile() {
	cc -std=c11 -Wall -Ilib -Icmd -c -o "${1%.c}.o" "$1"
}

# A tree that keeps every rule, built once and copied for each test.
setup_file() {
	cd "$BATS_FILE_TMPDIR" && mkdir tree && cd tree || exit 1
	for d in lib/base lib/os lib/runtime lib/exec lib/builtins \
	    lib/jobfile cmd/util cmd/input cmd/pipe cmd/remote cmd/report \
	    cmd/review \
	    cmd/options cmd/run cmd/graph; do
		put $d/README "$d: what it is for" "" "More about it."
	done
	put lib/wspx.h '#ifndef WSPX_H' '#define WSPX_H' \
	    '/* Run n jobs; returns 0. */' 'int wspx_pool_run(int n);' '#endif'
	put lib/base/arena.h '#ifndef WSPX_ARENA_H' '#define WSPX_ARENA_H' \
	    'void *wspx__arena_alloc(unsigned long n);' '#endif'
	put lib/base/arena.c '/* A bump allocator, of sorts. */' \
	    '#include "arena.h"' '#include <stdlib.h>' \
	    'void *wspx__arena_alloc(unsigned long n) { return malloc(n); }'
	put lib/os/proc.h '#include "base/arena.h"' \
	    'unsigned long wspx__proc_meminfo(void);'
	put lib/os/proc.c '/* The platform: _GNU_SOURCE and /proc. */' \
	    '#define _GNU_SOURCE' '#include "proc.h"' \
	    'unsigned long wspx__proc_meminfo(void)' \
	    '{ return sizeof("/proc/meminfo"); }'
	put lib/runtime/pool.h '#include "os/proc.h"' '#include "wspx.h"' \
	    'int wspx__pool_grow(int n);'
	put lib/runtime/pool.c '/* The pool. */' '#include "pool.h"' \
	    '#include "base/arena.h"' \
	    'int wspx__pool_grow(int n) { return n; }' \
	    'int wspx_pool_run(int n) { return wspx__pool_grow(n) - n; }' \
	    'static const char *s = "// not a comment, nor exit(1)";' \
	    'const char *wspx__pool_name(void) { return s; }'
	put lib/runtime/sleep.pml '/* A model. */' '#include "pool.pml.h"' \
	    'active proctype p() { printf("model\n") }'
	put lib/runtime/pool.pml.h '#define N 2'
	put lib/exec/spawn.h '#include "runtime/pool.h"'
	put lib/builtins/builtin.h '#include "runtime/pool.h"' \
	    'int wspx__builtin_fs(void);'
	put lib/builtins/builtinfs.c '#include "builtin.h"' \
	    '/* exit(1); fprintf(stderr, "wspx: "); */' \
	    'int wspx__builtin_fs(void) { return 0; }' \
	    'int wspx__builtins_count(void) { return 1; }' \
	    'int wspx__builtinfs_x(void) { return 2; }'
	put lib/jobfile/jobfile.h '#include "exec/spawn.h"' \
	    '#include "builtins/builtin.h"'
	put cmd/util/util.h '#include "wspx.h"' '#include "jobfile/jobfile.h"'
	put cmd/util/util.c '#define _POSIX_C_SOURCE 200809L' \
	    '#include "util.h"' '#include <stdio.h>' \
	    'void warn(const char *m) { fprintf(stderr, "wspx: %s\n", m); }'
	put cmd/input/input.h '#include "util/util.h"'
	put cmd/pipe/pipe.h '#include "input/input.h"'
	put cmd/remote/remote.h '#include "input/input.h"'
	put cmd/report/report.h '#include "util/util.h"'
	put cmd/options/options.h '#include "input/input.h"' \
	    '#include "remote/remote.h"' '#include "report/report.h"'
	put cmd/run/run.h '#include "options/options.h"' \
	    '#include "pipe/pipe.h"' '#include "runtime/pool.h"'
	put cmd/graph/graphcmd.h '#include "run/run.h"'
	put cmd/main.c '#include "wspx.h"' '#include "graph/graphcmd.h"' \
	    '#include "util/util.h"' 'int main(void) { return 0; }'
	put tests/unit/pool.c '#include "runtime/pool.h"'
	put tests/unit/builtin.c '#include "builtins/builtin.h"'
	for c in lib/base/arena.c lib/os/proc.c lib/runtime/pool.c \
	    lib/builtins/builtinfs.c; do
		compile $c || exit 1
	done
}

setup() {
	cp -R "$BATS_FILE_TMPDIR/tree" "$BATS_TEST_TMPDIR/tree"
	cd "$BATS_TEST_TMPDIR/tree" || exit 1
}

# check [OBJ...]: run the script under dash on the objects (all of lib/'s
# by default).
check() {
	if [ $# -eq 0 ]; then
		set -- $(find lib -name '*.o' | sort)
	fi
	run dash "$LAYOUT" "$@"
	printf '%s\n' "$output"
}

# expect LINE...: the script failed with exactly these violations.
expect() {
	local n=$#
	[ "$status" -eq 1 ]
	if [ $n -eq 1 ]; then
		set -- "$@" "layout: 1 problem"
	else
		set -- "$@" "layout: $n problems"
	fi
	[ "$output" = "$(printf '%s\n' "$@")" ]
}

@test "a tree that keeps every rule passes" {
	check
	[ "$status" -eq 0 ]
	[ "$output" = "layout: ok (23 files, 24 folder edges)" ]
}

@test "rule 1: a source directly in lib/ or cmd/" {
	put lib/stray.h '#define STRAY 1'
	put cmd/opts.h '#define OPTS 1'
	check
	expect "layout: cmd/opts.h: directly in cmd/, not in one of its folders" \
	    "layout: lib/stray.h: directly in lib/, not in one of its folders"
}

@test "rule 1: a folder not in the map" {
	put cmd/extra/extra.h '#define EXTRA 1'
	put lib/os/linux/futex.h '#define FUTEX 1'
	check
	expect "layout: cmd/extra/extra.h: folder cmd/extra is not in the map" \
	    "layout: lib/os/linux/futex.h: folder lib/os/linux is not in the map"
}

@test "rule 1: a missing README, and one whose first line is empty" {
	rm lib/os/README
	put cmd/pipe/README '' 'cmd/pipe: the purpose, one line too late'
	check
	expect "layout: cmd/pipe/README: the first line (the folder's purpose) is empty" \
	    "layout: lib/os/README: missing"
}

@test "rule 2: an include that resolves to no file" {
	put cmd/input/input.h '#include "util/util.h"' '#include "utils/util.h"'
	check
	expect 'layout: cmd/input/input.h:2: #include "utils/util.h" resolves to no file'
}

@test "rule 2: a commented-out include and a system include are not read" {
	put cmd/input/input.h '#include "util/util.h"' \
	    '/* #include "gone.h" */' '#include <stdio.h> // "gone.h"'
	check
	[ "$status" -eq 0 ]
}

@test "rule 3: lib/ includes from cmd/" {
	put cmd/report/format.h '#define FORMAT 1'
	put lib/exec/spawn.h '#include "runtime/pool.h"' '#include "report/format.h"'
	check
	expect "layout: lib/exec/spawn.h:2: includes cmd/report/format.h: lib/ never includes from cmd/"
}

@test "rule 4: an include across folders that is not an allowed edge" {
	put lib/builtins/builtin.h '#include "runtime/pool.h"' \
	    '#include "exec/spawn.h"' 'int wspx__builtin_fs(void);'
	put cmd/pipe/pipe.h '#include "input/input.h"' '#include "report/report.h"'
	check
	expect "layout: cmd/pipe/pipe.h:2: includes cmd/report/report.h: cmd/pipe -> cmd/report is not an allowed edge" \
	    "layout: lib/builtins/builtin.h:2: includes lib/exec/spawn.h: lib/builtins -> lib/exec is not an allowed edge"
}

@test "rule 4: edges reached through the closure are allowed" {
	put cmd/graph/graphcmd.h '#include "run/run.h"' '#include "util/util.h"' \
	    '#include "base/arena.h"' '#include "wspx.h"'
	check
	[ "$status" -eq 0 ]
}

@test "rule 4: the allowed edges themselves have a cycle" {
	sed 's|^lib/base:.*|lib/base:     lib lib/jobfile|' "$LAYOUT" > layout.sh
	run dash layout.sh $(find lib -name '*.o' | sort)
	printf '%s\n' "$output"
	expect "layout: allowed edges have a cycle: lib/base lib/builtins lib/exec lib/jobfile lib/os lib/runtime"
}

@test "rule 3: lib/ includes from cmd/ with <>, which -Icmd finds too" {
	put lib/exec/spawn.h '#include "runtime/pool.h"' '#include <util/util.h>'
	check
	expect "layout: cmd/util/util.h: include cycle across folders: cmd/util/util.h lib/exec/spawn.h lib/jobfile/jobfile.h" \
	    "layout: lib/exec/spawn.h:2: includes cmd/util/util.h: lib/ never includes from cmd/"
}

@test "a failing nm fails the check, never passes it" {
	mkdir fakebin
	printf '#!/bin/sh\nexit 1\n' > fakebin/nm
	chmod +x fakebin/nm
	PATH=$PWD/fakebin:$PATH check
	[ "$status" -eq 2 ]
}

@test "rule 4: the allowed edges name a folder not in the map" {
	sed 's|^cmd/pipe:.*|cmd/pipe:     cmd/util cmd/input cmd/inptu|' "$LAYOUT" > layout.sh
	run dash layout.sh $(find lib -name '*.o' | sort)
	printf '%s\n' "$output"
	expect "layout: allowed edges: cmd/inptu is not a folder of the map"
}

@test "rule 5: two files of different folders include each other" {
	put cmd/util/util.h '#include "wspx.h"' '#include "input/input.h"'
	check
	expect "layout: cmd/input/input.h: includes cmd/util/util.h, which includes it back" \
	    "layout: cmd/util/util.h:2: includes cmd/input/input.h: cmd/util -> cmd/input is not an allowed edge"
}

@test "rule 5: an include cycle through three folders" {
	put lib/base/arena.h '#include "runtime/pool.h"' \
	    'void *wspx__arena_alloc(unsigned long n);'
	put lib/runtime/pool.h '#include "os/proc.h"' \
	    'int wspx__pool_grow(int n);'
	put lib/runtime/pool.c '#include "pool.h"' \
	    'int wspx__pool_grow(int n) { return n; }' \
	    'int wspx_pool_run(int n) { return n; }'
	check
	expect "layout: lib/base/arena.h: include cycle across folders: lib/base/arena.h lib/os/proc.h lib/runtime/pool.h" \
	    "layout: lib/base/arena.h:1: includes lib/runtime/pool.h: lib/base -> lib/runtime is not an allowed edge"
}

@test "rule 5: a cycle inside one folder is that folder's business" {
	put cmd/input/input.h '#include "util/util.h"' '#include "lines.h"'
	put cmd/input/lines.h '#include "input.h"'
	check
	[ "$status" -eq 0 ]
}

@test "rule 6: a base name in two folders" {
	put cmd/run/arena.c '/* An arena of the program. */'
	put lib/exec/arena.h '#define ARENA 2'
	check
	expect "layout: lib/base/arena.c: base name arena is also used in cmd/run" \
	    "layout: lib/base/arena.h: base name arena is also used in cmd/run" \
	    "layout: lib/exec/arena.h: base name arena is also used in cmd/run"
}

@test "rule 6: a unit test that names no module" {
	put tests/unit/policy.c '/* The policy, which is gone. */'
	put tests/unit/util.c '/* cmd/util/util.c: a module. */'
	put tests/unit/graphcmd.c '/* cmd/graph/graphcmd.h alone: not one. */'
	check
	expect "layout: tests/unit/graphcmd.c: no module graphcmd in lib/ or cmd/" \
	    "layout: tests/unit/policy.c: no module policy in lib/ or cmd/"
}

@test "rule 7: global symbols not named after their file or folder" {
	put lib/runtime/pool.c '#include "pool.h"' \
	    'int wspx__pool_grow(int n) { return n; }' \
	    'int wspx_pool_run(int n) { return n; }' \
	    'int wspx__runtime(void) { return 0; }' \
	    'int wspx__runtim_x(void) { return 0; }' \
	    'int wspx__grow(void) { return 0; }' \
	    'int wspx_pool_secret(void) { return 0; }' \
	    'int wspx_pool(void) { return 0; }' \
	    'int wspx__pooling(void) { return 0; }' \
	    'int helper(void) { return 0; }' \
	    'int pool_count;'
	compile lib/runtime/pool.c
	check
	expect "layout: lib/runtime/pool.o: global helper is neither in lib/wspx.h nor wspx__{pool,runtime}_*" \
	    "layout: lib/runtime/pool.o: global pool_count is neither in lib/wspx.h nor wspx__{pool,runtime}_*" \
	    "layout: lib/runtime/pool.o: global wspx__grow is neither in lib/wspx.h nor wspx__{pool,runtime}_*" \
	    "layout: lib/runtime/pool.o: global wspx__pooling is neither in lib/wspx.h nor wspx__{pool,runtime}_*" \
	    "layout: lib/runtime/pool.o: global wspx__runtim_x is neither in lib/wspx.h nor wspx__{pool,runtime}_*" \
	    "layout: lib/runtime/pool.o: global wspx_pool is neither in lib/wspx.h nor wspx__{pool,runtime}_*" \
	    "layout: lib/runtime/pool.o: global wspx_pool_secret is neither in lib/wspx.h nor wspx__{pool,runtime}_*"
}

@test "rule 7: an object missing from the arguments, one that does not exist, one of no lib/ source" {
	cc -c -o cmd/util/util.o -Ilib -Icmd cmd/util/util.c
	check lib/base/arena.o ./lib/os/proc.o lib/runtime/pool.o \
	    lib/exec/spawn.o cmd/util/util.o
	expect "layout: cmd/util/util.o: not the object of a lib/ source" \
	    "layout: lib/builtins/builtinfs.c: no object lib/builtins/builtinfs.o among the arguments" \
	    "layout: lib/exec/spawn.o: no such object"
}

@test "rule 8: a file over 800 lines" {
	{
		echo '/* A long file. */'
		i=0
		while [ $i -lt 900 ]; do echo "int v$i;"; i=$((i + 1)); done
	} > lib/exec/long.h
	{
		echo '/*'
		echo ' * A long file, and past 800'
		echo ' * lines because its table is one thing.'
		echo ' */'
		i=0
		while [ $i -lt 900 ]; do echo "int w$i;"; i=$((i + 1)); done
	} > lib/exec/table.h
	check
	expect 'layout: lib/exec/long.h: 901 lines, and its opening comment does not say why ("800 lines")'
}

@test "rule 9: the library prints, exits or reads the environment" {
	put lib/exec/spawn.h '#include "runtime/pool.h"' '#include <stdio.h>' \
	    '#include <stdlib.h>' \
	    'static inline void say(const char *m)' \
	    '{ fprintf(stderr, "wspx: %s\n", m); perror ("x"); }' \
	    'static inline void die(void) { exit(1); } /* exit(2) */' \
	    'static inline char *home(void) { return getenv("HOME"); }' \
	    'static inline void out(void) { printf("x"); }' \
	    'static inline void fine(char *b) { snprintf(b, 4, "exit(%d", 1); _exit(0); }'
	check
	expect 'layout: lib/exec/spawn.h:5: calls fprintf(stderr in lib/' \
	    'layout: lib/exec/spawn.h:5: calls perror( in lib/' \
	    'layout: lib/exec/spawn.h:5: the program'"'"'s prefix "wspx: " in lib/' \
	    'layout: lib/exec/spawn.h:6: calls exit( in lib/' \
	    'layout: lib/exec/spawn.h:7: calls getenv( in lib/' \
	    'layout: lib/exec/spawn.h:8: calls printf( in lib/'
}

@test "rule 10: _GNU_SOURCE and /proc/ paths outside lib/os/" {
	put cmd/util/util.c '#define _GNU_SOURCE /* mkostemp() */' \
	    '#include "util.h"' '/* reads "/proc/self/fd" */' \
	    'const char *fds = "/proc/self/fd";' 'const char *p = "a/proc/";'
	put lib/base/arena.c '# define _GNU_SOURCE' '#include "arena.h"' \
	    '/* #define _GNU_SOURCE */' '#define _GNU_SOURCE_NOT 1' \
	    'void *wspx__arena_alloc(unsigned long n) { return (void *)n; }'
	compile lib/base/arena.c
	check
	expect 'layout: cmd/util/util.c:1: #define _GNU_SOURCE outside lib/os/' \
	    'layout: cmd/util/util.c:4: a "/proc/ path outside lib/os/' \
	    'layout: lib/base/arena.c:1: #define _GNU_SOURCE outside lib/os/'
}

@test "the script is POSIX sh" {
	command -v shellcheck > /dev/null || skip "no shellcheck"
	shellcheck -s sh -S warning -e SC2046 "$LAYOUT"
}
