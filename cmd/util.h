/*
 * The command's small helpers: messages to stderr and allocation that
 * exits on failure.  cmd/ only; lib/ never prints or exits.
 */
#ifndef WSPX_UTIL_H
#define WSPX_UTIL_H

#include <stddef.h>

/* Print "wspx: " and the message to stderr; a format ending in ':' also
 * gets strerror(errno). */
void warn(const char *fmt, ...);

/* warn(), then exit with status 255. */
void fatal(const char *fmt, ...);

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);

/* A growable string. */
struct buf {
	char *s;		/* NUL-terminated when len > 0 or s != NULL */
	size_t len, cap;
};

void bufadd(struct buf *b, const char *s, size_t n);
void bufaddc(struct buf *b, char c);
void bufadds(struct buf *b, const char *s);
/* CLOCK_MONOTONIC in seconds. */
double monotonic(void);

/* The time of day (CLOCK_REALTIME) in seconds since the Unix epoch. */
double unixtime(void);

/* Die of signal sig (its default action restored and unblocked in the
 * calling thread), or with status 128 + sig if it does not kill. */
_Noreturn void diesig(int sig);

/* The name of signal sig ("SIGSEGV"), or NULL if it has none here. */
const char *signame(int sig);

/* Append printf-style. */
void bufprintf(struct buf *b, const char *fmt, ...)
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

#endif /* WSPX_UTIL_H */
