/*
 * Messages and allocation for the wspx command.
 */
#include "util.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { EXIT_ERROR = 255 };	/* matches EXIT_USAGE in main.c */

static void
vwarn(const char *fmt, va_list ap)
{
	int e = errno;
	size_t n = strlen(fmt);

	fputs("wspx: ", stderr);
	vfprintf(stderr, fmt, ap);
	if (n > 0 && fmt[n - 1] == ':')
		fprintf(stderr, " %s", strerror(e));
	fputc('\n', stderr);
}

void
warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn(fmt, ap);
	va_end(ap);
}

void
fatal(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn(fmt, ap);
	va_end(ap);
	exit(EXIT_ERROR);
}

void *
xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (p == NULL)
		fatal("out of memory");
	return p;
}

void *
xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (p == NULL)
		fatal("out of memory");
	return p;
}

void *
xrealloc(void *p, size_t n)
{
	if ((p = realloc(p, n ? n : 1)) == NULL)
		fatal("out of memory");
	return p;
}

char *
xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(xmalloc(n), s, n);
}

void
bufadd(struct buf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		b->cap = b->cap ? b->cap : 64;
		while (b->len + n + 1 > b->cap)
			b->cap *= 2;
		b->s = xrealloc(b->s, b->cap);
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

void
bufaddc(struct buf *b, char c)
{
	bufadd(b, &c, 1);
}

void
bufadds(struct buf *b, const char *s)
{
	bufadd(b, s, strlen(s));
}

char *
buftake(struct buf *b)
{
	char *s = b->s != NULL ? b->s : xstrdup("");

	b->s = NULL;
	b->len = b->cap = 0;
	return s;
}

char **
packwords(const struct buf *words, size_t n)
{
	char **v, *s;
	size_t i;

	v = xmalloc((n + 1) * sizeof(char *) + words->len + 1);
	s = (char *)(v + n + 1);
	if (words->len > 0)
		memcpy(s, words->s, words->len);
	for (i = 0; i < n; i++) {
		v[i] = s;
		s += strlen(s) + 1;
	}
	v[n] = NULL;
	return v;
}
