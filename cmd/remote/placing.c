/*
 * Where a job runs (see placing.h).  The connections and the allocation
 * are opened after everything a bad option stops (run/run.c's setup), and
 * closed at the end, or by exit() on a fatal error in between: an
 * atexit() hook closes those of the run still open.
 */
#include "placing.h"

#include <stdlib.h>
#include <sys/stat.h>

#include "exec/exec.h"
#include "input/template.h"
#include "remote.h"
#include "slurm.h"
#include "util/slots.h"
#include "util/util.h"

/* The most -m and -X put in a remote job's line by default (-s): the
 * line goes into one argument of ssh, quoted once more for the host's
 * shell (a character may take 4 there), and an argument has at most
 * 128 KiB. */
#define REMOTE_MAXCHARS	30000

/* What an exit must close: set while open. */
static struct placing *opened;

static void
closeatexit(void)
{
	if (opened != NULL)
		placing_close(opened);
}

/* A --workdir where jobs run here must be there: a job's failure would
 * blame its program. */
static void
checkworkdir(const struct remoteconf *rc)
{
	struct stat st;
	size_t i;
	bool here = rc->hosts.n == 0;

	for (i = 0; i < rc->hosts.n; i++)
		here = here || rc->hosts.v[i].local;
	if (rc->workdir == NULL || !here)
		return;
	if (stat(rc->workdir, &st) != 0)
		fatal("--workdir %s:", rc->workdir);
	if (!S_ISDIR(st.st_mode))
		fatal("--workdir %s: not a directory", rc->workdir);
}

unsigned
placing_open(struct placing *p, const struct placing_opts *o)
{
	static bool registered;
	const struct remoteconf *rc = o->remote;
	unsigned jobs = o->jobs;

	p->workdir = rc->workdir;
	checkworkdir(rc);
	if (o->dryrun)
		return jobs;
	if (!registered && atexit(closeatexit) == 0)
		registered = true;
	opened = p;
	/* (past -j's most, the hosts' slots are there to choose from) */
	if ((p->remote = remote_open(rc, o->names, o->plus ? TMPL_PLUS : 0,
	    jobs)) != NULL)
		jobs = remote_slots(p->remote) < MAXJOBS ?
		    remote_slots(p->remote) : MAXJOBS;
	if ((p->slurm = slurm_open(rc, rc->jobsspec != NULL ? jobs : 0)) !=
	    NULL)
		jobs = slurm_slots(p->slurm);
	return jobs;
}

size_t
placing_maxchars(const struct placing *p)
{
	return p->remote != NULL ? REMOTE_MAXCHARS : 0;
}

int
placing_place(struct placing *p, struct remotejob *rj, const char *on,
    const struct args *a, const struct wspx__execjob *ej,
    struct wspx__cmd *cmd)
{
	if (p->remote != NULL)
		return remote_place(p->remote, rj, on, a, ej->seq,
		    ej->result.slot, cmd);
	if (cmd->dir == NULL)
		cmd->dir = p->workdir;
	if (p->slurm != NULL)
		return slurm_place(p->slurm, rj, ej->seq, ej->result.attempt,
		    cmd);
	return 0;
}

bool
placing_lost(struct placing *p, struct remotejob *rj,
    const struct wspx__result *r)
{
	return p->remote != NULL && remote_lost(p->remote, rj, r);
}

const char *
placing_ended(struct placing *p, struct remotejob *rj, const struct args *a,
    const struct wspx__execjob *ej)
{
	const struct wspx__result *res = &ej->result;
	const char *host = ":";

	if (p->remote != NULL) {
		host = remote_hostname(p->remote, rj);
		remote_ended(p->remote, rj, a, ej->seq, res->slot, res);
	} else if (p->slurm != NULL) {
		host = slurm_hostname(p->slurm);
		slurm_ended(p->slurm, rj, res);
	}
	return host;
}

void
placing_release(struct placing *p, struct remotejob *rj)
{
	if (p->remote != NULL)
		remote_release(p->remote, rj);
}

bool
placing_rerun(const struct placing *p)
{
	return p->remote != NULL;
}

void
placing_close(struct placing *p)
{
	remote_close(p->remote);
	slurm_close(p->slurm);
	p->remote = NULL;
	p->slurm = NULL;
	if (opened == p)
		opened = NULL;
}
