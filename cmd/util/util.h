/*
 * The command's small helpers: messages to stderr, usage errors, the exit
 * statuses, and allocation that exits on failure.  cmd/ only; lib/ never
 * prints or exits.
 */
#ifndef WSPX_UTIL_H
#define WSPX_UTIL_H

#include <stddef.h>

/* The program's name, which starts every message of its own. */
#define PROGNAME	"wspx"

/* Exit statuses, as GNU parallel's and in EXIT STATUS of wspx(1). */
enum exitstatus {
	EXIT_ALLOK = 0,		/* every job succeeded */
	EXIT_MAXFAILED = 100,	/* 1..100: that many jobs failed */
	EXIT_MANYFAILED = 101,	/* more than 100 failed */
	EXIT_USAGE = 255	/* usage, input or internal error */
	/* killed by signal N: 128 + N, by re-raising N */
};

/* Print "wspx: " and the message to stderr; a format ending in ':' also
 * gets strerror(errno). */
void warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* warn(), then exit with status EXIT_USAGE. */
void fatal(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));

/* Name where (a file and line, "$PARALLEL") after "wspx: " in the usage
 * errors from now on; NULL: none. */
void usagewhere(const char *where);

/* Report a usage error, with a pointer to --help, and exit with status
 * EXIT_USAGE. */
void badusage(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));

/* Report a usage error about an option's value and exit: opt is the
 * option as it was typed ("-j", "--jobs"), why says what is wrong. */
void badvalue(const char *opt, const char *value, const char *why);

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);

/* The name of signal sig ("SIGSEGV"), or NULL if it has none here. */
const char *signame(int sig);

#endif /* WSPX_UTIL_H */
