/*
 * Cuts in a regular file (see filecuts.h).  The rules are blocks.c's and
 * GNU parallel's; what differs is how the data is looked at: with pread()
 * into a small buffer, backwards from the end of --block bytes for the
 * last cut before it, forwards from --block bytes on for --pipepart's
 * first cut after it.  Each read overlaps the one before by a
 * separator's length less one, so that a separator across the two is
 * seen.  A block then costs a read or two, whatever its size.
 */
#include "filecuts.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "records.h"
#include "util/buf.h"
#include "util/util.h"

/* Bytes read at a time to look for a cut; GNU parallel reads --pipepart's
 * in 128 KiB steps, which --regexp's result depends on. */
#define SCAN		(64 * 1024)
#define PARTSCAN	(128 * 1024)

void
filecuts_init(struct filecuts *fc, const struct records *rs, int fd,
    const char *name, uint64_t pos, uint64_t size)
{
	memset(fc, 0, sizeof(*fc));
	fc->rs = rs;
	fc->fd = fd;
	fc->name = name;
	fc->pos = pos;
	fc->size = size > pos ? size : pos;
	fc->scratch = xmalloc(SCAN + rs->seplen + 1);
}

void
filecuts_fini(struct filecuts *fc)
{
	free(fc->scratch);
}

/* pread() all of n bytes at off, or fewer at the file's end. */
static size_t
readat(struct filecuts *fc, char *p, size_t n, uint64_t off)
{
	size_t done = 0;
	ssize_t got;

	while (done < n) {
		got = pread(fc->fd, p + done, n - done, (off_t)(off + done));
		if (got == 0 || (got < 0 && errno != EINTR)) {
			if (got < 0 && !fc->failed) {
				warn("%s:", fc->name);
				fc->failed = true;
			}
			break;
		}
		done += got > 0 ? (size_t)got : 0;
	}
	return done;
}

char *
filecuts_header(struct filecuts *fc, size_t *len)
{
	struct buf acc = { NULL, 0, 0 };
	size_t n = 1;
	char *hdr;
	bool found;

	/* (n: what the last read got; none, the file's end) */
	while (!(found = records_header(fc->rs, acc.s != NULL ? acc.s : "",
	    acc.len, n == 0, len)) && n > 0 && acc.len <= RECORDS_HEADERMAX) {
		n = readat(fc, fc->scratch, SCAN, fc->pos + acc.len);
		bufadd(&acc, fc->scratch, n);
	}
	if (!found)	/* (GNU parallel would make all of it one block) */
		*len = 0;
	hdr = xmalloc(*len + 1);
	if (*len > 0)
		memcpy(hdr, acc.s, *len);
	fc->pos += *len;
	free(acc.s);
	return hdr;
}

/* The last cut in [pos, pos + w), reading backwards a SCAN at a time. */
static bool
lastcut(struct filecuts *fc, uint64_t w, uint64_t *cut)
{
	uint64_t end = fc->pos + w, hi = end, lo, top;
	size_t over = fc->rs->seplen > 0 ? fc->rs->seplen - 1 : 0, n, c;

	while (hi > fc->pos) {
		lo = hi - (hi - fc->pos < SCAN ? hi - fc->pos : SCAN);
		top = hi + over < end ? hi + over : end;
		n = readat(fc, fc->scratch, (size_t)(top - lo), lo);
		fc->scratch[n] = '\0';
		if (records_last(fc->rs, fc->scratch, n, lo == fc->pos ? 1 : 0,
		    &c)) {
			*cut = lo + c - fc->pos;
			return true;
		}
		hi = lo;
	}
	return false;
}

/* Whether the file grew since its size was taken (stdin may be a file
 * still being written). */
static void
resize(struct filecuts *fc)
{
	off_t end = lseek(fc->fd, 0, SEEK_END);

	if (end > 0 && (uint64_t)end > fc->size)
		fc->size = (uint64_t)end;
}

uint64_t
filecuts_block(struct filecuts *fc, uint64_t bs, uint64_t *off)
{
	uint64_t w = bs, cut;

	for (;;) {
		if (fc->size - fc->pos < w)
			resize(fc);
		if (fc->size - fc->pos < w) {	/* the rest */
			cut = fc->size - fc->pos;
			break;
		}
		if (fc->rs->seplen == 0 || w == RECORDS_MAXBLOCK) {
			cut = w;
			break;
		}
		if (lastcut(fc, w, &cut))
			break;
		w = records_grow(w);
	}
	*off = fc->pos;
	fc->pos += cut;
	return cut;
}

/* Plain strings: the first cut at or after from, reading forwards a
 * SCAN at a time. */
static bool
firstcut(struct filecuts *fc, uint64_t from, uint64_t *cut)
{
	size_t over = fc->rs->seplen > 0 ? fc->rs->seplen - 1 : 0, keep = 0;
	size_t n, c;
	uint64_t lo = from;

	for (;;) {
		n = keep + readat(fc, fc->scratch + keep, SCAN, lo + keep);
		fc->scratch[n] = '\0';
		if (n == keep)
			return false;
		if (records_split(fc->rs, fc->scratch, n, &c)) {
			*cut = lo + c;
			return true;
		}
		keep = over < n ? over : n;
		memmove(fc->scratch, fc->scratch + n - keep, keep);
		lo += n - keep;
	}
}

/* --regexp, as GNU parallel finds it: the last cut in the first
 * PARTSCANs from from that hold one. */
static bool
lastinscans(struct filecuts *fc, uint64_t from, uint64_t *cut)
{
	char *acc = NULL;
	size_t len = 0, n, c;
	bool found = false;

	for (;;) {
		acc = xrealloc(acc, len + PARTSCAN + 1);
		if ((n = readat(fc, acc + len, PARTSCAN, from + len)) == 0)
			break;
		len += n;
		acc[len] = '\0';
		if ((found = records_split(fc->rs, acc, len, &c))) {
			*cut = from + c;
			break;
		}
	}
	free(acc);
	return found;
}

uint64_t
filecuts_part(struct filecuts *fc, uint64_t bs, uint64_t *off)
{
	uint64_t end = fc->size, from = fc->pos + bs;

	if (fc->pos >= fc->size)
		return 0;
	if (from < fc->size && !(fc->rs->regexp ? lastinscans(fc, from,
	    &end) : firstcut(fc, from, &end)))
		end = fc->size;
	*off = fc->pos;
	fc->pos = end;
	return end - *off;
}
