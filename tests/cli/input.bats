#!/usr/bin/env bats
# Input sources: stdin lines, -a, ::: and ::::, cross products, -0, -d,
# --colsep, -n, and the edges (empty input, a last line without newline).

load helper

@test "each stdin line is one job, in order with -j1" {
	run sh -c 'printf "a\nb c\nd\n" | "$WSPX" -j1 echo X'
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf 'X a\nX b c\nX d')" ]
}

@test "a last line without a newline is still a job" {
	run sh -c 'printf "a\nb" | "$WSPX" -k echo'
	[ "$output" = "$(printf 'a\nb')" ]
}

@test "an empty line is a job with an empty argument" {
	printf 'a\n\nb\n' > in
	run "$WSPX" -k -a in 'printf "[%s]\n"'
	[ "$output" = "$(printf '[a]\n[]\n[b]')" ]
}

@test "empty input runs nothing and succeeds" {
	run sh -c ': | "$WSPX" touch ran'
	[ "$status" -eq 0 ]
	[ ! -e ran ]
	run "$WSPX" touch ran ::: 
	[ "$status" -eq 0 ]
	[ ! -e ran ]
}

@test "::: sources combine as a cross product, the first slowest" {
	run "$WSPX" -k echo {1}{2} ::: a b ::: 1 2 3
	[ "$output" = "$(printf 'a1\na2\na3\nb1\nb2\nb3')" ]
}

@test ":::: FILE and -a FILE read records from files" {
	printf 'x\ny\n' > f1
	printf '1\n2\n' > f2
	run "$WSPX" -k echo {1}-{2} :::: f1 f2
	[ "$output" = "$(printf 'x-1\nx-2\ny-1\ny-2')" ]
	run "$WSPX" -k -a f1 echo
	[ "$output" = "$(printf 'x\ny')" ]
	run "$WSPX" -k -a f1 -a f2 echo {2}{1}
	[ "$output" = "$(printf '1x\n2x\n1y\n2y')" ]
}

@test "a missing or unreadable input file is an error naming the file" {
	run "$WSPX" echo :::: no-such-file
	[ "$status" -eq 255 ]
	[[ "$output" == *"no-such-file"* ]]
	mkdir adir
	run "$WSPX" echo :::: adir
	[ "$status" -eq 255 ]
	[[ "$output" == *"adir"* ]]
}

@test "-0 splits input at NUL, keeping newlines inside records" {
	printf 'one\ntwo\0three\0' > in
	run "$WSPX" -0 -k -a in 'printf "<%s>\n"'
	[ "$output" = "$(printf '<one\ntwo>\n<three>')" ]
}

@test "a NUL in newline-separated input skips that record, with an error" {
	printf 'a\nimportant\0.bak\nb\n' > in
	run sh -c '"$WSPX" -k echo rm :::: in 2> err'
	[ "$status" -eq 255 ]
	[ "$output" = "$(printf 'rm a\nrm b')" ]
	[[ "$(cat err)" == "wspx: in: line 2 has a NUL byte: skipped"* ]]
	printf 'x,y\0z,w' | "$WSPX" -k -d , echo > out 2> err || [ $? -eq 255 ]
	[ "$(cat out)" = "$(printf 'x\nw')" ]
	grep -q "standard input: record 2 has a NUL byte" err
}

@test "-d sets the record separator" {
	run sh -c 'printf "a,b,c" | "$WSPX" -d , -k echo'
	[ "$output" = "$(printf 'a\nb\nc')" ]
	run sh -c 'printf "a\tb" | "$WSPX" -d "\\t" -k echo'
	[ "$output" = "$(printf 'a\nb')" ]
	run "$WSPX" -d ab echo ::: x
	[ "$status" -eq 255 ]
	[[ "$output" == *"-d"* ]]
}

@test "--colsep splits records into fields {1} {2}" {
	run sh -c 'printf "a:1\nb:2\n" | "$WSPX" -k --colsep : echo {2}{1}'
	[ "$output" = "$(printf '1a\n2b')" ]
	run sh -c 'printf "a  1\n" | "$WSPX" --colsep " +" echo {2}'
	[ "$output" = "1" ]
	run "$WSPX" --colsep "(" echo ::: x
	[ "$status" -eq 255 ]
	[[ "$output" == *"--colsep"* ]]
}

@test "--colsep knows Perl's \\t, \\d and \\s, as GNU parallel does" {
	run "$WSPX" -k --colsep '\t' echo {2} ::: "$(printf 'a\tb')" atb
	[ "$output" = "$(printf 'b\n')" ]
	run "$WSPX" -k --colsep '[\t,]' echo {2} ::: "$(printf 'a\tb')" c,d
	[ "$output" = "$(printf 'b\nd')" ]
	run "$WSPX" --colsep '\d+' echo {1}-{2} ::: a12b
	[ "$output" = a-b ]
	run "$WSPX" --colsep '[[:space:],]+' echo {2} ::: 'a , b'
	[ "$output" = b ]
	run "$WSPX" --colsep '' echo ::: a
	[ "$status" -eq 255 ]
	[[ "$output" == *"--colsep: '' is empty"* ]]
}

@test "-r skips empty and blank records, of every source" {
	printf 'a\n\n  \nb\n' > in
	run "$WSPX" -k -r echo x{} :::: in
	[ "$output" = "$(printf 'xa\nxb')" ]
	run "$WSPX" -k --no-run-if-empty echo x{} ::: a '' ' ' b
	[ "$output" = "$(printf 'xa\nxb')" ]
	run "$WSPX" -k echo x{} :::: in
	[ "${#lines[@]}" -eq 4 ]
}

@test "-n puts N records in each job" {
	run sh -c 'seq 7 | "$WSPX" -k -n 3 echo'
	[ "$output" = "$(printf '1 2 3\n4 5 6\n7')" ]
	run sh -c 'seq 4 | "$WSPX" -k -n 2 echo {2}-{1}'
	[ "$output" = "$(printf '2-1\n4-3')" ]
	run "$WSPX" -n -1 echo ::: x
	[ "$status" -eq 255 ]
	[[ "$output" == *"-n: '-1' is not a"* ]]
	# (0 is taken: the message says so)
	for v in -1 0x 1.5; do
		run "$WSPX" -N "$v" echo ::: x
		[ "$status" -eq 255 ]
		[[ "$output" == *"-N: '$v' is not a whole number (0 or more)"* ]]
	done
}

@test "input is read lazily: jobs start before the input ends" {
	mkfifo in
	"$WSPX" -j2 touch < in > out 2>&1 3>&- &
	exec 7> in
	echo first >&7
	waitfile first
	echo second >&7
	exec 7>&-
	wait $!
	[ -e second ]
}

@test "--colsep trims white space off each field, as GNU parallel does" {
	run "$WSPX" --colsep , -q printf '[%s]' {1} {2} ::: ' a , b '
	[ "$output" = "[a][b]" ]
	printf ' p , q \n' > in
	run "$WSPX" -a in -C , -q printf '[%s]' {}
	[ "$output" = "[p][q]" ]
	run "$WSPX" --colsep , --tag echo x ::: ' a , b '
	[ "$output" = "$(printf 'a b\tx a b')" ]
}

@test "--trim n, l, r, lr and rl, with --colsep or without" {
	run "$WSPX" --trim n --colsep , -q printf '[%s]' {1} {2} ::: ' a , b '
	[ "$output" = "[ a ][ b ]" ]
	run "$WSPX" --trim l --colsep , -q printf '[%s]' {1} {2} ::: ' a , b '
	[ "$output" = "[a ][b ]" ]
	run "$WSPX" --trim r --colsep , -q printf '[%s]' {1} {2} ::: ' a , b '
	[ "$output" = "[ a][ b]" ]
	run "$WSPX" --trim rl --colsep , -q printf '[%s]' {1} {2} ::: ' a , b '
	[ "$output" = "[a][b]" ]
	run "$WSPX" --trim lr -q printf '[%s]' {1} {2} ::: ' x ' ::: ' y '
	[ "$output" = "[x][y]" ]
	run "$WSPX" -q printf '[%s]' {} ::: ' a b '
	[ "$output" = "[ a b ]" ]
	printf '  echo  a  \n' > in
	run "$WSPX" --trim lr --dry-run -a in
	[ "$output" = "echo  a" ]
}

@test "--trim takes off ASCII white space only, whatever the locale" {
	printf '\t\v\f\r a\302\240\205 \r\n' > in
	"$WSPX" --trim lr -q printf '[%s]' < in > out
	printf '[a\302\240\205]' | cmp - out
	LC_ALL=C.UTF-8 "$WSPX" --trim lr -q printf '[%s]' < in > out
	printf '[a\302\240\205]' | cmp - out
}

@test "--trim with a bad value, or none, is an error that names it" {
	run "$WSPX" --trim x echo ::: a
	[ "$status" -eq 255 ]
	[[ "$output" == *"--trim: 'x' is not n, l, r, lr or rl"* ]]
	run "$WSPX" --trim
	[ "$status" -eq 255 ]
	[[ "$output" == *"--trim needs a value"* ]]
}

@test "a regex whose repetitions multiply past 65536 copies is refused, not compiled for minutes (found by tests/fuzz/pipe)" {
	run "$WSPX" --colsep '(a{1,99}){1,99}{1,99}' echo ::: a
	[ "$status" -eq 255 ]
	[[ "$output" == *"--colsep"*"too complex"* ]]
	run "$WSPX" --pipe --regexp --recstart 'x{1,300}{1,300}' cat < /dev/null
	[ "$status" -eq 255 ]
	[[ "$output" == *"--recstart"*"too complex"* ]]
	run "$WSPX" --pipe --header '(a{1,999}){1,999}' cat < /dev/null
	[ "$status" -eq 255 ]
	[[ "$output" == *"--header"*"too complex"* ]]
	# copies that may match nothing cost regcomp() the square of their
	# number (a{1,32767}: a minute and 8 GB), and chains of them, or
	# groups 20000 deep, overflow its stack (found in review)
	for re in 'a{1,32767}' '(a?){24000}' '(|a){32767}' \
	    "$(printf '%20000s' | tr ' ' '(')a$(printf '%20000s' | tr ' ' ')')"; do
		run "$WSPX" --colsep "$re" echo ::: a
		[ "$status" -eq 255 ]
		[[ "$output" == *"--colsep"*"too complex"* ]]
	done
	# a loop over what may match nothing doubles regcomp()'s time when
	# there is an anchor: the options target's finding took a minute
	# (tests/fuzz/corpus/options/finding-anchor-nested-stars)
	for re in '~-$r**********' '^(a*)*(a*)*(a*)*(a*)*(a*)*(a*)*(a*)*(a*)*(a*)*' \
	    '\b(a|)+(b|)+(c|)+(d|)+(e|)+(f|)+(g|)+(h|)+(i|)+' \
	    '$((a)*)*((a)*)*((a)*)*((a)*)*((a)*)*((a)*)*((a)*)*((a)*)*((a)*)*' \
	    '((a?){2,}){9}'; do
		run timeout 100 "$WSPX" --colsep "$re" echo ::: a
		[ "$status" -eq 255 ]
		[[ "$output" == *"--colsep"*"over 8 unbounded repetitions"* ]]
	done
	run "$WSPX" --colsep '^(a*)*(a*)*(a*)*(a*)*(a*)*(a*)*(a*)*(a*)*' echo ::: xay
	[ "$status" -eq 0 ]
	# each within the bound, the two joined past it: both are named
	run "$WSPX" --pipe --regexp --recstart '^(a*)*(a*)*(a*)*(a*)*' \
	    --recend '(b*)*(b*)*(b*)*(b*)*(b*)*' cat < /dev/null
	[ "$status" -eq 255 ]
	[[ "$output" == *"--recend with --recstart: '((b*)*"*"too complex"* ]]
	# a loop over repetitions nested in each other that may match
	# nothing: regcomp() took seconds, and more (found by tests/fuzz/pipe,
	# tests/fuzz/corpus/pipe/finding-regcomp-nested-optional-loop)
	for re in "a$(printf '%43s' | tr ' ' '?')+++" \
	    "$(printf '%43s' | tr ' ' '(')a$(printf '%43s' | sed 's/ /)?/g')+" \
	    '((((((((((a)?)?)?)?)?)?)?)?)?)?+++'; do
		run timeout 100 "$WSPX" --pipe --regexp --recend "$re" cat \
		    < /dev/null
		[ "$status" -eq 255 ]
		[[ "$output" == *"--recend"*"a loop over repetitions nested"* ]]
	done
	# such repetitions one after another before such a loop: the empty
	# paths through them multiply (found by tests/fuzz/pipe,
	# tests/fuzz/corpus/pipe/finding-regcomp-optional-chain-loop)
	local q31 q39
	q31=$(printf '%31s' | tr ' ' '?')
	q39=$(printf '%39s' | tr ' ' '?')
	for re in "a$q39""b$q39""c$q31+" "a??a??a??a??a??a??a??a??a??a??a??a??c$q31+" \
	    "(.*?)(.*?)(.*?)(.*?)(.*?)(.*?)(.*?)(.*?)(.*?)(.*?)(.*?)(.*?)c$q31+"; do
		run timeout 100 "$WSPX" --pipe --regexp --recend "$re" cat \
		    < /dev/null
		[ "$status" -eq 255 ]
		[[ "$output" == *"--recend"*"before a loop over such repetitions"* ]]
	done
	# and so do the copies of one ({5}, +) (tests/fuzz/corpus/pipe/
	# finding-regcomp-copies-chain-loop: 79 s of regcomp())
	local q34 q20
	q34=$(printf '%34s' | tr ' ' '?')
	q20=$(printf '%20s' | tr ' ' '?')
	for re in "CT++++$q34{5}???????????>????+\\0AC" "T$q20{5}>?+" \
	    "(a??){15}(b?)*"; do
		run timeout 100 "$WSPX" --pipe --regexp --recstart "$re" cat \
		    < /dev/null
		[ "$status" -eq 255 ]
		[[ "$output" == *"--recstart"*"before a loop over such repetitions"* ]]
	done
	run "$WSPX" --pipe --regexp --recstart "T$q20{2}>?+" cat < /dev/null
	[ "$status" -eq 0 ]
	# a loop before them counts: a+ ends in a* (tests/fuzz/corpus/pipe/
	# finding-regcomp-loop-before-chain)
	local q13
	q13=$(printf '%13s' | tr ' ' '?')
	run timeout 100 "$WSPX" --pipe --regexp --recend \
	    "x+++a${q13}b${q13}c????+" cat < /dev/null
	[ "$status" -eq 255 ]
	[[ "$output" == *"before a loop over such repetitions"* ]]
	run "$WSPX" --pipe --regexp --recend "xa${q13}b${q13}c????+" cat \
	    < /dev/null
	[ "$status" -eq 0 ]
	# an anchor before them doubles the cost of each loop after it
	# (tests/fuzz/corpus/pipe/finding-regcomp-anchor-chain-loop: 14 s
	# under ASan): refused, as is the same without the anchor taken
	local q30
	q30=$(printf '%30s' | tr ' ' '?')
	for a in '^' '$' '\b'; do
		run timeout 100 "$WSPX" --pipe --regexp --recstart \
		    "en?????x${q30}${a}>??+++AC" cat < /dev/null
		[ "$status" -eq 255 ]
		[[ "$output" == *"--recstart"*"an anchor"*"before loops over such"* ]]
	done
	run "$WSPX" --pipe --regexp --recstart "en?????x${q30}>??+++AC" cat \
	    < /dev/null
	[ "$status" -eq 0 ]
	# not one after another, or after a loop, or short: taken
	for re in "a${q39}X""b${q39}X""c$q31+" "c$q31+a${q39}b$q39" \
	    "a??a??a??(c?)+" '(\s*,?\s*)+' '^(.*?),(.*?),(.*?),(.*?);\s*' \
	    '^(\s*,?\s*)+$' '^>(\s*\S*\s*)+' '\b(a?b?c?)*\b'; do
		run "$WSPX" --pipe --regexp --recend "$re" cat < /dev/null
		[ "$status" -eq 0 ]
	done
	# the same nesting with no loop, or not as deep, is taken
	run "$WSPX" --colsep "a$(printf '%43s' | tr ' ' '?')" echo ::: xay
	[ "$status" -eq 0 ]
	run "$WSPX" --colsep '((((a)?)?)?)?+' echo ::: xay
	[ "$status" -eq 0 ]
	# one repetition at the C library's own bound is taken, and a
	# thousand optional copies
	run "$WSPX" --colsep 'a{32767}' echo ::: xay
	[ "$status" -eq 0 ]
	[ "$output" = "xay" ]
	run "$WSPX" --colsep 'a{1,1000}' echo ::: xay
	[ "$status" -eq 0 ]
	[ "$output" = "x y" ]
	run "$WSPX" --colsep '[0-9]{1,3}(\.[0-9]{1,3}){3}|(a|b)*c{2,}' echo ::: x1.2.3.4y
	[ "$status" -eq 0 ]
	[ "$output" = "x y" ]
}

@test "a regex that no bound refuses but takes the C library over 1 s of CPU to compile is refused after a trial" {
	# each took glibc's regcomp() over 100 s; found by a random search
	# of the shapes the bounds above let by
	for re in 'a???{3}{0,3}{1,}{1,}^' 'bb*?{5}{5}+???{2}'; do
		run timeout 100 "$WSPX" --colsep "$re" echo ::: a
		[ "$status" -eq 255 ]
		[[ "$output" == *"--colsep: '$re' is not a regular expression: too complex for the C library: compiling it took over 1 s of CPU time"* ]]
	done
	run timeout 100 "$WSPX" --pipe --regexp --recend '^()^x+(\b){0,3}{0,3}++' \
	    cat < /dev/null
	[ "$status" -eq 255 ]
	[[ "$output" == *"--recend"*"compiling it took over 1 s of CPU time"* ]]
	# one that compiles within it is taken, and used
	run "$WSPX" --colsep '(a?b?)*x(c??)+' echo {2} ::: 1ax2
	[ "$status" -eq 0 ]
	[ "$output" = "2" ]
}
