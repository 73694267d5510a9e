#!/usr/bin/env bats
# Many records per job: -X, -m and --xargs (context replacement, records
# appended, spreading over -j, -s grouping, -n), -N, -L/-l, -E/-e,
# --arg-sep/--arg-file-sep, -0 -X on find's names, -x and --show-limits,
# each compared with GNU parallel on the same input where they agree.

load helper
load gnu

@test "-X repeats each word holding {} once per record, as GNU parallel does" {
	same -k -j1 -X echo pre-{}-post ::: a b
	[ "$(cat wspx.out)" = "pre-a-post pre-b-post" ]
	same -k -j1 -X echo mv {} {}.bak ::: a b
	[ "$(cat wspx.out)" = "mv a b a.bak b.bak" ]
	same -k -j1 -X echo {} {} ::: a b
	same -k -j1 -X echo {}{} ::: a b
	same -k -j1 -X echo {.}.x {/} ::: d/a.c d/b.c
	same -k -j1 -X echo {1}-{2} ::: a b ::: 1 2
}

@test "-m puts the records in place of {} as one space-separated group" {
	same -k -j1 -m echo pre-{}-post ::: a b
	[ "$(cat wspx.out)" = "pre-a b-post" ]
	same -k -j1 -m echo mv {} {}.bak ::: a b
	[ "$(cat wspx.out)" = "mv a b a b.bak" ]
	same -k -j1 -m echo {.}.x {/} ::: d/a.c d/b.c
	same -k -j1 -m echo {1}-{2} ::: a b ::: 1 2
}

@test "-X and -m without {} append the records; {#} is not repeated" {
	same -k -j1 -X echo ::: a b c
	[ "$(cat wspx.out)" = "a b c" ]
	same -k -j1 -m echo x ::: a b c
	[ "$(cat wspx.out)" = "x a b c" ]
	same -k -j1 -X echo ::: a b ::: 1 2
	same -k -j2 -X echo {#} {} ::: a b c
	[ "$(cat wspx.out)" = "$(printf '1 a b\n2 c')" ]
	same -k -j2 -m echo {#}-{} ::: a b c
	same -k -j1 -X echo {#}:{} ::: a b c
	[ "$(cat wspx.out)" = "1:a 1:b 1:c" ]
}

@test "--xargs fills every line as far as -s allows, whatever -j" {
	same -k -j2 --xargs echo ::: 1 2 3 4 5 6 7 8 9 10
	[ "$(cat wspx.out)" = "1 2 3 4 5 6 7 8 9 10" ]
	same -k -j1 --xargs echo {} x ::: a b c
	same -k -j3 --xargs -s 20 echo ::: 1 2 3 4 5 6 7 8 9 10
	seq 30000 > nums
	IN=nums same -k -j2 --xargs -s 60000 echo
	[ "$(awk '{ printf "%s ", NF }' wspx.out)" = "11850 9999 8151 " ]
}

@test "a short input is spread evenly over the -j jobs" {
	local n
	for n in 5 6 7 8 9 10; do
		same -k -j2 -X echo ::: $(seq "$n")
		same -k -j3 -X echo ::: $(seq "$n")
		same -k -j2 -m echo ::: $(seq "$n")
		same -k -j3 -m echo x{} ::: $(seq "$n")
	done
	same -k -j3 -X echo ::: 1 2 3 4 5 6 7
	[ "$(cat wspx.out)" = "$(printf '1 2 3\n4 5 6\n7')" ]
}

@test "a long input fills lines and spreads only the last one over -j" {
	seq 30000 > nums
	# -s below GNU parallel's own cap (63664 here), so both use the same
	IN=nums same -k -j2 -s 60000 -X echo
	[ "$(awk '{ printf "%s ", NF }' wspx.out)" = "11850 9999 4076 4075 " ]
	IN=nums same -k -j3 -s 60000 -X echo
	IN=nums same -k -j2 -s 20000 -X echo
	IN=nums same -k -j3 -s 20000 -m echo
	# Deliberate difference: wspx's default -s is the system's limit, as
	# GNU xargs computes it (2 MB here for a program run directly), where
	# GNU parallel uses about 64 KiB: the 30000 records fit in one line,
	# so they are shared between the two jobs.
	run sh -c 'seq 30000 | "$WSPX" -k -j2 -X echo | awk "{ print NF }"'
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf '15000\n15000')" ]
}

@test "-s groups the records exactly as GNU parallel does" {
	same -k -j1 -X -s 20 echo ::: aaaa bbbb cccc dddd eeee ffff
	[ "$(cat wspx.out)" = "$(printf 'aaaa bbbb cccc\ndddd eeee ffff')" ]
	same -k -j1 -X -s 21 echo ::: aaaa bbbb cccc dddd eeee ffff
	same -k -j1 -m -s 20 echo ::: aaaa bbbb cccc dddd eeee ffff
	same -k -j1 --xargs -s 20 echo ::: aaaa bbbb cccc dddd eeee ffff
	same -k -j1 -X -s 15 echo x{} ::: aaaa bbbb cccc dddd eeee ffff
	# "echo a b c d" counts 13 with its NUL bytes
	same -k -j1 -X -s 13 echo ::: a b c d
	[ "$(cat wspx.out)" = "a b c d" ]
	same -k -j1 -X -s 12 echo ::: a b c d
	[ "$(cat wspx.out)" = "$(printf 'a b c\nd')" ]
}

@test "-n caps the records of a line with -X and -m" {
	same -k -j1 -n2 -X echo x{} ::: a b c d e
	[ "$(cat wspx.out)" = "$(printf 'xa xb\nxc xd\nxe')" ]
	same -k -j1 -n2 -m echo x{} ::: a b c d e
	[ "$(cat wspx.out)" = "$(printf 'xa b\nxc d\nxe')" ]
	same -k -j4 -n2 -X echo x{}y ::: a b c d e
	same -k -j1 -n3 -m echo {} {#} ::: a b c d e f g
	same -k -j2 -n4 -X echo ::: a b c d e f
	same -k -j2 -n3 -X echo ::: a b c d e f g h
	same -k -j3 -n4 -X echo ::: 1 2 3 4 5 6 7 8 9 10 11
}

@test "with -n or -L, a last line of exactly n records is still spread over -j" {
	# GNU parallel spreads the line that reaches the end of the input,
	# even when -n has just filled it: a b | c d | e | f
	same -k -j2 -n2 -X echo ::: a b c d e f
	same -k -j2 -n2 -m echo ::: a b c d e f
	same -k -j2 -n2 -X echo ::: a b c d e f g h
	printf '%s\n' a b c d e f > lines
	IN=lines same -k -j2 -L2 -X echo
	IN=lines same -k -j2 -L2 -m echo
}

@test "-N names the records of a job {1}..{N}, the last job may get fewer" {
	same -k -N2 echo {1}-{2} ::: a b c d e
	[ "$(cat wspx.out)" = "$(printf 'a-b\nc-d\ne-')" ]
	same -k -N3 echo {1}+{2}+{3} ::: a b c d
	same -k -N2 echo x{} ::: a b c
	[ "$(cat wspx.out)" = "$(printf 'xa xb\nxc')" ]
	same -k -j2 -N2 echo {#}:{1}{2} ::: 1 2 3 4 5
	same -k -N2 echo {1} {2} ::: a b ::: 1 2
	same -k -N2 echo {1}/{2}/{3}/{4} ::: a b ::: 1 2
	same -k -j2 -N2 echo ::: a b c d e f
}

@test "-N0 reads one record per job and puts none of it in the line" {
	same -k -N0 echo hi ::: a b c
	[ "$(cat wspx.out)" = "$(printf 'hi\nhi\nhi')" ]
	same -k -N0 echo hi{} ::: a b c
}

@test "-N implies context replacement even with -m or --xargs, as in GNU parallel" {
	# GNU parallel 20221122 sets context replacement for -N whatever
	# else is given: -N2 -m echo x{} ::: a b c d e gives xa xb / xc xd / xe
	same -k -N2 -m echo x{} ::: a b c d e
	same -k -m -N2 echo x{} y ::: a b c d e
	same -k -N2 --xargs echo x{} ::: a b c d e
	same -k -N2 -X echo x{} ::: a b c d e
}

@test "-L counts lines, and a line ending in a blank goes on to the next" {
	printf 'a\nb\nc\nd\ne\n' > lines
	IN=lines same -k -L2 echo
	[ "$(cat wspx.out)" = "$(printf 'a b\nc d\ne')" ]
	printf 'a \nb\nc\nd\ne\n' > lines
	IN=lines same -k -L2 echo
	IN=lines same -k -L2 echo x{}
	printf 'a\tb\nc d\ne\n' > lines
	IN=lines same -k -L1 echo [{}]
	printf '%s\n' a b c d e > lines
	IN=lines same -k -L3 -j1 echo {#}
	IN=lines same -k -L2 -j1 -m echo x{}
}

@test "-L counts an empty line as an argument, as GNU parallel does" {
	printf 'a\n\nb\nc\n\nd\n' > lines
	IN=lines same -k -L2 echo x{}
	IN=lines same -k -L2 -j1 -q printf '[%s]' x{}
	IN=lines same -k -L2 -j1 -m echo "x{}"
	IN=lines same -k -L2 -X -j1 'printf "[%s]"' x{}
	[ "$(cat wspx.out)" = "[xa][x][xb][xc][x][xd]" ]
}

@test "-l is -L 1, -l N and --max-lines=N are -L N" {
	printf 'a \nb \nc\nd\ne\n' > lines
	IN=lines same -k -l echo
	[ "$(cat wspx.out)" = "$(printf 'a b c\nd\ne')" ]
	IN=lines same -k -l2 echo
	IN=lines same -k --max-lines=2 echo
	IN=lines same -k --max-lines echo
}

@test "-E ends the standard input at the mark; -eSTR and --eof=STR too" {
	printf 'a\nb\nSTOP\nc\n' > lines
	IN=lines same -k -E STOP echo
	[ "$(cat wspx.out)" = "$(printf 'a\nb')" ]
	IN=lines same -k -j1 -X -E STOP echo
	[ "$(cat wspx.out)" = "a b" ]
	IN=lines same -k -eSTOP echo
	IN=lines same -k --eof=STOP echo
	IN=lines same -k -E '' echo
	printf 'a\nb\nSTOPx\nc\n' > lines
	IN=lines same -k -E STOP echo
	printf 'STOP\na\n' > lines
	IN=lines same -k -E STOP echo
	[ ! -s wspx.out ]
}

@test "-E ends each ::: list at its own mark" {
	same -k -E STOP echo ::: a STOP b
	[ "$(cat wspx.out)" = "a" ]
	same -k -E STOP echo ::: a STOP b ::: 1 2 STOP 3
	[ "$(cat wspx.out)" = "$(printf 'a 1\na 2')" ]
	same -k -E STOP echo ::: STOP b
}

@test "-e without a value sets no end mark, as in xargs" {
	# Deliberate difference: GNU parallel would take the next word as the
	# value of -e; wspx reads it only in the same word, as xargs does
	printf 'a\nSTOP\nb\n' > lines
	run sh -c '"$WSPX" -j1 -X -E STOP -e echo < lines'
	[ "$status" -eq 0 ]
	[ "$output" = "$(xargs -E STOP -e echo < lines)" ]
	[ "$output" = "a STOP b" ]
}

@test "--arg-sep replaces ::: and :::+" {
	same -k --arg-sep ,, echo ::: ,, a b
	[ "$(cat wspx.out)" = "$(printf '::: a\n::: b')" ]
	same -k --arg-sep ,, echo ,, a b ,, 1 2
	same -k --arg-sep ,, echo ,, a b ,,+ 1 2
	[ "$(cat wspx.out)" = "$(printf 'a 1\nb 2')" ]
	same -k --argsep ,, echo ,, a b ,,+ 1 2 3
}

@test "--arg-file-sep replaces :::: and ::::+" {
	printf 'x\ny\n' > f1
	printf '1\n2\n3\n' > f2
	same -k --arg-file-sep // echo // f1 f2
	same -k --arg-file-sep // echo // f1 //+ f2
	[ "$(cat wspx.out)" = "$(printf 'x 1\ny 2')" ]
	echo z > stdin
	IN=stdin same -k --arg-file-sep // echo :::: f1
	[ "$(cat wspx.out)" = ":::: f1 z" ]
	same -k --argfilesep // echo ::: a // f1
	same -k --arg-sep ,, --arg-file-sep // echo ,, a b // f1 //+ f2
}

@test "-0 -X: find's names with spaces, quotes and newlines each one argument" {
	mkdir names
	cd names
	touch 'a b' "it's" 'q"uote' "$(printf 'new\nline')" plain '  lead' \
	    'back\slash' '$dollar' '*star'
	find . -type f -print0 | sort -z > ../list
	cd ..
	mkdir out
	cd out
	IN=../list same -0 -k -X 'printf "[%s]\n"'
	[ "$(grep -c '^\[' wspx.out)" -eq 9 ]
	printf '[%s]\n' ./'  lead' ./'$dollar' ./'*star' ./'a b' ./'back\slash' \
	    ./"it's" ./"$(printf 'new\nline')" ./plain ./'q"uote' > want
	cmp want wspx.out
	IN=../list same -0 -k -j1 -X echo
	IN=../list same -0 -k -j1 -m 'printf "[%s]\n" {}'
	cmp want wspx.out
}

@test "seq 1000000 | -X echo: every record once, and in order with -k" {
	run sh -c 'seq 1000000 | "$WSPX" -X echo | wc -w'
	[ "$status" -eq 0 ]
	[ "$output" -eq 1000000 ]
	seq 1000000 | "$WSPX" -k -X echo | tr ' ' '\n' > got
	seq 1000000 | cmp - got
}

@test "find -name '*.txt' | -X rm removes them all, as with xargs" {
	local i
	for i in $(seq 500); do
		touch "f $i.txt" "k$i.dat"
	done
	run sh -c 'find . -name "*.txt" | "$WSPX" -X rm'
	[ "$status" -eq 0 ]
	[ "$(ls | grep -c '\.txt$')" -eq 0 ]
	[ "$(ls | grep -c '\.dat$')" -eq 500 ]
}

@test "-x: a record too long for -s is an error naming -x, status 255" {
	same -k -j1 -x -X -s 12 echo ::: b c aaaaaaaaaaaaaaaaaaaa d
	[ "$(cat wspx.out)" = "b c" ]
	grep -q -- '-x' wspx.err
	grep -q 'aaaaaaaaaaaaaaaaaaaa' wspx.err
	[ "$(wc -l < wspx.err)" -eq 1 ]
}

@test "without -x, a record too long for -s runs as a job on its own" {
	# Deliberate difference: GNU parallel stops with an error
	run sh -c '"$WSPX" -k -j1 -X -s 12 echo ::: aaaaaaaaaaaaaaaaaaaa b c 2>err'
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf 'aaaaaaaaaaaaaaaaaaaa\nb c')" ]
	[ ! -s err ]
}

@test "-s larger than the system allows is capped, with a warning" {
	# Deliberate difference: GNU parallel only warns and uses its own cap
	run sh -c '"$WSPX" -k -j1 -s 99999999 -X echo ::: a b 2>err'
	[ "$status" -eq 0 ]
	[ "$output" = "a b" ]
	[ "$(wc -l < err)" -eq 1 ]
	grep -q -- '-s 99999999' err
}

@test "--show-limits prints the limits on stderr and still runs" {
	run sh -c '"$WSPX" -k --show-limits -j1 -X echo ::: a b 2>err'
	[ "$status" -eq 0 ]
	[ "$output" = "a b" ]
	grep -q 'environment' err
	grep -q 'command lines used here: at most [0-9]* characters' err
	run sh -c '"$WSPX" --show-limits touch ran < /dev/null 2>err'
	[ "$status" -eq 0 ]
	[ -s err ]
	[ ! -e ran ]
}

@test "-k keeps the jobs in input order and {#} counts jobs, not records" {
	same -k -j2 -n3 -X echo {#}: {} ::: 1 2 3 4 5 6 7 8
	same -k -j3 -X echo {#} ::: 1 2 3 4 5 6 7 8
	same -k -j1 -n2 -X echo {#} {} ::: a b c d e
	[ "$(cat wspx.out)" = "$(printf '1 a b\n2 c d\n3 e')" ]
	run "$WSPX" -k -j4 -n3 -X 'sleep 0.0$(( 5 - {#} )); echo {#} {}' \
	    ::: 1 2 3 4 5 6 7 8 9 10
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf '1 1 2 3\n2 4 5 6\n3 7 8 9\n4 10')" ]
}
