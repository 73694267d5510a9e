/*
 * Jobs run elsewhere: on hosts over SSH (remote.c), or as Slurm job steps
 * (slurm.c).  The front ends build a job's command as for this machine;
 * the run hands it here through placing.c to be placed (a host picked,
 * the command wrapped in ssh or srun) and hands back each attempt's end.
 */
#ifndef WSPX_REMOTE_H
#define WSPX_REMOTE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hosts.h"
#include "remotefiles.h"

struct args;
struct wspx__cmd;
struct wspx__result;

/* The options of running elsewhere. */
struct remoteconf {
	struct hostlist hosts;	/* -S, --sshloginfile, hosts:; none: here */
	const char *ssh;	/* --ssh, or NULL: $PARALLEL_SSH, or ssh */
	const char *workdir;	/* --workdir, or NULL: the current
				 * directory's path */
	const char **env;	/* --env NAMEs, exported to remote jobs */
	size_t nenv;
	const char **transfer;	/* --transfer-file FILEs (templates) */
	size_t ntransfer;
	const char **ret;	/* --return FILEs (templates) */
	size_t nret;
	bool cleanup;		/* --cleanup */
	int nice;		/* --nice, or 0: the login's */
	double grace;		/* --termtimeout: from SIGTERM to SIGKILL */
	const char *jobsspec;	/* -j as given, or NULL */
	bool slurm;		/* --slurm, executor: slurm */
	unsigned slurmcpus;	/* --slurm-cpus: each job's, 0: 1 */
	const char *partition;	/* --slurm-partition, or NULL */
	const char *slurmargs;	/* --slurm-args, or NULL */
};

/* Where an attempt of a job runs, while it runs; all zeros before. */
struct remotejob {
	bool placed;		/* it holds a slot of host */
	size_t host;		/* its host's index */
	unsigned hostslot;	/* which of the host's slots */
	unsigned gen;		/* its connection's generation then */
	char *dir;		/* its directory there */
	struct rfsent sent;	/* remote paths to remove with --cleanup */
	char name[64];		/* a Slurm step's name */
};

struct remote;

/* Open the connections to the hosts of rc (NULL if it has none, or with
 * a dry run), asking the CPU counts it needs; names and tmplflags read the
 * --transfer-file and --return templates as COMMAND's.  A host that
 * cannot be reached is left out, with a warning; none left is fatal. */
struct remote *remote_open(const struct remoteconf *rc,
    const struct replnames *names, int tmplflags, unsigned localjobs);

/* The jobs that may run at once: the live hosts' slots.  At the start,
 * on the thread that opened rm. */
unsigned remote_slots(const struct remote *rm);

/* Place an attempt of a job whose command is built: pick a host (on: its
 * spec, or NULL: any), waiting for one with a free slot; copy its
 * --transfer-files there; make cmd the ssh that runs it.  a, seq and slot
 * fill the templates.  Returns 0 or -errno (no host: -EHOSTDOWN). */
int remote_place(struct remote *rm, struct remotejob *rj, const char *on,
    const struct args *a, uint64_t seq, unsigned slot,
    struct wspx__cmd *cmd);

/* Whether the attempt was lost with its host (ssh's exit 255 and the
 * connection is down): the job runs again elsewhere. */
bool remote_lost(struct remote *rm, struct remotejob *rj,
    const struct wspx__result *r);

/* The attempt r is over: bring its --return files back (unless lost or
 * never started), --cleanup, and let its host slot go if another attempt
 * follows (r->retry).  Nothing for a job not placed. */
void remote_ended(struct remote *rm, struct remotejob *rj,
    const struct args *a, uint64_t seq, unsigned slot,
    const struct wspx__result *r);

/* Let the attempt's host slot go, when the job is over (and its last
 * attempt counted) or before another attempt.  Safe to call again, and
 * for a job never placed. */
void remote_release(struct remote *rm, struct remotejob *rj);

/* The joblog's Host of the attempt: the host's spec, or ":". */
const char *remote_hostname(const struct remote *rm,
    const struct remotejob *rj);

/* Close the connections; rm may be NULL. */
void remote_close(struct remote *rm);

#endif /* WSPX_REMOTE_H */
