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
#include "exec/exec.h"
#include "feeder.h"
#include "input/template.h"
#include "os/proc.h"
#include "os/tmp.h"
#include "os/zerocopy.h"
#include "util/buf.h"
#include "util/owndirs.h"
#include "util/util.h"

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
	struct pipe_opts o;	/* o.src and the strings borrowed */
	struct blocks *blocks;
	struct feeder *feeder;
	char *dir;		/* --cat, --fifo: the run's, in --tmpdir */
	bool rr;		/* --round-robin (not for a dry run, whose
				 * jobs read nothing) */
	unsigned streams;	/* --round-robin: the stream jobs made */
	bool done;		/* no more jobs */
};

struct pipejobs *
pipejobs_new(const struct pipe_opts *o, int wakefd)
{
	struct pipejobs *p = xcalloc(1, sizeof(*p));

	p->o = *o;
	p->rr = o->roundrobin && !o->dryrun;
	p->blocks = blocks_open(o, wakefd);
	p->feeder = feeder_new(p->blocks, wakefd, o->jobs);
	if (o->cat || o->fifo) {
		if ((errno = -wspx__tmp_dir(o->tmpdir, "wspx-", &p->dir)) != 0)
			fatal("--tmpdir %s:", o->tmpdir);
		owndir(p->dir);
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
	/* (empty by now: each block's file goes with its job) */
	if (p->dir != NULL)
		owndir_remove(p->dir);
	free(p->dir);
	free(p);
}

/* A new job: *out gets block k, and args {} for --cat and --fifo. */
static void
newjob(struct pipejobs *p, struct pipejob **out, struct args *args,
    struct block *k)
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
	*out = pj;
	args->v = NULL;
	args->n = 0;
	if (p->dir == NULL)
		return;
	bufprintf(&path, "%s/%s-%llu", p->dir, p->o.cat ? "block" : "fifo",
	    (unsigned long long)k->seq);
	pj->path = buftake(&path);
	n = strlen(pj->path) + 1;
	args->v = xcalloc(1, 2 * sizeof(char *) + n);
	args->v[0] = memcpy((char *)(args->v + 2), pj->path, n);
	args->n = 1;
}

bool
pipejobs_next(struct pipejobs *p, struct wspx__exec *x, struct pipejob **pj,
    struct args *args)
{
	struct block *k;

	while (!p->done && !wspx__exec_halting(x) &&
	    (k = blocks_next(p->blocks)) != NULL) {
		if (!p->rr || p->streams < p->o.jobs) {
			newjob(p, pj, args, k);
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
		    (size_t)k->len) : wspx__zerocopy_copyrange(k->fd, k->off,
		    k->len, fd);
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
pipejobs_prepare(struct pipejobs *p, struct pipejob *pj,
    struct wspx__cmd *cmd)
{
	int fds[2], rc;

	if (p->o.dryrun)
		return 0;
	if (pj->feed != NULL) {		/* an earlier attempt's */
		feeder_end(p->feeder, pj->feed);
		pj->feed = NULL;
	}
	if (p->o.cat)
		return catfile(p, pj);
	if (p->o.fifo) {
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
pipejobs_finished(struct pipejobs *p, struct pipejob **pjp)
{
	struct pipejob *pj = *pjp;

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
	*pjp = NULL;
}

uint64_t
pipejobs_sent(struct pipejobs *p, const struct pipejob *pj)
{
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
