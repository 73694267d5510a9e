/*
 * Cutting the input into blocks (see blocks.h), with GNU parallel's sizes,
 * so that a job sees what it would see under GNU parallel:
 *
 * - By size (no -N, -L): a block is the input up to the last cut in the
 *   next --block bytes; if fewer bytes are left, it is all of them.
 * - -L N: up to the last line that ends a record of N lines in the next
 *   --block bytes; at the end, what is left.
 * - -N N: N records whatever their size (-N with -L N: N times N lines).
 * - --pipepart: up to the first cut at least --block bytes on (by default
 *   the size that gives ten parts per job slot); the header is left out.
 *
 * When no cut falls within --block bytes (a record longer than the
 * block), the block grows as GNU parallel's does, by 30% and a byte at a
 * time, until one does; unlike GNU parallel's, the next block starts
 * from --block again.  A warning tells of a block that grew, each time
 * one grows larger than any before.
 *
 * Memory.  Data read from a pipe lands in chunks; a block points into
 * the chunk it was read into, which holds it until it is released (the
 * chunk's count, under the lock: blocks are released on the jobs'
 * threads).  A block that does not fit what is left of a chunk goes to a
 * new one, with the bytes of it already read copied over: one record's
 * worth, not the block.  Freed chunks of the usual size are kept for
 * reuse.  A regular file is not read at all: blocks are its ranges,
 * found by reading a few KiB around each cut (filecuts.c); but -N, -L
 * and --regexp scan all the data, so they read a file like a pipe.
 */
#include "blocks.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "filecuts.h"
#include "input/input.h"
#include "os/proc.h"
#include "os/thread.h"
#include "pipeopts.h"
#include "records.h"
#include "util/util.h"

/* More of a pipe's data to read when -N's records are not all in yet. */
#define STEP		(64 * 1024)
/* Chunks kept for reuse, and the smallest chunk. */
#define KEEP		4
#define MINCHUNK	(64 * 1024)

struct chunk {
	char *buf;		/* cap bytes and a NUL after the data read
				 * (see records.h) */
	size_t cap;
	size_t refs;		/* under the lock: its blocks, + 1 while it
				 * is the reader's */
	struct chunk *next;	/* on the free list */
};

enum how {
	FROM_MEMORY,		/* read into chunks */
	FROM_RANGES,		/* --pipe of a regular file: its ranges */
	FROM_PARTS		/* --pipepart */
};

struct blocks {
	struct records rs;
	enum how how;
	int fd;
	bool ownfd;		/* -a FILE: ours to close */
	const char *name;	/* for messages */
	uint64_t bs;		/* --block */
	uint64_t seq;
	int wakefd;
	bool started;		/* the header was read */
	bool failed;
	uint64_t warned;	/* the largest grown block told of */
	char *hdr;		/* --header, or NULL */
	size_t hlen;
	/* FROM_RANGES and FROM_PARTS */
	struct filecuts fc;
	unsigned parts;		/* --pipepart: per job slot, or 0 */
	unsigned jobs;
	/* FROM_MEMORY: the reader's */
	struct chunk *cur;
	size_t start, len;	/* cur->buf[start..len): read, in no block */
	bool eof;
	size_t stdcap;		/* the usual chunk */
	/* the chunks' counts and the free list */
	pthread_mutex_t lock;
	struct chunk *free;
	size_t nfree;
};

/* A block of len bytes was taken: tell of it if it grew (--pipepart's
 * are --block or more by design). */
static void
grown(struct blocks *b, uint64_t len)
{
	unsigned long long n = b->seq + 1, bs = b->bs;

	if (b->how == FROM_PARTS || len <= b->bs || len <= b->warned)
		return;
	b->warned = len;
	if (b->rs.count > 0)
		warn("block %llu: its %zu records take %llu bytes, more than "
		    "--block %llu", n, b->rs.count, (unsigned long long)len,
		    bs);
	else
		warn("block %llu: a record is longer than --block %llu: the "
		    "block grows to %llu bytes", n, bs,
		    (unsigned long long)len);
}

static struct block *
newblock(struct blocks *b, uint64_t len)
{
	struct block *k = xcalloc(1, sizeof(*k));

	grown(b, len);
	k->seq = ++b->seq;
	k->len = len;
	k->fd = b->fd;
	return k;
}

/* Drop a reference to ch; the last one frees it, or keeps it for reuse.
 * The lock is held. */
static void
unref(struct blocks *b, struct chunk *ch)
{
	if (--ch->refs > 0)
		return;
	if (ch->cap == b->stdcap && b->nfree < KEEP) {
		ch->next = b->free;
		b->free = ch;
		b->nfree++;
		return;
	}
	free(ch->buf);
	free(ch);
}

/* A chunk of at least cap bytes, the reader's. */
static struct chunk *
newchunk(struct blocks *b, size_t cap)
{
	struct chunk *ch = NULL;

	WSPX_MUST(pthread_mutex_lock(&b->lock));
	if (cap <= b->stdcap && (ch = b->free) != NULL) {
		b->free = ch->next;
		b->nfree--;
	}
	WSPX_MUST(pthread_mutex_unlock(&b->lock));
	if (ch == NULL) {
		cap = cap > b->stdcap ? cap : b->stdcap;
		ch = xmalloc(sizeof(*ch));
		ch->buf = xmalloc(cap + 1);
		ch->cap = cap;
	}
	ch->refs = 1;
	return ch;
}

/* Move what is read and in no block yet to a chunk with room for want
 * bytes of it (twice what is there if that is more: a block that keeps
 * growing is copied a few times, not once per read). */
static void
movechunk(struct blocks *b, size_t want)
{
	size_t have = b->len - b->start;
	struct chunk *ch = newchunk(b, want > 2 * have ? want : 2 * have);

	if (b->cur != NULL) {
		memcpy(ch->buf, b->cur->buf + b->start, have);
		WSPX_MUST(pthread_mutex_lock(&b->lock));
		unref(b, b->cur);
		WSPX_MUST(pthread_mutex_unlock(&b->lock));
	}
	b->cur = ch;
	b->start = 0;
	b->len = have;
	ch->buf[have] = '\0';
}

/* Read more of the input into the chunk: false at its end, on an error
 * (reported) or when the run stops. */
static bool
readin(struct blocks *b)
{
	struct pollfd pf[2] = { { b->fd, POLLIN, 0 }, { b->wakefd, POLLIN,
	    0 } };
	ssize_t n;

	for (;;) {
		if (poll(pf, 2, -1) < 0 && errno != EINTR)
			fatal("poll:");
		if (pf[1].revents != 0)
			return false;
		n = read(b->fd, b->cur->buf + b->len, b->cur->cap - b->len);
		if (n > 0) {
			b->len += (size_t)n;
			b->cur->buf[b->len] = '\0';
			return true;
		}
		if (n == 0)
			return false;
		if (errno != EINTR && errno != EAGAIN) {
			warn("%s:", b->name);
			b->failed = true;
			return false;
		}
	}
}

/* Have at least want bytes read and in no block, if the input has them:
 * false if it ended first (what it had is there). */
static bool
fill(struct blocks *b, size_t want)
{
	if (b->cur == NULL || b->cur->cap - b->start < want)
		movechunk(b, want);
	while (!b->eof && b->len - b->start < want)
		b->eof = !readin(b);
	return b->len - b->start >= want;
}

/* The next len bytes read as a block. */
static struct block *
takemem(struct blocks *b, size_t len)
{
	struct block *k = newblock(b, len);

	k->mem = b->cur->buf + b->start;
	k->chunk = b->cur;
	WSPX_MUST(pthread_mutex_lock(&b->lock));
	b->cur->refs++;
	WSPX_MUST(pthread_mutex_unlock(&b->lock));
	b->start += len;
	return k;
}

/* By size: the last cut in --block bytes (growing past a long record). */
static size_t
bysize(struct blocks *b)
{
	size_t w = (size_t)b->bs, cut;

	for (;;) {
		if (!fill(b, w))
			return b->len - b->start;
		if (records_last(&b->rs, b->cur->buf + b->start, w, 1, &cut))
			return cut;
		if (w == RECORDS_MAXBLOCK)
			return w;
		w = (size_t)records_grow(w);
	}
}

/* -L: the last whole record of lines in --block bytes. */
static size_t
bylines(struct blocks *b)
{
	size_t w = (size_t)b->bs, have, cut;
	bool full;

	for (;;) {
		full = fill(b, w);
		have = full ? w : b->len - b->start;
		cut = records_lines(&b->rs, b->cur->buf + b->start, have);
		if (cut > 0 || !full || w == RECORDS_MAXBLOCK)
			return cut > 0 ? cut : have;
		w = (size_t)records_grow(w);
	}
}

/* -N: as many records as it takes. */
static size_t
bycount(struct blocks *b)
{
	struct nth st = { 0, 0 };
	size_t cut, have;

	for (;;) {
		have = b->len - b->start;
		if (b->cur != NULL && records_nth(&b->rs, b->cur->buf +
		    b->start, have, &st, &cut))
			return cut;
		if (b->eof)
			return have;
		(void)fill(b, have + STEP);
	}
}

static struct block *
nextmem(struct blocks *b)
{
	size_t len;

	if (b->rs.count > 0)
		len = bycount(b);
	else if (b->rs.lines > 0)
		len = bylines(b);
	else
		len = bysize(b);
	return len > 0 ? takemem(b, len) : NULL;
}

/* The header, read from a pipe: it stays out of the blocks. */
static void
memheader(struct blocks *b)
{
	size_t len = 0;
	bool found;

	while (!(found = records_header(&b->rs, b->cur != NULL ?
	    b->cur->buf + b->start : "", b->len - b->start, b->eof, &len)) &&
	    !b->eof && b->len - b->start <= RECORDS_HEADERMAX)
		(void)fill(b, b->len - b->start + (size_t)b->bs);
	if (!found)	/* (GNU parallel would make all of it one block) */
		len = 0;
	b->hdr = xmalloc(len + 1);
	if (len > 0)
		memcpy(b->hdr, b->cur->buf + b->start, len);
	b->hlen = len;
	b->start += len;
}

/* Before the first block: the header, and --pipepart's size. */
static void
begin(struct blocks *b)
{
	b->started = true;
	if (b->how == FROM_MEMORY)
		memheader(b);
	else
		b->hdr = filecuts_header(&b->fc, &b->hlen);
	/* GNU parallel: the whole file's size, -j, and the parts per slot */
	if (b->parts > 0)
		b->bs = 1 + b->fc.size / b->jobs / b->parts;
}

/* The next block of a file. */
static struct block *
nextrange(struct blocks *b)
{
	struct block *k;
	uint64_t off, len;

	len = b->how == FROM_PARTS ? filecuts_part(&b->fc, b->bs, &off) :
	    filecuts_block(&b->fc, b->bs, &off);
	if (len == 0) {
		if (b->how == FROM_RANGES)	/* as if read to the end */
			(void)lseek(b->fd, (off_t)b->fc.pos, SEEK_SET);
		return NULL;
	}
	k = newblock(b, len);
	k->off = off;
	return k;
}

struct block *
blocks_next(struct blocks *b)
{
	if (!b->started)
		begin(b);
	return b->how == FROM_MEMORY ? nextmem(b) : nextrange(b);
}

void
blocks_release(struct blocks *b, struct block *k)
{
	if (k == NULL)
		return;
	if (k->chunk != NULL) {
		WSPX_MUST(pthread_mutex_lock(&b->lock));
		unref(b, k->chunk);
		WSPX_MUST(pthread_mutex_unlock(&b->lock));
	}
	free(k);
}

const char *
blocks_header(const struct blocks *b, size_t *len)
{
	*len = b->hlen;
	return b->hdr;
}

bool
blocks_failed(const struct blocks *b)
{
	return b->failed || b->fc.failed;
}

static void
notparts(const struct blocks *b)
{
	fatal("--pipepart: %s: not a file that can be read in parts (a "
	    "regular file or a block device)", b->name);
}

/* Open the input: stdin, or -a FILE (then named in errors as typed).
 * --pipepart's file is looked at first: opening a FIFO would wait for
 * a writer. */
static void
openinput(struct blocks *b, const struct srcspec *s, bool part)
{
	struct stat st;

	if (strcmp(s->path, "-") == 0) {
		b->fd = STDIN_FILENO;
		b->name = "standard input";
		return;
	}
	b->name = s->path;
	if (part && stat(s->path, &st) == 0 && !S_ISREG(st.st_mode) &&
	    !S_ISBLK(st.st_mode))
		notparts(b);
	if ((b->fd = open(s->path, O_RDONLY | O_CLOEXEC)) < 0)
		fatal("%s%s%s:", s->opt != NULL ? s->opt : "", s->opt != NULL ?
		    " " : "", s->path);
	b->ownfd = true;
}

/* How the blocks come: a file that can be read at any offset gives its
 * ranges, unless the records must be scanned; else memory. */
static void
choose(struct blocks *b, const struct pipe_opts *o)
{
	struct stat st;
	off_t here = lseek(b->fd, 0, SEEK_CUR), end;

	if (o->pipepart) {
		if (fstat(b->fd, &st) != 0 || (!S_ISREG(st.st_mode) &&
		    !S_ISBLK(st.st_mode)) || here < 0)
			notparts(b);
		b->how = FROM_PARTS;
		b->parts = o->roundrobin ? 1 : o->blockparts > 0 ?
		    o->blockparts : !o->blockset ? 10 : 0;
	} else if (fstat(b->fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    here >= 0 && !b->rs.regexp && b->rs.count == 0 &&
	    b->rs.lines == 0) {
		b->how = FROM_RANGES;
	} else {
		b->how = FROM_MEMORY;
		/* fewer, larger reads from a pipe */
		wspx__proc_widen_pipe(b->fd);
		return;
	}
	end = lseek(b->fd, 0, SEEK_END);
	filecuts_init(&b->fc, &b->rs, b->fd, b->name, (uint64_t)here,
	    end > here ? (uint64_t)end : (uint64_t)here);
}

struct blocks *
blocks_open(const struct pipe_opts *o, int wakefd)
{
	struct blocks *b = xcalloc(1, sizeof(*b));

	records_init(&b->rs, o);
	openinput(b, o->src, o->pipepart);
	b->bs = o->block;
	b->jobs = o->jobs > 0 ? o->jobs : 1;
	b->wakefd = wakefd;
	b->stdcap = b->bs > MINCHUNK ? (size_t)b->bs : MINCHUNK;
	WSPX_MUST(pthread_mutex_init(&b->lock, NULL));
	choose(b, o);
	return b;
}

void
blocks_close(struct blocks *b)
{
	struct chunk *ch;

	if (b == NULL)
		return;
	WSPX_MUST(pthread_mutex_lock(&b->lock));
	if (b->cur != NULL)
		unref(b, b->cur);
	WSPX_MUST(pthread_mutex_unlock(&b->lock));
	while ((ch = b->free) != NULL) {
		b->free = ch->next;
		free(ch->buf);
		free(ch);
	}
	if (b->ownfd)
		close(b->fd);
	WSPX_MUST(pthread_mutex_destroy(&b->lock));
	records_fini(&b->rs);
	if (b->how != FROM_MEMORY)
		filecuts_fini(&b->fc);
	free(b->hdr);
	free(b);
}
