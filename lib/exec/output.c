/*
 * Printing jobs' output: one file past 800 lines because every mode, the
 * staging and the status line meet under one lock, whose rules are
 * written here once.  One mutex, `lock`, serializes everything
 * that reaches wspx's stdout and stderr, so two jobs' bytes never
 * interleave within what one call prints.
 *
 *   group, not keep-order: a job's output is collected without the lock
 *     (only its reader thread touches it) and printed whole when the job
 *     is closed: stdout, then stderr.
 *   lines: complete lines are printed as they come; the partial last line
 *     waits for its end, or is printed as it is once it outgrows the
 *     spill threshold, so memory stays bounded.
 *   keep-order (with group or lines): only the head, the job with the
 *     lowest number not yet printed, prints, and it prints as it goes; the
 *     others collect.  When the head is closed the next jobs that are
 *     closed print in turn, and the first one still running prints what it
 *     has collected and becomes the live head; unless it is held (it may
 *     run again, and what it printed could not be taken back): then it
 *     prints once closed, as the others.
 *
 * Collected output stays in memory up to opts.spill bytes per stream; the rest
 * goes to an unlinked temporary file (through --compress's filters), read
 * back when printed (spill.c).  A tag
 * is inserted before every line.  The first write error (EPIPE when the reader
 * of stdout is gone) stops all printing; collecting goes on, so the reader
 * threads never block, and the error is reported to every caller.
 *
 * Staging.  What is printed is staged, up to STAGE bytes for one fd, and
 * written when the lock is let go: one write per job's output or line.
 * With opts.hold it stays staged until the stage is full or the owner
 * calls wspx__output_flush(): for many tiny outputs in a row (a dry run),
 * one write for thousands of them.
 *
 * Status line.  With a status line (wspx__output_status_start()), every
 * write to a terminal that shares the status line's screen is preceded by
 * erasing the status line, and once the lock is let go the line is drawn
 * again below the output, as long as that output ended a line (drawing it
 * after a partial line would erase that line's start at the next erase).
 * The text is kept under the lock, so whoever holds it can redraw.
 */
#include "output.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "os/proc.h"
#include "os/thread.h"
#include "spill.h"

#define DEFAULT_SPILL	(128 * 1024)
#define STAGE		(64 * 1024)
/* The end of a job's stderr kept for a report of what failed. */
#define ERRTAIL		1024

struct wspx__outjob {
	uint64_t seq;
	char *tag;		/* NULL: no tag */
	size_t taglen;
	struct wspx__spill_buf buf[2];	/* stdout, stderr collected */
	bool linestart[2];	/* the next byte printed starts a line */
	bool closed;		/* keep-order: ended, waiting for its turn */
	bool held;		/* keep-order: printed only once closed, never
				 * live (it may run again); lock */
	uint64_t bytes[2];	/* written by the job so far, per stream */
	char *errtail;		/* the last ERRTAIL bytes of its stderr, a
				 * ring (NULL until it writes there) */
	size_t tailpos;		/* where the next byte goes in errtail */
	size_t tailfill;	/* bytes in errtail */
	char *head, *tail;	/* printed around its output, or NULL */
	char *trail;		/* printed after the tail (--joblog - rows),
				 * or NULL; apart from the tail, which a
				 * frame replaces */
	size_t traillen;
	bool headshown;		/* head was printed */
	bool shown;		/* something of j was printed */
};

struct wspx__output {
	struct wspx__output_opts opts;
	pthread_mutex_t lock;
	_Atomic(int) err;		/* first write error; 0 if none */
	/* keep-order, under lock: the head's number, and the jobs with
	 * numbers next .. next+cap-1 at index seq % cap (cap a power of 2) */
	uint64_t next;
	struct wspx__outjob **ring;
	size_t cap;
	/* under lock: bytes staged for one fd, and a buffer for spill files,
	 * each of STAGE bytes, malloc'd when first needed (a run that prints
	 * nothing touches neither: see wspx__output_new()) */
	char *stage;
	size_t nstage;
	int stagefd;
	char *copy;
	/* under lock: the status line, if statusfd >= 0 */
	int statusfd;
	bool onscreen[2];	/* out_fd, err_fd show where statusfd does */
	bool shown;		/* the status line is on the screen */
	bool linestart;		/* the screen's cursor starts a line */
	char *status;		/* "\r", the text, erase to the line's end */
	size_t statuslen, statuscap;
	struct wspx__spill spill;	/* what the jobs' buffers share */
};

/* Whether writing to fd shows on the status line's screen.  lock held. */
static bool
onscreen(const struct wspx__output *o, int fd)
{
	return fd == o->statusfd || (fd == o->opts.out_fd ? o->onscreen[0] :
	    fd == o->opts.err_fd && o->onscreen[1]);
}

/* Erase the status line before output reaches its screen.  lock held. */
static void
hidestatus(struct wspx__output *o, int fd)
{
	static const char erase[] = "\r\033[K";

	if (!o->shown || !onscreen(o, fd))
		return;
	(void)wspx__proc_writeall(o->statusfd, erase, sizeof(erase) - 1);
	o->shown = false;
}

/* Write output of jobs or of wspx to fd, keeping clear of the status
 * line.  lock held. */
static int
screenwrite(struct wspx__output *o, int fd, const char *p, size_t n)
{
	if (o->statusfd >= 0 && n > 0 && onscreen(o, fd)) {
		hidestatus(o, fd);
		o->linestart = p[n - 1] == '\n';
	}
	return wspx__proc_writeall(fd, p, n);
}

/* Draw the status line if it is not on the screen and may be.  lock
 * held. */
static void
showstatus(struct wspx__output *o)
{
	if (o->statusfd < 0 || o->shown || !o->linestart || o->statuslen == 0)
		return;
	(void)wspx__proc_writeall(o->statusfd, o->status, o->statuslen);
	o->shown = true;
}

/* Record the first error, and tell the owner; later output is dropped.
 * lock held. */
static void
fail(struct wspx__output *o, int rc)
{
	/* relaxed: the lock orders writers; readers only report it, or drop
	 * output once they see it. */
	if (rc == 0 || atomic_load_explicit(&o->err, memory_order_relaxed) != 0)
		return;
	atomic_store_explicit(&o->err, rc, memory_order_relaxed);
	if (o->opts.failed != NULL)
		o->opts.failed(o->opts.ctx, rc);
}

static bool
failed(struct wspx__output *o)
{
	/* relaxed: see fail(). */
	return atomic_load_explicit(&o->err, memory_order_relaxed) != 0;
}

/* Write out the staged bytes.  lock held. */
static void
flush(struct wspx__output *o)
{
	if (o->nstage > 0 && !failed(o))
		fail(o, screenwrite(o, o->stagefd, o->stage, o->nstage));
	o->nstage = 0;
}

/* Print what is staged (unless held: opts.hold), draw the status line
 * again, let go of the lock. */
static void
letgo(struct wspx__output *o)
{
	if (!o->opts.hold)
		flush(o);
	showstatus(o);
	WSPX_MUST(pthread_mutex_unlock(&o->lock));
}

/* Print n bytes to fd, staged to save system calls.  lock held. */
static void
put(struct wspx__output *o, int fd, const char *p, size_t n)
{
	if (n == 0 || failed(o))
		return;
	if (fd != o->stagefd || o->nstage + n > STAGE)
		flush(o);
	o->stagefd = fd;
	if (n >= STAGE || (o->stage == NULL &&
	    (o->stage = malloc(STAGE)) == NULL)) {
		fail(o, screenwrite(o, fd, p, n));
		return;
	}
	memcpy(o->stage + o->nstage, p, n);
	o->nstage += n;
}

/* Print bytes of j's stream, with its tag before each line.  lock held. */
static void
emit(struct wspx__output *o, struct wspx__outjob *j, int stream,
    const char *p, size_t n)
{
	int fd = stream == 1 ? o->opts.out_fd : o->opts.err_fd;
	const char *nl;
	size_t k;

	if (j->head != NULL && !j->headshown) {
		put(o, o->opts.out_fd, j->head, strlen(j->head));
		j->headshown = true;
	}
	j->shown = true;
	if (j->tag == NULL) {
		put(o, fd, p, n);
		return;
	}
	while (n > 0) {
		if (j->linestart[stream - 1])
			put(o, fd, j->tag, j->taglen);
		nl = memchr(p, '\n', n);
		k = nl != NULL ? (size_t)(nl - p) + 1 : n;
		put(o, fd, p, k);
		j->linestart[stream - 1] = nl != NULL;
		p += k;
		n -= k;
	}
}

char *
wspx__output_space(struct wspx__output *o, struct wspx__outjob *j,
    int stream, size_t want, size_t *n)
{
	struct wspx__spill_buf *b = &j->buf[stream - 1];

	if (o->opts.mode != WSPX_OUT_GROUP || o->opts.keep_order ||
	    failed(o) || b->fd >= 0 || b->lost ||
	    b->len + want > o->opts.spill ||
	    wspx__spill_reserve(&o->spill, b, b->len + want) != 0)
		return NULL;
	*n = b->cap - b->len;
	return b->mem + b->len;
}

/* Keep the last bytes of the job's stderr (p, n), for a report of what
 * failed.  The reader thread. */
static void
keeptail(struct wspx__outjob *j, const char *p, size_t n)
{
	size_t k;

	if (j->errtail == NULL && (j->errtail = malloc(ERRTAIL)) == NULL)
		return;
	if (n > ERRTAIL) {
		p += n - ERRTAIL;
		n = ERRTAIL;
	}
	k = ERRTAIL - j->tailpos < n ? ERRTAIL - j->tailpos : n;
	memcpy(j->errtail + j->tailpos, p, k);
	memcpy(j->errtail, p + k, n - k);
	j->tailpos = (j->tailpos + n) % ERRTAIL;
	j->tailfill = j->tailfill + n < ERRTAIL ? j->tailfill + n : ERRTAIL;
}

size_t
wspx__output_errtail(const struct wspx__outjob *j, char *buf, size_t n)
{
	size_t take = n < j->tailfill ? n : j->tailfill, from, k;

	if (take == 0)
		return 0;
	from = (j->tailpos + ERRTAIL - take) % ERRTAIL;
	k = ERRTAIL - from < take ? ERRTAIL - from : take;
	memcpy(buf, j->errtail + from, k);
	memcpy(buf + k, j->errtail, take - k);
	return take;
}

void
wspx__output_commit(struct wspx__outjob *j, int stream, size_t n)
{
	if (stream == 2)
		keeptail(j, j->buf[1].mem + j->buf[1].len, n);
	j->buf[stream - 1].len += n;
	j->bytes[stream - 1] += n;
}

/* Print what b holds in its spill file.  lock held. */
static void
emitfile(struct wspx__output *o, struct wspx__outjob *j, int stream,
    struct wspx__spill_buf *b)
{
	struct wspx__spill_rd rd;
	ssize_t r = 1;

	if (!failed(o) && o->copy == NULL && (o->copy = malloc(STAGE)) == NULL)
		fail(o, -ENOMEM);
	if (!failed(o))
		fail(o, wspx__spill_rd_open(&o->spill, b, &rd));
	if (failed(o))
		return;
	while (!failed(o) && (r = wspx__spill_rd_read(b, &rd, o->copy,
	    STAGE)) > 0)
		emit(o, j, stream, o->copy, (size_t)r);
	if (r < 0)
		fail(o, (int)r);
	/* (whole: read to its end, nothing failed) */
	fail(o, wspx__spill_rd_close(&o->spill, b, &rd, r == 0 && !failed(o)));
}

/* Print and empty what j collected on stream.  lock held. */
static void
emitbuf(struct wspx__output *o, struct wspx__outjob *j, int stream)
{
	struct wspx__spill_buf *b = &j->buf[stream - 1];

	emit(o, j, stream, b->mem, b->len);
	if (b->fd >= 0 && b->filed > 0)
		emitfile(o, j, stream, b);
	wspx__spill_forget(&o->spill, b);
}

int
wspx__output_new(struct wspx__output **out,
    const struct wspx__output_opts *opts)
{
	struct wspx__output *o;

	/* (the struct is small: its buffers come later, if ever, since a
	 * page touched for the first time can cost 15 us in a virtual
	 * machine, and a no-op build prints one line) */
	if ((o = calloc(1, sizeof(*o))) == NULL)
		return -ENOMEM;
	o->opts = *opts;
	if (o->opts.spill == 0)
		o->opts.spill = DEFAULT_SPILL;
	if (o->opts.tmpdir == NULL)
		o->opts.tmpdir = "/tmp";
	o->next = 1;
	o->stagefd = -1;
	o->statusfd = -1;
	atomic_init(&o->err, 0);
	WSPX_MUST(pthread_mutex_init(&o->lock, NULL));
	wspx__spill_init(&o->spill, o->opts.spill, o->opts.tmpdir);
	o->spill.zip = o->opts.compress;
	o->spill.unzip = o->opts.decompress;
	*out = o;
	return 0;
}

void
wspx__output_free(struct wspx__output *o)
{
	if (o == NULL)
		return;
	wspx__spill_fini(&o->spill);
	WSPX_MUST(pthread_mutex_destroy(&o->lock));
	free(o->ring);
	free(o->status);
	free(o->stage);
	free(o->copy);
	free(o);
}

static void
freejob(struct wspx__output *o, struct wspx__outjob *j)
{
	int s;

	for (s = 0; s < 2; s++)
		wspx__spill_release(&o->spill, &j->buf[s]);
	free(j->errtail);
	free(j->head);
	free(j->tail);
	free(j->trail);
	free(j->tag);
	free(j);
}

/* Make room in the keep-order ring for seq.  lock held. */
static int
ringfit(struct wspx__output *o, uint64_t seq)
{
	struct wspx__outjob **r, *j;
	size_t cap, i;

	if (o->cap > 0 && seq - o->next < o->cap)
		return 0;
	for (cap = o->cap ? o->cap * 2 : 64; seq - o->next >= cap; cap *= 2)
		;
	if ((r = calloc(cap, sizeof(*r))) == NULL)
		return -ENOMEM;
	for (i = 0; i < o->cap; i++)
		if ((j = o->ring[i]) != NULL)
			r[j->seq & (cap - 1)] = j;
	free(o->ring);
	o->ring = r;
	o->cap = cap;
	return 0;
}

static struct wspx__outjob *
newjob(uint64_t seq, const char *tag)
{
	struct wspx__outjob *j;

	if ((j = calloc(1, sizeof(*j))) == NULL)
		return NULL;
	j->seq = seq;
	wspx__spill_buf_init(&j->buf[0]);
	wspx__spill_buf_init(&j->buf[1]);
	j->linestart[0] = j->linestart[1] = true;
	if (tag != NULL) {
		j->taglen = strlen(tag);
		if ((j->tag = strdup(tag)) == NULL) {
			free(j);
			return NULL;
		}
	}
	return j;
}

int
wspx__output_open(struct wspx__output *o, uint64_t seq, const char *tag,
    struct wspx__outjob **out)
{
	struct wspx__outjob *j;
	int rc = 0;

	if ((j = newjob(seq, tag)) == NULL)
		return -ENOMEM;
	if (o->opts.keep_order) {
		WSPX_MUST(pthread_mutex_lock(&o->lock));
		if ((rc = ringfit(o, seq)) == 0)
			o->ring[seq & (o->cap - 1)] = j;
		WSPX_MUST(pthread_mutex_unlock(&o->lock));
	}
	if (rc != 0) {
		freejob(o, j);
		return rc;
	}
	*out = j;
	return 0;
}

/* Lines mode: print the complete lines of p, keeping a partial last line
 * (printed anyway once it outgrows the spill threshold).  lock held. */
static int
emitlines(struct wspx__output *o, struct wspx__outjob *j, int stream,
    const char *p, size_t n)
{
	struct wspx__spill_buf *b = &j->buf[stream - 1];
	const char *nl = NULL, *q;
	size_t k;

	for (q = p; (q = memchr(q, '\n', n - (size_t)(q - p))) != NULL; q++)
		nl = q;
	if (nl == NULL && b->len + b->filed + n <= o->opts.spill)
		return wspx__spill_add(&o->spill, b, p, n);
	k = nl != NULL ? (size_t)(nl - p) + 1 : n;
	emitbuf(o, j, stream);
	emit(o, j, stream, p, k);
	return k < n ? wspx__spill_add(&o->spill, b, p + k, n - k) : 0;
}

int
wspx__output_write(struct wspx__output *o, struct wspx__outjob *j,
    int stream, const char *buf, size_t n)
{
	int rc;

	j->bytes[stream - 1] += n;
	if (stream == 2)
		keeptail(j, buf, n);
	if (failed(o))	/* nothing more is printed: nothing to keep */
		return wspx__output_error(o);
	if (o->opts.mode == WSPX_OUT_GROUP && !o->opts.keep_order) {
		rc = wspx__spill_add(&o->spill, &j->buf[stream - 1], buf, n);
		return rc != 0 ? rc : wspx__output_error(o);
	}
	rc = 0;
	WSPX_MUST(pthread_mutex_lock(&o->lock));
	if (!o->opts.keep_order)
		rc = emitlines(o, j, stream, buf, n);
	else if (j->seq == o->next && !j->held)
		emit(o, j, stream, buf, n);
	else
		rc = wspx__spill_add(&o->spill, &j->buf[stream - 1], buf, n);
	letgo(o);
	return rc != 0 ? rc : wspx__output_error(o);
}

void
wspx__output_hold(struct wspx__output *o, struct wspx__outjob *j)
{
	WSPX_MUST(pthread_mutex_lock(&o->lock));
	j->held = true;
	WSPX_MUST(pthread_mutex_unlock(&o->lock));
}

void
wspx__output_discard(struct wspx__output *o, struct wspx__outjob *j)
{
	/* Under the lock: with keep-order, advance() prints the buffers of
	 * the job that becomes the head, from another thread. */
	WSPX_MUST(pthread_mutex_lock(&o->lock));
	wspx__spill_forget(&o->spill, &j->buf[0]);
	wspx__spill_forget(&o->spill, &j->buf[1]);
	j->bytes[0] = j->bytes[1] = 0;
	j->tailpos = j->tailfill = 0;
	WSPX_MUST(pthread_mutex_unlock(&o->lock));
}

/* Print the rest of j and free it.  lock held. */
static void
finish(struct wspx__output *o, struct wspx__outjob *j)
{
	if (j->head != NULL && !j->headshown)
		emit(o, j, 1, "", 0);
	emitbuf(o, j, 1);
	emitbuf(o, j, 2);
	if (j->tail != NULL)
		put(o, o->opts.out_fd, j->tail, strlen(j->tail));
	if (j->trail != NULL)
		put(o, o->opts.out_fd, j->trail, j->traillen);
	freejob(o, j);
}

void
wspx__output_frame(struct wspx__output *o, struct wspx__outjob *j,
    char *head, char *tail)
{
	if (o->opts.mode != WSPX_OUT_GROUP) {
		free(head);
		free(tail);
		return;
	}
	/* Under the lock: with keep-order another thread may print j. */
	WSPX_MUST(pthread_mutex_lock(&o->lock));
	if (head != NULL) {
		free(j->head);
		j->head = head;
	}
	if (tail != NULL) {
		free(j->tail);
		j->tail = tail;
	}
	WSPX_MUST(pthread_mutex_unlock(&o->lock));
}

/* Put the n bytes of s before (front) or after what *at holds, as a new
 * string of *len bytes (len NULL: the string's own); false if out of
 * memory, *at left as it was. */
static bool
addtext(char **at, size_t *len, const char *s, size_t n, bool front)
{
	size_t had = *at == NULL ? 0 : len != NULL ? *len : strlen(*at);
	char *t;

	if ((t = malloc(had + n + 1)) == NULL)
		return false;
	memcpy(t + (front ? n : 0), *at != NULL ? *at : "", had);
	memcpy(t + (front ? 0 : had), s, n);
	t[had + n] = '\0';
	free(*at);
	*at = t;
	if (len != NULL)
		*len = had + n;
	return true;
}

void
wspx__output_lead(struct wspx__output *o, struct wspx__outjob *j,
    const char *line)
{
	size_t n = strlen(line);

	if (o->opts.mode != WSPX_OUT_GROUP) {
		(void)wspx__output_note(o, line, n);
		return;
	}
	WSPX_MUST(pthread_mutex_lock(&o->lock));
	/* (before the head, or after the tail: a frame stays whole) */
	(void)addtext(j->shown ? &j->tail : &j->head, NULL, line, n,
	    !j->shown);
	WSPX_MUST(pthread_mutex_unlock(&o->lock));
}

void
wspx__output_trail(struct wspx__output *o, struct wspx__outjob *j,
    const char *line, size_t n)
{
	WSPX_MUST(pthread_mutex_lock(&o->lock));
	if (j == NULL)
		put(o, o->opts.out_fd, line, n);
	else if (!addtext(&j->trail, &j->traillen, line, n, false))
		fail(o, -ENOMEM);
	letgo(o);
}

/* keep-order: the head was closed; print the closed jobs that follow it,
 * then let the first running one catch up and go live.  lock held. */
static void
advance(struct wspx__output *o)
{
	struct wspx__outjob *j;

	for (;;) {
		o->ring[o->next & (o->cap - 1)] = NULL;
		o->next++;
		j = o->ring[o->next & (o->cap - 1)];
		if (j == NULL || j->seq != o->next)
			return;
		if (!j->closed) {
			if (!j->held) {
				emitbuf(o, j, 1);
				emitbuf(o, j, 2);
			}
			return;
		}
		finish(o, j);
	}
}

int
wspx__output_close(struct wspx__output *o, struct wspx__outjob *j)
{
	WSPX_MUST(pthread_mutex_lock(&o->lock));
	if (!o->opts.keep_order) {
		finish(o, j);
	} else if (j->seq == o->next) {
		finish(o, j);
		advance(o);
	} else {
		j->closed = true;
	}
	letgo(o);
	return wspx__output_error(o);
}

void
wspx__output_flush(struct wspx__output *o)
{
	WSPX_MUST(pthread_mutex_lock(&o->lock));
	flush(o);
	WSPX_MUST(pthread_mutex_unlock(&o->lock));
}

int
wspx__output_note(struct wspx__output *o, const char *msg, size_t n)
{
	int rc;

	WSPX_MUST(pthread_mutex_lock(&o->lock));
	flush(o);
	rc = screenwrite(o, o->opts.err_fd, msg, n);
	letgo(o);
	return rc;
}

/* The screen a terminal fd shows, or 0 if fd is no terminal. */
static dev_t
screen(int fd)
{
	struct stat st;

	return isatty(fd) && fstat(fd, &st) == 0 ? st.st_rdev : 0;
}

void
wspx__output_status_start(struct wspx__output *o, int fd)
{
	dev_t dev = screen(fd);

	WSPX_MUST(pthread_mutex_lock(&o->lock));
	o->statusfd = fd;
	o->onscreen[0] = dev != 0 && screen(o->opts.out_fd) == dev;
	o->onscreen[1] = dev != 0 && screen(o->opts.err_fd) == dev;
	o->shown = false;
	o->linestart = true;
	WSPX_MUST(pthread_mutex_unlock(&o->lock));
}

int
wspx__output_status_set(struct wspx__output *o, const char *text, size_t n)
{
	static const char erase[] = "\033[K";
	size_t need = 1 + n + sizeof(erase) - 1;
	char *t;
	int rc = 0;

	WSPX_MUST(pthread_mutex_lock(&o->lock));
	if (o->statusfd >= 0 && need > o->statuscap) {
		if ((t = realloc(o->status, need)) == NULL)
			rc = -ENOMEM;
		else {
			o->status = t;
			o->statuscap = need;
		}
	}
	if (o->statusfd >= 0 && rc == 0) {
		/* Drawn over the old one in place, with no flicker. */
		o->status[0] = '\r';
		memcpy(o->status + 1, text, n);
		memcpy(o->status + 1 + n, erase, sizeof(erase) - 1);
		o->statuslen = need;
		o->shown = false;
	}
	letgo(o);
	return rc;
}

void
wspx__output_status_end(struct wspx__output *o)
{
	WSPX_MUST(pthread_mutex_lock(&o->lock));
	flush(o);
	if (o->statusfd >= 0) {
		hidestatus(o, o->statusfd);
		/* What comes next (a summary) starts a line of its own. */
		if (!o->linestart)
			(void)wspx__proc_writeall(o->statusfd, "\n", 1);
	}
	o->statusfd = -1;
	free(o->status);
	o->status = NULL;
	o->statuslen = o->statuscap = 0;
	WSPX_MUST(pthread_mutex_unlock(&o->lock));
}

bool
wspx__output_captures(const struct wspx__output *o)
{
	return o->opts.mode != WSPX_OUT_UNGROUP;
}

int
wspx__output_fd(const struct wspx__output *o, int stream)
{
	return stream == 1 ? o->opts.out_fd : o->opts.err_fd;
}

uint64_t
wspx__output_bytes(const struct wspx__outjob *j)
{
	return j->bytes[0] + j->bytes[1];
}

uint64_t
wspx__output_stdout_bytes(const struct wspx__outjob *j)
{
	return j->bytes[0];
}

int
wspx__output_error(struct wspx__output *o)
{
	/* relaxed: see fail(). */
	return atomic_load_explicit(&o->err, memory_order_relaxed);
}

void
wspx__output_check_overflow(struct wspx__output *o)
{
	int err, why;

	if (!wspx__spill_over(&o->spill) || failed(o))
		return;
	err = wspx__spill_zipfailed(&o->spill, &why) != WSPX_ZIP_NONE ? -EIO :
	    wspx__spill_error(&o->spill);
	WSPX_MUST(pthread_mutex_lock(&o->lock));
	fail(o, err != 0 ? err : -ENOSPC);
	letgo(o);
}

bool
wspx__output_overflowed(struct wspx__output *o)
{
	return wspx__spill_over(&o->spill);
}

enum wspx_zipper
wspx__output_zipfailed(struct wspx__output *o, int *why)
{
	return wspx__spill_zipfailed(&o->spill, why);
}

int
wspx__output_spill_error(struct wspx__output *o)
{
	return wspx__spill_error(&o->spill);
}
