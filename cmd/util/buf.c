/*
 * Growable strings for the command's messages, command lines and JSON.
 * Allocation failure is fatal, as everywhere in cmd/.
 */
#include "buf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

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

void
bufvprintf(struct buf *b, const char *fmt, va_list ap)
{
	char small[256], *big;
	va_list again;
	int n;

	va_copy(again, ap);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	if (n >= 0 && (size_t)n < sizeof(small)) {
		bufadd(b, small, (size_t)n);
	} else if (n >= 0) {
		big = xmalloc((size_t)n + 1);
		vsnprintf(big, (size_t)n + 1, fmt, again);
		bufadd(b, big, (size_t)n);
		free(big);
	}
	va_end(again);
}

void
bufprintf(struct buf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	bufvprintf(b, fmt, ap);
	va_end(ap);
}

void
bufmsg(struct buf *b, const char *fmt, ...)
{
	va_list ap;

	bufadds(b, PROGNAME ": ");
	va_start(ap, fmt);
	bufvprintf(b, fmt, ap);
	va_end(ap);
}

/* Length of the valid UTF-8 sequence at s (n bytes left), or 0. */
static size_t
utf8len(const unsigned char *s, size_t n)
{
	size_t len, i;
	unsigned c = s[0];

	len = c >= 0xf0 && c <= 0xf4 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 &&
	    c < 0xe0 ? 2 : 0;
	if (c >= 0xf5 || len == 0 || len > n)
		return 0;
	for (i = 1; i < len; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	/* no overlong forms, no surrogates, nothing past U+10FFFF */
	if ((c == 0xe0 && s[1] < 0xa0) || (c == 0xed && s[1] >= 0xa0) ||
	    (c == 0xf0 && s[1] < 0x90) || (c == 0xf4 && s[1] >= 0x90))
		return 0;
	return len;
}

void
bufjson(struct buf *b, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s), k;

	bufaddc(b, '"');
	while (n > 0) {
		if (*p == '"' || *p == '\\') {
			bufaddc(b, '\\');
			bufaddc(b, (char)*p);
			k = 1;
		} else if (*p >= 0x20 && *p < 0x7f) {
			bufaddc(b, (char)*p);
			k = 1;
		} else if (*p >= 0x80 && (k = utf8len(p, n)) > 0) {
			bufadd(b, (const char *)p, k);
		} else {
			/* a control character, DEL, or a byte that is not
			 * UTF-8: the code point of the same number */
			bufprintf(b, "\\u%04x", *p);
			k = 1;
		}
		p += k;
		n -= k;
	}
	bufaddc(b, '"');
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
