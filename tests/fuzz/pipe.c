/*
 * Fuzz target: --pipe and --pipepart cutting their input into blocks.  The
 * first bytes choose the options (--recstart, --recend, --regexp,
 * --header, --pipepart, -L, -N, --block of 1 to 4096 bytes or -N parts,
 * -j, --round-robin) and whether the input comes through a pipe or as a
 * file; the strings after them are the options' values; the rest is the
 * input (repeated, as byte 4 says).  They go through the real options
 * (options_parse, cmdline_finish, runopts_pipe) into blocks_open() as the
 * run's pipejobs_new() opens it, and every block is taken with
 * blocks_next() as the run's reader takes them, a few held at once as the
 * feeder holds them.  --pipe's input is whatever a user pipes in, of any
 * size and in any bytes, cut by separators and regular expressions the
 * user typed: the hostile path.
 *
 * Checked: blocks come in order, none empty, each holding the input's
 * bytes at its place, still when it is given back; the header and the
 * blocks together are the input, byte for byte; --header N is the first
 * N lines; and without --regexp every cut is where blocks.c's rules put
 * it: by size the last record end within --block bytes (more only when
 * none is), -L after whole records of lines, -N after N records,
 * --pipepart at the first record end --block bytes on.
 */
#define _GNU_SOURCE		/* pipe2, F_SETPIPE_SZ */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "options/cmdline.h"
#include "options/config.h"
#include "options/options.h"
#include "pipe/blocks.h"
#include "pipe/pipeopts.h"
#include "pipe/records.h"
#include "run/run_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Blocks held at once, at most, as jobs hold theirs. */
#define MAXHOLD 8

/* What the input asks for: bytes 0-4 (see makeargv), the options'
 * values, and the rest, the data. */
struct plan {
	unsigned flags, block, counts, more;
	char *recstart, *recend, *header;	/* values, or NULL */
	uint8_t *data;
	size_t size;
	int pipefd;		/* the pipe's end to read, or -1 */
	char path[32];		/* the file, or the pipe as /dev/fd/N */
};

/* What the blocks have given back so far. */
struct seen {
	const struct plan *p;
	const struct records *rs;
	const struct pipe_opts *o;
	const uint8_t *body;	/* the input after the header */
	size_t size;		/* its length */
	size_t at;		/* where the next block starts in it */
	uint64_t seq;
	uint64_t bs;		/* --pipepart's size of a part, or 0 */
};

/* Where the pipe's end is kept: above the descriptors the harness looks
 * at, so that it never takes the pipe for one an input left open, nor
 * the file the input opens in its place for one of the target's. */
#define PIPEFD 900

/* A pipe holding the n bytes at p, its writing end closed, as a shell
 * pipeline gives them; -1 if it cannot hold them all (a pipe is 64 KiB
 * unless made larger). */
static int
datapipe(const uint8_t *p, size_t n)
{
	int fd[2], high;
	ssize_t w;

	if (pipe2(fd, O_CLOEXEC) != 0)
		abort();
	if (n > 65536 && fcntl(fd[1], F_SETPIPE_SZ, (int)n) < (int)n) {
		close(fd[0]);
		close(fd[1]);
		return -1;
	}
	for (; n > 0; p += w, n -= (size_t)w)
		if ((w = write(fd[1], p, n)) <= 0)
			abort();
	close(fd[1]);
	if ((high = fcntl(fd[0], F_DUPFD_CLOEXEC, PIPEFD)) < 0)
		abort();
	close(fd[0]);
	return high;
}

static void
readplan(struct plan *p, const uint8_t *data, size_t size)
{
	struct fz_reader r = { data, size, 0 };

	memset(p, 0, sizeof(*p));
	p->flags = fz_byte(&r);
	p->block = fz_byte(&r) << 8;
	p->block |= fz_byte(&r);
	p->counts = fz_byte(&r);
	p->more = fz_byte(&r);
	p->recstart = p->flags & 1 ? fz_next(&r) : NULL;
	p->recend = p->flags & 2 ? fz_next(&r) : NULL;
	p->header = p->flags & 8 ? fz_next(&r) : NULL;
	p->data = fz_repeat(data + r.at, size - r.at, (p->more >> 4) % 7,
	    &p->size);
	p->pipefd = p->flags & 32 ? datapipe(p->data, p->size) : -1;
	if (p->pipefd >= 0)
		snprintf(p->path, sizeof(p->path), "/dev/fd/%d", p->pipefd);
	else
		snprintf(p->path, sizeof(p->path), "%s", fz_file(p->data,
		    p->size));
}

static void
freeplan(struct plan *p)
{
	free(p->recstart);
	free(p->recend);
	free(p->header);
	free(p->data);
	if (p->pipefd >= 0)
		close(p->pipefd);
}

/* Byte 0: 1 --recstart, 2 --recend, 4 --regexp, 8 --header, 16
 * --pipepart, 32 a pipe (else a file), 64 -L, 128 -N.  Bytes 1-2: none
 * if 0, else with bit 15 --block -N (1-8 parts a job slot), else --block
 * of 1-4096 bytes.  Byte 3: bits 0-2 -L 1-8, bits 3-5 -N 0-7, bits 6-7
 * -j 1-4.  Byte 4: bit 0 --round-robin, bits 1-3 the blocks held at once,
 * 1-8, bits 4-7 the data repeated 2^(N % 7) times. */
static void
makeargv(struct fz_argv *a, const struct plan *p)
{
	fz_arg(a, "wspx");
	fz_arg(a, p->flags & 16 ? "--pipepart" : "--pipe");
	if (p->block & 0x8000)
		fz_argnum(a, "--block", "-%u", (p->block & 7) + 1);
	else if (p->block != 0)
		fz_argnum(a, "--block", "%u", p->block % 4096 + 1);
	fz_argval(a, "--recstart", p->recstart);
	fz_argval(a, "--recend", p->recend);
	if (p->flags & 4)
		fz_arg(a, "--regexp");
	fz_argval(a, "--header", p->header);
	if (p->flags & 64)
		fz_argnum(a, "-L", "%u", (p->counts & 7) + 1);
	if (p->flags & 128)
		fz_argnum(a, "-N", "%u", (p->counts >> 3) & 7);
	fz_argnum(a, "-j", "%u", (p->counts >> 6) + 1);
	if (p->more & 1)
		fz_arg(a, "--round-robin");
	fz_argval(a, "-a", p->path);
	fz_arg(a, "cat");
	a->w[a->n] = NULL;
}

/* The first occurrence of the separator at or after from in
 * s->body[start..), as an offset from start; SIZE_MAX if none. */
static size_t
firstsep(const struct seen *s, size_t start, size_t from)
{
	const struct records *rs = s->rs;
	size_t i;

	for (i = from; start + i + rs->seplen <= s->size; i++)
		if (memcmp(s->body + start + i, rs->sep, rs->seplen) == 0)
			return i;
	return SIZE_MAX;
}

/* Whether a record ends at offset at of the body: the separator lies
 * across it, its --recend part before. */
static bool
cutat(const struct seen *s, size_t at)
{
	const struct records *rs = s->rs;

	return rs->seplen == 0 || (at >= rs->endlen && at - rs->endlen +
	    rs->seplen <= s->size && memcmp(s->body + at - rs->endlen,
	    rs->sep, rs->seplen) == 0);
}

/* By size: the last cut (not at 0) whose separator lies wholly in the
 * first --block bytes; or, if none does, a later cut (its separator
 * past them) or the rest. */
static void
checksize(const struct seen *s, size_t len, size_t left)
{
	const struct records *rs = s->rs;
	size_t bs = (size_t)s->o->block, i, last = 0;

	if (left < bs) {
		if (len != left)
			fz_fail("block %llu: %zu bytes of the last %zu (less "
			    "than --block %zu)", (unsigned long long)s->seq,
			    len, left, bs);
		return;
	}
	if (rs->seplen == 0)
		last = bs;
	for (i = 0; rs->seplen > 0 && (i = firstsep(s, s->at, i)) !=
	    SIZE_MAX && i + rs->seplen <= bs; i++)
		last = i + rs->endlen;
	if (last > 0 && len != last)
		fz_fail("block %llu: %zu bytes, but the last record in "
		    "--block %zu ends at %zu", (unsigned long long)s->seq,
		    len, bs, last);
	if (last == 0 && len != left && (len + rs->seplen <= bs +
	    rs->endlen || !cutat(s, s->at + len)))
		fz_fail("block %llu: %zu bytes: no record ends in --block "
		    "%zu, and none ends there", (unsigned long long)s->seq,
		    len, bs);
}

/* -L: the end of the last record of lines in p[0..n), or 0. */
static size_t
wholelines(const struct seen *s, const uint8_t *p, size_t n)
{
	size_t i, lines = 0, cut = 0;

	for (i = 0; i < n; i++)
		if (p[i] == '\n' && ++lines % s->rs->lines == 0)
			cut = i + 1;
	return cut;
}

static void
checklines(const struct seen *s, size_t len, size_t left)
{
	size_t bs = (size_t)s->o->block;
	size_t last = wholelines(s, s->body + s->at, left < bs ? left : bs);

	if (last > 0 && len != last)
		fz_fail("block %llu: %zu bytes, but the last record of -L %zu "
		    "lines in --block %zu ends at %zu", (unsigned long long)
		    s->seq, len, s->rs->lines, bs, last);
	if (last == 0 && len != left && (len <= bs ||
	    wholelines(s, s->body + s->at, len) != len))
		fz_fail("block %llu: %zu bytes: not whole records of -L %zu "
		    "lines", (unsigned long long)s->seq, len, s->rs->lines);
}

/* -N: up to the end of the N-th record, counting separators from offset
 * 1 of the block (each may overlap the one before); all the rest if it
 * has fewer. */
static void
checkcount(const struct seen *s, size_t len, size_t left)
{
	const struct records *rs = s->rs;
	size_t i = 0, k = 0, want = left;

	if (rs->seplen == 0)
		want = rs->count < left ? rs->count : left;
	while (rs->seplen > 0 && k < rs->count &&
	    (i = firstsep(s, s->at, i + 1)) != SIZE_MAX)
		if (++k == rs->count)
			want = i + rs->endlen;
	if (len != want)
		fz_fail("block %llu: %zu bytes, not the %zu of -N %zu records",
		    (unsigned long long)s->seq, len, want, rs->count);
}

/* --pipepart: up to the first cut bs bytes on (its separator wholly in
 * the file), or the rest. */
static void
checkpart(const struct seen *s, size_t len, size_t left)
{
	size_t want = left, i;

	if (s->bs < left && s->rs->seplen == 0)
		want = (size_t)s->bs;
	else if (s->bs < left && (i = firstsep(s, s->at, (size_t)s->bs)) !=
	    SIZE_MAX)
		want = i + s->rs->endlen;
	if (len != want)
		fz_fail("part %llu: %zu bytes, not %zu (the first record end "
		    "%llu bytes on)", (unsigned long long)s->seq, len, want,
		    (unsigned long long)s->bs);
}

/* The block of len bytes at s->at is cut where blocks.c's rules say. */
static void
checkcut(const struct seen *s, size_t len)
{
	size_t left = s->size - s->at;

	if (s->rs->regexp)	/* (only its bytes are checked) */
		return;
	if (s->o->pipepart)
		checkpart(s, len, left);
	else if (s->rs->count > 0)
		checkcount(s, len, left);
	else if (s->rs->lines > 0)
		checklines(s, len, left);
	else
		checksize(s, len, left);
}

/* Whether block k holds the bytes at want (a block of a file is read
 * back from it). */
static bool
holds(const struct block *k, const uint8_t *want)
{
	char *got;
	bool same;

	if (k->mem != NULL)
		return memcmp(k->mem, want, k->len) == 0;
	got = malloc(k->len);
	same = pread(k->fd, got, k->len, (off_t)k->off) == (ssize_t)k->len &&
	    memcmp(got, want, k->len) == 0;
	free(got);
	return same;
}

/* The header: --header N's first N lines (none if fewer), a REGEX's
 * match at the start; the body follows it. */
static void
checkheader(struct seen *s, const char *h, size_t hlen)
{
	const struct records *rs = s->rs;
	size_t i, lines = 0, want = 0;

	if (hlen > s->p->size || memcmp(h, s->p->data, hlen) != 0)
		fz_fail("the header is not the start of the input");
	for (i = 0; rs->hdr == HDR_LINES && i < s->p->size &&
	    lines < rs->hlines; i++)
		if (s->p->data[i] == '\n' && ++lines == rs->hlines)
			want = i + 1;
	if (rs->hdr != HDR_REGEX && hlen != want)
		fz_fail("--header: %zu bytes, not %zu", hlen, want);
	s->body = s->p->data + hlen;
	s->size = s->p->size - hlen;
}

/* --pipepart's part size, as the run's is, from the whole file's. */
static uint64_t
partsize(const struct pipe_opts *o, size_t size)
{
	unsigned parts = o->roundrobin ? 1 : o->blockparts > 0 ?
	    o->blockparts : !o->blockset ? 10 : 0;

	if (parts == 0)
		return o->block;
	return 1 + size / (o->jobs > 0 ? o->jobs : 1) / parts;
}

/* A new block k: in order, not empty, where the rules cut, the input's
 * bytes. */
static void
checkblock(struct seen *s, const struct block *k)
{
	if (k->seq != ++s->seq)
		fz_fail("block %llu came as %llu", (unsigned long long)s->seq,
		    (unsigned long long)k->seq);
	if (k->len == 0 || k->len > s->size - s->at)
		fz_fail("block %llu: %llu bytes, with %zu left",
		    (unsigned long long)k->seq, (unsigned long long)k->len,
		    s->size - s->at);
	if (k->mem == NULL && k->off != (uint64_t)(s->body - s->p->data) +
	    s->at)
		fz_fail("block %llu: at %llu of the file, not %zu",
		    (unsigned long long)k->seq, (unsigned long long)k->off,
		    (size_t)(s->body - s->p->data) + s->at);
	if (!holds(k, s->body + s->at))
		fz_fail("block %llu: not the input's bytes",
		    (unsigned long long)k->seq);
	checkcut(s, (size_t)k->len);
	s->at += (size_t)k->len;
}

/* Give back the oldest of the n held blocks, checking that its bytes
 * are still the input's (its memory was not reused under it). */
static void
release(struct blocks *b, struct block **held, size_t *n,
    const uint8_t **where)
{
	if (!holds(held[0], where[0]))
		fz_fail("block %llu: changed before it was given back",
		    (unsigned long long)held[0]->seq);
	blocks_release(b, held[0]);
	(*n)--;
	memmove(held, held + 1, *n * sizeof(*held));
	memmove(where, where + 1, *n * sizeof(*where));
}

/* Every block of b, hold of them held at once. */
static void
readblocks(struct blocks *b, struct seen *s, size_t hold)
{
	struct block *held[MAXHOLD], *k;
	const uint8_t *where[MAXHOLD];
	const char *h;
	size_t n = 0, hlen;

	while ((k = blocks_next(b)) != NULL || s->body == NULL) {
		if (s->body == NULL) {	/* (known after the first) */
			h = blocks_header(b, &hlen);
			checkheader(s, h, hlen);
		}
		if (k == NULL)
			break;
		checkblock(s, k);
		if (n == hold)
			release(b, held, &n, where);
		where[n] = s->body + s->at - k->len;
		held[n++] = k;
	}
	while (n > 0)
		release(b, held, &n, where);
	if (s->at != s->size)
		fz_fail("the blocks hold %zu of the %zu bytes after the "
		    "header", s->at, s->size);
}

/* From argv to the blocks, as main() and the run go. */
static void
cutinput(struct config *c, struct fz_argv *a, const struct plan *p)
{
	struct pipe_opts o;
	struct records rs;
	struct blocks *b;
	struct seen s;

	cmdline_finish(c, a->n, a->w, options_parse(c, a->n, a->w));
	/* (an option's value cannot add a source; checked all the same,
	 * not to read any other file) */
	if (c->nsrc != 1 || strcmp(c->src[0].path, p->path) != 0)
		fz_fail("the input is not the target's");
	runopts_pipe(c, &o);
	b = blocks_open(&o, -1);
	records_init(&rs, &o);	/* the rules, for the checks */
	memset(&s, 0, sizeof(s));
	s.p = p;
	s.rs = &rs;
	s.o = &o;
	s.bs = partsize(&o, p->size);
	readblocks(b, &s, ((p->more >> 1) & 7) + 1);
	records_fini(&rs);
	blocks_close(b);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct plan p;
	struct fz_argv a = { .n = 0 };
	struct config c;

	readplan(&p, data, size);
	makeargv(&a, &p);
	config_defaults(&c);
	fz_begin();
	if (setjmp(fz_jump) == 0)
		cutinput(&c, &a, &p);
	fz_done();
	if (!fz_exited())
		config_free(&c);
	fz_argfree(&a);
	freeplan(&p);
	return 0;
}
