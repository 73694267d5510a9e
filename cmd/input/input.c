/*
 * Reading the input.  A record is what lies between two separators (the
 * last one may lack its separator); --colsep splits it into fields.  With
 * several sources every combination of their records is a record of the
 * input, the first source varying slowest (GNU parallel's order): the
 * first source is read lazily, the others are read whole when opened
 * since each of their records is needed once per record of the first.
 * Sources linked by :::+ or ::::+ form a group read in step (as long as
 * the shortest), with --link all of them (as long as the longest, the
 * others wrapping around), as GNU parallel does.  jobargs.c puts the
 * records into jobs.  -E ends a source at its mark; with -L a line that
 * ends in a blank goes on into the next.  With --header (without --pipe)
 * the first record of each source is no record: its fields name the
 * fields of the records, as in GNU parallel.
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

#include "util/buf.h"
#include "util/util.h"

#define CHUNK 65536

/* A source's records: streamed from fd, or all in memory. */
struct source {
	const char *name;	/* for messages */
	int fd;			/* -1 once at its end, or for a list */
	char *buf;		/* read buffer: buf[off..len) not yet used */
	size_t off, len, cap;
	uint64_t nread;		/* records read so far, for messages */
	char **items;		/* a ::: list's arguments, read as lines */
	size_t nitems;
	char **rec;		/* records kept in memory (not the first) */
	size_t nrec;
	bool ended;		/* -E: its end mark was read */
	char *head;		/* the header option's first record, or
				 * NULL */
};

/* Sources read in step: src[first..first+n), at index cur of len (the
 * longest member's count). */
struct group {
	size_t first, n;
	size_t cur, len;
};

struct input {
	struct inputopts o;
	struct source *src;
	size_t nsrc;
	struct group *grp;
	size_t ngrp;
	bool streamed;		/* the first source is read as it goes */
	bool started, done;
	bool failed;		/* a read failed */
	struct buf rec;		/* a record being assembled */
	struct buf words;	/* the fields of the record being made */
	char **names;		/* their fields (input_header()) */
	size_t nnames;
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

/* The next record of a streamed source or a list into in->rec, as it
 * is; false at its end. */
static bool
rawrecord(struct input *in, struct source *s)
{
	char *sep;

	in->rec.len = 0;
	if (s->items != NULL) {
		if (s->nread >= s->nitems)
			return false;
		bufadds(&in->rec, s->items[s->nread]);
		return true;
	}
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

/* Whether the record p[0..n) is -E's end mark. */
static bool
endmark(const struct input *in, const char *p, size_t n)
{
	return n == strlen(in->o.eofstr) && (n == 0 || memcmp(p,
	    in->o.eofstr, n) == 0);
}

/* -L: while the line in in->rec ends in white space, the next line goes
 * on it (GNU parallel's rule; xargs' too), unless it is -E's end mark,
 * which ends the source there. */
static void
continueline(struct input *in, struct source *s)
{
	struct buf line = { NULL, 0, 0 };

	while (in->rec.len > 0 && isspace((unsigned char)in->rec.s[
	    in->rec.len - 1])) {
		bufadd(&line, in->rec.s, in->rec.len);
		if (!rawrecord(in, s))
			break;
		s->nread++;
		if (in->o.eofstr != NULL && endmark(in, in->rec.s,
		    in->rec.len)) {
			s->ended = true;
			break;
		}
		bufadd(&line, in->rec.s, in->rec.len);
		in->rec.len = 0;
		bufadd(&in->rec, line.s, line.len);
		line.len = 0;
	}
	if (line.len > 0) {	/* the input ended after a continued line */
		in->rec.len = 0;
		bufadd(&in->rec, line.s, line.len);
	}
	free(line.s);
}

/* The next record of a streamed source into in->rec; false at its end.
 * A record with a NUL byte (when NUL does not end records) cannot become
 * an argument whole, and cut short it could name another file: it is
 * skipped, with an error. */
static bool
nextrecord(struct input *in, struct source *s)
{
	while (!s->ended && rawrecord(in, s)) {
		s->nread++;
		if (in->o.eofstr != NULL && endmark(in, in->rec.s,
		    in->rec.len)) {
			s->ended = true;
			break;
		}
		if (in->o.continued)
			continueline(in, s);
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

/* With the header option: the first record of s, as it is (-E, -L and -r
 * do not apply: GNU parallel reads its first line whole), without a CR at
 * its end (of a CRLF line end, as GNU parallel drops it, whatever ends
 * the records), is its header. */
static void
takehead(struct input *in, struct source *s)
{
	size_t len;

	if (!rawrecord(in, s))
		return;
	s->nread++;
	/* (names are strings: a NUL byte ends one) */
	len = in->rec.len > 0 ? strnlen(in->rec.s, in->rec.len) : 0;
	if (len > 0 && in->rec.s[len - 1] == '\r')
		len--;
	s->head = xmalloc(len + 1);
	if (len > 0)
		memcpy(s->head, in->rec.s, len);
	s->head[len] = '\0';
}

/* Group the sources: each linked one joins the group before it. */
static void
makegroups(struct input *in, const struct srcspec *spec)
{
	size_t i;

	in->grp = xcalloc(in->nsrc, sizeof(*in->grp));
	for (i = 0; i < in->nsrc; i++) {
		if (i == 0 || !spec[i].linked)
			in->grp[in->ngrp++].first = i;
		in->grp[in->ngrp - 1].n++;
	}
}

struct input *
input_open(const struct srcspec *spec, size_t nsrc, const struct inputopts *o)
{
	struct input *in = xcalloc(1, sizeof(*in));
	struct source *s;
	size_t i;

	in->o = *o;
	in->nsrc = nsrc;
	in->src = xcalloc(nsrc, sizeof(*in->src));
	makegroups(in, spec);
	in->streamed = spec[0].kind == SRC_FILE && in->grp[0].n == 1;
	for (i = 0; i < nsrc; i++) {
		s = &in->src[i];
		s->fd = -1;
		if (spec[i].kind == SRC_FILE)
			openfile(s, &spec[i]);
		/* (a list's arguments are its lines: -r, -E and -L
		 * take them as they take a file's) */
		if (spec[i].kind == SRC_LIST) {
			/* (no message names a list today: an item, from
			 * argv, holds no NUL byte; named so that none
			 * could print a null name) */
			s->name = spec[i].opt != NULL ? spec[i].opt : ":::";
			s->items = spec[i].items;
			s->nitems = spec[i].n;
		}
		if (o->header)
			takehead(in, s);
		if (i > 0 || !in->streamed)
			slurp(in, s);
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
		free(in->src[i].head);
	}
	free(in->names);
	free(in->src);
	free(in->grp);
	free(in->words.s);
	free(in->rec.s);
	free(in);
}

/* Move the streamed first source on to its next record; false at its
 * end. */
static bool
advancefirst(struct input *in)
{
	struct source *s = &in->src[0];

	/* (in->rec keeps it: the other sources were read whole) */
	return nextrecord(in, s);
}

/* Each group's length: with --link its longest member's count (the
 * others wrap around), else (:::+) its shortest's, as in GNU parallel;
 * none if a member is empty. */
static bool
grouplengths(struct input *in)
{
	struct group *g;
	size_t i, k;

	for (i = 0; i < in->ngrp; i++) {
		g = &in->grp[i];
		for (k = g->first; k < g->first + g->n; k++) {
			if (in->streamed && k == 0)
				continue;
			if (in->src[k].nrec == 0)
				return false;
			if (g->len == 0 || (in->o.wrap ? in->src[k].nrec >
			    g->len : in->src[k].nrec < g->len))
				g->len = in->src[k].nrec;
		}
	}
	return true;
}

/* Step the group g on; false when it wrapped around to its start (the
 * streamed first group: when its source ended). */
static bool
stepgroup(struct input *in, size_t g)
{
	if (g == 0 && in->streamed)
		return advancefirst(in);
	if (++in->grp[g].cur < in->grp[g].len)
		return true;
	in->grp[g].cur = 0;
	return false;
}

/* Step to the next combination of records; false at the end. */
static bool
nextcombo(struct input *in)
{
	size_t g;

	if (in->done)
		return false;
	if (!in->started) {
		in->started = true;
		if (!grouplengths(in))
			return !(in->done = true);
		return !(in->done = in->streamed && !advancefirst(in));
	}
	for (g = in->ngrp - 1; g >= 1; g--)
		if (stepgroup(in, g))
			return true;
	return !(in->done = !stepgroup(in, 0));
}

/* Source k's record in the current combination. */
static const char *
current(const struct input *in, size_t k, size_t g)
{
	const struct source *s = &in->src[k];

	if (k == 0 && in->streamed)
		return in->rec.s != NULL ? in->rec.s : "";
	return s->rec[in->grp[g].cur % s->nrec];
}

/* Whether c is white space as Perl's \s sees a byte, which GNU parallel's
 * --trim removes, whatever the locale. */
static bool
perlspace(char c)
{
	return c != '\0' && strchr(" \t\n\v\f\r", c) != NULL;
}

/* Add the field p[0..n) to words, trimmed as trim says. */
static void
addfield(const char *p, size_t n, int trim, struct buf *words)
{
	while (n > 0 && (trim & TRIM_LEFT) && perlspace(*p)) {
		p++;
		n--;
	}
	while (n > 0 && (trim & TRIM_RIGHT) && perlspace(p[n - 1]))
		n--;
	bufadd(words, p, n);
	bufaddc(words, '\0');
}

/* Add the fields of record rec (split by --colsep, each trimmed as trim
 * says) to words. */
static size_t
addfields(struct input *in, const char *rec, int trim, struct buf *words)
{
	regmatch_t m;
	const char *p = rec;
	size_t n = 0;
	int flags = 0;

	while (in->o.colsep != NULL &&
	    regexec(in->o.colsep, p, 1, &m, flags) == 0 && m.rm_eo > 0) {
		addfield(p, (size_t)m.rm_so, trim, words);
		n++;
		p += m.rm_eo;
		flags = REG_NOTBOL;
	}
	addfield(p, strlen(p), trim, words);
	return n + 1;
}

void
input_wakefd(struct input *in, int wakefd)
{
	in->o.wakefd = wakefd;
}

char *const *
input_header(struct input *in, size_t *n)
{
	struct buf words = { NULL, 0, 0 };
	size_t i;

	/* (untrimmed: GNU parallel splits the names without --trim) */
	if (in->names == NULL) {
		for (i = 0; i < in->nsrc; i++)
			if (in->src[i].head != NULL)
				in->nnames += addfields(in, in->src[i].head,
				    TRIM_NONE, &words);
		in->names = packwords(&words, in->nnames);
		free(words.s);
	}
	*n = in->nnames;
	return in->names;
}

int
input_next(struct input *in, struct args *a)
{
	size_t g, k, n = 0;

	if (!nextcombo(in))
		return 0;
	in->words.len = 0;
	for (g = 0; g < in->ngrp; g++)
		for (k = in->grp[g].first; k < in->grp[g].first +
		    in->grp[g].n; k++)
			n += addfields(in, current(in, k, g), in->o.trim,
			    &in->words);
	a->v = packwords(&in->words, n);
	a->n = n;
	a->nrec = 0;
	a->rec = NULL;
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
	size_t g;

	if (in->done || !in->started)
		return in->done;
	for (g = 1; g < in->ngrp; g++)
		if (in->grp[g].cur + 1 < in->grp[g].len)
			return true;
	if (!in->streamed || s->fd < 0)
		return true;
	return s->len > s->off && memchr(s->buf + s->off, in->o.delim,
	    s->len - s->off) != NULL;
}
