#!/usr/bin/env bats
# The status line on a terminal, checked on a real one: tmux runs wspx in
# a pane, capture-pane reads the screen and its scrollback.

load helper
load gnu

tm() {
	tmux -S "$BATS_TEST_TMPDIR/tmux.sock" "$@"
}

teardown() {
	tm kill-server 2>/dev/null || true
}

needtmux() {
	command -v tmux > /dev/null || {
		echo "these tests need tmux: apt-get install tmux" >&2
		return 1
	}
}

# Wait (at most 30 s) until the pane's last row matches the regex $1.
waitrow() {
	local n=0
	until tm capture-pane -p | tail -1 | grep -q -E "$1"; do
		n=$((n + 1))
		if [ "$n" -gt 600 ]; then
			echo "the last row never matched $1; the pane:" >&2
			tm capture-pane -p >&2
			return 1
		fi
		sleep 0.05
	done
}

# Whether a row of the pane matches the regex $1.
panehas() {
	tm capture-pane -p | grep -q -E "$1"
}

# Job N prints three lines; job 40 first waits for the file go.
jobscript() {
	cat > job <<'SH'
#!/bin/sh
[ "$1" = 40 ] && while [ ! -e go ]; do sleep 0.01; done
for i in 1 2 3; do echo "job $1 line $i"; sleep 0.01; done
SH
	chmod +x job
}

# Start wspx ARGS on the input seq 40 in a WIDTHx12 pane.
startpane() {
	local width=$1
	shift
	TERM=xterm tm new-session -d -x "$width" -y 12 \
	    "seq 40 | '$WSPX' $*; echo \$? > status; sleep 600"
}

@test "the status line stays on the last row, with job output whole above it" {
	needtmux
	jobscript
	startpane 80 -j4 ./job
	waitrow '^wspx 39/40 97% \| 1 running, 0 queued, 0 failed \| '
	tm capture-pane -p > pane
	[ "$(wc -l < pane)" -eq 12 ]
	# above the status line, only whole lines of job output
	[ "$(head -n 11 pane | grep -c -v -E '^job [0-9]+ line [123]$')" -eq 0 ]
	# in the scrollback, every ended job's lines, whole, in order, once
	tm capture-pane -p -S - -E - > all
	for n in $(seq 39); do
		[ "$(grep -E "^job $n line [123]$" all | tr '\n' ' ')" = \
		    "job $n line 1 job $n line 2 job $n line 3 " ]
	done
	# the status line never went up with the output
	[ "$(grep -c '^wspx' all)" -eq 1 ]
	touch go
	waitfile status 30
	[ "$(cat status)" = 0 ]
	# at exit the status line is gone, a summary in its place
	tm capture-pane -p -S - -E - | grep -v '^$' > all
	[ "$(tail -1 all)" = "$(grep -m1 '^wspx: 40 jobs, 0 failed, 0 skipped in ' all)" ]
	[ "$(grep -c '^wspx' all)" -eq 1 ]
	[ "$(grep -c '^job 40 line [123]$' all)" -eq 3 ]
}

@test "the status line fits the terminal's width, and follows a resize" {
	needtmux
	jobscript
	startpane 100 -j1 ./job
	waitrow '^wspx 39/40 .*\[#+-+\]$'
	w=$(tm capture-pane -p | tail -1 | wc -L)
	[ "$w" -le 99 ]
	[ "$w" -ge 90 ]
	tm resize-window -x 60
	# (drawn again for the new width: 59 columns at most)
	waitrow '^wspx 39/40 .{20,48}$'
	w=$(tm capture-pane -p | tail -1 | wc -L)
	[ "$w" -le 59 ]
	touch go
	waitfile status 30
}

@test "--no-status turns the status line off; -u has none" {
	needtmux
	jobscript
	touch go
	startpane 80 --no-status -j4 ./job
	waitfile status 30
	[ "$(tm capture-pane -p -S - -E - | grep -c '^wspx')" -eq 0 ]
	tm kill-server
	rm status
	startpane 80 -u -j4 ./job
	waitfile status 30
	[ "$(tm capture-pane -p -S - -E - | grep -c '^wspx')" -eq 0 ]
}

@test "the summary of a run of one job says 1 job" {
	needtmux
	TERM=xterm tm new-session -d -x 80 -y 12 \
	    "echo x | '$WSPX' true; echo \$? > status; sleep 600"
	waitfile status 30
	[ "$(cat status)" = 0 ]
	tm capture-pane -p -S - -E - > all
	grep -q '^wspx: 1 job, 0 failed, 0 skipped in ' all
}

@test "input read from the terminal: a warning once, and no status line over what is typed" {
	needtmux
	TERM=xterm tm new-session -d -x 100 -y 12 \
	    "'$WSPX' echo got; echo \$? > status; sleep 600"
	waituntil panehas 'CTRL-D'
	tm send-keys 'a' Enter
	# (its job runs as the line comes)
	waituntil panehas '^got a$'
	tm send-keys C-d
	waitfile status 30
	[ "$(cat status)" = 0 ]
	tm capture-pane -p -S - -E - > all
	[ "$(grep -c '^wspx: reading the input from the terminal (CTRL-D ends it)' all)" -eq 1 ]
	grep -q '^got a$' all
	# no status line, nor its summary
	[ "$(grep -c -E '^wspx( [0-9]|: 1 job)' all)" -eq 0 ]
	# from a pipe, no warning
	tm kill-server
	rm status
	TERM=xterm tm new-session -d -x 100 -y 12 \
	    "echo a | '$WSPX' echo got; echo \$? > status; sleep 600"
	waitfile status 30
	tm capture-pane -p -S - -E - > all
	grep -q '^got a$' all
	[ "$(grep -c 'from the terminal' all)" -eq 0 ]
}

# Run "$who --tty ARGS" in a pane: two jobs that each read a line of
# the terminal and say what they read and which process group they are in
# against the terminal's foreground group; the lines typed are a and b.
ttyrun() {
	TERM=xterm tm new-session -d -x 120 -y 12 \
	    "$* 'read x; echo \"got:\$x:{}\"; ps -o pgid=,tpgid= -p \$\$' ::: 1 2; echo \$? > status; sleep 600"
	# (typed ahead, a line waits in the terminal until a job reads it)
	tm send-keys 'a' Enter
	waituntil panehas '^got:a:1$'
	tm send-keys 'b' Enter
	waitfile status 30
	tm capture-pane -p -S - -E - > all
	tm kill-server
	rm status
}

@test "--tty: each job reads the terminal, one at a time, in the terminal's foreground group, as with GNU parallel" {
	needtmux
	command -v ps > /dev/null || skip "ps is not installed"
	needgnu
	local who
	for who in parallel "'$WSPX'"; do
		ttyrun "$who" --tty
		grep -q '^got:a:1$' all
		grep -q '^got:b:2$' all
		# the job is in the group that owns the terminal
		[ "$(awk 'NF == 2 && $1 == $2' all | wc -l)" -eq 2 ]
	done
	# without --tty, stdin is /dev/null: a read gets nothing
	TERM=xterm tm new-session -d -x 120 -y 12 \
	    "'$WSPX' 'read x; echo \"got:\$x:{}\"' ::: 1; echo \$? > status; sleep 600"
	waitfile status 30
	tm capture-pane -p -S - -E - > all
	grep -q '^got::1$' all
}
