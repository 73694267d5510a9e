/*
 * -S/--sshlogin specs: [N/]SPEC, SPEC one of host, user@host, host:port,
 * user@host:port, ":".  GNU parallel's longer forms (an ssh command with
 * its options before the host) are refused: --ssh gives the command.
 */
#include "hosts.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

enum { MAXSLOTS = 100000 };

/* Whether s[0..n) is a number from 1 to max; sets *v. */
static bool
number(const char *s, size_t n, unsigned long max, unsigned long *v)
{
	size_t i;

	*v = 0;
	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9' || *v > max)
			return false;
		*v = *v * 10 + (unsigned long)(s[i] - '0');
	}
	return n > 0 && *v >= 1 && *v <= max;
}

/* Whether the host name (or user@host) has only what a name may have. */
static bool
goodname(const char *s, size_t n)
{
	const char *at = memchr(s, '@', n);
	size_t i;

	if (n == 0 || at == s || at == s + n - 1 || (at != NULL &&
	    memchr(at + 1, '@', (size_t)(s + n - at - 1)) != NULL))
		return false;
	for (i = 0; i < n; i++)
		if (s[i] <= ' ' || s[i] == 0x7f || strchr("'\"\\/;|&$`<>(){}*?",
		    s[i]) != NULL)
			return false;
	return s[0] != '-';
}

/* One [N/]SPEC of length n into h. */
static const char *
parseone(const char *s, size_t n, struct host *h)
{
	const char *slash = memchr(s, '/', n), *colon;
	unsigned long v;
	size_t len;

	memset(h, 0, sizeof(*h));
	if (slash != NULL) {
		if (!number(s, (size_t)(slash - s), MAXSLOTS, &v))
			return "N in N/SPEC is not a number from 1 to 100000";
		h->slots = (unsigned)v;
		n -= (size_t)(slash + 1 - s);
		s = slash + 1;
	}
	if (n == 1 && s[0] == ':') {
		h->local = true;
		h->spec = xstrdup(":");
		return NULL;
	}
	colon = memchr(s, ':', n);
	len = colon != NULL ? (size_t)(colon - s) : n;
	if (colon != NULL && !number(colon + 1, (size_t)(s + n - colon - 1),
	    65535, &v))
		return "the port in host:port is not a number from 1 to 65535";
	if (!goodname(s, len))
		return "not a host, user@host, host:port or user@host:port "
		    "(an ssh command goes in --ssh)";
	h->spec = xmalloc(n + 1);
	memcpy(h->spec, s, n);
	h->spec[n] = '\0';
	h->target = xmalloc(len + 1);
	memcpy(h->target, s, len);
	h->target[len] = '\0';
	if (colon != NULL) {
		h->port = xmalloc((size_t)(s + n - colon));
		memcpy(h->port, colon + 1, (size_t)(s + n - colon - 1));
		h->port[s + n - colon - 1] = '\0';
	}
	return NULL;
}

static void
freehost(struct host *h)
{
	free(h->spec);
	free(h->target);
	free(h->port);
}

const char *
hosts_add(struct hostlist *hl, const char *value)
{
	const char *s = value, *end, *err;
	struct host h;
	size_t n;

	if (*value == '\0')
		return "empty: a host is needed";
	for (;; s = end + 1) {
		end = strchr(s, ',');
		n = end != NULL ? (size_t)(end - s) : strlen(s);
		if (n == 0)
			return "an empty host in the list";
		if ((err = parseone(s, n, &h)) != NULL)
			return err;
		hl->v = xrealloc(hl->v, (hl->n + 1) * sizeof(*hl->v));
		hl->v[hl->n++] = h;
		if (end == NULL)
			return NULL;
	}
}

/* The line with comments and surrounding blanks cut off. */
static char *
trimline(char *line)
{
	char *e;

	if ((e = strchr(line, '#')) != NULL)
		*e = '\0';
	while (*line == ' ' || *line == '\t')
		line++;
	e = line + strlen(line);
	while (e > line && strchr(" \t\r\n", e[-1]) != NULL)
		*--e = '\0';
	return line;
}

void
hosts_file(struct hostlist *hl, const char *path)
{
	FILE *f = fopen(path, "r");
	char *line = NULL, *s;
	const char *err;
	size_t cap = 0;
	unsigned long lineno = 0;

	if (f == NULL)
		fatal("--sshloginfile %s:", path);
	while (getline(&line, &cap, f) >= 0) {
		lineno++;
		s = trimline(line);
		if (*s != '\0' && (err = hosts_add(hl, s)) != NULL)
			fatal("--sshloginfile %s:%lu: %s: %s", path, lineno,
			    s, err);
	}
	if (ferror(f))
		fatal("--sshloginfile %s:", path);
	free(line);
	fclose(f);
}

void
hosts_free(struct hostlist *hl)
{
	size_t i;

	for (i = 0; i < hl->n; i++)
		freehost(&hl->v[i]);
	free(hl->v);
	hl->v = NULL;
	hl->n = 0;
}

