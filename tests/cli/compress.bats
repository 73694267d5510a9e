#!/usr/bin/env bats
# --compress, --compress-program, --decompress-program: the output that
# waits in --tmpdir goes there compressed, and comes back whole.  Only
# what passes a job's share of memory (8 MiB a stream at most) reaches a
# file, so the jobs here print more than that.

load helper
load gnu

@test "--compress: what waited in files comes back whole, as GNU parallel's" {
	FILTER=md5sum same -k --compress 'seq 2 {}; seq {} >&2' \
	    ::: 3000000 2000000
	[ "$(cat wspx.rc)" -eq 0 ]
	[ "$(cat wspx.out)" = "$( (seq 2 3000000; seq 2 2000000) | md5sum)" ]
	[ "$(grep -v '^[0-9]*$' wspx.err)" = "" ]
	[ "$(sort -n wspx.err | md5sum)" = \
	    "$( (seq 3000000; seq 2000000) | sort -n | md5sum)" ]
	# grouped, in any order: the same lines
	FILTER='sort | md5sum' same --compress -j2 'seq {}' ::: 2100000 \
	    2200000 7
}

@test "--compress-program is the filter, PRG -dc or --decompress-program undoes it" {
	# each program leaves a mark, so that it is seen to be used
	FILTER=md5sum same -k --compress-program "echo >> $PWD/zip; gzip -1" \
	    'seq {}' ::: 2000000 2100000
	[ "$(cat wspx.rc)" -eq 0 ]
	[ -s zip ]
	rm zip
	FILTER=md5sum same -k --compress-program "echo >> $PWD/zip; gzip -1" \
	    --decompress-program "echo >> $PWD/unzip; gzip -dc" \
	    'seq {}' ::: 2000000 2100000
	[ "$(cat wspx.rc)" -eq 0 ]
	[ -s zip ]
	[ -s unzip ]
	[ "$(cat wspx.out)" = "$( (seq 2000000; seq 2100000) | md5sum)" ]
	# the long spellings of GNU parallel
	"$WSPX" -k --use-compress-program 'gzip -1' \
	    --use-decompress-program 'gzip -dc' 'seq {}' ::: 2000000 |
	    md5sum > out
	[ "$(cat out)" = "$(seq 2000000 | md5sum)" ]
}

@test "--compress-program fits output in a --tmpdir too small for it plain" {
	# spill files of 100 KiB at most (ulimit -f 200, in 512-byte blocks
	# for sh): 200 MB of it plain would be past what may wait in memory,
	# and stop the run; gzip twice makes each 100 MB a few hundred bytes
	# (whatever compressor --compress would find on this machine)
	run sh -c 'ulimit -f 200; "$WSPX" -j2 "yes {} | head -c 100000000" \
	    ::: 1 2 2> /dev/null | wc -c'
	[ "$output" -eq 0 ]
	run sh -c 'ulimit -f 200; "$WSPX" --compress-program "gzip | gzip" \
	    --decompress-program "gzip -dc | gzip -dc" -j2 \
	    "yes {} | head -c 100000000" ::: 1 2 2> err | wc -c'
	[ "$status" -eq 0 ]
	[ ! -s err ]
	[ "$output" -eq 200000000 ]
}

@test "--compress in a 1 MiB --tmpdir, as GNU parallel" {
	mkdir tiny
	mount -t tmpfs -o size=1m tmpfs tiny 2> /dev/null ||
	    skip "cannot mount a tmpfs here"
	local rc=0
	# (gzip -1, the compressor every machine has, makes each 50 MB of
	# zeros 220 KB; plain, 100 MB would be past what may wait in memory)
	FILTER=md5sum same --compress --tmpdir tiny -k -j2 \
	    'head -c 50000000 /dev/zero; : {}' ::: 1 2 || rc=$?
	umount tiny
	[ "$rc" -eq 0 ]
	[ "$(cat wspx.rc)" -eq 0 ]
	[ "$(cat wspx.out)" = "$(head -c 100000000 /dev/zero | md5sum)" ]
}

@test "a compress program that fails stops the run with 255, naming it" {
	# GNU parallel says "false failed." and counts the jobs as failed
	# (status 2 here); wspx stops, as when output cannot be written
	run "$WSPX" --compress-program false 'seq {}' ::: 2000000 2100000
	[ "$status" -eq 255 ]
	[[ "$output" == *"the compress program (false) failed with exit status 1: the output that waited in --tmpdir "*" is lost: stopped"* ]]
	run "$WSPX" --compress-program 'head -c 10' 'seq {}' ::: 2000000
	[ "$status" -eq 255 ]
	[[ "$output" == *"the compress program (head -c 10) stopped reading what it had to compress"* ]]
	run "$WSPX" --compress-program 'kill -9 $$' 'seq {}' ::: 2000000
	[ "$status" -eq 255 ]
	[[ "$output" == *"(kill -9 \$\$) was killed by SIGKILL"* ]]
}

@test "a decompress program that fails or gives back too little stops the run with 255" {
	run "$WSPX" --compress-program cat --decompress-program 'exit 3' \
	    'seq {}' ::: 2000000
	[ "$status" -eq 255 ]
	[[ "$output" == *"the decompress program (exit 3) failed with exit status 3"* ]]
	run "$WSPX" --compress-program cat --decompress-program 'head -c 10' \
	    'seq {}' ::: 2000000
	[ "$status" -eq 255 ]
	[[ "$output" == *"the decompress program (head -c 10) did not give back as many bytes as were compressed"* ]]
}

@test "a reader that goes away: wspx waits for its compressors before it exits" {
	# each compressor takes a second after its input ends, then leaves a
	# line: both lines are there once wspx has exited, as it waits for
	# them (had it not, they would come a second later)
	"$WSPX" --compress-program "gzip -1; sleep 1; echo >> $PWD/ended" \
	    -j2 'seq {}' ::: 3000000 3000001 | head -1 > out
	[ "$(cat out)" = 1 ]
	[ "$(wc -l < ended)" -eq 2 ]
}

@test "--compress with --files or --results is refused" {
	run "$WSPX" --compress --files echo ::: 1
	[ "$status" -eq 255 ]
	[[ "$output" == *"--compress and --files or --results cannot be combined"* ]]
	run "$WSPX" --compress-program gzip --results out echo ::: 1
	[ "$status" -eq 255 ]
	[ ! -e out ]
}

# A stand-in compressor in directory $1 called $2: it notes its name and
# arguments in $PWD/used, and passes its input on as it is.
fakezip() {
	mkdir -p "$1"
	printf '#!/bin/sh\necho "%s $*" >> %s/used\nexec /bin/cat\n' \
	    "$2" "$PWD" > "$1/$2"
	chmod +x "$1/$2"
}

@test "--compress takes the first of GNU parallel's compressors in PATH" {
	# lz4 comes before gzip in the list; a directory of PATH that is
	# not a whole path, here the empty one, is the current directory
	fakezip bin gzip
	fakezip bin lz4
	fakezip . pigz
	PATH=$PWD/bin "$WSPX" --compress /usr/bin/seq {} ::: 2000000 |
	    md5sum > out
	[ "$(cat out)" = "$(seq 2000000 | md5sum)" ]
	[ "$(sort -u used)" = "$(printf 'lz4 -c -1\nlz4 -dc')" ]
	rm used
	# (pigz comes between lz4 and gzip)
	rm bin/lz4
	PATH=$PWD/bin: "$WSPX" --compress /usr/bin/seq {} ::: 2000000 |
	    md5sum > out
	[ "$(cat out)" = "$(seq 2000000 | md5sum)" ]
	[ "$(sort -u used)" = "$(printf 'pigz -c -1\npigz -dc')" ]
}
