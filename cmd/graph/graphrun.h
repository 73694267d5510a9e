/*
 * Running a job file's graph (graphrun.c), with the commands of its jobs
 * (graphcmd.c) and their up-to-date state and outputs (graphstate.c).
 */
#ifndef WSPX_GRAPHRUN_H
#define WSPX_GRAPHRUN_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include "builtins/builtin.h"
#include "input/shell.h"
#include "jobfile/jobfile.h"
#include "jobfile/uptodate.h"
#include "run/run.h"
#include "wspx.h"

struct buf;
struct wspx__graph;
struct wspx__state;
struct wspx__timer;
struct wspx_pool;
struct graphtick;

enum outcome {
	OUT_PENDING,
	OUT_OK,
	OUT_FAILED,
	OUT_SKIPPED,		/* its if said no */
	OUT_CANCELLED,		/* the run stopped before it */
	OUT_UPTODATE
};

/* An output of a job: key=value from its $WSPX_OUTPUT file. */
struct output {
	char *key, *value;
};

/* A job of the graph, in the run. */
struct gjob {
	struct cmdjob cj;		/* its run by the executor */
	struct wspx_job over;		/* its end, on the pool */
	struct graphrun *gr;
	size_t index;			/* in the job file */
	enum outcome outcome;		/* written before its graph_needed */
	bool anyfail;			/* it or a job it needs, or theirs,
					 * failed */
	bool failed;			/* it failed, continue-on-error or
					 * not */
	bool inprocess;			/* a builtin, run in the process */
	struct gjob *poolnext;		/* queued in its pool */
	struct wspx__bcall bc;		/* a builtin's call */
	struct wspx__barg *bargs;	/* its with:, expanded */
	size_t nbargs;
	struct wspx__outjob *oj;	/* a builtin's output */
	char **envp;			/* a command's environment */
	char *dir;			/* its directory, expanded */
	char *outfile;			/* its $WSPX_OUTPUT */
	bool outleft;			/* an attempt started that may have
					 * left that file */
	char *progpath;			/* its program, found in its own
					 * PATH, or NULL */
	struct wspx__parts groups;	/* of its identity and sources'
					 * patterns, for its digest, before
					 * it started */
	struct wspx__parts parts;	/* of its identity and each source
					 * file, for its record and
					 * --explain, when it was to run */
	bool srcknown;			/* groups could be made */
	bool partsok;			/* so could parts */
	char *errline;			/* why it failed, from its
					 * stderr, or NULL */
	struct output *outputs;		/* read when it succeeded */
	size_t noutputs;
};

/* A pool of the file, in the run. */
struct gpool {
	pthread_mutex_t lock;
	unsigned running;		/* lock */
	struct gjob *head, *tail;	/* waiting; lock */
};

struct graphrun {
	struct config *c;
	struct wspx__jobfile *jf;
	const char *file;		/* the job file as named */
	char **vars;			/* NAME=value from the command line */
	size_t nvars;
	const struct jobwords *words;
	bool regular;			/* it is a regular file: it has a
					 * directory and a state */
	char *base;			/* the directory jobs run in */
	int basefd;			/* it, open */
	struct gjob *jobs;		/* jf->jobs' */
	bool *selected;			/* the jobs to run, or NULL: all */
	bool *done;			/* --resume and its kin: the jobs
					 * done before, or NULL */
	size_t nselected;
	struct gpool *pools;
	struct wspx__graph *graph;
	struct wspx__timer *timer;		/* the builtins', or NULL: none */
	struct wspx__state *state;	/* up-to-date state, or NULL */
	pthread_mutex_t tmplock;
	char *tmpdir;			/* the jobs' $WSPX_OUTPUT files, made
					 * when the first job is prepared;
					 * tmplock */
	_Atomic(bool) stopping;		/* for the builtins */
	_Atomic(bool) killing;		/* for those that start even after
					 * a stop: SIGKILL for all came */
	/* How the jobs went, for the last line; each counted once its
	 * outcome is known, relaxed, read once every job is over. */
	_Atomic(size_t) nok;		/* succeeded */
	_Atomic(size_t) nfailed;	/* failed (continue-on-error too) */
	_Atomic(size_t) nskipped;	/* their if: said no */
	_Atomic(size_t) nstopped;	/* killed by a stop or a halt */
	_Atomic(size_t) notstarted;	/* jobs a stop kept from starting */
	_Atomic(size_t) uptodate;	/* jobs up to date, not run */
	_Atomic(size_t) resumed;	/* done before (--resume), not run */
	struct jobsource *src;
};

/* The words of `wspx run`: the file, the jobs named (none: all), the
 * variables given as NAME=value, which override every env: of the file
 * (as make's command-line variables do). */
struct jobwords {
	const char *file;
	char **targets;
	size_t ntargets;
	char **vars;
	size_t nvars;
	/* --watch: told, as the run ends, each source pattern of each job
	 * of the run, expanded, and the directory it is relative to; or
	 * NULL. */
	void (*source)(void *ctx, const char *dir, const char *pattern);
	void *sourcectx;
};

/* Run the jobs of jf (the targets of w and what they need, or all) with
 * the options of c.  Returns the exit status, as run(). */
int graphrun(struct config *c, struct wspx__jobfile *jf,
    const struct jobwords *w);

/* The executor's prepare for job j: its command, environment and
 * directory (graphcmd.c). */
int graphcmd_prepare(struct graphrun *gr, struct gjob *j,
    struct wspx__cmd *cmd);

/* Expand the ${{ }} expressions of s for job j, the values as they are
 * (for env, dir, with, sources and generates, which no shell reads).
 * Returns a malloc'd string. */
char *graphcmd_expand(struct graphrun *gr, const struct gjob *j,
    const char *s);

/* The with: of j's builtin, expanded, into j->bargs. */
void graphcmd_bargs(struct graphrun *gr, struct gjob *j);

/* j's identity for its up-to-date digest: everything that can change
 * what it does but its files: its shell and script (a builtin's name
 * and with:), the environment it sets, the values of its expressions,
 * its directory.  One line each, "KIND JSON": shell, run, builtin, env
 * ("NAME=value"), value (KIND "value NAME", NAME matrix.KEY or
 * needs.JOB.outputs.KEY), dir.  Returns a malloc'd string. */
char *graphcmd_text(struct graphrun *gr, const struct gjob *j);

/* The program prog looked up in path (a PATH's value; may be NULL), as
 * execvp() would from directory dir (NULL: the current one): a malloc'd
 * path, relative to dir if the entry was, or NULL if prog has a / or none
 * was found (the spawn then looks, and its error names the program).  For
 * a job's own PATH, which may not be wspx's, and for checking shell:. */
char *graphcmd_findprog(const char *path, const char *dir, const char *prog);

/* j's directory, its dir: expanded.  Returns a malloc'd string. */
char *graphcmd_dir(struct graphrun *gr, const struct gjob *j);

/* Free what prepare and bargs made for j. */
void graphcmd_free(struct gjob *j);

/* Whether j is up to date (its sources, generates and command as the
 * state recorded them); prints nothing, but with --explain writes why
 * not to why.  On worker w. */
bool graphstate_uptodate(struct graphrun *gr, struct wspx_worker *w,
    struct gjob *j, struct buf *why);

/* Give w's source() each source pattern of the jobs of the run
 * (graphstate.c). */
void graphstate_sources(struct graphrun *gr, const struct jobwords *w);

/* text, a job's script for a POSIX shell, as a dry run shows it: with
 * the values of set[0..nset) ("NAME=value"; a later one wins) in place of
 * the references to them where that means the same (showvars.c).
 * Returns a malloc'd string. */
char *showvars(const char *text, char *const *set, size_t nset);

/* Whether c may be in a shell variable's name (first: as its first
 * character). */
bool showvars_namechar(char c, bool first);

/* wspx run --watch (watch.c): run, then wait for a change to a source of
 * a job of the run and run again, until a signal ends wspx. */
int graphwatch(struct config *c, struct wspx__jobfile *jf,
    struct jobwords *w);

/* Why job j, skipped, did not run, to b ("needs build, which
 * failed"). */
void graphrun_skipreason(struct graphrun *gr, struct gjob *j, struct buf *b);

/* The run's last line, on stderr (stopped, elapsed: as the job source's
 * end), and with $GITHUB_STEP_SUMMARY set the table of its jobs appended
 * to that file (graphend.c).  Once every job is over. */
void graphend_line(struct graphrun *gr, const char *stopped, double elapsed);

/* The line of a failed job's stderr that says why (errtail: its last
 * bytes): the first that speaks of an error, else the last that is not
 * empty; malloc'd, or NULL. */
char *graphend_errline(const char *errtail, size_t n);

/* Open the up-to-date state beside the job file; fatal if no directory
 * can be made in the run's temporary directory. */
void graphstate_open(struct graphrun *gr);

/* The directory of the jobs' $WSPX_OUTPUT files into *dir, made by the
 * first caller (a run where every job is up to date makes none); 0 or
 * -errno, tried again by the next caller.  Any thread. */
int graphstate_tmpdir(struct graphrun *gr, const char **dir);

/* Close the state, and remove the outputs' directory. */
void graphstate_close(struct graphrun *gr);

/* An attempt of j ran: read its outputs into j (an earlier attempt's
 * dropped).  Returns false, with why written to oj, if its
 * $WSPX_OUTPUT cannot be read: not a regular file, over 1 MiB, a line
 * that is no output, a value whose delimiter never comes.  Blocking
 * thread. */
bool graphstate_outputs(struct graphrun *gr, struct gjob *j,
    struct wspx__outjob *oj);

/* A job ended: what it wrote will be looked at again by the jobs that
 * start after (unless the run is a dry run).  Before they are let
 * start. */
void graphstate_wrote(struct graphrun *gr);

/* Whether j's end (graphstate_ended() and the rest) is done on the
 * blocking thread that reaped it, rather than handed to a worker: when
 * its generated files, each a path with no wildcard, add up to 1 MiB at
 * most, and it has no pool whose next job it would start (nor is it a
 * dry run's, which ends on a worker already).  Hashing them
 * then costs less than the wake-up of a worker, whose trip to another
 * CPU and back left a CPU idle for each job. */
bool graphstate_endhere(struct graphrun *gr, struct gjob *j);

/* j ended (ok: it succeeded, and it was no dry run), after
 * graphstate_wrote(): if ok, record its state, the digests of its
 * generates read now (the jobs it let start may be reading them too: each
 * file is read once).  Frees the parts its up-to-date check made.  On
 * worker w, or on a blocking thread (w NULL: no fork-join). */
void graphstate_ended(struct graphrun *gr, struct wspx_worker *w,
    struct gjob *j, bool ok);

/* The timer of the run's builtins, and its tick (graphtick.c): started,
 * with gr->timer, when a job of the run is a builtin, else NULL and no
 * thread; ended once the graph is over. */
struct graphtick *graphtick_start(struct graphrun *gr, struct wspx_pool *pool);
void graphtick_end(struct graphtick *t);

#endif /* WSPX_GRAPHRUN_H */
