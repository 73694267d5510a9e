.POSIX:
.SUFFIXES:
.SUFFIXES: .c .o .po .fo

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
EXEC_ARGS = 20

VERSION = 0.1.0
ALL_CPPFLAGS = $(CPPFLAGS) -D_POSIX_C_SOURCE=200809L -Ilib -Icmd \
	$(YAML_CFLAGS)
ALL_CFLAGS = $(CFLAGS) -std=c11 -pthread -Wall -Wextra -Wpedantic -Wshadow \
	-Wmissing-prototypes -Wstrict-prototypes $(WERROR)
YAML_CFLAGS =
YAML_LIBS = -lyaml
# The library links nothing but threads; the program and the engine's
# tests link libyaml too.
LIB_LDFLAGS = $(LDFLAGS) -pthread
ALL_LDFLAGS = $(LIB_LDFLAGS) $(YAML_LIBS)

# The library, folder by folder (lib/*/README says what each is for).
# libwspx (installed) is the runtime alone: runtime/, os/, and error.o of
# base/; the wspx program links the engine, the rest, over it.
BASEHDR = lib/base/arena.h lib/base/diag.h lib/base/duration.h \
	lib/base/clock.h lib/base/median.h lib/base/sha256.h lib/base/sha256k.h \
	lib/base/sha256ni.h \
	lib/base/shellname.h lib/base/size.h lib/base/strtab.h \
	lib/base/json.h lib/base/yamldoc.h
OSHDR = lib/os/cpus.h lib/os/direntry.h lib/os/fsclock.h \
	lib/os/fswatch.h lib/os/heap.h \
	lib/os/proc.h lib/os/semslot.h lib/os/sysload.h lib/os/thread.h \
	lib/os/trial.h \
	lib/os/tmp.h \
	lib/os/zerocopy.h
RUNTIMEHDR = lib/runtime/atomic.h lib/runtime/blocking.h \
	lib/runtime/deque.h lib/runtime/graph.h lib/runtime/pool.h \
	lib/runtime/sleep.h lib/runtime/stack.h lib/runtime/timer.h \
	lib/runtime/watchdog.h
EXECHDR = lib/exec/exec.h lib/exec/exec_int.h lib/exec/halt.h \
	lib/exec/spill.h \
	lib/exec/joblog.h lib/exec/jobserver.h lib/exec/output.h \
	lib/exec/pump.h lib/exec/results.h
BUILTINSHDR = lib/builtins/builtin.h lib/builtins/builtin_int.h
JOBFILEHDR = lib/jobfile/glob.h lib/jobfile/jobfile.h \
	lib/jobfile/jobfile_int.h lib/jobfile/matrix.h lib/jobfile/shellctx.h \
	lib/jobfile/state_int.h lib/jobfile/uptodate.h
LIBHDR = lib/wspx.h $(BASEHDR) $(OSHDR) $(RUNTIMEHDR) $(EXECHDR) \
	$(BUILTINSHDR) $(JOBFILEHDR)
WSPXOBJ = lib/base/error.o \
	lib/os/cpus.o lib/os/direntry.o lib/os/fsclock.o lib/os/fswatch.o \
	lib/os/heap.o \
	lib/os/proc.o lib/os/semslot.o lib/os/sysload.o lib/os/thread.o \
	lib/os/trial.o \
	lib/os/tmp.o \
	lib/os/zerocopy.o \
	lib/runtime/blocking.o lib/runtime/deque.o lib/runtime/forkjoin.o \
	lib/runtime/graph.o lib/runtime/pool.o lib/runtime/sleep.o \
	lib/runtime/stack.o lib/runtime/timer.o lib/runtime/watchdog.o
ENGINEOBJ = lib/base/arena.o lib/base/diag.o lib/base/duration.o \
	lib/base/median.o lib/base/sha256.o lib/base/sha256ni.o \
	lib/base/shellname.o \
	lib/base/size.o \
	lib/base/json.o lib/base/strtab.o lib/base/yamldoc.o \
	lib/exec/attempt.o lib/exec/exec.o lib/exec/gate.o lib/exec/halt.o \
	lib/exec/joblog.o lib/exec/jobserver.o lib/exec/outcome.o \
	lib/exec/output.o lib/exec/pump.o lib/exec/results.o \
	lib/exec/spill.o lib/exec/stop.o \
	lib/builtins/builtin.o lib/builtins/fs.o lib/builtins/rm.o \
	lib/builtins/wait.o \
	lib/jobfile/glob.o lib/jobfile/jobcheck.o lib/jobfile/jobcond.o \
	lib/jobfile/jobexpr.o lib/jobfile/jobfile.o lib/jobfile/jobsize.o \
	lib/jobfile/matrix.o lib/jobfile/explain.o lib/jobfile/filecache.o lib/jobfile/shellctx.o \
	lib/jobfile/shellguard.o lib/jobfile/statefile.o \
	lib/jobfile/stateread.o lib/jobfile/uptodate.o
LIBOBJ = $(WSPXOBJ) $(ENGINEOBJ)
LIBPIC = $(WSPXOBJ:.o=.po)
# The program, folder by folder (cmd/*/README says what each is for).
CMDHDR = cmd/util/buf.h cmd/util/owndirs.h cmd/util/slots.h \
	cmd/util/util.h \
	cmd/input/command.h cmd/input/input.h cmd/input/jobargs.h \
	cmd/input/perlre.h cmd/input/progpath.h cmd/input/shell.h \
	cmd/input/shellquote.h cmd/input/replstr.h cmd/input/template.h \
	cmd/pipe/blocks.h cmd/pipe/feeder.h cmd/pipe/filecuts.h cmd/pipe/pipejobs.h \
	cmd/pipe/pipeopts.h cmd/pipe/records.h cmd/remote/hosts.h \
	cmd/remote/placing.h cmd/remote/remote.h \
	cmd/remote/remotefiles.h cmd/remote/sidecmd.h cmd/remote/slurm.h \
	cmd/remote/sshconn.h cmd/remote/sshscript.h cmd/report/events.h cmd/report/trace.h \
	cmd/report/failures.h cmd/report/outfiles.h cmd/report/report.h \
	cmd/report/resume.h cmd/report/running.h cmd/report/stats.h \
	cmd/report/status.h cmd/review/critpath.h cmd/review/review.h \
	cmd/review/runlog.h cmd/review/runlog_int.h cmd/review/timeline.h \
	cmd/options/cmdline.h cmd/options/config.h cmd/options/optable.h \
	cmd/options/options.h cmd/options/usage.h \
	cmd/options/optvalue.h cmd/options/profile.h cmd/options/refused.h cmd/run/gates.h \
	cmd/run/confirm.h cmd/run/run.h cmd/run/run_int.h \
	cmd/run/semaphore.h cmd/run/signals.h \
	cmd/graph/graphrun.h cmd/graph/jobfilecmd.h \
	cmd/graph/jobselect.h
CMDLIBOBJ = cmd/util/buf.o cmd/util/owndirs.o cmd/util/slots.o \
	cmd/util/util.o \
	cmd/input/command.o cmd/input/input.o cmd/input/jobargs.o \
	cmd/input/perlre.o cmd/input/progpath.o cmd/input/shell.o \
	cmd/input/shellquote.o cmd/input/replstr.o cmd/input/template.o \
	cmd/pipe/blocks.o cmd/pipe/feeder.o cmd/pipe/filecuts.o \
	cmd/pipe/pipejobs.o cmd/pipe/records.o cmd/remote/hosts.o \
	cmd/remote/placing.o cmd/remote/remote.o cmd/remote/remotefiles.o \
	cmd/remote/sidecmd.o cmd/remote/slurm.o cmd/remote/sshconn.o \
	cmd/remote/sshscript.o cmd/report/events.o cmd/report/failures.o \
	cmd/report/outfiles.o cmd/report/report.o cmd/report/resume.o \
	cmd/report/running.o cmd/report/stats.o cmd/report/status.o \
	cmd/report/trace.o cmd/review/critpath.o cmd/review/jsonlog.o \
	cmd/review/review.o cmd/review/runlog.o cmd/review/timeline.o \
	cmd/options/cmdline.o cmd/options/optable.o cmd/options/options.o \
	cmd/options/optvalue.o cmd/options/usage.o \
	cmd/options/profile.o cmd/options/refused.o cmd/run/confirm.o \
	cmd/run/semaphore.o \
	cmd/run/gates.o cmd/run/jobcalls.o \
	cmd/run/run.o cmd/run/runopts.o cmd/run/signals.o \
	cmd/graph/graphcmd.o cmd/graph/graphrun.o cmd/graph/graphstate.o \
	cmd/graph/graphtick.o \
	cmd/graph/jobfilecmd.o cmd/graph/jobselect.o \
	cmd/graph/graphend.o cmd/graph/joblist.o cmd/graph/showvars.o \
	cmd/graph/watch.o
CMDOBJ = $(CMDLIBOBJ) cmd/main.o
# Unit tests, one per module: those of the runtime and os/, then the
# engine's.
RTUNIT = tests/unit/deque tests/unit/stack tests/unit/sleep tests/unit/pool \
	tests/unit/blocking tests/unit/timer tests/unit/sysload \
	tests/unit/proc tests/unit/semslot tests/unit/trial
ENGINEUNIT = tests/unit/exec tests/unit/halt tests/unit/median tests/unit/json \
	tests/unit/joblog tests/unit/size tests/unit/duration \
	tests/unit/jobserver \
	tests/unit/yamldoc tests/unit/sha256 tests/unit/glob \
	tests/unit/shellctx \
	tests/unit/uptodate tests/unit/builtin tests/unit/graph
UNIT = $(RTUNIT) $(ENGINEUNIT)
EXAMPLES = examples/forkjoin
# The commands (and C headers) the README's two commands need.  What is
# missing is installed by tests/need.sh with apt-get, as root or through
# sudo -n, or named with the line to type.  A name whose Debian package has
# another name (ps: procps) is also listed in the table of tests/need.sh.
# The shells are for the quoting and completion tests, which skip a shell
# that is missing (tcsh also brings csh); GNU parallel is the reference
# the joblog and halt tests compare with; pkg-config finds the installed
# library for its test.  sshd, ssh and Slurm (with munge) are for the
# remote tests, which start their own daemons on free ports with the
# scripts of tests/services/.  strace counts the files wspx reads.
# xmllint and rsvg-convert check wspx report's SVG as XML and as a
# picture.
EXAMPLE_TOOLS = cc stdio.h yaml.h openssl/evp.h make
CHECK_TOOLS = $(EXAMPLE_TOOLS) nm pkg-config spin mandoc bats python3 \
	tmux ps bash dash zsh ksh mksh busybox fish tcsh parallel sshd ssh \
	ssh-keygen slurmctld slurmd srun munged strace xmllint rsvg-convert

all: wspx libwspx.a libwspx.so

.c.o:
	$(CC) $(ALL_CFLAGS) $(ALL_CPPFLAGS) -c -o $@ $<
.c.po:
	$(CC) $(ALL_CFLAGS) $(ALL_CPPFLAGS) -fPIC -c -o $@ $<

$(LIBOBJ) $(LIBPIC): $(LIBHDR)
$(CMDOBJ): $(CMDHDR) $(LIBHDR)

wspx: $(CMDOBJ) libwspx-engine.a libwspx.a
	$(CC) $(ALL_CFLAGS) -o $@ $(CMDOBJ) libwspx-engine.a libwspx.a \
	    $(ALL_LDFLAGS)

# The C library: the runtime alone.
libwspx.a: $(WSPXOBJ)
	rm -f $@
	$(AR) rcs $@ $(WSPXOBJ)

libwspx.so.0: $(LIBPIC) lib/libwspx.map
	$(CC) $(ALL_CFLAGS) -shared -o $@ -Wl,-soname,libwspx.so.0 \
	    -Wl,--version-script=lib/libwspx.map $(LIBPIC) $(LIB_LDFLAGS)

# As installed: the name a program links with, the name it runs with.
libwspx.so: libwspx.so.0
	ln -sf libwspx.so.0 $@

# The engine of the wspx program over the library (the job lifecycle,
# builtins, job files); never installed.
libwspx-engine.a: $(ENGINEOBJ)
	rm -f $@
	$(AR) rcs $@ $(ENGINEOBJ)

# Unit tests, examples and the benchmark: one program per source.
.c:
	$(CC) $(ALL_CFLAGS) $(ALL_CPPFLAGS) -o $@ $< libwspx-engine.a \
	    libwspx.a $(ALL_LDFLAGS)
$(UNIT): tests/unit/test.h $(LIBHDR) libwspx.a libwspx-engine.a
$(EXAMPLES) tests/bench/bench_wspx: lib/wspx.h libwspx.a
# The example and the benchmark are programs of the library's users: they
# link libwspx alone.
examples/forkjoin: examples/forkjoin.c
	$(CC) $(ALL_CFLAGS) $(ALL_CPPFLAGS) -o $@ examples/forkjoin.c \
	    libwspx.a $(LIB_LDFLAGS)
tests/bench/bench_wspx: tests/bench/bench_wspx.c
	$(CC) $(ALL_CFLAGS) $(ALL_CPPFLAGS) -o $@ tests/bench/bench_wspx.c \
	    libwspx.a $(LIB_LDFLAGS)
# The pool's test makes calloc fail (a deque that cannot grow); the
# blocking pool's counts the pool's joins; the executor's sees each batch
# handed to the blocking pool.
tests/unit/blocking: tests/unit/blocking.c
	$(CC) $(ALL_CFLAGS) $(ALL_CPPFLAGS) -o $@ tests/unit/blocking.c \
	    libwspx.a $(LIB_LDFLAGS) -Wl,--wrap=pthread_join
tests/unit/pool: tests/unit/pool.c
	$(CC) $(ALL_CFLAGS) $(ALL_CPPFLAGS) -o $@ tests/unit/pool.c libwspx.a \
	    $(LIB_LDFLAGS) -Wl,--wrap=calloc
tests/unit/exec: tests/unit/exec.c
	$(CC) $(ALL_CFLAGS) $(ALL_CPPFLAGS) -o $@ tests/unit/exec.c \
	    libwspx-engine.a libwspx.a $(ALL_LDFLAGS) \
	    -Wl,--wrap=wspx_blocking_submit_n

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

check: check-tools check-layout check-unit check-examples check-symbols \
	check-headers check-lib check-model check-man check-cli check-need

check-unit: $(UNIT)
	tests/unit/deque $(DEQUE_ARGS)
	tests/unit/stack $(STACK_ARGS)
	tests/unit/sleep $(SLEEP_ARGS)
	tests/unit/pool $(POOL_ARGS)
	tests/unit/blocking $(BLOCKING_ARGS)
	tests/unit/exec $(EXEC_ARGS)
	tests/unit/halt
	tests/unit/median
	tests/unit/json
	tests/unit/joblog
	tests/unit/size
	tests/unit/duration
	tests/unit/sysload
	tests/unit/proc
	tests/unit/semslot
	tests/unit/trial
	tests/unit/jobserver
	tests/unit/yamldoc
	tests/unit/sha256
	tests/unit/sha256 portable
	tests/unit/glob
	tests/unit/shellctx
	tests/unit/uptodate
	tests/unit/timer
	tests/unit/builtin
	tests/unit/graph

# The command's tests (bats-core); each test fails after 120 s, not hangs.
# First, no negation in them that asserts nothing (tests/batslint.sh).
check-cli: check-tools wspx
	sh tests/batslint.sh tests/cli/*.bats tests/*.bats
	bats tests/batslint.bats
	BATS_TEST_TIMEOUT=120 WSPX=$$PWD/wspx bats tests/cli

check-examples: $(EXAMPLES)
	./examples/forkjoin > /dev/null

# Every global symbol of the library is wspx_ (public, in wspx.h) or
# wspx__ (internal); the shared library exports only the public ones.
check-symbols: libwspx.a libwspx.so libwspx-engine.a
	sh tests/symbols.sh libwspx.a libwspx.so.0 lib/wspx.h libwspx-engine.a
	sh tests/childcalls.sh lib/os/proc.o

# The layout by role (STYLE.md, section 1): folders, one-way dependencies,
# unique names, the library's symbol names; and the checker's own tests.
check-layout: check-tools $(LIBOBJ)
	sh tests/layout.sh $(LIBOBJ)
	bats tests/layout.bats

# Every header compiles on its own.
check-headers:
	for h in $(LIBHDR) $(CMDHDR); do \
	    printf '#include "%s"\n' "$${h#*/}" | \
	    $(CC) $(ALL_CFLAGS) $(ALL_CPPFLAGS) -fsyntax-only -x c - || exit 1; \
	done

# libwspx(3)'s example against the library in the tree and installed.
check-lib: check-tools libwspx.a libwspx.so wspx
	CC='$(CC)' CFLAGS='$(CFLAGS)' LDFLAGS='$(LDFLAGS)' \
	    bats tests/libwspx.bats

# The Promela model of the sleep protocol (lib/runtime/sleep.pml), checked
# by spin, and its known-bad variants, which must fail: tests/model.sh
# reads their names from the model's header comment.
check-model: check-tools
	sh tests/model.sh lib/runtime/sleep.pml

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

# Fuzzing (tests/fuzz/README.md): the library and the command built again
# by clang with libFuzzer's coverage, ASan and UBSan, as .fo objects beside
# the .o, and one program per parser.  The targets call the real code;
# harness.c brings exit() back to the target and frees what an input held
# (see harness.h), through the --wrap of FUZZ_WRAP.  fuzz-smoke runs each
# target for FUZZ_SECONDS from its corpus; a campaign is
#	sh tests/fuzz/run.sh 3600 tests/fuzz/NAME
FUZZCC = clang
FUZZ_TOOLS = clang libFuzzer
FUZZ_SECONDS = 30
FUZZ_CFLAGS = -O1 -g -fno-omit-frame-pointer -std=c11 -pthread -Wall \
	-Wextra -Wpedantic -Wshadow -Wmissing-prototypes -Wstrict-prototypes \
	$(WERROR) -fsanitize=fuzzer-no-link,address,undefined \
	-fno-sanitize-recover=all
FUZZ_WRAP = -Wl,--wrap=exit,--wrap=malloc,--wrap=calloc,--wrap=realloc \
	-Wl,--wrap=free,--wrap=strdup,--wrap=strndup,--wrap=fopen \
	-Wl,--wrap=fdopen,--wrap=fmemopen,--wrap=fclose,--wrap=getline \
	-Wl,--wrap=getdelim,--wrap=regcomp,--wrap=regfree,--wrap=opendir \
	-Wl,--wrap=closedir
FUZZ = tests/fuzz/joblog tests/fuzz/options tests/fuzz/runlog \
	tests/fuzz/sshlogin tests/fuzz/statefile tests/fuzz/template \
	tests/fuzz/values tests/fuzz/jobfile tests/fuzz/records tests/fuzz/pipe
FUZZOBJ = $(LIBOBJ:.o=.fo) $(CMDLIBOBJ:.o=.fo)

.c.fo:
	$(FUZZCC) $(FUZZ_CFLAGS) $(ALL_CPPFLAGS) -c -o $@ $<

$(FUZZOBJ): $(LIBHDR) $(CMDHDR)
$(FUZZ:=.fo) tests/fuzz/harness.fo: tests/fuzz/harness.h $(LIBHDR) $(CMDHDR)
libwspx-fuzz.a: $(FUZZOBJ)
	rm -f $@
	$(AR) rcs $@ $(FUZZOBJ)
$(FUZZ): tests/fuzz/harness.fo libwspx-fuzz.a
	$(FUZZCC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $@.fo \
	    tests/fuzz/harness.fo libwspx-fuzz.a $(YAML_LIBS) $(FUZZ_WRAP)
$(FUZZ): $(FUZZ:=.fo)

fuzz-tools:
	@CC='$(FUZZCC)' sh tests/need.sh 'make fuzz' $(FUZZ_TOOLS)
fuzz: fuzz-tools
	$(MAKE) $(FUZZ)
fuzz-smoke: fuzz
	sh tests/fuzz/run.sh $(FUZZ_SECONDS) $(FUZZ)

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
	    $(DESTDIR)$(MANDIR)/man7 \
	    $(DESTDIR)$(DATADIR)/bash-completion/completions \
	    $(DESTDIR)$(DATADIR)/zsh/site-functions \
	    $(DESTDIR)$(DATADIR)/fish/vendor_completions.d
	cp -f wspx $(DESTDIR)$(BINDIR)/wspx
	cp -f libwspx.a $(DESTDIR)$(LIBDIR)/libwspx.a
	cp -f libwspx.so.0 $(DESTDIR)$(LIBDIR)/libwspx.so.0
	ln -sf libwspx.so.0 $(DESTDIR)$(LIBDIR)/libwspx.so
	cp -f lib/wspx.h $(DESTDIR)$(INCLUDEDIR)/wspx.h
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' \
	    -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' -e 's|@VERSION@|$(VERSION)|' \
	    lib/wspx.pc.in > $(DESTDIR)$(LIBDIR)/pkgconfig/wspx.pc
	cp -f man/wspx.1 $(DESTDIR)$(MANDIR)/man1/wspx.1
	cp -f man/libwspx.3 $(DESTDIR)$(MANDIR)/man3/libwspx.3
	cp -f man/wspx.5 $(DESTDIR)$(MANDIR)/man5/wspx.5
	cp -f man/wspx-tutorial.7 $(DESTDIR)$(MANDIR)/man7/wspx-tutorial.7
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
	    $(DESTDIR)$(MANDIR)/man7/wspx-tutorial.7 \
	    $(DESTDIR)$(DATADIR)/bash-completion/completions/wspx \
	    $(DESTDIR)$(DATADIR)/zsh/site-functions/_wspx \
	    $(DESTDIR)$(DATADIR)/fish/vendor_completions.d/wspx.fish

clean:
	rm -f wspx libwspx.a libwspx.so libwspx.so.0 libwspx-engine.a \
	    $(LIBOBJ) $(LIBPIC) $(CMDOBJ) \
	    $(UNIT) \
	    $(EXAMPLES) tests/bench/bench_wspx \
	    $(FUZZOBJ) libwspx-fuzz.a $(FUZZ) $(FUZZ:=.fo) tests/fuzz/harness.fo
	rm -rf tests/model.out

.PHONY: all example example-tools check check-tools check-layout \
	check-unit check-examples check-cli check-symbols check-headers \
	check-lib check-model \
	check-man check-need check-asan check-tsan fuzz fuzz-tools fuzz-smoke \
	bench install uninstall \
	clean
