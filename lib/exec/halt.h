/*
 * The halt policy (--halt, GNU parallel's): when to stop a run early, and
 * the exit status it then ends with.  Pure functions over the run's
 * counts; the executor calls them as each job ends.
 */
#ifndef WSPX_HALT_H
#define WSPX_HALT_H

#include <stdbool.h>
#include <stdint.h>

enum wspx__halt_when {
	WSPX_HALT_NEVER,	/* run every job (the default) */
	WSPX_HALT_SOON,		/* start nothing new, let running jobs end */
	WSPX_HALT_NOW		/* and kill the running jobs */
};

enum wspx__halt_why {
	WSPX_HALT_FAIL,		/* jobs that failed */
	WSPX_HALT_SUCCESS,	/* jobs that succeeded */
	WSPX_HALT_DONE		/* jobs that ended, either way */
};

/* A policy: halt `when` once `count` jobs (or `count` percent of all
 * jobs, with percent) have ended as `why` says. */
struct wspx__halt {
	enum wspx__halt_when when;
	enum wspx__halt_why why;
	uint64_t count;		/* jobs, or percent (1..100) */
	bool percent;
};

/* The counts a policy is checked against. */
struct wspx__halt_counts {
	uint64_t failed;	/* jobs that ended and failed */
	uint64_t succeeded;	/* jobs that ended and succeeded */
	uint64_t total;		/* all jobs of the run, 0 while unknown */
};

/* Read a policy as GNU parallel writes it: never, soon|now,fail|success|
 * done=N or =N%, or the old forms 0, 1, 2, -1, -2 and N%.  Returns 0, or
 * -EINVAL (*h is then unchanged). */
int wspx__halt_parse(const char *s, struct wspx__halt *h);

/* Whether h is met by counts c; percentages only once c->total is known. */
bool wspx__halt_met(const struct wspx__halt *h,
    const struct wspx__halt_counts *c);

/* The run's exit status when h was met as the job with exit status
 * jobstatus (128+N if killed by signal N) ended: that status for fail=1 or
 * done=1, 0 for success, else as wspx__halt_status() says. */
int wspx__halt_status_met(const struct wspx__halt *h,
    const struct wspx__halt_counts *c, int jobstatus);

/* The run's exit status under h (not never) when it ended without h being
 * met, or for the failure counts once it was: the percentage of jobs that
 * failed (rounded up) for a percentage, else the failed jobs, at most
 * 101. */
int wspx__halt_status(const struct wspx__halt *h,
    const struct wspx__halt_counts *c);

#endif /* WSPX_HALT_H */
