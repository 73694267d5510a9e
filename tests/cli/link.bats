#!/usr/bin/env bats
# Linked input sources, compared with GNU parallel: --link/--xapply (the
# shorter sources wrap around to the longest), :::+ and ::::+ (as long as
# the shortest, as GNU parallel 20221122 does), mixes of linked and
# crossed sources, and --link with -a files.

load helper
load gnu

# Files of 3, 2 and 4 lines.
files() {
	printf '1\n2\n3\n' > n3
	printf 'a\nb\n' > l2
	printf 'X\nY\nZ\nW\n' > u4
}

@test "--link wraps the shorter sources around to the longest" {
	same -k --link echo ::: 1 2 3 4 ::: a b
	[ "$(cat wspx.out)" = "$(printf '1 a\n2 b\n3 a\n4 b')" ]
	same -k --link echo ::: 1 2 ::: a b c d e
	[ "$(cat wspx.out)" = "$(printf '1 a\n2 b\n1 c\n2 d\n1 e')" ]
	same -k --link echo ::: 1 2 3 ::: a b ::: x y z w
	same -k --link echo {2}{1} ::: 1 2 3 4 ::: a b
	same -k --link --colsep , echo {3}{2}{1} ::: 1,2 3,4 5,6 ::: a b
}

@test "--xapply is --link" {
	same -k --xapply echo ::: 1 2 ::: a b c d e
	same -k --xapply echo ::: 1 2 3 ::: a b ::: x y z w
	run "$WSPX" -k --link echo ::: 1 2 3 ::: a b ::: x y z w
	[ "$output" = "$(cat wspx.out)" ]
}

@test ":::+ links a list to the one before, as long as the shorter" {
	same -k echo ::: 1 2 3 :::+ a b
	[ "$(cat wspx.out)" = "$(printf '1 a\n2 b')" ]
	same -k echo ::: 1 2 :::+ a b c d
	[ "$(cat wspx.out)" = "$(printf '1 a\n2 b')" ]
	same -k echo ::: 1 2 3 :::+ a b :::+ X Y Z
	[ "$(cat wspx.out)" = "$(printf '1 a X\n2 b Y')" ]
	same -k echo :::+ a b ::: 1 2
}

@test ":::+ sources take part in the cross product as one source" {
	same -k echo ::: 1 2 :::+ a b c ::: x y
	[ "$(cat wspx.out)" = "$(printf '1 a x\n1 a y\n2 b x\n2 b y')" ]
	same -k echo ::: x y ::: 1 2 :::+ a b c
	same -k echo ::: x y ::: 1 2 3 :::+ a b ::: P Q
	same -k -j1 -X echo {1}{2} ::: 1 2 3 :::+ a b
}

@test "::::+ links every file after it to the source before" {
	files
	same -k echo :::: n3 ::::+ l2
	[ "$(cat wspx.out)" = "$(printf '1 a\n2 b')" ]
	same -k echo :::: n3 ::::+ l2 u4
	[ "$(cat wspx.out)" = "$(printf '1 a X\n2 b Y')" ]
	same -k echo :::: u4 ::::+ n3 l2
	same -k echo :::: n3 l2 ::::+ u4
	[ "$(wc -l < wspx.out)" -eq 6 ]
}

@test "::::+ as the first source links its files to one another" {
	# GNU parallel: ::::+ n3 l2 u4 gives 1 a X / 2 b Y
	files
	same -k echo ::::+ n3 l2
	same -k echo ::::+ n3 l2 u4
}

@test "linked files and lists mix with crossed sources" {
	files
	same -k echo ::: p q :::: n3 ::::+ l2
	[ "$(cat wspx.out)" = "$(printf 'p 1 a\np 2 b\nq 1 a\nq 2 b')" ]
	same -k echo ::: p q ::::+ l2
	same -k echo ::: p q ::::+ n3 l2
	same -k echo ::: p q r s ::::+ n3 l2
	same -k echo :::: n3 :::+ a b c d
	same -k echo :::+ p q r ::::+ l2
	same -k echo ::::+ n3 :::+ a b c d
	same -k echo :::+ a b ::::+ n3
}

@test "--link with -a files, and with files and lists together" {
	files
	same -k --link -a n3 -a l2 echo
	[ "$(cat wspx.out)" = "$(printf '1 a\n2 b\n3 a')" ]
	same -k --link -a n3 -a u4 -a l2 echo
	same -k --link -a n3 echo ::: a b c d e
	same -k --link echo :::: n3 u4 ::: k
	same -k --link echo ::: 1 2 3 :::+ a b
	same -k --link echo ::: 1 2 3 ::: a b :::+ Q
}

@test "--link with many records per job" {
	same -k --link -j1 -X echo ::: 1 2 3 ::: a b
	[ "$(cat wspx.out)" = "1 a 2 b 3 a" ]
	same -k --link -j1 -X echo {1}{2} ::: 1 2 3 ::: a b
	same -k --link -N2 echo {1}{2}{3}{4} ::: 1 2 3 ::: a b
}
