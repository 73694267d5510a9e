/*
 * The wspx command: options (options/options.c), then COMMAND and its input
 * sources, then the run (run/run.c).
 *
 *     wspx [OPTIONS] [--] [COMMAND [ARG...]] [::: ARGS... | :::: FILES...]...
 *
 * Options come first; the first word that is not one starts COMMAND, which
 * runs to the first ::: or :::: (options/cmdline.c).  This file makes sure
 * fds 0 to 2 are open and sends each command where it is done.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "graph/jobfilecmd.h"
#include "os/heap.h"
#include "options/cmdline.h"
#include "options/options.h"
#include "options/profile.h"
#include "review/review.h"
#include "run/run.h"
#include "run/semaphore.h"
#include "util/util.h"
#include "wspx.h"

/* The heap made present at the start (see os/heap.h): a no-op build of
 * a hundred jobs writes about that much. */
#define HEAP_PREFAULT ((size_t)1 << 20)

/* Put /dev/null on whichever of fds 0, 1 and 2 is closed (as by 2>&-), so
 * that no file wspx opens takes that number: output meant for stderr
 * would go into it.  A closed stdout gets /dev/null open for reading only:
 * the number stays taken, yet writing the output fails with EBADF as it
 * would on the closed fd (and so does a job's with -u), and wspx says so,
 * as coreutils do, rather than throw the output away. */
static void
stdfds(void)
{
	int fd;

	for (fd = 0; fd <= 2; fd++)
		if (fcntl(fd, F_GETFD) < 0 && errno == EBADF &&
		    open("/dev/null", fd == 1 ? O_RDONLY : O_RDWR) != fd)
			_exit(EXIT_USAGE);
}

/* A command for job files (run, check, list, graph) at argv[first]: its
 * words (FILE, jobs, NAME=value) with options anywhere among them, as
 * make and ninja take theirs (`wspx run jobs.yaml --force`); after --,
 * words only. */
static int
jobfile(struct config *c, int argc, char **argv, int first)
{
	size_t n;
	char **words = cmdline_jobfile(c, argc, argv, first, &n);
	int status;

	/* (a job file gives the same result to every caller: what a
	 * caller's $PARALLEL or profile holds is for commands of the input) */
	if (c->nprofiles > 0)
		badusage("-J/--profile is for commands of the input, not for "
		    "job files");
	status = jobfile_main(c, argv[first], words, n);

	free(words);
	config_free(c);
	return status;
}

/* $PARALLEL_PID in the environment of every job of the input, as GNU
 * parallel sets it: this process, the jobs' parent (before any job's
 * environment is made from ours).  A job file's jobs get none, as they
 * get no $PARALLEL_SEQ. */
static void
setpidvar(void)
{
	char pid[24];

	snprintf(pid, sizeof(pid), "%ld", (long)getpid());
	if (setenv("PARALLEL_PID", pid, 1) != 0)
		fatal("setenv:");
}

int
main(int argc, char **argv)
{
	struct config c;
	int status, first;

	wspx__heap_prefault(HEAP_PREFAULT);
	stdfds();
	/* (ignored, the kernel would reap the jobs before wspx read their
	 * statuses: every job would seem to have succeeded) */
	signal(SIGCHLD, SIG_DFL);
	config_defaults(&c);
	first = options_parse(&c, argc, argv);
	/* (wspx report FILE: a command of its own, with options of its
	 * own; -- report runs a program named report) */
	if (first < argc && strcmp(argv[first], "report") == 0 &&
	    strcmp(argv[first - 1], "--") != 0) {
		if (first > 1)
			badusage("report takes its own options, after it, not "
			    "%s", argv[1]);
		return review_main(argc - first, argv + first);
	}
	if (first < argc && first > 0 && jobfile_command(argv[first]) &&
	    strcmp(argv[first - 1], "--") != 0)
		return jobfile(&c, argc, argv, first);
	argv = profile_options(&c, &argc, argv, &first);
	cmdline_finish(&c, argc, argv, first);
	/* (--semaphore: the slot before the run, and its fork, while
	 * wspx has no thread) */
	if (c.sem.on && (status = semaphore_enter(&c)) >= 0) {
		config_free(&c);
		return status;
	}
	setpidvar();
	status = run(&c);
	config_free(&c);
	return status;
}
