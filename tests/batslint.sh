#!/bin/sh
# A negated command (`! cmd`) in a bats test asserts nothing unless it is
# the test's (or the function's) last: bash's errexit ignores the status
# of a `!` pipeline.  Elsewhere it must be `! cmd || false`, or use run.
# Prints each offending line as FILE:LINE and fails if there is one.
# Lines inside a heredoc are not code; a `!` that opens a || or && list
# is the list's business.
#
#   sh tests/batslint.sh tests/cli/*.bats
status=0
for f in "$@"; do
	awk -v file="$f" '
	function goeson(l) { return l ~ /(\\|\|\||&&|\|)[ \t]*$/ }
	heredoc != "" {
		if ($0 ~ "^\t*" heredoc "[ \t]*$")
			heredoc = ""
		next
	}
	{
		code = $0 !~ /^[ \t]*(#.*)?$/
		if (code && pending) {
			if ($0 !~ /^[ \t]*}[ \t]*$/) {
				print file ":" pending
				bad = 1
			}
			pending = 0
		}
		if (code && !incmd && $0 ~ /^[ \t]*! /)
			neg = NR
		if (code && neg && $0 ~ /(\|\||&&)[ \t]*$/)
			neg = 0
		if (code && !goeson($0)) {
			if (neg && $0 !~ /\|\|[ \t]*false[ \t]*$/)
				pending = neg
			neg = 0
		}
		if (code)
			incmd = goeson($0)
		if (match($0, /(^|[^<])<<-?[ \t]*["\047]?[A-Za-z_]+/)) {
			heredoc = substr($0, RSTART, RLENGTH)
			sub(/^[^<]?<<-?[ \t]*["\047]?/, "", heredoc)
		}
	}
	END { exit bad }' "$f" || status=1
done
exit $status
