/*
 * Where a job runs: on a host of -S (remote.c), as a Slurm step
 * (slurm.c), or here, in --workdir if given.  The run hands each job's
 * command, built as for here, to be placed, and each attempt's end back.
 */
#ifndef WSPX_PLACING_H
#define WSPX_PLACING_H

#include <stdbool.h>
#include <stddef.h>

struct args;
struct remoteconf;
struct replnames;
struct remotejob;
struct wspx__cmd;
struct wspx__execjob;
struct wspx__result;

/* What placing is given, as the options set it. */
struct placing_opts {
	const struct remoteconf *remote; /* -S, --slurm and their kin */
	const struct replnames *names;	/* -I and its kin, for
					 * --transfer-file and --return */
	bool plus;		/* --plus, likewise */
	unsigned jobs;		/* -j: the job slots here */
	bool dryrun;		/* --dry-run: nothing is opened */
};

struct placing {
	const char *workdir;	/* --workdir, or NULL */
	struct remote *remote;	/* -S's hosts, or NULL */
	struct slurm *slurm;	/* --slurm's allocation, or NULL */
};

/* Check --workdir for jobs here, and open -S's connections or --slurm's
 * allocation (none with a dry run); an exit from now on closes them.
 * Returns the job slots: the hosts' or the allocation's, else o->jobs.
 * o->remote is borrowed until placing_close(). */
unsigned placing_open(struct placing *p, const struct placing_opts *o);

/* The default -s (the most -m and -X put in a job's line) where jobs run,
 * or 0: the system's limit. */
size_t placing_maxchars(const struct placing *p);

/* Place an attempt of job ej (its slot taken), whose command cmd is built
 * (it may wait for a slot of its host): rj is where it runs, on the host
 * it must run on or NULL, a its arguments for the templates of
 * --transfer-file and --return.  Returns 0 or -errno. */
int placing_place(struct placing *p, struct remotejob *rj, const char *on,
    const struct args *a, const struct wspx__execjob *ej,
    struct wspx__cmd *cmd);

/* Whether the attempt at rj, which ended with r, was lost with its host:
 * it runs again. */
bool placing_lost(struct placing *p, struct remotejob *rj,
    const struct wspx__result *r);

/* The attempt at rj of job ej (arguments a) ended (the executor's
 * ended()): its --return files, its Slurm step.  Returns the joblog's
 * Host for it. */
const char *placing_ended(struct placing *p, struct remotejob *rj,
    const struct args *a, const struct wspx__execjob *ej);

/* The job at rj is over and counted: its host slot goes. */
void placing_release(struct placing *p, struct remotejob *rj);

/* Whether an attempt may be lost and run again (-S). */
bool placing_rerun(const struct placing *p);

/* Close the connections, give back the allocation. */
void placing_close(struct placing *p);

#endif /* WSPX_PLACING_H */
