/*
 * wspx report (see review.h): the file read (runlog.c), the numbers a
 * user asks for after a slow run, printed to stdout; the critical path
 * (critpath.c) and the picture (timeline.c) on request.
 */
#include "review.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "critpath.h"
#include "runlog.h"
#include "timeline.h"
#include "util/util.h"

#define DEFAULT_TOP	10

struct reviewopts {
	const char *file;
	const char *svg;
	long top;
};

/* What the spans add up to. */
struct totals {
	double wall;		/* the run's, or its last end */
	double busy;		/* the attempts' times added */
	size_t jobs, failed, attempts;
	size_t peak;		/* most attempts at once */
	size_t capacity;	/* slots: -j, or the rows the spans used */
};

static void
usage(void)
{
	printf("usage: " PROGNAME " report [--svg OUT] [--top N] FILE\n\n"
	    "What a run's --trace, --events or --joblog FILE says of it: "
	    "wall and CPU time,\nparallelism, idle slots, the slowest "
	    "jobs, a job file's critical path.\n\n"
	    "Options:\n"
	    "      --svg OUT          draw the run as an SVG timeline in "
	    "OUT\n"
	    "      --top N            list the N slowest jobs (default: "
	    "10)\n"
	    "  -h, --help             print this help and exit\n\n"
	    "See " PROGNAME "(1), \"After a run: wspx report\".\n");
	exit(EXIT_ALLOK);
}

static void
parseargs(int argc, char **argv, struct reviewopts *o)
{
	char *end;
	int i;

	o->top = DEFAULT_TOP;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v = NULL;

		if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0)
			usage();
		if (strcmp(a, "--svg") == 0 || strcmp(a, "--top") == 0) {
			if (i + 1 >= argc)
				badusage("report: %s needs a value", a);
			v = argv[++i];
		} else if (strncmp(a, "--svg=", 6) == 0 ||
		    strncmp(a, "--top=", 6) == 0) {
			v = a + 6;
		} else if (strcmp(a, "--") == 0 && i + 1 < argc) {
			a = argv[++i];
		} else if (a[0] == '-' && a[1] != '\0') {
			badusage("report: unknown option %s", a);
		}
		if (v == NULL) {
			if (o->file != NULL)
				badusage("report: one FILE, not %s and %s",
				    o->file, a);
			o->file = a;
		} else if (a[2] == 's') {
			if (strcmp(v, "-") == 0 || *v == '\0')
				badvalue("--svg", v, "it is a file to write "
				    "the picture in");
			o->svg = v;
		} else {
			errno = 0;
			o->top = strtol(v, &end, 10);
			if (*v == '\0' || *end != '\0' || errno != 0 ||
			    o->top < 0)
				badvalue("--top", v, "it is a count of jobs");
		}
	}
	if (o->file == NULL)
		badusage("report: which file? a --trace, --events or "
		    "--joblog file");
}

static int
byseq(const void *a, const void *b)
{
	const struct span *x = a, *y = b;

	if (x->seq != y->seq)
		return (x->seq > y->seq) - (x->seq < y->seq);
	if (x->attempt != y->attempt)
		return (x->attempt > y->attempt) - (x->attempt < y->attempt);
	/* (a joblog's rows are all attempt 1: the later is the last) */
	return (x->start > y->start) - (x->start < y->start);
}

/* Jobs (by seq; a retry's attempts share it) and those whose last
 * attempt failed. */
static void
countjobs(const struct runlog *rl, struct totals *t)
{
	struct span *s;
	size_t i;

	if (rl->nspans == 0)
		return;
	s = xmalloc(rl->nspans * sizeof(*s));
	memcpy(s, rl->spans, rl->nspans * sizeof(*s));
	qsort(s, rl->nspans, sizeof(*s), byseq);
	for (i = 0; i < rl->nspans; i++) {
		if (i + 1 < rl->nspans && s[i + 1].seq == s[i].seq)
			continue;
		t->jobs++;
		if (s[i].end_as != SPAN_OK)
			t->failed++;
	}
	free(s);
}

/* A start (+1) or an end (-1) of an attempt. */
struct edge {
	double at;
	int delta;
};

static int
byedge(const void *a, const void *b)
{
	const struct edge *x = a, *y = b;

	/* (an end before a start at the same time: back to back is not
	 * at once) */
	if (x->at != y->at)
		return (x->at > y->at) - (x->at < y->at);
	return x->delta - y->delta;
}

/* The most attempts running at once, on slots (a builtin is not); an
 * attempt of no length runs at no time. */
static size_t
peak(const struct runlog *rl)
{
	struct edge *ev = xmalloc((2 * rl->nspans + 1) * sizeof(*ev));
	size_t i, n = 0, most = 0;
	long now = 0;

	for (i = 0; i < rl->nspans; i++) {
		if (rl->spans[i].slot == 0 ||
		    rl->spans[i].end <= rl->spans[i].start)
			continue;
		ev[n].at = rl->spans[i].start;
		ev[n++].delta = 1;
		ev[n].at = rl->spans[i].end;
		ev[n++].delta = -1;
	}
	if (n > 0)
		qsort(ev, n, sizeof(*ev), byedge);
	for (i = 0; i < n; i++)
		if ((now += ev[i].delta) > (long)most)
			most = (size_t)now;
	free(ev);
	return most;
}

/* The slots the spans used: a (host, slot) pair each. */
static size_t
rows(const struct runlog *rl)
{
	unsigned *most = xcalloc(rl->nhosts + 1, sizeof(*most));
	size_t i, n = 0;

	for (i = 0; i < rl->nspans; i++)
		if (rl->spans[i].slot > most[rl->spans[i].host])
			most[rl->spans[i].host] = rl->spans[i].slot;
	for (i = 0; i <= rl->nhosts; i++)
		n += most[i];
	free(most);
	return n;
}

static void
totals(const struct runlog *rl, struct totals *t)
{
	size_t i;
	double last = 0;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < rl->nspans; i++) {
		if (rl->spans[i].slot > 0)
			t->busy += rl->spans[i].end - rl->spans[i].start;
		if (rl->spans[i].end > last)
			last = rl->spans[i].end;
	}
	t->wall = rl->wall >= 0 ? rl->wall : last;
	t->attempts = rl->nspans;
	countjobs(rl, t);
	/* (a joblog's attempts were put on as few slots as they fit, with
	 * the slack its rounded times need: that is the most at once) */
	t->peak = strcmp(rl->format, "joblog") == 0 ? rows(rl) : peak(rl);
	/* (-j is the slots of each host: with hosts, the rows used) */
	t->capacity = rl->slots > 0 && rl->nhosts == 0 ? (size_t)rl->slots :
	    rows(rl);
}

static void
printtotals(const struct runlog *rl, const struct totals *t)
{
	char a[32], b[32];

	printf("wall time        %s\n", runlog_duration(a, sizeof(a), t->wall));
	printf("jobs             %zu", t->jobs);
	if (t->failed > 0)
		printf(", %zu failed", t->failed);
	if (t->attempts > t->jobs)
		printf(" (%zu attempts)", t->attempts);
	printf("\njob time         %s, the attempts' times on slots added\n",
	    runlog_duration(a, sizeof(a), t->busy));
	if (rl->cpu >= 0)
		printf("CPU time         %s, the jobs' user and system\n",
		    runlog_duration(a, sizeof(a), rl->cpu));
	else
		printf("CPU time         not in a %s\n", rl->format);
	printf("parallelism      %.2f on average, %zu at most, of %zu "
	    "slot%s\n", t->wall > 0 ? t->busy / t->wall : 0.0, t->peak,
	    t->capacity, t->capacity == 1 ? "" : "s");
	if (t->capacity > 0 && t->wall > 0)
		printf("idle slot time   %s, %.0f%% of %zu x %s\n", runlog_duration(a,
		    sizeof(a), (double)t->capacity * t->wall - t->busy),
		    100 * (1 - t->busy / ((double)t->capacity * t->wall)),
		    t->capacity, runlog_duration(b, sizeof(b), t->wall));
}

static int
byduration(const void *a, const void *b)
{
	const struct span *x = *(const struct span *const *)a,
	    *y = *(const struct span *const *)b;
	double dx = x->end - x->start, dy = y->end - y->start;

	if (dx != dy)
		return (dx < dy) - (dx > dy);
	return strcmp(x->name, y->name);
}

/* The top attempts by time. */
static void
printslowest(const struct runlog *rl, long top)
{
	const struct span **by = xmalloc((rl->nspans + 1) * sizeof(*by));
	size_t i;
	char a[32];

	for (i = 0; i < rl->nspans; i++)
		by[i] = &rl->spans[i];
	if (rl->nspans > 0)
		qsort(by, rl->nspans, sizeof(*by), byduration);
	if (top > 0 && rl->nspans > 0)
		printf("\nslowest jobs\n");
	for (i = 0; i < rl->nspans && i < (size_t)top; i++)
		printf("  %9s  %s%s\n", runlog_duration(a, sizeof(a), by[i]->end -
		    by[i]->start), by[i]->name, by[i]->end_as == SPAN_OK ?
		    "" : by[i]->end_as == SPAN_TIMEDOUT ? " (timed out)" :
		    by[i]->end_as == SPAN_STOPPED ? " (stopped)" :
		    " (failed)");
	free(by);
}

static void
printpath(const struct runlog *rl, const struct critjob *p, size_t n,
    double wall)
{
	double sum = 0;
	char a[32], b[32];
	size_t i;

	if (strcmp(rl->format, "joblog") == 0) {
		printf("\ncritical path    not in a joblog, which has no "
		    "needs: see a --trace or --events file\n");
		return;
	}
	if (!rl->needs) {
		printf("\ncritical path    none: no job needs another\n");
		return;
	}
	for (i = 0; i < n; i++)
		sum += p[i].end - p[i].start;
	printf("\ncritical path    %zu job%s, %s of the %s wall\n", n,
	    n == 1 ? "" : "s", runlog_duration(a, sizeof(a), sum), runlog_duration(b, sizeof(b),
	    wall));
	for (i = 0; i < n; i++)
		printf("  %9s  %s\n", runlog_duration(a, sizeof(a), p[i].end -
		    p[i].start), p[i].name);
}

int
review_main(int argc, char **argv)
{
	struct reviewopts o = { NULL, NULL, 0 };
	struct critjob *path;
	struct runlog rl;
	struct totals t;
	size_t n;
	int rc;

	parseargs(argc, argv, &o);
	runlog_read(o.file, &rl);
	totals(&rl, &t);
	path = critpath_find(&rl, &n);
	/* (the picture first: a report is printed whole or not at all) */
	if (o.svg != NULL && (rc = timeline_write(o.svg, o.file, &rl, path,
	    n)) != 0)
		fatal("report: --svg %s: %s", o.svg, strerror(-rc));
	printf("%s (%s)\n", o.file, rl.format);
	printtotals(&rl, &t);
	printslowest(&rl, o.top);
	printpath(&rl, path, n, t.wall);
	free(path);
	runlog_free(&rl);
	if (fflush(stdout) != 0 || ferror(stdout))
		fatal("report: cannot write the report:");
	return EXIT_ALLOK;
}
