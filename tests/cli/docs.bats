#!/usr/bin/env bats
# The documentation against the program: `wspx --help`, the option list of
# wspx(1) and the bash, zsh and fish completions name exactly the same
# options, and the same ones take a value; the manual page is clean for
# mandoc; the completions load and complete what they should; every
# example of the README runs (the tutorial's are tutorial.bats's).
#
# WSPX_DOCS may name another tree holding man/ and completions/ (to try
# the checks on a copy); WSPX another wspx.  The README's example runs
# from that tree too.

load helper
load services
bats_require_minimum_version 1.5.0

# The sshd that the README's remote examples start, if any.
teardown() {
	stop_sshd
}

DOCS=$(cd "${WSPX_DOCS:-$BATS_TEST_DIRNAME/../..}" && pwd)
MAN=$DOCS/man/wspx.1
BASHCOMP=$DOCS/completions/wspx.bash
ZSHCOMP=$DOCS/completions/_wspx
FISHCOMP=$DOCS/completions/wspx.fish

# Each extractor prints option names, one a line ("-a", "--arg-file"); with
# the argument "value", only those of the options that take a value in the
# next word.  An option whose value is optional, and then only in the same
# word ("-iSTR", "--replace=STR"), does not.  Every spelling of an option
# is an option name; only the SYNOPSIS leaves out the other spellings.

# --help's entries, one a line: "value" if the option takes a value in the
# next word ("-" if not), then its names.  --help has an entry for each
# option, its names on lines that start with "  -" or "      --", up to two
# spaces (the help), a line ending in a comma going on with the next
# ("  -j, --jobs, -P, --max-procs, --maxprocs N   run N jobs..."); the
# value's name (FILE, N, ...) follows the last name, and an optional value
# ("--replace[=STR]") is left out.  Those of `wspx report --help` too,
# unless MAINHELP is set.
help_entries() {
	{
		"$WSPX" --help
		[ -n "${MAINHELP:-}" ] || "$WSPX" report --help
	} | awk '
	/^(  -|      --)/ {
		names = $0
		sub(/^ +/, "", names)
		sub(/  .*/, "", names)
		n = split(names, w, / +/)
		for (i = 1; i <= n; i++) {
			if (w[i] ~ /^[A-Z]+$/)
				valued = 1
			if (w[i] !~ /^-/)
				continue
			sub(/,$/, "", w[i])
			sub(/\[=?[A-Z]+\]$/, "", w[i])
			entry = entry " " w[i]
		}
		if (names ~ /,$/)
			next
		print (valued ? "value" : "-") entry
		entry = ""
		valued = 0
	}'
}

# --help: the option names, one a line; with the argument "value", only
# those of the options that take a value in the next word.  With the
# second argument "primary", only the first short and the first long name
# of each option (the other spellings follow them).
help_options() {
	help_entries | awk -v want="$1" -v kind="$2" '
	want == "value" && $1 != "value" { next }
	{
		short = long = 0
		for (i = 2; i <= NF; i++) {
			islong = $i ~ /^--/
			if (kind == "primary" && (islong ? long : short))
				continue
			print $i
			if (islong)
				long = 1
			else
				short = 1
		}
	}'
}

# Print each line of stdin with its words sorted: an option's names in
# an order that does not depend on the place.
sortwords() {
	awk '{
		for (i = 2; i <= NF; i++)
			for (k = i; k > 1 && $(k - 1) > $k; k--) {
				t = $k; $k = $(k - 1); $(k - 1) = t
			}
		print
	}'
}

# wspx(1): the .Fl names of the .It lines in DESCRIPTION; an option takes
# a value if its .It line has an .Ar, one not in brackets
# (".It Fl i Ns Oo Ar str Oc" is optional).
man_options() {
	awk -v want="$1" '
	/^\.Sh / { indesc = $2 == "DESCRIPTION" }
	indesc && /^\.It Fl / {
		gsub(/\\-/, "-")
		gsub(/ Ns Oo [^O]* Oc/, "")
		if (want == "value" && $0 !~ / Ar /)
			next
		for (i = 2; i < NF; i++)
			if ($i == "Fl") {
				w = $(i + 1)
				sub(/[,;.]$/, "", w)
				print "-" w
			}
	}' "$MAN"
}

# wspx(1): the .It lines of the options in DESCRIPTION, one a line, with
# their .Fl names only ("-a --arg-file --argfile").
man_entries() {
	awk '
	/^\.Sh / { indesc = $2 == "DESCRIPTION" }
	indesc && /^\.It Fl / {
		gsub(/\\-/, "-")
		entry = ""
		for (i = 2; i < NF; i++)
			if ($i == "Fl") {
				w = $(i + 1)
				sub(/[,;.]$/, "", w)
				entry = entry (entry == "" ? "" : " ") "-" w
			}
		print entry
	}' "$MAN"
}

# wspx(1)'s SYNOPSIS: ".Op Fl 0hkquv" (flags bundled), ".Op Fl a Ar file",
# ".Op Fl -arg-file Ar file", ".Op Fl i Ns Op Ar str" (an optional value);
# the end of options, "Fl \-", is left out.
synopsis_options() {
	awk -v want="$1" '
	/^\.Sh / { insyn = $2 == "SYNOPSIS" }
	insyn && /^\.Op Fl / {
		sub(/ Ns Op .*/, "")
		w = $3
		if (w == "\\-")
			next
		if (want == "value" && $0 !~ / Ar /)
			next
		if (w ~ /^\\?-/) {
			sub(/^\\/, "", w)
			print "-" w
		} else {
			n = split(w, c, "")
			for (i = 1; i <= n; i++)
				print "-" c[i]
		}
	}' "$MAN"
}

# bash: the words of the single-quoted list assigned to the local variable
# $2 (opts: every option; argopts: those that take a value).
bash_list() {
	awk -v var="$1" '
	!inlist && $0 ~ "^[ \t]*local " var "=\047" {
		inlist = 1
		sub(/^[^\047]*\047/, "")
	}
	inlist {
		line = $0
		last = index(line, "\047") > 0
		if (last)
			sub(/\047.*/, "", line)
		n = split(line, w)
		for (i = 1; i <= n; i++)
			print w[i]
		if (last)
			exit
	}' "$BASHCOMP"
}

bash_options() {
	if [ "$1" = value ]; then
		bash_list argopts
		bash_list reportargopts
	else
		bash_list opts
		bash_list reportopts
	fi
}

# zsh: the option names of the _arguments specs, where they stand at the
# start of a spec, as in '-I+[...]', '(-)--version[...]' or
# '*'{-a+,--arg-file=}'[...]': after ' { , ) or *, and before [ , } or ';
# a + or = after the name means the option takes a value, and - or =- that
# its value is optional and in the same word.  The names in exclusion lists
# "(-a --arg-file)" are not taken.
zsh_options() {
	grep -v '^[[:space:]]*#' "$ZSHCOMP" | tr ',' '\n' |
	    grep -oE "(^|[{')*])--?[[:alnum:]][[:alnum:]-]*[+=]?-?([]}[']|\$)" |
	    sed -E "s/^[^-]*//; s/[]}[']\$//" |
	    if [ "$1" = value ]; then
		sed -n 's/[+=]$//p'
	    else
		sed -E 's/([+=]-?|-)$//'
	    fi
}

# fish: -s X and -l NAME of the `complete -c wspx` lines, descriptions
# left out; an option takes a value if its line has -r or -x.
fish_options() {
	grep -E '^[[:space:]]*complete +-c +wspx ' "$FISHCOMP" |
	    sed -E 's/ -d "([^"\\]|\\.)*"//; s/ -d '\''[^'\'']*'\''//' |
	    awk -v want="$1" '{
		valued = 0
		for (i = 1; i <= NF; i++)
			if ($i == "-r" || $i == "-x")
				valued = 1
		if (want == "value" && !valued)
			next
		for (i = 1; i < NF; i++)
			if ($i == "-s")
				print "-" $(i + 1)
			else if ($i == "-l")
				print "--" $(i + 1)
	}'
}

# fish: the options that take a value as the helper function lists them
# (for finding where COMMAND starts).
fish_helper_options() {
	sed -n '/^function __wspx_value_options/,/^end/p' "$FISHCOMP" |
	    grep -oE -- '(^|[[:space:]])--?[[:alnum:]][[:alnum:]-]*' |
	    tr -d ' \t'
}

# Compare the option names that extractor $2 prints (with argument $3)
# with those of --help, sorted, leaving out the other spellings of options
# if $4 is "primary"; on a difference, print it and fail.  $1 names the
# place for the message.
compare() {
	help_options "$3" "$4" | sort -u > help.list
	"$2" "$3" | sort -u > other.list
	if [ ! -s help.list ]; then
		echo "no options found in wspx --help" >&2
		return 1
	fi
	if ! cmp -s help.list other.list; then
		echo "the options${3:+ that take a value} differ between" \
		    "wspx --help and $1:" >&2
		comm -23 help.list other.list | sed "s|^|  missing in $1: |" >&2
		comm -13 help.list other.list | sed "s|^|  not in --help: |" >&2
		return 1
	fi
}

@test "--help lists the options the drift checks expect" {
	help_options > all
	help_options value > valued
	grep -qx -- -a all && grep -qx -- --arg-file all
	grep -qx -- -I all && grep -qx -- --colsep all
	grep -qx -- --help all
	grep -qx -- -j valued && grep -qx -- --term-timeout valued
	run grep -qx -- --null valued
	[ "$status" -eq 1 ]
	# another spelling, and an option whose value is optional
	grep -qx -- --keeporder all
	grep -qx -- --replace all
	run grep -qx -- --replace valued
	[ "$status" -eq 1 ]
	help_options "" primary > primary
	grep -qx -- --keep-order primary
	run grep -qx -- --keeporder primary
	[ "$status" -eq 1 ]
	# the spellings on their option's line, names that wrap included
	help_entries > entries
	grep -qx -- 'value -j --jobs -P --max-procs --maxprocs' entries
	grep -qx -- '- -k --keep-order --keeporder' entries
	grep -qx -- '- -i --replace' entries
	grep -qx -- 'value --transfer-file --transferfile --tf'` \
	    `' --transfer-files --transferfiles' entries
}

@test "each option of wspx(1) is in --help once, all its spellings on its line" {
	# (report --help's -h, --help is wspx --help's)
	help_entries | cut -d' ' -f2- | sortwords | sort -u > help.entries
	man_entries | sortwords | sort > man.entries
	[ -s help.entries ]
	if ! cmp -s help.entries man.entries; then
		echo "the options differ between wspx --help and man/wspx.1:" >&2
		diff help.entries man.entries | grep '^[<>]' |
		    sed 's/^</  --help:/; s/^>/  wspx(1):/' >&2
		return 1
	fi
	# (each spelling once)
	MAINHELP=1 help_options | sort | uniq -d > twice
	cat twice
	[ ! -s twice ]
}

@test "every line of wspx --help and wspx run --help fits in 80 columns" {
	for help in "" run report; do
		run "$WSPX" $help --help
		[ "$status" -eq 0 ]
		[ "${#lines[@]}" -gt 5 ]
		printf '%s\n' "$output" | awk -v h="wspx${help:+ $help} --help" '
		    length > 80 { print h ": " length " columns: " $0; bad = 1 }
		    END { exit bad }' >&2
	done
}

@test "wspx --help ends with three examples; wspx run --help with a job file's" {
	run "$WSPX" --help
	sed -n '/^Examples:$/,/^$/p' <<< "$output" | grep '^  ' > examples
	cat examples
	[ "$(wc -l < examples)" -eq 3 ]
	grep -q '| wspx ' examples
	grep -q 'wspx -k .* ::: ' examples
	grep -q 'wspx run ' examples
	run "$WSPX" run --help
	sed -n '/^Examples:$/,/^$/p' <<< "$output" | grep '^  ' > examples
	[ "$(wc -l < examples)" -eq 3 ]
	! grep -v '^  wspx run' examples || false
	# what it says of job files: the default file, the jobs named,
	# the variables, options after FILE, and the job files' options
	grep -q 'wspx.yml or wspx.yaml' <<< "$output"
	grep -q 'JOB\.\.\.: only these jobs' <<< "$output"
	grep -q 'NAME=VALUE: a variable' <<< "$output"
	grep -q 'after FILE too' <<< "$output"
	grep -q '^Job files' <<< "$output"
}

@test "wspx(1) documents exactly the options of --help" {
	compare "man/wspx.1" man_options
	compare "man/wspx.1" man_options value
}

@test "the SYNOPSIS of wspx(1) lists exactly the options of --help" {
	compare "man/wspx.1 SYNOPSIS" synopsis_options "" primary
	compare "man/wspx.1 SYNOPSIS" synopsis_options value primary
}

@test "the bash completion knows exactly the options of --help" {
	compare "completions/wspx.bash" bash_options
	compare "completions/wspx.bash" bash_options value
}

@test "the zsh completion knows exactly the options of --help" {
	compare "completions/_wspx" zsh_options
	compare "completions/_wspx" zsh_options value
}

@test "the fish completion knows exactly the options of --help" {
	compare "completions/wspx.fish" fish_options
	compare "completions/wspx.fish" fish_options value
	# (the options before COMMAND: not report's)
	MAINHELP=1 compare "completions/wspx.fish (__wspx_value_options)" \
	    fish_helper_options value
}

@test "wspx(1) is clean for mandoc -Tlint -W warning" {
	command -v mandoc > /dev/null || skip "mandoc is not installed"
	run mandoc -Tlint -W warning "$MAN"
	echo "$output"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}

@test "EXIT STATUS of wspx(1) has the statuses of cmd/util/util.h" {
	util_h=$BATS_TEST_DIRNAME/../../cmd/util/util.h
	max=$(sed -nE 's/.*EXIT_MAXFAILED = ([0-9]+).*/\1/p' "$util_h")
	many=$(sed -nE 's/.*EXIT_MANYFAILED = ([0-9]+).*/\1/p' "$util_h")
	usage=$(sed -nE 's/.*EXIT_USAGE = ([0-9]+).*/\1/p' "$util_h")
	[ -n "$max" ]
	[ -n "$many" ]
	[ -n "$usage" ]
	sed -n '/^\.Sh EXIT STATUS/,/^\.Sh /p' "$MAN" | grep '^\.It' > items
	cat items
	grep -qx '\.It 0' items
	grep -qx "\.It 1\\\\(en$max" items
	grep -qx "\.It $many" items
	grep -qx "\.It $usage" items
	grep -qx '\.It 128 + Ar N' items
}

@test "the bash completion loads and completes" {
	bash -n "$BASHCOMP"
	touch input.txt
	complete_bash() {
		bash -c 'source "$1" && shift && COMP_WORDS=("$@") &&
		    COMP_CWORD=$(($# - 1)) && _wspx &&
		    printf "%s\n" "${COMPREPLY[@]}"' sh "$BASHCOMP" "$@"
	}
	run complete_bash wspx --keep-
	[ "$output" = --keep-order ]
	run complete_bash wspx -k -a inp
	[ "$output" = input.txt ]
	run complete_bash wspx --shell = inp	# bash splits at '='
	[ "$output" = input.txt ]
	run complete_bash wspx -j ''
	[ -z "$output" ]
	run complete_bash wspx -kj ''
	[ -z "$output" ]
	run complete_bash wspx --term-timeout ''
	[ -z "$output" ]
	run complete_bash wspx -j 4 -k ech
	[[ "$output" == *echo* ]]
	run complete_bash wspx -- ech
	[[ "$output" == *echo* ]]
}

@test "the zsh completion parses" {
	command -v zsh > /dev/null || skip "zsh is not installed"
	zsh -n "$ZSHCOMP"
	[ "$(head -1 "$ZSHCOMP")" = "#compdef wspx" ]
}

@test "the fish completion loads and completes" {
	command -v fish > /dev/null || skip "fish is not installed"
	fish -n "$FISHCOMP"
	touch input.txt
	complete_fish() {
		fish -c 'source $argv[1]; complete -C $argv[2]' "$FISHCOMP" "$1"
	}
	run complete_fish 'wspx --keep-'
	[[ "$output" == --keep-order* ]]
	run complete_fish 'wspx -a inp'
	[ "$output" = input.txt ]
	run complete_fish 'wspx -j '
	[ -z "$output" ]
	run complete_fish 'wspx -j 4 -k ech'
	[[ "$output" == *echo* ]]
	run complete_fish 'wspx -k echo --kee'
	[[ "$output" != *--keep-order* ]]
}

@test "the README's example: every line of examples/commands.txt runs without an error, from the top of the tree and from anywhere" {
	for dir in "$DOCS" "$BATS_TEST_TMPDIR"; do
		cd "$dir"
		run --separate-stderr "$WSPX" -k < "$DOCS/examples/commands.txt"
		[ "$status" -eq 0 ]
		[ -z "$stderr" ]
		[[ "$output" == *"job 4 ran in slot"* ]]
		[ "$(printf '%s\n' "$output" | wc -l)" -eq 6 ]
	done
}

# The README's lines for a new user (the block after "Then, to use it"),
# without their comments.
firststeps() {
	awk '/^Then, to use it/ { on = 1; next }
	    on && n && !/^    / { exit }
	    on && /^    / { sub(/^    /, ""); sub(/ +#.*/, ""); print; n++ }' \
	    "$DOCS/README.md"
}

@test "the README's first steps run as written: install with PREFIX, a stdin run, a job file" {
	run firststeps
	local step=("${lines[@]}")
	[ "${#step[@]}" -eq 3 ]
	[[ "${step[0]}" == "make install PREFIX="* ]]
	export HOME=$BATS_TEST_TMPDIR/home
	mkdir "$HOME"
	# (from the top of the tree, as the README's commands are)
	cd "$DOCS"
	# (the installed wspx, found where PREFIX put it)
	PATH=$HOME/.local/bin:$PATH
	bash -c "${step[0]}" > /dev/null
	[ -x "$HOME/.local/bin/wspx" ]
	[ -f "$HOME/.local/share/man/man1/wspx.1" ]
	[ -f "$HOME/.local/share/man/man7/wspx-tutorial.7" ]
	[ "$(command -v wspx)" = "$HOME/.local/bin/wspx" ]
	run bash -c "${step[1]}"
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf 'line 1\nline 2\nline 3')" ]
	run bash -c "${step[2]}"
	[ "$status" -eq 0 ]
	[[ "$output" == *"calc built and tested"* ]]
	# wspx run alone reads wspx.yml where it runs
	cd "$BATS_TEST_TMPDIR"
	printf 'jobs:\n  hello:\n    run: echo hello from wspx.yml\n' > wspx.yml
	run wspx run
	[ "$status" -eq 0 ]
	[[ "$output" == *"hello from wspx.yml"* ]]
}

@test "the manual pages speak to users: no issue numbers, no benchmark files of the source" {
	run grep -n -E '[Ii]ssue [0-9]|tests/bench' "$DOCS"/man/*.[0-9]
	[ "$status" -eq 1 ]
	# what REMOTE JOBS AT SCALE plans with: a job's cost, a rate, limits
	sed -n '/^\.Sh REMOTE JOBS AT SCALE/,/^\.Sh [A-Z]/p' "$MAN" > scale
	grep -q 'The cost of a job here' scale
	grep -q 'Jobs per second' scale
	grep -q 'Where it stops' scale
}

# The README's examples: every line of its indented code blocks, and the
# GNU parallel table's wspx column, as "KIND<TAB>line" (KIND I for a code
# line, T for the table), comments left out.  A code line that ends with
# a backslash is joined to the next, as the shell joins them.
readme_examples() {
	awk '
	/^```/ { fence = !fence; next }
	fence { next }
	/^    / && (prev ~ /^$/ || incode) {
		incode = 1
		l = substr($0, 5)
		sub(/  +#.*/, "", l)
		if (held != "") {
			sub(/^ +/, "", l)
			l = held l
			held = ""
		}
		if (l ~ /\\$/) {
			sub(/\\$/, "", l)
			held = l
			prev = $0
			next
		}
		print "I\t" l
		prev = $0
		next
	}
	{ incode = 0 }
	/^\|/ {
		line = $0
		gsub(/\\\|/, "\001", line)
		n = split(line, c, "|")
		cell = c[n - 1]
		if (match(cell, /`[^`]*`/)) {
			cmd = substr(cell, RSTART + 1, RLENGTH - 2)
			gsub(/\001/, "|", cmd)
			if (cmd != "wspx")
				print "T\t" cmd
		}
	}
	{ prev = $0 }' "$DOCS/README.md"
}

# Why a README example does not run here, or nothing if it does.
readme_notrun() {
	case $1 in
	'make example' | 'make check')
		echo "the developer targets: the whole build and test suite" ;;
	'make install PREFIX='* | 'seq 3 | wspx -k echo line' | \
	    'wspx run examples/build/jobs.yaml')
		echo "run by the tests of the first steps and the job graph" ;;
	'wspx --memfree 4G ...' | 'wspx --load 100% ...')
		echo "waits for room that a loaded test machine may lack" ;;
	'salloc '*)
		echo "needs a Slurm allocation (slurm.bats runs --slurm)" ;;
	'kill -USR1 PID')
		echo "needs a running wspx (usr1.bats sends SIGUSR1)" ;;
	'wspx 8/32 25% |'*)
		echo "the status line shown, not a command" ;;
	*)
		return 1 ;;
	esac
}

# Make, in the current directory, the files and programs that the
# README's examples name: cmds.txt, logs, images (and a convert that
# copies), C files, big, people.csv, tests/ with ./t, hosts/ with
# ./check, make projects a b c, and a copy of examples/ for those run
# from the top of the tree.
readme_fixture() {
	mkdir -p bin tests hosts logs a b c src files mv
	touch mv/a mv/b
	echo one > files/one
	echo two > files/two
	printf '%s\n' 'echo one' 'echo two' > cmds.txt
	cp cmds.txt cmds
	echo log > one.log
	echo log > logs/two.log
	echo jpeg > photo.jpg
	printf '#!/bin/sh\ncp "$1" "$2"\n' > bin/convert
	printf 'int x;\n' > src/a.c
	cp src/a.c main.c
	seq 1000 > big
	printf 'name,age\nann,31\nbob,42\n' > people.csv
	for f in tests/one tests/two hosts/h1 hosts/h2; do
		echo "$f" > "$f"
	done
	printf '#!/bin/sh\necho "ran $1"\n' > t
	cp t check
	chmod +x bin/convert t check
	for d in a b c; do
		printf 'all:\n\t@echo made %s\n' "$d" > "$d/Makefile"
	done
	cp -R "$DOCS/examples" .
	rm -rf examples/build/build examples/build/.*wspx-state
}

@test "the README's examples run, from the directory they imply" {
	start_sshd
	# host1, host2 and h of the table are the test sshd (services.bash)
	{
		printf 'Host host1 host2 h\n\tHostName 127.0.0.1\n'
		printf '\tPort %s\n\tUser root\nHost *\n' "$SSH_PORT"
		cat "$SSH_DIR/ssh_config"
	} > "$SSH_DIR/readme_config"
	export PARALLEL_SSH="ssh -F $SSH_DIR/readme_config"
	unset GITHUB_ACTIONS
	mkdir top && cd top
	readme_fixture
	mkdir "$BATS_TEST_TMPDIR/wbin"
	ln -s "$WSPX" "$BATS_TEST_TMPDIR/wbin/wspx"
	PATH=$BATS_TEST_TMPDIR/wbin:$PWD/bin:$PATH
	readme_examples > examples.list
	[ "$(wc -l < examples.list)" -ge 40 ]
	local kind line cmd dir input ran=0
	while IFS=$'\t' read -r kind line; do
		case $line in
		'$ '*) cmd=${line#\$ } ;;
		'wspx '* | *'| wspx '* | 'make '* | 'salloc '* | 'kill '*)
			cmd=$line ;;
		*)	continue ;;	# output, or the layout's lines
		esac
		if why=$(readme_notrun "$cmd"); then
			echo "not run: $cmd: $why"
			continue
		fi
		# The table's commands without an input of their own read
		# lines: a new file to gzip, an image, or else commands (for
		# -k, --dry-run, -t, -v, -r, --results).
		input=/dev/null
		case $kind:$cmd in
		T:*' ::: '* | T:*'|'* | T:*'<'* | T:*-a\ big*) ;;
		T:*gzip*)
			echo log > "new$ran.log"
			echo "new$ran.log" > input
			input=input ;;
		T:*convert*) echo photo.jpg > input; input=input ;;
		T:*) input=cmds.txt ;;
		esac
		# "..." stands for a command and its inputs
		cmd=${cmd/%.../echo ::: x}
		dir=.
		case $cmd in
		# the report of a run of the example build, in its directory
		'wspx run jobs.yaml'* | 'wspx report'*) dir=examples/build ;;
		# a directory of files to hash (sha256sum and md5sum fail
		# on the directories that find also prints)
		'find . -type f -print0 '*) dir=files ;;
		# files a and b to rename (a b c here are make projects)
		*'mv {} {}.bak ::: a b'*) dir=mv ;;
		esac
		case $cmd in
		# the hosts ci1 and ci2 are not here: a dry run, which
		# opens no connection, shows what would run
		*ci1,ci2*) cmd=${cmd/wspx -S/wspx --dry-run -S} ;;
		esac
		echo "run in $dir: $cmd"
		run --separate-stderr bash -c "cd $dir && $cmd" < "$input"
		if [ "$status" -ne 0 ]; then
			printf '%s\n' "status $status" "$output" "$stderr"
			return 1
		fi
		ran=$((ran + 1))
	done < examples.list
	echo "$ran examples ran"
	[ "$ran" -ge 40 ]
	# what some of them made
	[ -f photo.png ] && [ -f one.log.gz ] && [ -f out/1/stdout ]
	[ -s examples/build/run.svg ]
}

# The README's example of a job graph and what it prints: every line it
# shows is a line that wspx prints, from the top of the tree, with the
# times and the counts of jobs over masked (independent jobs end in any
# order).
@test "the README's job graph prints the lines it shows" {
	cp -R "$DOCS/examples" .
	rm -rf examples/build/build examples/build/.*wspx-state
	awk '/^    \$ wspx run examples\/build\/jobs.yaml/ { on = 1; next }
	    on && !/^    / { exit }
	    on { print substr($0, 5) }' "$DOCS/README.md" > shown
	[ "$(wc -l < shown)" -ge 10 ]
	"$WSPX" run examples/build/jobs.yaml > got 2>&1
	mask() { sed -E 's/[0-9]+\.[0-9]+s$/TIME/; s/^\[[0-9]+\//[N\//'; }
	mask < got > got.m
	while IFS= read -r l; do
		case $l in
		...) continue ;;
		*...*) grep -q "^${l%%...*}[0-9a-f]*${l#*...}\$" got.m ;;
		*) grep -qxF -- "$(printf '%s\n' "$l" | mask)" got.m ;;
		esac || { echo "not printed: $l" >&2; cat got >&2; return 1; }
	done < shown
}
