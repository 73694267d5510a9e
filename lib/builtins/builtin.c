/*
 * The builtins (see builtin.h): their table, the check of their `with:`
 * when the job file is loaded, the start of a call, the readers of a
 * call's values for the builtins (builtin_int.h), and the two builtins too
 * small for a file of their own, noop and echo.  The others are in
 * fs.c (the file builtins), rm.c (remove) and wait.c
 * (sleep and wait-for).  A value written with a ${{ }} expression can
 * only be checked once it is substituted, so every builtin checks its
 * values again when it runs, with the same rules, through these readers.
 */
#include "builtin.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/duration.h"
#include "base/yamldoc.h"
#include "builtin_int.h"

/* What a key's value must be. */
enum vkind {
	VSTR,		/* one string */
	VLIST,		/* one string or a list of them */
	VBOOL,		/* true or false */
	VDUR,		/* a duration */
	VPORT		/* a TCP port */
};

struct key {
	const char *name;	/* NULL: no more keys */
	enum vkind kind;
	bool required;
};

#define MAXKEYS 3

struct builtin {
	void (*run)(struct wspx_worker *w, struct wspx__bcall *c);
	struct key keys[MAXKEYS + 1];
	bool oneof;		/* exactly one of keys[0] and keys[1] */
};

static void noop(struct wspx_worker *w, struct wspx__bcall *c);
static void echo(struct wspx_worker *w, struct wspx__bcall *c);

/* In alphabetical order, and builtins[] in the same. */
static const char *const names[] = {
	"copy", "echo", "mkdir", "noop", "remove", "sha256", "sleep",
	"touch", "wait-for", "write"
};

static const struct builtin builtins[] = {
	{ wspx__builtin_copy, { { "from", VLIST, true },
	    { "to", VSTR, true } }, false },
	{ echo, { { "text", VLIST, true } }, false },
	{ wspx__builtin_mkdir, { { "paths", VLIST, true } }, false },
	{ noop, { { NULL, VSTR, false } }, false },
	{ wspx__builtin_remove, { { "paths", VLIST, true } }, false },
	{ wspx__builtin_sha256, { { "files", VLIST, true },
	    { "to", VSTR, false } }, false },
	{ wspx__builtin_sleep, { { "duration", VDUR, true } }, false },
	{ wspx__builtin_touch, { { "paths", VLIST, true } }, false },
	{ wspx__builtin_waitfor, { { "path", VSTR, false },
	    { "port", VPORT, false }, { "timeout", VDUR, false } }, true },
	{ wspx__builtin_write, { { "path", VSTR, true },
	    { "text", VLIST, true }, { "append", VBOOL, false } }, false },
};

_Static_assert(sizeof(names) / sizeof(names[0]) ==
    sizeof(builtins) / sizeof(builtins[0]), "a name for each builtin");

static const struct builtin *
lookup(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(names[i], name) == 0)
			return &builtins[i];
	return NULL;
}

bool
wspx__builtin_exists(const char *name)
{
	return lookup(name) != NULL;
}

const char *const *
wspx__builtin_names(size_t *n)
{
	*n = sizeof(names) / sizeof(names[0]);
	return names;
}

/* A port, 1..65535, in decimal digits; 0 if s is not one. */
static int
parseport(const char *s)
{
	long v = 0;

	if (*s == '\0' || strspn(s, "0123456789") != strlen(s) ||
	    strlen(s) > 5)
		return 0;
	v = strtol(s, NULL, 10);
	return v <= 65535 ? (int)v : 0;
}

/* YAML 1.2's core schema booleans. */
static bool
parsebool(const char *s, bool *b)
{
	*b = strcmp(s, "true") == 0 || strcmp(s, "True") == 0 ||
	    strcmp(s, "TRUE") == 0;
	return *b || strcmp(s, "false") == 0 || strcmp(s, "False") == 0 ||
	    strcmp(s, "FALSE") == 0;
}

/* Why s is not a value of kind k, or NULL if it is one. */
static const char *
badvalue(enum vkind k, const char *s)
{
	const char *why = NULL;
	double secs;
	bool b;

	if (k == VDUR && !wspx__duration_parse(s, &secs, &why))
		return why;
	if (k == VPORT && parseport(s) == 0)
		return "is not a port (1 to 65535)";
	if (k == VBOOL && !parsebool(s, &b))
		return "is not true or false";
	return NULL;
}

static const char *
kindname(const struct wspx__ynode *n)
{
	return n->kind == WSPX__YMAP ? "a mapping" : n->kind == WSPX__YSEQ ?
	    "a list" : "a string";
}

/* A plain null (`key:`, `~`, `null`): a key with no value. */
static bool
isnull(const struct wspx__ynode *n)
{
	return n->kind == WSPX__YSCALAR && n->plain && n->tag == NULL &&
	    (n->len == 0 || strcmp(n->str, "~") == 0 ||
	    strcmp(n->str, "null") == 0 || strcmp(n->str, "Null") == 0 ||
	    strcmp(n->str, "NULL") == 0);
}

/* The value of key in mapping m (NULL: none), or NULL. */
static const struct wspx__ynode *
get(const struct wspx__ynode *m, const char *key)
{
	size_t i;

	for (i = 0; m != NULL && i < m->n; i++)
		if (m->items[2 * i]->kind == WSPX__YSCALAR &&
		    strcmp(m->items[2 * i]->str, key) == 0)
			return m->items[2 * i + 1];
	return NULL;
}

/* Check v, the value of key k of builtin b or (item) one of its items. */
static void
checkscalar(const char *b, const struct key *k, const struct wspx__ynode *v,
    bool item, struct wspx__diag *d)
{
	static const char *const want[] = { "a string",
	    "a string or a list of strings", "true or false", "a duration",
	    "a port" };
	const char *of = item ? "an item of " : "", *why;

	if (v->kind != WSPX__YSCALAR) {
		wspx__diag_add(d, v->line, v->col, "%s'%s' in with of %s "
		    "must be %s, not %s", of, k->name, b,
		    item ? "a string" : want[k->kind], kindname(v));
	} else if (isnull(v)) {
		wspx__diag_add(d, v->line, v->col, "%s'%s' in with of %s "
		    "has no value", of, k->name, b);
	} else if (strstr(v->str, "${{") == NULL &&
	    (why = badvalue(k->kind, v->str)) != NULL) {
		wspx__diag_add(d, v->line, v->col, "'%s' in with of %s: "
		    "'%s' %s", k->name, b, v->str, why);
	}
}

static void
checkvalue(const char *b, const struct key *k, const struct wspx__ynode *v,
    struct wspx__diag *d)
{
	size_t i;

	if (k->kind != VLIST || v->kind != WSPX__YSEQ) {
		checkscalar(b, k, v, false, d);
		return;
	}
	if (v->n == 0)
		wspx__diag_add(d, v->line, v->col, "'%s' in with of %s is an "
		    "empty list", k->name, b);
	for (i = 0; i < v->n; i++)
		checkscalar(b, k, v->items[i], true, d);
}

/* An unknown key: say which one was meant, or which there are. */
static void
unknown(const char *b, const struct builtin *bi, const struct wspx__ynode *k,
    struct wspx__diag *d)
{
	const char *words[MAXKEYS], *near;
	char list[128];
	size_t i, n, len = 0;

	for (n = 0; bi->keys[n].name != NULL; n++)
		words[n] = bi->keys[n].name;
	if ((near = wspx__diag_nearest(k->str, words, n)) != NULL) {
		wspx__diag_add(d, k->line, k->col, "unknown key '%s' in with "
		    "of %s (did you mean '%s'?)", k->str, b, near);
		return;
	}
	list[0] = '\0';
	for (i = 0; i < n && len < sizeof(list); i++)
		len += (size_t)snprintf(list + len, sizeof(list) - len,
		    "%s'%s'", i == 0 ? "" : i + 1 < n ? ", " : " or ",
		    words[i]);
	wspx__diag_add(d, k->line, k->col, "unknown key '%s' in with of %s "
	    "(it takes %s)", k->str, b, n == 0 ? "none" : list);
}

/* Required keys, and wait-for's one of path and port, in with (NULL: no
 * keys).  A missing key is placed at written, the with as written (a
 * mapping, or a null), or without one at `at`, the builtin's node, as
 * what the builtin "needs with:". */
static void
checkmissing(const char *b, const struct builtin *bi,
    const struct wspx__ynode *with, const struct wspx__ynode *written,
    const struct wspx__ynode *at, struct wspx__diag *d)
{
	const struct wspx__ynode *p, *q, *place = written != NULL ? written :
	    at;
	unsigned line = place != NULL ? place->line : 0;
	unsigned col = place != NULL ? place->col : 0;
	const struct key *k;

	if (bi->oneof) {
		p = get(with, bi->keys[0].name);
		q = get(with, bi->keys[1].name);
		if (p == NULL && q == NULL && written == NULL)
			wspx__diag_add(d, line, col, "builtin %s needs with: "
			    "%s or %s", b, bi->keys[0].name, bi->keys[1].name);
		else if (p == NULL && q == NULL)
			wspx__diag_add(d, line, col, "missing key '%s' or "
			    "'%s' in with of %s", bi->keys[0].name,
			    bi->keys[1].name, b);
		else if (p != NULL && q != NULL && (p->line > q->line ||
		    (p->line == q->line && p->col > q->col)))
			q = p;	/* the place of the one written second */
		if (p != NULL && q != NULL)
			wspx__diag_add(d, q->line, q->col, "with of %s takes "
			    "'%s' or '%s', not both", b, bi->keys[0].name,
			    bi->keys[1].name);
	}
	for (k = bi->keys; k->name != NULL; k++) {
		if (!k->required || get(with, k->name) != NULL)
			continue;
		if (written == NULL)
			wspx__diag_add(d, line, col, "builtin %s needs with: "
			    "%s", b, k->name);
		else
			wspx__diag_add(d, line, col, "missing key '%s' in "
			    "with of %s", k->name, b);
	}
}

void
wspx__builtin_check(const char *name, const struct wspx__ynode *with,
    const struct wspx__ynode *at, struct wspx__diag *d)
{
	const struct builtin *bi = lookup(name);
	const struct wspx__ynode *written = with, *k;
	const struct key *key;
	size_t i;

	if (bi == NULL)
		return;
	if (with != NULL && isnull(with))
		with = NULL;
	if (with != NULL && with->kind != WSPX__YMAP) {
		wspx__diag_add(d, with->line, with->col, "with of %s must be "
		    "a mapping, not %s", name, kindname(with));
		return;
	}
	for (i = 0; with != NULL && i < with->n; i++) {
		k = with->items[2 * i];
		if (k->kind != WSPX__YSCALAR) {
			wspx__diag_add(d, k->line, k->col, "a key in with of "
			    "%s must be a string, not %s", name, kindname(k));
			continue;
		}
		for (key = bi->keys; key->name != NULL; key++)
			if (strcmp(key->name, k->str) == 0)
				break;
		if (key->name != NULL)
			checkvalue(name, key, with->items[2 * i + 1], d);
		else
			unknown(name, bi, k, d);
	}
	checkmissing(name, bi, with, written, at, d);
}

static const struct wspx__barg *
arg(const struct wspx__bcall *c, const char *key)
{
	size_t i;

	for (i = 0; i < c->nargs; i++)
		if (strcmp(c->args[i].key, key) == 0)
			return &c->args[i];
	return NULL;
}

const struct wspx__barg *
wspx__builtin_need(struct wspx__bcall *c, const char *key)
{
	const struct wspx__barg *a = arg(c, key);

	if (a == NULL)
		wspx__builtin_fail(c, "missing '%s'", key);
	return a;
}

bool
wspx__builtin_str(struct wspx__bcall *c, const char *key, bool required,
    const char **s)
{
	const struct wspx__barg *a = arg(c, key);

	*s = NULL;
	if (a == NULL && required)
		return wspx__builtin_fail(c, "missing '%s'", key);
	if (a != NULL && (a->list || a->n != 1))
		return wspx__builtin_fail(c, "'%s' must be one string", key);
	if (a != NULL)
		*s = a->v[0];
	return true;
}

bool
wspx__builtin_bool(struct wspx__bcall *c, const char *key, bool *b)
{
	const char *s;

	*b = false;
	if (!wspx__builtin_str(c, key, false, &s))
		return false;
	if (s != NULL && !parsebool(s, b))
		return wspx__builtin_fail(c, "'%s': '%s' %s", key, s,
		    badvalue(VBOOL, s));
	return true;
}

bool
wspx__builtin_duration(struct wspx__bcall *c, const char *key,
    const char *s, int64_t *ns)
{
	const char *why;
	double secs;

	if (!wspx__duration_parse(s, &secs, &why)) {
		wspx__builtin_fail(c, "'%s': '%s' %s", key, s, why);
		return false;
	}
	*ns = (int64_t)(secs * 1e9);
	return true;
}

bool
wspx__builtin_port(struct wspx__bcall *c, const char *key, const char *s,
    int *port)
{
	if ((*port = parseport(s)) == 0)
		return wspx__builtin_fail(c, "'%s': '%s' %s", key, s,
		    badvalue(VPORT, s));
	return true;
}

bool
wspx__builtin_fail(struct wspx__bcall *c, const char *fmt, ...)
{
	const char *prefix = c->prefix != NULL ? c->prefix : "";
	size_t k = strlen(prefix) + strlen(c->name) + 3, n;
	va_list ap;
	char *p;
	int len;

	va_start(ap, fmt);
	len = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	c->status = 1;
	/* Without memory the status alone says it failed. */
	if (len < 0 || (p = malloc(k + (size_t)len + 2)) == NULL)
		return false;
	n = (size_t)snprintf(p, k, "%s%s: ", prefix, c->name);
	va_start(ap, fmt);
	(void)vsnprintf(p + n, (size_t)len + 1, fmt, ap);
	va_end(ap);
	p[n + (size_t)len] = '\n';
	c->write(c, 2, p, n + (size_t)len + 1);
	free(p);
	return false;
}

void
wspx__builtin_run(struct wspx_worker *w, struct wspx__bcall *c)
{
	const struct builtin *bi = lookup(c->name);

	c->status = 0;
	c->fd = -1;
	if (bi != NULL) {
		bi->run(w, c);
		return;
	}
	wspx__builtin_fail(c, "no such builtin");
	c->done(w, c);
}

static void
noop(struct wspx_worker *w, struct wspx__bcall *c)
{
	c->done(w, c);
}

/* Each text and, if it does not end with one, a newline: a block scalar
 * (`text: |`) ends with its own, which should not become a blank line.
 * An empty text is an empty line, as with echo(1). */
static void
echo(struct wspx_worker *w, struct wspx__bcall *c)
{
	const struct wspx__barg *a = wspx__builtin_need(c, "text");
	size_t i, n;

	for (i = 0; a != NULL && i < a->n; i++) {
		n = strlen(a->v[i]);
		c->write(c, 1, a->v[i], n);
		if (n == 0 || a->v[i][n - 1] != '\n')
			c->write(c, 1, "\n", 1);
	}
	c->done(w, c);
}
