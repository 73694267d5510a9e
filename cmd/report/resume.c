/*
 * Resuming from a joblog (see resume.h).  A job counts as done for
 * --resume when the joblog has any row of it, and for --resume-failed and
 * --retry-failed when one of its rows (one per attempt) shows success:
 * Exitval 0 and Signal 0.  A bit per sequence number says which are done;
 * --retry-failed keeps the last command logged for each job.
 */
#include "resume.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "exec/joblog.h"
#include "util/util.h"

/* Sequence numbers past this are refused: the bitmap would not fit. */
#define MAXSEQ	(1ull << 32)

struct resume {
	enum resumemode mode;
	unsigned char *done;	/* bit seq: done */
	unsigned char *seen;	/* bit seq: has a row (--retry-failed) */
	char **command;		/* [seq]: its last command (--retry-failed) */
	uint64_t cap;		/* bits in done and seen */
	uint64_t ndone;
	uint64_t next;		/* resume_next(): the seq to look at */
};

static bool
bit(const unsigned char *v, uint64_t cap, uint64_t i)
{
	return v != NULL && i < cap && (v[i / 8] >> (i % 8)) & 1;
}

/* Make room for seq in the maps. */
static void
grow(struct resume *r, uint64_t seq)
{
	uint64_t cap = r->cap ? r->cap : 1024;

	if (seq < r->cap)
		return;
	while (cap <= seq)
		cap *= 2;
	r->done = xrealloc(r->done, cap / 8);
	memset(r->done + r->cap / 8, 0, (cap - r->cap) / 8);
	r->seen = xrealloc(r->seen, cap / 8);
	memset(r->seen + r->cap / 8, 0, (cap - r->cap) / 8);
	if (r->mode == RETRY_FAILED) {
		r->command = xrealloc(r->command, cap * sizeof(char *));
		memset(r->command + r->cap, 0, (cap - r->cap) * sizeof(char *));
	}
	r->cap = cap;
}

static int
addrow(void *ctx, const struct wspx__joblog_row *row)
{
	struct resume *r = ctx;
	bool ok = row->exitval == 0 && row->signal == 0;

	if (row->seq >= MAXSEQ)
		return -ERANGE;
	grow(r, row->seq);
	r->seen[row->seq / 8] |= (unsigned char)(1u << (row->seq % 8));
	if ((ok || r->mode == RESUME) && !bit(r->done, r->cap, row->seq)) {
		r->done[row->seq / 8] |= (unsigned char)(1u << (row->seq % 8));
		r->ndone++;
	}
	if (r->mode == RETRY_FAILED) {
		free(r->command[row->seq]);
		r->command[row->seq] = xstrdup(row->command);
	}
	return 0;
}

struct resume *
resume_load(const char *path, enum resumemode mode, const char *opt)
{
	struct resume *r = xcalloc(1, sizeof(*r));
	size_t line;
	int rc;

	r->mode = mode;
	r->next = 1;
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
	return r;
}

bool
resume_done(const struct resume *r, uint64_t seq)
{
	return bit(r->done, r->cap, seq);
}

bool
resume_next(struct resume *r, uint64_t *seq, const char **command)
{
	for (; r->next < r->cap; r->next++) {
		if (!bit(r->seen, r->cap, r->next) ||
		    bit(r->done, r->cap, r->next))
			continue;
		*seq = r->next++;
		*command = r->command[*seq];
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
resume_free(struct resume *r)
{
	uint64_t i;

	if (r == NULL)
		return;
	for (i = 0; r->command != NULL && i < r->cap; i++)
		free(r->command[i]);
	free(r->command);
	free(r->done);
	free(r->seen);
	free(r);
}
