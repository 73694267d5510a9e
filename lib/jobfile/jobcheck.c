/*
 * The checks across a job file's jobs (see jobfile_int.h).  Job names are
 * looked up in a string table (base/strtab.c) of the keys of jobs:, so
 * resolving the needs of 100,000 jobs is linear; the cycle search is a depth-first search
 * with an explicit stack, so a chain 100,000 jobs deep needs no deep C
 * stack.
 */
#include "jobfile_int.h"

#include <errno.h>
#include <stdalign.h>
#include <stdlib.h>
#include <string.h>

#include "base/shellname.h"
#include "base/strtab.h"
#include "shellctx.h"

/* Whether tag (as the YAML tree writes it, !!str) is one of the core
 * schema's: another (!!python/object, !mine) would name a type that wspx
 * does not have, silently taken as a plain value. */
static bool
coretag(const char *tag)
{
	static const char *const core[] = { "!!str", "!!int", "!!float",
	    "!!bool", "!!null", "!!seq", "!!map" };
	size_t i;

	for (i = 0; i < sizeof(core) / sizeof(core[0]); i++)
		if (strcmp(tag, core[i]) == 0)
			return true;
	return false;
}

/* Node n against the job file's rules for any YAML: core tags only, and
 * no NUL in a string (a string of C would be cut there). */
static void
strictnode(const struct wspx__ynode *n, struct wspx__diag *d)
{
	if (n->tag != NULL && !coretag(n->tag))
		wspx__diag_add(d, n->line, n->col, "the tag %.40s is not one of "
		    "YAML's core tags (!!str, !!int, !!float, !!bool, !!null, "
		    "!!seq, !!map), the only ones a job file may have", n->tag);
	if (n->kind == WSPX__YSCALAR && memchr(n->str, '\0', n->len) != NULL)
		wspx__diag_add(d, n->line, n->col, "a NUL character in a "
		    "string: a job file's strings cannot hold one");
}

int
wspx__jobcheck_yaml(const struct wspx__ynode *root, struct wspx__diag *d)
{
	const struct wspx__ynode **stack, *n, **grown;
	size_t top = 0, cap = 256, i, k;

	if ((stack = malloc(cap * sizeof(*stack))) == NULL)
		return -ENOMEM;
	stack[top++] = root;
	while (top > 0) {
		if ((n = stack[--top])->alias)
			continue;
		strictnode(n, d);
		k = n->kind == WSPX__YSCALAR ? 0 : n->kind ==
		    WSPX__YMAP ? 2 * n->n : n->n;
		if (top + k > cap) {
			cap = 2 * (top + k);
			if ((grown = realloc(stack, cap * sizeof(*stack))) ==
			    NULL) {
				free(stack);
				return -ENOMEM;
			}
			stack = grown;
		}
		for (i = k; i-- > 0;)
			stack[top++] = n->items[i];
	}
	free(stack);
	return 0;
}

/* The keys of jobs:, each with its proto (val), in a string table. */
static int
names_init(struct wspx__strtab *t, const struct wspx__jfproto *p, size_t n)
{
	struct wspx__strtab_entry *e;
	size_t i;

	for (i = 0; i < n; i++) {
		if (wspx__strtab_put(t, p[i].key->str, p[i].key->len, &e) != 0)
			return -ENOMEM;
		/* (a key given twice is the reader's error already) */
		if (e->val == NULL)
			e->val = (void *)&p[i];
	}
	return 0;
}

/* The proto of the job key s[0..n), or NULL. */
static const struct wspx__jfproto *
names_get(const struct wspx__strtab *t, const char *s, size_t n)
{
	const struct wspx__strtab_entry *e = wspx__strtab_get(t, s, n);

	return e != NULL ? e->val : NULL;
}

/* The indices a need of job i picks, appended to out (room for all the
 * legs of the job it names).  Returns how many, or -1 with an error. */
static long
pick(const struct wspx__strtab *t, const struct wspx__ynode *need, size_t *out,
    struct wspx__diag *d)
{
	const char *s = need->str, *br = memchr(s, '[', need->len);
	size_t n = br != NULL ? (size_t)(br - s) : need->len, i;
	const struct wspx__jfproto *p = names_get(t, s, n);
	size_t unknown = 0;
	long k = 0;
	int m;

	if (p == NULL) {
		wspx__diag_add(d, need->line, need->col, "needs '%.*s', which "
		    "is not a job of the file", (int)n, s);
		return -1;
	}
	if (br == NULL) {
		for (i = 0; i < p->nlegs; i++)
			out[k++] = p->first + i;
		return k;
	}
	/* (a key that only some legs have, from an include, is not in the
	 * others: only a key in no leg makes the name wrong) */
	for (i = 0; i < p->nlegs; i++) {
		m = p->legs == NULL || s[need->len - 1] != ']' ? -1 :
		    wspx__matrix_match(&p->legs[i], br + 1, need->len - n - 2);
		unknown += m < 0;
		if (m > 0)
			out[k++] = p->first + i;
	}
	if (k == 0)
		wspx__diag_add(d, need->line, need->col, "needs '%s', and %s",
		    s, p->legs == NULL ? "that job has no matrix" : unknown ==
		    p->nlegs ? "that is not a leg of its matrix (write "
		    "job[key=value,...] with keys of the matrix)" :
		    "no leg of its matrix has those values");
	return k == 0 ? -1 : k;
}

static int
cmpsize(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? -1 : x > y;
}

/* Sort and deduplicate v[0..n); returns the new n. */
static size_t
uniq(size_t *v, size_t n)
{
	size_t i, k = 0;

	qsort(v, n, sizeof(*v), cmpsize);
	for (i = 0; i < n; i++)
		if (k == 0 || v[k - 1] != v[i])
			v[k++] = v[i];
	return k;
}

/* The needs of the legs of proto p, resolved once and shared. */
static int
resolve(struct wspx__jobfile *jf, const struct wspx__strtab *t,
    const struct wspx__jfproto *p, struct wspx__diag *d)
{
	const struct wspx__ynode *nd = p->needs, *one;
	const struct wspx__jfproto *q;
	size_t room = 0, i, n = 0, *v;
	size_t count = nd->kind == WSPX__YSEQ ? nd->n : 1;
	const char *br;
	long k;

	for (i = 0; i < count; i++) {
		one = nd->kind == WSPX__YSEQ ? nd->items[i] : nd;
		br = memchr(one->str, '[', one->len);
		q = names_get(t, one->str, br ? (size_t)(br - one->str) :
		    one->len);
		room += q != NULL ? q->nlegs : 0;
	}
	if ((v = wspx__arena_alloc(&jf->mem, (room + 1) * sizeof(*v),
	    alignof(size_t))) == NULL)
		return -ENOMEM;
	for (i = 0; i < count; i++) {
		one = nd->kind == WSPX__YSEQ ? nd->items[i] : nd;
		if ((k = pick(t, one, v + n, d)) > 0)
			n += (size_t)k;
	}
	n = uniq(v, n);
	for (i = 0; i < p->nlegs; i++) {
		jf->jobs[p->first + i].needs = v;
		jf->jobs[p->first + i].nneeds = n;
		if (n > 0 && bsearch(&(size_t){ p->first + i }, v, n,
		    sizeof(*v), cmpsize) != NULL)
			wspx__diag_add(d, nd->line, nd->col, "job '%s' needs "
			    "itself", jf->jobs[p->first + i].name);
	}
	return 0;
}

int
wspx__jobcheck_needs(struct wspx__jobfile *jf,
    const struct wspx__jfproto *protos, size_t n, struct wspx__diag *d)
{
	struct wspx__strtab t = { NULL, 0, 0 };
	size_t i;
	int rc = 0;

	if ((rc = names_init(&t, protos, n)) != 0) {
		wspx__strtab_fini(&t);
		return rc;
	}
	for (i = 0; i < n && rc == 0; i++)
		if (protos[i].needs != NULL)
			rc = resolve(jf, &t, &protos[i], d);
	wspx__strtab_fini(&t);
	return rc;
}

/* Whether the job at index `need` is one of j's needs, by its key. */
static bool
needsjob(const struct wspx__jobfile *jf, const struct wspx__jfjob *j,
    const char *name, size_t n)
{
	const struct wspx__ynode *k;
	size_t i;

	for (i = 0; i < j->nneeds; i++) {
		k = jf->jobs[j->needs[i]].key;
		if (k->len == n && memcmp(k->str, name, n) == 0)
			return true;
	}
	return false;
}

/* Whether the jobs named by e among j's needs declare its output key
 * (or declare none); they are marked as read. */
static bool
declared(struct wspx__jobfile *jf, const struct wspx__jfjob *j,
    const struct wspx__jfexpr *e)
{
	struct wspx__jfjob *n;
	const struct wspx__ynode *o = NULL, *one;
	size_t i, k;

	for (i = 0; i < j->nneeds; i++) {
		n = &jf->jobs[j->needs[i]];
		if (n->key->len != e->joblen || memcmp(n->key->str, e->job,
		    e->joblen) != 0)
			continue;
		n->outputs_used = true;
		o = n->outputs;		/* (the same for all its legs) */
	}
	for (k = 0; o != NULL && k < (o->kind == WSPX__YSEQ ? o->n : 1); k++) {
		one = o->kind == WSPX__YSEQ ? o->items[k] : o;
		if (one->len == e->keylen && memcmp(one->str, e->key,
		    e->keylen) == 0)
			return true;
	}
	return o == NULL;
}

/* Whether a leg of j's job has the matrix key k[0..n): a key that an
 * include gives some legs is empty in the others, as in GitHub Actions.
 * The legs of a job are next to each other in jf->jobs. */
static bool
anyleg(const struct wspx__jobfile *jf, const struct wspx__jfjob *j,
    const char *k, size_t n)
{
	const struct wspx__jfjob *l = j;
	size_t i;

	while (l > jf->jobs && l[-1].key == j->key)
		l--;
	for (; l < jf->jobs + jf->njobs && l->key == j->key; l++)
		for (i = 0; i < l->nmatrix; i++)
			if (strlen(l->mkeys[i]) == n && memcmp(l->mkeys[i], k,
			    n) == 0)
				return true;
	return false;
}

/* Check the expressions of the scalar v, in job j. */
static void
exprs(struct wspx__jobfile *jf, const struct wspx__jfjob *j,
    const struct wspx__ynode *v, struct wspx__diag *d)
{
	struct wspx__jfexpr e;
	unsigned line, col;
	size_t pos = 0;
	int r;

	while ((r = wspx__jobfile_next(v->str, v->len, &pos, &e)) != 0) {
		wspx__yamldoc_place(v, e.start, &line, &col);
		if (r < 0) {
			wspx__diag_add(d, line, col, "'%.*s' is not an "
			    "expression wspx knows: matrix.KEY and "
			    "needs.JOB.outputs.KEY", (int)(e.end - e.start),
			    v->str + e.start);
			pos = e.end;
			continue;
		}
		if (e.matrix) {
			if (!anyleg(jf, j, e.key, e.keylen))
				wspx__diag_add(d, line, col, "matrix.%.*s: "
				    "job '%s' has no matrix key '%.*s'",
				    (int)e.keylen, e.key, j->name,
				    (int)e.keylen, e.key);
		} else if (!needsjob(jf, j, e.job, e.joblen))
			wspx__diag_add(d, line, col, "needs.%.*s.outputs: "
			    "job '%s' does not need '%.*s'", (int)e.joblen,
			    e.job, j->name, (int)e.joblen, e.job);
		else if (!declared(jf, j, &e))
			wspx__diag_add(d, line, col, "needs.%.*s.outputs."
			    "%.*s: job '%.*s' declares no output '%.*s' in its "
			    "outputs:", (int)e.joblen, e.job, (int)e.keylen,
			    e.key, (int)e.joblen, e.job, (int)e.keylen, e.key);
	}
}

/* What exprs() needs besides the string. */
struct exprsctx {
	struct wspx__jobfile *jf;
	const struct wspx__jfjob *j;
	struct wspx__diag *d;
};

static void
exprsin(void *arg, const struct wspx__ynode *v, const struct wspx__jfenv *env)
{
	struct exprsctx *c = arg;

	(void)env;
	exprs(c->jf, c->j, v, c->d);
}

/* Whether each expression of the command v stands where its value can
 * be put as data, for shell (NULL: sh). */
static void
place(const struct wspx__ynode *v, const char *shell, struct wspx__diag *d)
{
	enum wspx__shlang lang = WSPX__SH_POSIX;
	struct wspx__shscan sc;
	struct wspx__jfexpr e;
	unsigned line, col;
	size_t pos;

	if (shell != NULL)
		(void)wspx__shellname_lang(shell, &lang);
	if (wspx__shellctx_scan(v->str, v->len, lang, &sc) != 0) {
		pos = sc.erroff;
		if (wspx__jobfile_next(v->str, v->len, &pos, &e) == 0)
			e.start = e.end = sc.erroff;
		wspx__yamldoc_place(v, e.start, &line, &col);
		wspx__diag_add(d, line, col, "'%.*s' %s: its value "
		    "cannot be put there as data", (int)(e.end - e.start),
		    v->str + e.start, sc.err);
	}
	wspx__shellctx_free(&sc);
}

/* The places of the expressions of j's run. */
static void
places(const struct wspx__jfjob *j, struct wspx__diag *d)
{
	size_t i;

	if (j->run == NULL)
		return;
	if (j->run->kind == WSPX__YSCALAR) {
		place(j->run, j->shell, d);
		return;
	}
	for (i = 0; i < j->run->n; i++)
		place(j->run->items[i], j->shell, d);
}

void
wspx__jobcheck_exprs(struct wspx__jobfile *jf, struct wspx__diag *d)
{
	struct exprsctx c = { jf, NULL, d };
	const struct wspx__jfjob *j;
	size_t i;

	for (i = 0; i < jf->njobs; i++) {
		j = &jf->jobs[i];
		/* (the legs of a job share its strings, its needs and its
		 * keys: once for them all, not once a leg, which was
		 * quadratic in the legs) */
		if (i > 0 && jf->jobs[i - 1].key == j->key)
			continue;
		c.j = j;
		wspx__jobfile_strings(j, exprsin, &c);
		places(j, d);
	}
}

/* The cycle closed by the edge to job `to`, on the DFS stack from its
 * place: "a -> b -> a"; a long one cut to its first and last jobs, with
 * the count of those between ("a -> b -> ... 99,996 more ... -> z ->
 * a"), and each name to 60 bytes. */
static void
cycle(struct wspx__jobfile *jf, const size_t *stack, size_t from,
    size_t top, struct wspx__diag *d)
{
	enum { SHOWN = 4, NAMEMAX = 60 };
	const struct wspx__jfjob *first = &jf->jobs[stack[from]];
	char s[2 * SHOWN * (NAMEMAX + 8) + 128];
	size_t i, n = top - from;
	int len = 0;

	for (i = from; i < top; i++) {
		if (n > 2 * SHOWN && i == from + SHOWN) {
			len += snprintf(s + len, sizeof(s) - (size_t)len,
			    "... %zu more ... -> ", n - 2 * SHOWN);
			i = top - SHOWN - 1;
			continue;
		}
		len += snprintf(s + len, sizeof(s) - (size_t)len, "%.*s%s -> ",
		    NAMEMAX, jf->jobs[stack[i]].name,
		    strlen(jf->jobs[stack[i]].name) > NAMEMAX ? "..." : "");
	}
	wspx__diag_add(d, first->key->line, first->key->col, "a cycle of "
	    "needs: %s%.*s%s", s, NAMEMAX, first->name, strlen(first->name) >
	    NAMEMAX ? "..." : "");
}

int
wspx__jobcheck_cycles(struct wspx__jobfile *jf, struct wspx__diag *d)
{
	/* color: 0 unseen, 1 on the stack, 2 done; edge: next need to try */
	unsigned char *color = calloc(jf->njobs, 1);
	size_t *stack = malloc(jf->njobs * sizeof(*stack));
	size_t *edge = malloc(jf->njobs * sizeof(*edge));
	size_t *at = malloc(jf->njobs * sizeof(*at));
	size_t i, top, v, w;
	int rc = 0;

	if (color == NULL || stack == NULL || edge == NULL || at == NULL) {
		rc = -ENOMEM;
		goto fail;
	}
	for (i = 0; i < jf->njobs; i++) {
		if (color[i] != 0)
			continue;
		top = 0;
		stack[top] = i;
		edge[top] = 0;
		at[i] = top++;
		color[i] = 1;
		while (top > 0) {
			v = stack[top - 1];
			if (edge[top - 1] == jf->jobs[v].nneeds) {
				color[v] = 2;
				top--;
				continue;
			}
			w = jf->jobs[v].needs[edge[top - 1]++];
			if (color[w] == 1 && w != v)
				cycle(jf, stack, at[w], top, d);
			if (color[w] != 0)
				continue;
			color[w] = 1;
			at[w] = top;
			stack[top] = w;
			edge[top++] = 0;
		}
	}
fail:
	free(color);
	free(stack);
	free(edge);
	free(at);
	return rc;
}

/* Whether entry (a hosts: item, [N/]SPEC) is spec. */
static bool
hostis(const char *entry, const char *spec)
{
	const char *slash = strchr(entry, '/');

	if (slash != NULL && slash > entry && strspn(entry, "0123456789") ==
	    (size_t)(slash - entry))
		entry = slash + 1;
	return strcmp(entry, spec) == 0;
}

void
wspx__jobcheck_hosts(const struct wspx__jobfile *jf, struct wspx__diag *d)
{
	const struct wspx__ynode *on, *h = jf->hosts;
	size_t i, k;
	bool found;

	for (i = 0; i < jf->njobs; i++) {
		if ((on = jf->jobs[i].on) == NULL)
			continue;
		/* (the legs of a matrix job share their on:) */
		if (i > 0 && jf->jobs[i - 1].on == on)
			continue;
		found = false;
		for (k = 0; h != NULL && k < h->n && !found; k++)
			found = hostis(h->items[k]->str, on->str);
		if (!found)
			wspx__diag_add(d, on->line, on->col, "on: '%s' is not "
			    "one of hosts:", on->str);
	}
}
