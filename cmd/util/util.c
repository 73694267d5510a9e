/*
 * Messages, allocation and the exit statuses of the wspx command (see
 * util.h).  cmd/ only: lib/ never prints or exits.
 */
#include "util.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The message in one write, so that messages of several threads (one
 * per job with --explain) and the jobs' output never interleave within
 * a line. */
static void
vwarn(const char *fmt, va_list ap)
{
	int e = errno;
	size_t n = strlen(fmt);
	char small[512], *msg = small;
	va_list again;
	int len;

	va_copy(again, ap);
	len = vsnprintf(small, sizeof(small), fmt, ap);
	if (len >= 0 && (size_t)len >= sizeof(small) &&
	    (msg = malloc((size_t)len + 1)) != NULL)
		vsnprintf(msg, (size_t)len + 1, fmt, again);
	else if (msg == NULL)
		msg = small;	/* (cut short, rather than lost) */
	va_end(again);
	if (len < 0)
		small[0] = '\0';
	if (n > 0 && fmt[n - 1] == ':')
		fprintf(stderr, PROGNAME ": %s %s\n", msg, strerror(e));
	else
		fprintf(stderr, PROGNAME ": %s\n", msg);
	if (msg != small)
		free(msg);
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
	exit(EXIT_USAGE);
}

static const char *usagefrom;

void
usagewhere(const char *where)
{
	usagefrom = where;
}

void
badusage(const char *fmt, ...)
{
	va_list ap;

	fputs(PROGNAME ": ", stderr);
	if (usagefrom != NULL)
		fprintf(stderr, "%s: ", usagefrom);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\n(see " PROGNAME " --help)\n", stderr);
	exit(EXIT_USAGE);
}

void
badvalue(const char *opt, const char *value, const char *why)
{
	badusage("%s: '%s' %s", opt, value, why);
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

const char *
signame(int sig)
{
	static const struct {
		int sig;
		const char *name;
	} names[] = {
		{ SIGHUP, "SIGHUP" }, { SIGINT, "SIGINT" },
		{ SIGQUIT, "SIGQUIT" }, { SIGILL, "SIGILL" },
		{ SIGTRAP, "SIGTRAP" }, { SIGABRT, "SIGABRT" },
		{ SIGBUS, "SIGBUS" }, { SIGFPE, "SIGFPE" },
		{ SIGKILL, "SIGKILL" }, { SIGUSR1, "SIGUSR1" },
		{ SIGSEGV, "SIGSEGV" }, { SIGUSR2, "SIGUSR2" },
		{ SIGPIPE, "SIGPIPE" }, { SIGALRM, "SIGALRM" },
		{ SIGTERM, "SIGTERM" }, { SIGCHLD, "SIGCHLD" },
		{ SIGCONT, "SIGCONT" }, { SIGSTOP, "SIGSTOP" },
		{ SIGTSTP, "SIGTSTP" }, { SIGTTIN, "SIGTTIN" },
		{ SIGTTOU, "SIGTTOU" }, { SIGURG, "SIGURG" },
		{ SIGXCPU, "SIGXCPU" }, { SIGXFSZ, "SIGXFSZ" },
		{ SIGVTALRM, "SIGVTALRM" }, { SIGPROF, "SIGPROF" },
		{ SIGSYS, "SIGSYS" },
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].sig == sig)
			return names[i].name;
	return NULL;
}
