/*
 * wspx list: the jobs of a job file, one a line in the file's order (a
 * matrix's legs each), with their desc: aligned after the names when any
 * job has one, as go-task's and just's --list print them; --json gives
 * each job's name, desc, needs and matrix values, for scripts.
 */
#include "jobfilecmd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jobfile/jobfile.h"
#include "util/buf.h"
#include "util/util.h"

#define NAME_COLUMN_MAX	40	/* a longer name pushes its desc along */

/* The names, and the descs in a column after the longest name. */
static void
listtext(const struct wspx__jobfile *jf)
{
	size_t i, w = 0, n;
	bool descs = false;

	for (i = 0; i < jf->njobs; i++) {
		n = strlen(jf->jobs[i].name);
		if (n > w && n <= NAME_COLUMN_MAX)
			w = n;
		descs |= jf->jobs[i].desc != NULL;
	}
	for (i = 0; i < jf->njobs; i++) {
		if (!descs || jf->jobs[i].desc == NULL)
			puts(jf->jobs[i].name);
		else
			printf("%-*s  %s\n", (int)w, jf->jobs[i].name,
			    jf->jobs[i].desc);
	}
}

/* One job as a JSON object. */
static void
jobjson(const struct wspx__jobfile *jf, const struct wspx__jfjob *j,
    struct buf *b)
{
	size_t k;

	bufadds(b, "{\"name\": ");
	bufjson(b, j->name);
	bufadds(b, ", \"desc\": ");
	if (j->desc != NULL)
		bufjson(b, j->desc);
	else
		bufadds(b, "null");
	bufadds(b, ", \"needs\": [");
	for (k = 0; k < j->nneeds; k++) {
		bufadds(b, k > 0 ? ", " : "");
		bufjson(b, jf->jobs[j->needs[k]].name);
	}
	bufadds(b, "], \"matrix\": {");
	for (k = 0; k < j->nmatrix; k++) {
		bufadds(b, k > 0 ? ", " : "");
		bufjson(b, j->mkeys[k]);
		bufadds(b, ": ");
		bufjson(b, j->mvals[k]);
	}
	bufadds(b, "}}");
}

void
joblist_print(const struct config *c, const struct wspx__jobfile *jf)
{
	struct buf b = { NULL, 0, 0 };
	size_t i;

	if (!c->json) {
		listtext(jf);
		return;
	}
	/* (an array, one job a line: readable, and parsed whole) */
	bufaddc(&b, '[');
	for (i = 0; i < jf->njobs; i++) {
		bufadds(&b, i > 0 ? ",\n " : "");
		jobjson(jf, &jf->jobs[i], &b);
		fputs(b.s, stdout);
		b.len = 0;
		b.s[0] = '\0';
	}
	bufadds(&b, "]\n");
	fputs(b.s, stdout);
	free(b.s);
}
