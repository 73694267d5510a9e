#!/bin/sh
# Make sure the commands a make target needs are installed:
#
#	sh tests/need.sh 'make check' cc stdio.h make spin ...
#
# A name ending in .h is a C header that $CC (default cc) must find.
# Nothing to do if they all are.  Otherwise the Debian packages that bring
# them are installed with apt-get, as root or through `sudo -n` (which never
# asks for a password, so that CI and scripts cannot hang).  When neither
# may install, this stops at once, before anything long has run, with the
# line to type, and exits 1.

set -u

if [ $# -lt 1 ]; then
	echo "usage: sh tests/need.sh 'make TARGET' command..." >&2
	exit 2
fi
what=$1
shift

# have NAME: whether the command or header NAME is there.  Headers are
# checked apart: gcc installed without its Recommends has no libc headers.
# libFuzzer is clang's fuzzing runtime, which Debian ships apart from
# clang (a Recommends): $CC must link a fuzz target.
have() {
	case $1 in
	*.h)	printf '#include <%s>\n' "$1" |
		    ${CC:-cc} -E -x c - >/dev/null 2>&1 ;;
	libFuzzer)
		printf '%s\n' '#include <stddef.h>' \
		    'int LLVMFuzzerTestOneInput(const char *d, size_t n);' \
		    'int LLVMFuzzerTestOneInput(const char *d, size_t n)' \
		    '{ return d == NULL && n > 0; }' |
		    ${CC:-cc} -fsanitize=fuzzer -x c -o /dev/null - \
		    >/dev/null 2>&1 ;;
	*)	command -v "$1" >/dev/null 2>&1 || [ -x "/usr/sbin/$1" ] ;;
	esac
}

# pkgof NAME: the Debian package that brings NAME.  Only names whose
# package has another name are listed.
pkgof() {
	case $1 in
	stdio.h | pthread.h) echo libc6-dev ;;
	yaml.h) echo libyaml-dev ;;
	openssl/evp.h) echo libssl-dev ;;
	cc | c99) echo gcc ;;
	nm | ar) echo binutils ;;
	ps | pkill | pgrep) echo procps ;;
	sshd) echo openssh-server ;;
	ssh | ssh-keygen) echo openssh-client ;;
	srun | salloc | squeue | scancel | sinfo) echo slurm-client ;;
	munged) echo munge ;;
	xmllint) echo libxml2-utils ;;
	rsvg-convert) echo librsvg2-bin ;;
	libFuzzer) echo libclang-rt-dev ;;
	*) echo "$1" ;;
	esac
}

missing=
pkgs=
for cmd; do
	have "$cmd" && continue
	missing="$missing $cmd"
	pkg=$(pkgof "$cmd")
	case " $pkgs " in
	*" $pkg "*) ;;
	*) pkgs="$pkgs $pkg" ;;
	esac
done
[ -z "$missing" ] && exit 0
missing=${missing# }
pkgs=${pkgs# }

if ! command -v apt-get >/dev/null 2>&1; then
	echo "$what needs these, which are not installed: $missing" >&2
	echo "install them with your system's package manager," \
	    "then run $what again" >&2
	exit 1
fi

if [ "$(id -u)" = 0 ]; then
	as=
elif command -v sudo >/dev/null 2>&1 && sudo -n true >/dev/null 2>&1; then
	as='sudo -n'
else
	# The line must work as typed: on a machine whose package lists
	# are empty (a fresh container) or old, apt must update them first.
	update=
	for pkg in $pkgs; do
		apt-cache show "$pkg" >/dev/null 2>&1 || update=y
	done
	line="apt-get install -y $pkgs"
	if command -v sudo >/dev/null 2>&1; then
		line="sudo $line"
		[ -n "$update" ] && line="sudo apt-get update && $line"
	else
		[ -n "$update" ] && line="apt-get update && $line"
		line="su -c '$line'"
	fi
	echo "$what needs: $pkgs; install them with: $line" >&2
	exit 1
fi

echo "installing for $what${as:+ (through $as)}: $pkgs"
log=$(mktemp "${TMPDIR:-/tmp}/wspx-need.XXXXXX") || exit 1
# Daemons (sshd, slurmd, munged) are for the tests to start on ports of
# their own: their packages must not start the system's on install.
policy=
if [ ! -e /usr/sbin/policy-rc.d ] && $as sh -c 'printf "#!/bin/sh\nexit 101\n" \
    > /usr/sbin/policy-rc.d && chmod 755 /usr/sbin/policy-rc.d'; then
	policy=/usr/sbin/policy-rc.d
fi
trap 'rm -f "$log"; [ -z "$policy" ] || $as rm -f "$policy"' EXIT
trap 'exit 1' HUP INT TERM
# A failed update may only mean the network is down while the lists are
# good enough: the install decides, and its log tells.
$as env DEBIAN_FRONTEND=noninteractive apt-get update -qq >"$log" 2>&1
if ! $as env DEBIAN_FRONTEND=noninteractive apt-get install -y \
    --no-install-recommends $pkgs >>"$log" 2>&1; then
	cat "$log" >&2
	echo "$what: apt-get could not install: $pkgs" >&2
	exit 1
fi

# A package can install and still not bring the command (another version,
# another path): say which, rather than fail later in the build or a test.
bad=
for cmd in $missing; do
	have "$cmd" || bad="$bad $cmd (package $(pkgof "$cmd"))"
done
if [ -n "$bad" ]; then
	echo "$what: installed $pkgs, but these are still missing:$bad" >&2
	exit 1
fi
