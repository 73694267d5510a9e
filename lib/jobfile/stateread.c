/*
 * Reading the state file (see statefile.c): its header, its job records
 * and its stat cache's records, a line at a time through one buffer that
 * is refilled in chunks and grows only for a line longer than it.  A file
 * of 400 KB then costs a buffer of 64 KB, not one of its size plus a copy
 * of every record: where a page touched for the first time is dear (a
 * virtual machine's page faults can cost 15 us each), that was most of a
 * no-op build's time spent on the state.
 *
 * The parts of each job's record are what --explain compares; a run that
 * does not explain never needs them, and a rewrite (the compaction) reads
 * the file again with them.  So the first read keeps only each record's
 * digest, and the parts are read once, when --explain first asks for
 * them, from the records whose digest is the one loaded.
 */
#include "uptodate.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/types.h>
#include <unistd.h>

#include "os/proc.h"
#include "state_int.h"

/* The first size of the buffer, and the largest file read. */
#define LINES_CHUNK ((size_t)64 << 10)
#define STATE_MAX ((size_t)256 << 20)

/* A file read a line at a time from offset 0 with pread(2). */
struct lines {
	int fd;
	char *buf;		/* buf[off..len) read, not yet a line */
	size_t cap, len, off;
	off_t at;		/* the offset in the file of buf[len] */
	off_t whole;		/* of the end of the last whole line */
	bool eof;
};

/* Read into the free end of the buffer until it is full or the file
 * ends.  0, -EFBIG or -errno. */
static int
fill(struct lines *r)
{
	ssize_t n;

	while (!r->eof && r->len < r->cap) {
		if ((n = pread(r->fd, r->buf + r->len, r->cap - r->len,
		    r->at)) < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		r->eof = n == 0;
		r->len += (size_t)n;
		r->at += n;
		if ((size_t)r->at >= STATE_MAX)
			return -EFBIG;
	}
	return 0;
}

/* The next line, its newline replaced by a NUL, into *s and *n: 1; or 0
 * at the end of the file, *n then the length of a last line without its
 * newline (0 if none); or -ENOMEM, -EFBIG or -errno. */
static int
nextline(struct lines *r, char **s, size_t *n)
{
	char *nl, *p;
	int rc;

	for (;;) {
		*s = r->buf + r->off;
		if ((nl = memchr(*s, '\n', r->len - r->off)) != NULL) {
			*nl = '\0';
			*n = (size_t)(nl - *s);
			r->off += *n + 1;
			r->whole += (off_t)*n + 1;
			return 1;
		}
		if (r->eof) {
			*n = r->len - r->off;
			return 0;
		}
		/* (the line so far to the front, then more of it) */
		memmove(r->buf, *s, r->len -= r->off);
		r->off = 0;
		if (r->len == r->cap) {
			if ((p = realloc(r->buf, r->cap * 2 + 1)) == NULL)
				return -ENOMEM;
			r->buf = p;
			r->cap *= 2;
		}
		if ((rc = fill(r)) != 0)
			return rc;
	}
}

/* Start reading fd.  0 or -ENOMEM. */
static int
startlines(struct lines *r, int fd)
{
	*r = (struct lines){ .fd = fd, .cap = LINES_CHUNK };
	/* (one byte more, for the NUL of a last line without its newline) */
	return (r->buf = malloc(r->cap + 1)) == NULL ? -ENOMEM : 0;
}

/* Empty the file and write the header.  0 or -errno. */
static int
restart(struct wspx__state *st)
{
	if (ftruncate(st->fd, 0) != 0)
		return -errno;
	return wspx__proc_writeall(st->fd, WSPX_STATE_HEADER,
	    sizeof(WSPX_STATE_HEADER) - 1);
}

/* Check the first line of the file: 1 a header of this format, 0 a file
 * to restart (empty, its header cut off while it was created, or of
 * format 1 or 2, *older then set: their job digests are of another kind,
 * none would match), or -EINVAL (not a state file), -ENOMEM or -errno. */
static int
header(struct lines *r, bool *older)
{
	static const char older1[] = "wspx-state 1", older2[] = "wspx-state 2";
	size_t hl = sizeof(WSPX_STATE_HEADER) - 2, n;
	char *s;
	int rc;

	if ((rc = nextline(r, &s, &n)) < 0)
		return rc;
	/* (a header cut off: of this format or an older one, the file was
	 * being made and holds nothing) */
	if (rc == 0)
		return n <= hl && (memcmp(s, WSPX_STATE_HEADER, n) == 0 ||
		    memcmp(s, older1, n) == 0 || memcmp(s, older2, n) == 0) ?
		    0 : -EINVAL;
	if (n == hl && memcmp(s, WSPX_STATE_HEADER, hl) == 0)
		return 1;
	if (n == hl && (memcmp(s, older1, hl) == 0 ||
	    memcmp(s, older2, hl) == 0)) {
		*older = true;
		return 0;
	}
	return -EINVAL;
}

/* Parse one job line s[0..len) (NUL-terminated) into name (room for
 * len + 1), d and, if parts, *parts (what follows the name's tab,
 * malloc'd, or NULL; *nomem set if it could not be).  false if it is not
 * a record. */
static bool
parseline(const char *s, size_t len, char *name, unsigned char d[32],
    char **parts, bool *nomem)
{
	const char *tab;
	size_t nl;

	if (parts != NULL)
		*parts = NULL;
	if (len < 66 || s[64] != '\t' || !wspx__statefile_unhex(s, d, 32))
		return false;
	tab = memchr(s + 65, '\t', len - 65);
	nl = tab != NULL ? (size_t)(tab - s) - 65 : len - 65;
	if (!wspx__statefile_unescape(s + 65, nl, name))
		return false;
	if (parts != NULL && tab != NULL && (*parts = strdup(tab + 1)) == NULL)
		*nomem = true;
	return true;
}

/* Load one line of the file (not the header).  Lines that are not
 * records make the file dirty, for the rewrite to drop them.  0 or
 * -ENOMEM. */
static int
loadline(struct wspx__state *st, const char *s, size_t n, char *name,
    bool withparts)
{
	unsigned char d[32];
	bool nomem = false;
	char *parts = NULL;

	if (*s == '@') {
		if (!wspx__filecache_parse(st, s, n, &nomem))
			st->dirty = true;
	} else if (parseline(s, n, name, d, withparts ? &parts : NULL,
	    &nomem)) {
		if (!nomem)
			return wspx__statefile_put(st, name, d, parts);
	} else
		st->dirty = true;
	return nomem ? -ENOMEM : 0;
}

/* What is done with one line (not the header) of the file: s[0..n),
 * NUL-terminated, name a buffer with room for it.  0 or -ENOMEM. */
typedef int linefn(struct wspx__state *st, const char *s, size_t n,
    char *name, bool withparts);

/* fn on each line after the header, until it fails; *cut the length of a
 * last line without its newline (0: none).  0, -ENOMEM, -EFBIG or
 * -errno. */
static int
eachline(struct wspx__state *st, struct lines *r, linefn *fn,
    bool withparts, size_t *cut)
{
	char *s, *name = NULL;
	size_t n = 0, room = 0;
	int rc;

	while ((rc = nextline(r, &s, &n)) == 1) {
		if (n + 1 > room) {
			free(name);
			if ((name = malloc(room = r->cap + 1)) == NULL) {
				rc = -ENOMEM;
				break;
			}
		}
		if ((rc = fn(st, s, n, name, withparts)) != 0)
			break;
	}
	free(name);
	*cut = rc == 0 ? n : 0;
	return rc;
}

/* Load the lines after the header; a cut-off last line is cut away, so
 * that the next record starts a line (ended with a newline, it could read
 * as a record of a name cut short); the lock is held: no record is being
 * appended.  0, -ENOMEM, -EFBIG or -errno. */
static int
loadlines(struct wspx__state *st, struct lines *r, bool withparts)
{
	size_t cut;
	int rc;

	if ((rc = eachline(st, r, loadline, withparts, &cut)) != 0 ||
	    cut == 0)
		return rc;
	st->dirty = true;
	return ftruncate(st->fd, r->whole) == 0 ? 0 : -errno;
}

int
wspx__stateread_load(struct wspx__state *st, bool withparts)
{
	struct lines r;
	int rc;

	if ((rc = startlines(&r, st->fd)) == 0 &&
	    (rc = header(&r, &st->older)) >= 0)
		rc = rc == 0 ? restart(st) : loadlines(st, &r, withparts);
	free(r.buf);
	return rc;
}

/* Take the parts of the record s[0..n) if its job's entry has none and
 * the same digest.  0 or -ENOMEM. */
static int
partsline(struct wspx__state *st, const char *s, size_t n, char *name,
    bool withparts)
{
	unsigned char d[32];
	const char *tab;
	struct entry *e;

	(void)withparts;
	if (*s == '@' || !parseline(s, n, name, d, NULL, &(bool){ false }) ||
	    (e = wspx__statefile_find(st, name)) == NULL || e->mine ||
	    e->parts != NULL || memcmp(e->digest, d, 32) != 0 ||
	    (tab = memchr(s + 65, '\t', n - 65)) == NULL)
		return 0;
	return (e->parts = strdup(tab + 1)) == NULL ? -ENOMEM : 0;
}

int
wspx__stateread_parts(struct wspx__state *st)
{
	struct lines r;
	size_t cut;
	bool older;
	int rc;

	if (st->partsread)
		return 0;
	if ((rc = startlines(&r, st->fd)) != 0)
		return rc;
	if ((rc = wspx__statefile_lock(st->fd, LOCK_SH)) == 0) {
		if ((rc = header(&r, &older)) == 1)
			rc = eachline(st, &r, partsline, false, &cut);
		(void)wspx__statefile_lock(st->fd, LOCK_UN);
	}
	free(r.buf);
	/* (once, whatever came of it, but for memory: a file grown past
	 * the limit or replaced since is not read again for each job) */
	st->partsread = rc != -ENOMEM;
	return rc < 0 ? rc : 0;
}
