#!/usr/bin/env bats
# Option parsing: GNU parallel's spellings of wspx's options, -i and
# --replace with their optional value, unique prefixes of long options,
# and errors that name the option as it was typed.

load helper

@test "GNU parallel's spellings of the options are accepted" {
	run "$WSPX" --keeporder -j4 echo ::: a b c
	[ "$output" = "$(printf 'a\nb\nc')" ]
	for o in --linebuffer --line-buffered --linebuffered --lb; do
		run "$WSPX" "$o" echo ::: a
		[ "$output" = a ]
	done
	run "$WSPX" -C , echo {2} ::: a,b
	[ "$output" = b ]
	run "$WSPX" -C, --col-sep : echo {2} ::: a:b
	[ "$output" = b ]
	for o in --will-cite --willcite --nn --nonotice --no-notice; do
		run "$WSPX" "$o" echo ::: a
		[ "$output" = a ]
	done
	run "$WSPX" --dryrun echo ::: a
	[ "$output" = "echo a" ]
	run "$WSPX" --dr echo ::: a
	[ "$output" = "echo a" ]
	echo x > in
	run "$WSPX" --argfile in --maxargs 2 --maxprocs 1 --total-jobs 1 \
	    --tag-string t echo
	[ "$output" = "$(printf 't\tx')" ]
	run "$WSPX" --norunifempty -k echo ::: a '' b
	[ "$output" = "$(printf 'a\nb')" ]
	run "$WSPX" -V
	[[ "$output" == "wspx "[0-9]* ]]
}

@test "-i and --replace: -I with the value in the same word, {} without" {
	run "$WSPX" -i echo x{}y ::: a
	[ "$output" = xay ]
	run "$WSPX" -ki echo x{}y ::: a b
	[ "$output" = "$(printf 'xay\nxby')" ]
	run "$WSPX" -iXX echo XX {} ::: a
	[ "$output" = "a {}" ]
	run "$WSPX" --replace=XX echo XX {} ::: a
	[ "$output" = "a {}" ]
	run "$WSPX" --replace echo {} ::: a
	[ "$output" = a ]
	run "$WSPX" --replace= echo {} ::: a
	[ "$output" = a ]
}

@test "a long option may be shortened to a prefix that only it has" {
	run "$WSPX" --line-buf echo ::: a
	[ "$output" = a ]
	# --keep-order and --keeporder are one option
	run "$WSPX" --keep -j4 echo ::: a b c
	[ "$output" = "$(printf 'a\nb\nc')" ]
	# a whole name is not the prefix of a longer one
	run "$WSPX" --tag echo ::: a
	[ "$output" = "$(printf 'a\ta')" ]
	run "$WSPX" --max-a=1 --dry echo ::: a
	[ "$output" = "echo a" ]
}

@test "a prefix of several options is an error that names them" {
	run "$WSPX" --ta echo ::: a
	[ "$status" -eq 255 ]
	[[ "$output" == *"ambiguous option --ta (--tag, --tagstring)"* ]]
	run "$WSPX" --pro echo ::: a
	[ "$status" -eq 255 ]
	[[ "$output" == *"ambiguous option --pro (--progress, --progress-interval, --profile)"* ]]
}

@test "errors name the option as it was typed" {
	run "$WSPX" --jobs abc echo ::: a
	[ "$status" -eq 255 ]
	[[ "$output" == *"--jobs: 'abc' is not a number of jobs"* ]]
	run "$WSPX" --max-p abc echo ::: a
	[ "$status" -eq 255 ]
	[[ "$output" == *"--max-p: 'abc' is not a number of jobs"* ]]
	# --jo is --jobs or --joblog, as in GNU parallel (or --jobserver)
	run "$WSPX" --jo abc echo ::: a
	[ "$status" -eq 255 ]
	[[ "$output" == *"ambiguous option --jo (--jobs, --joblog, --jobserver)"* ]]
	run "$WSPX" --line-buf=3 echo ::: a
	[ "$status" -eq 255 ]
	[[ "$output" == *"--line-buf: '3' given to an option that takes no value"* ]]
	# (--argf is ambiguous since --argfilesep, as in GNU parallel)
	run "$WSPX" --argf no-such-file echo
	[ "$status" -eq 255 ]
	[[ "$output" == *"ambiguous option --argf (--argfile, --argfilesep)"* ]]
	run "$WSPX" --argfile no-such-file echo
	[ "$status" -eq 255 ]
	[[ "$output" == *"--argfile no-such-file: No such file or directory"* ]]
	run "$WSPX" --tmpd
	[ "$status" -eq 255 ]
	[[ "$output" == *"--tmpd needs a value"* ]]
	run "$WSPX" --no-such-option echo ::: a
	[ "$status" -eq 255 ]
	[[ "$output" == *"unknown option --no-such-option"* ]]
}
