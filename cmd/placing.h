/*
 * Where a job runs: on a host of -S (remote.c), as a Slurm step
 * (slurm.c), or here, in --workdir if given.  The run hands each job's
 * command, built as for here, to be placed, and each attempt's end back.
 */
#ifndef WSPX_PLACING_H
#define WSPX_PLACING_H

#include <stdbool.h>

struct config;
struct cmdjob;
struct wspx__cmd;

struct placing {
	const struct config *c;
	struct remote *remote;	/* -S's hosts, or NULL */
	struct slurm *slurm;	/* --slurm's allocation, or NULL */
};

/* Check --workdir for jobs here, and open -S's connections or --slurm's
 * allocation (none with a dry run), which set c->jobs (and with -S the
 * default -s); an exit from now on closes them. */
void placing_open(struct placing *p, struct config *c);

/* Place an attempt of j, whose command is built (it may wait for a slot
 * of its host): returns 0 or -errno. */
int placing_place(struct placing *p, struct cmdjob *j, unsigned slot,
    struct wspx__cmd *cmd);

/* Whether j's attempt was lost with its host: it runs again. */
bool placing_lost(struct placing *p, struct cmdjob *j);

/* j's attempt ended (the executor's ended()): its --return files, its
 * Slurm step.  Returns the joblog's Host for it. */
const char *placing_ended(struct placing *p, struct cmdjob *j);

/* j is over and counted: its host slot goes. */
void placing_release(struct placing *p, struct cmdjob *j);

/* Whether an attempt may be lost and run again (-S). */
bool placing_rerun(const struct placing *p);

/* Close the connections, give back the allocation. */
void placing_close(struct placing *p);

#endif /* WSPX_PLACING_H */
