#!/usr/bin/env bats
# A job file's ${{ }} values are data, never shell syntax (wspx(5),
# "Expressions"): in every place a shell has, for every shell wspx writes
# commands for, a hostile value reaches the command as the characters it
# has; a place where no shell can take it as data is refused at
# FILE:LINE:COLUMN before anything runs.

load helper
bats_require_minimum_version 1.5.0

# The hostile value, as YAML writes it and as the shell gets it: command
# substitutions both ways, both quotes, a backslash, a newline, a line
# with EOF alone (a here-document's end) and a glob.
YVALUE='"a $(touch PWNED1) `touch PWNED2` \" '"'"' \\ $HOME b\nEOF\n*"'
VALUE="a \$(touch PWNED1) \`touch PWNED2\` \" ' \\ \$HOME b
EOF
*"

# jobs.yaml with one job per "name: command" line of stdin (the command
# a YAML single-quoted scalar, on one line, \n for a newline), each with
# the hostile value in its matrix and the shell $1.
jobfile() {
	local name cmd
	{
		printf 'defaults: {shell: %s}\njobs:\n' "$1"
		while IFS= read -r line; do
			name=${line%%: *}
			cmd=${line#*: }
			printf '  %s:\n    matrix: {v: [%s]}\n    run: "%s"\n' \
			    "$name" "$YVALUE" "$cmd"
		done
	} > jobs.yaml
}

# Each out.NAME file holds what the job printed: its content must be the
# value with the markers around it that the job wrote.
expect() {
	printf '%s' "$2" > "want.$1"
	cmp "want.$1" "out.$1"
}

nopwned() {
	[ ! -e PWNED1 ] && [ ! -e PWNED2 ]
}

@test "GitHub's injection: an output inside double quotes stays data" {
	cat > jobs.yaml <<'Y'
jobs:
  p: {run: "echo 'tag=$(touch PWNED1)' >> \"$WSPX_OUTPUT\""}
  q: {needs: p, run: 'echo "deploying ${{ needs.p.outputs.tag }}"'}
Y
	run "$WSPX" run jobs.yaml
	jobsonly
	[ "$status" -eq 0 ]
	[ "$output" = 'deploying $(touch PWNED1)' ]
	nopwned
}

# The places of a POSIX shell, each printing the value between < and >.
posix_places() {
	cat <<'P'
word: printf '<%s>' ${{ matrix.v }} > out.word
dquote: printf '%s' \"<${{ matrix.v }}>\" > out.dquote
squote: printf '%s' '<${{ matrix.v }}>' > out.squote
cmdsub: printf '%s' \"<$(printf '%s' ${{ matrix.v }})>\" > out.cmdsub
backquote: x=`printf '%s' ${{ matrix.v }}`; printf '<%s>' \"$x\" > out.backquote
param: printf '%s' \"<${UNSET_X:-${{ matrix.v }}}>\" > out.param
heredoc: cat > out.heredoc <<EOF\n<${{ matrix.v }}>\nEOF
qheredoc: cat > out.qheredoc <<'EOF'\n<${{ matrix.v }}> $HOME \\\\ `x`\nEOF
comment: printf '<ok>' > out.comment # ${{ matrix.v }}
P
}

posix_check() {
	nopwned
	expect word "<$VALUE>"
	expect dquote "<$VALUE>"
	expect squote "<$VALUE>"
	# ($(...) drops the final newlines; the value has none)
	expect cmdsub "<$VALUE>"
	expect backquote "<$VALUE>"
	expect param "<$VALUE>"
	expect heredoc "<$VALUE>
"
	expect qheredoc "<$VALUE> \$HOME \\\\ \`x\`
"
	expect comment "<ok>"
}

@test "POSIX shells: a value is data as a word, in quotes, \$(...), \`...\`, \${...}, here-documents and comments" {
	local sh n=0
	for sh in sh dash bash zsh ksh mksh busybox; do
		command -v "$sh" >/dev/null || continue
		rm -f out.* want.*
		posix_places | jobfile "$sh"
		run "$WSPX" run -j2 jobs.yaml
		echo "$sh: $output"
		[ "$status" -eq 0 ]
		posix_check
		n=$((n + 1))
	done
	[ "$n" -ge 3 ]
}

@test "fish: a value is data as a word, in quotes, (...) and comments" {
	command -v fish >/dev/null || skip "no fish"
	jobfile fish <<'P'
word: printf '<%s>' ${{ matrix.v }} > out.word
dquote: printf '%s' \"<${{ matrix.v }}>\" > out.dquote
squote: printf '%s' '<${{ matrix.v }}>' > out.squote
cmdsub: printf '<%s>' (printf '%s' ${{ matrix.v }} | string collect) > out.cmdsub
comment: printf '<ok>' > out.comment # ${{ matrix.v }}
P
	run "$WSPX" run -j2 jobs.yaml
	echo "$output"
	[ "$status" -eq 0 ]
	nopwned
	expect word "<$VALUE>"
	expect dquote "<$VALUE>"
	expect squote "<$VALUE>"
	expect cmdsub "<$VALUE>"
	expect comment "<ok>"
}

@test "tcsh: a value is data as a word, in quotes, \`...\` and comments; a here-document is refused" {
	command -v tcsh >/dev/null || skip "no tcsh"
	jobfile tcsh <<'P'
word: printf '<%s>' ${{ matrix.v }} > out.word
dquote: printf '%s' \"<${{ matrix.v }}>\" > out.dquote
squote: printf '%s' '<${{ matrix.v }}>' > out.squote
comment: printf '<ok>' > out.comment # ${{ matrix.v }}
P
	run "$WSPX" run -j2 jobs.yaml
	echo "$output"
	[ "$status" -eq 0 ]
	nopwned
	expect word "<$VALUE>"
	expect dquote "<$VALUE>"
	expect squote "<$VALUE>"
	expect comment "<ok>"
	jobfile tcsh <<'P'
heredoc: cat <<EOF\n${{ matrix.v }}\nEOF
P
	run "$WSPX" check jobs.yaml
	[ "$status" -eq 255 ]
	[[ "$output" == *"jobs.yaml:5:10: '\${{ matrix.v }}' follows a << of csh"* ]]
}

@test "a place where no value is data is refused at its line before anything runs: arithmetic, \$'...', after a backslash" {
	local cmd
	for cmd in 'echo $(( ${{ matrix.v }} + 1 ))' \
	    '(( x = ${{ matrix.v }} )); touch ran' 'a[${{ matrix.v }}]=1' \
	    'echo ${x:${{ matrix.v }}}' 'echo $'"'"'a ${{ matrix.v }}'"'" \
	    'echo \\${{ matrix.v }}' 'cat <<${{ matrix.v }}\nx\n' \
	    'echo \"`echo ${{ matrix.v }}`\"'; do
		echo "ok: {run: touch ran}" | jobfile sh
		printf '  bad:\n    matrix: {v: [x]}\n    run: "%s"\n' "$cmd" >> jobs.yaml
		run "$WSPX" run jobs.yaml
		echo "$cmd: $output"
		[ "$status" -eq 255 ]
		# (at the expression: line 8, past the 10 columns before run's
		# string)
		grep -Eq "^jobs.yaml:8:(1[1-9]|[2-9][0-9]): '\\\$\{\{ matrix.v }}' .*its value cannot be put there as data" <<< "$output"
		[ ! -e ran ]
	done
}

@test "a list's strings and a value shared by several places: one variable each, in one shell" {
	cat > jobs.yaml <<'Y'
jobs:
  l:
    matrix: {v: ["x y", "$(touch PWNED1)"]}
    run:
      - v='${{ matrix.v }}'
      - printf '[%s][%s]\n' "$v" ${{ matrix.v }}
Y
	run "$WSPX" run -j1 jobs.yaml
	[ "$status" -eq 0 ]
	[[ "$output" == *"[x y][x y]"* ]]
	[[ "$output" == *'[$(touch PWNED1)][$(touch PWNED1)]'* ]]
	nopwned
}

@test "--dry-run shows each value in place, quoted where it is a word" {
	cat > jobs.yaml <<'Y'
jobs:
  t:
    matrix: {v: ["a b"]}
    run: echo ${{ matrix.v }} "in ${{ matrix.v }}"
Y
	run --separate-stderr "$WSPX" run --dry-run jobs.yaml
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf '# t[v=a b]\n%s' "echo 'a b' \"in a b\"")" ]
}

@test "a second pair of eyes: the places a reading of quotes could miss are refused whatever the quotes" {
	local cmd sh
	# (each found by a review; each ran a value before)
	for cmd in 'for((i=0;i<${{ matrix.v }};i++)); do :; done' \
	    'a=([${{ matrix.v }}]=1)' 'echo \"$a[${{ matrix.v }}]\"' \
	    'echo ${HOME}#$((${{ matrix.v }}))' \
	    "echo \\\"\${x#'\\\"'}\\\" \$((\${{ matrix.v }}))" \
	    'echo \"price: $${{ matrix.v }}\"' \
	    "cat <<'END X'\\n\${{ matrix.v }}\\nEND X"; do
		for sh in bash zsh; do
			command -v "$sh" >/dev/null || continue
			printf 'defaults: {shell: %s}\njobs:\n  bad:\n    matrix: {v: ["a[$(touch PWNED1)]"]}\n    run: "%s"\n' "$sh" "$cmd" > jobs.yaml
			run "$WSPX" run jobs.yaml
			echo "$sh: $cmd: $output"
			[ "$status" -eq 255 ]
			grep -Eq "^jobs.yaml:5:[0-9]+: " <<< "$output"
			nopwned
		done
	done
}

@test "tcsh: a # inside a word and a \\ inside \"...\" hide no here-document" {
	command -v tcsh >/dev/null || skip "no tcsh"
	local cmd
	for cmd in 'echo step1#don'"'"'t\ncat <<EOF\n${{ matrix.v }}\nEOF' \
	    'echo \"C:\\\\\" <<EOF\n${{ matrix.v }}\nEOF'; do
		printf 'defaults: {shell: tcsh}\njobs:\n  t:\n    matrix: {v: ["`touch PWNED1`"]}\n    run: "%s"\n' "$cmd" > jobs.yaml
		run "$WSPX" run jobs.yaml
		echo "$cmd: $output"
		[ "$status" -eq 255 ]
		[[ "$output" == *"follows a << of csh"* ]]
		nopwned
	done
}

@test "a value after a word's } or ) is a word, not a comment: one word, no glob" {
	touch zzfile1 zzfile2
	cat > jobs.yaml <<'Y'
jobs:
  t:
    matrix: {a: ["x"], b: ["* y"]}
    run: printf '<%s>\n' ${{ matrix.a }}#${{ matrix.b }} $(echo z)#${{ matrix.b }}
Y
	for sh in sh dash bash; do
		command -v "$sh" >/dev/null || continue
		sed -i "1i defaults: {shell: $sh}" jobs.yaml
		run "$WSPX" run jobs.yaml
		jobsonly
		sed -i 1d jobs.yaml
		[ "$status" -eq 0 ]
		[ "$output" = "$(printf '<x#* y>\n<z#* y>')" ]
	done
}

@test "--dry-run shows values safely, and the joblog names the jobs: neither can run a value" {
	cat > jobs.yaml <<'Y'
jobs:
  t:
    matrix: {v: ["$(touch PWNED1) `touch PWNED2` \" ' \\ x\nEOF\n*"]}
    run: |
      echo "d ${{ matrix.v }}" 's ${{ matrix.v }}' w ${{ matrix.v }} # c ${{ matrix.v }}
      cat <<EOF
      h ${{ matrix.v }}
      EOF
      false
Y
	"$WSPX" run --dry-run jobs.yaml | sh || true
	nopwned
	run "$WSPX" run --joblog log jobs.yaml
	[ "$status" -eq 1 ]
	[ "$(cut -f9 log | tail -1)" = "t[v=\$(touch PWNED1) \`touch PWNED2\` \" ' \\\\ x\\nEOF\\n*]" ]
	run "$WSPX" --retry-failed --joblog log < /dev/null
	nopwned
}
