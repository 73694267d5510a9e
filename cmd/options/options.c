/*
 * wspx's options: the parsing of argv's options into struct config, by
 * the table that describes them (optable.c), which also writes --help
 * (usage.c).  Long options may be shortened to any prefix that names one
 * option (as Getopt::Long, which GNU parallel uses, allows); short ones
 * may be bundled ("-kv", "-j4").  The values themselves are read by
 * optvalue.c.
 */
#include "options.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "config.h"
#include "optable.h"
#include "optvalue.h"
#include "refused.h"
#include "usage.h"
#include "util/slots.h"
#include "util/util.h"
#include "wspx.h"

/* --help or --version is on stdout: exit 0, or 255 if it could not be
 * written (a closed stdout, a full disk). */
static _Noreturn void
printed(void)
{
	if (fflush(stdout) != 0 || ferror(stdout))
		fatal("cannot write the output:");
	exit(0);
}

static void
missing(const char *opt)
{
	badusage("%s needs a value", opt);
}

/* Apply option o with value v (NULL if it takes none, or an optional
 * value is not given); as is the option as it was typed, for errors. */
static void
apply(struct config *c, const struct optdef *o, const char *as,
    const char *v)
{
	switch (o->id) {
	case O_ARGFILE:
		addsource(c, SRC_FILE, nonempty(as, v), as);
		break;
	case O_NULL:		c->delim = '\0'; break;
	case O_DELIM:		c->delim = parsedelim(as, v); break;
	case O_COLSEP:		setcolsep(c, as, v); break;
	case O_TRIM:		settrim(c, as, v); break;
	case O_MAXARGS:
		c->maxargs = (size_t)parsecount0(as, v, INT_MAX);
		c->maxargsset = true;
		break;
	case O_MAXREPL:
		c->maxrepl = (size_t)parsecount0(as, v, INT_MAX);
		c->maxreplset = true;
		break;
	case O_MULTI:		c->multi = MULTI_M; break;
	case O_CONTEXT:		c->multi = MULTI_X; break;
	case O_XARGS:		c->multi = MULTI_XARGS; break;
	case O_MAXCHARS:
		c->maxchars = (size_t)parsecount(as, v, SIZE_MAX / 4);
		break;
	case O_EXIT:		c->exitbig = true; break;
	case O_SHOWLIMITS:	c->showlimits = true; break;
	case O_MAXLINES:
	case O_MAXLINESOPT:
		c->maxlines = v == NULL || *v == '\0' ? 1 :
		    (size_t)parsecount(as, v, INT_MAX);
		break;
	case O_EOF:
	case O_EOFOPT:
		c->eofstr = v != NULL && *v != '\0' ? v : NULL;
		break;
	case O_ARGSEP:		c->argsep = nonempty(as, v); break;
	case O_ARGFILESEP:	c->argfilesep = nonempty(as, v); break;
	case O_LINK:		c->link = true; break;
	case O_PIPE:		c->pipe = true; break;
	case O_PIPEPART:	c->pipepart = true; break;
	case O_BLOCK:		setblock(c, as, v); break;
	case O_RECEND:		c->recend = v; break;
	case O_RECSTART:	c->recstart = v; break;
	case O_REGEXP:		c->regexp = true; break;
	case O_HEADER:		c->header = nonempty(as, v); break;
	case O_ROUNDROBIN:	c->roundrobin = true; break;
	case O_CAT:		c->cat = true; break;
	case O_FIFO:		c->fifo = true; break;
	case O_PLUS:		c->plus = true; break;
	case O_FILES:		c->files = true; break;
	case O_NOKEEP:		c->keep = false; break;
	case O_SILENT:		c->showcmd = c->verbose = false; break;
	case O_QUIET:		c->quiet = true; break;
	case O_JSON:		c->json = true; break;
	case O_WATCH:		c->watch = true; break;
	case O_ENV:		addname(&c->remote.env, &c->remote.nenv,
				    envname(as, v)); break;
	case O_SSHLOGIN:	addhosts(c, as, v); break;
	case O_SLF:		hosts_file(&c->remote.hosts, nonempty(as, v));
				break;
	case O_SSH:		c->remote.ssh = nonempty(as, v); break;
	case O_WORKDIR:		c->remote.workdir = nonempty(as, v); break;
	case O_TRANSFERFILE:	addname(&c->remote.transfer,
				    &c->remote.ntransfer, nonempty(as, v));
				break;
	case O_TRANSFER:	addname(&c->remote.transfer,
				    &c->remote.ntransfer, "{}"); break;
	case O_RETURN:		addname(&c->remote.ret, &c->remote.nret,
				    nonempty(as, v)); break;
	case O_CLEANUP:		c->remote.cleanup = true; break;
	case O_TRC:
		addname(&c->remote.transfer, &c->remote.ntransfer, "{}");
		addname(&c->remote.ret, &c->remote.nret, nonempty(as, v));
		c->remote.cleanup = true;
		break;
	case O_CONTROLMASTER:	break;
	case O_SLURM:		c->remote.slurm = true; break;
	case O_SLURMCPUS:
		c->remote.slurmcpus = (unsigned)parsecount(as, v, 100000);
		break;
	case O_SLURMPARTITION:	c->remote.partition = nonempty(as, v); break;
	case O_SLURMARGS:	c->remote.slurmargs = v; break;
	case O_REPLACE:
	case O_REPLACEOPT:
		setreplace(c, as, v, o->id == O_REPLACEOPT);
		break;
	case O_ER:		setrename(c, as, v, RM_NOEXT); break;
	case O_BNR:		setrename(c, as, v, RM_BASE); break;
	case O_DNR:		setrename(c, as, v, RM_DIR); break;
	case O_BNER:		setrename(c, as, v, RM_BASENOEXT); break;
	case O_SEQREPL:		setrename(c, as, v, RM_SEQ); break;
	case O_SLOTREPL:	setrename(c, as, v, RM_SLOT); break;
	case O_PARENS:		setparens(c, as, v); break;
	case O_SHELL:
		c->shell = nonempty(as, v);
		break;
	case O_QUOTE:		c->quote = true; break;
	case O_JOBS:
		c->jobs = parsejobs(as, v);
		/* (0: as many as possible, bounded in run.c's fitjobs()) */
		if ((c->jobsall = c->jobs == 0))
			c->jobs = MAXJOBS;
		c->remote.jobsspec = v;
		break;
	case O_NORUNEMPTY:	c->skipblank = true; break;
	case O_GROUP:		c->mode = WSPX_OUT_GROUP; c->modeset = true; break;
	case O_LINEBUF:		c->mode = WSPX_OUT_LINES; c->modeset = true; break;
	case O_UNGROUP:		c->mode = WSPX_OUT_UNGROUP; c->modeset = true;
				break;
	case O_KEEP:		c->keep = true; break;
	case O_TAG:		c->tag = true; break;
	case O_TAGSTRING:	settagstring(c, as, v); break;
	case O_DRYRUN:		c->dryrun = true; break;
	case O_SHOWCMD:		c->showcmd = true; break;
	case O_VERBOSE:		c->verbose = true; break;
	case O_TMPDIR:		settmpdir(c, as, v); break;
	case O_COMPRESS:	c->compress = true; break;
	case O_COMPRESSPROG:	c->compressprog = v; break;
	case O_DECOMPRESSPROG:	c->decompressprog = v; break;
	case O_WILLCITE:	break;
	case O_TERMTIMEOUT:	c->termtimeout = parseduration(as, v); break;
	case O_NOSTATUS:	c->nostatus = true; break;
	case O_PROGRESS:	c->progress = true; break;
	case O_INTERVAL:
		c->interval = parseduration(as, v);
		if (c->interval < 0.05)
			badvalue(as, v, "is shorter than 50ms");
		c->progress = true;
		break;
	case O_TOTAL:
		c->total = (long long)parsecount(as, v, LLONG_MAX);
		break;
	case O_STATS:		c->stats = true; break;
	case O_METRICS:		c->metrics = nonempty(as, v); break;
	case O_EVENTS:		c->events = nonempty(as, v); break;
	case O_TRACE:		c->trace = tracefile(as, v); break;
	case O_JOBLOG:		setjoblog(c, as, v); break;
	case O_RESUME:		c->resume = RESUME; break;
	case O_RESUMEFAILED:	c->resume = RESUME_FAILED; break;
	case O_RETRYFAILED:	c->resume = RETRY_FAILED; break;
	case O_RETRIES:		/* 0 is none, not GNU parallel's forever */
		c->retries = strcmp(v, "0") == 0 ? 0 :
		    (unsigned)parsecount(as, v, 1000000);
		break;
	case O_RETRYDELAY:	c->retrydelay = parseduration(as, v); break;
	case O_TIMEOUT:		settimeout(c, as, v); break;
	case O_HALT:		sethalt(c, as, v); break;
	case O_DELAY:		c->delay = parseduration(as, v); break;
	case O_RESULTS:		setresults(c, as, v); break;
	case O_MEMFREE:		setmemfree(c, as, v); break;
	case O_LOAD:		setload(c, as, v); break;
	case O_NICE:		c->nice = parsenice(as, v); break;
	case O_PROFILE:		addname(&c->profiles, &c->nprofiles,
				    nonempty(as, v)); break;
	case O_PLAIN:		c->noprofiles = true; break;
	case O_TTY:		c->tty = true; break;
	case O_INTERACTIVE:	c->interactive = true; break;
	case O_SEMAPHORE:	c->sem.on = true; break;
	case O_SEMNAME:		c->sem.on = true; c->sem.name = v; break;
	case O_SEMTIMEOUT:	setsemtimeout(c, as, v); break;
	case O_FG:		c->sem.on = c->sem.fg = true; break;
	case O_BG:		c->sem.on = true; c->sem.fg = false; break;
	case O_WAIT:		c->sem.on = c->sem.wait = true; break;
	case O_JOBSERVER:	c->jobserver = true; break;
	case O_FORCE:		c->force = true; break;
	case O_EXPLAIN:		c->explain = true; break;
	case O_ETA:		c->progress = true, c->nostatus = false; break;
	case O_CPUS: case O_CORES: case O_THREADS: case O_SOCKETS:
		printf("%u\n", cpucount(o->id == O_THREADS ? 't' :
		    o->id == O_SOCKETS ? 's' : 'c'));
		printed();
	case O_VERSION:
		printf("wspx %s\n", WSPX_VERSION);
		printed();
	case O_HELP:
		usage_write(stdout, c->jobfilecmd);
		printed();
	}
}

/* Whether optable[i] has a long name that starts with name[0..n). */
static bool
prefixof(size_t i, const char *name, size_t n)
{
	return optable[i].longname != NULL &&
	    strncmp(optable[i].longname, name, n) == 0;
}

/* Whether an entry before optable[i] spells the same option and starts
 * with name[0..n) too. */
static bool
spelledbefore(size_t i, const char *name, size_t n)
{
	size_t k;

	for (k = 0; k < i; k++)
		if (optable[k].id == optable[i].id && prefixof(k, name, n))
			return true;
	return false;
}

/* Whether option o is taken by its whole name only: wspx's own options
 * added since GNU parallel's abbreviations were settled, so that these
 * keep meaning what they mean there (--qu is --quote, not also
 * --quiet). */
static bool
wholenameonly(const struct optdef *o)
{
	return o->id == O_QUIET || o->id == O_JSON || o->id == O_WATCH ||
	    o->id == O_EXPLAIN;
}

/* Report that name[0..n) begins the names of several options, each named
 * once, and exit. */
static void
ambiguous(const char *name, size_t n)
{
	const char *sep = "";
	size_t i;

	fprintf(stderr, PROGNAME ": ambiguous option --%.*s (", (int)n, name);
	for (i = 0; i < optable_size; i++) {
		if (!prefixof(i, name, n) || spelledbefore(i, name, n) ||
		    wholenameonly(&optable[i]))
			continue;
		fprintf(stderr, "%s--%s", sep, optable[i].longname);
		sep = ", ";
	}
	fprintf(stderr, ")\n(see " PROGNAME " --help)\n");
	exit(EXIT_USAGE);
}

/* The option named name[0..n), or else the one option whose names it is
 * a prefix of (as Getopt::Long, which GNU parallel uses, allows); NULL if
 * none.  A prefix of several options is an error that names them. */
static const struct optdef *
findlong(const char *name, size_t n)
{
	const struct optdef *found = NULL;
	bool several = false;
	size_t i;

	for (i = 0; i < optable_size && n > 0; i++) {
		if (!prefixof(i, name, n))
			continue;
		if (optable[i].longname[n] == '\0')
			return &optable[i];
		if (wholenameonly(&optable[i]))
			continue;
		several |= found != NULL && found->id != optable[i].id;
		if (found == NULL)
			found = &optable[i];
	}
	if (several)
		ambiguous(name, n);
	return found;
}

/* Whether name[0..n) is the whole name of one of wspx's options. */
static bool
ownname(const char *name, size_t n)
{
	size_t i;

	for (i = 0; i < optable_size; i++)
		if (prefixof(i, name, n) && optable[i].longname[n] == '\0')
			return true;
	return false;
}

/* Report the unknown option --name[0..n), with the nearest one's name
 * if one is near ("--jbos": did you mean --jobs?), and exit. */
static void
unknownlong(const char *name, size_t n)
{
	const char **names = xcalloc(optable_size, sizeof(*names)), *near;
	char *word = xcalloc(1, n + 1);
	size_t i, k = 0;

	memcpy(word, name, n);
	for (i = 0; i < optable_size; i++)
		if (optable[i].longname != NULL)
			names[k++] = optable[i].longname;
	if ((near = wspx__diag_nearest(word, names, k)) != NULL)
		badusage("unknown option --%s (did you mean --%s?)", word,
		    near);
	badusage("unknown option --%s", word);
}

/* A --long option at argv[i]; returns the index of its last word. */
static int
longopt(struct config *c, int argc, char **argv, int i)
{
	const char *name = argv[i] + 2, *eq = strchr(name, '=');
	size_t n = eq != NULL ? (size_t)(eq - name) : strlen(name);
	const struct optdef *o;
	char as[64];

	if (!ownname(name, n))
		refused_long(name, n, false);
	if ((o = findlong(name, n)) == NULL)
		refused_long(name, n, true);
	if (o == NULL)
		unknownlong(name, n);
	/* (it is a prefix of a name in the table: it fits) */
	snprintf(as, sizeof(as), "--%.*s", (int)n, name);
	if (o->arg == NULL && eq != NULL)
		badvalue(as, eq + 1, "given to an option that takes no value");
	if (o->arg == NULL || (optable_optional(o) && eq == NULL))
		apply(c, o, as, NULL);
	else if (eq != NULL)
		apply(c, o, as, eq + 1);
	else if (i + 1 >= argc)
		missing(as);
	else
		apply(c, o, as, argv[++i]);
	return i;
}

/* Report the unknown option *p of the word w ("-x", "-kx") and exit. */
static void
unknownshort(const char *w, const char *p)
{
	if (p == w + 1 && p[1] == '\0')
		badusage("unknown option %s", w);
	badusage("unknown option '%c' in %s", *p, w);
}

/* Short options bundled at argv[i] ("-kv", "-j4", "-j 4"). */
static int
shortopts(struct config *c, int argc, char **argv, int i)
{
	const char *p;
	char opt[3] = "-?";
	size_t k;

	for (p = argv[i] + 1; *p != '\0'; p++) {
		for (k = 0; k < optable_size; k++)
			if (optable[k].shortname == *p)
				break;
		opt[1] = *p;
		if (k == optable_size)
			refused_short(*p);
		if (k == optable_size)
			unknownshort(argv[i], p);
		if (optable[k].arg == NULL || (optable_optional(&optable[k]) &&
		    p[1] == '\0')) {
			apply(c, &optable[k], opt, NULL);
			continue;
		}
		if (p[1] == '\0' && i + 1 >= argc)
			missing(opt);
		apply(c, &optable[k], opt, p[1] != '\0' ? p + 1 : argv[++i]);
		break;
	}
	return i;
}

int
options_parse(struct config *c, int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0)
			return i + 1;
		if (argv[i][0] != '-' || argv[i][1] == '\0')
			return i;
		if (argv[i][1] == '-')
			i = longopt(c, argc, argv, i);
		else
			i = shortopts(c, argc, argv, i);
	}
	return i;
}
