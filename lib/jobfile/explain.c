/*
 * --explain (see uptodate.h): which of a job's parts differ from the
 * record of its last successful run, in words, as ninja's -d explain.
 * Only the first 8 bytes of each part's digest are recorded: enough to
 * tell which part changed; whether the job is up to date is decided by
 * the whole digest.
 */
#include "uptodate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strtab.h"
#include "state_int.h"

/* A recorded part: its kind and key ("skey"), in the text of the record
 * (unescaped in place), and its digest's first 8 bytes. */
struct was {
	char *kk;
	unsigned char sum[8];
	bool seen;		/* a part of now has it */
};

/* Split the record's parts text (changed in place) into v (room for one
 * per tab, plus one).  Returns how many; a malformed part is dropped. */
static size_t
split(char *text, struct was *v)
{
	char *p, *next, *kk;
	size_t n = 0;

	for (p = text; p != NULL; p = next) {
		if ((next = strchr(p, '\t')) != NULL)
			*next++ = '\0';
		if (strlen(p) < 18 || !wspx__statefile_unhex(p, v[n].sum, 8))
			continue;
		kk = p + 16;
		if (!wspx__statefile_unescape(kk, strlen(kk), kk))
			continue;
		v[n].kk = kk;
		v[n++].seen = false;
	}
	return n;
}

/* What changed of identity part key: "command", "env CC", ... */
static void
identity(char *out, size_t size, const char *key, const char *how)
{
	if (strcmp(key, "run") == 0 || strcmp(key, "builtin") == 0 ||
	    strcmp(key, "command") == 0)
		snprintf(out, size, "command %s", how);
	else if (strcmp(key, "dir") == 0)
		snprintf(out, size, "directory %s", how);
	else if (strncmp(key, "value ", 6) == 0)
		snprintf(out, size, "${{ %s }} %s", key + 6, how);
	else
		snprintf(out, size, "%s %s", key, how);
}

/* One reason: the first is written to out, the others counted. */
struct reasons {
	char first[512];
	size_t n;
};

static void
reason(struct reasons *r, char kind, const char *key, const char *how)
{
	if (r->n++ > 0)
		return;
	if (kind == 'i')
		identity(r->first, sizeof(r->first), key, how);
	else
		snprintf(r->first, sizeof(r->first), "%s %s", key, how);
}

/* Compare part p of now with the recorded one of its kind and key. */
static void
compare(struct reasons *r, const struct wspx__strtab *t,
    const struct wspx__part *p, char *kk)
{
	struct wspx__strtab_entry *e;
	struct was *w;

	kk[0] = p->kind;
	strcpy(kk + 1, p->key);
	e = wspx__strtab_get(t, kk, strlen(kk));
	w = e != NULL ? e->val : NULL;
	if (w != NULL)
		w->seen = true;
	if (p->tag == 'm')
		reason(r, p->kind, p->key, "missing");
	else if (w == NULL)
		reason(r, p->kind, p->key, p->kind == 'i' ? "set" : "is new");
	else if (memcmp(w->sum, p->sum, 8) != 0)
		reason(r, p->kind, p->key, "changed");
}

/* The reasons of now against the recorded v[0..n). */
static int
reasons(struct reasons *r, struct was *v, size_t n,
    const struct wspx__parts *now)
{
	struct wspx__strtab t = { NULL, 0, 0 };
	struct wspx__strtab_entry *e;
	size_t i, max = 0;
	char *kk;

	for (i = 0; i < now->n; i++)
		if (strlen(now->v[i].key) > max)
			max = strlen(now->v[i].key);
	if ((kk = malloc(max + 2)) == NULL)
		return -1;
	for (i = 0; i < n; i++) {
		if (wspx__strtab_put(&t, v[i].kk, strlen(v[i].kk), &e) != 0) {
			free(kk);
			wspx__strtab_fini(&t);
			return -1;
		}
		e->val = &v[i];
	}
	for (i = 0; i < now->n; i++)
		compare(r, &t, &now->v[i], kk);
	for (i = 0; i < n; i++)
		if (!v[i].seen)
			reason(r, v[i].kk[0], v[i].kk + 1, v[i].kk[0] == 'i' ?
			    "unset" : v[i].kk[0] == 's' ? "is gone" :
			    "is no longer generated");
	free(kk);
	wspx__strtab_fini(&t);
	return 0;
}

char *
wspx__explain_job(struct wspx__state *st, const char *job,
    const struct wspx__parts *now)
{
	struct reasons r = { "", 0 };
	struct was *v = NULL;
	char *text, *out;
	size_t n;
	bool found;

	text = wspx__statefile_parts(st, job, &found);
	if (!found || text == NULL) {
		free(text);
		return strdup(found ? "its record has no parts" : "no record");
	}
	if ((v = calloc(strlen(text) / 18 + 2, sizeof(*v))) == NULL ||
	    reasons(&r, v, n = split(text, v), now) != 0)
		r.n = 0;
	free(v);
	free(text);
	if (r.n == 0)
		return NULL;
	if (r.n == 1)
		return strdup(r.first);
	if ((out = malloc(strlen(r.first) + 40)) != NULL)
		sprintf(out, "%s (and %zu more)", r.first, r.n - 1);
	return out;
}
