/*
 * Reading the input.  A record is what lies between two separators (the
 * last one may lack its separator); --colsep splits it into fields.  With
 * several sources every combination of their records is a job, the first
 * source varying slowest (GNU parallel's order): the first source is read
 * lazily, the others are read whole when opened since each of their
 * records is needed once per record of the first.  -n N puts N such
 * combinations into one job.
 *
 * A blocking read first polls the input together with wakefd, so that a
 * signal can stop the reading even while no input arrives.
 */
#include "input.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"

#define CHUNK 65536

/* A source's records: streamed from fd, or all in memory. */
struct source {
	const char *name;	/* for messages */
	int fd;			/* -1 once at its end, or for a list */
	char *buf;		/* read buffer: buf[off..len) not yet used */
	size_t off, len, cap;
	uint64_t nread;		/* records read so far, for messages */
	char **rec;		/* records kept in memory (not the first) */
	size_t nrec;
	size_t cur;		/* the record of this source in the job */
};

struct input {
	struct inputopts o;
	struct source *src;
	size_t nsrc;
	char *first;		/* the first source's current record */
	bool started, done;
	bool failed;		/* a read failed */
	struct buf rec;		/* a record being assembled */
};

static void
openfile(struct source *s, const struct srcspec *spec)
{
	s->name = spec->path;
	if (strcmp(spec->path, "-") == 0) {
		s->fd = STDIN_FILENO;
		s->name = "standard input";
	} else if ((s->fd = open(spec->path, O_RDONLY | O_CLOEXEC)) < 0) {
		fatal("%s%s%s:", spec->opt != NULL ? spec->opt : "",
		    spec->opt != NULL ? " " : "", spec->path);
	}
}

/* Fill the buffer of s with more input; false at its end (or on wake). */
static bool
fill(struct input *in, struct source *s)
{
	struct pollfd pf[2] = { { s->fd, POLLIN, 0 }, { in->o.wakefd, POLLIN,
	    0 } };
	ssize_t n;

	if (s->fd < 0)
		return false;
	if (s->off > 0) {
		memmove(s->buf, s->buf + s->off, s->len - s->off);
		s->len -= s->off;
		s->off = 0;
	}
	if (s->cap - s->len < CHUNK) {
		s->cap = s->cap ? s->cap * 2 : CHUNK * 2;
		s->buf = xrealloc(s->buf, s->cap);
	}
	for (;;) {
		if (in->o.wakefd >= 0 && poll(pf, 2, -1) < 0 && errno != EINTR)
			fatal("poll:");
		if (in->o.wakefd >= 0 && pf[1].revents != 0)
			return false;
		n = read(s->fd, s->buf + s->len, s->cap - s->len);
		if (n > 0) {
			s->len += (size_t)n;
			return true;
		}
		if (n == 0 || (errno != EINTR && errno != EAGAIN))
			break;
	}
	if (n < 0) {
		warn("%s:", s->name);
		in->failed = true;
	}
	if (s->fd != STDIN_FILENO)
		close(s->fd);
	s->fd = -1;
	return false;
}

/* The next record of a streamed source into in->rec, as it is; false at
 * its end. */
static bool
rawrecord(struct input *in, struct source *s)
{
	char *sep;

	in->rec.len = 0;
	for (;;) {
		sep = s->len > s->off ? memchr(s->buf + s->off, in->o.delim,
		    s->len - s->off) : NULL;
		if (sep != NULL) {
			bufadd(&in->rec, s->buf + s->off,
			    (size_t)(sep - (s->buf + s->off)));
			s->off = (size_t)(sep - s->buf) + 1;
			return true;
		}
		if (!fill(in, s))
			break;
	}
	if (s->len - s->off == 0)
		return false;
	bufadd(&in->rec, s->buf + s->off, s->len - s->off);	/* no final
								 * separator */
	s->off = s->len;
	return true;
}

/* Whether the n bytes at p are empty or blanks only (-r). */
static bool
blank(const char *p, size_t n)
{
	while (n > 0 && isspace((unsigned char)*p)) {
		p++;
		n--;
	}
	return n == 0;
}

/* The next record of a streamed source into in->rec; false at its end.
 * A record with a NUL byte (when NUL does not end records) cannot become
 * an argument whole, and cut short it could name another file: it is
 * skipped, with an error. */
static bool
nextrecord(struct input *in, struct source *s)
{
	while (rawrecord(in, s)) {
		s->nread++;
		if (in->o.skipblank && blank(in->rec.s, in->rec.len))
			continue;
		if (in->o.delim == '\0' || in->rec.len == 0 ||
		    memchr(in->rec.s, '\0', in->rec.len) == NULL)
			return true;
		warn("%s: %s %llu has a NUL byte: skipped (NUL-separated input "
		    "needs -0)", s->name, in->o.delim == '\n' ? "line" :
		    "record", (unsigned long long)s->nread);
		in->failed = true;
	}
	return false;
}

/* Read a whole source into memory. */
static void
slurp(struct input *in, struct source *s)
{
	while (nextrecord(in, s)) {
		s->rec = xrealloc(s->rec, (s->nrec + 1) * sizeof(char *));
		s->rec[s->nrec++] = xstrdup(in->rec.s ? in->rec.s : "");
	}
}

struct input *
input_open(const struct srcspec *spec, size_t nsrc, const struct inputopts *o)
{
	struct input *in = xcalloc(1, sizeof(*in));
	struct source *s;
	size_t i, k;

	in->o = *o;
	in->nsrc = nsrc;
	in->src = xcalloc(nsrc, sizeof(*in->src));
	for (i = 0; i < nsrc; i++) {
		s = &in->src[i];
		s->fd = -1;
		if (spec[i].kind == SRC_FILE)
			openfile(s, &spec[i]);
		if (i > 0 && spec[i].kind == SRC_FILE)
			slurp(in, s);
		for (k = 0; spec[i].kind == SRC_LIST && k < spec[i].n; k++) {
			if (o->skipblank && blank(spec[i].items[k],
			    strlen(spec[i].items[k])))
				continue;
			s->rec = xrealloc(s->rec, (s->nrec + 1) *
			    sizeof(char *));
			s->rec[s->nrec++] = xstrdup(spec[i].items[k]);
		}
	}
	return in;
}

void
input_close(struct input *in)
{
	size_t i, k;

	for (i = 0; i < in->nsrc; i++) {
		if (in->src[i].fd > STDIN_FILENO)
			close(in->src[i].fd);
		for (k = 0; k < in->src[i].nrec; k++)
			free(in->src[i].rec[k]);
		free(in->src[i].rec);
		free(in->src[i].buf);
	}
	free(in->src);
	free(in->first);
	free(in->rec.s);
	free(in);
}

/* Move the first source on to its next record; false at its end. */
static bool
advancefirst(struct input *in)
{
	struct source *s = &in->src[0];

	free(in->first);
	in->first = NULL;
	if (s->rec == NULL && s->fd >= 0) {
		if (!nextrecord(in, s))
			return false;
		in->first = xstrdup(in->rec.s ? in->rec.s : "");
		return true;
	}
	if (s->cur >= s->nrec)
		return false;
	in->first = xstrdup(s->rec[s->cur++]);
	return true;
}

/* Step to the next combination of records; false at the end. */
static bool
nextcombo(struct input *in)
{
	size_t i;

	if (in->done)
		return false;
	if (!in->started) {
		in->started = true;
		for (i = 1; i < in->nsrc; i++)
			if (in->src[i].nrec == 0)
				return !(in->done = true);
		return (in->done = !advancefirst(in)) == false;
	}
	for (i = in->nsrc - 1; i >= 1; i--) {
		if (++in->src[i].cur < in->src[i].nrec)
			return true;
		in->src[i].cur = 0;
	}
	return (in->done = !advancefirst(in)) == false;
}

/* Whether c is white space as Perl's \s sees a byte, which GNU parallel's
 * --trim removes, whatever the locale. */
static bool
perlspace(char c)
{
	return c != '\0' && strchr(" \t\n\v\f\r", c) != NULL;
}

/* Add the field p[0..n) to words, trimmed as --trim says. */
static void
addfield(struct input *in, const char *p, size_t n, struct buf *words)
{
	while (n > 0 && (in->o.trim & TRIM_LEFT) && perlspace(*p)) {
		p++;
		n--;
	}
	while (n > 0 && (in->o.trim & TRIM_RIGHT) && perlspace(p[n - 1]))
		n--;
	bufadd(words, p, n);
	bufaddc(words, '\0');
}

/* Add the fields of record rec (split by --colsep) to words. */
static size_t
addfields(struct input *in, const char *rec, struct buf *words)
{
	regmatch_t m;
	const char *p = rec;
	size_t n = 0;
	int flags = 0;

	while (in->o.colsep != NULL &&
	    regexec(in->o.colsep, p, 1, &m, flags) == 0 && m.rm_eo > 0) {
		addfield(in, p, (size_t)m.rm_so, words);
		n++;
		p += m.rm_eo;
		flags = REG_NOTBOL;
	}
	addfield(in, p, strlen(p), words);
	return n + 1;
}

int
input_next(struct input *in, struct args *a)
{
	struct buf words = { NULL, 0, 0 };
	size_t combos, i, n = 0;

	for (combos = 0; combos < in->o.maxargs && nextcombo(in); combos++) {
		n += addfields(in, in->first, &words);
		for (i = 1; i < in->nsrc; i++)
			n += addfields(in, in->src[i].rec[in->src[i].cur],
			    &words);
	}
	if (combos == 0) {
		free(words.s);
		return 0;
	}
	a->v = packwords(&words, n);
	a->n = n;
	free(words.s);
	return 1;
}

bool
input_failed(const struct input *in)
{
	return in->failed;
}

bool
input_ready(struct input *in)
{
	struct source *s = &in->src[0];
	size_t i;

	if (in->done || !in->started)
		return in->done;
	for (i = 1; i < in->nsrc; i++)
		if (in->src[i].cur + 1 < in->src[i].nrec)
			return true;
	if (s->rec != NULL || s->fd < 0)
		return true;
	return s->len > s->off && memchr(s->buf + s->off, in->o.delim,
	    s->len - s->off) != NULL;
}
