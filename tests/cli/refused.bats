#!/usr/bin/env bats
# GNU parallel's options that wspx lacks are refused by name (long,
# abbreviated, with =value, and the short -B -T ...): status 255, one line
# on stderr, no job run, never "unknown option"; {= =} is refused the same
# way; the GNU spellings wspx accepts (-g, --no-keep-order, --silent, --env)
# run.

load helper
load gnu

# Run wspx with the arguments "$@" followed by "touch ran ::: 1" and fail
# unless it exits with 255 before running the job, with exactly one line
# on stderr: "wspx: $name is GNU parallel's and not supported: <reason>".
refused() {
	local name=$1 st=0
	shift
	rm -f ran
	"$WSPX" "$@" touch ran ::: 1 < /dev/null > out 2> err || st=$?
	if [ "$st" -ne 255 ] || [ -e ran ] || [ -s out ] ||
	    [ "$(wc -l < err)" -ne 1 ] ||
	    ! grep -qF "wspx: $name is GNU parallel's and not supported: " err ||
	    [ "$(sed 's/.*not supported: //' err)" = "" ]; then
		echo "wspx $*: status $st, stderr:" >&2
		cat err >&2
		return 1
	fi
}

@test "long options GNU parallel has and wspx lacks are refused by name" {
	local o
	for o in --sql-master --sqlworker --tmux --tmuxpane --ssh-delay --basefile \
	    --rsync-opts --onall --nonall --csv --color \
	    --colour-failed --ctag --latest-line --tee --shard --group-by \
	    --rpl --shebang --embed --shuf --noswap \
	    --open-tty --use-cores-instead-of-threads \
	    --shell-quote \
	    --gnu --tollef --debug --filter-hosts --hostgroups; do
		refused "$o" "$o"
	done
}

@test "a refused option's =value form is refused under its name" {
	refused --sql --sql=mysql://x
	refused --basefile --basefile=file
	refused --memsuspend --memsuspend=1G
	refused --shard --shard=2
	refused --hostgroups --hostgroups=a
	# and a separate value does not change that
	refused --memsuspend --memsuspend 1G
	refused --basefile --basefile file
}

@test "an abbreviation of a refused option is refused as typed" {
	refused --sqlm --sqlm
	refused --tmux-p --tmux-p 2
	refused --sq --sq
	refused --nonal --nonal
	refused --latest --latest
	# an abbreviation of one of wspx's own options stays that option
	run "$WSPX" -k --tm . echo ::: a
	[ "$status" -eq 0 ]
	[ "$output" = a ]
}

@test "short options GNU parallel has and wspx lacks are refused by name" {
	local c
	# (-H is not among them: GNU parallel 20221122 retired it, and wspx
	# takes it for no option)
	for c in B o D U Y; do
		refused "-$c" "-$c"
	done
	refused -B -B file
	refused -B -Bfile
	refused -B -j2 -B file
	grep -q 'remote jobs have -S' err
}

@test "a refused option after other options and the command still refuses" {
	refused --sql -k -j2 --sql
	refused --tmux --keep-order --tmux
	refused -B -v -B file
}

@test "every option of GNU parallel 20221122 is accepted or refused, never unknown" {
	local o
	# the spellings of GNU parallel 20221122's options_hash (less -H,
	# which it retired)
	for o in arg-file arg-file-sep arg-sep argfile argfilesep argsep bar \
	    basefile basenameextensionreplace basenamereplace bf bg bin block \
	    block-size block-timeout blocksize blocktimeout bner bnr bt bug \
	    cat cf cleanup col-sep color color-fail color-failed colorfail \
	    colorfailed colour colour-fail colour-failed colourfail \
	    colourfailed colsep compress compress-program compressprogram \
	    controlmaster csv ctag ctag-string ctagstring ctrl-c ctrlc debug \
	    decompress-program decompressprogram delay delimiter \
	    dirnamereplace dnr dr dry-run dryrun embed env eof er eta exit \
	    extensionreplace fg fifo files filter filter-host filter-hosts \
	    filterhosts gnu group group-by groupby halt halt-on-error \
	    haltonerror hashbang header help hgrp hostgroup hostgroups \
	    hostgrp id interactive jl joblog jobs keep-order keeporder \
	    latest-line latestline lb limit line-buffer line-buffered \
	    linebuffer linebuffered link linkinputsource ll load max-args \
	    max-chars max-line-length-allowed max-lines max-procs \
	    max-replace-args maxargs maxchars maxlinelengthallowed maxlines \
	    maxprocs maxreplaceargs memfree memsuspend min-version minversion \
	    nice nn no-ctrl-c no-ctrlc no-k no-keep-order no-notice \
	    no-run-if-empty noctrlc nok nokeeporder nonall nonotice \
	    norunifempty noswap null number-of-cores number-of-cpus \
	    number-of-sockets number-of-threads numberofcores numberofcpus \
	    numberofsockets numberofthreads onall open-tty output-as-files \
	    outputasfiles parens pipe pipe-part pipepart plain plus \
	    process-slot-var processslotvar profile progress quote recend \
	    record-env recordenv recstart regex regexp remove-rec-sep \
	    removerecsep replace res result results resume resume-failed \
	    resumefailed retries retry-failed retryfailed return round \
	    round-robin roundrobin rpl rrs rsync-opts rsyncopts semaphore \
	    semaphore-name semaphore-timeout semaphorename semaphoretimeout \
	    seqreplace session shard shebang shell-completion shell-quote \
	    shell_quote shellcompletion shellquote show-limits showlimits shuf \
	    silent skip-first-line skipfirstline slf slotreplace spreadstdin \
	    sql sql-and-worker sql-master sql-worker sqlandworker sqlmaster \
	    sqlworker ssh ssh-delay sshdelay sshlogin sshloginfile st tag \
	    tag-string tagstring tee tempdir template term-seq termseq tf \
	    timeout tmpdir tmpl tmux tmux-pane tmuxpane tollef total \
	    total-jobs totaljobs transfer transfer-file transfer-files \
	    transferfile transferfiles trc trim tty ungroup \
	    use-compress-program use-cores-instead-of-threads \
	    use-cpus-instead-of-cores use-decompress-program \
	    use-sockets-instead-of-threads usecompressprogram \
	    usecoresinsteadofthreads usecpusinsteadofcores \
	    usedecompressprogram usesocketsinsteadofthreads verbose version \
	    wait wd will-cite willcite work-dir workdir xapply \
	    xapplyinputsource xargs; do
		timeout 10 "$WSPX" "--$o" echo ::: a < /dev/null \
		    > /dev/null 2> err || :
		if grep -q 'unknown option' err; then
			echo "--$o: $(head -1 err)" >> unknown
		fi
	done
	for o in 0 B C D E I J L M N P S T U V W X Y a d e g h i j k l m \
	    n o p q r s t u v x; do
		timeout 10 "$WSPX" "-$o" echo ::: a < /dev/null \
		    > /dev/null 2> err || :
		if grep -q 'unknown option' err; then
			echo "-$o: $(head -1 err)" >> unknown
		fi
	done
	if [ -e unknown ]; then
		cat unknown >&2
		return 1
	fi
}

@test "{= ... =} is refused with an error naming it, status 255" {
	local cmd
	for cmd in 'echo {= $_=uc($_) =}' 'echo {=uc=}' 'echo x{= 1 =}y'; do
		run sh -c '"$WSPX" "$0" ::: a 2> err; echo "status $?"' "$cmd"
		[ "$output" = "status 255" ]
		[ "$(wc -l < err)" -eq 1 ]
		expr=${cmd#echo }
		expr=${expr#x}
		grep -qF ": ${expr%y} is Perl code" err
	done
	run sh -c '"$WSPX" -q echo "{= s/a/b/ =}" ::: a 2> err'
	[ "$status" -eq 255 ]
	[ -z "$output" ]
	grep -qF ': {= s/a/b/ =} is Perl code' err
	run sh -c '"$WSPX" -X touch ran "{= 1 =}" ::: a 2> err'
	[ "$status" -eq 255 ]
	[ ! -e ran ]
}

@test "{= only in an input value, or alone in the command, is plain text" {
	same -k echo {} ::: '{= 1 =}'
	[ "$(cat wspx.out)" = "{= 1 =}" ]
	same -k echo '{=' ::: a
	same -k echo '=}' ::: a
}

@test "-g is --group, a GNU spelling GNU parallel 20221122 no longer takes" {
	run "$WSPX" -g -k echo ::: a b
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf 'a\nb')" ]
	run "$WSPX" -g -k 'echo 1{}; sleep 0.1; echo 2{}' ::: a b
	[ "$output" = "$(printf '1a\n2a\n1b\n2b')" ]
}

@test "--no-keep-order, --silent and --env run as in GNU parallel" {
	same --no-keep-order echo ::: a
	same -k --no-keep-order -j1 echo ::: a b c
	same -k -v --silent echo ::: a b
	[ "$(cat wspx.out)" = "$(printf 'a\nb')" ]
	FOO=bar same -k --env FOO 'echo $FOO' ::: a
	[ "$(cat wspx.out)" = "bar a" ]
	FOO=bar same -k --env=FOO 'echo $FOO' ::: a
}
