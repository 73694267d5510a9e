#!/bin/sh
# Lint the manual pages with mandoc, which must report nothing at warning
# level or above.  usage: manlint.sh page...
set -u
if ! command -v mandoc >/dev/null 2>&1; then
	echo "manlint: mandoc is not installed, pages not linted" \
	    "(apt-get install mandoc)" >&2
	exit 0
fi
out=$(mandoc -Tlint -W warning "$@" 2>&1)
if [ -n "$out" ]; then
	printf '%s\n' "$out" >&2
	exit 1
fi
echo "manlint: $# pages clean"
