/*
 * A run's file read into spans (see runlog.h): the file whole in memory,
 * its format from its first bytes, and the joblog's reader; the JSON
 * formats are jsonlog.c's.
 */
#include "runlog.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runlog_int.h"
#include "util/util.h"

/* The joblog's first line, as lib/exec/joblog.c writes it. */
#define JOBLOG_HEAD	"Seq\tHost\tStarttime\tJobRuntime\t"

void
logfile_bad(const struct logfile *f, size_t pos, const char *why)
{
	unsigned long line = 1, col = 1;
	size_t i;

	for (i = 0; i < pos && i < f->len; i++) {
		if (f->s[i] == '\n') {
			line++;
			col = 1;
		} else if (((unsigned char)f->s[i] & 0xc0) != 0x80) {
			col++;	/* (a column a character, not a byte) */
		}
	}
	fatal("report: %s:%lu:%lu: %s", f->path, line, col, why);
}

struct span *
runlog_add(struct runlog *rl)
{
	struct span *sp;

	/* (a power of two each time the array is full) */
	if ((rl->nspans & (rl->nspans - 1)) == 0)
		rl->spans = xrealloc(rl->spans, (rl->nspans == 0 ? 1 :
		    rl->nspans * 2) * sizeof(*rl->spans));
	sp = &rl->spans[rl->nspans++];
	memset(sp, 0, sizeof(*sp));
	return sp;
}

const char *
runlog_keep(struct runlog *rl, const char *s)
{
	const char *k = wspx__arena_strdup(&rl->strings, s, strlen(s));

	if (k == NULL)
		fatal("report: out of memory");
	return k;
}

uint64_t
runlog_count(double v, uint64_t max)
{
	return v >= 0 && v <= (double)max ? (uint64_t)v : 0;
}

unsigned
runlog_host(struct runlog *rl, const char *host)
{
	size_t i;

	for (i = 0; i < rl->nhosts; i++)
		if (strcmp(rl->hosts[i], host) == 0)
			return (unsigned)i + 1;
	rl->hosts = xrealloc(rl->hosts, (rl->nhosts + 1) *
	    sizeof(*rl->hosts));
	rl->hosts[rl->nhosts++] = runlog_keep(rl, host);
	return (unsigned)rl->nhosts;
}

/* path whole into f; fatal if it cannot be read. */
static void
slurp(const char *path, struct logfile *f)
{
	size_t cap = 1 << 16, len = 0;
	char *s = xmalloc(cap);
	ssize_t n;
	int fd;

	if (strcmp(path, "-") == 0)
		fd = STDIN_FILENO;
	else if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		fatal("report: cannot open %s:", path);
	for (;;) {
		if (len == cap)
			s = xrealloc(s, cap *= 2);
		if ((n = read(fd, s + len, cap - len)) == 0)
			break;
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			fatal("report: cannot read %s:", path);
		len += (size_t)n;
	}
	if (fd != STDIN_FILENO)
		(void)close(fd);
	f->path = strcmp(path, "-") == 0 ? "standard input" : path;
	f->s = s;
	f->len = len;
}

/* The field of line [at, end) after *at, up to a tab, NUL ending it in
 * place; *at past the tab.  NULL if no tab ends it. */
static char *
field(char *s, size_t *at, size_t end)
{
	char *start = s + *at;

	while (*at < end && s[*at] != '\t')
		(*at)++;
	if (*at >= end)
		return NULL;
	s[(*at)++] = '\0';
	return start;
}

/* A number of the joblog at place p of f, whole, or fatal. */
static double
joblognumber(const struct logfile *f, const char *p, const char *what)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(p, &end);
	/* (nan and inf are strtod's, not a joblog's) */
	if (end == p || *end != '\0' || errno != 0 || !(v >= -1e15 &&
	    v <= 1e15))
		logfile_bad(f, (size_t)(p - f->s), what);
	return v;
}

/* A row of the joblog: Seq Host Starttime JobRuntime Send Receive
 * Exitval Signal Command (see wspx(1)). */
static void
joblogrow(const struct logfile *f, char *s, size_t at, size_t end,
    struct runlog *rl)
{
	char *col[8];
	struct span *sp;
	size_t i;
	double exitval, sig;

	if (end > at && s[end - 1] == '\r')	/* (CRLF line ends) */
		end--;
	for (i = 0; i < 8; i++)
		if ((col[i] = field(s, &at, end)) == NULL)
			logfile_bad(f, at, "a joblog row has nine columns, "
			    "tab-separated");
	s[end] = '\0';
	sp = runlog_add(rl);
	sp->seq = runlog_count(joblognumber(f, col[0], "Seq is not a number"),
	    UINT64_MAX >> 11);
	if (strcmp(col[1], ":") != 0 && col[1][0] != '\0')
		sp->host = runlog_host(rl, col[1]);
	sp->start = joblognumber(f, col[2], "Starttime is not a number");
	sp->end = sp->start + joblognumber(f, col[3],
	    "JobRuntime is not a number");
	if (sp->end < sp->start)
		logfile_bad(f, (size_t)(col[3] - f->s), "JobRuntime is "
		    "negative");
	exitval = joblognumber(f, col[6], "Exitval is not a number");
	sig = joblognumber(f, col[7], "Signal is not a number");
	/* (-1 and a signal: wspx killed it, as GNU parallel writes) */
	sp->end_as = exitval < 0 && sig != 0 ? SPAN_STOPPED : exitval != 0 ||
	    sig != 0 ? SPAN_FAILED : SPAN_OK;
	sp->name = runlog_keep(rl, s + at);
	sp->attempt = 1;
}

static void
readjoblog(const struct logfile *f, char *s, struct runlog *rl)
{
	size_t at, end;

	rl->format = "joblog";
	for (at = 0; at < f->len && s[at] != '\n'; at++)
		;
	for (at++; at < f->len; at = end + 1) {
		for (end = at; end < f->len && s[end] != '\n'; end++)
			;
		if (end > at)
			joblogrow(f, s, at, end, rl);
	}
}

/* The lowest slot free at each attempt's start, in order of start: a
 * joblog's attempts on as few rows as they need. */
static int
bystart(const void *a, const void *b)
{
	const struct span *x = a, *y = b;

	return (x->start > y->start) - (x->start < y->start);
}

static void
placeslots(struct runlog *rl)
{
	double **free_at = xcalloc(rl->nhosts + 1, sizeof(*free_at));
	size_t *nslots = xcalloc(rl->nhosts + 1, sizeof(*nslots)), i, k, h;

	if (rl->nspans > 0)
		qsort(rl->spans, rl->nspans, sizeof(*rl->spans), bystart);
	for (i = 0; i < rl->nspans; i++) {
		h = rl->spans[i].host;
		/* (slack: the joblog rounds a start and a runtime to the
		 * millisecond, so a slot handed on can seem to end up to
		 * 1.5 ms after the next start; printed times differ by whole
		 * milliseconds, and 1 ms computed in floating point may come
		 * out a hair over, as 1.5 ms never does) */
		for (k = 0; k < nslots[h] && free_at[h][k] >
		    rl->spans[i].start + 1.5e-3; k++)
			;
		if (k == nslots[h])
			free_at[h] = xrealloc(free_at[h], ++nslots[h] *
			    sizeof(**free_at));
		free_at[h][k] = rl->spans[i].end;
		rl->spans[i].slot = (unsigned)k + 1;
	}
	for (h = 0; h <= rl->nhosts; h++)
		free(free_at[h]);
	free(free_at);
	free(nslots);
}

/* Times from the earliest start (a trace's are from its opening). */
static void
fromzero(struct runlog *rl)
{
	double t0 = 0;
	size_t i;

	for (i = 0; i < rl->nspans; i++)
		if (i == 0 || rl->spans[i].start < t0)
			t0 = rl->spans[i].start;
	for (i = 0; i < rl->nspans; i++) {
		rl->spans[i].start -= t0;
		rl->spans[i].end -= t0;
	}
}

/* A span that ends before it starts (a hand-made file) ends as it
 * starts. */
static void
noreverse(struct runlog *rl)
{
	size_t i;

	for (i = 0; i < rl->nspans; i++)
		if (rl->spans[i].end < rl->spans[i].start)
			rl->spans[i].end = rl->spans[i].start;
}

void
runlog_read(const char *path, struct runlog *rl)
{
	struct logfile f;
	size_t at = 0;

	memset(rl, 0, sizeof(*rl));
	rl->wall = rl->cpu = -1;
	rl->slots = -1;
	slurp(path, &f);
	while (at < f.len && (f.s[at] == ' ' || f.s[at] == '\t' ||
	    f.s[at] == '\n' || f.s[at] == '\r'))
		at++;
	if (at < f.len && f.s[at] == '[') {
		jsonlog_trace(&f, rl);
	} else if (at < f.len && f.s[at] == '{') {
		jsonlog_events(&f, rl);
		fromzero(rl);
	} else if (f.len >= strlen(JOBLOG_HEAD) && memcmp(f.s, JOBLOG_HEAD,
	    strlen(JOBLOG_HEAD)) == 0) {
		readjoblog(&f, (char *)f.s, rl);
		fromzero(rl);
		placeslots(rl);
	} else {
		logfile_bad(&f, at, "not a trace (--trace), an events file "
		    "(--events) or a joblog (--joblog)");
	}
	noreverse(rl);
	free((char *)f.s);
}

void
runlog_free(struct runlog *rl)
{
	free(rl->spans);
	free(rl->hosts);
	free(rl->samples);
	wspx__arena_fini(&rl->strings);
}

const char *
runlog_duration(char *b, size_t size, double s)
{
	long whole = s >= 0 && s < 1e12 ? (long)(s + 0.5) : 0;

	if (!(s >= 0 && s < 1e12))	/* (a file's nonsense, as it is) */
		snprintf(b, size, "%.3gs", s);
	else if (s < 10)
		snprintf(b, size, "%.2fs", s);
	else if (s < 60)
		snprintf(b, size, "%.1fs", s);
	else if (whole < 3600)
		snprintf(b, size, "%ld:%02ld", whole / 60, whole % 60);
	else
		snprintf(b, size, "%ld:%02ld:%02ld", whole / 3600,
		    whole / 60 % 60, whole % 60);
	return b;
}
