#!/usr/bin/env bats
# What GNU parallel's own test suite (its 2015 mirror, run case by case
# with GNU parallel 20221122 and with wspx behind a `parallel` shim) found
# wspx doing otherwise: each case compared with GNU parallel on the same
# input.

load helper
load gnu

@test "-N0: {} and the other replacement strings of a job of no arguments are no argument, with and without -q" {
	seq 2 > in
	IN=in same -k -N0 echo replace {} curlies
	[ "$(cat wspx.out)" = "replace curlies
replace curlies" ]
	IN=in same -k -N0 echo replace {} curlies\;
	IN=in same -k -N0 -q echo a x{}y {1} {.} {/} b
	[ "$(head -1 wspx.out)" = "a xy b" ]
	IN=in same -k -N0 -q echo a {.} {#} b
	IN=in same -k -N0 -X echo a {} b
	IN=in same -k -N0 --tagstring 't{}t' echo a {} b
	# (a field a job with arguments does not have stays '' with -q)
	same -k -q --colsep , echo a {2} b ::: x
	[ "$(cat wspx.out)" = "a  b" ]
	same -k -q echo a {} b ::: ''
}
