#!/bin/sh
# The real shells against wspx's quoting, which the template fuzz target
# checks with a reading of each shell's quoting of its own (template.c):
# a reading that shared the quoter's mistake would pass what the shell
# gets wrong, so this runs each installed shell wspx quotes for on values
# that its quoting rules make hard, and checks that the shell gives back
# each value byte for byte, alone in a word and inside one:
#
#	sh tests/fuzz/template-shells.sh [WSPX [VALUE...]]
#
# WSPX is the program (./wspx); VALUEs are more values to try.  The
# values are those of the corpus's nasty-* and hostile-* seeds.  Prints
# each value a shell did not give back (in octal), and exits 1 if any.
# One run of wspx per shell, each value a job.
set -u

wspx=${1:-./wspx}
[ $# -gt 0 ] && shift
case $wspx in /*) ;; *) wspx=$PWD/$wspx ;; esac
fails=0
# (in a directory of its own, where a value that runs leaves its mark)
dir=$(mktemp -d "${TMPDIR:-/tmp}/wspx-shells.XXXXXX") || exit 2
trap 'rm -rf "$dir"' EXIT
trap 'exit 1' HUP INT TERM
cd "$dir" || exit 2

# The values, as printf formats, one a line (\n and \ooo are bytes).
# shellcheck disable=SC1003,SC2016
formats='a!b
!!
!$
^a^b
x\ny
it'"'"'s
back\\\\slash
a\\\\!b
a\\\\\nb
x\\\\
\\\\'"'"'
~
~root
#x
{a,b}
(x)
%%self
%%
%%%%self
%%1
a=b
=ls
a\200b\377c
\303\251
\357\230\200
\355\240\200
\001\002\033[1m
\t\v\f\r
 lead and trail \n\n
$(touch pwned1)
`touch pwned2`
'"'"'; touch pwned3; '"'"'
"; touch pwned4; "
a b
*
?
[a]
$HOME
\\\\
x;touch pwned5
-n
--
@x
+x
:x
,x
./x
-'

# The values into the file vals, each ended by a NUL, and each also into
# want.N (N from 1), so that a shell's output can be compared to it.
values() {
	n=0
	: > vals
	printf '%s\n' "$formats" | {
		while IFS= read -r f; do
			n=$((n + 1))
			# shellcheck disable=SC2059 # (the formats are the values)
			printf -- "$f" > want.$n
			# shellcheck disable=SC2059
			printf -- "$f\000" >> vals
		done
		for v; do
			n=$((n + 1))
			printf '%s' "$v" > want.$n
			printf '%s\000' "$v" >> vals
		done
		echo "$n" > count
	}
}

# Run each value through `wspx --shell $1` in the template $2, which
# writes $3 VALUE $4 to out.N; each must come back.
check() {
	rm -f out.*
	"$wspx" --shell "$1" -0 -a vals "$2 > out.{#}" ||
	    echo "$1: wspx exited with status $?"
	i=1 wrong=0
	while [ "$i" -le "$(cat count)" ]; do
		want=$(printf %s "$3"; cat want.$i; printf '%s.' "$4")
		got=$(cat out.$i 2> /dev/null; echo .)
		if [ "$got" != "$want" ]; then
			printf '%s: %s: ' "$1" "$2"
			printf '%s' "${want%.}" | od -An -c | tr -s ' \n' '  '
			printf '\n  came back as'
			printf '%s' "${got%.}" | od -An -c | tr -s ' \n' '  '
			printf '\n'
			wrong=$((wrong + 1))
		fi
		i=$((i + 1))
	done
	echo "$1: $2: $(cat count) values, $wrong wrong"
	[ "$wrong" -eq 0 ]
}

# A long value: the csh family reads long words by parts.
long=$(awk 'BEGIN { for (i = 0; i < 3000; i++) printf "a'"'"'b!c\n"; }')
values "$@" "$long"
for sh in sh dash bash zsh ksh mksh busybox fish csh tcsh; do
	command -v "$sh" > /dev/null 2>&1 || continue
	check "$sh" "printf '%s' {}" '' '' || fails=1
	check "$sh" "printf '%s' x{}y" x y || fails=1
done
if ls pwned? 2> /dev/null; then
	echo "a value ran as a command"
	exit 1
fi
exit "$fails"
