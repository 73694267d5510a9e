#!/usr/bin/env bash
# Remote execution: N=200 trivial jobs (`echo I`) run over SSH and through
# Slurm, wspx against GNU parallel and the floors, one hyperfine run per
# part so the numbers compare.  Prints the medians and the ratios the
# targets are stated in.
#
#   WSPX=./wspx RUNS=10 tests/bench/remote.sh
#
# SSH: a private sshd on 127.0.0.1 (tests/services/sshd.sh, on a free port
# picked now) and one ssh configuration for every command: the wrapper
# $WORK/ssh = `ssh -F $WORK/ssh_config`, which is the sshd's ssh_config
# (it sends `SetEnv SHLVL=1`) plus the host alias wspx-local.  Without
# SHLVL, bash (root's login shell, which sshd runs every remote command
# with) sources ~/.bashrc because SSH_CLIENT is set and SHLVL is not, and
# this machine's .bashrc (pyenv init) takes about 190 ms: every session,
# in every tool, would cost that, and the tools' own costs would drown in
# it.
#   floor:  seq N | xargs -PJ -I{} $WORK/ssh -S SOCK -o ControlMaster=no wspx-local echo {}
#           (SOCK: a ControlMaster opened before the run: what one session costs)
#   gnu:    seq N | parallel -S J/wspx-local --ssh $WORK/ssh -M echo {}
#   wspx:   seq N | wspx -S J/wspx-local --ssh $WORK/ssh echo {}
#           (wspx opens its own ControlMaster; its default workdir is its
#           current directory, GNU parallel's the remote $HOME)
# Target: wspx at most 0.5x GNU parallel.
#
# Slurm: a one-node cluster (tests/services/slurm.sh, CPUS CPUs, free
# ports) and one allocation, `salloc -n CPUS`, that hyperfine runs in:
#   srun-loop: for i in $(seq N); do srun --exact -n1 -c1 echo $i; done
#   wspx:      seq N | wspx --slurm echo {}
# Target: wspx at most 1.0x the loop.
#
# Before timing, each command must print the N numbers (sum N(N+1)/2).
# A wspx without -S/--ssh/--slurm fails there, with its message; nothing is
# left out unless PEERS_ONLY=1 is given (then wspx is not run, and said so).
# Env: WSPX (./wspx), RUNS (10), N (200), J (2, ssh slots and xargs -P),
# CPUS (2, the cluster's and the allocation's), PARTS ("ssh slurm"),
# WORK (a new temp dir, removed at the end unless given), PEERS_ONLY (0).
# Needs hyperfine, GNU parallel, python3, sshd and Slurm with munge (`make
# check-tools` installs the last two); runs as root; not part of make check.
set -euo pipefail
SERVICES=$(cd "$(dirname "$0")/../services" && pwd)
WSPX=${WSPX:-./wspx}
RUNS=${RUNS:-10} N=${N:-200} J=${J:-2} CPUS=${CPUS:-2}
PARTS=${PARTS:-ssh slurm} PEERS_ONLY=${PEERS_ONLY:-0}
if [ "$PEERS_ONLY" = 1 ]; then
	echo "remote.sh: PEERS_ONLY=1: wspx is NOT measured, no ratios" >&2
else
	[ -x "$WSPX" ] || { echo "remote.sh: WSPX=$WSPX: no such executable" >&2; exit 1; }
	WSPX=$(cd "$(dirname "$WSPX")" && pwd)/$(basename "$WSPX")
fi
for t in hyperfine parallel python3; do
	command -v $t >/dev/null || { echo "remote.sh: needs $t" >&2; exit 1; }
done
if [ -n "${WORK:-}" ]; then KEEP=1; mkdir -p "$WORK"; else KEEP=0 WORK=$(mktemp -d); fi
WORK=$(cd "$WORK" && pwd)
chmod 755 "$WORK"   # munged wants o+x on every parent of its state dir

cleanup() {
	set +e
	[ -S "$WORK/floor.sock" ] &&
		"$WORK/ssh" -S "$WORK/floor.sock" -O exit wspx-local >/dev/null 2>&1
	[ -d "$WORK/sshd" ] && "$SERVICES/sshd.sh" stop "$WORK/sshd"
	[ -d "$WORK/slurm" ] && "$SERVICES/slurm.sh" stop "$WORK/slurm"
	if [ "$KEEP" = 1 ]; then echo "work: $WORK" >&2; else rm -rf "$WORK"; fi
}
trap cleanup EXIT

export SHELL=/bin/sh PARALLEL_HOME=$WORK/ph TMPDIR=$WORK/tmp
mkdir -p "$PARALLEL_HOME" "$TMPDIR" && touch "$PARALLEL_HOME/will-cite"
cd "$WORK"
SUM=$((N * (N + 1) / 2))

# free TCP ports, none of the usual ones of a test sshd and of Slurm
# (a daemon that is down now may want them later)
free_ports() {
	python3 - "$1" <<'PY'
import socket, sys
socks = []
while len(socks) < int(sys.argv[1]):
    s = socket.socket()
    s.bind(("", 0))
    if s.getsockname()[1] in (2222, 6817, 6818):
        s.close()
    else:
        socks.append(s)
print(*[s.getsockname()[1] for s in socks])
PY
}

# check NAME CMD [WRAP...]: CMD, run as WRAP... sh -c CMD, prints 1..N
check() {
	local name=$1 cmd=$2 out err rc=0 n s
	shift 2
	err=$WORK/check.err
	out=$("$@" sh -c "$cmd" 2>"$err") || rc=$?
	read -r n s < <(printf '%s\n' "$out" | awk 'NF { n++; s += $1 } END { print n + 0, s + 0 }')
	if [ "$rc" = 0 ] && [ "$n" = "$N" ] && [ "$s" = "$SUM" ]; then return 0; fi
	{
		echo "remote.sh: $name: exit $rc, $n lines summing to $s (want $N lines, $SUM)"
		echo "  command: $cmd"
		sed 's/^/  stderr: /' "$err" | tail -n 5
		case $name in wspx*)
			echo "  If that is 'unknown option' or 'not supported', this wspx has no remote"
			echo "  execution yet (-S/--ssh/--slurm, issue 12); PEERS_ONLY=1 times the rest."
		esac
	} >&2
	exit 1
}

# bench PART JSON WRAP... -- NAME CMD NAME CMD ...: check each, then one hyperfine
bench() {
	local part=$1 json=$2 wrap=() args=()
	shift 2
	while [ "$1" != -- ]; do wrap+=("$1"); shift; done
	shift
	while [ $# -gt 0 ]; do
		if [ "$PEERS_ONLY" = 1 ] && [[ $1 == wspx* ]]; then shift 2; continue; fi
		check "$1" "$2" "${wrap[@]}"
		args+=(-n "$1" "$2")
		shift 2
	done
	echo "== $part: $N jobs, $RUNS runs; $(uptime | sed 's/.*load/load/')"
	"${wrap[@]}" hyperfine --style none --warmup 1 --runs "$RUNS" \
		--export-json "$json" "${args[@]}" >/dev/null
	echo "   after: $(uptime | sed 's/.*load/load/')"
}

report() { # JSON NUM DEN TARGET [NUM DEN TARGET ...]
	python3 - "$@" <<'PY'
import json, sys
a = sys.argv[1:]
m = {r["command"]: r for r in json.load(open(a[0]))["results"]}
for name, r in m.items():
    print(f"{name:<10} median {r['median'] * 1e3:8.1f} ms"
          f"  (mean {r['mean'] * 1e3:8.1f} +- {r['stddev'] * 1e3:6.1f}, {len(r['times'])} runs)")
for num, den, target in zip(a[1::3], a[2::3], a[3::3]):
    if num in m and den in m:
        t = f" (target <= {target}x)" if target != "-" else ""
        print(f"{num} / {den}: {m[num]['median'] / m[den]['median']:.2f}x{t}")
    else:
        print(f"{num} / {den}: not measured")
PY
}

for part in $PARTS; do
	case $part in
	ssh)
		port=$(free_ports 1)
		"$SERVICES/sshd.sh" start "$WORK/sshd" "$port"
		printf '%s\n' "Include $WORK/sshd/ssh_config" "Host wspx-local" \
			"HostName 127.0.0.1" "Port $port" "User root" >"$WORK/ssh_config"
		printf '#!/bin/sh\nexec ssh -F %s "$@"\n' "$WORK/ssh_config" >"$WORK/ssh"
		chmod 755 "$WORK/ssh"
		SSH=$WORK/ssh
		"$SSH" -M -N -f -S "$WORK/floor.sock" -o ControlPersist=600 wspx-local
		"$SSH" -S "$WORK/floor.sock" -O check wspx-local 2>/dev/null
		# SHLVL=1 arrives (bash then counts 2 and skips ~/.bashrc)
		[ "$("$SSH" -S "$WORK/floor.sock" wspx-local 'echo $SHLVL')" = 2 ] ||
			{ echo "remote.sh: SetEnv SHLVL=1 did not reach the remote shell" >&2; exit 1; }
		bench ssh "$WORK/ssh.json" -- \
			wspx "seq $N | $WSPX -S $J/wspx-local --ssh $SSH echo {}" \
			floor "seq $N | xargs -P$J -I{} $SSH -S $WORK/floor.sock -o ControlMaster=no wspx-local echo {}" \
			gnu "seq $N | parallel -S $J/wspx-local --ssh $SSH -M echo {}"
		report "$WORK/ssh.json" wspx gnu 0.5 wspx floor - gnu floor -
		;;
	slurm)
		read -r cport dport < <(free_ports 2)
		"$SERVICES/slurm.sh" start "$WORK/slurm" "$CPUS" "$cport" "$dport"
		export SLURM_CONF=$WORK/slurm/slurm.conf
		# the checks get an allocation each; hyperfine runs in one, both commands in it
		bench slurm "$WORK/slurm.json" salloc -Q -n "$CPUS" -- \
			wspx "seq $N | $WSPX --slurm echo {}" \
			srun-loop "for i in \$(seq $N); do srun --exact -n1 -c1 echo \$i; done"
		report "$WORK/slurm.json" wspx srun-loop 1.0
		;;
	*) echo "remote.sh: PARTS: unknown part $part (ssh, slurm)" >&2; exit 1 ;;
	esac
done
