#!/usr/bin/env bats
# tests/need.sh, which installs what a make target needs.  It runs with a
# PATH of stubs only: id says who we are, sudo may or may not work, and
# apt-get and apt-cache log what they were asked and install nothing on
# this machine (apt-get "installs" a package as an empty command of the
# same name in $BATS_TEST_TMPDIR/installed; gcc brings cc, procps ps and
# pkill; a stub cc finds headers once libc6-dev is "installed").

NEED=$BATS_TEST_DIRNAME/need.sh

setup() {
	cd "$BATS_TEST_TMPDIR" || exit 1
	mkdir bin installed
	# the few real commands need.sh and the stubs use
	for c in cat chmod env mktemp rm true; do
		ln -s "$(type -P $c)" bin/$c
	done
	stub id 'echo "${STUB_UID:-1000}"'
	stub sudo 'echo "sudo $*" >> log
[ "${STUB_SUDO:-}" = ok ] || { echo "sudo: a password is required" >&2; exit 1; }
shift; exec "$@"'
	stub apt-cache '[ -z "${STUB_NOLISTS:-}" ]'
	cat > bin/apt-get <<'SH'
#!/bin/sh
echo "${DEBIAN_FRONTEND:+DEBIAN_FRONTEND=$DEBIAN_FRONTEND }apt-get $*" >> log
[ "$1" = install ] || exit 0
[ -z "${STUB_FAIL:-}" ] || { echo "E: Unable to locate package"; exit 100; }
mkcmd() {
	printf '#!/bin/sh\n' > "installed/$1"
	chmod +x "installed/$1"
}
for p; do
	case $p in
	-* | install | "$STUB_EMPTY") ;;
	gcc) mkcmd cc ;;
	procps) mkcmd ps; mkcmd pkill ;;
	*) mkcmd "$p" ;;
	esac
done
SH
	chmod +x bin/apt-get
	export PATH=$PWD/bin:$PWD/installed
	unset CC
	: > log
}

# stub NAME BODY: a command NAME in bin/ that runs the shell code BODY.
stub() {
	printf '#!/bin/sh\n%s\n' "$2" > bin/$1
	chmod +x bin/$1
}

need() {
	run /bin/sh "$NEED" 'make check' "$@"
}

@test "nothing to do when every command is there" {
	need cat id
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	[ ! -s log ]
}

@test "no root, no sudo: the exact line to type, at once, nothing installed" {
	need cat ps spin
	[ "$status" -eq 1 ]
	[ "$output" = "make check needs: procps spin; install them with: sudo apt-get install -y procps spin" ]
	[ "$(cat log)" = "sudo -n true" ]
	[ -z "$(ls installed)" ]
}

@test "no root and no sudo program: the line is for su" {
	rm bin/sudo
	need spin ps
	[ "$status" -eq 1 ]
	[ "$output" = "make check needs: spin procps; install them with: su -c 'apt-get install -y spin procps'" ]
	[ ! -s log ]
}

@test "package lists apt does not know yet: the line updates them first" {
	STUB_NOLISTS=y need spin
	[ "$status" -eq 1 ]
	[ "$output" = "make check needs: spin; install them with: sudo apt-get update && sudo apt-get install -y spin" ]
	rm bin/sudo
	STUB_NOLISTS=y need spin
	[ "$output" = "make check needs: spin; install them with: su -c 'apt-get update && apt-get install -y spin'" ]
}

@test "root: one update, then one install of each missing package" {
	STUB_UID=0 need cc ps pkill spin cat
	[ "$status" -eq 0 ]
	[ "$output" = "installing for make check: gcc procps spin" ]
	[ "$(cat log)" = "DEBIAN_FRONTEND=noninteractive apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends gcc procps spin" ]
	[ -x installed/cc ] && [ -x installed/ps ] && [ -x installed/spin ]
}

@test "a header the C compiler cannot find: its package is installed" {
	stub cc '[ -x installed/libc6-dev ]'
	need cc stdio.h make
	[ "$status" -eq 1 ]
	[ "$output" = "make check needs: libc6-dev make; install them with: sudo apt-get install -y libc6-dev make" ]
	STUB_UID=0 need cc stdio.h
	[ "$status" -eq 0 ]
	[ "$output" = "installing for make check: libc6-dev" ]
}

@test "libFuzzer, which clang links only once its runtime is there" {
	stub clang '[ -x installed/libclang-rt-dev ] && cat > /dev/null'
	CC=clang STUB_UID=0 run /bin/sh "$NEED" 'make fuzz' clang libFuzzer
	[ "$status" -eq 0 ]
	[ "$output" = "installing for make fuzz: libclang-rt-dev" ]
	rm installed/libclang-rt-dev
	CC=clang run /bin/sh "$NEED" 'make fuzz' libFuzzer
	[ "$status" -eq 1 ]
	[ "$output" = "make fuzz needs: libclang-rt-dev; install them with: sudo apt-get install -y libclang-rt-dev" ]
}

@test "sudo -n that works: the same, through sudo" {
	STUB_SUDO=ok need spin
	[ "$status" -eq 0 ]
	[ "$output" = "installing for make check (through sudo -n): spin" ]
	[ "$(cat log)" = "sudo -n true
sudo -n env DEBIAN_FRONTEND=noninteractive apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get update -qq
sudo -n env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends spin
DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends spin" ]
	[ -x installed/spin ]
}

@test "a package that installs without the command is an error naming it" {
	STUB_UID=0 STUB_EMPTY=mandoc need spin mandoc
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = "installing for make check: spin mandoc" ]
	[ "${lines[1]}" = "make check: installed spin mandoc, but these are still missing: mandoc (package mandoc)" ]
}

@test "a failed install shows apt-get's output and fails" {
	STUB_UID=0 STUB_FAIL=y need spin
	[ "$status" -eq 1 ]
	[[ "$output" == *"E: Unable to locate package"* ]]
	[[ "$output" == *"make check: apt-get could not install: spin" ]]
	[ ! -e installed/spin ]
}

@test "no apt-get: the missing commands are named, nothing run" {
	rm bin/apt-get
	STUB_UID=0 need spin ps
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = "make check needs these, which are not installed: spin ps" ]
	[ ! -s log ]
}
