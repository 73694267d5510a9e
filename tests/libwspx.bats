#!/usr/bin/env bats
# libwspx as its users get it: the example of libwspx(3) built against
# the library in the tree (shared, with LD_LIBRARY_PATH=., and static)
# and against the library `make install` puts in place, found through
# pkg-config.  The library is the runtime alone: neither the program nor
# the library loads libyaml.  Run from the top of the tree, after make,
# with the CC, CFLAGS and LDFLAGS the library was built with (a sanitizer
# build's program must link the sanitizer too).

setup() {
	TOP=$BATS_TEST_DIRNAME/..
	cd "$BATS_TEST_TMPDIR"
	# The example, as the page prints it: roff's escapes read.
	sed -n '/^\.Sh EXAMPLES/,/^\.Sh /p' "$TOP/man/libwspx.3" |
	    sed -n '/^\.Bd -literal/,/^\.Ed/p' | sed '1d;/^\.Ed/,$d' |
	    sed -e 's/\\-/-/g' -e 's/\\e/\\/g' > demo.c
	grep -q 'int$' demo.c
	grep -q '^main(void)' demo.c
	# It joins its tasks with a wait group, not with a shutdown.
	grep -q 'wspx_blocking_group_wait(g);' demo.c
	! grep -q 'wspx_blocking_shutdown' demo.c || false
}

# The example's output: the 30th Fibonacci number, and four tasks run
# (counted by the pool before the group's wait returned).
ranfine() {
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "fib(30) = 832040" ]
	[[ ${lines[1]} == *" workers: "*" jobs, "*" stolen; 4 tasks" ]]
}

# The shared objects program $1 loads, without libyaml.
noyaml() {
	run ldd "$1"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output != *libyaml* ]]
}

@test "the example runs against the shared library in the tree" {
	# shellcheck disable=SC2086
	${CC:-cc} -std=c11 -Wall -Wextra -Werror ${CFLAGS:-} -I"$TOP/lib" \
	    -o demo demo.c -L"$TOP" -lwspx -pthread ${LDFLAGS:-}
	LD_LIBRARY_PATH=$TOP run ./demo
	ranfine
	LD_LIBRARY_PATH=$TOP run ldd ./demo
	[[ $output == *"libwspx.so.0 => $TOP/libwspx.so.0"* ]]
	LD_LIBRARY_PATH=$TOP noyaml ./demo
	noyaml "$TOP/libwspx.so.0"
}

@test "the example runs against the static library in the tree, without libyaml" {
	# shellcheck disable=SC2086
	${CC:-cc} -std=c11 -Wall -Wextra -Werror ${CFLAGS:-} -I"$TOP/lib" \
	    -o demo demo.c "$TOP/libwspx.a" -pthread ${LDFLAGS:-}
	run ./demo
	ranfine
	noyaml ./demo
}

@test "the example runs against the installed library, found by pkg-config" {
	make -s -C "$TOP" install DESTDIR="$BATS_TEST_TMPDIR/root" \
	    PREFIX=/usr/local > /dev/null
	lib=$BATS_TEST_TMPDIR/root/usr/local/lib
	[ -f "$lib/libwspx.so.0" ]
	[ -L "$lib/libwspx.so" ]
	run cat "$lib/pkgconfig/wspx.pc"
	echo "$output"
	[[ $output != *yaml* ]]
	flags=$(PKG_CONFIG_PATH=$lib/pkgconfig \
	    PKG_CONFIG_SYSROOT_DIR=$BATS_TEST_TMPDIR/root \
	    pkg-config --cflags --libs wspx)
	# shellcheck disable=SC2086
	${CC:-cc} -std=c11 -Wall -Wextra -Werror ${CFLAGS:-} -o demo demo.c \
	    $flags ${LDFLAGS:-}
	LD_LIBRARY_PATH=$lib run ./demo
	ranfine
	LD_LIBRARY_PATH=$lib noyaml ./demo
}
