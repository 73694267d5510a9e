/*
 * The jobs a run of a job file takes (see jobselect.h): a target's job
 * and, through the graph of needs, every job it needs; numbered in a
 * topological order that keeps the file's order wherever the needs let
 * it.
 */
#include "jobselect.h"

#include <stdlib.h>

#include "jobfile/jobfile.h"
#include "runtime/graph.h"
#include "util/util.h"

static void
pick(void *ctx, size_t i)
{
	bool *selected = ctx;

	selected[i] = true;
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
			fatal("%s: no job %s%s", file, targets[i], found < 0 ?
			    " (a leg is named job[key=value,...])" : "");
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
