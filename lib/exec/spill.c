/*
 * Collected output, in memory then in spill files (see spill.h).
 *
 * Each buffer has one writer at a time; what the buffers share is the
 * spares (under their lock) and three relaxed atomics: the first spill
 * error, the bytes waiting in memory past the threshold (a counter that
 * orders nothing but itself: a charge past the bound is taken back, so
 * it never stays over it), and the overflow flag, a hint that the
 * readers poll to fail the output under the output's lock, and that the
 * run reads once they have been joined.  The first filter failure of
 * --compress is kept in two more relaxed atomics: its cause, set once
 * by a compare-and-swap from 0, and then, by the thread that won it
 * alone, which filter it was; both are read once the writers have
 * stopped (their join orders them), or as a hint.
 *
 * A compressor is a child of wspx that reads the buffer's bytes from a
 * pipe and writes the file; it is reaped when the buffer is read back or
 * forgotten, after its pipe is closed, so it ends at its input's end.
 * The decompressor reads the file (from its start) and gives the bytes
 * back through a pipe, counted: it must give back as many as went in.
 */
#include "spill.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "os/proc.h"
#include "os/thread.h"
#include "os/tmp.h"

/* A buffer taken from the spares only when this much is asked for at
 * once, and given back to them only if this large: a fresh one costs a
 * page fault, and zeroing, per page, and freeing it an unmap with TLB
 * shootdowns. */
#define ADOPT_MIN	(64 * 1024)
#define SPARE_MIN	(128 * 1024)

void
wspx__spill_init(struct wspx__spill *s, size_t threshold, const char *tmpdir)
{
	memset(s->spare, 0, sizeof(s->spare));
	s->threshold = threshold;
	s->tmpdir = tmpdir;
	atomic_init(&s->err, 0);
	atomic_init(&s->waiting, 0);
	atomic_init(&s->over, false);
	s->zip = s->unzip = NULL;
	atomic_init(&s->zfail, 0);
	atomic_init(&s->zwhich, WSPX_ZIP_NONE);
	WSPX_MUST(pthread_mutex_init(&s->sparelock, NULL));
}

void
wspx__spill_fini(struct wspx__spill *s)
{
	int i;

	for (i = 0; i < WSPX_SPILL_SPARES; i++)
		free(s->spare[i].mem);
	WSPX_MUST(pthread_mutex_destroy(&s->sparelock));
}

void
wspx__spill_buf_init(struct wspx__spill_buf *b)
{
	memset(b, 0, sizeof(*b));
	b->fd = -1;
	b->zin = -1;
}

/* Keep the first filter failure: which one, and why (nonzero). */
static void
zipfail(struct wspx__spill *s, enum wspx_zipper which, int why)
{
	int none = 0;

	/* relaxed: see the top of the file. */
	if (atomic_compare_exchange_strong_explicit(&s->zfail, &none, why,
	    memory_order_relaxed, memory_order_relaxed))
		atomic_store_explicit(&s->zwhich, (int)which,
		    memory_order_relaxed);
}

enum wspx_zipper
wspx__spill_zipfailed(struct wspx__spill *s, int *why)
{
	/* relaxed: see the top of the file. */
	*why = atomic_load_explicit(&s->zfail, memory_order_relaxed);
	return *why == 0 ? WSPX_ZIP_NONE : (enum wspx_zipper)
	    atomic_load_explicit(&s->zwhich, memory_order_relaxed);
}

/* End b's compressor, if it has one: close its input, wait for it to
 * write the rest.  Returns its wait status, or -errno. */
static int
endzip(struct wspx__spill_buf *b)
{
	int status = 0, rc;

	if (b->zin >= 0)
		close(b->zin);
	b->zin = -1;
	if (b->zpid > 0 && (rc = wspx__proc_reap(b->zpid, &status)) != 0)
		status = rc;
	b->zpid = 0;
	return status;
}

/* Count n more bytes of b as waiting past the threshold, if the bound
 * lets them: the counter is all the buffers share, so a failed add is
 * taken back (a relaxed counter: it orders nothing but itself). */
static bool
charge(struct wspx__spill *s, struct wspx__spill_buf *b, size_t n)
{
	size_t had = atomic_fetch_add_explicit(&s->waiting, n,
	    memory_order_relaxed);

	if (had + n > WSPX_SPILL_WAITCAP || had + n < had) {
		atomic_fetch_sub_explicit(&s->waiting, n,
		    memory_order_relaxed);
		return false;
	}
	b->charged += n;
	return true;
}

/* Empty b, keeping its memory. */
void
wspx__spill_forget(struct wspx__spill *s, struct wspx__spill_buf *b)
{
	(void)endzip(b);	/* (what it wrote is forgotten too) */
	if (b->fd >= 0)
		close(b->fd);
	b->fd = -1;
	b->len = 0;
	b->filed = 0;
	/* relaxed: see charge() */
	atomic_fetch_sub_explicit(&s->waiting, b->charged,
	    memory_order_relaxed);
	b->charged = 0;
}

/* b could not wait in memory within the bound: drop what it holds, and
 * all that comes after, and say the store overflowed. */
static void
lose(struct wspx__spill *s, struct wspx__spill_buf *b)
{
	wspx__spill_forget(s, b);
	b->lost = true;
	/* relaxed: a flag that the owner polls (wspx__spill_over()) to
	 * stop the run; the bytes it dropped are no one's to read */
	atomic_store_explicit(&s->over, true, memory_order_relaxed);
}

/* Give b's memory back: kept as a spare if large, else freed. */
void
wspx__spill_release(struct wspx__spill *s, struct wspx__spill_buf *b)
{
	int i;

	wspx__spill_forget(s, b);
	if (b->cap >= SPARE_MIN) {
		WSPX_MUST(pthread_mutex_lock(&s->sparelock));
		for (i = 0; i < WSPX_SPILL_SPARES &&
		    s->spare[i].mem != NULL; i++)
			;
		if (i < WSPX_SPILL_SPARES) {
			s->spare[i].mem = b->mem;
			s->spare[i].cap = b->cap;
			b->mem = NULL;
		}
		WSPX_MUST(pthread_mutex_unlock(&s->sparelock));
	}
	free(b->mem);
	b->mem = NULL;
	b->len = b->cap = 0;
}

/* Give an empty b a spare buffer, if there is one. */
static void
adopt(struct wspx__spill *s, struct wspx__spill_buf *b)
{
	int i;

	WSPX_MUST(pthread_mutex_lock(&s->sparelock));
	for (i = 0; i < WSPX_SPILL_SPARES && s->spare[i].mem == NULL; i++)
		;
	if (i < WSPX_SPILL_SPARES) {
		b->mem = s->spare[i].mem;
		b->cap = s->spare[i].cap;
		s->spare[i].mem = NULL;
	}
	WSPX_MUST(pthread_mutex_unlock(&s->sparelock));
}

/* Grow b's memory to hold at least need bytes.  Returns 0 or -ENOMEM. */
int
wspx__spill_reserve(struct wspx__spill *s, struct wspx__spill_buf *b,
    size_t need)
{
	size_t cap;
	char *m;

	if (need <= b->cap)
		return 0;
	if (b->mem == NULL && need >= ADOPT_MIN)
		adopt(s, b);
	if (need <= b->cap)
		return 0;
	for (cap = b->cap ? b->cap : 4096; cap < need; cap *= 2)
		;
	if ((m = realloc(b->mem, cap)) == NULL)
		return -ENOMEM;
	b->mem = m;
	b->cap = cap;
	return 0;
}

/* A spill file for b could not be made or written (-errno why): keep b in
 * memory from now on, and remember why for the report. */
static void
spillfailed(struct wspx__spill *s, struct wspx__spill_buf *b, int why)
{
	int none = 0;

	/* relaxed: only the first error is kept, and it is read at the end,
	 * after the threads that collect output have been joined (or, as a
	 * hint, by wspx__output_check_overflow(), which has a fallback). */
	(void)atomic_compare_exchange_strong_explicit(&s->err, &none, why,
	    memory_order_relaxed, memory_order_relaxed);
	b->nospill = true;
}

/* The spill file of b failed (a full disk): bring what it holds back into
 * memory and keep b there from now on, so nothing is lost, as far as the
 * bound lets it (else b is lost).  Returns 0 or -errno. */
static int
unspill(struct wspx__spill *s, struct wspx__spill_buf *b, int why)
{
	uint64_t off;
	ssize_t r;

	spillfailed(s, b, why);
	if (b->filed > WSPX_SPILL_WAITCAP || !charge(s, b, (size_t)b->filed)) {
		lose(s, b);
		return 0;
	}
	if (wspx__spill_reserve(s, b, b->len + (size_t)b->filed) != 0)
		return -ENOMEM;
	for (off = 0; off < b->filed; off += (uint64_t)r) {
		r = pread(b->fd, b->mem + b->len + off, (size_t)(b->filed -
		    off), (off_t)off);
		if (r < 0 && errno == EINTR)
			r = 0;
		else if (r <= 0)
			return r < 0 ? -errno : -EIO;
	}
	b->len += (size_t)b->filed;
	b->filed = 0;
	close(b->fd);
	b->fd = -1;
	return 0;
}

/* Charge what b, in memory only, would hold past the threshold with n
 * more bytes, as far as it is not charged yet. */
static bool
chargepast(struct wspx__spill *s, struct wspx__spill_buf *b, size_t n)
{
	size_t past = b->len + n > s->threshold ? b->len + n - s->threshold :
	    0;

	return past <= b->charged || charge(s, b, past - b->charged);
}

/* Make b's spill file, and the compressor that writes it if the store
 * compresses.  Returns 0 or -errno. */
static int
startfile(struct wspx__spill *s, struct wspx__spill_buf *b)
{
	int fd, p[2], rc;

	if ((fd = wspx__tmp_anon(s->tmpdir)) < 0)
		return fd;
	if (s->zip != NULL) {
		if ((rc = wspx__proc_pipe(p)) != 0) {
			close(fd);
			return rc;
		}
		rc = wspx__proc_sh(s->zip, p[0], fd, &b->zpid);
		close(p[0]);
		if (rc != 0) {
			b->zpid = 0;
			close(p[1]);
			close(fd);
			return rc;
		}
		b->zin = p[1];
	}
	b->fd = fd;
	return 0;
}

/* Give n bytes to b's compressor; if it is gone, b is lost, and the
 * store says why. */
static void
zipadd(struct wspx__spill *s, struct wspx__spill_buf *b, const char *p,
    size_t n)
{
	size_t k;
	int status;

	if (wspx__proc_write(b->zin, p, n, &k) == 0) {
		b->filed += n;
		return;
	}
	status = endzip(b);
	zipfail(s, WSPX_ZIP_COMPRESS, status != 0 ? status : -EPIPE);
	lose(s, b);
}

/* Add n bytes to b: in memory up to the spill threshold, then in a spill
 * file (in memory after all if no file can be made or written, within
 * the bound; past it, b is lost). */
int
wspx__spill_add(struct wspx__spill *s, struct wspx__spill_buf *b,
    const char *p, size_t n)
{
	size_t k;
	int rc;

	if (n == 0 || b->lost)
		return 0;
	if (b->fd < 0 && !b->nospill && b->len + n > s->threshold &&
	    (rc = startfile(s, b)) != 0)
		spillfailed(s, b, rc);
	if (b->zin >= 0) {
		zipadd(s, b, p, n);
		return 0;
	}
	if (b->fd >= 0) {
		rc = wspx__proc_write(b->fd, p, n, &k);
		b->filed += k;
		if (rc == 0)
			return 0;
		if ((rc = unspill(s, b, rc)) != 0 || b->lost)
			return rc;
		p += k;
		n -= k;
	}
	if (b->nospill && !chargepast(s, b, n)) {
		lose(s, b);
		return 0;
	}
	if (wspx__spill_reserve(s, b, b->len + n) != 0)
		return -ENOMEM;
	memcpy(b->mem + b->len, p, n);
	b->len += n;
	return 0;
}

int
wspx__spill_rd_open(struct wspx__spill *s, struct wspx__spill_buf *b,
    struct wspx__spill_rd *rd)
{
	int p[2], rc;

	rd->fd = b->fd;
	rd->pid = 0;
	rd->got = 0;
	if (b->fd < 0 || s->zip == NULL)
		return 0;
	if ((rc = endzip(b)) != 0) {
		zipfail(s, WSPX_ZIP_COMPRESS, rc);
		return -EIO;
	}
	if (lseek(b->fd, 0, SEEK_SET) < 0 || wspx__proc_pipe(p) != 0)
		return -errno;
	rc = wspx__proc_sh(s->unzip, b->fd, p[1], &rd->pid);
	close(p[1]);
	if (rc != 0) {
		close(p[0]);
		rd->pid = 0;
		zipfail(s, WSPX_ZIP_DECOMPRESS, rc);
		return -EIO;
	}
	rd->fd = p[0];
	return 0;
}

ssize_t
wspx__spill_rd_read(struct wspx__spill_buf *b, struct wspx__spill_rd *rd,
    char *p, size_t n)
{
	ssize_t r;

	if (rd->fd < 0 || (rd->pid == 0 && rd->got >= b->filed))
		return 0;
	if (rd->pid == 0 && n > b->filed - rd->got)
		n = (size_t)(b->filed - rd->got);
	do
		r = rd->pid != 0 ? read(rd->fd, p, n) : pread(rd->fd, p, n,
		    (off_t)rd->got);
	while (r < 0 && errno == EINTR);
	if (r < 0)
		return -errno;
	if (r == 0 && rd->pid == 0)
		return -EIO;	/* (the file is shorter than what was put) */
	rd->got += (uint64_t)r;
	return r;
}

int
wspx__spill_rd_close(struct wspx__spill *s, struct wspx__spill_buf *b,
    struct wspx__spill_rd *rd, bool whole)
{
	int status = 0, rc;

	if (rd->pid == 0)
		return 0;
	close(rd->fd);	/* (if it has more, it ends on SIGPIPE) */
	if ((rc = wspx__proc_reap(rd->pid, &status)) != 0)
		status = rc;
	rd->pid = 0;
	rd->fd = -1;
	if (whole && status == 0 && rd->got != b->filed)
		status = -EBADMSG;
	if (!whole || status == 0)
		return 0;
	zipfail(s, WSPX_ZIP_DECOMPRESS, status);
	return -EIO;
}

bool
wspx__spill_over(struct wspx__spill *s)
{
	/* relaxed: see lose() */
	return atomic_load_explicit(&s->over, memory_order_relaxed);
}

int
wspx__spill_error(struct wspx__spill *s)
{
	/* relaxed: see spillfailed(). */
	return atomic_load_explicit(&s->err, memory_order_relaxed);
}
