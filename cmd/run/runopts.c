/*
 * What each part of the program is given of the options (see run_int.h):
 * the configuration is the options' own; the modules below options/ each
 * take a small struct of what they need, filled here, so that none of
 * them depends on the whole of it.
 */
#include "run_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "input/command.h"
#include "input/jobargs.h"
#include "input/progpath.h"
#include "pipe/pipeopts.h"
#include "util/util.h"

/* How COMMAND is read: -q, -X, --plus; " {}" is added unless -N 0 or
 * --pipe (a job then has no argument to add; with --cat or --fifo, {} is
 * its file, as GNU parallel adds it).  With -m, -X and --xargs a
 * builtin that is also a program (echo, true) runs as the program, as
 * xargs runs it: a shell would first parse the thousands of arguments of
 * the line, and could take only 128 KiB of them. */
static int
cmdflags(const struct config *c)
{
	bool noargs = (c->maxreplset && c->maxrepl == 0) || (c->pipe &&
	    !c->cat && !c->fifo);

	return (c->quote ? TMPL_QUOTED : 0) | (noargs ? 0 : TMPL_APPEND) |
	    (c->plus ? TMPL_PLUS : 0) | (c->context ? TMPL_CONTEXT : 0) |
	    (c->multi != MULTI_NONE ? TMPL_PROGRAMS : 0);
}

void
runopts_command(const struct config *c, struct command_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->command = c->command;
	o->ncommand = c->ncommand;
	o->flags = cmdflags(c);
	o->names = &c->names;
	o->shell = c->shell;
	o->tagstring = c->tagstring;
	o->tag = c->tag;
	o->jobs = c->jobs;
}

void
runopts_report(const struct config *c, struct report_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->dryrun = c->dryrun;
	o->verbose = c->verbose;
	o->mode = c->mode;
	o->timeout = c->timeout;
	o->timeoutpct = c->timeoutpct;
	o->memfreespec = c->memfreespec;
	o->stats = c->stats;
	o->metrics = c->metrics;
	o->events = c->events;
	o->trace = c->trace;
	o->joblog = c->joblog;
	/* (resuming appends, as GNU parallel does) */
	o->joblogappend = c->joblogappend || c->resume != RESUME_NONE;
	/* (under a terminal's status line, a line per failure only, as
	 * ninja prints only what failed or printed) */
	o->progress = c->source == NULL || c->dryrun ? PROGRESS_NONE :
	    c->quiet || runopts_statusline(c) ? PROGRESS_FAILED :
	    PROGRESS_ALL;
}

bool
runopts_statusline(const struct config *c)
{
	const char *term = getenv("TERM");

	return !c->nostatus && !c->dryrun && c->mode != WSPX_OUT_UNGROUP &&
	    isatty(STDERR_FILENO) && term != NULL && strcmp(term, "dumb") !=
	    0 && !runopts_terminalinput(c) && !c->interactive &&
	    !c->sem.on;
}

bool
runopts_terminalinput(const struct config *c)
{
	size_t i;

	if (c->source != NULL || c->resume == RETRY_FAILED)
		return false;
	for (i = 0; i < c->nsrc; i++)
		if (c->src[i].kind == SRC_FILE &&
		    strcmp(c->src[i].path, "-") == 0)
			return isatty(STDIN_FILENO);
	return false;
}

void
runopts_pipe(const struct config *c, struct pipe_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->src = &c->src[0];
	o->pipepart = c->pipepart;
	o->block = c->block;
	o->blockset = c->blockset;
	o->blockparts = c->blockparts;
	o->recstart = c->recstart;
	o->recend = c->recend;
	o->regexp = c->regexp;
	o->header = c->header;
	o->lines = c->maxlines;
	o->count = c->maxreplset ? c->maxrepl : 0;
	o->roundrobin = c->roundrobin;
	o->cat = c->cat;
	o->fifo = c->fifo;
	o->jobs = c->jobs;
	o->dryrun = c->dryrun;
	o->tmpdir = c->tmpdir;
}

void
runopts_placing(const struct config *c, struct placing_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->remote = &c->remote;
	o->names = &c->names;
	o->plus = c->plus;
	o->jobs = c->jobs;
	o->dryrun = c->dryrun;
}

void
runopts_jobargs(const struct config *c, struct jobargs_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->maxrecs = c->maxargs;
	o->fit = c->multi != MULTI_NONE;
	o->spread = c->multi == MULTI_M || c->multi == MULTI_X;
	o->exitbig = c->exitbig;
	o->noargs = c->maxreplset && c->maxrepl == 0;
	o->jobs = c->jobs;
	o->maxchars = c->maxchars;
}

/* The compressors --compress looks for on PATH, GNU parallel's list in
 * its order (the fast ones first); the first found runs with -c -1 and
 * is undone by -dc; with none, cat. */
static const char *const zippers[] = {
	"pzstd", "lbzip2", "pbzip2", "zstd", "pixz", "lz4", "pigz", "lzop",
	"plzip", "lzip", "gzip", "lrz", "pxz", "bzip2", "lzma", "xz", "clzip"
};

/* Whether name is a program in one of the directories of path (NULL:
 * the default), as a command's shell would find it. */
static bool
onpath(const char *path, const char *name)
{
	char *file = progpath_search(path, name);
	bool found = file != NULL;

	free(file);
	return found;
}

/* "prg" followed by "opts", allocated. */
static char *
withopts(const char *prg, const char *opts)
{
	size_t n = strlen(prg) + strlen(opts) + 1;
	char *s = xmalloc(n);

	snprintf(s, n, "%s%s", prg, opts);
	return s;
}

void
runopts_compress(const struct config *c, char **zip, char **unzip)
{
	const char *path = getenv("PATH");
	size_t i;

	*zip = *unzip = NULL;
	if (c->compressprog != NULL) {
		*zip = xstrdup(c->compressprog);
		*unzip = withopts(c->compressprog, " -dc");
	} else if (c->compress) {
		for (i = 0; i < sizeof(zippers) / sizeof(zippers[0]) &&
		    !onpath(path, zippers[i]); i++)
			;
		*zip = i < sizeof(zippers) / sizeof(zippers[0]) ?
		    withopts(zippers[i], " -c -1") : xstrdup("cat");
		*unzip = i < sizeof(zippers) / sizeof(zippers[0]) ?
		    withopts(zippers[i], " -dc") : xstrdup("cat");
	}
	if (*zip != NULL && c->decompressprog != NULL) {
		free(*unzip);
		*unzip = xstrdup(c->decompressprog);
	}
}
