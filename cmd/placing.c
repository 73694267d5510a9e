/*
 * Where a job runs (see placing.h).  The connections and the allocation
 * are opened after everything a bad option stops (run.c's setup), and
 * closed at the end, or by exit() on a fatal error in between: an
 * atexit() hook closes those of the run still open.
 */
#include "placing.h"

#include <stdlib.h>
#include <sys/stat.h>

#include "../lib/job.h"
#include "optvalue.h"
#include "remote.h"
#include "run.h"
#include "slurm.h"
#include "util.h"

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
checkworkdir(const struct config *c)
{
	struct stat st;
	size_t i;
	bool here = c->remote.hosts.n == 0;

	for (i = 0; i < c->remote.hosts.n; i++)
		here = here || c->remote.hosts.v[i].local;
	if (c->remote.workdir == NULL || !here)
		return;
	if (stat(c->remote.workdir, &st) != 0)
		fatal("--workdir %s:", c->remote.workdir);
	if (!S_ISDIR(st.st_mode))
		fatal("--workdir %s: not a directory", c->remote.workdir);
}

void
placing_open(struct placing *p, struct config *c)
{
	static bool registered;

	p->c = c;
	checkworkdir(c);
	if (c->dryrun)
		return;
	if (!registered && atexit(closeatexit) == 0)
		registered = true;
	opened = p;
	c->remote.grace = c->termtimeout;
	/* (past -j's most, the hosts' slots are there to choose from) */
	if ((p->remote = remote_open(&c->remote, c->plain, c->plus ?
	    TMPL_PLUS : 0, c->jobs)) != NULL)
		c->jobs = remote_slots(p->remote) < MAXJOBS ?
		    remote_slots(p->remote) : MAXJOBS;
	if ((p->slurm = slurm_open(&c->remote, c->remote.jobsspec != NULL ?
	    c->jobs : 0)) != NULL)
		c->jobs = slurm_slots(p->slurm);
	if (p->remote != NULL && c->maxchars == 0)
		c->maxchars = REMOTE_MAXCHARS;
}

int
placing_place(struct placing *p, struct cmdjob *j, unsigned slot,
    struct wspx__cmd *cmd)
{
	if (p->remote != NULL)
		return remote_place(p->remote, &j->rj, j->on, &j->args,
		    j->ej.seq, slot, cmd);
	if (cmd->dir == NULL)
		cmd->dir = p->c->remote.workdir;
	if (p->slurm != NULL)
		return slurm_place(p->slurm, &j->rj, j->ej.seq,
		    j->ej.result.attempt, cmd);
	return 0;
}

bool
placing_lost(struct placing *p, struct cmdjob *j)
{
	return p->remote != NULL && remote_lost(p->remote, &j->rj,
	    &j->ej.result);
}

const char *
placing_ended(struct placing *p, struct cmdjob *j)
{
	const struct wspx__result *res = &j->ej.result;
	const char *host = ":";

	if (p->remote != NULL) {
		host = remote_hostname(p->remote, &j->rj);
		remote_ended(p->remote, &j->rj, &j->args, j->ej.seq,
		    res->slot, res);
	} else if (p->slurm != NULL) {
		host = slurm_hostname(p->slurm);
		slurm_ended(p->slurm, &j->rj, res);
	}
	return host;
}

void
placing_release(struct placing *p, struct cmdjob *j)
{
	if (p->remote != NULL)
		remote_release(p->remote, &j->rj);
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
