/*
 * The summary of what failed (see failures.h).  The first LISTED failures
 * are kept in full, as text ready to print; later ones are only counted,
 * so a run of a million failing jobs keeps a few kilobytes.
 */
#include "failures.h"

#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "os/thread.h"

#define LISTED		10	/* failed jobs shown in full */
#define TAIL_LINES	5	/* last lines of stderr shown per job */
#define CMD_MAX		120	/* bytes of a command shown */
#define LINE_MAX_SHOWN	200	/* bytes of a stderr line shown */

struct failures {
	pthread_mutex_t lock;	/* guards the rest */
	uint64_t failed;
	uint64_t cancelled;
	char *listed[LISTED];	/* each failure's lines, in order of end;
				 * all filled once the jobs have ended */
	size_t nlisted;
};

struct failures *
failures_new(void)
{
	struct failures *f = xcalloc(1, sizeof(*f));

	WSPX_MUST(pthread_mutex_init(&f->lock, NULL));
	return f;
}

void
failures_free(struct failures *f)
{
	size_t i;

	if (f == NULL)
		return;
	for (i = 0; i < f->nlisted; i++)
		free(f->listed[i]);
	WSPX_MUST(pthread_mutex_destroy(&f->lock));
	free(f);
}

/* Where to cut s (n bytes) to keep at most max: not inside a UTF-8
 * character. */
static size_t
cutat(const char *s, size_t n, size_t max)
{
	if (n <= max)
		return n;
	while (max > 0 && ((unsigned char)s[max] & 0xc0) == 0x80)
		max--;
	return max;
}

void
bufescaped(struct buf *b, const char *s, size_t n, size_t max)
{
	size_t keep = cutat(s, n, max), i;
	unsigned char c;

	for (i = 0; i < keep; i++) {
		c = (unsigned char)s[i];
		if (c == '\n')
			bufadds(b, "\\n");
		else if (c == '\t')
			bufadds(b, "\\t");
		else if (c < 0x20 || c == 0x7f)
			bufprintf(b, "\\x%02x", c);
		else
			bufaddc(b, (char)c);
	}
	if (keep < n)
		bufprintf(b, "... (%zu bytes)", n);
}

void
bufhowended(struct buf *b, const struct wspx__result *res)
{
	const char *name;

	if (res->timedout) {
		bufadds(b, "killed after its --timeout");
		if (res->killsig != 0 && (name = signame(res->killsig)) != NULL)
			bufprintf(b, " (%s)", name);
	} else if (res->declined) {
		bufadds(b, "declined at the -p question");
	} else if (!res->started) {
		bufprintf(b, "could not start: %s", strerror(-res->error));
	} else if (WIFSIGNALED(res->status)) {
		if ((name = signame(WTERMSIG(res->status))) != NULL)
			bufprintf(b, "killed by %s", name);
		else
			bufprintf(b, "killed by signal %d",
			    WTERMSIG(res->status));
	} else if (res->rejected && res->status == 0) {
		bufadds(b, "exit status 0, but what it left was refused (see "
		    "its output)");
	} else {
		bufprintf(b, "exit status %d", WEXITSTATUS(res->status));
	}
}

/* The last TAIL_LINES lines of tail (n bytes), each escaped and
 * indented, to b.  With cut (the bytes are the end of more), the first
 * line is left out unless it is the only one: it may be a part. */
static void
addtail(struct buf *b, const char *tail, size_t n, bool cut)
{
	const char *starts[TAIL_LINES], *end = tail + n, *p, *nl;
	size_t k, len;

	if (cut && (nl = memchr(tail, '\n', n)) != NULL && nl + 1 < end)
		tail = nl + 1;
	if (end > tail && end[-1] == '\n')
		end--;
	for (k = 0, p = end; k < TAIL_LINES && p > tail; k++) {
		while (p > tail && p[-1] != '\n')
			p--;
		starts[k] = p;
		if (p > tail)
			p--;	/* onto the newline that ends the line before */
	}
	while (k-- > 0) {
		p = starts[k];
		nl = memchr(p, '\n', (size_t)(end - p));
		len = (size_t)((nl != NULL ? nl : end) - p);
		bufadds(b, "    ");
		bufescaped(b, p, len, LINE_MAX_SHOWN);
		bufaddc(b, '\n');
	}
}

void
failures_add(struct failures *f, uint64_t seq, const char *name,
    const char *command,
    const struct wspx__result *res, const char *errtail, size_t n)
{
	struct buf b = { NULL, 0, 0 };
	size_t at, len;

	/* The place in the list is taken in order of the ends. */
	WSPX_MUST(pthread_mutex_lock(&f->lock));
	f->failed++;
	at = f->nlisted < LISTED ? f->nlisted++ : LISTED;
	WSPX_MUST(pthread_mutex_unlock(&f->lock));
	if (at == LISTED)
		return;
	/* (a job file's job by its name; the first listed ended first) */
	bufadds(&b, PROGNAME ": ");
	if (name != NULL)
		bufescaped(&b, name, strlen(name), CMD_MAX);
	else
		bufprintf(&b, "job %llu", (unsigned long long)seq);
	bufprintf(&b, "%s: ", at == 0 ? ", the first to fail" : "");
	bufhowended(&b, res);
	bufadds(&b, ": ");
	/* (a script's last newline is no line of its own) */
	for (len = strlen(command); len > 0 && command[len - 1] == '\n';
	    len--)
		;
	bufescaped(&b, command, len, CMD_MAX);
	bufaddc(&b, '\n');
	addtail(&b, errtail, n, n >= FAILURES_TAIL);
	WSPX_MUST(pthread_mutex_lock(&f->lock));
	f->listed[at] = buftake(&b);
	WSPX_MUST(pthread_mutex_unlock(&f->lock));
}

void
failures_cancelled(struct failures *f)
{
	WSPX_MUST(pthread_mutex_lock(&f->lock));
	f->cancelled++;
	WSPX_MUST(pthread_mutex_unlock(&f->lock));
}

void
failures_summary(struct failures *f, struct buf *b, const char *why)
{
	size_t i;

	WSPX_MUST(pthread_mutex_lock(&f->lock));
	if (f->failed == 0) {
		WSPX_MUST(pthread_mutex_unlock(&f->lock));
		return;
	}
	bufmsg(b, "%llu job%s failed", (unsigned long long)f->failed,
	    f->failed == 1 ? "" : "s");
	if (f->cancelled > 0)
		bufprintf(b, "; %llu cancelled%s%s", (unsigned long long)
		    f->cancelled, why != NULL ? " " : "", why != NULL ? why :
		    "");
	bufadds(b, ":\n");
	for (i = 0; i < f->nlisted; i++)
		bufadds(b, f->listed[i]);
	if (f->failed > i)
		bufmsg(b, "and %llu more failed jobs\n",
		    (unsigned long long)(f->failed - i));
	WSPX_MUST(pthread_mutex_unlock(&f->lock));
}
