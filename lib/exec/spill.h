/*
 * What a job writes while it may not print yet, collected: in memory up
 * to a threshold per stream, then in an unlinked temporary file, so that
 * memory stays bounded whatever the jobs print, and back in memory after
 * all if no file can be made or written (a full disk), so that nothing is
 * lost, up to a bound for all buffers together (WSPX_SPILL_WAITCAP): past
 * it, a buffer drops what it holds and what comes after (it is lost), and
 * the store says it overflowed, for its owner to stop the run, as GNU
 * parallel does at once.  With --compress the bytes go into the file
 * through a compressor (a shell command, a child of wspx's own) and come
 * back through a decompressor; a filter that fails loses the buffer too,
 * and the store says why.  Large buffers are kept for reuse by the next
 * job.  A buffer is
 * written by one thread at a time (the job's reader, or the output's
 * holder of its lock); the store's spares are shared, under their lock.
 */
#ifndef WSPX_SPILL_H
#define WSPX_SPILL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define WSPX_SPILL_SPARES	4
/* The most bytes that buffers whose file failed hold in memory past
 * their threshold, all together. */
#define WSPX_SPILL_WAITCAP	((size_t)64 << 20)

/* The collected bytes of one stream: mem first, then the file. */
struct wspx__spill_buf {
	char *mem;		/* the first len bytes, cap allocated */
	size_t len, cap;
	int fd;			/* the spill file, or -1 */
	uint64_t filed;		/* bytes in the spill file, after mem's */
	bool nospill;		/* a spill file failed: memory only */
	size_t charged;		/* of len, the bytes counted in waiting */
	bool lost;		/* past the bound: dropped, from now on */
	int zin;		/* the compressor's stdin, or -1 */
	pid_t zpid;		/* the compressor, or 0 */
};

/* Reading back what a buffer's file holds. */
struct wspx__spill_rd {
	int fd;			/* the file, or the decompressor's stdout */
	pid_t pid;		/* the decompressor, or 0 */
	uint64_t got;		/* bytes read so far */
};

/* Which filter failed (wspx__spill_zipfailed()). */
enum wspx_zipper { WSPX_ZIP_NONE, WSPX_ZIP_COMPRESS, WSPX_ZIP_DECOMPRESS };

/* What the buffers of an output share. */
struct wspx__spill {
	size_t threshold;	/* bytes in memory before a file is used */
	const char *tmpdir;	/* where the files are made, borrowed */
	_Atomic(int) err;	/* the first spill file error, or 0 */
	_Atomic(size_t) waiting;	/* bytes charged, all buffers */
	_Atomic(bool) over;	/* a buffer was lost */
	const char *zip;	/* the compressor's shell command, borrowed;
				 * NULL: plain files */
	const char *unzip;	/* the decompressor's */
	_Atomic(int) zfail;	/* the first failed filter's wait status, or
				 * -errno (see wspx__spill_zipfailed()) */
	_Atomic(int) zwhich;	/* which one: enum wspx_zipper */
	pthread_mutex_t sparelock;	/* guards spare */
	struct {
		char *mem;
		size_t cap;
	} spare[WSPX_SPILL_SPARES];	/* free buffers, kept for reuse */
};

/* Set up s for buffers that keep threshold bytes in memory and spill
 * into files in tmpdir (borrowed). */
void wspx__spill_init(struct wspx__spill *s, size_t threshold,
    const char *tmpdir);

/* Free s's spares; every buffer must have been released. */
void wspx__spill_fini(struct wspx__spill *s);

/* An empty buffer. */
void wspx__spill_buf_init(struct wspx__spill_buf *b);

/* Add n bytes to b: in memory up to the threshold, then in a spill file,
 * then, if that failed, in memory up to the bound; past it, b is lost.
 * Returns 0 or -ENOMEM. */
int wspx__spill_add(struct wspx__spill *s, struct wspx__spill_buf *b,
    const char *p, size_t n);

/* Grow b's memory to hold at least need bytes.  Returns 0 or -ENOMEM. */
int wspx__spill_reserve(struct wspx__spill *s, struct wspx__spill_buf *b,
    size_t need);

/* Empty b, keeping its memory (its file is closed). */
void wspx__spill_forget(struct wspx__spill *s, struct wspx__spill_buf *b);

/* Empty b and give its memory back: kept as a spare if large. */
void wspx__spill_release(struct wspx__spill *s, struct wspx__spill_buf *b);

/* Start reading back what b holds in its file (after its memory), with
 * the decompressor if the store compresses.  Returns 0, or -EIO if a
 * filter failed (said by wspx__spill_zipfailed()), or -errno. */
int wspx__spill_rd_open(struct wspx__spill *s, struct wspx__spill_buf *b,
    struct wspx__spill_rd *rd);

/* Read up to n bytes of b's file into p.  Returns how many, 0 at its
 * end, or -errno. */
ssize_t wspx__spill_rd_read(struct wspx__spill_buf *b,
    struct wspx__spill_rd *rd, char *p, size_t n);

/* Stop reading; whole: all of it was read, and the decompressor must
 * have given back what was compressed.  Returns 0, or -EIO if it failed
 * (said by wspx__spill_zipfailed()). */
int wspx__spill_rd_close(struct wspx__spill *s, struct wspx__spill_buf *b,
    struct wspx__spill_rd *rd, bool whole);

/* Which filter failed first, or WSPX_ZIP_NONE; *why: its wait status,
 * or -EPIPE (the compressor stopped reading), or -EBADMSG (the
 * decompressor gave back another number of bytes), or the -errno that
 * kept it from starting.  Read once the buffers' writers have stopped,
 * or as a hint. */
enum wspx_zipper wspx__spill_zipfailed(struct wspx__spill *s, int *why);

/* The first error a spill file met (-errno), or 0.  Read once the
 * buffers' writers have stopped. */
int wspx__spill_error(struct wspx__spill *s);

/* Whether a buffer was lost: its output waited in memory past
 * WSPX_SPILL_WAITCAP.  Any thread. */
bool wspx__spill_over(struct wspx__spill *s);

#endif /* WSPX_SPILL_H */
