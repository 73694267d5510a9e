#!/usr/bin/env bats
# --pipe and --pipepart: the input cut into blocks of records, each the
# stdin (or --cat's file, --fifo's FIFO) of one job.  Each block is
# checked against GNU parallel 20221122 on the same input, byte for byte:
# where the blocks are cut (--block, --recend, --recstart, --regexp, -N,
# -L, --header, --pipepart), stdin as a file and as a pipe; then what is
# wspx's own (memory, speed of a big input, jobs that do not read, stops).

load helper

# The tests that compare need GNU parallel (make check installs it).
needgnu() {
	command -v parallel > /dev/null || skip "GNU parallel is not installed"
}

# Run the same options under GNU parallel and wspx, with stdin the file
# $2 ($1 = file) or a pipe from it ($1 = pipe), and compare the outputs
# byte for byte; the outputs stay in gnu.out and wspx.out.
same() {
	local how=$1 in=$2
	shift 2
	if [ "$how" = file ]; then
		parallel --will-cite "$@" < "$in" > gnu.out 2> gnu.err || :
		"$WSPX" "$@" < "$in" > wspx.out 2> wspx.err || :
	else
		cat "$in" | parallel --will-cite "$@" > gnu.out 2> gnu.err || :
		cat "$in" | "$WSPX" "$@" > wspx.out 2> wspx.err || :
	fi
	if ! cmp -s gnu.out wspx.out; then
		echo "differs: $how $in $*" >&2
		diff gnu.out wspx.out | head -20 >&2
		return 1
	fi
}

# --pipepart: the same, with -a FILE.
samepart() {
	parallel --will-cite --pipepart "$@" > gnu.out 2> gnu.err || :
	"$WSPX" --pipepart "$@" > wspx.out 2> wspx.err || :
	if ! cmp -s gnu.out wspx.out; then
		echo "differs: --pipepart $*" >&2
		diff gnu.out wspx.out | head -20 >&2
		return 1
	fi
}

# Lines of many lengths (none longer than 400 bytes), some of them empty,
# some records ending in '>' instead of a newline; FASTA-like records
# that start with '>', and the same with '>' for every newline.
mkinputs() {
	awk 'BEGIN { srand(7); for (i = 0; i < 500; i++) {
		n = int(rand() * 8); l = substr("0123456789", 1, n) \
		    sprintf("%0" int(rand() * 300) "d", 0) ; if (n == 0) l = "";
		printf "%s%s", l, rand() < 0.95 ? "\n" : ">" } }' > lines
	awk 'BEGIN { srand(11); for (i = 0; i < 150; i++) {
		printf ">r%d\n", i; n = int(rand() * 200);
		for (j = 0; j < n; j++) printf "%s", substr("ACGT",
		    int(rand() * 4) + 1, 1); printf "\n" } }' > fasta
	tr '\n' '>' < fasta > gt
	seq 1 1000 > s1k
	seq 1 300 > s300
}

@test "--block: each block ends at the last record end within --block bytes" {
	needgnu
	mkinputs
	for how in file pipe; do
		for b in 1000 2k 100k; do
			same $how s1k --pipe --block $b -k wc -c
			same $how lines --pipe --block $b -k md5sum
		done
		same $how lines --pipe -k md5sum
	done
	# 1000 bytes a block, the last what is left
	run "$WSPX" --pipe --block 1000 -k wc -c < s1k
	[ "$output" = "$(printf '1000\n1000\n1000\n893')" ]
}

@test "stdin as a regular file and as a pipe gives the same blocks" {
	needgnu
	mkinputs
	"$WSPX" --pipe --block 3k -k md5sum < lines > asfile
	cat lines | "$WSPX" --pipe --block 3k -k md5sum > aspipe
	cmp asfile aspipe
	[ "$(wc -l < asfile)" -gt 20 ]
	same file lines --pipe --block 3k -k md5sum
	# a file read from where stdin stands, and left at its end
	{ read -r first; "$WSPX" --pipe --block 5 -k 'echo "[$(cat)]"'
	    echo rest; cat; } < s1k > out
	[ "$(head -2 out)" = "$(printf '[2\n3]')" ]
	[ "$(tail -1 out)" = rest ]
}

# The cuts of --recend, --recstart, both, and --regexp, with stdin as $1
# (file or pipe), each compared with GNU parallel's.  (One test for each
# kind of stdin: GNU parallel takes a while for each of these.)
samecuts() {
	local b

	for b in 1k 20k; do
		same $1 fasta --pipe --block $b --recstart '>' -k md5sum
		same $1 fasta --pipe --block $b --recstart '>' --recend '\n' \
		    -k md5sum
		same $1 gt --pipe --block $b --recend '>' -k md5sum
		same $1 fasta --pipe --block $b --regexp --recstart '^>' -k \
		    md5sum
		same $1 lines --pipe --block $b --regexp --recend '0>|\n' -k \
		    md5sum
	done
}

@test "--recend, --recstart, both, and --regexp cut where GNU parallel cuts (a pipe)" {
	needgnu
	mkinputs
	samecuts pipe
}

@test "--recend, --recstart, both, and --regexp cut where GNU parallel cuts (a file)" {
	needgnu
	mkinputs
	samecuts file
	printf '>a\nAAA\n>b\nBB\n>c\nC\nCC\n>d\nD\n' > fa
	run "$WSPX" --pipe --recstart '>' --block 12 -k 'echo "[$(cat)]"' < fa
	[ "$output" = "$(printf '[>a\nAAA]\n[>b\nBB]\n[>c\nC\nCC]\n[>d\nD]')" ]
}

# -N's blocks with stdin as $1 (file or pipe), compared with GNU
# parallel's.
samecounts() {
	same $1 s300 --pipe -N 7 -k wc -l
	same $1 s300 --pipe -N 7 --block 10 -k wc -l
	same $1 fasta --pipe -N 3 --recstart '>' -k md5sum
	same $1 fasta --pipe -N 2 --regexp --recstart '^>' -k md5sum
	same $1 s300 --pipe -N 5 -L 2 -k wc -l
}

@test "-N N: N records a block, whatever --block says (a pipe)" {
	needgnu
	mkinputs
	samecounts pipe
}

@test "-N N: N records a block, whatever --block says (a file)" {
	needgnu
	mkinputs
	samecounts file
	# as GNU parallel's, a first record that is empty joins the next
	printf '\nx\n\ny\n' > blank
	same pipe blank --pipe -N 1 -k 'echo "[$(cat)]"'
	[ "$(cat wspx.out)" = "$(printf '[\nx]\n[\ny]')" ]
}

@test "-L N: records of N lines, as many whole ones as fit in --block" {
	needgnu
	mkinputs
	for how in file pipe; do
		same $how s1k --pipe -L 7 --block 100 -k wc -l
		same $how s1k --pipe -L 3 -k wc -l
		same $how lines --pipe -L 4 --block 5k -k md5sum
	done
	run "$WSPX" --pipe -L 3 -k wc -l < s1k
	[ "$output" = "$(printf '999\n1')" ]
}

@test "--header N, : and REGEX put the header atop every block" {
	needgnu
	(echo H1; echo H2; seq 1 300) > hdr
	for how in file pipe; do
		same $how hdr --pipe --header 2 --block 100 -k 'echo ==; cat'
		same $how hdr --pipe --header : --block 100 -k 'echo ==; cat'
		same $how hdr --pipe --header 'H1\nH.\n' --block 100 -k \
		    'echo ==; cat'
		same $how hdr --pipe --header 2 -N 30 -k 'echo ==; cat'
	done
	[ "$(grep -c '^H1$' wspx.out)" -eq 10 ]
	samepart -a hdr --header 2 --block 100 -k 'echo ==; cat'
}

@test "--round-robin: up to -j jobs, each with all its blocks, every line once" {
	needgnu
	seq 100000 > in
	for j in 1 3 4; do
		parallel --will-cite --pipe -j$j --block 10k --round-robin \
		    'wc -l' < in > gnu.out
		"$WSPX" --pipe -j$j --block 10k --round-robin 'wc -l' < in \
		    > wspx.out
		[ "$(wc -l < wspx.out)" -eq "$(wc -l < gnu.out)" ]
		[ "$(awk '{ s += $1 } END { print s }' wspx.out)" -eq 100000 ]
	done
	# fewer blocks than -j: a job per block
	seq 10 | "$WSPX" --pipe -j4 --round-robin 'wc -l' > out
	[ "$(cat out)" = 10 ]
	# the header once to each job
	(echo H; seq 100000) | "$WSPX" --pipe -j3 --block 10k --header 1 \
	    --round-robin -k 'grep -c H' > out
	[ "$(cat out)" = "$(printf '1\n1\n1')" ]
	# the blocks stay whole: every job's lines are whole numbers in order
	seq 100000 | "$WSPX" --pipe -j3 --block 1k --round-robin -k \
	    'awk "NR > 1 && \$1 < p { bad = 1 } { p = \$1 } END { print bad + 0 }"' \
	    > out
	[ "$(sort -u out)" = 0 ]
}

@test "--cat: {} is a file holding the block, gone after the job" {
	needgnu
	mkinputs
	for how in file pipe; do
		same $how lines --pipe --cat --block 20k -k 'md5sum < {}'
		# {} is added, as GNU parallel adds it
		same $how lines --pipe --cat --block 20k -k cat
	done
	"$WSPX" --pipe --cat --block 1k --tmpdir "$PWD" -k 'echo {}' < s1k \
	    > names
	[ "$(wc -l < names)" -eq 4 ]
	for f in $(cat names); do [ ! -e "$f" ]; done
	[ -z "$(ls -d wspx-* 2>/dev/null)" ]
	(echo H; seq 100) | "$WSPX" --pipe --cat --header 1 --block 100 -k \
	    'head -1 {}' > out
	[ "$(sort -u out)" = H ]
}

@test "--fifo: {} is a FIFO that gives the block, gone after the job" {
	needgnu
	mkinputs
	for how in file pipe; do
		same $how lines --pipe --fifo --block 20k -k 'md5sum < {}'
	done
	"$WSPX" --pipe --fifo --block 1k --tmpdir "$PWD" -k \
	    'test -p {} && echo {}; cat {} > /dev/null' < s1k > names
	[ "$(wc -l < names)" -eq 4 ]
	for f in $(cat names); do [ ! -e "$f" ]; done
	# a job that never opens its FIFO does not hold wspx up
	run timeout 20 "$WSPX" --pipe --fifo --block 1k true < s1k
	[ "$status" -eq 0 ]
}

# --pipepart's parts of blocks of $1 bytes, of each input, compared with
# GNU parallel's.
samepartcuts() {
	samepart -a lines --block $1 -k md5sum
	samepart -a fasta --block $1 --recstart '>' -k md5sum
	samepart -a fasta --block $1 --recstart '>' --recend '\n' -k md5sum
	samepart -a gt --block $1 --regexp --recend '[CG]>' -k md5sum
}

@test "--pipepart: parts of one byte, a record each, as GNU parallel's" {
	needgnu
	mkinputs
	samepartcuts 1
}

@test "--pipepart: the parts of a file, cut where GNU parallel cuts them" {
	needgnu
	mkinputs
	for b in 10 333 1000; do
		samepart -a s300 --block $b -k wc -c
	done
	samepartcuts 3k
	samepartcuts 100k
	# by default ten parts a job slot, or --block -N: N
	samepart -a lines -j2 -k md5sum
	samepart -a lines -j3 --block -2 -k md5sum
	samepart -a lines -j3 --round-robin -k md5sum
	# the parts put together are the file
	"$WSPX" --pipepart -a lines --block 2k -k cat | cmp - lines
}

@test "-k gives the blocks' outputs in input order" {
	seq 20000 > in
	"$WSPX" --pipe -j4 --block 1k -k \
	    'sleep 0.0$(( (5 - {#} % 5) * 2 )); cat' < in | cmp - in
	cat in | "$WSPX" --pipe -j4 --block 1k -k 'echo {#}; cat > /dev/null' \
	    > out
	[ "$(cat out)" = "$(seq "$(wc -l < out)")" ]
	"$WSPX" --pipepart -a in -j4 --block 1k -k \
	    'sleep 0.0$(( ({#} % 3) * 2 )); cat' | cmp - in
}

@test "a record longer than --block grows that block, with a warning" {
	needgnu
	{ printf 'a\nbb\n'; head -c 3000 /dev/zero | tr '\0' x; printf '\nc\nd\n'
	} > long
	for how in file pipe; do
		same $how long --pipe --block 20 -k wc -c
		[ "$(cat wspx.out)" = "$(printf '5\n3005')" ]
		grep -q 'a record is longer than --block 20' wspx.err
	done
	# later blocks are --block again (GNU parallel's stay grown)
	{ cat long; seq 1000; } > long2
	"$WSPX" --pipe --block 20 -k wc -c < long2 2> err > out
	[ "$(sed -n 3p out)" -le 20 ]
	[ "$(grep -c 'longer than' err)" -eq 1 ]
	"$WSPX" --pipe --block 20 -k cat < long2 | cmp - long2
}

@test "2 GB through --pipe from a pipe: the output's checksum is the input's" {
	size=$((2 << 30))
	want=$(yes 'a line of text for wspx' | head -c $size | cksum)
	got=$(yes 'a line of text for wspx' | head -c $size |
	    "$WSPX" --pipe -k cat | cksum)
	[ "$got" = "$want" ]
}

@test "memory stays within a few blocks whatever the input's size" {
	# 256 MB, then 1 GB, in blocks of 10 MB, two jobs at once
	small=$(maxrss sh -c 'yes 0123456789 | head -c 256M |
	    "$WSPX" -j2 --pipe --block 10M wc -c > out')
	kib=$(maxrss sh -c 'yes 0123456789 | head -c 1G |
	    "$WSPX" -j2 --pipe --block 10M wc -c > out')
	[ "$(awk '{ s += $1 } END { print s }' out)" -eq $((1 << 30)) ]
	echo "peak RSS with a pipe: $small KiB for 256 MB, $kib KiB for 1 GB"
	# well under 20 x --block x -j (400 MB), and four times the input
	# costs less than twice the memory (memory that grew with the input
	# would take four times; the sanitizers' own grows some)
	[ "$kib" -lt $((400 * 1024)) ]
	[ "$kib" -lt $((2 * small)) ]
	# a file is not read into memory at all: less than one block here
	# (the helper's own 14 MB included)
	yes 0123456789 | head -c 256M > big
	file=$(maxrss sh -c '"$WSPX" -j2 --pipe --block 64M wc -c < big > out')
	echo "peak RSS with a file: $file KiB"
	[ "$(awk '{ s += $1 } END { print s }' out)" -eq $((256 << 20)) ]
	[ "$file" -lt $((32 * 1024)) ]
}

@test "a job that does not read its stdin neither hangs nor fails the run" {
	needgnu
	run timeout 60 sh -c 'seq 1000000 | "$WSPX" --pipe --block 10k true'
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	seq 200000 > in
	run timeout 60 sh -c 'cat in | "$WSPX" --pipe --block 10k -k head -1'
	[ "$status" -eq 0 ]
	same pipe in --pipe --block 10k -k head -1
	run timeout 60 "$WSPX" --pipe --block 10k true < in
	[ "$status" -eq 0 ]
	run timeout 60 "$WSPX" --pipepart -a in --block 10k true
	[ "$status" -eq 0 ]
	run timeout 60 sh -c 'seq 1000000 | "$WSPX" --pipe -j2 --round-robin --block 10k true'
	[ "$status" -eq 0 ]
}

@test "--retries feeds the same block again" {
	seq 3000 > in
	"$WSPX" --pipe --block 4k --retries 2 -k \
	    'cat > got.{#}; test -e tried.{#} || { touch tried.{#}; exit 1; }' \
	    < in
	[ "$(ls got.* | wc -l)" -eq 4 ]
	cat got.1 got.2 got.3 got.4 | cmp - in
}

@test "output modes and reports: --tag, -u, --line-buffer, --joblog, --results" {
	needgnu
	seq 100000 > in
	same file in --pipe --block 50k --tag -k wc -l
	for mode in -u --line-buffer --group; do
		"$WSPX" --pipe --block 50k $mode wc -l < in | sort -n > out
		parallel --will-cite --pipe --block 50k $mode wc -l < in |
		    sort -n > gnu
		cmp out gnu
	done
	# the joblog's Send is the bytes each job was given
	parallel --will-cite --pipe --block 100k --joblog gnu.log -k wc -l \
	    < in > /dev/null
	"$WSPX" --pipe --block 100k --joblog wspx.log -k wc -l < in > /dev/null
	diff <(cut -f1,5,6 gnu.log | sort -n) <(cut -f1,5,6 wspx.log | sort -n)
	"$WSPX" --pipe --block 100k --results res wc -l < in
	[ "$(cat res/*/stdout | awk '{ s += $1 } END { print s }')" -eq 100000 ]
}

@test "{#} is the block's number and {%} its slot; no {} is added" {
	seq 10000 > in
	"$WSPX" --pipe --block 10k -j1 -k 'echo {#} {%} x; cat > /dev/null' \
	    < in > out
	[ "$(cat out)" = "$(printf '1 1 x\n2 1 x\n3 1 x\n4 1 x\n5 1 x')" ]
}

# Start --pipe jobs that never read, their stdin the file in (file) or a
# pipe that keeps coming (pipe), stop wspx with SIGTERM once they run,
# and check that it dies of it and that no job is left.
stopwhilefeeding() {
	local job='echo $$ >> pids; sleep 100'

	if [ "$1" = file ]; then
		"$WSPX" --pipe --block 10k -j2 "$job" < in > out 2> err &
	else
		yes | "$WSPX" --pipe --block 10k -j2 "$job" > out 2> err &
	fi
	pid=$!
	waituntil test -s pids
	kill -TERM "$pid"
	waitstatus "$pid"
	[ "$st" -eq 143 ]
	allgone pids
	rm -f pids
}

@test "a stop ends the jobs and the feeding, even of jobs that do not read" {
	seq 10000000 > in
	stopwhilefeeding file
	stopwhilefeeding pipe
}

@test "--timeout and --halt stop jobs that wait for more input" {
	# two blocks, each a job killed after its --timeout
	run timeout 60 sh -c 'seq 30000 | "$WSPX" --pipe --block 100k --timeout 0.5 -j2 "sleep 10"'
	[ "$status" -eq 2 ]
	run timeout 60 sh -c 'seq 3000000 | "$WSPX" --pipe --block 100k --halt now,fail=1 -j2 "exit 3"'
	[ "$status" -eq 3 ]
}

@test "errors: a bad regular expression names its option, a bad file its name" {
	run "$WSPX" --pipe --regexp --recstart '(' cat < /dev/null
	[ "$status" -eq 255 ]
	[[ "$output" == *"--recstart"*"("* ]]
	run "$WSPX" --pipe --regexp --recend 'a[' cat < /dev/null
	[ "$status" -eq 255 ]
	[[ "$output" == *"--recend"* ]]
	run "$WSPX" --pipe --header 'x(' cat < /dev/null
	[ "$status" -eq 255 ]
	[[ "$output" == *"--header"* ]]
	run "$WSPX" --pipepart -a no-such-file cat
	[ "$status" -eq 255 ]
	[[ "$output" == *"no-such-file"* ]]
	mkfifo fifo
	run "$WSPX" --pipepart -a fifo cat
	[ "$status" -eq 255 ]
	[[ "$output" == *"fifo"* ]]
	run "$WSPX" --pipe < /dev/null
	[ "$status" -eq 255 ]
	run "$WSPX" --pipepart -a fifo -N 2 cat
	[ "$status" -eq 255 ]
	run "$WSPX" --pipe --round-robin --cat cat < /dev/null
	[ "$status" -eq 255 ]
}

@test "empty input runs no job" {
	run sh -c ': | "$WSPX" --pipe "touch ran"'
	[ "$status" -eq 0 ]
	: > empty
	run "$WSPX" --pipepart -a empty 'touch ran'
	[ "$status" -eq 0 ]
	[ ! -e ran ]
}

@test "a ) that closes no group is refused, as Perl refuses it: in --recend and --recstart it would close theirs (fuzz finding)" {
	printf 'ayb\nyc\nyd\n' > in
	for o in --recstart --recend; do
		run "$WSPX" --pipe --regexp $o 'x)|(y)' -N1 cat < in
		[ "$status" -eq 255 ]
		[ "${lines[0]}" = "wspx: $o: 'x)|(y)' is not a regular expression (--regexp): unmatched ) (write \\) for the character)" ]
	done
	run "$WSPX" --colsep 'a)b' echo ::: x
	[ "$status" -eq 255 ]
	[[ "${lines[0]}" == *"unmatched )"* ]]
	# (escaped, or in brackets, it is the character)
	run "$WSPX" --colsep 'a\)b' echo {2} ::: 'xa)by'
	[ "$output" = y ]
	printf 'a)b)c' | "$WSPX" --pipe --regexp --recend '[)]' -N1 -k \
	    'cat; echo' > out
	[ "$(cat out)" = "a)
b)
c" ]
}
