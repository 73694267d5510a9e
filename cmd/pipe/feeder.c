/*
 * The feeder thread (see feeder.h).  One thread serves every job's stdin:
 * the write ends are non-blocking, and poll() says which pipe has room, so
 * that a slow job holds back none of the others and the thread never
 * sleeps anywhere but in poll().  Blocks that are ranges of a file are
 * spliced and blocks in memory vmspliced (lib/os/zerocopy.c): the pipe then
 * refers to the block's own memory, which is why a block lives until its
 * job is finished, when its pipe has no reader left.  A stream's blocks
 * are written (copied) instead, as a stream lets go of each block once
 * it is in the pipe.
 *
 * Protocol.  f->lock guards every field marked "lock" here and in
 * struct feed; there are no atomics.
 *
 * - A job's thread (pipejobs.c's prepare) makes the pipe, keeps the read
 *   end for the job's stdin and hands the write end to feeder_start(),
 *   which puts a new feed on f->incoming and writes a byte into f->wake.
 *   From then on the write end, and the feed's progress fields, are the
 *   feeder thread's alone; the job's thread keeps only the pointer.
 * - The feeder adopts incoming feeds into its own list, writes, and ends a
 *   feed when its data is written (closing the write end: the job's end of
 *   file), when the job's end went away (EPIPE: quietly, as GNU parallel),
 *   when asked (fe->cancel), or when the run stops (stopfd).  Ending sets
 *   fe->ended under the lock and broadcasts f->cond; after that the feeder
 *   never touches the feed again.
 * - feeder_end() (the job's finished callback, or its next attempt's
 *   prepare) sets fe->cancel, wakes the feeder and waits on f->cond for
 *   fe->ended; only then may it free the feed and release the block, which
 *   the feed only borrowed.  So a block outlives every write of it, and a
 *   retry's new feed never races the old one.
 * - Round robin: stream feeds own their blocks.  feeder_put() (the reader)
 *   queues a block under the lock and wakes the feeder; a stream that has
 *   written its block releases it and takes the next from the queue
 *   (broadcasting f->cond for a reader waiting for room), or waits idle
 *   (not polled) until one comes, or ends once feeder_close() was called
 *   and the queue is empty.  f->streams counts the streams that can still
 *   take blocks; at 0 the reader stops waiting.
 * - The blocks' memory is released through blocks.c, which is safe from
 *   any thread.
 */
#include "feeder.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "base/clock.h"
#include "blocks.h"
#include "os/proc.h"
#include "os/thread.h"
#include "os/zerocopy.h"
#include "util/util.h"
#include "wspx.h"

/* At most this much in one write or splice (Linux moves at most 2 GiB). */
#define MAXMOVE		((size_t)1 << 30)
/* --fifo: the longest pause between attempts to open a FIFO that has no
 * reader yet, in seconds. */
#define MAXBACKOFF	0.05

struct feed {
	int fd;			/* the write end (-1: FIFO not open) */
	const char *fifo;	/* --fifo: its path, else NULL */
	struct block *blk;	/* being written, or NULL */
	bool stream;		/* round robin: owns blk, takes the next */
	const char *hdr;	/* the header: written first, once */
	size_t hlen, hdone;
	uint64_t done;		/* bytes of blk written */
	double retry, backoff;	/* --fifo: the next try, and the pause */
	bool idle;		/* a stream waiting for a block (unpolled) */
	uint64_t given;		/* lock: the header and blocks it got */
	bool cancel;		/* lock: asked to end */
	bool ended;		/* lock: the feeder let go of it */
	struct feed *next;	/* on f->incoming (lock), then the list */
};

struct feeder {
	pthread_mutex_t lock;
	pthread_cond_t cond;	/* a feed ended; the queue has room */
	pthread_t thread;
	int wake[2];		/* a byte: look at the locked fields */
	int stopfd;
	struct blocks *src;
	struct feed *incoming;	/* lock */
	bool quit;		/* lock: feeder_free() was called */
	bool stopped;		/* lock: the run stops */
	struct block **q;	/* lock: the round robin's queue (a ring) */
	size_t qcap, qhead, qn;
	bool qclosed;		/* lock: no more blocks will come */
	long streams;		/* lock: streams that can take blocks */
	/* the feeder thread's own */
	struct feed *feeds;
	struct pollfd *pfd;	/* [0] wake, [1] stopfd, then feeds */
	struct feed **pfeed;
	size_t npoll;
	bool stopseen;		/* stopfd was readable: no more polls */
};

enum pumped { PUMP_MORE, PUMP_DONE, PUMP_FAILED };

static void
wakeup(struct feeder *f)
{
	char one = 1;

	/* (a full pipe is already a wake-up) */
	if (write(f->wake[1], &one, 1) < 0 && errno != EAGAIN)
		abort();
}

/* Take fe off the list and let go of it.  The lock is held. */
static void
finish(struct feeder *f, struct feed *fe)
{
	struct feed **p;

	for (p = &f->feeds; *p != NULL && *p != fe; p = &(*p)->next)
		;
	if (*p == fe)
		*p = fe->next;
	if (fe->fd >= 0)
		close(fe->fd);
	fe->fd = -1;
	if (fe->stream) {
		blocks_release(f->src, fe->blk);
		f->streams--;
	}
	fe->blk = NULL;
	fe->ended = true;
	WSPX_MUST(pthread_cond_broadcast(&f->cond));
}

/* A stream's next block from the queue.  The lock is held. */
static bool
takequeued(struct feeder *f, struct feed *fe)
{
	if (f->qn == 0)
		return false;
	fe->blk = f->q[f->qhead];
	fe->done = 0;
	fe->given += fe->blk->len;
	f->qhead = (f->qhead + 1) % f->qcap;
	f->qn--;
	WSPX_MUST(pthread_cond_broadcast(&f->cond));
	return true;
}

/* A stream wrote its block: on to the next, idle, or the end.  Returns
 * whether it has a block to write. */
static bool
nextblock(struct feeder *f, struct feed *fe)
{
	bool more;

	WSPX_MUST(pthread_mutex_lock(&f->lock));
	blocks_release(f->src, fe->blk);
	fe->blk = NULL;
	more = takequeued(f, fe);
	fe->idle = !more && !f->qclosed;
	if (!more && f->qclosed)
		finish(f, fe);
	WSPX_MUST(pthread_mutex_unlock(&f->lock));
	return more;
}

/* Under the lock: adopt new feeds, end those asked to (or all, once the
 * run stops or the feeder quits), give idle streams the queued blocks.
 * Returns false when the thread should return. */
static bool
step(struct feeder *f)
{
	struct feed *fe, *next;
	bool on;

	WSPX_MUST(pthread_mutex_lock(&f->lock));
	while ((fe = f->incoming) != NULL) {
		f->incoming = fe->next;
		fe->next = f->feeds;
		f->feeds = fe;
	}
	for (fe = f->feeds; fe != NULL; fe = next) {
		next = fe->next;
		if (fe->cancel || f->stopped || f->quit)
			finish(f, fe);
		else if (fe->idle && takequeued(f, fe))
			fe->idle = false;
		else if (fe->idle && f->qclosed)
			finish(f, fe);
	}
	on = !f->quit;
	WSPX_MUST(pthread_mutex_unlock(&f->lock));
	return on;
}

/* Write what fe has to write until its pipe is full. */
static enum pumped
pump(struct feed *fe)
{
	const struct block *k;
	uint64_t off;
	ssize_t n;
	size_t want;

	while (fe->hdone < fe->hlen) {
		n = write(fe->fd, fe->hdr + fe->hdone, fe->hlen - fe->hdone);
		if (n < 0 && errno != EINTR)
			return errno == EAGAIN ? PUMP_MORE : PUMP_FAILED;
		fe->hdone += n > 0 ? (size_t)n : 0;
	}
	while ((k = fe->blk) != NULL && fe->done < k->len) {
		want = k->len - fe->done < MAXMOVE ? (size_t)(k->len -
		    fe->done) : MAXMOVE;
		if (k->mem != NULL && fe->stream) {
			if ((n = write(fe->fd, k->mem + fe->done, want)) < 0)
				n = -errno;
		} else if (k->mem != NULL) {
			n = wspx__zerocopy_memtopipe(fe->fd, k->mem +
			    fe->done, want);
		} else {
			off = k->off + fe->done;
			n = wspx__zerocopy_filetopipe(k->fd, &off, fe->fd,
			    want);
		}
		if (n == -EAGAIN)
			return PUMP_MORE;
		if (n == 0 || (n < 0 && n != -EINTR))
			return PUMP_FAILED;	/* (0: the file shrank) */
		fe->done += n > 0 ? (uint64_t)n : 0;
	}
	return PUMP_DONE;
}

/* --fifo: open the FIFO for writing once its reader has.  Returns 1 if
 * open, 0 to try again later, -1 on failure. */
static int
openfifo(struct feed *fe)
{
	double now = wspx__clock_seconds(CLOCK_MONOTONIC);

	if (now < fe->retry)
		return 0;
	fe->fd = open(fe->fifo, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
	if (fe->fd >= 0) {
		(void)wspx__proc_pipe_grow(fe->fd);
		return 1;
	}
	if (errno != ENXIO)	/* ENXIO: no reader yet */
		return -1;
	fe->backoff = fe->backoff == 0 ? 0.001 : fe->backoff * 2;
	if (fe->backoff > MAXBACKOFF)
		fe->backoff = MAXBACKOFF;
	fe->retry = now + fe->backoff;
	return 0;
}

/* Write for fe as far as its pipe takes, then end it or go on with the
 * next block of the queue. */
static void
service(struct feeder *f, struct feed *fe)
{
	enum pumped p = PUMP_FAILED;
	int rc = fe->fd >= 0 ? 1 : openfifo(fe);

	if (rc == 0)
		return;
	if (rc > 0) {
		while ((p = pump(fe)) == PUMP_DONE && fe->stream)
			if (!nextblock(f, fe))
				return;		/* idle, or ended */
		if (p == PUMP_MORE)
			return;
	}
	WSPX_MUST(pthread_mutex_lock(&f->lock));
	finish(f, fe);
	WSPX_MUST(pthread_mutex_unlock(&f->lock));
}

/* The poll set: the wake pipe, stopfd, each feed that has a pipe to
 * write.  *timeout is in ms, for the next try of a FIFO (-1: none). */
static size_t
pollset(struct feeder *f, int *timeout)
{
	struct feed *fe;
	size_t n = 2, cap = 2;
	double wait = -1, now = wspx__clock_seconds(CLOCK_MONOTONIC);

	for (fe = f->feeds; fe != NULL; fe = fe->next)
		cap++;
	if (cap > f->npoll) {
		f->npoll = cap * 2;
		f->pfd = xrealloc(f->pfd, f->npoll * sizeof(*f->pfd));
		f->pfeed = xrealloc(f->pfeed, f->npoll * sizeof(*f->pfeed));
	}
	f->pfd[0] = (struct pollfd){ f->wake[0], POLLIN, 0 };
	f->pfd[1] = (struct pollfd){ f->stopseen ? -1 : f->stopfd, POLLIN,
	    0 };
	for (fe = f->feeds; fe != NULL; fe = fe->next) {
		if (fe->fd < 0 && (wait < 0 || fe->retry - now < wait))
			wait = fe->retry > now ? fe->retry - now : 0;
		if (fe->idle)
			continue;
		f->pfeed[n] = fe;
		f->pfd[n++] = (struct pollfd){ fe->fd, POLLOUT, 0 };
	}
	*timeout = wait < 0 ? -1 : (int)(wait * 1000) + 1;
	return n;
}

static void *
feedmain(void *arg)
{
	struct feeder *f = arg;
	char drain[64];
	int timeout;
	size_t n, i;

	while (step(f)) {
		n = pollset(f, &timeout);
		if (poll(f->pfd, n, timeout) < 0 && errno != EINTR)
			fatal("poll:");
		if (f->pfd[0].revents != 0)
			while (read(f->wake[0], drain, sizeof(drain)) > 0)
				;
		if (f->pfd[1].revents != 0) {
			f->stopseen = true;
			WSPX_MUST(pthread_mutex_lock(&f->lock));
			f->stopped = true;
			WSPX_MUST(pthread_cond_broadcast(&f->cond));
			WSPX_MUST(pthread_mutex_unlock(&f->lock));
			continue;
		}
		for (i = 2; i < n; i++)
			if (f->pfd[i].revents != 0 || f->pfd[i].fd < 0)
				service(f, f->pfeed[i]);
	}
	return NULL;
}

struct feeder *
feeder_new(struct blocks *src, int stopfd, size_t queue)
{
	struct feeder *f = xcalloc(1, sizeof(*f));
	int rc;

	f->src = src;
	f->stopfd = stopfd;
	f->qcap = queue > 0 ? queue : 1;
	f->q = xcalloc(f->qcap, sizeof(*f->q));
	WSPX_MUST(pthread_mutex_init(&f->lock, NULL));
	WSPX_MUST(pthread_cond_init(&f->cond, NULL));
	if (wspx__proc_pipe(f->wake) != 0 ||
	    fcntl(f->wake[0], F_SETFL, O_NONBLOCK) != 0 ||
	    fcntl(f->wake[1], F_SETFL, O_NONBLOCK) != 0)
		fatal("pipe:");
	if ((rc = wspx__thread_start(&f->thread, 0, feedmain, f)) != 0)
		fatal("cannot start a thread: %s", wspx_strerror(rc));
	return f;
}

void
feeder_free(struct feeder *f)
{
	if (f == NULL)
		return;
	WSPX_MUST(pthread_mutex_lock(&f->lock));
	f->quit = true;
	wakeup(f);
	WSPX_MUST(pthread_mutex_unlock(&f->lock));
	WSPX_MUST(pthread_join(f->thread, NULL));
	while (f->qn > 0) {
		blocks_release(f->src, f->q[f->qhead]);
		f->qhead = (f->qhead + 1) % f->qcap;
		f->qn--;
	}
	close(f->wake[0]);
	close(f->wake[1]);
	WSPX_MUST(pthread_cond_destroy(&f->cond));
	WSPX_MUST(pthread_mutex_destroy(&f->lock));
	free(f->pfd);
	free(f->pfeed);
	free(f->q);
	free(f);
}

struct feed *
feeder_start(struct feeder *f, int fd, const char *fifo, struct block *blk,
    bool stream)
{
	struct feed *fe = xcalloc(1, sizeof(*fe));

	if (fd >= 0 && fcntl(fd, F_SETFL, O_NONBLOCK) != 0)
		fatal("fcntl:");
	fe->fd = fd;
	fe->fifo = fifo;
	fe->blk = blk;
	fe->stream = stream;
	fe->hdr = blocks_header(f->src, &fe->hlen);
	fe->given = fe->hlen + (blk != NULL ? blk->len : 0);
	WSPX_MUST(pthread_mutex_lock(&f->lock));
	fe->next = f->incoming;
	f->incoming = fe;
	wakeup(f);
	WSPX_MUST(pthread_mutex_unlock(&f->lock));
	return fe;
}

void
feeder_end(struct feeder *f, struct feed *fe)
{
	WSPX_MUST(pthread_mutex_lock(&f->lock));
	if (!fe->ended) {
		fe->cancel = true;
		wakeup(f);
		while (!fe->ended)
			WSPX_MUST(pthread_cond_wait(&f->cond, &f->lock));
	}
	WSPX_MUST(pthread_mutex_unlock(&f->lock));
	free(fe);
}

uint64_t
feeder_given(struct feeder *f, struct feed *fe)
{
	uint64_t n;

	WSPX_MUST(pthread_mutex_lock(&f->lock));
	n = fe->given;
	WSPX_MUST(pthread_mutex_unlock(&f->lock));
	return n;
}

void
feeder_streams(struct feeder *f, int n)
{
	WSPX_MUST(pthread_mutex_lock(&f->lock));
	f->streams += n;
	WSPX_MUST(pthread_cond_broadcast(&f->cond));
	WSPX_MUST(pthread_mutex_unlock(&f->lock));
}

bool
feeder_put(struct feeder *f, struct block *blk)
{
	bool taken;

	WSPX_MUST(pthread_mutex_lock(&f->lock));
	while (f->qn == f->qcap && f->streams > 0 && !f->stopped)
		WSPX_MUST(pthread_cond_wait(&f->cond, &f->lock));
	taken = f->streams > 0 && !f->stopped;
	if (taken) {
		f->q[(f->qhead + f->qn) % f->qcap] = blk;
		f->qn++;
		wakeup(f);
	}
	WSPX_MUST(pthread_mutex_unlock(&f->lock));
	return taken;
}

void
feeder_close(struct feeder *f)
{
	WSPX_MUST(pthread_mutex_lock(&f->lock));
	f->qclosed = true;
	wakeup(f);
	WSPX_MUST(pthread_mutex_unlock(&f->lock));
}
