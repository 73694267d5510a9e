/*
 * A growable string, for messages, command lines and JSON (buf.c).
 */
#ifndef WSPX_BUF_H
#define WSPX_BUF_H

#include <stdarg.h>
#include <stddef.h>

struct buf {
	char *s;		/* NUL-terminated when len > 0 or s != NULL */
	size_t len, cap;
};

void bufadd(struct buf *b, const char *s, size_t n);
void bufaddc(struct buf *b, char c);
void bufadds(struct buf *b, const char *s);

/* Append printf-style. */
void bufprintf(struct buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The same, with the arguments of a caller's own varargs. */
void bufvprintf(struct buf *b, const char *fmt, va_list ap);

/* Append a message as warn() prints it, "wspx: " first; without the
 * final newline. */
void bufmsg(struct buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Append s as a JSON string, quoted.  Bytes that are not UTF-8 become the
 * code points of the same numbers (\u0080 to \u00ff). */
void bufjson(struct buf *b, const char *s);

/* Take the string out of b (never NULL) and empty b. */
char *buftake(struct buf *b);

/* Pack n NUL-terminated words, one after another in words, into one
 * malloc'd block: a NULL-terminated array of n pointers, then the strings.
 * One free() releases it. */
char **packwords(const struct buf *words, size_t n);

#endif /* WSPX_BUF_H */
