.POSIX:
.SUFFIXES:
.SUFFIXES: .c .o .po

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
DATADIR ?= $(PREFIX)/share
MANDIR ?= $(DATADIR)/man
CC = cc
CFLAGS = -O2 -g
# CI sets WERROR=-Werror; it reaches the sanitizer builds through MAKEFLAGS.
WERROR =
# Unit-test sizes: thread and iteration counts (see tests/unit/*.c).
DEQUE_ARGS = 16 1000000
STACK_ARGS = 8 1000000
SLEEP_ARGS = 4 200000
POOL_ARGS = 4 200000
BLOCKING_ARGS =
JOB_ARGS = 20

VERSION = 0.1.0
ALL_CPPFLAGS = $(CPPFLAGS) -D_POSIX_C_SOURCE=200809L -Ilib $(YAML_CFLAGS)
ALL_CFLAGS = $(CFLAGS) -std=c11 -pthread -Wall -Wextra -Wpedantic -Wshadow \
	-Wmissing-prototypes -Wstrict-prototypes $(WERROR)
YAML_CFLAGS =
YAML_LIBS = -lyaml
ALL_LDFLAGS = $(LDFLAGS) -pthread $(YAML_LIBS)

LIBHDR = lib/arena.h lib/atomic.h lib/blocking.h lib/builtin.h \
	lib/builtins.h lib/deque.h lib/diag.h lib/duration.h lib/exec.h \
	lib/glob.h lib/graph.h lib/halt.h lib/jobcheck.h lib/job.h \
	lib/jobfile.h lib/jobserver.h lib/joblog.h lib/matrix.h lib/median.h \
	lib/output.h lib/pool.h lib/proc.h lib/pump.h lib/results.h \
	lib/sha256.h lib/sleep.h lib/stack.h lib/strtab.h lib/sysload.h \
	lib/thread.h lib/timer.h lib/uptodate.h lib/watchdog.h lib/wspx.h \
	lib/yamldoc.h
LIBOBJ = lib/arena.o lib/blocking.o lib/builtinfs.o lib/builtinrm.o \
	lib/builtins.o lib/builtinwait.o lib/deque.o lib/diag.o \
	lib/duration.o lib/error.o lib/forkjoin.o lib/gate.o lib/glob.o \
	lib/graph.o lib/halt.o lib/job.o lib/jobcheck.o lib/jobcond.o \
	lib/jobexpr.o lib/jobfile.o lib/jobserver.o lib/joblog.o \
	lib/matrix.o lib/median.o lib/outcome.o lib/output.o lib/pool.o \
	lib/proc.o lib/pump.o lib/results.o lib/sha256.o lib/sleep.o \
	lib/stack.o lib/stop.o lib/strtab.o lib/sysload.o lib/thread.o \
	lib/timer.o lib/uptodate.o lib/watchdog.o lib/yamldoc.o
LIBPIC = $(LIBOBJ:.o=.po)
CMDHDR = cmd/blocks.h cmd/command.h cmd/events.h cmd/failures.h \
	cmd/feeder.h cmd/filecuts.h cmd/gates.h cmd/graphrun.h cmd/hosts.h \
	cmd/input.h \
	cmd/jobargs.h cmd/jobfilecmd.h cmd/options.h cmd/optvalue.h \
	cmd/outfiles.h cmd/pipejobs.h cmd/placing.h cmd/progpath.h cmd/records.h \
	cmd/refused.h cmd/remote.h cmd/remotefiles.h cmd/report.h cmd/resume.h cmd/run.h \
	cmd/running.h cmd/sidecmd.h cmd/slurm.h cmd/sshconn.h cmd/sshscript.h \
	cmd/shell.h cmd/signals.h cmd/stats.h cmd/status.h cmd/template.h \
	cmd/util.h cmd/zerocopy.h
CMDOBJ = cmd/blocks.o cmd/command.o cmd/events.o cmd/failures.o \
	cmd/feeder.o cmd/filecuts.o cmd/gates.o cmd/graphcmd.o cmd/graphrun.o \
	cmd/graphstate.o cmd/hosts.o cmd/input.o cmd/jobargs.o cmd/jobfilecmd.o \
	cmd/main.o cmd/options.o cmd/optvalue.o cmd/outfiles.o cmd/pipejobs.o \
	cmd/placing.o cmd/progpath.o cmd/records.o cmd/refused.o cmd/remote.o \
	cmd/remotefiles.o cmd/report.o cmd/resume.o cmd/run.o cmd/running.o \
	cmd/shell.o cmd/sidecmd.o cmd/signals.o cmd/slurm.o cmd/sshconn.o \
	cmd/sshscript.o cmd/stats.o cmd/status.o cmd/template.o cmd/util.o \
	cmd/zerocopy.o
UNIT = tests/unit/deque tests/unit/stack tests/unit/sleep tests/unit/pool \
	tests/unit/blocking tests/unit/job tests/unit/policy tests/unit/sysload \
	tests/unit/jobserver tests/unit/yamldoc tests/unit/sha256 \
	tests/unit/glob tests/unit/uptodate tests/unit/timer \
	tests/unit/builtins tests/unit/graph
EXAMPLES = examples/forkjoin
# The commands (and C headers) the README's two commands need.  What is
# missing is installed by tests/need.sh with apt-get, as root or through
# sudo -n, or named with the line to type.  A name whose Debian package has
# another name (ps: procps) is also listed in the table of tests/need.sh.
# The shells are for the quoting and completion tests, which skip a shell
# that is missing (tcsh also brings csh); GNU parallel is the reference
# the joblog and halt tests compare with.  sshd, ssh and Slurm (with
# munge) are for the remote tests, which start their own daemons on free
# ports with ../shared/services/.
EXAMPLE_TOOLS = cc stdio.h yaml.h make
CHECK_TOOLS = $(EXAMPLE_TOOLS) nm spin mandoc bats python3 tmux ps bash \
	dash zsh ksh mksh busybox fish tcsh parallel sshd ssh ssh-keygen \
	slurmctld slurmd srun munged

all: wspx libwspx.a libwspx.so

.c.o:
	$(CC) $(ALL_CFLAGS) $(ALL_CPPFLAGS) -c -o $@ $<
.c.po:
	$(CC) $(ALL_CFLAGS) $(ALL_CPPFLAGS) -fPIC -c -o $@ $<

$(LIBOBJ) $(LIBPIC): $(LIBHDR)
$(CMDOBJ): $(CMDHDR) $(LIBHDR)

wspx: $(CMDOBJ) libwspx.a
	$(CC) $(ALL_CFLAGS) -o $@ $(CMDOBJ) libwspx.a $(ALL_LDFLAGS)

libwspx.a: $(LIBOBJ)
	rm -f $@
	$(AR) rcs $@ $(LIBOBJ)

libwspx.so: $(LIBPIC) lib/libwspx.map
	$(CC) $(ALL_CFLAGS) -shared -o $@ -Wl,-soname,libwspx.so.0 \
	    -Wl,--version-script=lib/libwspx.map $(LIBPIC) $(ALL_LDFLAGS)

# Unit tests, examples and the benchmark: one program per source, linked
# to libwspx.a.
.c:
	$(CC) $(ALL_CFLAGS) $(ALL_CPPFLAGS) -o $@ $< libwspx.a $(ALL_LDFLAGS)
$(UNIT): tests/unit/test.h $(LIBHDR) libwspx.a
$(EXAMPLES) tests/bench/bench_wspx: lib/wspx.h libwspx.a
# The pool's test makes calloc fail (a deque that cannot grow); the
# blocking pool's counts the pool's joins; the executor's sees each batch
# handed to the blocking pool.
tests/unit/blocking: tests/unit/blocking.c
	$(CC) $(ALL_CFLAGS) $(ALL_CPPFLAGS) -o $@ tests/unit/blocking.c \
	    libwspx.a $(ALL_LDFLAGS) -Wl,--wrap=pthread_join
tests/unit/pool: tests/unit/pool.c
	$(CC) $(ALL_CFLAGS) $(ALL_CPPFLAGS) -o $@ tests/unit/pool.c libwspx.a \
	    $(ALL_LDFLAGS) -Wl,--wrap=calloc
tests/unit/job: tests/unit/job.c
	$(CC) $(ALL_CFLAGS) $(ALL_CPPFLAGS) -o $@ tests/unit/job.c libwspx.a \
	    $(ALL_LDFLAGS) -Wl,--wrap=wspx_blocking_submit_n

# The README's first command: build and run the bundled examples: a job
# graph (twice: the second run finds it up to date), a list of commands
# run by wspx, and a program using libwspx.
example: example-tools wspx examples/forkjoin
	./wspx run examples/build/jobs.yaml
	./wspx run examples/build/jobs.yaml
	./wspx -k < examples/commands.txt
	./examples/forkjoin

# One target that the others list first, so that a make run installs what
# they need in one go, before building anything.
example-tools:
	@CC='$(CC)' sh tests/need.sh 'make example' $(EXAMPLE_TOOLS)
check-tools:
	@CC='$(CC)' sh tests/need.sh 'make check' $(CHECK_TOOLS)

check: check-tools check-unit check-examples check-symbols check-headers \
	check-model check-man check-cli check-need

check-unit: $(UNIT)
	tests/unit/deque $(DEQUE_ARGS)
	tests/unit/stack $(STACK_ARGS)
	tests/unit/sleep $(SLEEP_ARGS)
	tests/unit/pool $(POOL_ARGS)
	tests/unit/blocking $(BLOCKING_ARGS)
	tests/unit/job $(JOB_ARGS)
	tests/unit/policy
	tests/unit/sysload
	tests/unit/jobserver
	tests/unit/yamldoc
	tests/unit/sha256
	tests/unit/glob
	tests/unit/uptodate
	tests/unit/timer
	tests/unit/builtins
	tests/unit/graph

# The command's tests (bats-core); each test fails after 120 s, not hangs.
check-cli: check-tools wspx
	BATS_TEST_TIMEOUT=120 WSPX=$$PWD/wspx bats tests/cli

check-examples: $(EXAMPLES)
	./examples/forkjoin > /dev/null

# Every global symbol of the library is wspx_ (public, in wspx.h) or
# wspx__ (internal); the shared library exports only the public ones.
check-symbols: libwspx.a libwspx.so
	sh tests/symbols.sh libwspx.a libwspx.so lib/wspx.h

# Every header compiles on its own.
check-headers:
	for h in $(LIBHDR); do \
	    printf '#include "%s"\n' "$${h#lib/}" | \
	    $(CC) $(ALL_CFLAGS) $(ALL_CPPFLAGS) -fsyntax-only -x c - || exit 1; \
	done

# The Promela model of the sleep protocol (lib/sleep.pml), checked by spin,
# and its known-bad variants, which must fail: tests/model.sh reads their
# names from the model's header comment.
check-model: check-tools
	sh tests/model.sh lib/sleep.pml

check-man: check-tools
	sh tests/manlint.sh man/*.[0-9]

# tests/need.sh itself, against stubs of id, sudo and apt-get.
check-need: check-tools
	bats tests/need.bats

# A small quarantine keeps ASan's freed memory out of the RSS tests.
check-asan: check-tools
	$(MAKE) clean
	ASAN_OPTIONS=quarantine_size_mb=1 $(MAKE) \
	    CFLAGS='-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all' \
	    LDFLAGS='-fsanitize=address,undefined' check

check-tsan: check-tools
	$(MAKE) clean
	TSAN_OPTIONS="halt_on_error=1 suppressions=$$PWD/tests/tsan.supp" \
	    $(MAKE) CFLAGS='-O1 -g -fno-omit-frame-pointer -fsanitize=thread' \
	    LDFLAGS='-fsanitize=thread' check-unit check-examples check-cli

# Benchmarks against Rayon, oneTBB and OpenMP, never part of check.  The
# anchors are built with -O3, so the library is rebuilt with it too.
ANCHORS = ../shared/anchors
bench:
	$(MAKE) clean
	$(MAKE) CFLAGS='-O3 -g' tests/bench/bench_wspx
	EXTRA="wspx=$$PWD/tests/bench/bench_wspx" \
	    $(ANCHORS)/runtimes/run.sh

install: all
	mkdir -p $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR)/pkgconfig \
	    $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(MANDIR)/man1 \
	    $(DESTDIR)$(MANDIR)/man3 $(DESTDIR)$(MANDIR)/man5 \
	    $(DESTDIR)$(DATADIR)/bash-completion/completions \
	    $(DESTDIR)$(DATADIR)/zsh/site-functions \
	    $(DESTDIR)$(DATADIR)/fish/vendor_completions.d
	cp -f wspx $(DESTDIR)$(BINDIR)/wspx
	cp -f libwspx.a $(DESTDIR)$(LIBDIR)/libwspx.a
	cp -f libwspx.so $(DESTDIR)$(LIBDIR)/libwspx.so.0
	ln -sf libwspx.so.0 $(DESTDIR)$(LIBDIR)/libwspx.so
	cp -f lib/wspx.h $(DESTDIR)$(INCLUDEDIR)/wspx.h
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' \
	    -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' -e 's|@VERSION@|$(VERSION)|' \
	    lib/wspx.pc.in > $(DESTDIR)$(LIBDIR)/pkgconfig/wspx.pc
	cp -f man/wspx.1 $(DESTDIR)$(MANDIR)/man1/wspx.1
	cp -f man/libwspx.3 $(DESTDIR)$(MANDIR)/man3/libwspx.3
	cp -f man/wspx.5 $(DESTDIR)$(MANDIR)/man5/wspx.5
	cp -f completions/wspx.bash \
	    $(DESTDIR)$(DATADIR)/bash-completion/completions/wspx
	cp -f completions/_wspx $(DESTDIR)$(DATADIR)/zsh/site-functions/_wspx
	cp -f completions/wspx.fish \
	    $(DESTDIR)$(DATADIR)/fish/vendor_completions.d/wspx.fish
# the loader's cache, so that programs find libwspx.so.0
	if [ -z "$(DESTDIR)" ] && [ "$$(id -u)" = 0 ] && \
	    command -v ldconfig >/dev/null; then ldconfig; fi

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/wspx $(DESTDIR)$(LIBDIR)/libwspx.a \
	    $(DESTDIR)$(LIBDIR)/libwspx.so.0 $(DESTDIR)$(LIBDIR)/libwspx.so \
	    $(DESTDIR)$(INCLUDEDIR)/wspx.h \
	    $(DESTDIR)$(LIBDIR)/pkgconfig/wspx.pc \
	    $(DESTDIR)$(MANDIR)/man1/wspx.1 \
	    $(DESTDIR)$(MANDIR)/man3/libwspx.3 \
	    $(DESTDIR)$(MANDIR)/man5/wspx.5 \
	    $(DESTDIR)$(DATADIR)/bash-completion/completions/wspx \
	    $(DESTDIR)$(DATADIR)/zsh/site-functions/_wspx \
	    $(DESTDIR)$(DATADIR)/fish/vendor_completions.d/wspx.fish

clean:
	rm -f wspx libwspx.a libwspx.so $(LIBOBJ) $(LIBPIC) $(CMDOBJ) \
	    $(UNIT) \
	    $(EXAMPLES) tests/bench/bench_wspx
	rm -rf tests/model.out

.PHONY: all example example-tools check check-tools check-unit \
	check-examples check-cli check-symbols check-headers check-model \
	check-man check-need check-asan check-tsan bench install uninstall \
	clean
