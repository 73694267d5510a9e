#!/bin/sh
# The vfork-style child of lib/os/proc.c runs in wspx's memory while the
# parent thread waits: it may call syscall() and errno's function alone
# (no memcpy or strlen that the compiler made of a loop, no sanitizer
# hook).  Reads the disassembly of the object given.
#
#   sh tests/childcalls.sh lib/os/proc.o
set -eu
obj=$1
command -v objdump >/dev/null || { echo "childcalls: needs objdump" >&2; exit 1; }
calls=$(objdump -dr "$obj" | awk '
	/^[0-9a-f]+ <[^>]+>:$/ { f = ($2 ~ /^<child/) }
	f && /R_X86_64_PLT32|R_X86_64_GOTPCRELX|R_AARCH64_CALL26/ {
		sub(/-0x[0-9a-f]+$/, "", $NF); print $NF }' | sort -u)
bad=$(printf '%s\n' "$calls" | grep -v -x -e '' -e syscall \
    -e __errno_location || true)
if [ -n "$bad" ]; then
	echo "childcalls: $obj: the spawned child calls:" $bad >&2
	exit 1
fi
echo "childcalls: ok (calls: $(echo $calls))"
