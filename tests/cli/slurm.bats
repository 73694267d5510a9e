#!/usr/bin/env bats
# --slurm: each job a step (srun) of a Slurm allocation, on a one-node
# cluster of 4 CPUs that setup_file starts (services.bash).  Inside an
# allocation (salloc): the jobs' output and steps, at most as many at once
# as the allocation's CPUs, exit statuses, --timeout cancelling the step;
# outside one: --slurm-partition and --slurm-args ask for an allocation
# and release it, neither is an error; the joblog's Host column.

load helper
load services

setup_file() {
	start_slurm
}

teardown_file() {
	stop_slurm
}

# A failed test must not leave a job of its own behind.
teardown() {
	[ -z "${BATS_TEST_COMPLETED:-}" ] || return 0
	[ -n "${mark:-}" ] && killwith "$mark"
	return 0
}

# Run "$@" (a wspx command line) inside a new allocation of $1 CPUs, one
# per task: stdout in out, stderr in err, the exit status in $st, the
# allocation's id in $jobid.  Then, still in the allocation, wait up to
# 5 s until it has no step left and no process has "$mark" (if set) in
# its command line, and leave what remains of them in steps and left.
inalloc() {
	local n=$1
	shift
	st=0
	# shellcheck disable=SC2016
	MARK=${mark:-} salloc -Q -n "$n" -- sh -c '
		echo "$SLURM_JOB_ID" > jobid
		"$@"
		echo $? > wst
		i=0
		while :; do
			squeue -h -s -j "$SLURM_JOB_ID" -o "%i %j" > steps
			if [ -n "$MARK" ]; then pgrep -f -- "$MARK" > left; fi
			[ -s steps ] || [ -s left ] || break
			i=$((i + 1))
			[ $i -lt 50 ] || break
			sleep 0.1
		done' sh "$@" > out 2> err || st=$?
	jobid=$(cat jobid)
	# salloc's status is the command's; wst has wspx's own
	[ "$st" -eq "$(cat wst)" ] || echo "salloc: status $st, wspx: $(cat wst)" >&2
	st=$(cat wst)
	{ echo "in allocation $jobid: $*: status $st, stderr:"; cat err; } >&2
}

# Succeed once squeue shows no job at all, waiting up to 5 s (one that
# ends shows as completing for a moment).
nojobs() {
	local end=$((SECONDS + 5))
	while [ -n "$(squeue -h)" ]; do
		if [ "$SECONDS" -ge "$end" ]; then
			echo "jobs left:" >&2
			squeue >&2
			return 1
		fi
		sleep 0.1
	done
}

# A script ./sruns MARK that appends to the file sruns how many srun
# commands with MARK in their command line run now: wspx's jobs in
# flight, those waiting for their step's CPUs too (srun --exact waits for
# them itself, so the directories of counting() alone would not see a
# wspx that starts too many).  srun's own helper child, another srun, is
# not counted.  If wspx's srun lines do not carry the job's command, the
# count is 0: the check is an upper bound only.
mksruns() {
	cat > sruns <<'SH'
#!/bin/sh
n=0
for p in $(pgrep -x srun); do
	tr '\0' ' ' < "/proc/$p/cmdline" 2> /dev/null | grep -qF -- "$1" || continue
	pp=$(awk '{ print $4 }' "/proc/$p/stat" 2> /dev/null) || continue
	[ "$(cat "/proc/$pp/comm" 2> /dev/null)" = srun ] && continue
	n=$((n + 1))
done
echo $n >> sruns.count
SH
	chmod +x sruns
}

@test "--slurm in an allocation: each job is a step of it, with its output" {
	inalloc 4 "$WSPX" --slurm 'echo {} "$SLURM_JOB_ID" "$SLURM_STEP_ID"' ::: 1 2 3 4 5 6
	[ "$st" -eq 0 ]
	[ "$(cut -d' ' -f1 out | sort -n)" = "$(seq 6)" ]
	# the allocation's job id, and a step of each job's own
	[ "$(cut -d' ' -f2 out | sort -u)" = "$jobid" ]
	[ "$(cut -d' ' -f3 out | grep -cE '^[0-9]+$')" -eq 6 ]
	[ "$(cut -d' ' -f3 out | sort -u | wc -l)" -eq 6 ]
	[ ! -s steps ]
}

@test "--slurm: no more jobs at once than the allocation's CPUs (and --slurm-cpus, -j)" {
	mksruns
	u=$$$RANDOM
	job="./sruns $u; $(counting 0.5); : $u"
	inalloc 2 "$WSPX" --slurm -j 8 "$job" ::: 1 2 3 4 5 6
	[ "$st" -eq 0 ]
	[ "$(cut -d' ' -f1 out | sort -n)" = "$(seq 6)" ]
	[ "$(awk '$NF ~ /^[0-9]+$/' out | wc -l)" -eq 6 ]	# each a step
	[ "$(maxof conc)" -eq 2 ]
	[ "$(maxof sruns.count)" -le 2 ]

	# 4 CPUs, 2 a job: 2 at once
	rm conc sruns.count
	inalloc 4 "$WSPX" --slurm --slurm-cpus 2 -j 8 "$job" ::: 1 2 3 4
	[ "$st" -eq 0 ]
	[ "$(cut -d' ' -f1 out | sort -n)" = "$(seq 4)" ]
	[ "$(maxof conc)" -le 2 ]
	[ "$(maxof sruns.count)" -le 2 ]

	# -j below the CPUs
	rm conc sruns.count
	inalloc 4 "$WSPX" --slurm -j 1 "$job" ::: 1 2 3
	[ "$st" -eq 0 ]
	[ "$(cut -d' ' -f1 out | sort -n)" = "$(seq 3)" ]
	[ "$(maxof conc)" -eq 1 ]
	[ "$(maxof sruns.count)" -le 1 ]
}

@test "--slurm: the steps' exit statuses come back, as for the same jobs run here" {
	inalloc 4 "$WSPX" --slurm --joblog log 'exit {}' ::: 0 3 0 5
	[ "$st" -eq 2 ]
	lst=0
	"$WSPX" 'exit {}' ::: 0 3 0 5 || lst=$?
	[ "$st" -eq "$lst" ]
	[ "$(tail -n +2 log | sort -n | cut -f1,7)" = "$(printf '1\t0\n2\t3\n3\t0\n4\t5')" ]
	inalloc 4 "$WSPX" --slurm 'echo {}; exit {}' ::: 3
	[ "$st" -eq 1 ]
	[ "$(cat out)" = 3 ]
}

@test "--slurm --timeout: the step is cancelled, no process of it is left" {
	u=$$$RANDOM mark="sleep 2345$u"
	# the mark in no command line but the job's: {} puts it together
	SECONDS=0
	inalloc 4 "$WSPX" --slurm --timeout 2 'sleep 2345{}' ::: "$u"
	[ "$st" -eq 1 ]
	[ "$SECONDS" -lt 30 ]
	# looked at before the allocation ended (which would end its steps)
	[ ! -s left ]
	[ ! -s steps ]
}

@test "--slurm outside an allocation: --slurm-partition or --slurm-args get one, released at the end" {
	st=0
	"$WSPX" --slurm --slurm-partition debug --joblog log \
	    'echo {} "$SLURM_JOB_ID" "$SLURM_STEP_ID"' ::: 1 2 3 > out 2> err || st=$?
	cat err >&2
	[ "$st" -eq 0 ]
	[ "$(cut -d' ' -f1 out | sort -n)" = "$(seq 3)" ]
	# one allocation, a step each
	jobid=$(cut -d' ' -f2 out | sort -u)
	[[ $jobid =~ ^[0-9]+$ ]]
	[ "$(cut -d' ' -f3 out | grep -cE '^[0-9]+$')" -eq 3 ]
	[ "$(tail -n +2 log | cut -f2 | sort -u)" = "slurm:$jobid" ]
	nojobs

	# --slurm-args alone: salloc's arguments, here the allocation's size
	st=0
	"$WSPX" --slurm --slurm-args '-n 2' -j 8 "$(counting 0.4)" ::: 1 2 3 4 > out 2> err || st=$?
	cat err >&2
	[ "$st" -eq 0 ]
	[ "$(cut -d' ' -f1 out | sort -n)" = "$(seq 4)" ]
	[ "$(awk '$NF ~ /^[0-9]+$/' out | wc -l)" -eq 4 ]
	[ "$(maxof conc)" -le 2 ]
	nojobs
}

@test "--slurm outside an allocation without --slurm-partition or --slurm-args: an error" {
	run "$WSPX" --slurm touch ran ::: 1
	[ "$status" -eq 255 ]
	[[ $output == *--slurm* ]]
	[ ! -e ran ]
	[ -z "$(squeue -h)" ]
}

@test "--slurm --joblog: Host is slurm:JOBID" {
	inalloc 4 "$WSPX" --slurm --joblog log echo ::: a b
	[ "$st" -eq 0 ]
	[ "$(tail -n +2 log | sort -n | cut -f1,2,7,9)" = \
	  "$(printf '1\tslurm:%s\t0\techo a\n2\tslurm:%s\t0\techo b' "$jobid" "$jobid")" ]
}

@test "executor: slurm in a job file runs its command jobs as steps" {
	cat > jobs.yaml <<'YAML'
executor: slurm
jobs:
  a:
    run: echo "a $SLURM_STEP_ID"
  b:
    needs: [a]
    run: echo "b $SLURM_STEP_ID"
YAML
	inalloc 2 "$WSPX" run jobs.yaml
	[ "$st" -eq 0 ]
	grep -Eq '^a [0-9]+$' out
	grep -Eq '^b [0-9]+$' out
}

@test "--slurm --workdir: the steps start in it" {
	mkdir -p wd
	inalloc 2 "$WSPX" --slurm --workdir "$PWD/wd" 'pwd; : {}' ::: 1
	[ "$st" -eq 0 ]
	[ "$(cat out)" = "$PWD/wd" ]
}
