/*
 * Slurm job steps.  Inside an allocation (wspx under salloc or sbatch:
 * SLURM_JOB_ID is set) each job runs as
 *
 *	srun --jobid=J --exact -n1 -c C --quiet -J NAME -- COMMAND...
 *
 * with at most CPUS / C steps at once, CPUS the allocation's
 * (SLURM_JOB_CPUS_PER_NODE, "4(x2),2" summed).  Outside one, with
 * --slurm-partition or --slurm-args, wspx asks for one with
 * `salloc --no-shell` and gives it back with scancel at the end.
 *
 * srun passes the step's exit value back and forwards SIGTERM to it, so
 * timeouts and stops work as for local jobs; a step whose srun wspx had
 * to kill is looked up by its name (unique: pid, seq and attempt) with
 * squeue and cancelled with scancel.
 */
#include "slurm.h"

#include <errno.h>
#include <stdbool.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exec/exec.h"
#include "input/template.h"
#include "os/thread.h"
#include "remote.h"
#include "sidecmd.h"
#include "util/buf.h"
#include "util/util.h"

enum { ERRLEN = 512 };

struct slurm {
	char jobid[32];
	bool ours;		/* wspx asked for the allocation */
	unsigned cpus;		/* each step's */
	unsigned slots;
	char host[48];		/* "slurm:JOBID" */
};

/* The CPUs of SLURM_JOB_CPUS_PER_NODE's "4(x2),2" form: 10. */
static unsigned
sumcpus(const char *s)
{
	unsigned long total = 0, n, times;
	char *end;

	while (s != NULL && *s != '\0') {
		n = strtoul(s, &end, 10);
		times = 1;
		if (strncmp(end, "(x", 2) == 0)
			times = strtoul(end + 2, &end, 10), end++;
		total += n * times;
		s = *end == ',' ? end + 1 : NULL;
	}
	return total > 0 && total < 1000000 ? (unsigned)total : 0;
}

/* salloc's words: --no-shell, the partition, --slurm-args split. */
static char **
sallocargv(const struct remoteconf *rc)
{
	struct buf b = { NULL, 0, 0 };
	char **extra = line_argv(rc->slurmargs != NULL ? rc->slurmargs : "");
	char **argv;
	size_t n = 0, i;

#define WORD(s) (bufadd(&b, (s), strlen(s) + 1), n++)
	WORD("sh");
	WORD("-c");
	WORD("exec salloc \"$@\" 2>&1");
	WORD("sh");
	WORD("--no-shell");
	WORD("--job-name=wspx");
	if (rc->partition != NULL) {
		WORD("-p");
		WORD(rc->partition);
	}
	for (i = 0; extra[i] != NULL; i++)
		WORD(extra[i]);
#undef WORD
	argv = packwords(&b, n);
	free(b.s);
	free(extra);
	return argv;
}

/* Ask for an allocation; fatal if none is granted. */
static void
allocate(struct slurm *s, const struct remoteconf *rc)
{
	char **argv = sallocargv(rc), *out, err[ERRLEN];
	regex_t re;
	regmatch_t m[2];
	int rc2;

	rc2 = sidecmd_read(argv, &out, err, sizeof(err));
	free(argv);
	WSPX_MUST(regcomp(&re, "Granted job allocation ([0-9]+)",
	    REG_EXTENDED));
	if (rc2 != 0 || regexec(&re, out, 2, m, 0) != 0 ||
	    m[1].rm_eo - m[1].rm_so >= (regoff_t)sizeof(s->jobid)) {
		regfree(&re);
		fatal("--slurm: salloc could not get an allocation (exit "
		    "%d): %s", rc2, *out != '\0' ? out : err);
	}
	memcpy(s->jobid, out + m[1].rm_so, (size_t)(m[1].rm_eo - m[1].rm_so));
	regfree(&re);
	free(out);
	s->ours = true;
}

/* The CPUs of the allocation wspx asked for, from squeue. */
static unsigned
askcpus(const struct slurm *s)
{
	char *argv[] = { (char *)"squeue", (char *)"-h", (char *)"-j",
		(char *)s->jobid, (char *)"-o", (char *)"%C", NULL };
	char *out, err[ERRLEN];
	unsigned n = 0;

	if (sidecmd_read(argv, &out, err, sizeof(err)) == 0)
		n = (unsigned)strtoul(out, NULL, 10);
	free(out);
	return n;
}

struct slurm *
slurm_open(const struct remoteconf *rc, unsigned jobs)
{
	const char *id = getenv("SLURM_JOB_ID");
	struct slurm *s;
	unsigned total = 0;

	if (!rc->slurm)
		return NULL;
	s = xcalloc(1, sizeof(*s));
	s->cpus = rc->slurmcpus > 0 ? rc->slurmcpus : 1;
	if (rc->partition != NULL || rc->slurmargs != NULL) {
		allocate(s, rc);
		total = askcpus(s);
	} else if (id != NULL && *id != '\0' && strlen(id) < sizeof(s->jobid)) {
		strcpy(s->jobid, id);
		total = sumcpus(getenv("SLURM_JOB_CPUS_PER_NODE"));
	} else {
		fatal("--slurm: not inside a Slurm allocation (no "
		    "SLURM_JOB_ID): run wspx under salloc or sbatch, or give "
		    "--slurm-partition or --slurm-args to ask for one");
	}
	if (total == 0)
		total = s->cpus;
	if (total < s->cpus) {
		slurm_close(s);
		fatal("--slurm-cpus %u: more than the allocation's %u CPUs",
		    rc->slurmcpus, total);
	}
	s->slots = total / s->cpus;
	if (jobs > 0 && jobs < s->slots)
		s->slots = jobs;
	snprintf(s->host, sizeof(s->host), "slurm:%s", s->jobid);
	return s;
}

unsigned
slurm_slots(const struct slurm *s)
{
	return s->slots;
}

int
slurm_place(struct slurm *s, struct remotejob *rj, uint64_t seq,
    unsigned attempt, struct wspx__cmd *cmd)
{
	struct buf b = { NULL, 0, 0 };
	char jobid[48], cpus[16];
	size_t n = 0, i;

	snprintf(rj->name, sizeof(rj->name), "wspx.%ld.%llu.%u",
	    (long)getpid(), (unsigned long long)seq, attempt);
	snprintf(jobid, sizeof(jobid), "--jobid=%s", s->jobid);
	snprintf(cpus, sizeof(cpus), "%u", s->cpus);
#define WORD(w) (bufadd(&b, (w), strlen(w) + 1), n++)
	WORD("srun");
	WORD(jobid);
	WORD("--exact");
	WORD("-n1");
	WORD("-c");
	WORD(cpus);
	WORD("--quiet");
	WORD("-J");
	WORD(rj->name);
	WORD("--");
	/* (the program as found here: the same file system there) */
	WORD(cmd->file != NULL ? cmd->file : cmd->argv[0]);
	for (i = 1; cmd->argv[i] != NULL; i++)
		WORD(cmd->argv[i]);
#undef WORD
	free(cmd->argv);
	cmd->argv = packwords(&b, n);
	free(b.s);
	cmd->file = NULL;
	cmd->search = true;
	return 0;
}

/* The step named name of job jobid: "J.S", or "" */
static void
findstep(const struct slurm *s, const char *name, char *step, size_t len)
{
	char *argv[] = { (char *)"squeue", (char *)"-h", (char *)"-s",
		(char *)"-j", (char *)s->jobid, (char *)"-o", (char *)"%i %j",
		NULL };
	char *out, *line, *sp, *save = NULL, err[ERRLEN];

	step[0] = '\0';
	if (sidecmd_read(argv, &out, err, sizeof(err)) == 0)
		for (line = strtok_r(out, "\n", &save); line != NULL;
		    line = strtok_r(NULL, "\n", &save))
			if ((sp = strchr(line, ' ')) != NULL &&
			    strcmp(sp + 1, name) == 0) {
				*sp = '\0';
				snprintf(step, len, "%s", line);
				break;
			}
	free(out);
}

void
slurm_ended(struct slurm *s, struct remotejob *rj,
    const struct wspx__result *r)
{
	char step[64], err[ERRLEN];
	char *argv[] = { (char *)"scancel", step, NULL };

	if (r == NULL || r->killsig == 0 || rj->name[0] == '\0')
		return;
	findstep(s, rj->name, step, sizeof(step));
	if (step[0] != '\0' && sidecmd_run(argv, -1, -1, err,
	    sizeof(err)) != 0)
		warn("--slurm: scancel %s: %s", step, err);
}

const char *
slurm_hostname(const struct slurm *s)
{
	return s->host;
}

void
slurm_close(struct slurm *s)
{
	char err[ERRLEN];
	char *argv[] = { (char *)"scancel", s != NULL ? s->jobid : NULL,
		NULL };

	if (s == NULL)
		return;
	if (s->ours && sidecmd_run(argv, -1, -1, err, sizeof(err)) != 0)
		warn("--slurm: scancel %s: %s", s->jobid, err);
	free(s);
}
