#!/bin/sh
# The library's symbol rules (STYLE.md, section 2): every global symbol in
# the static library is either public, wspx_<name> declared in wspx.h, or
# internal, wspx__<name>; the shared library exports exactly the public
# ones.  The library is the runtime alone (STYLE.md, section 1): it needs
# no symbol of the engine nor of libyaml, and the shared library does not
# load libyaml; the engine, linked into the program only, defines no
# public symbol.
# usage: symbols.sh libwspx.a libwspx.so lib/wspx.h libwspx-engine.a
set -u
archive=$1 shared=$2 header=$3 engine=$4
status=0

bad() {
	echo "symbols: $*" >&2
	status=1
}

defined=$(nm -g --defined-only "$archive" | awk 'NF == 3 { print $3 }' | sort -u)
for sym in $defined; do
	case $sym in
	wspx__*) ;;
	wspx_*)
		grep -q "[^a-z_]$sym(" "$header" ||
		    bad "$sym is global but not declared in $header" ;;
	*)
		bad "$sym: a global symbol without the wspx_ prefix" ;;
	esac
done

# What the library's objects need and do not define: only the C library
# and threads, never wspx__ symbols of the engine, nor yaml_*.
needed=$(nm -g --undefined-only "$archive" | awk '{ print $NF }' | sort -u)
for sym in $needed; do
	case $sym in
	wspx_*|yaml_*)
		printf '%s\n' $defined | grep -qxF "$sym" ||
		    bad "$archive needs $sym, which it does not define" ;;
	esac
done
if ! needs=$(readelf -d "$shared"); then
	bad "cannot read the dynamic section of $shared (readelf)"
elif printf '%s\n' "$needs" | grep -q 'NEEDED.*libyaml'; then
	bad "$shared loads libyaml"
fi

for sym in $(nm -g --defined-only "$engine" | awk 'NF == 3 { print $3 }'); do
	case $sym in
	wspx__*) ;;
	*) bad "$engine defines $sym: the engine's symbols are wspx__" ;;
	esac
done

exported=$(nm -D --defined-only "$shared" |
    awk 'NF == 3 && $2 != "A" { sub(/@.*/, "", $3); print $3 }' | sort -u)
public=$(printf '%s\n' $defined | grep -v '^wspx__' | sort -u)
if [ "$exported" != "$public" ]; then
	bad "$shared exports other than the public API:"
	printf '%s\n' "$exported" | grep -vxF "$public" >&2
	printf '%s\n' "$public" | grep -vxF "$exported" | sed 's/^/missing: /' >&2
fi
[ $status -eq 0 ] && echo "symbols: $(printf '%s\n' $public | wc -l) public, $(printf '%s\n' $defined | grep -c '^wspx__') internal, all prefixed; the library needs nothing of the engine or libyaml"
exit $status
