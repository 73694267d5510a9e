/*
 * Messages and allocation for the wspx command.
 */
#include "util.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { EXIT_ERROR = 255 };	/* matches EXIT_USAGE in run.h */

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

static double
seconds(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

double
monotonic(void)
{
	return seconds(CLOCK_MONOTONIC);
}

double
unixtime(void)
{
	return seconds(CLOCK_REALTIME);
}

void
bufprintf(struct buf *b, const char *fmt, ...)
{
	char small[256], *big;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < sizeof(small)) {
		bufadd(b, small, (size_t)n);
		return;
	}
	big = xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(big, (size_t)n + 1, fmt, ap);
	va_end(ap);
	bufadd(b, big, (size_t)n);
	free(big);
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

void
diesig(int sig)
{
	sigset_t set;

	signal(sig, SIG_DFL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	pthread_sigmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
	_exit(128 + sig);
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
