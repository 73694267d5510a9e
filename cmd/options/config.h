/*
 * The configuration the options produce: what options.c and optvalue.c
 * fill, and the run and the job-file commands read.  The modules below
 * options/ never see it: the run gives each the small *_opts struct of
 * what it needs.
 */
#ifndef WSPX_CONFIG_H
#define WSPX_CONFIG_H

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "exec/halt.h"
#include "exec/output.h"
#include "input/input.h"
#include "remote/remote.h"
#include "report/resume.h"

struct jobsource;

struct config {
	struct srcspec *src;	/* input sources; none: stdin */
	size_t nsrc;
	char delim;		/* record separator */
	regex_t colsep;		/* --colsep, if hascolsep */
	bool hascolsep;
	int trim;		/* --trim: TRIM_LEFT | TRIM_RIGHT */
	bool trimset;		/* --trim was given */
	size_t maxargs;		/* -n */
	bool skipblank;		/* -r: skip empty or blank records */
	struct replnames names;	/* -I, --er and their kin, --parens */
	const char *shell;	/* --shell, or NULL (see input/shell.h) */
	const char *tmpdir;	/* --tmpdir, $TMPDIR, /tmp */
	bool compress;		/* --compress */
	bool interactive;	/* -p: ask before each job */
	const char *compressprog;	/* --compress-program */
	const char *decompressprog;	/* --decompress-program */
	unsigned jobs;		/* -j */
	bool jobsall;		/* -j 0: as many as the limits allow */
	enum wspx_outmode mode;
	bool keep;		/* -k */
	bool tag;		/* --tag */
	char *tagstring;	/* --tagstring, escapes read; malloc'd */
	bool dryrun;
	bool showcmd;		/* -v: the command on stdout, then output */
	bool verbose;		/* -t, --verbose: the command to stderr */
	double termtimeout;	/* seconds */
	const char *joblog;	/* --joblog FILE (without a leading +) */
	bool joblogappend;	/* --joblog +FILE, or resuming */
	enum resumemode resume;	/* --resume, --resume-failed, ... */
	unsigned retries;	/* --retries */
	double retrydelay;	/* --retry-delay, seconds */
	double timeout;		/* --timeout, seconds, or 0 */
	unsigned timeoutpct;	/* --timeout N%, or 0 */
	struct wspx__halt halt;	/* --halt */
	const char *haltspec;	/* --halt as given, for messages */
	double delay;		/* --delay, seconds */
	const char *results;	/* --results DIR, or NULL */
	uint64_t memfree;	/* --memfree, bytes, or 0 */
	const char *memfreespec; /* --memfree as given */
	double maxload;		/* --load, or 0 */
	const char *loadspec;	/* --load as given */
	const char *loadfile;	/* --load FILE, or NULL */
	int nice;		/* --nice, or 0: wspx's own */
	const char **profiles;	/* -J NAMEs */
	size_t nprofiles;
	bool noprofiles;	/* --plain: no profile, no $PARALLEL */
	bool tty;		/* --tty: the jobs' stdin is the terminal */
	bool modeset;		/* -g, --lb or -u was given */
	bool jobserver;		/* --jobserver */
	struct semconf {	/* --semaphore and its kin (run/semaphore.c) */
		bool on;	/* --semaphore, or an option below */
		bool fg;	/* --fg: wait for COMMAND */
		bool wait;	/* --wait: for every holder to end */
		const char *name; /* --semaphore-name, --id, or NULL */
		double timeout;	/* --st, seconds: < 0 give up, 0 none */
		unsigned slots;	/* -j as given (default 1) */
	} sem;
	char **command;		/* COMMAND's words, or NULL */
	size_t ncommand;
	bool quote;		/* -q: run the words as they are */
	bool nostatus;		/* --no-status */
	bool quiet;		/* --quiet: a job file's failures only */
	bool json;		/* --json: wspx list as JSON */
	bool watch;		/* --watch: run again when sources change */
	bool jobfilecmd;	/* options after run, check, list or graph */
	bool progress;		/* --progress */
	double interval;	/* --progress-interval, seconds */
	long long total;	/* --total, or -1 */
	bool stats;		/* --stats */
	const char *metrics;	/* --metrics FILE, or NULL */
	const char *events;	/* --events FILE ("-": stdout), or NULL */
	const char *trace;	/* --trace FILE, or NULL */
	bool force;		/* --force: run jobs that are up to date */
	bool explain;		/* --explain: say why each job runs */
	/* Many records per job (input/jobargs.c) */
	enum multi { MULTI_NONE, MULTI_M, MULTI_X, MULTI_XARGS } multi;
				/* -m, -X, --xargs: as many as fit */
	bool context;		/* -X, -N, -L: words with {} repeat per
				 * record */
	bool maxargsset;	/* -n was given */
	size_t maxrepl;		/* -N (0: no argument at all) */
	bool maxreplset;	/* -N was given */
	size_t maxchars;	/* -s, or 0: the system's limit */
	bool exitbig;		/* -x: a record that does not fit is an
				 * error */
	bool showlimits;	/* --show-limits */
	size_t maxlines;	/* -L, -l: lines per record, or 0 */
	const char *eofstr;	/* -E: input ends at this record */
	const char *argsep;	/* --arg-sep (default :::) */
	const char *argfilesep;	/* --arg-file-sep (default ::::) */
	bool link;		/* --link: sources read in step */
	bool plus;		/* --plus: GNU parallel's extra strings */
	bool files;		/* --files: print output files' names */
	/* --pipe and --pipepart (pipe/) */
	bool pipe;		/* --pipe: stdin cut into blocks */
	bool pipepart;		/* --pipepart: -a FILE's byte ranges */
	uint64_t block;		/* --block, bytes */
	bool blockset;		/* --block was given */
	unsigned blockparts;	/* --block -N: --pipepart makes N parts
				 * per job slot; or 0 */
	const char *recstart;	/* --recstart, or NULL */
	const char *recend;	/* --recend, or NULL: "\n" unless
				 * --recstart is given */
	bool regexp;		/* --regexp: recstart/recend are regexes */
	const char *header;	/* --header N|REGEX, or NULL */
	char **named;		/* strings given --header's names of fields
				 * (config_namefields()) */
	size_t nnamed;
	bool roundrobin;	/* --round-robin */
	bool cat;		/* --cat: {} is a file holding the block */
	bool fifo;		/* --fifo: {} is a FIFO giving the block */
	struct jobsource *source; /* the jobs of a job file, or NULL: the
				 * input's */
	struct remoteconf remote; /* -S, --slurm and their kin */
};

#endif /* WSPX_CONFIG_H */
