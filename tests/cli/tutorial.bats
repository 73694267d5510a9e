#!/usr/bin/env bats
# wspx-tutorial(7) against the program: every example of the page runs,
# taken from the page itself, and prints what the page shows.
#
# The page's examples are its .Bd -literal blocks.  In a block, a line
# that starts with "$ " is a command, continued on the next line when it
# ends with a backslash; the lines after it, up to the next command, are
# what it prints, standard output and standard error together, as a
# terminal shows them.  A block after the comment line '.\" file NAME' is
# the content of the file NAME, written where the examples run, as the
# page tells its reader to save it; a block after '.\" any order' has
# output whose order wspx does not promise, and each of its commands'
# output is compared sorted (the page says the order may vary).  The
# times wspx prints (0.0s) are masked on both sides.  A command may exit
# non-zero only when the page shows it: the next command is "echo $?",
# which sees the status, or the output says that jobs failed.
#
# Each section (.Sh) of the page runs in an empty directory of its own,
# as one test, its commands in turn in a shell with the wspx under test
# first in PATH; one more test runs the whole page in one directory, as
# a reader following it would.
#
# The examples of REMOTE HOSTS use a host named "server": they run here
# against the private sshd of services.bash, through an ssh_config that
# makes "server" that sshd (127.0.0.1, its port, user root), given to
# wspx as PARALLEL_SSH, its default --ssh.  So the commands run exactly
# as the page prints them.  The "remote" directory is then this one, as
# on a host that shares the files.
#
# TUTORIAL may name another copy of the page.

load helper
load services
bats_require_minimum_version 1.5.0

PAGE=${TUTORIAL:-$BATS_TEST_DIRNAME/../../man/wspx-tutorial.7}

setup_file() {
	start_sshd
	{
		printf 'Host server\n\tHostName 127.0.0.1\n'
		printf '\tPort %s\n\tUser root\nHost *\n' "$SSH_PORT"
		cat "$SSH_DIR/ssh_config"
	} > "$SSH_DIR/tutorial_config"
	export TUTORIAL_SSH="ssh -F $SSH_DIR/tutorial_config"
}

teardown_file() {
	stop_sshd
}

# The examples of section $2 of page $1 (all sections if $2 is empty), as
# numbered steps in directory $3: NNN.file (a file's name) with NNN.text
# (its content), or NNN.cmd (a command) with NNN.want (what it prints)
# and NNN.sorted if its output has no promised order.  The roff escapes
# of the blocks, \e and \&, are undone; any other is an error.
steps() {
	mkdir -p "$3"
	awk -v want="$2" -v dir="$3" '
	function unescape(s, t) {
		t = s
		gsub(/\\e/, "", t)
		gsub(/\\&/, "", t)
		if (index(t, "\\") > 0) {
			print "unknown escape in: " s > "/dev/stderr"
			bad = 1
		}
		gsub(/\\e/, "\001", s)
		gsub(/\\&/, "", s)
		gsub(/\001/, "\\", s)
		return s
	}
	function out(ext, line) {
		print line >> (dir "/" sprintf("%03d", n) "." ext)
	}
	/^\.Sh / { sec = substr($0, 5); on = want == "" || sec == want; next }
	!on { next }
	/^\.\\" file / { file = $3; next }
	/^\.\\" any order$/ { anyorder = 1; next }
	/^\.Bd -literal/ { inblock = 1; cont = 0; next }
	inblock && /^\.Ed$/ {
		inblock = 0
		if (file != "")
			close(dir "/" sprintf("%03d", n) ".text")
		file = ""
		anyorder = 0
		started = 0
		next
	}
	!inblock { next }
	{ line = unescape($0) }
	file != "" {
		if (!started) {
			n++
			out("file", file)
			started = 1
			printf "" > (dir "/" sprintf("%03d", n) ".text")
		}
		out("text", line)
		next
	}
	cont { out("cmd", line); cont = line ~ /\\$/; next }
	/^\$ / {
		n++
		out("cmd", substr(line, 3))
		printf "" > (dir "/" sprintf("%03d", n) ".want")
		if (anyorder)
			out("sorted", "")
		cont = line ~ /\\$/
		next
	}
	{ out("want", line) }
	END { exit bad }
	' "$1" || return 1
}

# Mask the times wspx prints ("0.0s", "12.3s").
masked() {
	sed -E 's/(^|[^0-9.])[0-9]+\.[0-9]+s($|[^[:alnum:]])/\1TIMEs\2/g' "$1"
}

# Run the steps of directory $1 in turn in directory $2; on the first
# difference from the page, show it and fail.
runsteps() {
	local f n cmd last=0 st next
	mkdir -p "$2" "$BATS_TEST_TMPDIR/bin"
	ln -sf "$WSPX" "$BATS_TEST_TMPDIR/bin/wspx"
	for f in "$1"/*.cmd "$1"/*.file; do
		[ -e "$f" ] && basename "${f%.*}"
	done | sort -u > "$1/list"
	while read -r n; do
		if [ -e "$1/$n.file" ]; then
			cp "$1/$n.text" "$2/$(cat "$1/$n.file")"
			continue
		fi
		cmd=$(cat "$1/$n.cmd")
		st=0
		(cd "$2" && PATH=$BATS_TEST_TMPDIR/bin:$PATH \
		    PARALLEL_SSH=$TUTORIAL_SSH \
		    bash -c "(exit $last)"$'\n'"$cmd") \
		    > "$1/$n.got" 2>&1 < /dev/null || st=$?
		masked "$1/$n.want" > "$1/$n.w"
		masked "$1/$n.got" > "$1/$n.g"
		if [ -e "$1/$n.sorted" ]; then
			LC_ALL=C sort -o "$1/$n.w" "$1/$n.w"
			LC_ALL=C sort -o "$1/$n.g" "$1/$n.g"
		fi
		if ! diff -u "$1/$n.w" "$1/$n.g" > "$1/$n.diff"; then
			echo "\$ $cmd: the output differs from the page" \
			    "(-page +wspx):" >&2
			cat "$1/$n.diff" >&2
			return 1
		fi
		next=$(printf '%03d' $((10#$n + 1)))
		if [ "$st" -ne 0 ] &&
		    [ "$(cat "$1/$next.cmd" 2> /dev/null)" != 'echo $?' ] &&
		    ! grep -q '^wspx: .*failed' "$1/$n.want"; then
			echo "\$ $cmd: exit status $st, which the page" \
			    "does not show" >&2
			return 1
		fi
		last=$st
	done < "$1/list"
}

# Run the examples of section $1 of the page in an empty directory.
section() {
	steps "$PAGE" "$1" "$BATS_TEST_TMPDIR/steps"
	[ -s "$BATS_TEST_TMPDIR/steps/001.cmd" ] ||
	    [ -s "$BATS_TEST_TMPDIR/steps/001.file" ]
	runsteps "$BATS_TEST_TMPDIR/steps" "$BATS_TEST_TMPDIR/run"
}

setup() {
	WSPX=${WSPX:-$BATS_TEST_DIRNAME/../../wspx}
	case $WSPX in /*) ;; *) WSPX=$PWD/$WSPX ;; esac
	export WSPX
	# What would change what wspx or the jobs print: the callers'
	# shell and options for wspx, GitHub Actions' log groups, and an
	# ssh session that this test may itself run in.
	unset WSPX_SHELL PARALLEL GITHUB_ACTIONS SSH_CONNECTION
	cd "$BATS_TEST_TMPDIR" || exit 1
}

@test "the tutorial's sections are those these tests run" {
	sed -n 's/^\.Sh //p' "$PAGE" > sections
	printf '%s\n' NAME DESCRIPTION 'INPUT SOURCES' \
	    'REPLACEMENT STRINGS' OUTPUT FAILURES 'SPLITTING A STREAM' \
	    'JOB FILES' 'REMOTE HOSTS' 'SEE ALSO' AUTHORS > expected
	diff -u expected sections
	# and only those hold examples
	for s in NAME DESCRIPTION 'SEE ALSO' AUTHORS; do
		steps "$PAGE" "$s" "none.$s"
		[ ! -e "none.$s/001.cmd" ]
	done
}

@test "wspx-tutorial(7) is clean for mandoc -Tlint -W warning" {
	command -v mandoc > /dev/null || skip "mandoc is not installed"
	run mandoc -Tlint -W warning "$PAGE"
	echo "$output"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	# and wspx(1) points to it
	grep -qx '\.Xr wspx-tutorial 7' "$BATS_TEST_DIRNAME/../../man/wspx.1"
}

@test "tutorial: INPUT SOURCES" {
	section 'INPUT SOURCES'
}

@test "tutorial: REPLACEMENT STRINGS" {
	section 'REPLACEMENT STRINGS'
}

@test "tutorial: OUTPUT" {
	section OUTPUT
}

@test "tutorial: FAILURES" {
	section FAILURES
}

@test "tutorial: SPLITTING A STREAM" {
	section 'SPLITTING A STREAM'
}

@test "tutorial: JOB FILES" {
	section 'JOB FILES'
}

@test "tutorial: REMOTE HOSTS, against the test sshd as host server" {
	section 'REMOTE HOSTS'
}

@test "tutorial: the whole page in one directory, as a reader runs it" {
	steps "$PAGE" "" steps
	runsteps steps run
}

@test "the tutorial's test fails when the page and wspx disagree" {
	# an output line changed, a line missing, a failure not shown
	sed 's/^ann is 23$/ann is 24/' "$PAGE" > changed.7
	steps changed.7 'INPUT SOURCES' s1
	run ! runsteps s1 r1
	[[ "$output" == *"+ann is 23"* ]]
	sed '/^bob is 41$/d' "$PAGE" > short.7
	steps short.7 'INPUT SOURCES' s2
	run ! runsteps s2 r2
	sed 's/^\$ touch b$/$ false/' "$PAGE" > silent.7
	steps silent.7 FAILURES s3
	run ! runsteps s3 r3
	[[ "$output" == *'$ false: exit status 1, which the page'* ]]
	# and an unknown escape in a block is an error
	printf '.Sh X\n.Bd -literal\n$ echo \\fBx\n.Ed\n' > esc.7
	run ! steps esc.7 X s4
}
