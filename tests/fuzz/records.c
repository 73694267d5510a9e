/*
 * Fuzz target: the input's records, as a run reads them.  The first bytes
 * choose options (-0, -d, --colsep, -r, --trim, -E, --link, -L, -N, -n,
 * -m, -X, --xargs, -x, -s, -j, {##} with --plus, --header :) and sources
 * (::: lists, :::+, :::: FILE, ::::+, -a FILE); the strings after them
 * are the options' values and the lists' items; the rest is the data of
 * the file (repeated, as byte 4 says).  They go through the real options
 * (options_parse, cmdline_finish) into input_open and jobargs as run.c's
 * setup() gives them, --header's names into COMMAND, and every record
 * and job is read to the end.  The data is what a user pipes in or names
 * with :::: FILE: anything, of any length, in any bytes, so it is the
 * hostile input of these parsers; the values are typed by the user, but
 * a --colsep's regular expression is compiled and run on that data.
 *
 * Checked: a record has a field per source (more only with --colsep, as
 * --header's TABs), none longer than the longest source (with -L, a
 * list's items joined); without --colsep a file's field has no
 * separator, -r leaves no blank one and -E none equal to its mark;
 * --header has as many names as input_header() says; without -L, -E and
 * -r the count of records is the product of the sources' (each less its
 * header); the jobs hold the same records in the same order, each job at
 * most -n/-N/-L of them, and {##}'s count is theirs.
 */
#include <ctype.h>
#include <regex.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "input/command.h"
#include "input/input.h"
#include "input/jobargs.h"
#include "input/progpath.h"
#include "options/cmdline.h"
#include "options/config.h"
#include "options/options.h"
#include "run/run_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Enough for the options, three lists of three items and the file. */
#define MAXLISTS 3
/* Items a list has at most: with the file's thousands of records, the
 * cross product of three lists stays under a second. */
#define MAXITEMS 3

/* What the input asks for: bytes 0-4 (see makeargv and readplan), the
 * options' values, the lists' items, and the rest, the file's data. */
struct plan {
	unsigned flags, counts, srcs, more, repeat;
	char *delim, *colsep, *trim, *eof;	/* values, or NULL */
	char *items[MAXLISTS][MAXITEMS];
	unsigned nitems[MAXLISTS];
	uint8_t *data;		/* the file's */
	size_t size;
	const char *path;	/* the file */
};

/* The records of the first pass: their fields one after the other in s,
 * each NUL-terminated; nf[i] is record i's count of them. */
struct recs {
	char *s;
	size_t len, cap;
	size_t *nf;
	size_t n, ncap;
};

/* Where the second pass is in the first pass's records. */
struct walk {
	const struct recs *rs;
	size_t rec, off;
};

/* Byte 4: the data repeated 2^(N % 6) times (without lists: their
 * cross product with so many records would take too long). */
static void
readplan(struct plan *p, const uint8_t *data, size_t size)
{
	struct fz_reader r = { data, size, 0 };
	unsigned i, k;

	memset(p, 0, sizeof(*p));
	p->flags = fz_byte(&r);
	p->counts = fz_byte(&r);
	p->srcs = fz_byte(&r);
	p->more = fz_byte(&r);
	p->repeat = fz_byte(&r) % 6;
	p->delim = p->flags & 2 ? fz_next(&r) : NULL;
	p->colsep = p->flags & 4 ? fz_next(&r) : NULL;
	p->trim = p->flags & 16 ? fz_next(&r) : NULL;
	p->eof = p->flags & 32 ? fz_next(&r) : NULL;
	for (i = 0; i < (p->srcs & 3); i++) {
		p->nitems[i] = fz_byte(&r) % (MAXITEMS + 1);
		for (k = 0; k < p->nitems[i]; k++)
			p->items[i][k] = fz_next(&r);
	}
	p->data = fz_repeat(data + r.at, size - r.at, (p->srcs & 3) == 0 ?
	    p->repeat : 0, &p->size);
	p->path = fz_file(p->data, p->size);
}

static void
freeplan(struct plan *p)
{
	unsigned i, k;

	free(p->delim);
	free(p->colsep);
	free(p->trim);
	free(p->eof);
	free(p->data);
	for (i = 0; i < MAXLISTS; i++)
		for (k = 0; k < p->nitems[i]; k++)
			free(p->items[i][k]);
}

/* Byte 0: 1 -0, 2 -d, 4 --colsep, 8 -r, 16 --trim, 32 -E, 64 --link,
 * 128 -x. */
static void
flagopts(struct fz_argv *a, const struct plan *p)
{
	if (p->flags & 1)
		fz_arg(a, "-0");
	fz_argval(a, "-d", p->delim);
	fz_argval(a, "--colsep", p->colsep);
	if (p->flags & 8)
		fz_arg(a, "-r");
	fz_argval(a, "--trim", p->trim);
	fz_argval(a, "-E", p->eof);
	if (p->flags & 64)
		fz_arg(a, "--link");
	if (p->flags & 128)
		fz_arg(a, "-x");
}

/* Byte 1: bits 0-1 -L, -N or -n, bits 2-4 its count (-N from 0, the
 * others from 1), bits 5-6 -m, -X or --xargs, bit 7 --plus and {##} in
 * COMMAND.
 * Byte 3: bits 0-1 -j 1-4, bits 2-7 -s 8 times that, if not 0. */
static void
countopts(struct fz_argv *a, const struct plan *p)
{
	static const char *const multi[] = { NULL, "-m", "-X", "--xargs" };
	unsigned v = (p->counts >> 2) & 7, m = (p->counts >> 5) & 3;

	if ((p->counts & 3) == 1)
		fz_argnum(a, "-L", "%u", v + 1);
	else if ((p->counts & 3) == 2)
		fz_argnum(a, "-N", "%u", v);
	else if ((p->counts & 3) == 3)
		fz_argnum(a, "-n", "%u", v + 1);
	if (multi[m] != NULL)
		fz_arg(a, multi[m]);
	fz_argnum(a, "-j", "%u", (p->more & 3) + 1);
	if (p->more >> 2)
		fz_argnum(a, "-s", "%u", (p->more >> 2) * 8);
}

/* Byte 2: bits 0-1 the ::: lists, bit 2 the file (always if there is no
 * list), bit 3 the file before the lists, bit 4 each list after the
 * first source linked to it (:::+), bit 5 the file as -a FILE (an
 * option: the first source), bit 6 the file linked to the source before
 * it (::::+), bit 7 --header : (and {a} in COMMAND). */
static bool
hasfile(const struct plan *p)
{
	return (p->srcs & 4) || (p->srcs & 3) == 0;
}

static void
addfile(struct fz_argv *a, const struct plan *p)
{
	fz_arg(a, p->srcs & 64 ? "::::+" : "::::");
	fz_arg(a, p->path);
}

static void
sources(struct fz_argv *a, const struct plan *p)
{
	bool file = hasfile(p) && !(p->srcs & 32);
	bool first = file && (p->srcs & 8);
	unsigned i, k;

	if (first)
		addfile(a, p);
	for (i = 0; i < (p->srcs & 3); i++) {
		fz_arg(a, (p->srcs & 16) && (i > 0 || first) ? ":::+" : ":::");
		for (k = 0; k < p->nitems[i]; k++)
			fz_arg(a, p->items[i][k]);
	}
	if (file && !first)
		addfile(a, p);
}

static void
makeargv(struct fz_argv *a, const struct plan *p)
{
	fz_arg(a, "wspx");
	flagopts(a, p);
	countopts(a, p);
	if (hasfile(p) && (p->srcs & 32))
		fz_argval(a, "-a", p->path);
	if (p->counts & 128)	/* ({##} is one of --plus's strings) */
		fz_arg(a, "--plus");
	if (p->srcs & 128)
		fz_argval(a, "--header", ":");
	fz_arg(a, "echo");
	if (p->counts & 128)
		fz_arg(a, "{##}");
	if (p->srcs & 128)	/* (names a field if an item or line is a) */
		fz_arg(a, "{a}{a/.}");
	sources(a, p);
	a->w[a->n] = NULL;
}

/* Whether every file source is the target's file: after a list item
 * "::::" the items are file names, which could name any file, stdin
 * among them; their data is not the input's. */
static bool
ownsources(const struct config *c, const char *path)
{
	size_t i;

	for (i = 0; i < c->nsrc; i++)
		if (c->src[i].kind == SRC_FILE &&
		    strcmp(c->src[i].path, path) != 0)
			return false;
	return true;
}

/* The longest a field can be: the file, or a list's longest item; with
 * -L, an item ending in a blank takes the next one on, so a list's
 * items all together. */
static size_t
longest(const struct config *c, size_t size)
{
	size_t i, k, n = size, len, all;

	for (i = 0; i < c->nsrc; i++) {
		all = 0;
		for (k = 0; c->src[i].kind == SRC_LIST && k < c->src[i].n;
		    k++) {
			len = strlen(c->src[i].items[k]);
			all += len;
			if (len > n)
				n = len;
		}
		if (c->maxlines > 0 && all > n)
			n = all;
	}
	return n;
}

static bool
blank(const char *s)
{
	while (*s != '\0' && isspace((unsigned char)*s))
		s++;
	return *s == '\0';
}

/* What input.h promises of a record a of the sources of c. */
static void
checkrecord(const struct config *c, const struct args *a, size_t max)
{
	size_t i;

	if (a->n < c->nsrc || (!c->hascolsep && a->n != c->nsrc))
		fz_fail("a record of %zu fields from %zu sources", a->n,
		    c->nsrc);
	if (a->v[a->n] != NULL)
		fz_fail("a record's fields do not end with NULL");
	for (i = 0; i < a->n; i++) {
		if (strlen(a->v[i]) > max)
			fz_fail("field %zu: %zu bytes, longer than any "
			    "source (%zu)", i, strlen(a->v[i]), max);
		if (c->hascolsep)
			continue;
		if (c->src[i].kind == SRC_FILE && c->delim != '\0' &&
		    strchr(a->v[i], c->delim) != NULL)
			fz_fail("field %zu holds the separator", i);
		if (c->skipblank && blank(a->v[i]))
			fz_fail("-r: field %zu is blank", i);
		if (c->eofstr != NULL && c->trim == TRIM_NONE &&
		    strcmp(a->v[i], c->eofstr) == 0)
			fz_fail("-E: field %zu is the end mark", i);
	}
}

/* The records of the file by the rule in input.c: what lies between
 * separators, the last one without it if not empty; one with a NUL byte
 * is skipped unless NUL separates. */
static size_t
filerecords(const uint8_t *p, size_t n, char delim)
{
	size_t i, start = 0, count = 0;
	bool nul = false;

	for (i = 0; i < n; i++) {
		if (p[i] == (uint8_t)delim) {
			count += !nul;
			nul = false;
			start = i + 1;
		} else if (p[i] == '\0') {
			nul = true;
		}
	}
	return count + (start < n && !nul);
}

/* With --header, source i's records after its first, which names its
 * fields whatever it holds (one with a NUL byte too). */
static size_t
afterhead(const struct config *c, const struct plan *p, size_t i)
{
	const uint8_t *end;

	if (c->src[i].kind == SRC_LIST)
		return c->src[i].n > 0 ? c->src[i].n - 1 : 0;
	if ((end = memchr(p->data, c->delim, p->size)) == NULL)
		return 0;
	end++;
	return filerecords(end, p->size - (size_t)(end - p->data), c->delim);
}

/* The records of the input without -L, -E and -r: the product of the
 * groups' counts, a group of linked sources as long as its shortest
 * member (--link: its longest), none if a member is empty. */
static size_t
expected(const struct config *c, const struct plan *p)
{
	size_t i, n, total = 1, group = 0;

	for (i = 0; i < c->nsrc; i++) {
		if (p->srcs & 128)
			n = afterhead(c, p, i);
		else
			n = c->src[i].kind == SRC_FILE ? filerecords(p->data,
			    p->size, c->delim) : c->src[i].n;
		if (n == 0)
			return 0;
		if (i == 0 || !c->src[i].linked) {
			total *= i > 0 ? group : 1;
			group = n;
		} else if (c->link ? n > group : n < group) {
			group = n;
		}
	}
	return total * group;
}

static void
addrec(struct recs *rs, const struct args *a)
{
	size_t i, len;

	for (i = 0; i < a->n; i++) {
		len = strlen(a->v[i]) + 1;
		if (rs->len + len > rs->cap) {
			rs->cap = 2 * (rs->len + len);
			rs->s = realloc(rs->s, rs->cap);
		}
		memcpy(rs->s + rs->len, a->v[i], len);
		rs->len += len;
	}
	if (rs->n == rs->ncap) {
		rs->ncap = rs->ncap ? 2 * rs->ncap : 64;
		rs->nf = realloc(rs->nf, rs->ncap * sizeof(*rs->nf));
	}
	rs->nf[rs->n++] = a->n;
}

/* The header of source i by the rule of input.c, worked out here: a
 * list's first item, or the file's data up to its first separator (up to
 * a NUL byte, as a C string), less a CR at its end; NULL for an empty
 * source. */
static char *
headof(const struct config *c, const struct plan *p, size_t i)
{
	const char *head = (const char *)p->data;
	const uint8_t *end;
	size_t len;

	if (c->src[i].kind == SRC_LIST && c->src[i].n == 0)
		return NULL;
	if (c->src[i].kind == SRC_LIST) {
		head = c->src[i].items[0];
		len = strlen(head);
	} else if (p->size == 0) {
		return NULL;
	} else {
		end = memchr(p->data, c->delim, p->size);
		len = end != NULL ? (size_t)(end - p->data) : p->size;
		len = strnlen(head, len);
	}
	if (len > 0 && head[len - 1] == '\r')
		len--;
	return strndup(head, len);
}

/* --header's names are the fields of each source's header split at every
 * match of --colsep (an empty match ends the splitting), untrimmed, in
 * the order of the sources. */
static void
checknames(const struct config *c, const struct plan *p,
    char *const *names, size_t n)
{
	regmatch_t m;
	size_t i, k = 0;
	char *head, *at, *field;
	int flags;

	for (i = 0; i < c->nsrc; i++) {
		if ((head = headof(c, p, i)) == NULL)
			continue;
		for (at = head, flags = 0;; flags = REG_NOTBOL) {
			bool last = regexec(&c->colsep, at, 1, &m, flags) != 0 ||
			    m.rm_eo == 0;
			field = strndup(at, last ? strlen(at) :
			    (size_t)m.rm_so);
			if (k >= n || strcmp(names[k], field) != 0)
				fz_fail("--header: name %zu is '%s', not '%s'",
				    k + 1, k < n ? names[k] : "(none)", field);
			free(field);
			k++;
			if (last)
				break;
			at += m.rm_eo;
		}
		free(head);
	}
	if (k != n || names[n] != NULL)
		fz_fail("--header: %zu names, not %zu", n, k);
}

/* The COMMAND word "{a}{a/.}" with --header's names: the number of the
 * first field named a in place of a, or the word as it was.  (Unless a
 * name holds a brace, '/' or '.': then "a/." or "a}{a" may be one, and
 * which wins is replstr.h's rule, not worked out here.) */
static void
checknamed(const struct config *c, char *const *names, size_t n)
{
	const char *word = c->command[c->ncommand - 1];
	char want[64];
	size_t i;

	for (i = 0; i < n; i++)
		if (strpbrk(names[i], "{}/.") != NULL)
			return;
	snprintf(want, sizeof(want), "{a}{a/.}");
	for (i = 0; i < n; i++)
		if (strcmp(names[i], "a") == 0) {
			snprintf(want, sizeof(want), "{%zu}{%zu/.}", i + 1,
			    i + 1);
			break;
		}
	if (strcmp(word, want) != 0)
		fz_fail("--header: COMMAND's {a}{a/.} is '%s', not '%s'",
		    word, want);
}

/* The first pass: every record, as input_next() gives them. */
static void
readrecords(struct config *c, const struct inputopts *io,
    const struct plan *p, struct recs *rs)
{
	struct input *in = input_open(c->src, c->nsrc, io);
	struct args a;
	size_t max = longest(c, p->size), want, n;
	char *const *names;

	if (io->header) {
		names = input_header(in, &n);
		checknames(c, p, names, n);
	}
	while (input_next(in, &a)) {
		checkrecord(c, &a, max);
		addrec(rs, &a);
		free(a.v);
	}
	input_close(in);
	if (c->maxlines > 0 || c->eofstr != NULL || c->skipblank)
		return;
	if (rs->n != (want = expected(c, p)))
		fz_fail("%zu records, not %zu", rs->n, want);
}

/* The next record of the first pass is v[0..n) (with -N 0, only its
 * turn: a job gets no argument). */
static void
match(struct walk *w, char *const *v, size_t n, bool noargs)
{
	const struct recs *rs = w->rs;
	size_t i, len;

	if (w->rec >= rs->n)
		fz_fail("a job has record %zu of %zu", w->rec + 1, rs->n);
	if (!noargs && rs->nf[w->rec] != n)
		fz_fail("record %zu: %zu fields in its job, %zu read",
		    w->rec + 1, n, rs->nf[w->rec]);
	for (i = 0; i < rs->nf[w->rec]; i++) {
		len = strlen(rs->s + w->off) + 1;
		if (!noargs && memcmp(v[i], rs->s + w->off, len) != 0)
			fz_fail("record %zu: field %zu is '%s' in its job, "
			    "'%s' read", w->rec + 1, i, v[i], rs->s + w->off);
		w->off += len;
	}
	w->rec++;
}

/* What jobargs.h promises of a job a: its records, in order, at most
 * -n/-N/-L of them; when no length is measured (-m, -X, --xargs, -x),
 * exactly that many but in the last job (*short: one had fewer). */
static void
checkjob(const struct jobargs_opts *o, const struct args *a,
    struct walk *w, bool *short_)
{
	size_t i, nrec = o->noargs ? 1 : a->nrec;

	if (o->noargs && (a->n != 0 || a->nrec != 0))
		fz_fail("-N 0: a job with %zu arguments", a->n);
	if (nrec == 0 || (o->maxrecs > 0 && nrec > o->maxrecs))
		fz_fail("a job of %zu records (at most %zu)", nrec,
		    o->maxrecs);
	if (*short_)
		fz_fail("a job after one of fewer records than %zu",
		    o->maxrecs);
	*short_ = !o->fit && !o->exitbig && nrec < o->maxrecs;
	if (!o->noargs && (a->rec[0] != 0 || a->rec[nrec] != a->n))
		fz_fail("a job's records do not span its arguments");
	for (i = 0; i < nrec; i++) {
		if (o->noargs) {
			match(w, NULL, 0, true);
			continue;
		}
		if (a->rec[i + 1] < a->rec[i])
			fz_fail("a job's record offsets go back");
		match(w, a->v + a->rec[i], a->rec[i + 1] - a->rec[i], false);
	}
}

/* The second pass: the records into jobs as newjobargs() in run/run.c
 * makes them, {##} counting them first. */
static void
readjobs(struct config *c, const struct inputopts *io,
    const struct recs *rs)
{
	struct command_opts co;
	struct jobargs_opts o;
	struct commands *cm;
	struct input *in;
	struct jobargs *ja;
	struct args a;
	struct walk w = { rs, 0, 0 };
	char *const *names;
	size_t n;
	uint64_t total = 0, njobs = 0;
	bool counted, short_ = false;

	in = input_open(c->src, c->nsrc, io);
	if (io->header) {
		names = input_header(in, &n);
		config_namefields(c, names, n);
		checknamed(c, names, n);
	}
	runopts_command(c, &co);
	cm = commands_new(&co);
	runopts_jobargs(c, &o);
	o.cm = cm;
	ja = jobargs_new(in, &o);
	if ((counted = commands_needs_total(cm)))
		commands_set_total(cm, total = jobargs_readall(ja), c->jobs);
	/* (the run's reader asks between jobs whether the next would wait) */
	for (; (void)jobargs_ready(ja), jobargs_next(ja, &a); njobs++) {
		checkjob(&o, &a, &w, &short_);
		free(a.v);
	}
	if (!jobargs_failed(ja) && w.rec != rs->n)
		fz_fail("the jobs took %zu of %zu records", w.rec, rs->n);
	if (counted && njobs != total)
		fz_fail("{##} counted %llu jobs; there were %llu",
		    (unsigned long long)total, (unsigned long long)njobs);
	jobargs_free(ja);
	input_close(in);
	commands_free(cm);
}

/* From argv to the jobs, as main() and setup() in run/run.c go. */
static void
records(struct config *c, struct fz_argv *a, const struct plan *p)
{
	struct inputopts io;
	struct recs rs = { NULL, 0, 0, NULL, 0, 0 };

	cmdline_finish(c, a->n, a->w, options_parse(c, a->n, a->w));
	if (!ownsources(c, p->path))
		return;
	if (config_headernames(c) != ((p->srcs & 128) != 0))
		fz_fail("--header : is %s", config_headernames(c) ?
		    "taken, not given" : "given, not taken");
	io = (struct inputopts){ c->delim, c->hascolsep ? &c->colsep : NULL,
	    c->skipblank, c->maxlines > 0, c->eofstr, c->link, -1, c->trim,
	    config_headernames(c) };
	readrecords(c, &io, p, &rs);
	readjobs(c, &io, &rs);
	free(rs.s);
	free(rs.nf);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool ready;
	struct plan p;
	struct fz_argv a = { .n = 0 };
	struct config c;

	if (!ready) {	/* as run.c does once, before the commands */
		progpath_init(getenv("PATH"));
		ready = true;
	}
	readplan(&p, data, size);
	makeargv(&a, &p);
	config_defaults(&c);
	fz_begin();
	if (setjmp(fz_jump) == 0)
		records(&c, &a, &p);
	fz_done();
	if (!fz_exited())
		config_free(&c);
	fz_argfree(&a);
	freeplan(&p);
	return 0;
}
