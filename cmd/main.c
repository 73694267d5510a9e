/*
 * The wspx command: options (options.c), then COMMAND and its input
 * sources, then the run (run.c).
 *
 *     wspx [OPTIONS] [--] [COMMAND [ARG...]] [::: ARGS... | :::: FILES...]...
 *
 * Options come first; the first word that is not one starts COMMAND, which
 * runs to the first ::: or ::::.  This file also sets the defaults, makes
 * sure fds 0 to 2 are open, and refuses options that cannot be combined.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jobfilecmd.h"
#include "options.h"
#include "optvalue.h"
#include "run.h"
#include "wspx.h"

static bool
separator(const char *w)
{
	return strcmp(w, ":::") == 0 || strcmp(w, "::::") == 0;
}

/* COMMAND from argv[i], then the ::: and :::: sources. */
static void
parsecommand(struct config *c, int argc, char **argv, int i)
{
	struct srcspec *s = NULL;
	bool list;

	for (c->command = &argv[i]; i < argc && !separator(argv[i]); i++)
		c->ncommand++;
	while (i < argc) {
		list = strcmp(argv[i++], ":::") == 0;
		if (list) {
			addsource(c, SRC_LIST, NULL, ":::");
			s = &c->src[c->nsrc - 1];
			s->items = &argv[i];
		}
		for (; i < argc && !separator(argv[i]); i++) {
			if (list)
				s->n++;
			else
				addsource(c, SRC_FILE, argv[i], "::::");
		}
	}
}

static void
conflict(const char *what, const char *why)
{
	fprintf(stderr, "wspx: %s cannot be combined: %s\n(see wspx "
	    "--help)\n", what, why);
	exit(EXIT_USAGE);
}

static void
defaults(struct config *c)
{
	const char *e;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	memset(c, 0, sizeof(*c));
	c->delim = '\n';
	c->maxargs = 1;
	c->jobs = cpus > 0 ? (unsigned)cpus : 1;
	c->mode = WSPX_OUT_GROUP;
	c->termtimeout = 2;
	c->interval = 5;
	c->total = -1;
	c->tmpdir = (e = getenv("TMPDIR")) != NULL && *e != '\0' ? e : "/tmp";
}

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

/* A command for job files (run, check, list, graph) at argv[first], its
 * own options after it. */
static int
jobfile(struct config *c, int argc, char **argv, int first)
{
	int more = first + options_parse(c, argc - first, argv + first);

	return jobfile_main(c, argv[first], argv + more,
	    (size_t)(argc - more));
}

int
main(int argc, char **argv)
{
	struct config c;
	int status, first;

	stdfds();
	defaults(&c);
	first = options_parse(&c, argc, argv);
	if (first < argc && first > 0 && jobfile_command(argv[first]) &&
	    strcmp(argv[first - 1], "--") != 0)
		return jobfile(&c, argc, argv, first);
	parsecommand(&c, argc, argv, first);
	if (c.mode == WSPX_OUT_UNGROUP && c.keep)
		conflict("-u and -k", "ungrouped output has no order");
	if (c.mode == WSPX_OUT_UNGROUP && (c.tag || c.tagstring != NULL))
		conflict("-u and --tag or --tagstring", "ungrouped output "
		    "cannot be tagged");
	if (c.resume != RESUME_NONE && c.joblog == NULL) {
		fprintf(stderr, "wspx: %s needs --joblog FILE: the joblog of "
		    "the run to resume\n(see wspx --help)\n", c.resume ==
		    RESUME ? "--resume" : c.resume == RESUME_FAILED ?
		    "--resume-failed" : "--retry-failed");
		exit(EXIT_USAGE);
	}
	if (c.resume == RETRY_FAILED) {
		/* the commands are the joblog's, as in GNU parallel */
		c.command = NULL;
		c.ncommand = 0;
	}
	if (c.nsrc == 0)
		addsource(&c, SRC_FILE, "-", NULL);
	if (!c.trimset && c.hascolsep)
		c.trim = TRIM_BOTH;	/* "--colsep implies --trim rl" */
	status = run(&c);
	if (c.hascolsep)
		regfree(&c.colsep);
	while (c.nsrc > 0)
		free(c.src[--c.nsrc].opt);
	free(c.src);
	free(c.tagstring);
	return status;
}
