/*
 * wspx's options: the table that describes them, --help written from it,
 * and the parsing of argv's options into struct config.  Long options may
 * be shortened to any prefix that names one option (as Getopt::Long, which
 * GNU parallel uses, allows); short ones may be bundled ("-kv", "-j4").
 * One table describes every option and also writes --help, which a test
 * compares with wspx(1) and the completions.  The values themselves are
 * read by optvalue.c.
 */
#include "options.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "config.h"
#include "optvalue.h"
#include "refused.h"
#include "util/slots.h"
#include "util/util.h"
#include "wspx.h"

enum optid {
	O_ARGFILE, O_NULL, O_DELIM, O_COLSEP, O_TRIM, O_MAXARGS, O_REPLACE,
	O_REPLACEOPT, O_SHELL, O_QUOTE, O_JOBS, O_NORUNEMPTY, O_GROUP,
	O_LINEBUF, O_UNGROUP, O_KEEP, O_TAG, O_TAGSTRING, O_DRYRUN, O_SHOWCMD,
	O_VERBOSE, O_TMPDIR, O_TERMTIMEOUT, O_NOSTATUS, O_PROGRESS,
	O_INTERVAL, O_TOTAL, O_STATS, O_METRICS, O_EVENTS, O_TRACE, O_JOBLOG,
	O_RESUME, O_RESUMEFAILED, O_RETRYFAILED, O_RETRIES, O_RETRYDELAY,
	O_TIMEOUT, O_HALT, O_DELAY, O_RESULTS, O_ETA, O_MEMFREE, O_LOAD,
	O_NICE, O_PROFILE, O_PLAIN, O_TTY,
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

/* An entry with no help is another spelling (GNU parallel's) of the
 * option before it, which --help says.  A value
 * name in brackets ("[=STR]") is optional, and given only in the same word
 * ("-iSTR", "--replace=STR"), as with xargs. */
static const struct option {
	char shortname;		/* 0 if none */
	const char *longname;	/* NULL if none */
	const char *arg;	/* the value's name, or NULL */
	enum optid id;
	const char *help;	/* NULL: a spelling of the option before */
} options[] = {
	{ 'a', "arg-file", "FILE", O_ARGFILE, "read input from FILE "
	    "(repeatable: cross product)" },
	{ 0, "argfile", "FILE", O_ARGFILE, NULL },
	{ '0', "null", NULL, O_NULL, "input records end with NUL, not "
	    "newline" },
	{ 'd', "delimiter", "CHAR", O_DELIM, "input records end with CHAR "
	    "(or \\n \\t \\0 \\r \\\\)" },
	{ 'C', "colsep", "REGEX", O_COLSEP, "split records into fields {1} "
	    "{2} ... at REGEX" },
	{ 0, "col-sep", "REGEX", O_COLSEP, NULL },
	{ 0, "trim", "HOW", O_TRIM, "trim blanks off fields: n, l, r or lr "
	    "(--colsep: lr)" },
	{ 'n', "max-args", "N", O_MAXARGS, "put N input records in each job" },
	{ 0, "maxargs", "N", O_MAXARGS, NULL },
	{ 'N', "max-replace-args", "N", O_MAXREPL, "put N records in each "
	    "job, {1}..{N} naming them" },
	{ 0, "maxreplaceargs", "N", O_MAXREPL, NULL },
	{ 'm', NULL, NULL, O_MULTI, "put as many records in each job as fit "
	    "(-s), {} all of them" },
	{ 'X', NULL, NULL, O_CONTEXT, "the same, each word with {} repeated "
	    "once per record" },
	{ 0, "xargs", NULL, O_XARGS, "as -m, but the last records are not "
	    "spread over the -j jobs" },
	{ 's', "max-chars", "N", O_MAXCHARS, "make command lines of at most N "
	    "characters (-m, -X, --xargs)" },
	{ 0, "maxchars", "N", O_MAXCHARS, NULL },
	{ 'x', "exit", NULL, O_EXIT, "stop with an error at a record too "
	    "long for one command line" },
	{ 0, "show-limits", NULL, O_SHOWLIMITS, "print the command line's "
	    "length limits to stderr, then run" },
	{ 0, "showlimits", NULL, O_SHOWLIMITS, NULL },
	{ 'L', NULL, "N", O_MAXLINES, "put N lines in each job, one argument "
	    "each (a line ending in a blank goes on)" },
	{ 'l', "max-lines", "[=N]", O_MAXLINESOPT, "the same as -L N; no N: "
	    "1" },
	{ 0, "maxlines", "[=N]", O_MAXLINESOPT, NULL },
	{ 'E', NULL, "STR", O_EOF, "the input ends at a record that is STR" },
	{ 'e', "eof", "[=STR]", O_EOFOPT, "the same as -E STR (xargs -e); no "
	    "STR: no end mark" },
	{ 0, "arg-sep", "STR", O_ARGSEP, "use STR instead of ::: (and STR+ "
	    "for :::+)" },
	{ 0, "argsep", "STR", O_ARGSEP, NULL },
	{ 0, "arg-file-sep", "STR", O_ARGFILESEP, "use STR instead of :::: "
	    "(and STR+ for ::::+)" },
	{ 0, "argfilesep", "STR", O_ARGFILESEP, NULL },
	{ 0, "link", NULL, O_LINK, "read the input sources in step, not as a "
	    "cross product" },
	{ 0, "xapply", NULL, O_LINK, NULL },
	{ 'r', "no-run-if-empty", NULL, O_NORUNEMPTY, "skip input records "
	    "that are empty or blank" },
	{ 0, "norunifempty", NULL, O_NORUNEMPTY, NULL },
	{ 'I', NULL, "STR", O_REPLACE, "use STR instead of {} for the "
	    "argument" },
	{ 'i', "replace", "[=STR]", O_REPLACEOPT, "the same as -I STR (xargs "
	    "-i); no STR: {}" },
	{ 0, "shell", "PATH", O_SHELL, "run commands that need a shell with "
	    "PATH (default: calling shell)" },
	{ 'q', "quote", NULL, O_QUOTE, "run COMMAND's words as they are, one "
	    "argument each, no shell" },
	{ 'j', "jobs", "N", O_JOBS, "run N jobs at once: N, N%, +N, -N of "
	    "the CPUs (0: as many as possible)" },
	{ 'P', "max-procs", "N", O_JOBS, "the same as -j (xargs -P)" },
	{ 0, "maxprocs", "N", O_JOBS, NULL },
	{ 'g', "group", NULL, O_GROUP, "print each job's output whole when it "
	    "ends (default)" },
	{ 0, "line-buffer", NULL, O_LINEBUF, "print whole lines of output as "
	    "they come" },
	{ 0, "line-buffered", NULL, O_LINEBUF, NULL },
	{ 0, "linebuffer", NULL, O_LINEBUF, NULL },
	{ 0, "linebuffered", NULL, O_LINEBUF, NULL },
	{ 0, "lb", NULL, O_LINEBUF, NULL },
	{ 'u', "ungroup", NULL, O_UNGROUP, "let jobs write to the output "
	    "directly" },
	{ 'k', "keep-order", NULL, O_KEEP, "print output in input order" },
	{ 0, "keeporder", NULL, O_KEEP, NULL },
	{ 0, "tag", NULL, O_TAG, "put the job's arguments before each line "
	    "of its output" },
	{ 0, "tagstring", "STR", O_TAGSTRING, "put STR (with replacement "
	    "strings) before each line" },
	{ 0, "tag-string", "STR", O_TAGSTRING, NULL },
	{ 0, "dry-run", NULL, O_DRYRUN, "print the commands, run nothing" },
	{ 0, "dryrun", NULL, O_DRYRUN, NULL },
	{ 0, "dr", NULL, O_DRYRUN, NULL },
	{ 'v', NULL, NULL, O_SHOWCMD, "print each command on stdout, before "
	    "its output" },
	{ 't', "verbose", NULL, O_VERBOSE, "print each command to stderr as "
	    "it starts" },
	{ 0, "tmpdir", "DIR", O_TMPDIR, "put temporary files in DIR (default "
	    "$TMPDIR, /tmp)" },
	{ 0, "tempdir", "DIR", O_TMPDIR, NULL },
	{ 0, "term-timeout", "DUR", O_TERMTIMEOUT, "after a signal, wait DUR "
	    "before SIGKILL (default 2s)" },
	{ 0, "no-status", NULL, O_NOSTATUS, "no status line on a terminal" },
	{ 0, "progress", NULL, O_PROGRESS, "print a progress line every few "
	    "seconds (off a terminal)" },
	{ 0, "progress-interval", "DUR", O_INTERVAL, "seconds between "
	    "--progress lines (default 5s)" },
	{ 0, "total", "N", O_TOTAL, "expect N jobs: progress and ETA before "
	    "the input ends" },
	{ 0, "total-jobs", "N", O_TOTAL, NULL },
	{ 0, "totaljobs", "N", O_TOTAL, NULL },
	{ 0, "stats", NULL, O_STATS, "print the run's counters to stderr at "
	    "exit" },
	{ 0, "metrics", "FILE", O_METRICS, "write the run's counters to FILE "
	    "as JSON at exit (- stdout)" },
	{ 0, "events", "FILE", O_EVENTS, "write a JSON line per job start and "
	    "end to FILE (- stdout)" },
	{ 0, "trace", "FILE", O_TRACE, "write the run to FILE as a Chrome "
	    "trace (Perfetto): jobs, counters" },
	{ 0, "joblog", "FILE", O_JOBLOG, "log each job's run to FILE as GNU "
	    "parallel does (+FILE appends)" },
	{ 0, "jl", "FILE", O_JOBLOG, NULL },
	{ 0, "resume", NULL, O_RESUME, "skip the jobs the --joblog has a row "
	    "of" },
	{ 0, "resume-failed", NULL, O_RESUMEFAILED, "skip the jobs the "
	    "--joblog shows succeeded; run the rest" },
	{ 0, "resumefailed", NULL, O_RESUMEFAILED, NULL },
	{ 0, "retry-failed", NULL, O_RETRYFAILED, "run again the commands "
	    "the --joblog shows failed" },
	{ 0, "retryfailed", NULL, O_RETRYFAILED, NULL },
	{ 0, "retries", "N", O_RETRIES, "run a failed job up to N more times "
	    "(default 0: none)" },
	{ 0, "retry-delay", "DUR", O_RETRYDELAY, "wait DUR before a retry, "
	    "twice as long before each next" },
	{ 0, "timeout", "DUR", O_TIMEOUT, "kill a job that runs longer than "
	    "DUR, or N% of the median" },
	{ 0, "halt", "WHEN", O_HALT, "stop early: now|soon,fail|success|done="
	    "N|N% (default never)" },
	{ 0, "halt-on-error", "WHEN", O_HALT, NULL },
	{ 0, "haltonerror", "WHEN", O_HALT, NULL },
	{ 0, "delay", "DUR", O_DELAY, "start jobs at least DUR apart" },
	{ 0, "results", "DIR", O_RESULTS, "keep each job's stdout, stderr and "
	    "exit value in DIR/SEQ/, not printed" },
	{ 0, "res", "DIR", O_RESULTS, NULL },
	{ 0, "memfree", "SIZE", O_MEMFREE, "start no job while less memory "
	    "is available; below half, stop the youngest" },
	{ 0, "load", "N", O_LOAD, "start no job while the load average is N "
	    "(or N% of the CPUs) or more" },
	{ 0, "nice", "N", O_NICE, "run the jobs at niceness N (-20 to 19)" },
	{ 'J', "profile", "NAME", O_PROFILE, "read options from profile NAME "
	    "(~/.parallel/NAME)" },
	{ 0, "plain", NULL, O_PLAIN, "read no profile and not $PARALLEL" },
	{ 'T', "tty", NULL, O_TTY, "give the jobs the terminal as stdin "
	    "(with -j1 -u unless given)" },
	{ 0, "jobserver", NULL, O_JOBSERVER, "share -j with the jobs' make "
	    "through a jobserver (MAKEFLAGS)" },
	{ 0, "pipe", NULL, O_PIPE, "cut stdin into blocks of records, each "
	    "the stdin of one job" },
	{ 0, "spreadstdin", NULL, O_PIPE, NULL },
	{ 0, "pipepart", NULL, O_PIPEPART, "the same for the file -a FILE: "
	    "each job reads its own part" },
	{ 0, "pipe-part", NULL, O_PIPEPART, NULL },
	{ 0, "block", "SIZE", O_BLOCK, "with --pipe, blocks of about SIZE "
	    "bytes (default 1M; k, K, M, G)" },
	{ 0, "block-size", "SIZE", O_BLOCK, NULL },
	{ 0, "blocksize", "SIZE", O_BLOCK, NULL },
	{ 0, "recend", "STR", O_RECEND, "with --pipe, records end with STR "
	    "(default \\n)" },
	{ 0, "recstart", "STR", O_RECSTART, "with --pipe, records start with "
	    "STR" },
	{ 0, "regexp", NULL, O_REGEXP, "with --pipe, --recstart and --recend "
	    "are regular expressions" },
	{ 0, "regex", NULL, O_REGEXP, NULL },
	{ 0, "header", "HEADER", O_HEADER, "with --pipe, put HEADER (N "
	    "lines, or a REGEX's match) atop each block" },
	{ 0, "round-robin", NULL, O_ROUNDROBIN, "with --pipe, start -j jobs "
	    "and give them blocks in turn" },
	{ 0, "roundrobin", NULL, O_ROUNDROBIN, NULL },
	{ 0, "round", NULL, O_ROUNDROBIN, NULL },
	{ 0, "cat", NULL, O_CAT, "with --pipe, {} is a file holding the "
	    "block, not stdin" },
	{ 0, "fifo", NULL, O_FIFO, "with --pipe, {} is a FIFO giving the "
	    "block, not stdin" },
	{ 0, "plus", NULL, O_PLUS, "the extra strings of GNU parallel: {+/} "
	    "{+.} {..} {...} {##} {0#} ..." },
	{ 0, "files", NULL, O_FILES, "print the name of a file holding each "
	    "job's output, not the output" },
	{ 0, "output-as-files", NULL, O_FILES, NULL },
	{ 0, "outputasfiles", NULL, O_FILES, NULL },
	{ 0, "force", NULL, O_FORCE, "wspx run: run the jobs that are up to "
	    "date too" },
	{ 0, "explain", NULL, O_EXPLAIN, "wspx run: say why each job runs or "
	    "is up to date" },
	{ 0, "eta", NULL, O_ETA, "show progress and ETA: the status line, or "
	    "--progress lines" },
	{ 0, "bar", NULL, O_ETA, NULL },
	{ 0, "no-keep-order", NULL, O_NOKEEP, "undo an earlier -k" },
	{ 0, "nokeeporder", NULL, O_NOKEEP, NULL },
	{ 0, "nok", NULL, O_NOKEEP, NULL },
	{ 0, "no-k", NULL, O_NOKEEP, NULL },
	{ 0, "silent", NULL, O_SILENT, "undo an earlier -v and -t" },
	{ 0, "quiet", NULL, O_QUIET, "job files: a progress line for each "
	    "failed job only" },
	{ 0, "json", NULL, O_JSON, "wspx list: the jobs as JSON" },
	{ 0, "watch", NULL, O_WATCH, "wspx run: after the run, run again "
	    "when a job's sources change" },
	{ 'S', "sshlogin", "HOSTS", O_SSHLOGIN, "run jobs on HOSTS over "
	    "ssh (user@host:port, : for here; N: its slots; repeatable, "
	    "comma lists)" },
	{ 0, "sshloginfile", "FILE", O_SLF, "the hosts of -S, one a line" },
	{ 0, "slf", "FILE", O_SLF, NULL },
	{ 0, "ssh", "CMD", O_SSH, "the ssh command (default: ssh)" },
	{ 'M', "controlmaster", NULL, O_CONTROLMASTER, "no effect: wspx "
	    "always shares its ssh connections" },
	{ 'W', "workdir", "DIR", O_WORKDIR, "remote jobs run in DIR "
	    "(default: this directory's path)" },
	{ 0, "wd", "DIR", O_WORKDIR, NULL },
	{ 0, "work-dir", "DIR", O_WORKDIR, NULL },
	{ 0, "env", "NAME", O_ENV, "export variable NAME to remote jobs "
	    "(local ones get the whole environment)" },
	{ 0, "transfer-file", "FILE", O_TRANSFERFILE, "copy FILE to the "
	    "job's host first ({} and the like allowed)" },
	{ 0, "transferfile", "FILE", O_TRANSFERFILE, NULL },
	{ 0, "tf", "FILE", O_TRANSFERFILE, NULL },
	{ 0, "transfer-files", "FILE", O_TRANSFERFILE, NULL },
	{ 0, "transferfiles", "FILE", O_TRANSFERFILE, NULL },
	{ 0, "transfer", NULL, O_TRANSFER, "--transfer-file {}" },
	{ 0, "return", "FILE", O_RETURN, "copy FILE back from the job's "
	    "host after it" },
	{ 0, "cleanup", NULL, O_CLEANUP, "remove the transferred and "
	    "returned files on the host" },
	{ 0, "trc", "FILE", O_TRC, "--transfer --return FILE --cleanup" },
	{ 0, "slurm", NULL, O_SLURM, "run each job as a Slurm job step "
	    "(srun) in the allocation" },
	{ 0, "slurm-cpus", "C", O_SLURMCPUS, "CPUs per job step "
	    "(default 1)" },
	{ 0, "slurm-partition", "P", O_SLURMPARTITION, "outside an "
	    "allocation, ask for one in partition P" },
	{ 0, "slurm-args", "ARGS", O_SLURMARGS, "outside an allocation, "
	    "ask for one with salloc ARGS" },
	{ 0, "will-cite", NULL, O_WILLCITE, "no effect (GNU parallel's "
	    "notice is never printed)" },
	{ 0, "willcite", NULL, O_WILLCITE, NULL },
	{ 0, "nn", NULL, O_WILLCITE, NULL },
	{ 0, "nonotice", NULL, O_WILLCITE, NULL },
	{ 0, "no-notice", NULL, O_WILLCITE, NULL },
	{ 0, "number-of-cores", NULL, O_CORES, "print the CPU cores wspx may "
	    "use and exit" },
	{ 0, "numberofcores", NULL, O_CORES, NULL },
	{ 0, "number-of-cpus", NULL, O_CPUS, NULL },
	{ 0, "numberofcpus", NULL, O_CPUS, NULL },
	{ 0, "number-of-threads", NULL, O_THREADS, "print the hardware "
	    "threads wspx may use and exit" },
	{ 0, "numberofthreads", NULL, O_THREADS, NULL },
	{ 0, "number-of-sockets", NULL, O_SOCKETS, "print the CPU sockets "
	    "wspx may use and exit" },
	{ 0, "numberofsockets", NULL, O_SOCKETS, NULL },
	{ 'V', "version", NULL, O_VERSION, "print the version and exit" },
	{ 'h', "help", NULL, O_HELP, "print this help and exit" },
};

#define NOPTIONS (sizeof(options) / sizeof(options[0]))

/* Whether o's value is optional, and then only in the same word. */
static bool
optionalvalue(const struct option *o)
{
	return o->arg != NULL && o->arg[0] == '[';
}

/* "-a, --arg-file FILE" or "-i, --replace[=STR]" for the help. */
static void
optname(char *b, size_t size, const struct option *o)
{
	snprintf(b, size, "%c%c%s%s%s%s%s", o->shortname ? '-' : ' ',
	    o->shortname ? o->shortname : ' ', o->shortname && o->longname ?
	    ", " : "  ", o->longname ? "--" : "", o->longname ? o->longname :
	    "", o->arg && !optionalvalue(o) ? " " : "", o->arg ? o->arg : "");
}

/* The help of o, another spelling of the entry with help before it (the
 * first entry has help); tests/cli/docs.bats knows the words. */
static const char *
samehelp(const struct option *o, char *b, size_t size)
{
	while (o->help == NULL)
		o--;
	if (o->longname != NULL)
		snprintf(b, size, "another spelling of --%s", o->longname);
	else
		snprintf(b, size, "another spelling of -%c", o->shortname);
	return b;
}

/* Whether option id makes jobs of the input or shapes them from it (or
 * copies an input's files to a host): a job file has none, and its help
 * leaves them out (graph/jobfilecmd.c refuses them). */
static bool
inputonly(enum optid id)
{
	switch (id) {
	case O_ARGFILE: case O_NULL: case O_DELIM: case O_COLSEP: case O_TRIM:
	case O_MAXARGS: case O_REPLACE: case O_REPLACEOPT: case O_SHELL:
	case O_QUOTE: case O_NORUNEMPTY: case O_TAGSTRING: case O_TOTAL:
	case O_RESULTS: case O_MULTI: case O_CONTEXT: case O_XARGS:
	case O_MAXCHARS: case O_EXIT: case O_SHOWLIMITS: case O_MAXLINES:
	case O_MAXLINESOPT: case O_MAXREPL: case O_EOF: case O_EOFOPT:
	case O_ARGSEP: case O_ARGFILESEP: case O_LINK: case O_PIPE:
	case O_PIPEPART: case O_BLOCK: case O_RECEND: case O_RECSTART:
	case O_REGEXP: case O_HEADER: case O_ROUNDROBIN: case O_CAT:
	case O_FIFO: case O_PLUS: case O_FILES: case O_TRANSFERFILE:
	case O_TRANSFER: case O_RETURN: case O_CLEANUP: case O_TRC:
	case O_TTY:
		return true;
	default:
		return false;
	}
}

/* The first lines of the help: the stdin mode's, or (jobfile) those of
 * `wspx run --help`. */
static void
usagehead(FILE *f, bool jobfile)
{
	if (jobfile) {
		fprintf(f, "usage: wspx run [OPTIONS] [FILE [JOB...]] "
		    "[NAME=VALUE...]\n"
		    "       wspx check|list|graph [FILE]\n\n"
		    "Run the jobs of a job file (wspx(5)), each once the jobs "
		    "it needs are over;\nwithout FILE, wspx.yml or wspx.yaml. "
		    " NAME=VALUE sets a variable over the file's\nenv:.  "
		    "Options may come anywhere; after --, words only.\n\n"
		    "Options for job files:\n");
		return;
	}
	fprintf(f, "usage: wspx [OPTIONS] [--] [COMMAND [ARG...]] "
	    "[::: ARGS... | :::: FILES...]...\n"
	    "       wspx run [OPTIONS] [FILE [JOB...]]   run a job file's "
	    "graph (wspx(5))\n"
	    "       wspx check|list|graph [FILE]         check it, list its "
	    "jobs, print its dot\n"
	    "       wspx report [--svg OUT] [--top N] FILE  what a --trace, "
	    "--events or\n"
	    "                                            --joblog file says "
	    "of its run\n\n"
	    "Run COMMAND once per input, in parallel; with no COMMAND each "
	    "input is a command.\nInput: lines of stdin, or the ::: and :::: "
	    "sources (-a FILE too).\nReplacement strings in COMMAND: "
	    "{} {.} {/} {//} {/.} {#} {%%} {n} {n.} {n/} {n//} {n/.} {-n}\n\n"
	    "Options:\n");
}

static void
usage(FILE *f, bool jobfile)
{
	char name[64], same[64];
	const char *help;
	size_t i;

	usagehead(f, jobfile);
	for (i = 0; i < NOPTIONS; i++) {
		if (jobfile && inputonly(options[i].id))
			continue;
		optname(name, sizeof(name), &options[i]);
		help = options[i].help != NULL ? options[i].help :
		    samehelp(&options[i], same, sizeof(same));
		fprintf(f, "  %-22s %s\n", name, help);
	}
	fprintf(f, "\nExit status: 0 all succeeded, 1-100 that many failed, "
	    "101 more, 255 error,\n128+N killed by signal N.  See wspx(1).\n");
}

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
apply(struct config *c, const struct option *o, const char *as,
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
		usage(stdout, c->jobfilecmd);
		printed();
	}
}

/* Whether options[i] has a long name that starts with name[0..n). */
static bool
prefixof(size_t i, const char *name, size_t n)
{
	return options[i].longname != NULL &&
	    strncmp(options[i].longname, name, n) == 0;
}

/* Whether an entry before options[i] spells the same option and starts
 * with name[0..n) too. */
static bool
spelledbefore(size_t i, const char *name, size_t n)
{
	size_t k;

	for (k = 0; k < i; k++)
		if (options[k].id == options[i].id && prefixof(k, name, n))
			return true;
	return false;
}

/* Whether option o is taken by its whole name only: wspx's own options
 * added since GNU parallel's abbreviations were settled, so that these
 * keep meaning what they mean there (--qu is --quote, not also
 * --quiet). */
static bool
wholenameonly(const struct option *o)
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
	for (i = 0; i < NOPTIONS; i++) {
		if (!prefixof(i, name, n) || spelledbefore(i, name, n) ||
		    wholenameonly(&options[i]))
			continue;
		fprintf(stderr, "%s--%s", sep, options[i].longname);
		sep = ", ";
	}
	fprintf(stderr, ")\n(see " PROGNAME " --help)\n");
	exit(EXIT_USAGE);
}

/* The option named name[0..n), or else the one option whose names it is
 * a prefix of (as Getopt::Long, which GNU parallel uses, allows); NULL if
 * none.  A prefix of several options is an error that names them. */
static const struct option *
findlong(const char *name, size_t n)
{
	const struct option *found = NULL;
	bool several = false;
	size_t i;

	for (i = 0; i < NOPTIONS && n > 0; i++) {
		if (!prefixof(i, name, n))
			continue;
		if (options[i].longname[n] == '\0')
			return &options[i];
		if (wholenameonly(&options[i]))
			continue;
		several |= found != NULL && found->id != options[i].id;
		if (found == NULL)
			found = &options[i];
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

	for (i = 0; i < NOPTIONS; i++)
		if (prefixof(i, name, n) && options[i].longname[n] == '\0')
			return true;
	return false;
}

/* Report the unknown option --name[0..n), with the nearest one's name
 * if one is near ("--jbos": did you mean --jobs?), and exit. */
static void
unknownlong(const char *name, size_t n)
{
	const char *names[NOPTIONS], *near;
	char *word = xcalloc(1, n + 1);
	size_t i, k = 0;

	memcpy(word, name, n);
	for (i = 0; i < NOPTIONS; i++)
		if (options[i].longname != NULL)
			names[k++] = options[i].longname;
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
	const struct option *o;
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
	if (o->arg == NULL || (optionalvalue(o) && eq == NULL))
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
		for (k = 0; k < NOPTIONS && options[k].shortname != *p; k++)
			;
		opt[1] = *p;
		if (k == NOPTIONS)
			refused_short(*p);
		if (k == NOPTIONS)
			unknownshort(argv[i], p);
		if (options[k].arg == NULL || (optionalvalue(&options[k]) &&
		    p[1] == '\0')) {
			apply(c, &options[k], opt, NULL);
			continue;
		}
		if (p[1] == '\0' && i + 1 >= argc)
			missing(opt);
		apply(c, &options[k], opt, p[1] != '\0' ? p + 1 : argv[++i]);
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
