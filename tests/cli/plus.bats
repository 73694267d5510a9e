#!/usr/bin/env bats
# --plus replacement strings ({+/} {+.} {+..} {+...} {..} {...} {/..}
# {/...} {##} {0#} {0%}, and their positional forms), plain text without
# --plus, and --files; each compared with GNU parallel.

load helper
load gnu

VALUES='dir/sub/file.tar.gz a.b noext .hidden dir.d/file /abs/x.y.z.w
./rel.a.b.c a.b.c.d.e dir/.hid.x a.b.c/d.e'

@test "--plus: every path string on names with and without dots and slashes" {
	local s
	for s in '{+/}' '{+.}' '{+..}' '{+...}' '{..}' '{...}' '{/..}' \
	    '{/...}' '{.}' '{/.}' '{//}' '{/}'; do
		same -k --plus -q printf '[%s]\n' "$s" ::: $VALUES
	done
	same -k --plus -q printf '%s|' {+/} {/..} {+..} ::: dir/sub/file.tar.gz
	[ "$(cat wspx.out)" = "dir/sub|file|tar.gz|" ]
	same -k --plus -q printf '%s|' {..} {...} {+...} {/...} ::: a.b.c.d.e
	[ "$(cat wspx.out)" = "a.b.c|a.b|c.d.e|a.b|" ]
	same -k --plus -q printf '[%s]' {+.} {+/} ::: noext
	[ "$(cat wspx.out)" = "[][]" ]
}

@test "--plus: the positional forms {1..} {2+/} {-1..} and the like" {
	local s
	for s in '{1..}' '{1...}' '{1+/}' '{1+.}' '{1+..}' '{1+...}' \
	    '{1/..}' '{1/...}' '{2..}' '{-1..}' '{2+/}'; do
		same -k --plus -q printf '[%s]\n' "$s" ::: $VALUES ::: x/y.tar.gz
	done
	same -k --plus echo {1+..} {-1..} ::: dir/sub/file.tar.gz ::: x/y.tar.gz
	[ "$(cat wspx.out)" = "tar.gz x/y" ]
}

@test "--plus: {##} is the number of jobs and {0#} {#} padded to its width" {
	same -k -j1 --plus echo {##} {0#} ::: $(seq 12)
	[ "$(head -1 wspx.out)" = "12 01" ]
	[ "$(tail -1 wspx.out)" = "12 12" ]
	same -k -j1 --plus echo {0#} ::: $(seq 100)
	[ "$(sed -n 7p wspx.out)" = "007" ]
	same -k -j1 --plus echo {##} ::: a b c
	same -k -j1 --plus echo {##}-{0#} ::: a
	same -k -X --plus echo {##} ::: a.x b.y
}

@test "--plus: -X and -N do not repeat the words of {##} {0#} {0%}" {
	# they are strings of the job, as {#} is, not of each record
	same -k -N2 --plus echo {##} {0#} ::: 1 2 3 4
	[ "$(cat wspx.out)" = "$(printf '2 1\n2 2')" ]
	same -k -j1 -N2 --plus echo {##} {0#} ::: $(seq 20)
	# (-j1: which of two jobs starting together takes slot 1 is not
	# fixed, in wspx or GNU parallel)
	same -k -j1 -N2 --plus echo {0%} ::: 1 2 3 4
	same -k -j1 -X --plus echo {0%} {} ::: 1 2 3 4
	[ "$(cat wspx.out)" = "1 1 2 3 4" ]
}

@test "--plus: {0%} is the slot padded to the width of -j" {
	# which slot a job gets depends on timing: check the form, as GNU's
	same -k -j1 --plus echo {0%} ::: a b c
	[ "$(cat wspx.out)" = "$(printf '1\n1\n1')" ]
	needgnu
	run "$WSPX" -j10 --plus echo {0%} ::: $(seq 12)
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | grep -cE '^(0[1-9]|10)$')" -eq 12 ]
	run parallel -j10 --plus echo {0%} ::: $(seq 12)
	[ "$(printf '%s\n' "$output" | grep -cE '^(0[1-9]|10)$')" -eq 12 ]
	run "$WSPX" -j3 --plus echo {0%} ::: $(seq 12)
	[ "$(printf '%s\n' "$output" | grep -cE '^[1-3]$')" -eq 12 ]
}

@test "--plus strings work in the words of -X and -m" {
	same -k -j1 -m --plus echo {+.} ::: a.x b.y
	[ "$(cat wspx.out)" = "x y" ]
	same -k -j1 -X --plus echo pre{+.} ::: a.x b.y
	[ "$(cat wspx.out)" = "prex prey" ]
	same -k -j1 -X --plus echo {/..}.{+..} ::: d/a.t.z e/b.t.z
}

@test "without --plus the --plus strings are plain text, as in GNU parallel" {
	local s
	for s in '{+/}' '{+.}' '{+..}' '{+...}' '{..}' '{...}' '{/..}' \
	    '{/...}' '{##}' '{1..}'; do
		same -k -q printf '[%s]\n' "$s" ::: a.b.c/d.e
		same -k echo "$s" ::: a.b.c/d.e
	done
	same -k echo '{+/}x' ::: a/b
	[ "$(cat wspx.out)" = "{+/}x a/b" ]
}

@test "without --plus, {0#} and {0%} are read as GNU parallel reads them" {
	# GNU parallel 20221122 takes them for {#} and {%} (its positional
	# form with 0) without --plus: echo {0#} ::: a gives 1, not {0#} a
	same -k -j1 echo {0#} ::: a b c
	same -k -j1 echo {0%} ::: a b c
}

@test "--files -k: one name per job in input order, files hold each stdout" {
	needgnu
	mkdir g w
	cmd='sleep 0.$((3 - {})); echo out{}; echo err{} >&2'
	parallel -k --files --tmpdir g "$cmd" ::: 0 1 2 > g.names 2> g.err
	run sh -c '"$WSPX" -k --files --tmpdir w "$0" ::: 0 1 2 2> w.err' "$cmd"
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 3 ]
	local f
	for f in "${lines[@]}"; do
		[[ $f == w/par*.par ]]
		[ -f "$f" ]
	done
	[ "$(ls w | wc -l)" -eq 3 ]
	for f in $(cat g.names); do cat "$f"; done > g.all
	for f in "${lines[@]}"; do cat "$f"; done > w.all
	[ "$(cat w.all)" = "$(printf 'out0\nout1\nout2')" ]
	cmp g.all w.all
	# stderr is still printed, in input order, and not put in the files
	# (GNU parallel 20221122 prints no stderr at all with --files)
	[ "$(cat w.err)" = "$(printf 'err0\nerr1\nerr2')" ]
}

@test "--files without -k: one name per job, the same contents as GNU's" {
	needgnu
	mkdir g w
	parallel --files --tmpdir g 'echo {}; echo {}{}' ::: a b c d > g.names
	"$WSPX" --files --tmpdir w 'echo {}; echo {}{}' ::: a b c d > w.names
	[ "$(wc -l < w.names)" -eq 4 ]
	[ "$(for f in $(cat w.names); do cat "$f" | tr '\n' ' '; echo; done |
	    sort)" = "$(for f in $(cat g.names); do cat "$f" | tr '\n' ' '
	    echo; done | sort)" ]
}

@test "--files: failing jobs keep GNU's exit status, and their files" {
	needgnu
	mkdir g w
	st=0
	parallel -k --files --tmpdir g 'echo out{}; exit {}' ::: 3 1 2 0 \
	    > g.names || st=$?
	run sh -c '"$WSPX" -k --files --tmpdir w "echo out{}; exit {}" \
	    ::: 3 1 2 0 2> /dev/null'
	[ "$status" -eq "$st" ]
	[ "$status" -eq 3 ]
	[ "${#lines[@]}" -eq 4 ]
	[ "$(for f in "${lines[@]}"; do cat "$f"; done)" = \
	    "$(for f in $(cat g.names); do cat "$f"; done)" ]
}

@test "--files puts the files in \$TMPDIR by default, as GNU parallel does" {
	needgnu
	mkdir t
	TMPDIR=$PWD/t parallel --files echo ::: a > g.names
	TMPDIR=$PWD/t "$WSPX" --files echo ::: a > w.names
	[ "$(dirname "$(cat w.names)")" = "$(dirname "$(cat g.names)")" ]
	[ "$(cat "$(cat w.names)")" = a ]
}

@test "--files cannot be combined with --results or -u" {
	run "$WSPX" --files --results out echo ::: a
	[ "$status" -eq 255 ]
	[[ "$output" == *"--files and --results cannot be combined"* ]]
	[ ! -e out ]
	run "$WSPX" --files -u echo ::: a
	[ "$status" -eq 255 ]
	[[ "$output" == *"--files and -u cannot be combined"* ]]
}
