/*
 * Records into jobs: how many input records each job gets.  One record a
 * job by default; -n, -N and -L give a count; -m, -X and --xargs put in as
 * many as fit in a command line of -s characters, measured as GNU parallel
 * measures it (the line with its values quoted for the shell; command.c
 * says how long each record makes it).  Run directly, a job's argv must
 * also fit the kernel's limit, which counts a pointer per word as well.
 *
 * Spreading.  With -m or -X (not --xargs), the first job after which no
 * record is left (looking one record ahead) has its records spread over
 * the -j job slots: each job from then on takes at most ceil(records /
 * -j), so that a short input, or the tail of a long one, runs on every
 * slot, as GNU parallel does.
 *
 * A record that does not fit on its own runs alone (it may then fail to
 * start with E2BIG, which is reported), or with -x stops the input with
 * an error, as xargs -x does.
 */
#include "jobargs.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/buf.h"
#include "util/util.h"

extern char **environ;

/* Room the kernel keeps for itself, as GNU xargs leaves it. */
#define HEADROOM 2048
/* Linux's limit on one argument (MAX_ARG_STRLEN), with its NUL: a
 * command line run through a shell is one. */
#define ONEARG (32 * 4096)

/* A queue of records (or of whole jobs' arguments). */
struct queue {
	struct args *a;
	size_t head, n, cap;
};

struct jobargs {
	struct input *in;
	struct jobargs_opts o;
	struct queue pending;	/* records read and not yet in a job */
	struct queue jobs;	/* jobs made ahead ({##}) */
	size_t cap;		/* records per job at most, 0: no count */
	size_t maxlen;		/* a command line is shorter than this */
	size_t argmax;		/* a direct argv's bytes, pointers too */
	bool measure;		/* lengths are checked */
	bool spread;		/* -m, -X: not spread yet */
	bool eof, failed;
	uint64_t nrec;		/* records taken, for messages */
	struct buf scratch;	/* for measuring */
};

static void
qpush(struct queue *q, const struct args *a)
{
	if (q->head > 0 && q->head == q->n) {
		q->head = q->n = 0;
	}
	if (q->n == q->cap) {
		q->cap = q->cap ? 2 * q->cap : 64;
		q->a = xrealloc(q->a, q->cap * sizeof(*q->a));
	}
	q->a[q->n++] = *a;
}

static bool
qpop(struct queue *q, struct args *a)
{
	if (q->head == q->n)
		return false;
	*a = q->a[q->head++];
	return true;
}

/* Put records back before the queue's first. */
static void
qunget(struct queue *q, const struct args *recs, size_t n)
{
	size_t left = q->n - q->head;

	if (q->head < n) {
		if (q->cap < left + n) {
			q->cap = left + n + 64;
			q->a = xrealloc(q->a, q->cap * sizeof(*q->a));
		}
		memmove(q->a + n, q->a + q->head, left * sizeof(*q->a));
		q->head = n;
		q->n = n + left;
	}
	q->head -= n;
	memcpy(q->a + q->head, recs, n * sizeof(*recs));
}

/* The bytes the environment takes of the kernel's limit. */
static size_t
envbytes(void)
{
	size_t n = sizeof(char *);
	char **e;

	for (e = environ; *e != NULL; e++)
		n += strlen(*e) + 1 + sizeof(char *);
	return n;
}

/* The room for a command's argv: the kernel's limit on arguments and
 * environment together, less the environment and some headroom. */
static size_t
argroom(void)
{
	long max = sysconf(_SC_ARG_MAX);
	size_t env = envbytes(), all = max > 0 ? (size_t)max : 131072;

	return all > env + HEADROOM + 4096 ? all - env - HEADROOM : 4096;
}

/* The limit on a command line as -s counts it: -s, or what the system
 * allows (through a shell, one argument). */
static size_t
linelimit(const struct jobargs_opts *o, size_t room)
{
	bool shell = commands_inshell(o->cm);
	size_t sys = shell && room > ONEARG ? ONEARG : room;

	if (o->maxchars == 0)
		return sys;
	if (o->maxchars > sys) {
		warn("-s %zu: more than this system allows for a command "
		    "line%s (%zu): using %zu", o->maxchars, shell ?
		    " run through a shell" : "", sys, sys);
		return sys;
	}
	return o->maxchars;
}

struct jobargs *
jobargs_new(struct input *in, const struct jobargs_opts *o)
{
	struct jobargs *ja = xcalloc(1, sizeof(*ja));

	ja->in = in;
	ja->o = *o;
	ja->cap = o->maxrecs;
	ja->measure = o->fit || o->exitbig;
	ja->spread = o->spread;
	ja->argmax = argroom();
	ja->maxlen = linelimit(o, ja->argmax);
	return ja;
}

void
jobargs_free(struct jobargs *ja)
{
	struct args a;

	if (ja == NULL)
		return;
	while (qpop(&ja->pending, &a))
		free(a.v);
	while (qpop(&ja->jobs, &a))
		free(a.v);
	free(ja->scratch.s);
	free(ja->pending.a);
	free(ja->jobs.a);
	free(ja);
}

/* The next record, put back or read; false at the end of the input. */
static bool
take(struct jobargs *ja, struct args *rec)
{
	if (qpop(&ja->pending, rec))
		return true;
	if (ja->eof || !input_next(ja->in, rec)) {
		ja->eof = true;
		return false;
	}
	ja->nrec++;
	return true;
}

/* A job's command line as it fills. */
struct measure {
	size_t len;	/* -s's count */
	size_t words;	/* argv words, for the kernel's pointers */
};

/* Whether rec, the k-th record of a job measured so far by m, fits; m
 * then counts it.  A record too long on its own is an error with -x, else
 * it fits (alone). */
static bool
fits(struct jobargs *ja, const struct args *rec, size_t k, struct measure *m)
{
	size_t units, len = commands_reclen(ja->o.cm, rec, &units,
	    &ja->scratch);
	size_t newlen = m->len + len + (k > 0 ? units : 0);
	size_t words = m->words + units * (rec->n > 0 ? rec->n : 1);
	bool direct = !commands_inshell(ja->o.cm);
	bool over = newlen >= ja->maxlen || (direct && newlen + 1 +
	    words * sizeof(char *) > ja->argmax);

	if (over && k > 0)
		return false;
	if (over && ja->o.exitbig) {
		warn("-x: input record %llu (%.50s%s) makes a command line "
		    "of %zu characters, over the limit of %zu (-s)",
		    (unsigned long long)ja->nrec, rec->n > 0 ? rec->v[0] : "",
		    rec->n > 1 || (rec->n > 0 && strlen(rec->v[0]) > 50) ?
		    "..." : "", newlen, ja->maxlen - 1);
		return false;
	}
	m->len = newlen;
	m->words = words;
	return true;
}

/* Whether no record is left, looking ahead by one as GNU parallel does
 * (it may wait for input). */
static bool
atend(struct jobargs *ja)
{
	struct args rec;

	if (ja->pending.head < ja->pending.n)
		return false;
	if (!take(ja, &rec))
		return true;
	qunget(&ja->pending, &rec, 1);
	return false;
}

/* Keep the first ceil(k / jobs) of recs[0..k) for this job and give the
 * rest back: the input ended while the first job filled (-m, -X). */
static size_t
spread(struct jobargs *ja, struct args *recs, size_t k)
{
	size_t keep;

	ja->spread = false;
	if (k <= 1 || ja->o.jobs <= 1)
		return k;
	keep = (k + ja->o.jobs - 1) / ja->o.jobs;
	ja->cap = ja->cap == 0 || keep < ja->cap ? keep : ja->cap;
	qunget(&ja->pending, recs + keep, k - keep);
	return keep;
}

/* recs[0..k) as one job's arguments, in one block that free(a->v)
 * frees: the pointers, the record offsets, the strings. */
static void
pack(struct args *a, struct args *recs, size_t k, bool noargs)
{
	size_t i, j, n = 0, bytes = 0, len, *rec;
	char *s;

	for (i = 0; i < k && !noargs; i++) {
		n += recs[i].n;
		for (j = 0; j < recs[i].n; j++)
			bytes += strlen(recs[i].v[j]) + 1;
	}
	a->v = xmalloc((n + 1) * sizeof(char *) + (k + 1) * sizeof(size_t) +
	    bytes + 1);
	rec = (size_t *)(a->v + n + 1);
	s = (char *)(rec + k + 1);
	a->n = 0;
	for (i = 0; i < k; i++) {
		rec[i] = a->n;
		for (j = 0; j < recs[i].n && !noargs; j++) {
			len = strlen(recs[i].v[j]) + 1;
			a->v[a->n++] = memcpy(s, recs[i].v[j], len);
			s += len;
		}
		free(recs[i].v);
	}
	rec[k] = a->n;
	a->v[a->n] = NULL;
	a->nrec = noargs ? 0 : k;
	a->rec = rec;
}

/* Make the next job's arguments from the input; 0 at its end. */
static int
makejob(struct jobargs *ja, struct args *a)
{
	/* (the command's own words: a few, counted with the headroom) */
	struct measure m = { commands_baselen(ja->o.cm), 4 };
	struct args *recs = NULL, rec;
	size_t k = 0, cap = 0;

	while ((ja->cap == 0 || k < ja->cap) && take(ja, &rec)) {
		if (ja->measure && !fits(ja, &rec, k, &m)) {
			if (k == 0)	/* -x: a record too long */
				ja->failed = ja->eof = true;
			qunget(&ja->pending, &rec, 1);
			break;
		}
		if (k == cap) {
			cap = cap ? 2 * cap : 16;
			recs = xrealloc(recs, cap * sizeof(*recs));
		}
		recs[k++] = rec;
		if (!ja->o.fit && ja->cap == 0)
			break;
	}
	if (ja->spread && k > 0 && atend(ja))
		k = spread(ja, recs, k);
	if (k > 0)
		pack(a, recs, k, ja->o.noargs);
	free(recs);
	return k > 0;
}

int
jobargs_next(struct jobargs *ja, struct args *a)
{
	if (qpop(&ja->jobs, a))
		return 1;
	if (ja->failed)
		return 0;
	return makejob(ja, a);
}

uint64_t
jobargs_readall(struct jobargs *ja)
{
	struct args a;
	uint64_t n = 0;

	while (!ja->failed && makejob(ja, &a)) {
		qpush(&ja->jobs, &a);
		n++;
	}
	return n;
}

bool
jobargs_ready(struct jobargs *ja)
{
	return ja->jobs.head < ja->jobs.n || ja->failed ||
	    (!ja->o.fit && ja->cap <= 1 && (ja->pending.head <
	    ja->pending.n || input_ready(ja->in)));
}

bool
jobargs_failed(const struct jobargs *ja)
{
	return ja->failed;
}

void
jobargs_limits(const struct jobargs *ja, FILE *f)
{
	fprintf(f, PROGNAME ": the environment takes %zu bytes of the "
	    "system's limit on arguments (%ld)\n", envbytes(), sysconf(_SC_ARG_MAX));
	fprintf(f, PROGNAME ": room for a command run directly: %zu bytes, a "
	    "pointer (%zu) per word included\n", ja->argmax, sizeof(char *));
	fprintf(f, PROGNAME ": room for a command line run through a shell: "
	    "%zu bytes (one argument)\n", (size_t)ONEARG - 1);
	fprintf(f, PROGNAME ": command lines used here: at most %zu "
	    "characters%s\n", ja->maxlen - 1, ja->o.maxchars ? " (-s)" : "");
}
