# bash completion for wspx(1)                                  -*- sh -*-
#
# Install as /usr/share/bash-completion/completions/wspx, or source it.
# Before COMMAND: wspx's options (GNU parallel's spellings too), files
# after -a, --shell, --metrics, --events, --trace, --joblog, --sshloginfile,
# --transfer-file, --return and --trc, directories after --tmpdir,
# --results and --workdir, the main policies after --halt, variable
# names after --env, command names after --ssh, nothing after the other
# options that take a value (numbers, sizes, durations, strings, the
# hosts of -S), and
# command names and the commands for job files: run, check, list, graph,
# and report.
# After one of those: the options again, then a job file (*.yml,
# *.yaml), and after `run FILE` the names of its jobs, as
# `wspx list FILE` prints them; after report its options and a file.
# From COMMAND on: the completion of COMMAND itself when bash-completion
# is loaded, else file names.

# Skip the options from word $1 on, with their values, as _wspx's locals:
# i is where that stopped, cmd the first word that is not an option (or
# the word after --), or 0 if there is none before the current word, and
# dashes 1 if -- came before it.
_wspx_skipopts()
{
	local w k

	cmd=0 dashes=0
	for ((i = $1; i < COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		if [[ $w == -- ]]; then
			cmd=$((i + 1)) dashes=1
			break
		elif [[ ${COMP_WORDS[i+1]} == = ]]; then
			continue	# --opt=value, split by bash at '='
		elif [[ $w == = ]]; then
			((i++))		# the value
		elif [[ $w == --* ]]; then
			[[ $argopts == *" $w "* ]] && ((i++))
		elif [[ $w == -?* ]]; then
			# a bundle (-kv, -j4, -kj 4): its first option that
			# takes a value takes the rest of it, or the next word
			for ((k = 1; k < ${#w}; k++)); do
				# -i's, -l's and -e's value, if any, is the
				# rest of the word
				[[ ${w:k:1} == [iel] ]] && break
				[[ $argopts == *" -${w:k:1} "* ]] || continue
				((k == ${#w} - 1)) && ((i++))
				break
			done
		elif [[ $w != -* || $w == - ]]; then
			cmd=$i
			break
		fi
	done
}

# The current word is among the options: complete an option's value or an
# option and return 0, or return 1 if it is the first word that is not an
# option.
_wspx_option()
{
	if [[ -z $needs ]] && ((i > COMP_CWORD)); then
		needs=${COMP_WORDS[COMP_CWORD-1]}
		[[ $needs == -[!-]* ]] && needs=-${needs: -1}
	fi
	if [[ -n $needs ]]; then
		if [[ $fileopts == *" $needs "* ]]; then
			compopt -o filenames 2>/dev/null
			COMPREPLY=($(compgen -f -- "$cur"))
		elif [[ $diropts == *" $needs "* ]]; then
			compopt -o filenames 2>/dev/null
			COMPREPLY=($(compgen -d -- "$cur"))
		elif [[ $haltopts == *" $needs "* ]]; then
			COMPREPLY=($(compgen -W "$halts" -- "$cur"))
		elif [[ $needs == --env ]]; then
			COMPREPLY=($(compgen -e -- "$cur"))
		elif [[ $needs == --ssh ]]; then
			COMPREPLY=($(compgen -c -- "$cur"))
		fi
		return 0	# a number or a string: nothing to offer
	fi
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$opts" -- "$cur"))
		return 0
	fi
	return 1
}

# After the command for job files at word $1: the options, then the job
# file, then for run the jobs of that file, quoted as file names are (a
# leg's name has '=', at which bash splits the word: only what follows
# the last one is put in).
_wspx_jobfile()
{
	local file word pre n
	local -a names

	_wspx_skipopts $(($1 + 1))
	if ((i >= COMP_CWORD && cmd == 0)); then
		_wspx_option && return 0
		cmd=$COMP_CWORD
	fi
	if ((cmd == COMP_CWORD)); then
		compopt -o filenames 2>/dev/null
		COMPREPLY=($(compgen -f -X '!*.yml' -- "$cur")
		    $(compgen -f -X '!*.yaml' -- "$cur")
		    $(compgen -d -- "$cur"))
		return 0
	fi
	file=${COMP_WORDS[cmd]}
	[[ ${COMP_WORDS[$1]} == @(run|graph) && $file != - ]] || return 0
	[[ $file == \~/* ]] && file=$HOME/${file#\~/}
	word=${COMP_LINE:0:COMP_POINT}
	word=${word##*[[:space:]]}
	word=${word//\\/}
	pre=
	[[ $word == *[=:]* ]] && pre=${word%"${word##*[=:]}"}
	mapfile -t names < <(wspx list "$file" 2>/dev/null </dev/null)
	compopt -o filenames 2>/dev/null
	for n in "${names[@]}"; do
		[[ $n == "$word"* ]] && COMPREPLY+=("${n#"$pre"}")
	done
}

# After report: its options, a file after --svg, none after --top, and
# the file to read.
_wspx_report()
{
	local prev=${COMP_WORDS[COMP_CWORD-1]}
	local reportopts='--svg --top --help'
	local reportargopts='--svg --top'

	compopt -o filenames 2>/dev/null
	if [[ $prev == --top ]]; then
		return 0
	elif [[ $prev == --svg ]]; then
		COMPREPLY=($(compgen -f -- "$cur"))
	elif [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$reportopts" -- "$cur"))
	else
		COMPREPLY=($(compgen -f -- "$cur"))
	fi
}

_wspx()
{
	# Every option, as `wspx --help` lists them (tests/cli/docs.bats
	# checks these lists against it); then those that take a value,
	# those whose value is a file or a directory, and the values of
	# --halt.
	local opts='-a --arg-file --argfile -0 --null -d --delimiter
	    -C --colsep --col-sep --trim -n --max-args --maxargs
	    -N --max-replace-args --maxreplaceargs -m -X --xargs
	    -s --max-chars --maxchars -x --exit --show-limits --showlimits
	    -L -l --max-lines --maxlines -E -e --eof --arg-sep --argsep
	    --arg-file-sep --argfilesep --link --xapply
	    -r --no-run-if-empty --norunifempty -I -i --replace
	    --extensionreplace --er --basenamereplace --bnr
	    --dirnamereplace --dnr --basenameextensionreplace --bner
	    --seqreplace --slotreplace --parens --shell
	    -q --quote -j --jobs -P --max-procs --maxprocs -g --group
	    --line-buffer --line-buffered --linebuffer --linebuffered --lb
	    -u --ungroup -k --keep-order --keeporder --tag --tagstring
	    --tag-string --dry-run --dryrun --dr -v -t --verbose
	    --tmpdir --tempdir --compress --compress-program
	    --use-compress-program --compressprogram --usecompressprogram
	    --decompress-program --use-decompress-program
	    --decompressprogram --usedecompressprogram
	    --term-timeout --no-status --progress
	    --progress-interval --total --total-jobs --totaljobs --stats
	    --metrics --events --trace --joblog --jl --resume --resume-failed
	    --retry-failed --retries --retry-delay --timeout --halt
	    --halt-on-error --haltonerror --resumefailed --retryfailed
	    --delay --results --res --memfree --load --nice -J --profile --plain
	    -T --tty -p --interactive --semaphore --semaphore-name
	    --semaphorename --id --semaphore-timeout --semaphoretimeout --st
	    --fg --bg --wait
	    --jobserver --pipe --spreadstdin --pipepart --pipe-part
	    --block --block-size --blocksize --recend --recstart --regexp
	    --regex --header --round-robin --roundrobin --round --cat
	    --fifo --plus --files --output-as-files --outputasfiles
	    --force --eta --bar --no-keep-order --nokeeporder --nok --no-k
	    --silent --quiet --json --watch --explain -S --sshlogin --sshloginfile --slf --ssh
	    -M --controlmaster -W --workdir --wd --work-dir --env
	    --transfer-file --transferfile --transfer-files --transferfiles
	    --tf --transfer --return --cleanup --trc --slurm --slurm-cpus
	    --slurm-partition --slurm-args --will-cite --willcite --nn
	    --nonotice --no-notice --number-of-cores --numberofcores
	    --number-of-cpus --numberofcpus --number-of-threads
	    --numberofthreads --number-of-sockets --numberofsockets
	    -V --version -h --help'
	local argopts='-a --arg-file --argfile -d --delimiter -C --colsep
	    --col-sep --trim -n --max-args --maxargs -N --max-replace-args
	    --maxreplaceargs -s --max-chars --maxchars -L -E --arg-sep
	    --argsep --arg-file-sep --argfilesep -I --extensionreplace --er
	    --basenamereplace --bnr --dirnamereplace --dnr
	    --basenameextensionreplace --bner --seqreplace --slotreplace
	    --parens --shell -j --jobs
	    -P --max-procs --maxprocs --tagstring --tag-string --tmpdir
	    --tempdir --compress-program --use-compress-program
	    --compressprogram --usecompressprogram --decompress-program
	    --use-decompress-program --decompressprogram
	    --usedecompressprogram --term-timeout --progress-interval --total
	    --total-jobs --totaljobs --metrics --events --trace --joblog --jl
	    --retries --retry-delay --timeout --halt --halt-on-error --haltonerror --delay
	    --results --res --memfree --load --nice -J --profile --semaphore-name
	    --semaphorename --id --semaphore-timeout --semaphoretimeout --st
	    --block --block-size
	    --blocksize --recend --recstart --header -S --sshlogin
	    --sshloginfile --slf --ssh -W --workdir --wd --work-dir --env
	    --transfer-file --transferfile --transfer-files --transferfiles
	    --tf --return --trc --slurm-cpus --slurm-partition --slurm-args'
	local fileopts='-a --arg-file --argfile --shell --metrics --events --trace
	    --joblog --jl --sshloginfile --slf --transfer-file --transferfile
	    --transfer-files --transferfiles --tf --return --trc'
	local diropts='--tmpdir --tempdir --results --res -W --workdir --wd
	    --work-dir'
	local haltopts='--halt --halt-on-error --haltonerror'
	local halts='never now,fail=1 soon,fail=1 now,success=1
	    soon,success=1 now,done=1 soon,done=1'
	local jobcmds='run check list graph report'
	local cur i cmd=0 dashes=0 needs=

	argopts=" $(printf '%s ' $argopts)"
	fileopts=" $(printf '%s ' $fileopts)"
	diropts=" $(printf '%s ' $diropts)"
	haltopts=" $haltopts "
	COMPREPLY=()
	cur=${COMP_WORDS[COMP_CWORD]}

	# --opt=value: bash splits it at '=' (COMP_WORDBREAKS).
	if [[ $cur == = ]]; then
		needs=${COMP_WORDS[COMP_CWORD-1]}
		cur=
	elif ((COMP_CWORD >= 2)) && [[ ${COMP_WORDS[COMP_CWORD-1]} == = ]]
	then
		needs=${COMP_WORDS[COMP_CWORD-2]}
	fi

	# Find where COMMAND starts: after the options and their values.
	_wspx_skipopts 1
	if ((i >= COMP_CWORD && cmd == 0)); then
		_wspx_option && return 0
		cmd=$COMP_CWORD
	fi

	if ((cmd == COMP_CWORD)); then
		compopt -o filenames 2>/dev/null
		COMPREPLY=($(compgen -c -- "$cur"))
		((dashes)) || COMPREPLY+=($(compgen -W "$jobcmds" -- "$cur"))
		return 0
	fi
	# run, check, list and graph, unless -- came first
	if ((!dashes)); then
		case ${COMP_WORDS[cmd]} in
		run|check|list|graph)
			_wspx_jobfile "$cmd"
			return 0
			;;
		report)
			_wspx_report
			return 0
			;;
		esac
	fi
	# After :::, ::::, :::+ or ::::+, arguments and input files are
	# usually files.
	for ((i = cmd; i < COMP_CWORD; i++)); do
		if [[ ${COMP_WORDS[i]} == @(:::|::::|:::+|::::+) ]]
		then
			compopt -o filenames 2>/dev/null
			COMPREPLY=($(compgen -f -- "$cur"))
			return 0
		fi
	done
	# COMMAND's arguments: let COMMAND's own completion do them.
	if declare -F _command_offset >/dev/null; then
		_command_offset "$cmd"
		return 0
	fi
	compopt -o filenames 2>/dev/null
	COMPREPLY=($(compgen -f -- "$cur"))
} &&
	complete -F _wspx wspx
