/*
 * Expanding a matrix (see matrix.h).  The include rule is GitHub
 * Actions': an entry is added to every leg of the cross product whose
 * values agree with the entry's values for the matrix's own keys, its
 * other keys added to the leg (a later entry's value replacing an earlier
 * entry's, never one of the product's own); an entry that agrees with no
 * leg becomes a leg of its own.
 */
#include "matrix.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The matrix's own keys and their value lists. */
struct dims {
	const struct wspx__ynode **key, **vals;
	size_t n;
};

static bool
isspecial(const char *k)
{
	return strcmp(k, "include") == 0 || strcmp(k, "exclude") == 0;
}

static int
addleg(struct wspx__leg **legs, size_t *n, size_t *cap, size_t keys)
{
	struct wspx__leg *v;
	const char **kv;

	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 16;
		if ((v = realloc(*legs, *cap * sizeof(*v))) == NULL)
			return -ENOMEM;
		*legs = v;
	}
	/* room for every key an include may add, in one block */
	if ((kv = calloc(2 * keys + 2, sizeof(*kv))) == NULL)
		return -ENOMEM;
	(*legs)[*n].keys = kv;
	(*legs)[*n].vals = kv + keys + 1;
	(*legs)[(*n)++].n = 0;
	return 0;
}

/* Read the keys and value lists of m; errors to d.  Returns whether
 * they are good. */
static bool
readdims(const struct wspx__ynode *m, struct dims *dm, struct wspx__diag *d)
{
	const struct wspx__ynode *k, *v;
	bool ok = true;
	size_t i, j;

	for (i = 0; i < m->n; i++) {
		k = m->items[2 * i];
		v = m->items[2 * i + 1];
		if (isspecial(k->str))
			continue;
		/* (a leg's name, job[=v], could not pick it) */
		if (k->len == 0) {
			wspx__diag_add(d, k->line, k->col, "a matrix key "
			    "cannot be empty");
			ok = false;
			continue;
		}
		if (v->kind != WSPX__YSEQ || v->n == 0) {
			wspx__diag_add(d, v->line, v->col, "matrix key '%s' "
			    "needs a non-empty list of values", k->str);
			ok = false;
			continue;
		}
		for (j = 0; j < v->n; j++)
			if (v->items[j]->kind != WSPX__YSCALAR) {
				wspx__diag_add(d, v->items[j]->line,
				    v->items[j]->col, "a matrix value must be "
				    "a string or a number");
				ok = false;
			}
		dm->key[dm->n] = k;
		dm->vals[dm->n++] = v;
	}
	return ok;
}

/* The number of legs of the product, or max + 1 past max. */
static size_t
product(const struct dims *dm, size_t max)
{
	size_t i, p = 1;

	for (i = 0; i < dm->n; i++) {
		if (dm->vals[i]->n > (max + 1) / p)
			return max + 1;
		p *= dm->vals[i]->n;
	}
	return p;
}

static const char *
legval(const struct wspx__leg *l, const char *key)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (strcmp(l->keys[i], key) == 0)
			return l->vals[i];
	return NULL;
}

static void
legset(struct wspx__leg *l, const char *key, const char *val)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (strcmp(l->keys[i], key) == 0) {
			l->vals[i] = val;
			return;
		}
	l->keys[l->n] = key;
	l->vals[l->n++] = val;
}

/* Whether the entry (a mapping) agrees with the leg on keys[]. */
static bool
agrees(const struct wspx__ynode *e, const struct wspx__leg *l,
    const struct dims *dm)
{
	const struct wspx__ynode *v;
	size_t i;

	for (i = 0; i < dm->n; i++) {
		v = wspx__yamldoc_get(e, dm->key[i]->str);
		if (v != NULL && strcmp(v->str, legval(l, dm->key[i]->str)) != 0)
			return false;
	}
	return true;
}

/* Check the entries of include or exclude (a list of mappings of
 * scalars); exclude's keys must be the matrix's. */
static bool
checkentries(const struct wspx__ynode *list, const struct dims *dm,
    bool exclude, struct wspx__diag *d)
{
	const struct wspx__ynode *e;
	bool ok = true, known;
	size_t i, j, k;

	if (list->kind != WSPX__YSEQ) {
		wspx__diag_add(d, list->line, list->col, "%s needs a list of "
		    "mappings", exclude ? "exclude" : "include");
		return false;
	}
	for (i = 0; i < list->n; i++) {
		e = list->items[i];
		if (e->kind != WSPX__YMAP) {
			wspx__diag_add(d, e->line, e->col, "an entry of %s must "
			    "be a mapping", exclude ? "exclude" : "include");
			ok = false;
			continue;
		}
		for (j = 0; j < e->n; j++) {
			if (e->items[2 * j + 1]->kind != WSPX__YSCALAR) {
				wspx__diag_add(d, e->items[2 * j + 1]->line,
				    e->items[2 * j + 1]->col, "a matrix value "
				    "must be a string or a number");
				ok = false;
			}
			if (!exclude && e->items[2 * j]->len == 0) {
				wspx__diag_add(d, e->items[2 * j]->line,
				    e->items[2 * j]->col, "a matrix key "
				    "cannot be empty");
				ok = false;
			}
			for (known = false, k = 0; k < dm->n; k++)
				known |= strcmp(dm->key[k]->str,
				    e->items[2 * j]->str) == 0;
			if (exclude && !known) {
				wspx__diag_add(d, e->items[2 * j]->line,
				    e->items[2 * j]->col, "exclude names '%s', "
				    "which is not a key of the matrix",
				    e->items[2 * j]->str);
				ok = false;
			}
		}
	}
	return ok;
}

/* Leg number i of the product, if no exclude entry removes it. */
static int
productleg(const struct dims *dm, size_t i, const struct wspx__ynode *ex,
    size_t keys, struct wspx__leg **legs, size_t *n, size_t *cap)
{
	struct wspx__leg *l;
	size_t k, j;
	int rc;

	if ((rc = addleg(legs, n, cap, keys)) != 0)
		return rc;
	l = &(*legs)[*n - 1];
	for (k = dm->n; k-- > 0;) {
		l->keys[k] = dm->key[k]->str;
		l->vals[k] = dm->vals[k]->items[i % dm->vals[k]->n]->str;
		i /= dm->vals[k]->n;
	}
	l->n = dm->n;
	for (j = 0; ex != NULL && j < ex->n; j++)
		if (agrees(ex->items[j], l, dm)) {
			free(l->keys);
			(*n)--;
			break;
		}
	return 0;
}

static bool
isdim(const struct dims *dm, const char *key)
{
	size_t i;

	for (i = 0; i < dm->n; i++)
		if (strcmp(dm->key[i]->str, key) == 0)
			return true;
	return false;
}

/* Add the include entries to the first nprod legs, or as legs. */
static int
include(const struct wspx__ynode *in, const struct dims *dm, size_t keys,
    size_t nprod, struct wspx__leg **legs, size_t *n, size_t *cap)
{
	const struct wspx__ynode *e;
	bool matched;
	size_t i, j, k;
	int rc;

	for (i = 0; i < in->n; i++) {
		e = in->items[i];
		for (matched = false, j = 0; j < nprod; j++) {
			if (!agrees(e, &(*legs)[j], dm))
				continue;
			matched = true;
			for (k = 0; k < e->n; k++)
				if (!isdim(dm, e->items[2 * k]->str))
					legset(&(*legs)[j], e->items[2 * k]->str,
					    e->items[2 * k + 1]->str);
		}
		if (matched)
			continue;
		if ((rc = addleg(legs, n, cap, keys)) != 0)
			return rc;
		for (k = 0; k < e->n; k++)
			legset(&(*legs)[*n - 1], e->items[2 * k]->str,
			    e->items[2 * k + 1]->str);
	}
	return 0;
}

/* The most keys a leg can have: the matrix's and every include's. */
static size_t
maxkeys(const struct dims *dm, const struct wspx__ynode *in)
{
	size_t i, k = dm->n;

	for (i = 0; in != NULL && i < in->n; i++)
		k += in->items[i]->n;
	return k;
}

static int
expand(const struct wspx__ynode *m, const struct dims *dm, size_t max,
    struct wspx__leg **legs, size_t *n, struct wspx__diag *d)
{
	const struct wspx__ynode *in, *ex;
	size_t i, cap = 0, nprod, keys;
	int rc = 0;

	in = wspx__yamldoc_get(m, "include");
	ex = wspx__yamldoc_get(m, "exclude");
	nprod = dm->n > 0 ? product(dm, max) : 0;
	if (nprod > max || (in != NULL && nprod + in->n > max)) {
		wspx__diag_add(d, m->line, m->col, "the matrix expands to "
		    "more than %zu legs", max);
		return -EINVAL;
	}
	keys = maxkeys(dm, in);
	for (i = 0; i < nprod && rc == 0; i++)
		rc = productleg(dm, i, ex, keys, legs, n, &cap);
	if (rc == 0 && in != NULL)
		rc = include(in, dm, keys, *n, legs, n, &cap);
	if (rc == 0 && *n == 0) {
		wspx__diag_add(d, m->line, m->col, "the matrix has no legs");
		rc = -EINVAL;
	}
	return rc;
}

int
wspx__matrix_expand(const struct wspx__ynode *m, size_t max,
    struct wspx__leg **legs, size_t *n, struct wspx__diag *d)
{
	const struct wspx__ynode *in, *ex;
	struct dims dm;
	bool ok;
	int rc;

	*legs = NULL;
	*n = 0;
	if (m->kind != WSPX__YMAP) {
		wspx__diag_add(d, m->line, m->col, "matrix needs a mapping of "
		    "keys to lists of values");
		return -EINVAL;
	}
	dm.n = 0;
	dm.key = malloc((m->n + 1) * sizeof(*dm.key));
	dm.vals = malloc((m->n + 1) * sizeof(*dm.vals));
	if (dm.key == NULL || dm.vals == NULL) {
		rc = -ENOMEM;
		goto fail;
	}
	ok = readdims(m, &dm, d);
	in = wspx__yamldoc_get(m, "include");
	ex = wspx__yamldoc_get(m, "exclude");
	ok &= in == NULL || checkentries(in, &dm, false, d);
	ok &= ex == NULL || checkentries(ex, &dm, true, d);
	rc = ok ? expand(m, &dm, max, legs, n, d) : -EINVAL;
fail:
	free(dm.key);
	free(dm.vals);
	return rc;
}

size_t
wspx__matrix_bound(const struct wspx__ynode *m, size_t max)
{
	const struct wspx__ynode *in;
	size_t i, n = 1;

	if (m->kind != WSPX__YMAP)
		return 1;
	for (i = 0; i < m->n && n <= max; i++)
		if (!isspecial(m->items[2 * i]->str) &&
		    m->items[2 * i + 1]->kind == WSPX__YSEQ &&
		    m->items[2 * i + 1]->n > 0)
			n *= m->items[2 * i + 1]->n;
	if (n > max)
		n = max + 1;
	in = wspx__yamldoc_get(m, "include");
	return n + (in != NULL && in->kind == WSPX__YSEQ ? in->n : 0);
}

void
wspx__matrix_free(struct wspx__leg *legs, size_t n)
{
	size_t i;

	for (i = 0; legs != NULL && i < n; i++)
		free(legs[i].keys);
	free(legs);
}

/* The characters of a key or value escaped in a leg's name, and their
 * escapes after a backslash: the name's own syntax, and what would break
 * a line. */
static const char special[] = "\\,=[]\n\t\r", escapes[] = "\\,=[]ntr";

/* Add s to the name at p, escaped; returns the end. */
static char *
addescaped(char *p, const char *s)
{
	const char *e;

	for (; *s != '\0'; s++) {
		if ((e = strchr(special, *s)) != NULL) {
			*p++ = '\\';
			*p++ = escapes[e - special];
		} else
			*p++ = *s;
	}
	return p;
}

char *
wspx__matrix_name(const char *key, const struct wspx__leg *l)
{
	size_t i, len = strlen(key) + 3;
	char *s, *p;

	for (i = 0; i < l->n; i++)
		len += 2 * (strlen(l->keys[i]) + strlen(l->vals[i])) + 2;
	if ((s = p = malloc(len)) == NULL)
		return NULL;
	p += sprintf(p, "%s[", key);
	for (i = 0; i < l->n; i++) {
		if (i > 0)
			*p++ = ',';
		p = addescaped(p, l->keys[i]);
		*p++ = '=';
		p = addescaped(p, l->vals[i]);
	}
	strcpy(p, "]");
	return s;
}

/* The first c in sel[0..n) that no backslash escapes, or NULL. */
static const char *
unescaped(const char *sel, size_t n, char c)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (sel[i] == '\\')
			i++;
		else if (sel[i] == c)
			return sel + i;
	return NULL;
}

/* Whether escaped text sel[0..n) reads as s; -1 for a bad escape. */
static int
sameas(const char *s, const char *sel, size_t n)
{
	const char *e;
	size_t i;
	char c;

	for (i = 0; i < n; i++, s++) {
		c = sel[i];
		if (c == '\\') {
			if (++i == n || (e = strchr(escapes, sel[i])) == NULL ||
			    sel[i] == '\0')
				return -1;
			c = special[e - escapes];
		}
		if (*s != c)
			return 0;
	}
	return *s == '\0';
}

/* The pair "k=v" at sel[0..n): whether it is in l; -1 if malformed or
 * k is not a key of l. */
static int
matchpair(const struct wspx__leg *l, const char *sel, size_t n)
{
	const char *eq = unescaped(sel, n, '=');
	size_t i, kn;
	int r;

	if (eq == NULL || eq == sel)
		return -1;
	kn = (size_t)(eq - sel);
	for (i = 0; i < l->n; i++) {
		if ((r = sameas(l->keys[i], sel, kn)) < 0)
			return -1;
		if (r > 0)
			return sameas(l->vals[i], eq + 1, n - kn - 1);
	}
	return -1;
}

int
wspx__matrix_match(const struct wspx__leg *l, const char *sel, size_t n)
{
	const char *comma;
	size_t len;
	int r, all = 1;

	if (n == 0)
		return -1;
	for (;;) {
		comma = unescaped(sel, n, ',');
		len = comma != NULL ? (size_t)(comma - sel) : n;
		if ((r = matchpair(l, sel, len)) < 0)
			return -1;
		all &= r;
		if (comma == NULL)
			return all;
		sel += len + 1;
		n -= len + 1;
	}
}
