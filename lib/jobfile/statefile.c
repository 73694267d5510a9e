/*
 * The up-to-date state and its file (see uptodate.h): the jobs' records,
 * kept in a hash table for graphs of 100,000 jobs, and the stat cache's
 * records (filecache.c).  While jobs run, each job's record, with the
 * files hashed since the last one, is appended with one write(2) to an
 * O_APPEND descriptor: records of several threads never interleave, and
 * a run killed midway leaves whole lines and at most one cut-off last
 * line, which the next open ignores and cuts away.
 *
 * Two runs of one job file may share the state file: each holds it open
 * for appending and takes flock(2) around each access (reading it at the
 * start, each append, the compaction at the end).  The compaction re-reads
 * the file under the lock, so that the records the other run appended
 * are kept, and rewrites it in place (truncated, then written), since a
 * file renamed over it would leave the other run appending to a file no
 * longer there.  A crash during the rewrite can lose records: those jobs
 * then run again, never the reverse.  A file record is true on its own
 * (a stat and the content it had), so whose wins does not matter.
 */
#include "uptodate.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "os/proc.h"
#include "os/thread.h"
#include "state_int.h"
#include "wspx.h"

static const char digits[] = "0123456789abcdef";
/* The bytes of a name that are escaped, and their escapes after '\'. */
static const char raw[] = "\\\t\n\r", esc[] = "\\tnr";

/* The slot of name: the one holding it, or the empty one ending its
 * probe sequence.  The hash is FNV-1a: short names, and no adversary. */
static size_t
findslot(const struct wspx__state *st, const char *name)
{
	uint64_t h = 14695981039346656037u;
	const char *s;
	size_t i;

	for (s = name; *s != '\0'; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211u;
	for (i = (size_t)h & (st->nslots - 1); st->slots[i] != 0 &&
	    strcmp(st->v[st->slots[i] - 1].name, name) != 0;
	    i = (i + 1) & (st->nslots - 1))
		continue;
	return i;
}

/* Double the table and rehash.  0 or -ENOMEM. */
static int
growslots(struct wspx__state *st)
{
	size_t ns = st->nslots != 0 ? st->nslots * 2 : 1024, i;
	uint32_t *old = st->slots;

	if ((st->slots = calloc(ns, sizeof(*st->slots))) == NULL) {
		st->slots = old;
		return -ENOMEM;
	}
	st->nslots = ns;
	for (i = 0; i < st->n; i++)
		st->slots[findslot(st, st->v[i].name)] = (uint32_t)(i + 1);
	free(old);
	return 0;
}

struct entry *
wspx__statefile_find(struct wspx__state *st, const char *name)
{
	size_t i = findslot(st, name);

	return st->slots[i] != 0 ? &st->v[st->slots[i] - 1] : NULL;
}

int
wspx__statefile_put(struct wspx__state *st, const char *name,
    const unsigned char d[32], char *parts)
{
	struct entry *v, *e;
	size_t i;

	if ((st->n + 1) * 2 > st->nslots && growslots(st) != 0)
		goto nomem;
	if (st->slots[i = findslot(st, name)] != 0) {
		e = &st->v[st->slots[i] - 1];
		free(e->parts);
		e->parts = parts;
		memcpy(e->digest, d, 32);
		st->dirty = true;
		return 0;
	}
	if (st->n == st->cap) {
		if (st->n >= UINT32_MAX - 1 || (v = realloc(st->v,
		    (st->cap != 0 ? st->cap * 2 : 256) * sizeof(*v))) == NULL)
			goto nomem;
		st->v = v;
		st->cap = st->cap != 0 ? st->cap * 2 : 256;
	}
	e = &st->v[st->n];
	if ((e->name = strdup(name)) == NULL)
		goto nomem;
	memcpy(e->digest, d, 32);
	e->parts = parts;
	e->mine = false;
	st->slots[i] = (uint32_t)++st->n;
	return 0;
nomem:
	free(parts);
	return -ENOMEM;
}

bool
wspx__statefile_unescape(const char *s, size_t len, char *out)
{
	const char *end = s + len, *e;
	char *o = out;

	for (; s < end; s++) {
		if (*s == '\t' || *s == '\0' || *s == '\r')
			return false;
		if (*s != '\\')
			*o++ = *s;
		else if (++s < end && *s != '\0' &&
		    (e = strchr(esc, *s)) != NULL)
			*o++ = raw[e - esc];
		else
			return false;
	}
	*o = '\0';
	return o > out;
}

char *
wspx__statefile_escape(char *p, const char *s)
{
	const char *e;

	for (; *s != '\0'; s++) {
		if ((e = strchr(raw, *s)) != NULL)
			*p++ = '\\';
		*p++ = e != NULL ? esc[e - raw] : *s;
	}
	return p;
}

char *
wspx__statefile_hex(char *p, const unsigned char *d, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		*p++ = digits[d[i] >> 4];
		*p++ = digits[d[i] & 15];
	}
	return p;
}

bool
wspx__statefile_unhex(const char *s, unsigned char *d, int n)
{
	const char *hi, *lo;
	int i;

	for (i = 0; i < n; i++) {
		/* strchr() finds the NUL too: a NUL is no digit. */
		if ((hi = strchr(digits, s[2 * i])) == NULL || *hi == '\0' ||
		    (lo = strchr(digits, s[2 * i + 1])) == NULL || *lo == '\0')
			return false;
		d[i] = (unsigned char)((hi - digits) << 4 | (lo - digits));
	}
	return true;
}

/* Free st and what it holds; the file is left as it is. */
static void
freestate(struct wspx__state *st)
{
	if (st->fd >= 0)
		close(st->fd);
	while (st->n > 0) {
		st->n--;
		free(st->v[st->n].name);
		free(st->v[st->n].parts);
	}
	while (st->nfiles > 0)
		free(st->files[--st->nfiles].key);
	wspx__strtab_fini(&st->filetab);
	wspx__filecache_fini(st);
	WSPX_MUST(pthread_cond_destroy(&st->looked));
	WSPX_MUST(pthread_mutex_destroy(&st->lock));
	free(st->files);
	free(st->v);
	free(st->slots);
	free(st->path);
	free(st);
}

/* A new, empty state.  NULL if out of memory. */
static struct wspx__state *
newstate(void)
{
	struct wspx__state *st;

	if ((st = calloc(1, sizeof(*st))) == NULL)
		return NULL;
	WSPX_MUST(pthread_mutex_init(&st->lock, NULL));
	WSPX_MUST(pthread_cond_init(&st->looked, NULL));
	st->fd = -1;
	/* (epoch 0 is no look at all) */
	atomic_init(&st->epoch, 1);
	if (growslots(st) != 0) {
		freestate(st);
		return NULL;
	}
	return st;
}

int
wspx__statefile_lock(int fd, int op)
{
	int r;

	while ((r = flock(fd, op)) != 0 && errno == EINTR)
		continue;
	return r == 0 ? 0 : -errno;
}

/* Open path as a state file: a regular file, not through a symbolic
 * link, without waiting (a FIFO would wait for a writer).  The fd, or
 * -errno. */
static int
openstate(const char *path)
{
	struct stat sb;
	int fd, e;

	fd = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW |
	    O_NONBLOCK, 0666);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &sb) != 0)
		e = errno;
	else if (!S_ISREG(sb.st_mode))
		e = ENXIO;
	else if (fcntl(fd, F_SETFL, O_APPEND) != 0)
		e = errno;
	else
		return fd;
	close(fd);
	return -e;
}

int
wspx__statefile_open(struct wspx__state **out, const char *path)
{
	struct wspx__state *st;
	int rc;

	if ((st = newstate()) == NULL)
		return -ENOMEM;
	if ((st->fd = openstate(path)) < 0)
		rc = st->fd;
	else if ((st->path = strdup(path)) == NULL)
		rc = -ENOMEM;
	else if ((rc = wspx__statefile_lock(st->fd, LOCK_EX)) == 0) {
		rc = wspx__stateread_load(st, false);
		(void)wspx__statefile_lock(st->fd, LOCK_UN);
	}
	if (rc != 0) {
		freestate(st);
		return rc;
	}
	*out = st;
	return 0;
}

bool
wspx__statefile_older(const struct wspx__state *st)
{
	return st->older;
}

bool
wspx__statefile_lookup(struct wspx__state *st, const char *job,
    unsigned char digest[32])
{
	size_t i;
	bool found;

	WSPX_MUST(pthread_mutex_lock(&st->lock));
	i = findslot(st, job);
	if ((found = st->slots[i] != 0))
		memcpy(digest, st->v[st->slots[i] - 1].digest, 32);
	WSPX_MUST(pthread_mutex_unlock(&st->lock));
	return found;
}

/* A copy of the parts recorded for job, or NULL (none, no record, or out
 * of memory); *found whether it has a record. */
char *
wspx__statefile_parts(struct wspx__state *st, const char *job, bool *found)
{
	const struct entry *e;
	char *parts = NULL;

	WSPX_MUST(pthread_mutex_lock(&st->lock));
	/* (the records read at the start hold no parts until they are asked
	 * for: see stateread.c) */
	if ((e = wspx__statefile_find(st, job)) != NULL && !e->mine &&
	    e->parts == NULL)
		(void)wspx__stateread_parts(st);
	if ((*found = e != NULL) && e->parts != NULL)
		parts = strdup(e->parts);
	WSPX_MUST(pthread_mutex_unlock(&st->lock));
	return parts;
}

/* The parts of a job as written in its record, or NULL.  malloc'd. */
static char *
formatparts(const struct wspx__parts *parts)
{
	size_t size = 1, i;
	char *s, *p;

	if (parts == NULL || parts->n == 0)
		return NULL;
	for (i = 0; i < parts->n; i++)
		size += 19 + 2 * strlen(parts->v[i].key);
	if ((p = s = malloc(size)) == NULL)
		return NULL;
	for (i = 0; i < parts->n; i++) {
		if (i > 0)
			*p++ = '\t';
		p = wspx__statefile_hex(p, parts->v[i].sum, 8);
		*p++ = parts->v[i].kind;
		p = wspx__statefile_escape(p, parts->v[i].key);
	}
	*p = '\0';
	return s;
}

/* Format the record of e into line (room for linemax(e)).  Returns its
 * length, newline included. */
static size_t
formatline(char *line, const struct entry *e)
{
	char *p = wspx__statefile_hex(line, e->digest, 32);

	*p++ = '\t';
	p = wspx__statefile_escape(p, e->name);
	if (e->parts != NULL) {
		*p++ = '\t';
		memcpy(p, e->parts, strlen(e->parts));
		p += strlen(e->parts);
	}
	*p++ = '\n';
	return (size_t)(p - line);
}

static size_t
linemax(const struct entry *e)
{
	return 2 * strlen(e->name) + 68 + (e->parts != NULL ?
	    strlen(e->parts) : 0);
}

/* Append the records of the files hashed since the last append to b
 * (which has room for them: see unsavedmax()), the lock held. */
static size_t
unsaved(struct wspx__state *st, char *b)
{
	size_t i, len = 0;

	for (i = 0; i < st->nfiles; i++)
		if (st->files[i].unsaved && st->files[i].trusted) {
			len += wspx__filecache_format(b + len, &st->files[i]);
			st->files[i].unsaved = false;
		}
	return len;
}

static size_t
unsavedmax(const struct wspx__state *st)
{
	size_t i, size = 0;

	for (i = 0; i < st->nfiles; i++)
		if (st->files[i].unsaved && st->files[i].trusted)
			size += wspx__filecache_max(&st->files[i]);
	return size;
}

/* Append line[0..len) to the file, the locks held; on a failure, append
 * no more. */
static void
append(struct wspx__state *st, const char *line, size_t len)
{
	ssize_t r;

	if (st->err != 0 ||
	    (st->err = wspx__statefile_lock(st->fd, LOCK_EX)) != 0)
		return;
	while ((r = write(st->fd, line, len)) < 0 && errno == EINTR)
		continue;
	/* A short write leaves a cut-off line that the next record would
	 * be glued to: append no more; close() saves all. */
	if (r < 0 || (size_t)r != len)
		st->err = r < 0 ? -errno : -EIO;
	(void)wspx__statefile_lock(st->fd, LOCK_UN);
}

int
wspx__statefile_record(struct wspx__state *st, const char *job,
    const unsigned char digest[32], const struct wspx__parts *parts)
{
	struct entry *e;
	size_t len;
	char *line, *text = formatparts(parts);
	int rc;

	if (*job == '\0' || (parts != NULL && parts->n > 0 && text == NULL)) {
		free(text);
		return *job == '\0' ? -EINVAL : -ENOMEM;
	}
	WSPX_MUST(pthread_mutex_lock(&st->lock));
	st->dirty = true;
	if ((rc = wspx__statefile_put(st, job, digest, text)) == 0) {
		e = &st->v[st->slots[findslot(st, job)] - 1];
		e->mine = true;
		if ((line = malloc(linemax(e) + unsavedmax(st))) == NULL)
			rc = -ENOMEM;
		else {
			len = unsaved(st, line);
			len += formatline(line + len, e);
			append(st, line, len);
			free(line);
		}
	}
	rc = rc != 0 ? rc : st->err;
	WSPX_MUST(pthread_mutex_unlock(&st->lock));
	return rc;
}

void
wspx__statefile_epoch(struct wspx__state *st)
{
	/* relaxed: see state_int.h */
	atomic_fetch_add_explicit(&st->epoch, 1, memory_order_relaxed);
}

/* Write the compacted records to fd, with one write(2) if it can. */
static int
writerecords(const struct wspx__state *st, int fd)
{
	size_t size = sizeof(WSPX_STATE_HEADER), len, i;
	char *buf;
	int rc;

	for (i = 0; i < st->n; i++)
		size += linemax(&st->v[i]);
	for (i = 0; i < st->nfiles; i++)
		size += wspx__filecache_max(&st->files[i]);
	if ((buf = malloc(size)) == NULL)
		return -ENOMEM;
	memcpy(buf, WSPX_STATE_HEADER, len = sizeof(WSPX_STATE_HEADER) - 1);
	for (i = 0; i < st->nfiles; i++)
		if (st->files[i].trusted)
			len += wspx__filecache_format(buf + len,
			    &st->files[i]);
	for (i = 0; i < st->n; i++)
		len += formatline(buf + len, &st->v[i]);
	rc = wspx__proc_writeall(fd, buf, len);
	free(buf);
	return rc;
}

/* Copy the trusted file records of st into now.  0 or -ENOMEM. */
static int
mergefiles(struct wspx__state *now, const struct wspx__state *st)
{
	const struct fentry *f;
	long k;
	size_t i;

	for (i = 0; i < st->nfiles; i++) {
		if (!(f = &st->files[i])->trusted)
			continue;
		if ((k = wspx__filecache_entry(now, f->key)) < 0)
			return (int)k;
		now->files[k].st = f->st;
		memcpy(now->files[k].sum, f->sum, 32);
		now->files[k].trusted = true;
	}
	return 0;
}

/* The records of the file as it is now (another run may have appended
 * to it), this run's files, and its jobs if its appends failed, into a
 * new state; the lock held.  NULL with *rc set on failure. */
static struct wspx__state *
merged(const struct wspx__state *st, int *rc)
{
	struct wspx__state *now;
	char *parts;
	size_t i;

	if ((now = newstate()) == NULL) {
		*rc = -ENOMEM;
		return NULL;
	}
	now->fd = st->fd;
	if ((*rc = wspx__stateread_load(now, true)) == 0)
		*rc = mergefiles(now, st);
	for (i = 0; *rc == 0 && st->err != 0 && i < st->n; i++) {
		if (!st->v[i].mine)
			continue;
		parts = st->v[i].parts != NULL ? strdup(st->v[i].parts) : NULL;
		*rc = st->v[i].parts != NULL && parts == NULL ? -ENOMEM :
		    wspx__statefile_put(now, st->v[i].name, st->v[i].digest,
		    parts);
	}
	now->fd = -1;
	if (*rc == 0)
		return now;
	freestate(now);
	return NULL;
}

/* Rewrite the file with one record per job, in place, under the lock:
 * the records of the file as it is now, merged with this run's. */
static int
compact(struct wspx__state *st)
{
	struct wspx__state *now;
	int rc;

	if ((rc = wspx__statefile_lock(st->fd, LOCK_EX)) != 0)
		return rc;
	if ((now = merged(st, &rc)) != NULL) {
		if (ftruncate(st->fd, 0) != 0)
			rc = -errno;
		else if ((rc = writerecords(now, st->fd)) == 0 &&
		    fsync(st->fd) != 0)
			rc = -errno;
		freestate(now);
	}
	(void)wspx__statefile_lock(st->fd, LOCK_UN);
	return rc;
}

int
wspx__statefile_close(struct wspx__state *st)
{
	int rc = 0;

	if (st == NULL)
		return 0;
	if (st->dirty || unsavedmax(st) > 0)
		rc = compact(st);
	freestate(st);
	return rc;
}
