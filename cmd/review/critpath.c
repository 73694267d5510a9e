/*
 * The critical path (see critpath.h): the jobs by name, sorted for
 * bsearch; the longest path over their needs by a depth-first walk with
 * a stack of its own (a chain of 100,000 jobs must not overflow the
 * C stack); then back from the job whose path is longest.
 */
#include "critpath.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

struct job {
	const char *name;
	double start, end;
	const struct span *sp;	/* an attempt of its, for its needs */
	double path;		/* its time and its longest chain of needs' */
	size_t via;		/* the need on that chain, or SIZE_MAX */
	int state;		/* 0 new, 1 on the stack, 2 done */
	size_t next;		/* on the stack: its next need to look at */
};

static int
byname(const void *a, const void *b)
{
	return strcmp(((const struct job *)a)->name,
	    ((const struct job *)b)->name);
}

/* rl's jobs, one per name, sorted by name; *n of them. */
static struct job *
jobsof(const struct runlog *rl, size_t *n)
{
	struct job *j = xcalloc(rl->nspans + 1, sizeof(*j));
	size_t i, k = 0;

	for (i = 0; i < rl->nspans; i++) {
		j[i].name = rl->spans[i].name;
		j[i].start = rl->spans[i].start;
		j[i].end = rl->spans[i].end;
		j[i].sp = &rl->spans[i];
	}
	if (rl->nspans > 0)
		qsort(j, rl->nspans, sizeof(*j), byname);
	for (i = 0; i < rl->nspans; i++) {
		if (k > 0 && strcmp(j[k - 1].name, j[i].name) == 0) {
			if (j[i].start < j[k - 1].start)
				j[k - 1].start = j[i].start;
			if (j[i].end > j[k - 1].end)
				j[k - 1].end = j[i].end;
			continue;
		}
		j[k++] = j[i];
	}
	for (i = 0; i < k; i++)
		j[i].via = SIZE_MAX;
	*n = k;
	return j;
}

/* The index of the job named name, or SIZE_MAX (a job that did not run:
 * skipped, or not selected). */
static size_t
find(const struct job *j, size_t n, const char *name)
{
	struct job key = { 0 };
	const struct job *f;

	key.name = name;
	f = bsearch(&key, j, n, sizeof(*j), byname);
	return f != NULL ? (size_t)(f - j) : SIZE_MAX;
}

/* j[at]'s path from its needs' (done); a need on the stack (a cycle,
 * which a checked job file has not) counts as none. */
static void
settle(struct job *j, size_t n, size_t at)
{
	size_t k, d;

	j[at].path = j[at].end - j[at].start;
	for (k = 0; k < j[at].sp->nneeds; k++) {
		d = find(j, n, j[at].sp->needs[k]);
		if (d == SIZE_MAX || j[d].state != 2)
			continue;
		if (j[at].via == SIZE_MAX || j[d].path > j[j[at].via].path)
			j[at].via = d;
	}
	if (j[at].via != SIZE_MAX)
		j[at].path += j[j[at].via].path;
	j[at].state = 2;
}

/* Every job's path, depth first from each. */
static void
walk(struct job *j, size_t n)
{
	size_t *stack = xmalloc((n + 1) * sizeof(*stack)), top, i, k, d;
	bool pushed;

	for (i = 0; i < n; i++) {
		if (j[i].state != 0)
			continue;
		top = 0;
		stack[top++] = i;
		j[i].state = 1;
		while (top > 0) {
			size_t at = stack[top - 1];

			/* (each need looked at once: a job of 30,000 needs
			 * is not walked 30,000 times) */
			pushed = false;
			while ((k = j[at].next) < j[at].sp->nneeds && !pushed) {
				j[at].next++;
				d = find(j, n, j[at].sp->needs[k]);
				if (d != SIZE_MAX && j[d].state == 0) {
					j[d].state = 1;
					stack[top++] = d;
					pushed = true;
				}
			}
			if (!pushed) {
				settle(j, n, at);
				top--;
			}
		}
	}
	free(stack);
}

struct critjob *
critpath_find(const struct runlog *rl, size_t *n)
{
	struct critjob *path;
	struct job *j;
	size_t nj, i, last = SIZE_MAX, len = 0;

	*n = 0;
	if (!rl->needs || rl->nspans == 0)
		return NULL;
	j = jobsof(rl, &nj);
	walk(j, nj);
	for (i = 0; i < nj; i++)
		if (last == SIZE_MAX || j[i].path > j[last].path ||
		    (j[i].path == j[last].path && j[i].end > j[last].end))
			last = i;
	for (i = last; i != SIZE_MAX; i = j[i].via)
		len++;
	path = xcalloc(len, sizeof(*path));
	*n = len;
	for (i = last; i != SIZE_MAX; i = j[i].via) {
		path[--len].name = j[i].name;
		path[len].start = j[i].start;
		path[len].end = j[i].end;
	}
	free(j);
	return path;
}

static int
bystring(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

const char **
critpath_names(const struct critjob *path, size_t n)
{
	const char **names = xcalloc(n + 1, sizeof(*names));
	size_t i;

	for (i = 0; i < n; i++)
		names[i] = path[i].name;
	if (n > 0)
		qsort(names, n, sizeof(*names), bystring);
	return names;
}

int
critpath_has(const char *const *names, size_t n, const char *name)
{
	return n > 0 && bsearch(&name, names, n, sizeof(*names),
	    bystring) != NULL;
}
