/*
 * Reading a job file (see jobfile.h): the keys of the file, of defaults
 * and of each job, each value checked for its type where it is, every
 * error kept; then the jobs' matrices expanded into legs (matrix.c), and
 * needs, expressions, hosts and cycles checked (jobcheck.c).  (Past 600
 * lines: it is the one reader of the file's keys, each a few lines.)
 *
 * The jobs' strings and arrays come from one arena (mem, base/arena.h), freed
 * at once with the YAML tree; a 100,000-job file makes no 100,000 mallocs
 * to free.
 */
#include "jobfile.h"

#include <errno.h>
#include <stdalign.h>
#include <stdlib.h>
#include <string.h>

#include "base/duration.h"
#include "base/shellname.h"
#include "builtins/builtin.h"
#include "jobfile_int.h"
#include "matrix.h"

static const char *const topkeys[] = { "env", "defaults", "pools", "jobs",
    "hosts", "executor" };
static const char *const defkeys[] = { "shell", "dir", "timeout",
    "retries", "env" };
static const char *const jobkeys[] = { "run", "builtin", "with", "needs",
    "env", "dir", "shell", "timeout", "retries", "pool", "if",
    "continue-on-error", "matrix", "sources", "generates", "outputs",
    "on", "desc" };
#define NKEYS(a) (sizeof(a) / sizeof((a)[0]))

/* What the defaults: mapping (and the file's env) give every job. */
struct defaults {
	const struct wspx__ynode *env, *jobenv, *dir;
	const char *shell;
	const struct wspx__ynode *shellnode;
	double timeout;
	int retries;
};

/* Check that every key of mapping m is one of keys[]; errors name the
 * nearest known key. */
static void
knownkeys(const struct wspx__ynode *m, const char *const *keys, size_t n,
    const char *where, struct wspx__diag *d)
{
	const struct wspx__ynode *k;
	const char *near;
	size_t i, j;

	for (i = 0; i < m->n; i++) {
		k = m->items[2 * i];
		for (j = 0; j < n && strcmp(k->str, keys[j]) != 0; j++)
			;
		if (j < n)
			continue;
		near = wspx__diag_nearest(k->str, keys, n);
		if (near != NULL)
			wspx__diag_add(d, k->line, k->col, "unknown key '%s' "
			    "in %s (did you mean '%s'?)", k->str, where, near);
		else
			wspx__diag_add(d, k->line, k->col, "unknown key '%s' "
			    "in %s", k->str, where);
	}
}

static bool
isnull(const struct wspx__ynode *v)
{
	return v->kind == WSPX__YSCALAR && v->plain && (v->len == 0 ||
	    strcmp(v->str, "null") == 0 || strcmp(v->str, "~") == 0);
}

/* The value of key in m, NULL if absent or null. */
static const struct wspx__ynode *
get(const struct wspx__ynode *m, const char *key)
{
	const struct wspx__ynode *v = wspx__yamldoc_get(m, key);

	return v == NULL || isnull(v) ? NULL : v;
}

static bool
wantkind(const struct wspx__ynode *v, enum wspx__ykind kind,
    const char *what, struct wspx__diag *d)
{
	static const char *const names[] = { "a string", "a list",
	    "a mapping" };

	if (v->kind == kind)
		return true;
	wspx__diag_add(d, v->line, v->col, "%s needs %s, not %s", what,
	    names[kind], names[v->kind]);
	return false;
}

/* A shell: one whose language wspx knows, named without arguments (a
 * job's values are written for its language; -e is added by wspx). */
static bool
wantshell(const struct wspx__ynode *v, struct wspx__diag *d)
{
	enum wspx__shlang lang;

	if (!wantkind(v, WSPX__YSCALAR, "shell", d))
		return false;
	if (v->len != strlen(v->str) || strpbrk(v->str, " \t\n") != NULL) {
		wspx__diag_add(d, v->line, v->col, "shell needs a program, "
		    "without arguments (wspx runs it as SHELL -e -c "
		    "COMMAND): '%.40s'", v->str);
		return false;
	}
	if (wspx__shellname_lang(v->str, &lang) != 0) {
		wspx__diag_add(d, v->line, v->col, "shell: '%.40s' is not a "
		    "shell wspx writes commands for (%s)", v->str,
		    wspx__shellname_known());
		return false;
	}
	return true;
}

/* Whether v is a scalar, or a list of scalars. */
static bool
strings(const struct wspx__ynode *v)
{
	size_t i;

	if (v->kind == WSPX__YSCALAR)
		return true;
	for (i = 0; v->kind == WSPX__YSEQ && i < v->n; i++)
		if (v->items[i]->kind != WSPX__YSCALAR)
			return false;
	return v->kind == WSPX__YSEQ;
}

/* A scalar, or a list of scalars. */
static bool
wantstrings(const struct wspx__ynode *v, const char *what,
    struct wspx__diag *d)
{
	size_t i;
	bool ok = true;

	if (v->kind == WSPX__YSCALAR)
		return true;
	if (!wantkind(v, WSPX__YSEQ, what, d))
		return false;
	for (i = 0; i < v->n; i++)
		if (v->items[i]->kind != WSPX__YSCALAR) {
			wspx__diag_add(d, v->items[i]->line, v->items[i]->col,
			    "each item of %s needs to be a string, not a %s",
			    what, v->items[i]->kind == WSPX__YSEQ ? "list" :
			    "mapping");
			ok = false;
		}
	return ok;
}

static bool
wantbool(const struct wspx__ynode *v, const char *what, bool *out,
    struct wspx__diag *d)
{
	/* (YAML's core schema: true, True, TRUE and the like) */
	if (v->kind == WSPX__YSCALAR && (strcmp(v->str, "true") == 0 ||
	    strcmp(v->str, "True") == 0 || strcmp(v->str, "TRUE") == 0))
		*out = true;
	else if (v->kind == WSPX__YSCALAR && (strcmp(v->str, "false") == 0 ||
	    strcmp(v->str, "False") == 0 || strcmp(v->str, "FALSE") == 0))
		*out = false;
	else {
		wspx__diag_add(d, v->line, v->col, "%s needs true or false",
		    what);
		return false;
	}
	return true;
}

/* A whole number from lo to hi. */
static bool
wantint(const struct wspx__ynode *v, const char *what, long lo, long hi,
    long *out, struct wspx__diag *d)
{
	char *end;

	errno = 0;
	/* (digits only: strtol() would take " 5" but not "5 ") */
	if (v->kind == WSPX__YSCALAR && v->len > 0 && v->str[0] >= '0' &&
	    v->str[0] <= '9' && (*out = strtol(v->str, &end, 10), *end ==
	    '\0') && errno == 0 && *out >= lo && *out <= hi)
		return true;
	wspx__diag_add(d, v->line, v->col, "%s needs a whole number from %ld "
	    "to %ld", what, lo, hi);
	return false;
}

static bool
wantduration(const struct wspx__ynode *v, const char *what, double *out,
    struct wspx__diag *d)
{
	const char *why = WSPX__NOT_DURATION;

	if (v->kind == WSPX__YSCALAR && wspx__duration_parse(v->str, out,
	    &why))
		return true;
	wspx__diag_add(d, v->line, v->col, "%s: '%s' %s", what,
	    v->kind == WSPX__YSCALAR ? v->str : "...", why);
	return false;
}

/* Whether s[0..n) is a name for an environment variable, as the shells
 * take them: letters, digits and '_', not starting with a digit. */
static bool
envname(const char *s, size_t n)
{
	size_t i;

	if (n == 0 || (s[0] >= '0' && s[0] <= '9'))
		return false;
	for (i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <=
		    'Z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
			return false;
	return true;
}

/* A mapping of names to scalars, as env: is. */
static bool
wantenv(const struct wspx__ynode *v, struct wspx__diag *d)
{
	const struct wspx__ynode *k;
	size_t i;
	bool ok = true;

	if (!wantkind(v, WSPX__YMAP, "env", d))
		return false;
	for (i = 0; i < v->n; i++) {
		k = v->items[2 * i];
		if (!envname(k->str, k->len)) {
			wspx__diag_add(d, k->line, k->col, "'%s' is not a "
			    "name for an environment variable", k->str);
			ok = false;
		}
		if (v->items[2 * i + 1]->kind != WSPX__YSCALAR) {
			wspx__diag_add(d, v->items[2 * i + 1]->line,
			    v->items[2 * i + 1]->col, "the value of %s needs "
			    "to be a string", k->str);
			ok = false;
		}
	}
	return ok;
}

static void
readdefaults(const struct wspx__ynode *m, struct defaults *df,
    struct wspx__diag *d)
{
	const struct wspx__ynode *v;
	long n;

	if (!wantkind(m, WSPX__YMAP, "defaults", d))
		return;
	knownkeys(m, defkeys, NKEYS(defkeys), "defaults", d);
	if ((v = get(m, "shell")) != NULL && wantshell(v, d)) {
		df->shell = v->str;
		df->shellnode = v;
	}
	if ((v = get(m, "dir")) != NULL && wantkind(v, WSPX__YSCALAR, "dir",
	    d))
		df->dir = v;
	if ((v = get(m, "timeout")) != NULL)
		wantduration(v, "timeout", &df->timeout, d);
	if ((v = get(m, "retries")) != NULL && wantint(v, "retries", 0, 1000,
	    &n, d))
		df->retries = (int)n;
	if ((v = get(m, "env")) != NULL && wantenv(v, d))
		df->jobenv = v;
}

static void
readpools(struct wspx__jobfile *jf, const struct wspx__ynode *m,
    struct wspx__diag *d)
{
	size_t i;
	long depth;

	if (!wantkind(m, WSPX__YMAP, "pools", d))
		return;
	jf->pools = wspx__arena_alloc(&jf->mem, (m->n + 1) *
	    sizeof(*jf->pools), alignof(struct wspx__jfpool));
	if (jf->pools == NULL)
		return;
	for (i = 0; i < m->n; i++) {
		if (!wantint(m->items[2 * i + 1], "a pool's depth", 1, 1000000,
		    &depth, d))
			continue;
		jf->pools[jf->npools].name = m->items[2 * i]->str;
		jf->pools[jf->npools++].depth = (unsigned)depth;
	}
}

/* hosts: (a list of -S's [N/]SPEC, read by the command) and executor:
 * (local or slurm). */
static void
readplaces(struct wspx__jobfile *jf, const struct wspx__ynode *root,
    struct wspx__diag *d)
{
	const struct wspx__ynode *v;

	if ((v = get(root, "hosts")) != NULL && wantkind(v, WSPX__YSEQ,
	    "hosts", d) && wantstrings(v, "hosts", d))
		jf->hosts = v;
	if ((v = get(root, "executor")) == NULL || !wantkind(v,
	    WSPX__YSCALAR, "executor", d))
		return;
	if (strcmp(v->str, "slurm") == 0)
		jf->slurm = true;
	else if (strcmp(v->str, "local") != 0)
		wspx__diag_add(d, v->line, v->col, "executor: is local or "
		    "slurm, not '%s'", v->str);
	if (jf->slurm && jf->hosts != NULL)
		wspx__diag_add(d, v->line, v->col, "executor: slurm and "
		    "hosts: do not go together: jobs run on the hosts or as "
		    "Slurm steps");
}

/* Whether name is a job name: letters, digits, '_', '-' and '.', not
 * starting with '-' or '.' (a name goes on command lines and in
 * needs: test[opt=O2] picks a leg). */
static bool
goodname(const char *s, size_t n)
{
	size_t i;

	if (n == 0 || s[0] == '-' || s[0] == '.')
		return false;
	for (i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <=
		    'Z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '_' ||
		    s[i] == '-' || s[i] == '.'))
			return false;
	return true;
}

/* The settings of job key k (mapping m) that all its legs share, into
 * j; errors to d. */
static void
readjob(struct wspx__jobfile *jf, const struct wspx__ynode *m,
    const struct defaults *df, struct wspx__jfjob *j, struct wspx__diag *d)
{
	const struct wspx__ynode *v;
	long n;
	size_t i;

	knownkeys(m, jobkeys, NKEYS(jobkeys), "a job", d);
	j->timeout = df->timeout;
	j->retries = df->retries;
	j->dir = df->dir;
	j->shell = df->shell;
	j->shellnode = df->shellnode;
	j->pool = -1;
	j->ifmask = WSPX__IF_SUCCESS;
	if ((v = get(m, "run")) != NULL && wantstrings(v, "run", d))
		j->run = v;
	if ((v = get(m, "builtin")) != NULL && wantkind(v, WSPX__YSCALAR,
	    "builtin", d))
		j->builtin = v->str;
	if ((v = get(m, "with")) != NULL && wantkind(v, WSPX__YMAP, "with", d))
		j->with = v;
	if ((v = get(m, "dir")) != NULL && wantkind(v, WSPX__YSCALAR, "dir", d))
		j->dir = v;
	if ((v = get(m, "shell")) != NULL && wantshell(v, d)) {
		j->shell = v->str;
		j->shellnode = v;
	}
	if ((v = get(m, "timeout")) != NULL)
		wantduration(v, "timeout", &j->timeout, d);
	if ((v = get(m, "retries")) != NULL && wantint(v, "retries", 0, 1000,
	    &n, d))
		j->retries = (int)n;
	if ((v = get(m, "if")) != NULL && wspx__jobfile_cond(v, &j->ifmask,
	    d))
		j->ifnode = v;
	j->ifalways = (j->ifmask & WSPX__IF_CANCELLED) != 0;
	if ((v = get(m, "continue-on-error")) != NULL)
		wantbool(v, "continue-on-error", &j->continue_on_error, d);
	if ((v = get(m, "sources")) != NULL && wantstrings(v, "sources", d))
		j->sources = v;
	if ((v = get(m, "generates")) != NULL && wantstrings(v, "generates",
	    d))
		j->generates = v;
	if ((v = get(m, "outputs")) != NULL && wantstrings(v, "outputs", d))
		j->outputs = v;
	if ((v = get(m, "needs")) != NULL)
		wantstrings(v, "needs", d);
	if ((v = get(m, "on")) != NULL && wantkind(v, WSPX__YSCALAR, "on", d))
		j->on = v;
	if ((v = get(m, "desc")) != NULL && wantkind(v, WSPX__YSCALAR, "desc",
	    d))
		j->desc = v->str;
	if ((v = get(m, "pool")) != NULL && wantkind(v, WSPX__YSCALAR, "pool",
	    d)) {
		for (i = 0; i < jf->npools && strcmp(jf->pools[i].name,
		    v->str) != 0; i++)
			;
		if (i < jf->npools)
			j->pool = (int)i;
		else
			wspx__diag_add(d, v->line, v->col, "pool '%s' is not "
			    "in pools:", v->str);
	}
}

/* The builtin or run of job j, at its key k. */
static void
checkaction(const struct wspx__ynode *k, const struct wspx__ynode *m,
    struct wspx__jfjob *j, struct wspx__diag *d)
{
	const struct wspx__ynode *b = get(m, "builtin");
	const char *const *names;
	const char *near;
	size_t n;

	const struct wspx__ynode *r = get(m, "run"), *t;

	if (r != NULL && b != NULL)
		wspx__diag_add(d, b->line, b->col, "a job has run or builtin, "
		    "not both");
	else if (r == NULL && b == NULL)
		wspx__diag_add(d, k->line, k->col, "job '%s' has neither run "
		    "nor builtin (builtin: noop makes a group)", k->str);
	else if (j->with != NULL && b == NULL)
		wspx__diag_add(d, j->with->line, j->with->col, "with is for "
		    "a builtin, and job '%s' has none", k->str);
	if (j->builtin == NULL)
		return;
	/* (a builtin runs once, in the process: nothing to time out or
	 * retry; wait-for has a timeout of its own) */
	if ((t = get(m, "timeout")) != NULL || (t = get(m, "retries")) !=
	    NULL)
		wspx__diag_add(d, t->line, t->col, "%s is for commands, not "
		    "builtins", get(m, "timeout") != NULL ? "timeout" :
		    "retries");
	if (!wspx__builtin_exists(j->builtin)) {
		names = wspx__builtin_names(&n);
		near = wspx__diag_nearest(j->builtin, names, n);
		wspx__diag_add(d, b->line, b->col, "unknown builtin '%s'%s%s%s",
		    j->builtin, near ? " (did you mean '" : "", near ? near :
		    "", near ? "'?)" : "");
	} else
		wspx__builtin_check(j->builtin, j->with, b, d);
}

/* The environment of job j: the file's, the defaults', its own. */
static void
readenv(struct wspx__jobfile *jf, const struct wspx__ynode *m,
    const struct defaults *df, struct wspx__jfjob *j, struct wspx__diag *d)
{
	const struct wspx__ynode *envs[3], *own = get(m, "env");
	size_t i, k, n = 0;

	envs[0] = df->env;
	envs[1] = df->jobenv;
	envs[2] = own != NULL && wantenv(own, d) ? own : NULL;
	for (i = 0; i < 3; i++)
		n += envs[i] != NULL ? envs[i]->n : 0;
	if (n == 0 || (j->env = wspx__arena_alloc(&jf->mem, n *
	    sizeof(*j->env), alignof(struct wspx__jfenv))) == NULL)
		return;
	for (i = 0; i < 3; i++)
		for (k = 0; envs[i] != NULL && k < envs[i]->n; k++) {
			j->env[j->nenv].name = envs[i]->items[2 * k]->str;
			j->env[j->nenv++].value = envs[i]->items[2 * k + 1];
		}
}

/* The legs of job p (one if it has no matrix) appended to jf->jobs. */
static int
addlegs(struct wspx__jobfile *jf, struct wspx__jfproto *p,
    const struct wspx__jfjob *j)
{
	struct wspx__jfjob *leg;
	size_t i, k, n = p->legs != NULL ? p->nlegs : 1;
	char *name;

	p->first = jf->njobs;
	p->nlegs = n;
	for (i = 0; i < n; i++) {
		leg = &jf->jobs[jf->njobs++];
		*leg = *j;
		if (p->legs == NULL) {
			leg->name = (char *)p->key->str;
			continue;
		}
		if ((name = wspx__matrix_name(p->key->str, &p->legs[i])) ==
		    NULL || (leg->name = wspx__arena_strdup(&jf->mem, name,
		    strlen(name))) == NULL) {
			free(name);
			return -ENOMEM;
		}
		free(name);
		leg->nmatrix = p->legs[i].n;
		leg->mkeys = wspx__arena_alloc(&jf->mem, 2 * (leg->nmatrix +
		    1) * sizeof(*leg->mkeys), alignof(const char *));
		if (leg->mkeys == NULL)
			return -ENOMEM;
		leg->mvals = leg->mkeys + leg->nmatrix + 1;
		for (k = 0; k < leg->nmatrix; k++) {
			leg->mkeys[k] = p->legs[i].keys[k];
			leg->mvals[k] = p->legs[i].vals[k];
		}
	}
	return 0;
}

static int
byname(const void *a, const void *b)
{
	return strcmp((*(const struct wspx__jfjob *const *)a)->name,
	    (*(const struct wspx__jfjob *const *)b)->name);
}

/* Two legs of job p with one name (the same keys and values, as
 * matrix: {x: [1, 1]} makes) are an error at the matrix mx: they would
 * share their state and their place in needs. */
static int
samelegs(struct wspx__jobfile *jf, const struct wspx__jfproto *p,
    const struct wspx__ynode *mx, struct wspx__diag *d)
{
	const struct wspx__jfjob **v = malloc(p->nlegs * sizeof(*v));
	size_t i;

	if (v == NULL)
		return -ENOMEM;
	for (i = 0; i < p->nlegs; i++)
		v[i] = &jf->jobs[p->first + i];
	qsort(v, p->nlegs, sizeof(*v), byname);
	for (i = 1; i < p->nlegs; i++)
		if (strcmp(v[i - 1]->name, v[i]->name) == 0) {
			wspx__diag_add(d, mx->line, mx->col, "the matrix makes "
			    "the leg %.80s%s more than once", v[i]->name,
			    strlen(v[i]->name) > 80 ? "..." : "");
			break;
		}
	free(v);
	return 0;
}

/* Make room for need jobs in jf->jobs (*cap of them now). */
static int
grow(struct wspx__jobfile *jf, size_t need, size_t *cap)
{
	struct wspx__jfjob *v;
	size_t n = *cap;

	if (need <= n)
		return 0;
	while (n < need)
		n = n < 16 ? 16 : n * 2;
	if ((v = realloc(jf->jobs, n * sizeof(*v))) == NULL)
		return -ENOMEM;
	jf->jobs = v;
	*cap = n;
	return 0;
}

/* The legs of job mapping m: its matrix's, counted (bound: a bound that
 * does not expand it), or 1. */
static size_t
legcount(const struct wspx__ynode *m, bool bound)
{
	const struct wspx__ynode *mx = m->kind == WSPX__YMAP ? get(m,
	    "matrix") : NULL;
	struct wspx__leg *legs;
	struct wspx__diag scratch;
	size_t n = 1;

	if (mx == NULL)
		return 1;
	if (bound)
		return wspx__matrix_bound(mx, WSPX__MATRIX_MAX);
	/* (its errors are reported when it is read) */
	wspx__diag_init(&scratch, "");
	if (wspx__matrix_expand(mx, WSPX__MATRIX_MAX, &legs, &n, &scratch) !=
	    0)
		n = 1;
	else
		wspx__matrix_free(legs, n);
	wspx__diag_fini(&scratch);
	return n;
}

/* Whether jobs: (a mapping) makes more than WSPX__JOBS_MAX jobs, legs
 * counted, before any is made: a few KB of aliases can name millions.
 * Counted by bounds first, and only if they pass the limit, exactly.
 * The error is at the job where the count passes it. */
static bool
toomany(const struct wspx__ynode *jobs, struct wspx__diag *d)
{
	const struct wspx__ynode *k;
	size_t i, total;
	int exact;

	for (exact = 0; exact < 2; exact++) {
		for (i = 0, total = 0; i < jobs->n && total <= WSPX__JOBS_MAX;
		    i++)
			total += legcount(jobs->items[2 * i + 1], !exact);
		if (total <= WSPX__JOBS_MAX)
			return false;
	}
	k = jobs->items[2 * (i - 1)];
	wspx__diag_add(d, k->line, k->col, "the file has more than %u jobs, "
	    "legs counted, with this one", WSPX__JOBS_MAX);
	return true;
}

/* Read job number i of jobs: (mapping), its legs into jf->jobs; rest
 * keys follow it. */
static int
readone(struct wspx__jobfile *jf, const struct wspx__ynode *jobs, size_t i,
    const struct defaults *df, struct wspx__jfproto *p, size_t rest,
    size_t *cap, struct wspx__diag *d)
{
	const struct wspx__ynode *k = jobs->items[2 * i];
	const struct wspx__ynode *m = jobs->items[2 * i + 1], *mx;
	struct wspx__jfjob j;
	int rc = 0;

	memset(&j, 0, sizeof(j));
	memset(p, 0, sizeof(*p));
	p->key = k;
	j.key = k;
	if (!goodname(k->str, k->len))
		wspx__diag_add(d, k->line, k->col, "'%s' is not a job name: "
		    "use letters, digits, '_', '-' and '.'", k->str);
	if (!wantkind(m, WSPX__YMAP, "a job", d))
		return 0;
	readjob(jf, m, df, &j, d);
	checkaction(k, m, &j, d);
	readenv(jf, m, df, &j, d);
	/* (needs that are not strings were reported by readjob()) */
	if ((p->needs = get(m, "needs")) != NULL && !strings(p->needs))
		p->needs = NULL;
	if ((mx = get(m, "matrix")) != NULL && (rc = wspx__matrix_expand(mx,
	    WSPX__MATRIX_MAX, &p->legs, &p->nlegs, d)) != 0)
		return rc == -EINVAL ? 0 : rc;
	if (jf->njobs + p->nlegs > WSPX__JOBS_MAX) {
		wspx__diag_add(d, k->line, k->col, "the file has more than %u "
		    "jobs", WSPX__JOBS_MAX);
		return 0;
	}
	/* room for these legs and one job for each key after this one */
	if ((rc = grow(jf, jf->njobs + (p->legs ? p->nlegs : 1) + rest,
	    cap)) != 0 || (rc = addlegs(jf, p, &j)) != 0)
		return rc;
	return p->legs != NULL ? samelegs(jf, p, mx, d) : 0;
}

static int
readjobs(struct wspx__jobfile *jf, const struct wspx__ynode *jobs,
    const struct defaults *df, struct wspx__diag *d)
{
	struct wspx__jfproto *protos;
	size_t i, cap = 0;
	int rc = 0;

	if (!wantkind(jobs, WSPX__YMAP, "jobs", d))
		return -EINVAL;
	if (jobs->n == 0) {
		wspx__diag_add(d, jobs->line, jobs->col, "jobs is empty");
		return -EINVAL;
	}
	if (toomany(jobs, d))
		return -EINVAL;
	if ((protos = calloc(jobs->n, sizeof(*protos))) == NULL)
		return -ENOMEM;
	for (i = 0; i < jobs->n && rc == 0; i++)
		rc = readone(jf, jobs, i, df, &protos[i], jobs->n - i - 1, &cap,
		    d);
	/* (all checks, also after errors: wspx check reports every one;
	 * a job read in part has fewer legs or needs, never wrong ones) */
	if (rc == 0)
		rc = wspx__jobcheck_needs(jf, protos, jobs->n, d);
	if (rc == 0)
		wspx__jobcheck_exprs(jf, d);
	if (rc == 0)
		rc = wspx__jobsize_check(jf, jf->doc.size, d);
	if (rc == 0)
		rc = wspx__jobcheck_cycles(jf, d);
	wspx__jobcheck_hosts(jf, d);
	for (i = 0; protos != NULL && i < jobs->n; i++)
		wspx__matrix_free(protos[i].legs, protos[i].nlegs);
	free(protos);
	return rc;
}

int
wspx__jobfile_read(struct wspx__jobfile *jf, FILE *f, struct wspx__diag *d)
{
	const struct wspx__ynode *root, *v;
	struct defaults df = { NULL, NULL, NULL, NULL, NULL, -1, -1 };
	int rc;

	memset(jf, 0, sizeof(*jf));
	/* (a document read whole despite errors, such as a duplicate key,
	 * is checked too: wspx check reports every error of the file) */
	rc = wspx__yamldoc_read(&jf->doc, f, d);
	if (rc != 0 && (rc != -EINVAL || jf->doc.root == NULL))
		return rc;
	root = jf->doc.root;
	if (root != NULL && (rc = wspx__jobcheck_yaml(root, d)) != 0)
		return rc;
	if (root == NULL || root->kind != WSPX__YMAP) {
		wspx__diag_add(d, root ? root->line : 1, root ? root->col : 1,
		    "a job file is a mapping with jobs: in it");
		return -EINVAL;
	}
	knownkeys(root, topkeys, NKEYS(topkeys), "the file", d);
	if ((v = get(root, "env")) != NULL && wantenv(v, d))
		df.env = v;
	if ((v = get(root, "defaults")) != NULL)
		readdefaults(v, &df, d);
	if ((v = get(root, "pools")) != NULL)
		readpools(jf, v, d);
	readplaces(jf, root, d);
	if ((v = get(root, "jobs")) == NULL) {
		wspx__diag_add(d, root->line, root->col, "the file has no "
		    "jobs:");
		return -EINVAL;
	}
	rc = readjobs(jf, v, &df, d);
	return rc == 0 && d->n > 0 ? -EINVAL : rc;
}

void
wspx__jobfile_fini(struct wspx__jobfile *jf)
{
	free(jf->jobs);
	wspx__arena_fini(&jf->mem);
	wspx__yamldoc_fini(&jf->doc);
	memset(jf, 0, sizeof(*jf));
}

long
wspx__jobfile_find(const struct wspx__jobfile *jf, const char *name,
    void (*found)(void *ctx, size_t i), void *ctx)
{
	const char *br = strchr(name, '[');
	size_t n = br != NULL ? (size_t)(br - name) : strlen(name), i;
	const struct wspx__jfjob *j;
	struct wspx__leg l;
	long k = 0, bad = 0;
	int m;

	if (br != NULL && name[strlen(name) - 1] != ']')
		return -1;
	for (i = 0; i < jf->njobs; i++) {
		j = &jf->jobs[i];
		if (j->key->len != n || memcmp(j->key->str, name, n) != 0)
			continue;
		l.keys = j->mkeys;
		l.vals = j->mvals;
		l.n = j->nmatrix;
		m = br == NULL ? 1 : j->nmatrix == 0 ? -1 :
		    wspx__matrix_match(&l, br + 1, strlen(br) - 2);
		bad += m < 0;
		if (m > 0) {
			found(ctx, i);
			k++;
		}
	}
	return k == 0 && bad > 0 ? -1 : k;
}
