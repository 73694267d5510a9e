/*
 * The JSON files of a run into spans (see runlog.h): a --trace file, an
 * array of events, and an --events file, an object a line.  A trace may
 * lack its closing "]" (a run that was killed), as the Chrome trace
 * format allows; so may its last event be cut short by a reader that came
 * while it was being written: that event is left out with a warning.
 * Each event is read into an arena of its own, emptied before the next,
 * so a file of a million events takes the memory of its spans.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "report/trace.h"
#include "runlog_int.h"
#include "util/util.h"

/* Where a trace's pids are: pid k is hosts[pidhost[k] - 1], 0 here. */
struct pids {
	unsigned *host;
	size_t n;
};

/* The needs of a span ("needs": ["a", "b"]), if it has them. */
static void
spanneeds(struct runlog *rl, struct span *sp, const struct wspx__json *a)
{
	const struct wspx__json *m;
	size_t n = 0;

	if (a == NULL || a->type != WSPX__JSON_ARRAY)
		return;
	for (m = a->first; m != NULL; m = m->next)
		n++;
	sp->needs = wspx__arena_alloc(&rl->strings, (n + 1) *
	    sizeof(*sp->needs), _Alignof(const char *));
	if (sp->needs == NULL)
		fatal("report: out of memory");
	for (m = a->first; m != NULL; m = m->next)
		if (m->type == WSPX__JSON_STRING)
			sp->needs[sp->nneeds++] = runlog_keep(rl, m->str);
	rl->needs = true;
}

/* How an attempt ended, from its keys (a trace's args, an end event). */
static enum spanend
ended(const struct wspx__json *o)
{
	const struct wspx__json *t = wspx__json_get(o, "timeout");

	if (t != NULL && t->type == WSPX__JSON_BOOL && t->boolean)
		return SPAN_TIMEDOUT;
	if (wspx__json_number(o, "killed", 0) != 0)
		return SPAN_STOPPED;
	return wspx__json_number(o, "exit", -1) == 0 &&
	    wspx__json_get(o, "error") == NULL &&
	    wspx__json_number(o, "signal", 0) == 0 ? SPAN_OK : SPAN_FAILED;
}

/* The run's summary: a trace's "run over", an events file's summary. */
static void
summary(struct runlog *rl, const struct wspx__json *o)
{
	double user = wspx__json_number(o, "cpu_user", -1),
	    sys = wspx__json_number(o, "cpu_system", -1);

	rl->wall = wspx__json_number(o, "wall", -1);
	rl->cpu = user >= 0 && sys >= 0 ? user + sys : -1;
	rl->slots = wspx__json_get(o, "slots") != NULL ? (long)runlog_count(
	    wspx__json_number(o, "slots", 0), 1u << 30) : -1;
}

/* An X event: an attempt. */
static void
tracespan(struct runlog *rl, const struct pids *p, const struct wspx__json *e)
{
	const struct wspx__json *args = wspx__json_get(e, "args");
	const char *name = wspx__json_string(args, "job");
	size_t pid = runlog_count(wspx__json_number(e, "pid", 1), 1u << 20);
	uint64_t tid = runlog_count(wspx__json_number(e, "tid", 0),
	    UINT32_MAX);
	struct span *sp = runlog_add(rl);

	/* (a name the trace cut short is whole in args.job, which the
	 * needs of other jobs name) */
	if (name == NULL)
		name = wspx__json_string(e, "name");
	sp->name = runlog_keep(rl, name != NULL ? name : "");
	sp->start = wspx__json_number(e, "ts", 0) / 1e6;
	sp->end = sp->start + wspx__json_number(e, "dur", 0) / 1e6;
	/* (a builtin's track: its worker's, after the slots') */
	if (tid >= TRACE_WORKER_TID)
		sp->worker = (unsigned)(tid - TRACE_WORKER_TID);
	else
		sp->slot = (unsigned)tid;
	sp->host = pid < p->n ? p->host[pid] : 0;
	sp->end_as = ended(args);
	sp->attempt = (unsigned)runlog_count(wspx__json_number(args,
	    "attempt", 1), UINT32_MAX);
	sp->seq = runlog_count(wspx__json_number(args, "seq", 0),
	    UINT64_MAX >> 11);
	spanneeds(rl, sp, wspx__json_get(args, "needs"));
}

/* A process_name event: pid is a host's (pid 1 is this machine). */
static void
tracehost(struct runlog *rl, struct pids *p, const struct wspx__json *e)
{
	size_t k = runlog_count(wspx__json_number(e, "pid", 0), 1u << 20);
	const char *host = wspx__json_string(wspx__json_get(e, "args"),
	    "name");

	if (k < 2 || host == NULL)
		return;
	if (k >= p->n) {
		p->host = xrealloc(p->host, (k + 1) * sizeof(*p->host));
		memset(p->host + p->n, 0, (k + 1 - p->n) * sizeof(*p->host));
		p->n = k + 1;
	}
	p->host[k] = runlog_host(rl, host);
}

/* A counter event of the "jobs" group: a sample. */
static void
tracesample(struct runlog *rl, const struct wspx__json *e)
{
	const struct wspx__json *args = wspx__json_get(e, "args");
	struct sample *s;

	if ((rl->nsamples & (rl->nsamples - 1)) == 0)
		rl->samples = xrealloc(rl->samples, (rl->nsamples == 0 ? 1 :
		    rl->nsamples * 2) * sizeof(*rl->samples));
	s = &rl->samples[rl->nsamples++];
	s->at = wspx__json_number(e, "ts", 0) / 1e6;
	s->running = wspx__json_number(args, "running", 0);
	s->queued = wspx__json_number(args, "queued", 0);
	s->waiting = wspx__json_number(args, "waiting", 0);
}

/* An instant: a timeout marks the attempt just written (the trace writes
 * the two together); "run over" holds the summary. */
static void
traceinstant(struct runlog *rl, const struct wspx__json *e, const char *name)
{
	const struct wspx__json *args = wspx__json_get(e, "args");
	struct span *last = rl->nspans > 0 ? &rl->spans[rl->nspans - 1] : NULL;

	if (strcmp(name, "run over") == 0)
		summary(rl, args);
	else if (strcmp(name, "timeout") == 0 && last != NULL &&
	    last->seq == runlog_count(wspx__json_number(args, "seq", 0),
	    UINT64_MAX >> 11))
		last->end_as = SPAN_TIMEDOUT;
}

static void
traceevent(struct runlog *rl, struct pids *p, const struct wspx__json *e)
{
	const char *ph = wspx__json_string(e, "ph"),
	    *name = wspx__json_string(e, "name");

	if (ph == NULL || name == NULL)
		return;
	if (strcmp(ph, "X") == 0)
		tracespan(rl, p, e);
	else if (strcmp(ph, "M") == 0 && strcmp(name, "process_name") == 0)
		tracehost(rl, p, e);
	else if (strcmp(ph, "C") == 0 && strcmp(name, "jobs") == 0)
		tracesample(rl, e);
	else if (strcmp(ph, "i") == 0)
		traceinstant(rl, e, name);
}

/* One value at *pos into a's arena, or fatal; NULL when the file ends
 * inside it (cut short), with a warning.  *start: where the value
 * starts. */
static struct wspx__json *
readone(const struct logfile *f, struct wspx__arena *a, size_t *pos,
    size_t *start)
{
	struct wspx__json *v;
	const char *why;

	wspx__json_skipspace(f->s, f->len, pos);
	*start = *pos;
	if ((v = wspx__json_read(a, f->s, f->len, pos, &why)) == NULL) {
		if (*pos >= f->len) {
			warn("report: %s: its last event is cut short; left "
			    "out", f->path);
			return NULL;
		}
		logfile_bad(f, *pos, why);
	}
	return v;
}

void
jsonlog_trace(const struct logfile *f, struct runlog *rl)
{
	struct wspx__arena a = { NULL, 0 };
	struct wspx__json *e;
	struct pids p = { NULL, 0 };
	size_t pos = 0, start;

	rl->format = "trace";
	wspx__json_skipspace(f->s, f->len, &pos);
	pos++;			/* ([, seen by runlog_read) */
	for (;;) {
		wspx__json_skipspace(f->s, f->len, &pos);
		if (pos >= f->len || f->s[pos] == ']')
			break;	/* (no "]": a run killed, see above) */
		if ((e = readone(f, &a, &pos, &start)) == NULL)
			break;
		if (e->type != WSPX__JSON_OBJECT)
			logfile_bad(f, start, "a trace event is an object");
		traceevent(rl, &p, e);
		wspx__arena_fini(&a);
		wspx__json_skipspace(f->s, f->len, &pos);
		if (pos < f->len && f->s[pos] == ',')
			pos++;
		else if (pos < f->len && f->s[pos] != ']')
			logfile_bad(f, pos, "a trace needs , or ] after an "
			    "event");
	}
	wspx__arena_fini(&a);
	free(p.host);
}

/* An end event of --events, at place at of f.  Its times are Unix
 * times, made from the earliest start (runlog.c): bounded as a joblog's
 * are, so that no difference of two overflows to inf. */
static void
eventend(const struct logfile *f, size_t at, struct runlog *rl,
    const struct wspx__json *e)
{
	const char *name = wspx__json_string(e, "job"),
	    *host = wspx__json_string(e, "host");
	struct span *sp = runlog_add(rl);

	if (name == NULL)
		name = wspx__json_string(e, "command");
	sp->name = runlog_keep(rl, name != NULL ? name : "");
	sp->start = wspx__json_number(e, "start", 0);
	sp->end = wspx__json_number(e, "end", sp->start);
	if (!(sp->start >= -1e15 && sp->start <= 1e15 && sp->end >= -1e15 &&
	    sp->end <= 1e15))
		logfile_bad(f, at, "an event's start or end is out of range");
	sp->slot = (unsigned)runlog_count(wspx__json_number(e, "slot", 0),
	    UINT32_MAX);
	sp->worker = (unsigned)runlog_count(wspx__json_number(e, "worker", 0),
	    UINT32_MAX);
	sp->host = host != NULL ? runlog_host(rl, host) : 0;
	sp->end_as = ended(e);
	sp->attempt = (unsigned)runlog_count(wspx__json_number(e, "attempt",
	    1), UINT32_MAX);
	sp->seq = runlog_count(wspx__json_number(e, "seq", 0),
	    UINT64_MAX >> 11);
	spanneeds(rl, sp, wspx__json_get(e, "needs"));
}

void
jsonlog_events(const struct logfile *f, struct runlog *rl)
{
	struct wspx__arena a = { NULL, 0 };
	struct wspx__json *e;
	const char *kind;
	size_t pos = 0, start;

	rl->format = "events";
	for (;;) {
		wspx__json_skipspace(f->s, f->len, &pos);
		if (pos >= f->len || (e = readone(f, &a, &pos, &start)) ==
		    NULL)
			break;
		if ((kind = wspx__json_string(e, "event")) == NULL)
			logfile_bad(f, start, "an event needs its \"event\" "
			    "key");
		if (strcmp(kind, "end") == 0)
			eventend(f, start, rl, e);
		else if (strcmp(kind, "summary") == 0)
			summary(rl, e);
		wspx__arena_fini(&a);
	}
	wspx__arena_fini(&a);
}
