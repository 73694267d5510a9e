/*
 * The table of wspx's options (optable.c): each option's names, its
 * value's name, the section of --help it belongs to and its help.  The
 * parsing (options.c) and --help (usage.c) both read it.
 */
#ifndef WSPX_OPTABLE_H
#define WSPX_OPTABLE_H

#include <stdbool.h>
#include <stddef.h>

/* What an option does; several entries (its spellings) may share one. */
enum optid {
	O_ARGFILE, O_NULL, O_DELIM, O_COLSEP, O_TRIM, O_MAXARGS, O_REPLACE,
	O_REPLACEOPT, O_ER, O_BNR, O_DNR, O_BNER, O_SEQREPL, O_SLOTREPL,
	O_PARENS, O_SHELL, O_QUOTE, O_JOBS, O_NORUNEMPTY, O_GROUP,
	O_LINEBUF, O_UNGROUP, O_KEEP, O_TAG, O_TAGSTRING, O_DRYRUN, O_SHOWCMD,
	O_VERBOSE, O_TMPDIR, O_COMPRESS, O_COMPRESSPROG, O_DECOMPRESSPROG,
	O_TERMTIMEOUT, O_NOSTATUS, O_PROGRESS, O_INTERACTIVE,
	O_INTERVAL, O_TOTAL, O_STATS, O_METRICS, O_EVENTS, O_TRACE, O_JOBLOG,
	O_RESUME, O_RESUMEFAILED, O_RETRYFAILED, O_RETRIES, O_RETRYDELAY,
	O_TIMEOUT, O_HALT, O_DELAY, O_RESULTS, O_ETA, O_MEMFREE, O_LOAD,
	O_NICE, O_PROFILE, O_PLAIN, O_TTY, O_SEMAPHORE, O_SEMNAME,
	O_SEMTIMEOUT, O_FG, O_BG, O_WAIT,
	O_JOBSERVER, O_FORCE, O_WILLCITE, O_MULTI, O_CONTEXT, O_XARGS,
	O_MAXCHARS, O_EXIT, O_SHOWLIMITS, O_MAXLINES, O_MAXLINESOPT,
	O_MAXREPL, O_EOF, O_EOFOPT, O_ARGSEP, O_ARGFILESEP, O_LINK, O_PIPE,
	O_PIPEPART, O_BLOCK, O_RECEND, O_RECSTART, O_REGEXP, O_HEADER,
	O_ROUNDROBIN, O_CAT, O_FIFO, O_PLUS, O_FILES, O_NOKEEP, O_SILENT,
	O_QUIET, O_JSON, O_WATCH, O_EXPLAIN,
	O_ENV, O_SSHLOGIN, O_SLF, O_SSH, O_WORKDIR, O_TRANSFERFILE,
	O_TRANSFER, O_RETURN, O_CLEANUP, O_TRC, O_CONTROLMASTER, O_SLURM,
	O_SLURMCPUS, O_SLURMPARTITION, O_SLURMARGS,
	O_CPUS, O_CORES, O_THREADS, O_SOCKETS, O_VERSION, O_HELP
};

/* The sections of --help, in the order it shows them (usage.c has their
 * titles).  SEC_SAME marks another spelling, on its option's line. */
enum optsection {
	SEC_SAME, SEC_INPUT, SEC_PIPE, SEC_COMMAND, SEC_RUN, SEC_OUTPUT,
	SEC_WATCH, SEC_FAILURES, SEC_JOBFILE, SEC_REMOTE, SEC_INFO,
	NSECTIONS
};

/* One name of an option, or of several when help is NULL: an entry with
 * help starts an option, and the entries after it with no help (and
 * SEC_SAME) are its other spellings, GNU parallel's or xargs's. */
struct optdef {
	char shortname;		/* 0 if none */
	const char *longname;	/* NULL if none */
	const char *arg;	/* the value's name ("N", "[=STR]"), or NULL */
	enum optid id;		/* what it does */
	enum optsection sec;	/* its section of --help (SEC_SAME: none) */
	const char *help;	/* NULL: a spelling of the option before */
};

/* The table, optable_size entries, in the order of the parsing's
 * searches (which ambiguity errors list the names in). */
extern const struct optdef optable[];
extern const size_t optable_size;

/* Whether o's value is optional, and then given only in the same word
 * ("-iSTR", "--replace=STR"), as with xargs. */
bool optable_optional(const struct optdef *o);

/* Whether option id makes jobs of the input or shapes them from it (or
 * copies an input's files to a host): a job file has none, and `wspx run
 * --help` leaves them out (graph/jobfilecmd.c refuses them). */
bool optable_inputonly(enum optid id);

#endif /* WSPX_OPTABLE_H */
