/*
 * The jobs of --pipe and --pipepart (see pipejobs.h).  The reader's thread
 * takes blocks from blocks.c and makes a job of each; the executor calls
 * pipejobs_prepare() on the job's blocking thread just before it spawns
 * it, which makes the pipe and hands its write end to the feeder
 * (feeder.c, whose comment gives the hand-off), and pipejobs_finished()
 * when the job is over, which ends the feeding before the block is
 * released.  The block thus lives from the reader to the job's end, as
 * long as a retry may need it again.
 *
 * --cat writes the block into a file before the job starts, and --fifo
 * makes a FIFO that the feeder fills; both sit in a directory of the run
 * in --tmpdir, named by the block's number, and go when the job does.
 * The job's stdin is then the run's (/dev/null).
 *
 * --round-robin: the first -j blocks each start a job whose feed is a
 * stream; every later block goes to the feeder's queue, from which the
 * first stream that has written its block takes it.  The queue closes
 * when the input ends or the run halts: the streams then end.
 */
#include "pipejobs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "blocks.h"
#include "feeder.h"
#include "job.h"
#include "proc.h"
#include "run.h"
#include "util.h"
#include "zerocopy.h"

/* What a job of the run has besides its command. */
struct pipejob {
	struct block *blk;	/* its block, or NULL once a stream's feed
				 * or a --cat file has it */
	struct feed *feed;	/* feeding it, or NULL */
	bool stream;		/* --round-robin */
	bool fed;		/* a stream whose feed started */
	bool made;		/* its --cat file or FIFO exists */
	char *path;		/* --cat, --fifo: {} */
	uint64_t size;		/* its header and block, in bytes */
};

struct pipejobs {
	const struct config *c;
	struct blocks *blocks;
	struct feeder *feeder;
	char *dir;		/* --cat, --fifo: the run's, in --tmpdir */
	bool rr;		/* --round-robin (not for a dry run, whose
				 * jobs read nothing) */
	unsigned streams;	/* --round-robin: the stream jobs made */
	bool done;		/* no more jobs */
};

struct pipejobs *
pipejobs_new(const struct config *c, int wakefd)
{
	struct pipejobs *p = xcalloc(1, sizeof(*p));
	struct buf dir = { NULL, 0, 0 };

	p->c = c;
	p->rr = c->roundrobin && !c->dryrun;
	p->blocks = blocks_open(c, c->jobs, wakefd);
	p->feeder = feeder_new(p->blocks, wakefd, c->jobs);
	if (c->cat || c->fifo) {
		bufprintf(&dir, "%s/wspx-XXXXXX", c->tmpdir);
		p->dir = buftake(&dir);
		if (mkdtemp(p->dir) == NULL)
			fatal("--tmpdir %s:", c->tmpdir);
	}
	return p;
}

void
pipejobs_free(struct pipejobs *p)
{
	if (p == NULL)
		return;
	feeder_free(p->feeder);
	blocks_close(p->blocks);
	if (p->dir != NULL)
		(void)rmdir(p->dir);
	free(p->dir);
	free(p);
}

/* j gets block k, and {} for --cat and --fifo. */
static void
newjob(struct pipejobs *p, struct cmdjob *j, struct block *k)
{
	struct pipejob *pj = xcalloc(1, sizeof(*pj));
	struct buf path = { NULL, 0, 0 };
	size_t n, hlen;

	pj->blk = k;
	(void)blocks_header(p->blocks, &hlen);
	pj->size = hlen + k->len;
	if (p->rr) {
		pj->stream = true;
		p->streams++;
		feeder_streams(p->feeder, 1);
	}
	j->pj = pj;
	j->args.v = NULL;
	j->args.n = 0;
	if (p->dir == NULL)
		return;
	bufprintf(&path, "%s/%s-%llu", p->dir, p->c->cat ? "block" : "fifo",
	    (unsigned long long)k->seq);
	pj->path = buftake(&path);
	n = strlen(pj->path) + 1;
	j->args.v = xcalloc(1, 2 * sizeof(char *) + n);
	j->args.v[0] = memcpy((char *)(j->args.v + 2), pj->path, n);
	j->args.n = 1;
}

bool
pipejobs_next(struct pipejobs *p, struct wspx__exec *x, struct cmdjob *j)
{
	struct block *k;

	while (!p->done && !wspx__exec_halting(x) &&
	    (k = blocks_next(p->blocks)) != NULL) {
		if (!p->rr || p->streams < p->c->jobs) {
			newjob(p, j, k);
			return true;
		}
		if (!feeder_put(p->feeder, k)) {
			/* no job takes blocks any more: the rest is unread */
			blocks_release(p->blocks, k);
			break;
		}
	}
	pipejobs_end(p);
	return false;
}

void
pipejobs_end(struct pipejobs *p)
{
	if (!p->done && p->rr)
		feeder_close(p->feeder);
	p->done = true;
}

/* --cat: the header and the block into the job's file, once; the block
 * is not needed after that. */
static int
catfile(struct pipejobs *p, struct pipejob *pj)
{
	const struct block *k = pj->blk;
	const char *hdr;
	size_t hlen;
	int fd, rc;

	if (pj->made)
		return 0;
	fd = open(pj->path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	hdr = blocks_header(p->blocks, &hlen);
	rc = wspx__proc_writeall(fd, hdr, hlen);
	if (rc == 0)
		rc = k->mem != NULL ? wspx__proc_writeall(fd, k->mem,
		    (size_t)k->len) : zc_copyrange(k->fd, k->off, k->len, fd);
	if (close(fd) != 0 && rc == 0)
		rc = -errno;
	if (rc != 0) {		/* (a retry writes it again) */
		(void)unlink(pj->path);
		return rc;
	}
	pj->made = true;
	blocks_release(p->blocks, pj->blk);
	pj->blk = NULL;
	return 0;
}

/* Feed the job (into fd, or its FIFO with fd -1): its block, or a
 * stream's first block, which the stream then owns. */
static void
startfeed(struct pipejobs *p, struct pipejob *pj, int fd)
{
	bool first = pj->stream && !pj->fed;

	/* (a stream's job that runs again, evicted by --memfree, gets an
	 * empty stdin: its blocks went with the first run) */
	pj->feed = feeder_start(p->feeder, fd, pj->path, first ||
	    !pj->stream ? pj->blk : NULL, first);
	if (first) {
		pj->fed = true;
		pj->blk = NULL;
	}
}

int
pipejobs_prepare(struct pipejobs *p, struct cmdjob *j, struct wspx__cmd *cmd)
{
	struct pipejob *pj = j->pj;
	int fds[2], rc;

	if (p->c->dryrun)
		return 0;
	if (pj->feed != NULL) {		/* an earlier attempt's */
		feeder_end(p->feeder, pj->feed);
		pj->feed = NULL;
	}
	if (p->c->cat)
		return catfile(p, pj);
	if (p->c->fifo) {
		if (!pj->made && mkfifo(pj->path, 0600) != 0 &&
		    errno != EEXIST)
			return -errno;
		pj->made = true;
		startfeed(p, pj, -1);
		return 0;
	}
	if ((rc = wspx__proc_pipe(fds)) != 0)
		return rc;
	(void)wspx__proc_pipe_grow(fds[1]);
	cmd->in_fd = fds[0];
	startfeed(p, pj, fds[1]);
	return 0;
}

void
pipejobs_finished(struct pipejobs *p, struct cmdjob *j)
{
	struct pipejob *pj = j->pj;

	if (pj == NULL)
		return;
	if (pj->feed != NULL)
		feeder_end(p->feeder, pj->feed);
	if (pj->stream && !pj->fed)
		feeder_streams(p->feeder, -1);
	blocks_release(p->blocks, pj->blk);
	if (pj->made)
		(void)unlink(pj->path);
	free(pj->path);
	free(pj);
	j->pj = NULL;
}

uint64_t
pipejobs_sent(struct pipejobs *p, const struct cmdjob *j)
{
	const struct pipejob *pj = j->pj;

	if (pj == NULL)
		return 0;
	if (pj->stream && pj->feed != NULL)
		return feeder_given(p->feeder, pj->feed);
	return pj->size;
}

bool
pipejobs_failed(const struct pipejobs *p)
{
	return blocks_failed(p->blocks);
}
