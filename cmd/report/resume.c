/*
 * Resuming from a joblog (see resume.h).  A job counts as done for
 * --resume when the joblog has any row of it, and for --resume-failed and
 * --retry-failed when one of its rows (one per attempt) shows success:
 * Exitval 0 and Signal 0.  The rows are kept as they are read, then
 * sorted by sequence number and merged into one entry per job, looked up
 * by binary search: what a joblog costs is in proportion to its rows,
 * whatever numbers they hold (a map indexed by sequence number would
 * take gigabytes for a single row of job 4000000000).  --retry-failed
 * keeps the last command logged for each job.
 */
#include "resume.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "exec/joblog.h"
#include "util/util.h"

/* Sequence numbers past this are refused: no run numbers its jobs so
 * far, so such a row is a damaged file's. */
#define MAXSEQ	(1ull << 32)

/* A job of the joblog: while reading, a row of it. */
struct logged {
	uint64_t seq;
	size_t row;		/* the row's place in the file: the later
				 * row's command is the job's */
	bool done;
	char *command;		/* its last command (--retry-failed) */
};

struct resume {
	enum resumemode mode;
	struct logged *v;	/* by seq once loaded, one per job */
	size_t n, cap;
	uint64_t ndone;
	size_t next;		/* resume_next(): the entry to look at */
};

static int
addrow(void *ctx, const struct wspx__joblog_row *row)
{
	struct resume *r = ctx;
	struct logged *l;

	if (row->seq >= MAXSEQ)
		return -ERANGE;
	if (r->n == r->cap) {
		r->cap = r->cap != 0 ? r->cap * 2 : 256;
		r->v = xrealloc(r->v, r->cap * sizeof(*r->v));
	}
	l = &r->v[r->n];
	l->seq = row->seq;
	l->row = r->n++;
	l->done = r->mode == RESUME || (row->exitval == 0 &&
	    row->signal == 0);
	l->command = r->mode == RETRY_FAILED ? xstrdup(row->command) : NULL;
	return 0;
}

static int
byjob(const void *a, const void *b)
{
	const struct logged *x = a, *y = b;

	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* By job, then in the order of the file. */
static int
byrow(const void *a, const void *b)
{
	const struct logged *x = a, *y = b;
	int c = byjob(a, b);

	return c != 0 ? c : (x->row > y->row) - (x->row < y->row);
}

/* The rows, sorted, into one entry per job: done if any row is, with
 * the last row's command. */
static void
merge(struct resume *r)
{
	size_t i, k = 0;

	if (r->n > 0)
		qsort(r->v, r->n, sizeof(*r->v), byrow);
	for (i = 0; i < r->n; i++) {
		if (k > 0 && r->v[k - 1].seq == r->v[i].seq) {
			r->v[k - 1].done = r->v[k - 1].done || r->v[i].done;
			free(r->v[k - 1].command);
			r->v[k - 1].command = r->v[i].command;
			continue;
		}
		r->v[k++] = r->v[i];
	}
	r->n = k;
	for (i = 0; i < r->n; i++)
		r->ndone += r->v[i].done;
}

struct resume *
resume_load(const char *path, enum resumemode mode, const char *opt)
{
	struct resume *r = xcalloc(1, sizeof(*r));
	size_t line;
	int rc;

	r->mode = mode;
	if ((rc = wspx__joblog_read(path, addrow, r, &line)) == -EINVAL)
		fatal("%s: %s:%zu: not a joblog %s (as --joblog writes: "
		    "Seq Host Starttime JobRuntime Send Receive Exitval "
		    "Signal Command, tab-separated)", opt, path, line,
		    line == 1 ? "header" : "row");
	else if (rc == -ERANGE)
		fatal("%s: %s:%zu: sequence number too large", opt, path,
		    line);
	else if (rc != 0)
		fatal("%s: cannot read the joblog %s: %s", opt, path,
		    strerror(-rc));
	merge(r);
	return r;
}

bool
resume_done(const struct resume *r, uint64_t seq)
{
	struct logged key = { .seq = seq };
	const struct logged *l = r->n > 0 ? bsearch(&key, r->v, r->n,
	    sizeof(*r->v), byjob) : NULL;

	return l != NULL && l->done;
}

bool
resume_next(struct resume *r, uint64_t *seq, const char **command)
{
	for (; r->next < r->n; r->next++) {
		if (r->v[r->next].done)
			continue;
		*seq = r->v[r->next].seq;
		*command = r->v[r->next++].command;
		return true;
	}
	return false;
}

uint64_t
resume_ndone(const struct resume *r)
{
	return r->ndone;
}

const char *
resume_option(enum resumemode m)
{
	return m == RESUME ? "--resume" : m == RESUME_FAILED ?
	    "--resume-failed" : "--retry-failed";
}

void
resume_needs_joblog(enum resumemode m, const char *joblog)
{
	if (m != RESUME_NONE && joblog == NULL)
		badusage("%s needs --joblog FILE: the joblog of the run to "
		    "resume", resume_option(m));
	if (m != RESUME_NONE && strcmp(joblog, "-") == 0)
		badusage("%s needs --joblog FILE: --joblog - writes the "
		    "joblog to standard output, with no file to resume from",
		    resume_option(m));
}

void
resume_free(struct resume *r)
{
	size_t i;

	if (r == NULL)
		return;
	for (i = 0; i < r->n; i++)
		free(r->v[i].command);
	free(r->v);
	free(r);
}
