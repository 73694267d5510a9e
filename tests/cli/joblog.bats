#!/usr/bin/env bats
# --joblog in GNU parallel's format, compared with the one GNU parallel
# writes for the same jobs; --resume, --resume-failed and --retry-failed,
# also after wspx was killed mid-run.

load helper

HEADER=$(printf 'Seq\tHost\tStarttime\tJobRuntime\tSend\tReceive\tExitval\tSignal\tCommand')

# The columns of each row of joblog $1 with the times replaced by their
# formats (digits.3, right-aligned in 10), sorted by Seq.
shape() {
	awk -F'\t' 'NR == 1 { print; next } {
		s = $3; gsub(/[0-9]/, "9", s)
		r = $4; gsub(/[0-9]/, "9", r)
		print $1 "\t" $2 "\t" s "\t" r "\t" $5 "\t" $6 "\t" $7 "\t" $8 "\t" $9
	}' "$1" | { read -r h; echo "$h"; sort -n; }
}

# Whether file $1 has at least $2 lines.
atleast() {
	[ -e "$1" ] && [ "$(wc -l < "$1")" -ge "$2" ]
}

@test "--joblog: the same columns and formats as GNU parallel's" {
	command -v parallel || skip "GNU parallel is not installed"
	cmd='printf "%s\n" {}; sleep 0.{}; exit {}'
	parallel --will-cite --joblog gnu.log "$cmd" ::: 0 1 2 3 > /dev/null || :
	run "$WSPX" --joblog wspx.log "$cmd" ::: 0 1 2 3
	[ "$status" -eq 3 ]
	[ "$(head -1 wspx.log)" = "$HEADER" ]
	diff <(shape gnu.log) <(shape wspx.log)
	# start times are now, to the millisecond
	now=$(date +%s)
	awk -F'\t' -v now="$now" 'NR > 1 && ($3 < now - 60 || $3 > now + 1) {
		exit 1 }' wspx.log
}

@test "--joblog: a job killed by a signal, and one that cannot start" {
	command -v parallel || skip "GNU parallel is not installed"
	parallel --will-cite --joblog gnu.log 'kill -9 $$' ::: 1 || :
	"$WSPX" --joblog wspx.log 'kill -9 $$' ::: 1 || :
	diff <(shape gnu.log) <(shape wspx.log)
	run "$WSPX" --joblog nf.log -q ./no-such-program ::: 1
	[ "$status" -eq 1 ]
	[ "$(cut -f7,8 nf.log | tail -1)" = "$(printf '127\t0')" ]
}

@test "--joblog +FILE appends rows, with one header" {
	"$WSPX" --joblog +log.txt echo ::: a b > /dev/null
	"$WSPX" --joblog +log.txt echo ::: c > /dev/null
	[ "$(grep -c '^Seq' log.txt)" -eq 1 ]
	[ "$(grep -c '	echo ' log.txt)" -eq 3 ]
	"$WSPX" --joblog log.txt echo ::: d > /dev/null
	[ "$(wc -l < log.txt)" -eq 2 ]
}

@test "--joblog: a path that cannot be written is an error before any job" {
	run "$WSPX" --joblog /nonexistent/dir/log touch ran ::: 1
	[ "$status" -eq 255 ]
	[[ $output == *"--joblog /nonexistent/dir/log"* ]]
	[ ! -e ran ]
}

@test "--joblog: rows are written as jobs end, so a killed run keeps them" {
	seq 20 | "$WSPX" -j2 --joblog log 'sleep 0.2; echo {}' > /dev/null &
	pid=$!
	waituntil atleast log 4
	kill -9 "$pid"
	wait "$pid" || :
	# whole rows only: 9 columns and a newline at the end
	awk -F'\t' 'NF != 9 { exit 1 }' log
	[ "$(tail -c 1 log | od -An -c | tr -d ' ')" = '\n' ]
}

@test "--resume after SIGKILL: no finished job runs again, every job runs" {
	seq 12 > in
	"$WSPX" -j2 --joblog log 'sleep 0.3; echo {} >> done' < in > /dev/null &
	pid=$!
	waituntil atleast done 4
	kill -9 "$pid"
	wait "$pid" || :
	sleep 0.5	# the orphaned jobs of the killed run end
	logged=$(tail -n +2 log | cut -f1 | sort -n)
	"$WSPX" -j2 --resume --joblog log 'echo {} >> done' < in
	# each job ran once, or twice if it was running when wspx died (it
	# has no row then: GNU parallel does the same)
	for n in $logged; do [ "$(grep -cx "$n" done)" -eq 1 ]; done
	[ "$(sort -un done | wc -l)" -eq 12 ]
	[ "$(tail -n +2 log | cut -f1 | sort -un | wc -l)" -eq 12 ]
}

@test "--resume-failed runs the failed and the missing; --retry-failed the failed, from the joblog" {
	"$WSPX" --joblog log 'echo {}; exit $(({} % 2))' ::: 1 2 3 4 > /dev/null || :
	run "$WSPX" -k --resume-failed --joblog log 'echo again {}' ::: 1 2 3 4 5
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf 'again 1\nagain 3\nagain 5')" ]
	"$WSPX" --joblog log2 'exit {}' ::: 0 3 0 4 || :
	run "$WSPX" -k --retry-failed --joblog log2 this command is ignored
	[ "$status" -eq 2 ]
	# (the rows are in the order the jobs ended)
	[ "$(tail -2 log2 | cut -f1,7,9 | sort -n)" = "$(printf '2\t3\texit 3\n4\t4\texit 4')" ]
}

@test "--resume keeps sequence numbers and the output's order" {
	"$WSPX" --joblog log echo {#} ::: a b > /dev/null
	run "$WSPX" -k --resume --joblog log echo {#} {} ::: a b c d
	[ "$output" = "$(printf '3 c\n4 d')" ]
}

@test "--resume: a file that is not a joblog is an error naming its line" {
	printf '%s\n1\t:\t1.0\t1.0\t0\t0\t0\t0\ttrue\nnonsense\n' "$HEADER" > log
	run "$WSPX" --resume --joblog log touch ran ::: 1
	[ "$status" -eq 255 ]
	[[ $output == *"--resume: log:3: not a joblog row"* ]]
	[ ! -e ran ]
	run "$WSPX" --resume touch ran ::: 1
	[ "$status" -eq 255 ]
	[[ $output == *"--resume needs --joblog"* ]]
}

@test "--resume: one row of job 4294967295 costs a row, not a map up to it (found by tests/fuzz/joblog)" {
	printf '%s\n4294967295\t:\t1.0\t1.0\t0\t0\t1\t0\ttrue\n' "$HEADER" > log
	run maxrss "$WSPX" --resume --joblog log echo ::: a
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 2 ] && [ "${lines[0]}" = a ]
	[ "${lines[1]}" -lt "$(rsslimit)" ]
}

@test "--retry-failed: a failed row of job 4294967295 runs at once, with and without -k, numbered as logged" {
	# (its turn in the output used to be reached by opening and closing
	# one for each of the four billion numbers before it)
	printf '%s\n3\t:\t1.0\t1.0\t0\t0\t1\t0\techo three\n4294967295\t:\t1.0\t1.0\t0\t0\t1\t0\techo last\n' \
	    "$HEADER" > log
	cp log log2
	run timeout 20 "$WSPX" --retry-failed --joblog log
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | sort)" = "$(printf 'last\nthree')" ]
	run timeout 20 "$WSPX" -k --retry-failed --joblog log2
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf 'three\nlast')" ]
	# (the new rows keep the logged numbers)
	[ "$(tail -n +4 log2 | cut -f1 | sort -n | tr '\n' ' ')" = "3 4294967295 " ]
}

@test "--joblog with --dry-run writes no joblog, as GNU parallel" {
	run "$WSPX" --dry-run --joblog log echo ::: a b
	[ "$output" = "$(printf 'echo a\necho b')" ]
	[ ! -e log ]
}
