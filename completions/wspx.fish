# fish completion for wspx(1).  Install as wspx.fish in a directory of
# $fish_complete_path (such as ~/.config/fish/completions).
#
# Before COMMAND: wspx's options, GNU parallel's spellings too
# (tests/cli/docs.bats checks them against `wspx --help`), files after -a,
# --shell, --metrics, --events, --trace, --joblog, --sshloginfile, --transfer-file,
# --return and --trc, directories after --tmpdir, --results and
# --workdir, the main policies after --halt, exported variables after
# --env, command names after --ssh, nothing after the other options that
# take a value (-x; the hosts of -S too), and command names and the
# commands for job files (run, check, list, graph) and report.
# After one of those: the options again, then a job file (*.yml, *.yaml),
# and after `run FILE` the names of its jobs, as `wspx list FILE` prints
# them.  From COMMAND on: COMMAND's own completion.

# The options that take a value, as separate words on the command line.
function __wspx_value_options
    printf '%s\n' -a --arg-file --argfile -d --delimiter -C --colsep \
        --col-sep --trim -n --max-args --maxargs -N --max-replace-args \
        --maxreplaceargs -s --max-chars --maxchars -L -E --arg-sep \
        --argsep --arg-file-sep --argfilesep -I --extensionreplace --er \
        --basenamereplace --bnr --dirnamereplace --dnr \
        --basenameextensionreplace --bner --seqreplace --slotreplace \
        --parens --shell -j --jobs \
        -P --max-procs --maxprocs --tagstring --tag-string --tmpdir \
        --tempdir --compress-program --use-compress-program \
        --compressprogram --usecompressprogram --decompress-program \
        --use-decompress-program --decompressprogram \
        --usedecompressprogram --term-timeout --progress-interval --total \
        --total-jobs --totaljobs --metrics --events --trace --joblog --jl \
        --retries --retry-delay --timeout --halt --halt-on-error --haltonerror --delay \
        --results --res --memfree --load --nice -J --profile --semaphore-name \
        --semaphorename --id --semaphore-timeout --semaphoretimeout --st \
        --block --block-size \
        --blocksize --recend --recstart --header -S --sshlogin \
        --sshloginfile --slf --ssh -W --workdir --wd --work-dir --env \
        --transfer-file --transferfile --transfer-files --transferfiles \
        --tf --return --trc --slurm-cpus --slurm-partition --slurm-args
end

# Where the command line is: "options" (before COMMAND), "value" (after
# an option that takes a value), "command" (COMMAND's arguments, or
# COMMAND after --); after a command for job files, "file" (before its
# file), "jobvalue" (after an option there), then "jobs" and the file
# (after `run FILE` or `graph FILE`) or "done" (after the file of check
# or list).
function __wspx_state
    set -l valopts (__wspx_value_options)
    set -l tokens (commandline -opc)
    set -e tokens[1]
    set -l skip 0
    set -l jobcmd
    set -l dashes 0
    for t in $tokens
        if test $skip -eq 1
            set skip 0
            continue
        end
        set -l option 1
        if test $dashes -eq 1
            set option 0
        else
            switch $t
                case --
                    # after it, COMMAND; after a command for job files,
                    # the file
                    if test -z "$jobcmd"
                        echo command
                        return
                    end
                    set dashes 1
                case '--*=*'
                case '--*'
                    contains -- $t $valopts; and set skip 1
                case '-?*'
                    # a bundle (-kv, -j4, -kj 4): its first option that
                    # takes a value takes the rest of it, or the next word
                    for c in (string split '' -- (string sub -s 2 -- $t))
                        # -i's, -l's and -e's value, if any, is the
                        # rest of the word
                        contains -- $c i l e; and break
                        if contains -- -$c $valopts
                            test -z (string split -m1 -- $c (string sub -s 2 -- $t))[2]
                            and set skip 1
                            break
                        end
                    end
                case '*'
                    set option 0
            end
        end
        test $option -eq 1; and continue
        if test -n "$jobcmd"
            # the job file
            if contains -- $jobcmd run graph
                printf '%s\n' jobs $t
            else
                echo done
            end
            return
        end
        if test $t = report
            echo report
            return
        end
        if not contains -- $t run check list graph
            echo command
            return
        end
        set jobcmd $t
    end
    if test -z "$jobcmd"
        test $skip -eq 1; and echo value; or echo options
    else
        test $skip -eq 1; and echo jobvalue; or echo file
    end
end

# Whether the command line has not reached COMMAND, or the file of a
# command for job files, yet: where options go.
function __wspx_before_command
    contains -- (__wspx_state)[1] options value file jobvalue
end

# The job files (*.yml, *.yaml) and the directories that the current
# word begins.
function __wspx_job_files
    set -l word (commandline -ct)
    set -l files $word*.yml $word*.yaml $word*/
    printf '%s\n' $files
end

# The jobs of the file of `run FILE` or `graph FILE`.
function __wspx_jobs
    set -l state (__wspx_state)
    test "$state[1]" = jobs; and test "$state[2]" != -
    or return
    wspx list (string replace -r '^~/' ~/ -- $state[2]) 2>/dev/null </dev/null
end

complete -c wspx -f
complete -c wspx -n __wspx_before_command -s a -l arg-file -r -F -d "Read input from FILE (repeatable: cross product)"
complete -c wspx -n __wspx_before_command -l argfile -r -F -d "Read input from FILE (repeatable: cross product)"
complete -c wspx -n __wspx_before_command -s 0 -l null -d "Input records end with NUL, not newline"
complete -c wspx -n __wspx_before_command -s d -l delimiter -x -d "Input records end with CHAR (\\n \\t \\0 \\r \\\\)"
complete -c wspx -n __wspx_before_command -s C -l colsep -x -d "Split records into fields {1} {2} ... at REGEX"
complete -c wspx -n __wspx_before_command -l col-sep -x -d "Split records into fields {1} {2} ... at REGEX"
complete -c wspx -n __wspx_before_command -l trim -x -a "n l r lr rl" -d "Trim blanks off fields (--colsep: lr)"
complete -c wspx -n __wspx_before_command -s n -l max-args -x -d "Put N input records in each job"
complete -c wspx -n __wspx_before_command -l maxargs -x -d "Put N input records in each job"
complete -c wspx -n __wspx_before_command -s N -l max-replace-args -x -d "Put N records in each job, {1}..{N} naming them"
complete -c wspx -n __wspx_before_command -l maxreplaceargs -x -d "Put N records in each job, {1}..{N} naming them"
complete -c wspx -n __wspx_before_command -s m -d "Put as many records in each job as fit (-s), {} all of them"
complete -c wspx -n __wspx_before_command -s X -d "The same as -m, each word with {} repeated once per record"
complete -c wspx -n __wspx_before_command -l xargs -d "As -m, but the last records are not spread over the -j jobs"
complete -c wspx -n __wspx_before_command -s s -l max-chars -x -d "Make command lines of at most N characters (-m, -X, --xargs)"
complete -c wspx -n __wspx_before_command -l maxchars -x -d "Make command lines of at most N characters (-m, -X, --xargs)"
complete -c wspx -n __wspx_before_command -s x -l exit -d "Stop with an error at a record too long for one command line"
complete -c wspx -n __wspx_before_command -l show-limits -d "Print the command line's length limits to stderr, then run"
complete -c wspx -n __wspx_before_command -l showlimits -d "Print the command line's length limits to stderr, then run"
complete -c wspx -n __wspx_before_command -s L -x -d "Put N lines in each job, one argument each (a line ending in a blank goes on)"
complete -c wspx -n __wspx_before_command -s l -l max-lines -d "The same as -L N, N in the same word (default 1)"
complete -c wspx -n __wspx_before_command -l maxlines -d "The same as -L N, N in the same word (default 1)"
complete -c wspx -n __wspx_before_command -s E -x -d "The input ends at a record that is STR"
complete -c wspx -n __wspx_before_command -s e -l eof -d "The same as -E STR, STR in the same word (xargs -e)"
complete -c wspx -n __wspx_before_command -l arg-sep -x -d "Use STR instead of ::: (and STR+ for :::+)"
complete -c wspx -n __wspx_before_command -l argsep -x -d "Use STR instead of ::: (and STR+ for :::+)"
complete -c wspx -n __wspx_before_command -l arg-file-sep -x -d "Use STR instead of :::: (and STR+ for ::::+)"
complete -c wspx -n __wspx_before_command -l argfilesep -x -d "Use STR instead of :::: (and STR+ for ::::+)"
complete -c wspx -n __wspx_before_command -l link -d "Read the input sources in step, not as a cross product"
complete -c wspx -n __wspx_before_command -l xapply -d "Read the input sources in step, not as a cross product"
complete -c wspx -n __wspx_before_command -s r -l no-run-if-empty -d "Skip input records that are empty or blank"
complete -c wspx -n __wspx_before_command -l norunifempty -d "Skip input records that are empty or blank"
complete -c wspx -n __wspx_before_command -s I -x -d "Use STR instead of {} for the argument"
complete -c wspx -n __wspx_before_command -s i -l replace -d "The same as -I STR, STR in the same word (xargs -i)"
complete -c wspx -n __wspx_before_command -l extensionreplace -x -d "Use STR instead of {.}"
complete -c wspx -n __wspx_before_command -l er -x -d "Use STR instead of {.}"
complete -c wspx -n __wspx_before_command -l basenamereplace -x -d "Use STR instead of {/}"
complete -c wspx -n __wspx_before_command -l bnr -x -d "Use STR instead of {/}"
complete -c wspx -n __wspx_before_command -l dirnamereplace -x -d "Use STR instead of {//}"
complete -c wspx -n __wspx_before_command -l dnr -x -d "Use STR instead of {//}"
complete -c wspx -n __wspx_before_command -l basenameextensionreplace -x -d "Use STR instead of {/.}"
complete -c wspx -n __wspx_before_command -l bner -x -d "Use STR instead of {/.}"
complete -c wspx -n __wspx_before_command -l seqreplace -x -d "Use STR instead of {#}"
complete -c wspx -n __wspx_before_command -l slotreplace -x -d "Use STR instead of {%}"
complete -c wspx -n __wspx_before_command -l parens -x -d "Brackets of (refused) Perl: STR's two halves, not {= =}"
complete -c wspx -n __wspx_before_command -l shell -r -F -d "Run commands that need a shell with PATH"
complete -c wspx -n __wspx_before_command -s q -l quote -d "Run COMMAND's words as they are, no shell"
complete -c wspx -n __wspx_before_command -s j -l jobs -x -d "Run N jobs at once: N, N%, +N, -N (0: as many as possible)"
complete -c wspx -n __wspx_before_command -s P -l max-procs -x -d "The same as -j (xargs -P)"
complete -c wspx -n __wspx_before_command -l maxprocs -x -d "The same as -j (xargs -P)"
complete -c wspx -n __wspx_before_command -s g -l group -d "Print each job's output whole when it ends (default)"
complete -c wspx -n __wspx_before_command -l line-buffer -d "Print whole lines of output as they come"
complete -c wspx -n __wspx_before_command -l line-buffered -d "Print whole lines of output as they come"
complete -c wspx -n __wspx_before_command -l linebuffer -d "Print whole lines of output as they come"
complete -c wspx -n __wspx_before_command -l linebuffered -d "Print whole lines of output as they come"
complete -c wspx -n __wspx_before_command -l lb -d "Print whole lines of output as they come"
complete -c wspx -n __wspx_before_command -s u -l ungroup -d "Let jobs write to the output directly"
complete -c wspx -n __wspx_before_command -s k -l keep-order -d "Print output in input order"
complete -c wspx -n __wspx_before_command -l keeporder -d "Print output in input order"
complete -c wspx -n __wspx_before_command -l tag -d "Put the job's arguments before each line of its output"
complete -c wspx -n __wspx_before_command -l tagstring -x -d "Put STR (with replacement strings) before each line"
complete -c wspx -n __wspx_before_command -l tag-string -x -d "Put STR (with replacement strings) before each line"
complete -c wspx -n __wspx_before_command -l dry-run -d "Print the commands, run nothing"
complete -c wspx -n __wspx_before_command -l dryrun -d "Print the commands, run nothing"
complete -c wspx -n __wspx_before_command -l dr -d "Print the commands, run nothing"
complete -c wspx -n __wspx_before_command -s v -d "Print each command on stdout, before its output"
complete -c wspx -n __wspx_before_command -s t -l verbose -d "Print each command to stderr as it starts"
complete -c wspx -n __wspx_before_command -l tmpdir -x -a "(__fish_complete_directories)" -d "Put temporary files in DIR"
complete -c wspx -n __wspx_before_command -l tempdir -x -a "(__fish_complete_directories)" -d "Put temporary files in DIR"
complete -c wspx -n __wspx_before_command -l compress -d "Compress the output that waits in --tmpdir"
complete -c wspx -n __wspx_before_command -l compress-program -x -d "Compress it with the shell command PRG"
complete -c wspx -n __wspx_before_command -l use-compress-program -x -d "Compress it with the shell command PRG"
complete -c wspx -n __wspx_before_command -l compressprogram -x -d "Compress it with the shell command PRG"
complete -c wspx -n __wspx_before_command -l usecompressprogram -x -d "Compress it with the shell command PRG"
complete -c wspx -n __wspx_before_command -l decompress-program -x -d "Decompress it with PRG"
complete -c wspx -n __wspx_before_command -l use-decompress-program -x -d "Decompress it with PRG"
complete -c wspx -n __wspx_before_command -l decompressprogram -x -d "Decompress it with PRG"
complete -c wspx -n __wspx_before_command -l usedecompressprogram -x -d "Decompress it with PRG"
complete -c wspx -n __wspx_before_command -l term-timeout -x -d "After a signal, wait DUR before SIGKILL (default 2s)"
complete -c wspx -n __wspx_before_command -l no-status -d "No status line on a terminal"
complete -c wspx -n __wspx_before_command -l progress -d "Print a progress line every few seconds (off a terminal)"
complete -c wspx -n __wspx_before_command -l progress-interval -x -d "Time between --progress lines (default 5s)"
complete -c wspx -n __wspx_before_command -l total -x -d "Expect N jobs: progress and ETA before the input ends"
complete -c wspx -n __wspx_before_command -l total-jobs -x -d "Expect N jobs: progress and ETA before the input ends"
complete -c wspx -n __wspx_before_command -l totaljobs -x -d "Expect N jobs: progress and ETA before the input ends"
complete -c wspx -n __wspx_before_command -l stats -d "Print the run's counters to stderr at exit"
complete -c wspx -n __wspx_before_command -l metrics -r -F -d "Write the run's counters to FILE as JSON at exit"
complete -c wspx -n __wspx_before_command -l events -r -F -d "Write a JSON line per job start and end to FILE (- stdout)"
complete -c wspx -n __wspx_before_command -l trace -r -F -d "Write the run to FILE as a Chrome trace (Perfetto): jobs, counters"
complete -c wspx -n __wspx_before_command -l joblog -r -F -d "Log each job's run to FILE as GNU parallel does (+FILE appends)"
complete -c wspx -n __wspx_before_command -l jl -r -F -d "Log each job's run to FILE as GNU parallel does (+FILE appends)"
complete -c wspx -n __wspx_before_command -l resume -d "Skip the jobs the --joblog has a row of"
complete -c wspx -n __wspx_before_command -l resume-failed -d "Skip the jobs the --joblog shows succeeded; run the rest"
complete -c wspx -n __wspx_before_command -l resumefailed -d "Skip the jobs the --joblog shows succeeded; run the rest"
complete -c wspx -n __wspx_before_command -l retry-failed -d "Run again the commands the --joblog shows failed"
complete -c wspx -n __wspx_before_command -l retryfailed -d "Run again the commands the --joblog shows failed"
complete -c wspx -n __wspx_before_command -l retries -x -d "Run a failed job up to N more times (default 0: none)"
complete -c wspx -n __wspx_before_command -l retry-delay -x -d "Wait DUR before a retry, twice as long before each next"
complete -c wspx -n __wspx_before_command -l timeout -x -d "Kill a job that runs longer than DUR, or N% of the median"
complete -c wspx -n __wspx_before_command -l halt -x -a "never now,fail=1 soon,fail=1 now,success=1 soon,success=1 now,done=1 soon,done=1" -d "Stop early: now|soon,fail|success|done=N|N% (default never)"
complete -c wspx -n __wspx_before_command -l halt-on-error -x -a "never now,fail=1 soon,fail=1 now,success=1 soon,success=1 now,done=1 soon,done=1" -d "Stop early: now|soon,fail|success|done=N|N% (default never)"
complete -c wspx -n __wspx_before_command -l haltonerror -x -a "never now,fail=1 soon,fail=1 now,success=1 soon,success=1 now,done=1 soon,done=1" -d "Stop early: now|soon,fail|success|done=N|N% (default never)"
complete -c wspx -n __wspx_before_command -l delay -x -d "Start jobs at least DUR apart"
complete -c wspx -n __wspx_before_command -l results -x -a "(__fish_complete_directories)" -d "Keep each job's stdout, stderr and exit value in DIR/SEQ/, not printed"
complete -c wspx -n __wspx_before_command -l res -x -a "(__fish_complete_directories)" -d "Keep each job's stdout, stderr and exit value in DIR/SEQ/, not printed"
complete -c wspx -n __wspx_before_command -l memfree -x -d "Start no job while less than SIZE is available (500M, 1.5G)"
complete -c wspx -n __wspx_before_command -l load -x -d "Start no job while the load average is N (or N% of the CPUs) or more"
complete -c wspx -n __wspx_before_command -l nice -x -d "Run the jobs at niceness N (-20 to 19; lower needs root)"
complete -c wspx -n __wspx_before_command -s J -l profile -x -a "(for d in \$PARALLEL_HOME \$HOME/.parallel; test -d \$d; and command ls \$d; end 2>/dev/null)" -d "Read options from profile NAME (~/.parallel/NAME)"
complete -c wspx -n __wspx_before_command -l plain -d "Read no profile and not \$PARALLEL"
complete -c wspx -n __wspx_before_command -s p -l interactive -d "Ask on the terminal before each job; run it on y"
complete -c wspx -n __wspx_before_command -s T -l tty -d "Give the jobs the terminal as stdin (-j1 -u unless given)"
complete -c wspx -n __wspx_before_command -l semaphore -d "Run COMMAND once, as one of -j holders of a semaphore (sem)"
complete -c wspx -n __wspx_before_command -l semaphore-name -x -d "The semaphore's name (default: the terminal's)"
complete -c wspx -n __wspx_before_command -l semaphorename -x -d "The semaphore's name (default: the terminal's)"
complete -c wspx -n __wspx_before_command -l id -x -d "The semaphore's name (default: the terminal's)"
complete -c wspx -n __wspx_before_command -l semaphore-timeout -x -d "Wait DUR at most for a slot, then run (-DUR: do not)"
complete -c wspx -n __wspx_before_command -l semaphoretimeout -x -d "Wait DUR at most for a slot, then run (-DUR: do not)"
complete -c wspx -n __wspx_before_command -l st -x -d "Wait DUR at most for a slot, then run (-DUR: do not)"
complete -c wspx -n __wspx_before_command -l fg -d "With --semaphore: wait for COMMAND, exit with its status"
complete -c wspx -n __wspx_before_command -l bg -d "With --semaphore: exit once it has a slot, COMMAND left running (the default)"
complete -c wspx -n __wspx_before_command -l wait -d "With --semaphore: wait until no COMMAND holds the semaphore"
complete -c wspx -n __wspx_before_command -l jobserver -d "Share -j with the jobs' make through a jobserver (MAKEFLAGS)"
complete -c wspx -n __wspx_before_command -l pipe -d "Cut stdin into blocks of records, each the stdin of one job"
complete -c wspx -n __wspx_before_command -l spreadstdin -d "Cut stdin into blocks of records, each the stdin of one job"
complete -c wspx -n __wspx_before_command -l pipepart -d "The same for the file -a FILE: each job reads its own part"
complete -c wspx -n __wspx_before_command -l pipe-part -d "The same for the file -a FILE: each job reads its own part"
complete -c wspx -n __wspx_before_command -l block -x -d "With --pipe, blocks of about SIZE bytes (default 1M; 10M, 1.5G)"
complete -c wspx -n __wspx_before_command -l block-size -x -d "With --pipe, blocks of about SIZE bytes (default 1M; 10M, 1.5G)"
complete -c wspx -n __wspx_before_command -l blocksize -x -d "With --pipe, blocks of about SIZE bytes (default 1M; 10M, 1.5G)"
complete -c wspx -n __wspx_before_command -l recend -x -d "With --pipe, records end with STR (default newline)"
complete -c wspx -n __wspx_before_command -l recstart -x -d "With --pipe, records start with STR"
complete -c wspx -n __wspx_before_command -l regexp -d "With --pipe, --recstart and --recend are regular expressions"
complete -c wspx -n __wspx_before_command -l regex -d "With --pipe, --recstart and --recend are regular expressions"
complete -c wspx -n __wspx_before_command -l header -x -d "With --pipe, put the first N lines (or REGEX's match) atop every block; without, name fields {NAME} by the first record"
complete -c wspx -n __wspx_before_command -l round-robin -d "With --pipe, start -j jobs and give them blocks in turn"
complete -c wspx -n __wspx_before_command -l roundrobin -d "With --pipe, start -j jobs and give them blocks in turn"
complete -c wspx -n __wspx_before_command -l round -d "With --pipe, start -j jobs and give them blocks in turn"
complete -c wspx -n __wspx_before_command -l cat -d "With --pipe, {} is a file holding the block, not stdin"
complete -c wspx -n __wspx_before_command -l fifo -d "With --pipe, {} is a FIFO giving the block, not stdin"
complete -c wspx -n __wspx_before_command -l plus -d "GNU parallel's extra replacement strings: {+/} {+.} {..} {##} {0#} ..."
complete -c wspx -n __wspx_before_command -l files -d "Print the name of a file holding each job's output, not the output"
complete -c wspx -n __wspx_before_command -l output-as-files -d "Print the name of a file holding each job's output, not the output"
complete -c wspx -n __wspx_before_command -l outputasfiles -d "Print the name of a file holding each job's output, not the output"
complete -c wspx -n __wspx_before_command -l force -d "wspx run: run the jobs that are up to date too"
complete -c wspx -n __wspx_before_command -l eta -d "Show progress and ETA: the status line, or --progress lines"
complete -c wspx -n __wspx_before_command -l bar -d "Show progress and ETA: the status line, or --progress lines"
complete -c wspx -n __wspx_before_command -l no-keep-order -d "Undo an earlier -k"
complete -c wspx -n __wspx_before_command -l nokeeporder -d "Undo an earlier -k"
complete -c wspx -n __wspx_before_command -l nok -d "Undo an earlier -k"
complete -c wspx -n __wspx_before_command -l no-k -d "Undo an earlier -k"
complete -c wspx -n __wspx_before_command -l silent -d "Undo an earlier -v and -t"
complete -c wspx -n __wspx_before_command -l quiet -d "Job files: a progress line for each failed job only"
complete -c wspx -n __wspx_before_command -l explain -d "Wspx run: say why each job runs or is up to date"
complete -c wspx -n __wspx_before_command -l json -d "Wspx list: the jobs as JSON"
complete -c wspx -n __wspx_before_command -l watch -d "Wspx run: after the run, run again when a job's sources change"
complete -c wspx -n __wspx_before_command -s S -l sshlogin -x -d "Run jobs on HOSTS over ssh (user@host:port, : for here; N/: its slots)"
complete -c wspx -n __wspx_before_command -l sshloginfile -r -F -d "The hosts of -S, one a line"
complete -c wspx -n __wspx_before_command -l slf -r -F -d "The hosts of -S, one a line"
complete -c wspx -n __wspx_before_command -l ssh -x -a "(__fish_complete_command)" -d "The ssh command (default: ssh)"
complete -c wspx -n __wspx_before_command -s M -l controlmaster -d "No effect: wspx always shares its ssh connections"
complete -c wspx -n __wspx_before_command -s W -l workdir -x -a "(__fish_complete_directories)" -d "Remote jobs run in DIR (default: this directory's path)"
complete -c wspx -n __wspx_before_command -l wd -x -a "(__fish_complete_directories)" -d "Remote jobs run in DIR (default: this directory's path)"
complete -c wspx -n __wspx_before_command -l work-dir -x -a "(__fish_complete_directories)" -d "Remote jobs run in DIR (default: this directory's path)"
complete -c wspx -n __wspx_before_command -l env -x -a "(set --names --export)" -d "Export variable NAME to remote jobs (local ones get it all)"
complete -c wspx -n __wspx_before_command -l transfer-file -r -F -d "Copy FILE to the job's host first ({} and the like allowed)"
complete -c wspx -n __wspx_before_command -l transferfile -r -F -d "Copy FILE to the job's host first ({} and the like allowed)"
complete -c wspx -n __wspx_before_command -l transfer-files -r -F -d "Copy FILE to the job's host first ({} and the like allowed)"
complete -c wspx -n __wspx_before_command -l transferfiles -r -F -d "Copy FILE to the job's host first ({} and the like allowed)"
complete -c wspx -n __wspx_before_command -l tf -r -F -d "Copy FILE to the job's host first ({} and the like allowed)"
complete -c wspx -n __wspx_before_command -l transfer -d "The same as --transfer-file {}"
complete -c wspx -n __wspx_before_command -l return -r -F -d "Copy FILE back from the job's host after it"
complete -c wspx -n __wspx_before_command -l cleanup -d "Remove the transferred and returned files on the host"
complete -c wspx -n __wspx_before_command -l trc -r -F -d "The same as --transfer --return FILE --cleanup"
complete -c wspx -n __wspx_before_command -l slurm -d "Run each job as a Slurm job step (srun) in the allocation"
complete -c wspx -n __wspx_before_command -l slurm-cpus -x -d "CPUs per job step (default 1)"
complete -c wspx -n __wspx_before_command -l slurm-partition -x -d "Outside an allocation, ask for one in partition P"
complete -c wspx -n __wspx_before_command -l slurm-args -x -d "Outside an allocation, ask for one with salloc ARGS"
complete -c wspx -n __wspx_before_command -l will-cite -d "No effect (for GNU parallel command lines)"
complete -c wspx -n __wspx_before_command -l willcite -d "No effect (for GNU parallel command lines)"
complete -c wspx -n __wspx_before_command -l nn -d "No effect (for GNU parallel command lines)"
complete -c wspx -n __wspx_before_command -l nonotice -d "No effect (for GNU parallel command lines)"
complete -c wspx -n __wspx_before_command -l no-notice -d "No effect (for GNU parallel command lines)"
complete -c wspx -n __wspx_before_command -l number-of-cores -d "Print the CPU cores wspx may use and exit"
complete -c wspx -n __wspx_before_command -l numberofcores -d "Print the CPU cores wspx may use and exit"
complete -c wspx -n __wspx_before_command -l number-of-cpus -d "Print the CPU cores wspx may use and exit"
complete -c wspx -n __wspx_before_command -l numberofcpus -d "Print the CPU cores wspx may use and exit"
complete -c wspx -n __wspx_before_command -l number-of-threads -d "Print the hardware threads wspx may use and exit"
complete -c wspx -n __wspx_before_command -l numberofthreads -d "Print the hardware threads wspx may use and exit"
complete -c wspx -n __wspx_before_command -l number-of-sockets -d "Print the CPU sockets wspx may use and exit"
complete -c wspx -n __wspx_before_command -l numberofsockets -d "Print the CPU sockets wspx may use and exit"
complete -c wspx -n __wspx_before_command -s V -l version -d "Print the version and exit"
complete -c wspx -n __wspx_before_command -s h -l help -d "Print the help and exit"

# The commands for job files, then a job file, then for run its jobs.
complete -c wspx -n 'test (__wspx_state)[1] = options' -a run -d "Run the jobs of a job file (wspx(5))"
complete -c wspx -n 'test (__wspx_state)[1] = options' -a check -d "Read and check a job file"
complete -c wspx -n 'test (__wspx_state)[1] = options' -a list -d "Print the names of the jobs of a job file"
complete -c wspx -n 'test (__wspx_state)[1] = options' -a graph -d "Print a job file as a dot digraph"
complete -c wspx -n 'test (__wspx_state)[1] = options' -a report -d "What a trace, events file or joblog says of its run"

# After report: its options and the file to read.
complete -c wspx -n 'test (__wspx_state)[1] = report' -l svg -r -F -d "Draw the run as an SVG timeline"
complete -c wspx -n 'test (__wspx_state)[1] = report' -l top -x -d "List the N slowest jobs"
complete -c wspx -n 'test (__wspx_state)[1] = report' -F
complete -c wspx -n 'test (__wspx_state)[1] = file' -a "(__wspx_job_files)"
complete -c wspx -n 'test (__wspx_state)[1] = jobs' -a "(__wspx_jobs)"

# COMMAND, then its arguments with its own completion.
complete -c wspx -n 'not contains -- (__wspx_state)[1] file jobvalue jobs done report' -x -a "(__fish_complete_subcommand (__wspx_value_options))"
