/*
 * The command line after the options: COMMAND and its ::: and ::::
 * sources, the defaults, the options that cannot be combined, and the
 * words of a job file's command.  main() runs what this makes of argv;
 * the options fuzz target runs it too, all but the run.
 */
#include "cmdline.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "input/replstr.h"
#include "optvalue.h"
#include "options.h"
#include "remote/hosts.h"
#include "report/resume.h"
#include "util/util.h"

/* What the word w separates: 0 nothing, else SEP_LIST (:::) or SEP_FILES
 * (::::), with SEP_LINKED for :::+ and ::::+ (--arg-sep and
 * --arg-file-sep rename them). */
enum { SEP_LIST = 1, SEP_FILES = 2, SEP_LINKED = 4 };

static int
separator(const struct config *c, const char *w)
{
	const char *seps[2] = { c->argsep, c->argfilesep };
	size_t n;
	int k;

	for (k = 0; k < 2; k++) {
		n = strlen(seps[k]);
		if (strncmp(w, seps[k], n) == 0 && (w[n] == '\0' ||
		    (w[n] == '+' && w[n + 1] == '\0')))
			return (k == 0 ? SEP_LIST : SEP_FILES) | (w[n] == '+' ?
			    SEP_LINKED : 0);
	}
	return 0;
}

/* COMMAND from argv[i], then the ::: and :::: sources. */
static void
parsecommand(struct config *c, int argc, char **argv, int i)
{
	struct srcspec *s = NULL;
	const char *typed;
	int sep;
	bool linked;

	for (c->command = &argv[i]; i < argc && !separator(c, argv[i]); i++)
		c->ncommand++;
	while (i < argc) {
		typed = argv[i];
		sep = separator(c, typed);
		linked = (sep & SEP_LINKED) != 0 && c->nsrc > 0;
		if (sep & SEP_LIST) {
			addsource(c, SRC_LIST, NULL, typed);
			s = &c->src[c->nsrc - 1];
			s->items = &argv[i + 1];
			s->linked = linked;
		}
		for (i++; i < argc && !separator(c, argv[i]); i++) {
			if (sep & SEP_LIST) {
				s->n++;
				continue;
			}
			/* (::::+ links every file after it) */
			addsource(c, SRC_FILE, argv[i], typed);
			c->src[c->nsrc - 1].linked = linked;
			linked = (sep & SEP_LINKED) != 0;
		}
	}
}

static void
conflict(const char *what, const char *why)
{
	badusage("%s cannot be combined: %s", what, why);
}

/* --pipe and --pipepart: what they read, and what goes with them. */
static void
checkpipe(struct config *c)
{
	size_t i;

	if (c->pipepart)
		c->pipe = true;
	if (c->blockparts > 0 && !c->pipepart)
		conflict("--block -N without --pipepart", "only --pipepart "
		    "knows the input's size");
	if (!c->pipe) {
		if (c->roundrobin || c->cat || c->fifo)
			badusage("%s needs --pipe or --pipepart",
			    c->roundrobin ? "--round-robin" : c->cat ?
			    "--cat" : "--fifo");
		return;
	}
	if (c->ncommand == 0)
		conflict("--pipe without a command", "the blocks need a "
		    "command to read them");
	for (i = 0; i < c->nsrc; i++)
		if (c->src[i].kind != SRC_FILE)
			conflict("--pipe and ::: arguments", "--pipe reads "
			    "stdin or one -a FILE");
	if (c->nsrc > 1)
		conflict("--pipe and several input files", "--pipe reads "
		    "stdin or one -a FILE");
	if (c->pipepart && (c->nsrc == 0 || strcmp(c->src[0].path, "-") == 0))
		conflict("--pipepart without -a FILE", "--pipepart reads the "
		    "parts of a file it can seek in");
	if (c->cat && c->fifo)
		conflict("--cat and --fifo", "{} is either a file or a FIFO");
	if (c->pipepart && (c->maxlines > 0 || c->maxreplset))
		conflict("--pipepart and -L or -N", "a part is found by its "
		    "size");
	if (c->roundrobin && c->cat)
		conflict("--round-robin and --cat", "a job's file would have "
		    "to hold all its blocks before it starts");
	if (c->skipblank)
		conflict("--pipe and -r", "blocks go to the jobs as they "
		    "are");
	if (c->roundrobin && c->retries > 0)
		conflict("--round-robin and --retries", "a job's blocks are "
		    "not kept");
	if (c->multi != MULTI_NONE || c->maxargsset || c->link)
		conflict("--pipe and -m, -X, --xargs, -n or --link", "a job's "
		    "input is its block");
}

/* -S and --slurm: one place to run the jobs, and what needs a host. */
static void
checkremote(struct config *c)
{
	const struct remoteconf *rc = &c->remote;
	bool ssh = rc->hosts.n > 0;

	if (ssh && rc->slurm)
		conflict("-S and --slurm", "jobs run on the hosts or as Slurm "
		    "steps");
	if ((ssh || rc->slurm) && c->pipe)
		conflict("--pipe and -S or --slurm", "remote jobs get no "
		    "stdin of wspx's");
	/* (GNU parallel warns and runs the jobs here, where the files
	 * are) */
	if (!ssh && rc->ntransfer > 0)
		warn("--transfer-file is ignored without a remote host (-S)");
	if (!ssh && rc->nret > 0)
		warn("--return is ignored without a remote host (-S)");
	if (!ssh && rc->cleanup)
		warn("--cleanup is ignored without a remote host (-S)");
	if (!rc->slurm && (rc->partition != NULL || rc->slurmargs != NULL ||
	    rc->slurmcpus > 0)) {
		fatal("%s needs --slurm (see " PROGNAME " --help)",
		    rc->partition != NULL ? "--slurm-partition" :
		    rc->slurmargs != NULL ? "--slurm-args" : "--slurm-cpus");
	}
}

/* --semaphore: COMMAND run once, as by GNU parallel's sem, in a job of
 * one empty argument (as GNU's: {} is empty, and nothing is added), with
 * wspx's stdin; -j is the semaphore's number of slots (default 1). */
static void
checksemaphore(struct config *c)
{
	static char *empty[] = { "" };

	if (!c->sem.on)
		return;
	if (c->nsrc > 0)
		badusage("--semaphore runs COMMAND once, with no input: not "
		    "%s", c->src[0].opt);
	if (c->pipe)
		conflict("--semaphore and --pipe", "COMMAND reads wspx's "
		    "stdin as it is");
	if (c->remote.hosts.n > 0 || c->remote.slurm)
		conflict("--semaphore and -S or --slurm", "a semaphore is "
		    "for commands of this machine");
	if (c->resume != RESUME_NONE)
		conflict("--semaphore and --resume or its kin", "COMMAND is "
		    "one job, run each time");
	if (c->jobsall)
		badusage("--semaphore -j 0: a semaphore has a number of "
		    "slots (-j N, N%%, +N or -N)");
	if (c->sem.wait && c->ncommand > 0)
		badusage("--wait waits for the semaphore's holders and runs "
		    "no COMMAND: %s", c->command[0]);
	if (!c->sem.fg && !c->sem.wait && (c->interactive || c->tty))
		conflict("--semaphore in the background and -p or --tty",
		    "COMMAND would talk on the terminal after wspx exits "
		    "(use --fg)");
	if (!c->sem.wait && c->ncommand == 0)
		badusage("--semaphore needs a COMMAND to run (or --wait)");
	c->sem.slots = c->remote.jobsspec != NULL ? c->jobs : 1;
	c->jobs = 1;
	addsource(c, SRC_LIST, NULL, NULL);
	c->src[0].items = empty;
	c->src[0].n = 1;
	c->maxreplset = true;
	c->maxrepl = 0;
}

/* How many records a job takes, and whether -X's context replacement is
 * on: -X, -N, or -L without -m or --xargs, as in GNU parallel. */
static void
manyperjob(struct config *c)
{
	bool multi = c->multi == MULTI_M || c->multi == MULTI_XARGS;

	/* -n 0 is -N 0, unless -N is given, as in GNU parallel: a job per
	 * record, with no argument */
	if (c->maxargsset && c->maxargs == 0 && !c->maxreplset) {
		c->maxreplset = true;
		c->maxrepl = 0;
	}
	c->context = !c->pipe && (c->multi == MULTI_X || c->maxreplset ||
	    (c->maxlines > 0 && !multi));
	if (c->pipe)
		return;
	if (c->maxreplset)
		c->maxargs = c->maxrepl > 0 ? c->maxrepl : 1;
	else if (!c->maxargsset && c->maxlines > 0)
		c->maxargs = c->maxlines;
	else if (!c->maxargsset && c->multi != MULTI_NONE)
		c->maxargs = 0;		/* as many as fit */
}

void
config_defaults(struct config *c)
{
	const char *e;
	unsigned cpus = cpucount('t');

	memset(c, 0, sizeof(*c));
	c->delim = '\n';
	c->maxargs = 1;
	c->jobs = cpus;
	c->mode = WSPX_OUT_GROUP;
	c->termtimeout = 2;
	c->interval = 5;
	c->total = -1;
	c->argsep = ":::";
	c->argfilesep = "::::";
	c->block = 1024 * 1024;
	c->tmpdir = (e = getenv("TMPDIR")) != NULL && *e != '\0' ? e : "/tmp";
}

/* The options that cannot be combined, and what follows from those
 * given; the default source (stdin). */
/* Whether --header is about the input's records (GNU parallel's names of
 * fields), not --pipe's blocks; --semaphore's command has no input. */
static bool
headerofinput(const struct config *c)
{
	return !c->pipe && !c->sem.on && c->header != NULL;
}

void
cmdline_finish(struct config *c, int argc, char **argv, int first)
{
	size_t i;

	parsecommand(c, argc, argv, first);
	if (c->json || c->quiet || c->watch || c->explain)
		badusage("%s is for job files (see " PROGNAME "(5))", c->json ?
		    "--json" : c->quiet ? "--quiet" : c->watch ? "--watch" :
		    "--explain");
	/* (--tty: one job at a time, its output straight out, unless told
	 * otherwise, as GNU parallel's) */
	if (c->tty && c->remote.jobsspec == NULL)
		c->jobs = 1;
	if (c->tty && !c->modeset && !c->keep && !c->tag &&
	    c->tagstring == NULL)
		c->mode = WSPX_OUT_UNGROUP;
	if (c->mode == WSPX_OUT_UNGROUP && c->keep)
		conflict("-u and -k", "ungrouped output has no order");
	if (c->mode == WSPX_OUT_UNGROUP && (c->tag || c->tagstring != NULL))
		conflict("-u and --tag or --tagstring", "ungrouped output "
		    "cannot be tagged");
	resume_needs_joblog(c->resume, c->joblog);
	if (c->resume == RETRY_FAILED) {
		/* the commands are the joblog's, as in GNU parallel */
		c->command = NULL;
		c->ncommand = 0;
	}
	checkpipe(c);
	checkremote(c);
	checksemaphore(c);
	manyperjob(c);
	if (c->files && c->mode == WSPX_OUT_UNGROUP)
		conflict("--files and -u", "ungrouped output is not kept in "
		    "files");
	if (c->files && c->results != NULL)
		conflict("--files and --results", "each keeps the jobs' "
		    "output in files of its own");
	if ((c->compress || c->compressprog != NULL) && (c->files ||
	    c->results != NULL))
		conflict("--compress and --files or --results", "their files "
		    "are written plain; --compress is for the output that "
		    "waits to be printed");
	if (c->nsrc == 0)
		addsource(c, SRC_FILE, "-", NULL);
	for (i = 1; c->link && i < c->nsrc; i++)
		c->src[i].linked = true;
	if (!c->trimset && c->hascolsep)
		c->trim = TRIM_BOTH;	/* "--colsep implies --trim rl" */
	/* (--header names fields: without --colsep they are split at TABs,
	 * not trimmed, as GNU parallel does, also with --header 0) */
	if (headerofinput(c) && !c->hascolsep)
		setcolsep(c, "--header", "\\t");
}

char **
cmdline_jobfile(struct config *c, int argc, char **argv, int first,
    size_t *nwords)
{
	char **words = xcalloc((size_t)argc + 1, sizeof(*words));
	size_t n = 0;
	int i, dd;

	c->jobfilecmd = true;	/* (for its --help) */
	for (dd = first + 1; dd < argc && strcmp(argv[dd], "--") != 0; dd++)
		;
	for (i = first + 1; i < dd;) {
		if (argv[i][0] != '-' || argv[i][1] == '\0') {
			words[n++] = argv[i++];
			continue;
		}
		/* (options_parse() takes its argv[0] for the program's
		 * name, and stops at the next word) */
		i += options_parse(c, dd - i + 1, argv + i - 1) - 1;
	}
	for (i = dd + 1; i < argc; i++)
		words[n++] = argv[i];
	*nwords = n;
	return words;
}

bool
config_headernames(const struct config *c)
{
	return headerofinput(c) && strcmp(c->header, "0") != 0;
}

/* Keep p in c, to be freed with it. */
static void *
keepnamed(struct config *c, void *p)
{
	c->named = xrealloc(c->named, (c->nnamed + 1) * sizeof(char *));
	return c->named[c->nnamed++] = p;
}

/* One of the strings of config_namefields(). */
static void
namedstring(struct config *c, const char **s, char *const *names, size_t n)
{
	char *named = replstr_colnames(*s, names, n);

	if (named != NULL)
		*s = keepnamed(c, named);
}

void
config_namefields(struct config *c, char *const *names, size_t n)
{
	size_t i;
	char *tag;

	/* (COMMAND's words are argv's: rewritten in a copy) */
	if (c->ncommand > 0)
		c->command = memcpy(keepnamed(c, xcalloc(c->ncommand + 1,
		    sizeof(char *))), c->command, c->ncommand *
		    sizeof(char *));
	for (i = 0; i < c->ncommand; i++)
		namedstring(c, (const char **)&c->command[i], names, n);
	for (i = 0; i < c->remote.ntransfer; i++)
		namedstring(c, &c->remote.transfer[i], names, n);
	for (i = 0; i < c->remote.nret; i++)
		namedstring(c, &c->remote.ret[i], names, n);
	if (c->tagstring != NULL && (tag = replstr_colnames(c->tagstring,
	    names, n)) != NULL) {
		free(c->tagstring);
		c->tagstring = tag;
	}
}

void
config_free(struct config *c)
{
	struct remoteconf *rc = &c->remote;

	if (c->hascolsep)
		regfree(&c->colsep);
	c->hascolsep = false;
	while (c->nsrc > 0)
		free(c->src[--c->nsrc].opt);
	free(c->src);
	c->src = NULL;
	free(c->tagstring);
	c->tagstring = NULL;
	while (c->nnamed > 0)
		free(c->named[--c->nnamed]);
	free(c->named);
	c->named = NULL;
	hosts_free(&rc->hosts);
	free(rc->env);
	free(rc->transfer);
	free(rc->ret);
	free(c->profiles);
	c->profiles = NULL;
	c->nprofiles = 0;
	rc->env = NULL;
	rc->transfer = rc->ret = NULL;
}
