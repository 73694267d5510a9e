/*
 * The jobs a run of a job file takes (see jobselect.h): a target's job
 * and, through the graph of needs, every job it needs; numbered in a
 * topological order that keeps the file's order wherever the needs let
 * it; the jobs an earlier run's joblog shows done, for --resume and
 * its kin.
 */
#include "jobselect.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "exec/joblog.h"
#include "jobfile/jobfile.h"
#include "runtime/graph.h"
#include "util/util.h"

static void
pick(void *ctx, size_t i)
{
	bool *selected = ctx;

	selected[i] = true;
}

/* "no job tset (did you mean test?)": the nearest of the jobs' names and
 * their matrices' names (a leg's name up to its [). */
static void
nojob(const struct wspx__jobfile *jf, const char *file, const char *name,
    long found)
{
	const char **names = xcalloc(jf->njobs + 1, sizeof(*names)), *near;
	char **owned = xcalloc(jf->njobs + 1, sizeof(*owned)), *hint = NULL;
	const char *br;
	size_t i, n = 0, nown = 0;

	for (i = 0; i < jf->njobs; i++) {
		br = strchr(jf->jobs[i].name, '[');
		if (br == NULL) {
			names[n++] = jf->jobs[i].name;
			continue;
		}
		/* (a matrix's legs are in a row: its name once) */
		if (nown > 0 && strncmp(owned[nown - 1], jf->jobs[i].name,
		    (size_t)(br - jf->jobs[i].name)) == 0 &&
		    owned[nown - 1][br - jf->jobs[i].name] == '\0')
			continue;
		owned[nown] = xcalloc(1, (size_t)(br - jf->jobs[i].name) + 1);
		memcpy(owned[nown], jf->jobs[i].name, (size_t)(br -
		    jf->jobs[i].name));
		names[n++] = owned[nown++];
	}
	if ((near = wspx__diag_nearest(name, names, n)) != NULL)
		hint = xstrdup(near);
	/* (freed before the exit: a leak checker would fail it) */
	while (nown > 0)
		free(owned[--nown]);
	free(owned);
	free(names);
	if (hint != NULL)
		fatal("%s: no job %s (did you mean %s?)", file, name, hint);
	fatal("%s: no job %s%s", file, name, found < 0 ?
	    " (a leg is named job[key=value,...])" : "");
}

bool *
jobselect_pick(const struct wspx__jobfile *jf, const char *file,
    char **targets, size_t n)
{
	const struct wspx__jfjob *jj;
	size_t *stack, top = 0, i, k;
	bool *sel;
	long found;

	if (n == 0)
		return NULL;
	sel = xcalloc(jf->njobs, sizeof(bool));
	for (i = 0; i < n; i++)
		if ((found = wspx__jobfile_find(jf, targets[i], pick, sel)) <= 0)
			nojob(jf, file, targets[i], found);
	/* what they need, with a stack: no recursion for a deep chain */
	stack = xmalloc(jf->njobs * sizeof(*stack));
	for (i = 0; i < jf->njobs; i++)
		if (sel[i])
			stack[top++] = i;
	while (top > 0) {
		jj = &jf->jobs[stack[--top]];
		for (k = 0; k < jj->nneeds; k++)
			if (!sel[jj->needs[k]]) {
				sel[jj->needs[k]] = true;
				stack[top++] = jj->needs[k];
			}
	}
	free(stack);
	return sel;
}

static size_t
needsof(void *ctx, size_t i, const size_t **v)
{
	const struct wspx__jobfile *jf = ctx;

	*v = jf->jobs[i].needs;
	return jf->jobs[i].nneeds;
}

size_t
jobselect_number(const struct wspx__jobfile *jf, const bool *selected,
    uint64_t *seq)
{
	static const struct wspx__graph_ops ops = { needsof, NULL };
	size_t *order = xmalloc((jf->njobs + 1) * sizeof(*order));
	size_t i;
	uint64_t n = 0;

	if (wspx__graph_order(jf->njobs, &ops, (void *)jf, order) != 0)
		fatal("out of memory");
	for (i = 0; i < jf->njobs; i++)
		if (selected == NULL || selected[order[i]])
			seq[order[i]] = ++n;
	free(order);
	return (size_t)n;
}

/* --resume, --resume-failed and --retry-failed (see jobselect.h): the
 * joblog of an earlier run names each job in its Command column, so its
 * rows are found again by name, whatever the sequence numbers are now. */
struct rows {
	const struct wspx__jobfile *jf;
	size_t *byname;		/* job indices sorted by name */
	bool *seen, *ok;	/* a row; a row that succeeded */
};

static const struct wspx__jobfile *sortjf;	/* (qsort has no ctx) */

static int
byname(const void *a, const void *b)
{
	return strcmp(sortjf->jobs[*(const size_t *)a].name,
	    sortjf->jobs[*(const size_t *)b].name);
}

/* The index of the job named name, or -1. */
static long
findname(const struct rows *r, const char *name)
{
	size_t lo = 0, hi = r->jf->njobs, mid;
	int c;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		c = strcmp(name, r->jf->jobs[r->byname[mid]].name);
		if (c == 0)
			return (long)r->byname[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return -1;
}

/* A row of the joblog: its job, if the file still has one of that
 * name (a job since renamed or removed is no longer done). */
static int
addrow(void *ctx, const struct wspx__joblog_row *row)
{
	struct rows *r = ctx;
	long i = findname(r, row->command);

	if (i < 0)
		return 0;
	r->seen[i] = true;
	r->ok[i] |= row->exitval == 0 && row->signal == 0;
	return 0;
}

/* --retry-failed: done is every job but those that failed and what
 * needs them, in a topological order (each job after its needs). */
static void
retryfailed(const struct wspx__jobfile *jf, const struct rows *r,
    bool *done)
{
	static const struct wspx__graph_ops ops = { needsof, NULL };
	size_t *order = xmalloc((jf->njobs + 1) * sizeof(*order)), i, k, j;
	bool again;

	if (wspx__graph_order(jf->njobs, &ops, (void *)jf, order) != 0)
		fatal("out of memory");
	for (k = 0; k < jf->njobs; k++) {
		j = order[k];
		again = r->seen[j] && !r->ok[j];
		for (i = 0; i < jf->jobs[j].nneeds && !again; i++)
			again = !done[jf->jobs[j].needs[i]];
		done[j] = !again;
	}
	free(order);
}

bool *
jobselect_resumed(const struct wspx__jobfile *jf, const char *path,
    enum resumemode mode, const char *opt)
{
	struct rows r;
	bool *done = xcalloc(jf->njobs + 1, sizeof(*done));
	size_t i, line;
	int rc;

	r.jf = jf;
	r.byname = xmalloc((jf->njobs + 1) * sizeof(*r.byname));
	r.seen = xcalloc(jf->njobs + 1, sizeof(bool));
	r.ok = xcalloc(jf->njobs + 1, sizeof(bool));
	for (i = 0; i < jf->njobs; i++)
		r.byname[i] = i;
	sortjf = jf;
	qsort(r.byname, jf->njobs, sizeof(*r.byname), byname);
	rc = wspx__joblog_read(path, addrow, &r, &line);
	if (rc == 0 && mode == RETRY_FAILED)
		retryfailed(jf, &r, done);
	else
		for (i = 0; rc == 0 && i < jf->njobs; i++)
			done[i] = mode == RESUME ? r.seen[i] : r.ok[i];
	free(r.byname);
	free(r.seen);
	free(r.ok);
	if (rc != 0)
		free(done);
	if (rc == -EINVAL)
		fatal("%s: %s:%zu: not a joblog %s", opt, path, line, line ==
		    1 ? "header" : "row");
	else if (rc != 0)
		fatal("%s: cannot read the joblog %s: %s", opt, path,
		    strerror(-rc));
	return done;
}
