/*
 * Fuzz target: a job file (wspx(5)).  The input is the file's text, taken
 * as `wspx check`, `wspx list` and `wspx run --dry-run` take a jobs.yaml
 * that someone else wrote, which is where a hostile one goes first: read
 * by libyaml into a tree (base/yamldoc.c), its keys and values checked,
 * its matrices expanded into legs, its if: conditions read, its ${{ }}
 * expressions found and placed in their shell's syntax (lib/jobfile),
 * the errors sorted and written as FILE:LINE:COLUMN as the command writes
 * them.  A file that passes is then listed (cmd/graph/joblist.c), as text
 * and as --json, and each job's command is built as a dry run shows it
 * and as its up-to-date identity records it (cmd/graph/graphcmd.c), with
 * the values of its expressions quoted for its shell and a builtin's
 * with: expanded: all that the program does before the first job would
 * start, without the executor, its threads or the state file, so that
 * nothing is spawned and no file is made.
 *
 * Checks: a file refused has each error placed in it; the --json listing
 * parses, and gives back each job's name, desc and matrix; a job's name
 * picks that job (as it would on the command line and in needs:); and the
 * commands of a file that passed the checks are built without an exit
 * (the building exits only on a bug: the file was checked).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/diag.h"
#include "base/json.h"
#include "graph/graphrun.h"
#include "graph/jobfilecmd.h"
#include "graph/jobselect.h"
#include "harness.h"
#include "jobfile/jobfile.h"
#include "options/cmdline.h"
#include "options/config.h"
#include "remote/hosts.h"
#include "util/buf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The largest job file the command reads (JOBFILE_MAX of
 * cmd/graph/jobfilecmd.c): a longer one is refused before it is read. */
#define JOBFILE_MAX ((size_t)64 << 20)

/* The name the messages give the file. */
#define FILENAME "jobs.yaml"

/* The jobs whose names are looked up again: all of a small file, these
 * many spread over a large one (a lookup is linear in the jobs, and an
 * input of 4 KB can name a million legs). */
#define FINDS 64


/* NAME=value words of the command line, over the file's env:. */
static char *vars[] = { "CC=cc -O2", "WSPX_FUZZ=1" };

/* The environment wspx runs in: the same on every machine, so that an
 * input does the same wherever it is run again (the sanitizers read
 * theirs from /proc). */
extern char **environ;
static char *fixedenv[] = { "PATH=/usr/local/bin:/usr/bin:/bin",
    "HOME=/nonexistent", "CC=cc", "TMPDIR=/tmp", NULL };

/* The most line breaks libyaml can count in data: \n, \r (\r\n counted
 * twice here), and UTF-8's NEL, LS and PS. */
static size_t
breaks(const uint8_t *data, size_t size)
{
	size_t i, n = 0;

	for (i = 0; i < size; i++)
		n += data[i] == '\n' || data[i] == '\r' || (data[i] == 0xc2 &&
		    i + 1 < size && data[i + 1] == 0x85) || (data[i] == 0xe2 &&
		    i + 2 < size && data[i + 1] == 0x80 && (data[i + 2] ==
		    0xa8 || data[i + 2] == 0xa9));
	return n;
}

/* The errors of d written as load() of jobfilecmd.c writes them, each
 * checked to stand in the file. */
static void
errors(struct wspx__diag *d, const uint8_t *data, size_t size)
{
	size_t i, lines = breaks(data, size) + 1;

	wspx__diag_sort(d);
	for (i = 0; i < d->n; i++) {
		if (d->v[i].line > lines || (d->v[i].line > 0 &&
		    (d->v[i].col == 0 || d->v[i].col > size + 2)))
			fz_fail("an error at %u:%u, outside the file (%zu "
			    "lines, %zu bytes): %s", d->v[i].line,
			    d->v[i].col, lines, size, d->v[i].msg);
		fprintf(stderr, "%s:%u:%u: %s\n", FILENAME, d->v[i].line,
		    d->v[i].col, d->v[i].msg);
	}
}

/* Read and check the file, as load() does.  Returns its status. */
static int
readfile(struct wspx__jobfile *jf, const uint8_t *data, size_t size)
{
	struct wspx__diag d;
	FILE *f;
	int rc;

	/* (an empty file is a stream of no bytes, which fmemopen refuses) */
	f = size > 0 ? fmemopen((void *)data, size, "r") :
	    fopen("/dev/null", "re");
	if (f == NULL)
		abort();
	wspx__diag_init(&d, FILENAME);
	rc = wspx__jobfile_read(jf, f, &d);
	fclose(f);
	errors(&d, data, size);
	if (rc == -EINVAL && d.n == 0 && !d.nomem)
		fz_fail("the file is refused without an error saying why");
	wspx__diag_fini(&d);
	return rc;
}

/* What joblist_print() writes, in a malloc'd string (*len bytes).  In
 * the GNU C library, stdout is a variable that may be set. */
static char *
listing(const struct config *c, const struct wspx__jobfile *jf,
    size_t *len)
{
	FILE *saved = stdout, *mem;
	char *s = NULL;

	if ((mem = open_memstream(&s, len)) == NULL)
		abort();
	stdout = mem;
	joblist_print(c, jf);
	stdout = saved;
	if (fclose(mem) != 0)
		abort();
	return s;
}

/* That member key of o is the string want (NULL: JSON's null). */
static void
samestring(const struct wspx__json *o, const char *key, const char *want,
    size_t i)
{
	const char *got = wspx__json_string(o, key);

	if (want == NULL ? wspx__json_get(o, key) == NULL ||
	    wspx__json_get(o, key)->type != WSPX__JSON_NULL :
	    got == NULL || strcmp(got, want) != 0)
		fz_fail("wspx list --json: job %zu: %s is not %s", i, key,
		    want != NULL ? want : "null");
}

/* Job i of jf as --json wrote it (o): its name, desc and matrix. */
static void
samejob(const struct wspx__jobfile *jf, size_t i, const struct wspx__json *o)
{
	const struct wspx__jfjob *j = &jf->jobs[i];
	const struct wspx__json *m = wspx__json_get(o, "matrix"), *kv;
	size_t k;

	if (o->type != WSPX__JSON_OBJECT)
		fz_fail("wspx list --json: job %zu is not an object", i);
	samestring(o, "name", j->name, i);
	samestring(o, "desc", j->desc, i);
	kv = m != NULL && m->type == WSPX__JSON_OBJECT ? m->first : NULL;
	for (k = 0; k < j->nmatrix; k++, kv = kv->next)
		if (kv == NULL || strcmp(kv->key, j->mkeys[k]) != 0 ||
		    kv->type != WSPX__JSON_STRING || strcmp(kv->str,
		    j->mvals[k]) != 0)
			fz_fail("wspx list --json: job %zu: matrix key %zu "
			    "(%s) differs", i, k, j->mkeys[k]);
	if (kv != NULL)
		fz_fail("wspx list --json: job %zu: more matrix keys", i);
}

/* wspx list and wspx list --json; the JSON read back. */
static void
list(struct config *c, const struct wspx__jobfile *jf)
{
	struct wspx__arena a = { 0 };
	const struct wspx__json *v, *o;
	const char *why = NULL;
	size_t len, pos = 0, i;
	char *s;

	c->json = false;
	free(listing(c, jf, &len));
	c->json = true;
	s = listing(c, jf, &len);
	c->json = false;
	if ((v = wspx__json_read(&a, s, len, &pos, &why)) == NULL ||
	    v->type != WSPX__JSON_ARRAY)
		fz_fail("wspx list --json: not an array: %s at %zu",
		    why != NULL ? why : "not an array", pos);
	wspx__json_skipspace(s, len, &pos);
	if (pos != len)
		fz_fail("wspx list --json: more after the array, at %zu", pos);
	for (i = 0, o = v->first; i < jf->njobs; i++, o = o->next) {
		if (o == NULL)
			fz_fail("wspx list --json: %zu jobs of %zu", i,
			    jf->njobs);
		samejob(jf, i, o);
	}
	if (o != NULL)
		fz_fail("wspx list --json: more than %zu jobs", jf->njobs);
	wspx__arena_fini(&a);
	free(s);
}

/* A job that a name picked: the one looked for is marked found. */
static void
found(void *ctx, size_t i)
{
	size_t *want = ctx;

	if (i == *want)
		*want = SIZE_MAX;
}

/* Whether job i's name picks it, as wspx run FILE NAME and needs: do. */
static void
picks(const struct wspx__jobfile *jf, size_t i)
{
	size_t want = i;
	long n = wspx__jobfile_find(jf, jf->jobs[i].name, found, &want);

	if (n <= 0 || want != SIZE_MAX)
		fz_fail("job %zu, %s: its name does not pick it (%ld found)",
		    i, jf->jobs[i].name, n);
}

/* Job j's command as a dry run shows it, and its identity; a builtin's
 * with: expanded as it would run. */
static void
command(struct graphrun *gr, struct gjob *j)
{
	struct wspx__cmd cmd;
	struct buf why = { NULL, 0, 0 };

	memset(&cmd, 0, sizeof(cmd));
	/* (the directory of the outputs is known: nothing can fail) */
	if (graphcmd_prepare(gr, j, &cmd) != 0)
		fz_fail("job %s: its command cannot be made: %s",
		    gr->jf->jobs[j->index].name, j->cj.cmdtext);
	free(cmd.argv);
	free(cmd.text);
	free(graphcmd_text(gr, j));
	graphrun_skipreason(gr, j, &why);
	free(why.s);
	graphcmd_free(j);
	if (gr->jf->jobs[j->index].builtin != NULL) {
		graphcmd_bargs(gr, j);
		graphcmd_free(j);
	}
	free(j->cj.cmdtext);
	j->cj.cmdtext = NULL;
}

/* The file's hosts: into c, as graphrun() takes them; false if one is
 * not a host (the run stops there). */
static bool
hosts(struct config *c, const struct wspx__jobfile *jf)
{
	size_t i;

	for (i = 0; jf->hosts != NULL && i < jf->hosts->n; i++)
		if (hosts_add(&c->remote.hosts, jf->hosts->items[i]->str) !=
		    NULL)
			return false;
	c->remote.slurm = c->remote.slurm || jf->slurm;
	return true;
}

/* The run's selection: the last job named, with all it needs (a leg's
 * name, as the command line writes it), and the numbering of all. */
static void
pickjobs(struct graphrun *gr)
{
	const struct wspx__jobfile *jf = gr->jf;
	char *target = jf->jobs[jf->njobs - 1].name;
	uint64_t *seq = calloc(jf->njobs + 1, sizeof(*seq));
	bool *sel;
	size_t i;

	if (seq == NULL)
		abort();
	sel = jobselect_pick(jf, FILENAME, &target, 1);
	(void)jobselect_number(jf, sel, seq);
	free(sel);
	gr->nselected = jobselect_number(jf, NULL, seq);
	for (i = 0; i < jf->njobs; i++)
		gr->jobs[i].cj.ej.seq = seq[i];
	free(seq);
}

/* wspx run --dry-run: every job's command, in the file's order. */
static void
dryrun(struct config *c, struct wspx__jobfile *jf)
{
	struct graphrun gr;
	size_t i;

	memset(&gr, 0, sizeof(gr));
	c->dryrun = true;
	gr.c = c;
	gr.jf = jf;
	gr.file = FILENAME;
	gr.vars = vars;
	gr.nvars = sizeof(vars) / sizeof(vars[0]);
	gr.base = ".";
	gr.basefd = -1;
	if ((gr.jobs = calloc(jf->njobs, sizeof(*gr.jobs))) == NULL)
		abort();
	for (i = 0; i < jf->njobs; i++) {
		gr.jobs[i].index = i;
		gr.jobs[i].gr = &gr;
		gr.jobs[i].cj.name = jf->jobs[i].name;
	}
	pickjobs(&gr);
	for (i = 0; i < jf->njobs; i++)
		command(&gr, &gr.jobs[i]);
	free(gr.jobs);
}

/* Everything after the file was read and checked. */
static void
passed(struct config *c, struct wspx__jobfile *jf)
{
	size_t i, step = jf->njobs > FINDS ? jf->njobs / FINDS : 1;

	list(c, jf);
	for (i = 0; i < jf->njobs; i += step)
		picks(jf, i);
	if (hosts(c, jf))
		dryrun(c, jf);
}

/* The file read, checked, and if it passed, listed and dry-run. */
static void
jobfile(const uint8_t *data, size_t size)
{
	struct wspx__jobfile jf;
	struct config c;

	if (readfile(&jf, data, size) != 0) {
		wspx__jobfile_fini(&jf);
		return;
	}
	config_defaults(&c);
	fz_begin();
	if (setjmp(fz_jump) == 0)
		passed(&c, &jf);
	fz_done();
	if (fz_exited())
		fz_fail("a checked file made the command exit (%d)",
		    fz_status());
	config_free(&c);
	wspx__jobfile_fini(&jf);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char **saved = environ;

	if (size > JOBFILE_MAX)
		return 0;
	environ = fixedenv;
	jobfile(data, size);
	environ = saved;
	return 0;
}
