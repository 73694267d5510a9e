/*
 * Jobs as Slurm job steps (--slurm): each runs as `srun --exact -n1 -c C`
 * inside the allocation wspx runs in, or one it asks for and gives back.
 */
#ifndef WSPX_SLURM_H
#define WSPX_SLURM_H

#include <stdint.h>

struct remoteconf;
struct remotejob;
struct wspx__cmd;
struct wspx__result;
struct slurm;

/* Find the allocation (SLURM_JOB_ID), or ask for one with salloc when rc
 * has a partition or salloc arguments; NULL without --slurm or with a
 * dry run.  No allocation is fatal.  jobs: -j, if given (0: not). */
struct slurm *slurm_open(const struct remoteconf *rc, unsigned jobs);

/* The steps that may run at once: the allocation's CPUs / each job's. */
unsigned slurm_slots(const struct slurm *s);

/* Make cmd the srun of the job's step. */
int slurm_place(struct slurm *s, struct remotejob *rj, uint64_t seq,
    unsigned attempt, struct wspx__cmd *cmd);

/* The attempt is over: a step wspx killed is cancelled with scancel (if
 * srun left it behind). */
void slurm_ended(struct slurm *s, struct remotejob *rj,
    const struct wspx__result *r);

/* The joblog's Host: "slurm:JOBID". */
const char *slurm_hostname(const struct slurm *s);

/* Give back the allocation wspx asked for; s may be NULL. */
void slurm_close(struct slurm *s);

#endif /* WSPX_SLURM_H */
