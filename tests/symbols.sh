#!/bin/sh
# The library's symbol rules (STYLE.md, section 2): every global symbol in
# the static library is either public, wspx_<name> declared in wspx.h, or
# internal, wspx__<name>; the shared library exports exactly the public ones.
# usage: symbols.sh libwspx.a libwspx.so lib/wspx.h
set -u
archive=$1 shared=$2 header=$3
status=0

defined=$(nm -g --defined-only "$archive" | awk 'NF == 3 { print $3 }' | sort -u)
for sym in $defined; do
	case $sym in
	wspx__*) ;;
	wspx_*)
		if ! grep -q "[^a-z_]$sym(" "$header"; then
			echo "symbols: $sym is global but not declared in $header" >&2
			status=1
		fi ;;
	*)
		echo "symbols: $sym: a global symbol without the wspx_ prefix" >&2
		status=1 ;;
	esac
done

exported=$(nm -D --defined-only "$shared" |
    awk 'NF == 3 && $2 != "A" { sub(/@.*/, "", $3); print $3 }' | sort -u)
public=$(printf '%s\n' $defined | grep -v '^wspx__' | sort -u)
if [ "$exported" != "$public" ]; then
	echo "symbols: $shared exports other than the public API:" >&2
	printf '%s\n' "$exported" | grep -vxF "$public" >&2
	printf '%s\n' "$public" | grep -vxF "$exported" | sed 's/^/missing: /' >&2
	status=1
fi
[ $status -eq 0 ] && echo "symbols: $(printf '%s\n' $public | wc -l) public, $(printf '%s\n' $defined | grep -c '^wspx__') internal, all prefixed"
exit $status
