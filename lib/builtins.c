/*
 * The builtins (see builtins.h): their table, the check of their `with:`
 * when the job file is loaded, the start of a call, and the builtins that
 * are not about files (noop, echo, sleep, wait-for; builtinfs.c has the
 * rest).  A value written with a ${{ }} expression can only be checked once
 * it is substituted, so every builtin checks its values again when it
 * runs, with the same rules.  Sleep and wait-for are ticks: a job of the
 * bcall injected by the timer, which looks at the clock, the stop flag and
 * what it waits for, and either ends the call or adds itself to the timer
 * again; between ticks the call holds no worker.
 */
#include "builtins.h"

#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diag.h"
#include "duration.h"
#include "watchdog.h"
#include "yamldoc.h"

/* How often wait-for looks again. */
#define TICK_NS 50000000

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
static void sleepfor(struct wspx_worker *w, struct wspx__bcall *c);
static void waitfor(struct wspx_worker *w, struct wspx__bcall *c);

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
	{ sleepfor, { { "duration", VDUR, true } }, false },
	{ wspx__builtin_touch, { { "paths", VLIST, true } }, false },
	{ waitfor, { { "path", VSTR, false }, { "port", VPORT, false },
	    { "timeout", VDUR, false } }, true },
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

/* Required keys, and wait-for's one of path and port. */
static void
checkmissing(const char *b, const struct builtin *bi,
    const struct wspx__ynode *with, struct wspx__diag *d)
{
	unsigned line = with != NULL ? with->line : 0;
	unsigned col = with != NULL ? with->col : 0;
	const struct wspx__ynode *p, *q;
	const struct key *k;

	if (bi->oneof) {
		p = get(with, bi->keys[0].name);
		q = get(with, bi->keys[1].name);
		if (p == NULL && q == NULL)
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
	for (k = bi->keys; k->name != NULL; k++)
		if (k->required && get(with, k->name) == NULL)
			wspx__diag_add(d, line, col, "missing key '%s' in "
			    "with of %s", k->name, b);
}

void
wspx__builtin_check(const char *name, const struct wspx__ynode *with,
    struct wspx__diag *d)
{
	const struct builtin *bi = lookup(name);
	const struct wspx__ynode *k;
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
	checkmissing(name, bi, with, d);
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

/* The duration s of key, in ns. */
static bool
duration(struct wspx__bcall *c, const char *key, const char *s,
    int64_t *ns)
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
wspx__builtin_fail(struct wspx__bcall *c, const char *fmt, ...)
{
	size_t k = strlen(c->name) + 9, n;
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
	n = (size_t)snprintf(p, k, "wspx: %s: ", c->name);
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

static bool
stopping(const struct wspx__bcall *c)
{
	/* relaxed: the flag orders nothing.  A stop sets it and then calls
	 * wspx__timer_fire_all(), whose mutex and injection make it visible
	 * to the ticks that the stop sends early; a tick added just after
	 * that is sent by the caller's next fire_all. */
	return c->stopping != NULL &&
	    atomic_load_explicit(c->stopping, memory_order_relaxed);
}

static void
sleeptick(struct wspx_worker *w, struct wspx_job *job)
{
	struct wspx__bcall *c = wspx_container_of(job, struct wspx__bcall,
	    job);

	if (stopping(c)) {
		c->status = -ECANCELED;
	} else if (wspx__watchdog_now() < c->deadline) {
		/* Not yet (the first tick, or one sent early). */
		wspx__timer_add(c->timer, &c->timeout, c->deadline, &c->job);
		return;
	}
	c->done(w, c);
}

static void
sleepfor(struct wspx_worker *w, struct wspx__bcall *c)
{
	const char *s;
	int64_t ns;

	if (!wspx__builtin_str(c, "duration", true, &s) ||
	    !duration(c, "duration", s, &ns)) {
		c->done(w, c);
		return;
	}
	c->deadline = wspx__watchdog_now() + ns;
	c->job.run = sleeptick;
	sleeptick(w, &c->job);
}

/* Start a connect to the port on 127.0.0.1.  Returns true if it is
 * made; false if it is under way (c->fd set) or failed (refused at once,
 * as loopback does with no listener). */
static bool
connectnow(struct wspx__bcall *c)
{
	struct sockaddr_in a;
	int fd;

	fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return false;
	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_port = htons((uint16_t)c->port);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (connect(fd, (struct sockaddr *)&a, sizeof(a)) == 0) {
		close(fd);
		return true;
	}
	if (errno == EINPROGRESS)
		c->fd = fd;
	else
		close(fd);
	return false;
}

/* Whether the port accepted a connection: the one under way since the
 * last tick, or a new one. */
static bool
portready(struct wspx__bcall *c)
{
	struct pollfd p = { .fd = c->fd, .events = POLLOUT };
	socklen_t len = sizeof(int);
	int err = 0;

	if (c->fd >= 0) {
		if (poll(&p, 1, 0) == 0)
			return false;
		if (getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &err, &len) == 0 &&
		    err == 0)
			return true;
		close(c->fd);
		c->fd = -1;
	}
	return connectnow(c);
}

static void
waitend(struct wspx_worker *w, struct wspx__bcall *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	c->done(w, c);
}

static void
waittick(struct wspx_worker *w, struct wspx_job *job)
{
	struct wspx__bcall *c = wspx_container_of(job, struct wspx__bcall,
	    job);
	struct stat st;
	int64_t now;
	bool ready;

	if (stopping(c)) {
		c->status = -ECANCELED;
		waitend(w, c);
		return;
	}
	ready = c->port != 0 ? portready(c) :
	    fstatat(c->dirfd, c->what, &st, 0) == 0;
	now = wspx__watchdog_now();
	if (ready) {
		waitend(w, c);
	} else if (now >= c->deadline) {
		wspx__builtin_fail(c, "%s%s did not %s within %s",
		    c->port != 0 ? "port " : "", c->what, c->port != 0 ?
		    "accept a connection" : "appear", c->within);
		waitend(w, c);
	} else {
		/* The last look is at the deadline itself. */
		wspx__timer_add(c->timer, &c->timeout, now + TICK_NS <
		    c->deadline ? now + TICK_NS : c->deadline, &c->job);
	}
}

/* Read wait-for's arguments into c. */
static bool
waitsetup(struct wspx__bcall *c)
{
	const char *path, *port;
	int64_t ns;

	if (!wspx__builtin_str(c, "path", false, &path) ||
	    !wspx__builtin_str(c, "port", false, &port) ||
	    !wspx__builtin_str(c, "timeout", false, &c->within))
		return false;
	if ((path == NULL) == (port == NULL))
		return wspx__builtin_fail(c, "needs 'path' or 'port' (one)");
	if (c->within == NULL)
		c->within = "30s";
	if (!duration(c, "timeout", c->within, &ns))
		return false;
	c->what = path != NULL ? path : port;
	c->port = 0;
	if (port != NULL && (c->port = parseport(port)) == 0)
		return wspx__builtin_fail(c, "'port': '%s' %s", port,
		    badvalue(VPORT, port));
	c->deadline = wspx__watchdog_now() + ns;
	return true;
}

static void
waitfor(struct wspx_worker *w, struct wspx__bcall *c)
{
	if (!waitsetup(c)) {
		c->done(w, c);
		return;
	}
	c->job.run = waittick;
	waittick(w, &c->job);
}
