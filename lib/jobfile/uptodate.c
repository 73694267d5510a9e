/*
 * The up-to-date check (see uptodate.h): the state file, kept in a hash
 * table for graphs of 100,000 jobs, and the digest of one job.  While jobs
 * run, each record is one line appended with one write(2) to an O_APPEND
 * descriptor: records of several threads never interleave, and a run
 * killed midway leaves whole lines and at most one cut-off last line, which
 * the next open ignores and cuts away.
 *
 * Two runs of one job file may share the state file: each holds it open
 * for appending and takes flock(2) around each access (reading it at the
 * start, each append, the compaction at the end).  The compaction re-reads
 * the file under the lock, so that the records the other run appended
 * are kept, and rewrites it in place (truncated, then written), since a
 * file renamed over it would leave the other run appending to a file no
 * longer there.  A crash during the rewrite can lose records: those jobs
 * then run again, never the reverse.
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

#include "base/sha256.h"
#include "glob.h"
#include "os/proc.h"
#include "os/thread.h"
#include "wspx.h"

static const char header[] = "wspx-state 1\n";
static const char digits[] = "0123456789abcdef";
/* The bytes of a name that are escaped, and their escapes after '\'. */
static const char raw[] = "\\\t\n\r", esc[] = "\\tnr";

/* The largest state file read: a million jobs with names of 200 bytes. */
#define STATE_MAX ((size_t)256 << 20)

/* The last record of one job. */
struct entry {
	char *name;			/* owned */
	unsigned char digest[32];
	bool mine;			/* recorded by this run */
};

struct wspx__state {
	pthread_mutex_t lock;	/* guards every field below */
	char *path;		/* the file, as given */
	int fd;			/* the file, to append to */
	int err;		/* an append failed: append no more */
	bool dirty;		/* the file differs from v[]: rewrite it */
	struct entry *v;	/* in the order jobs were first seen */
	size_t n, cap;
	uint32_t *slots;	/* open addressing: index in v + 1, 0 empty */
	size_t nslots;		/* a power of two, at least twice n */
};

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

/* Set name's digest (name copied), and mark the file dirty if name was
 * there already.  0 or -ENOMEM. */
static int
put(struct wspx__state *st, const char *name, const unsigned char d[32])
{
	struct entry *v;
	size_t i;

	if ((st->n + 1) * 2 > st->nslots && growslots(st) != 0)
		return -ENOMEM;
	if (st->slots[i = findslot(st, name)] != 0) {
		memcpy(st->v[st->slots[i] - 1].digest, d, 32);
		st->dirty = true;
		return 0;
	}
	if (st->n == st->cap) {
		if (st->n >= UINT32_MAX - 1 || (v = realloc(st->v,
		    (st->cap != 0 ? st->cap * 2 : 256) * sizeof(*v))) == NULL)
			return -ENOMEM;
		st->v = v;
		st->cap = st->cap != 0 ? st->cap * 2 : 256;
	}
	if ((st->v[st->n].name = strdup(name)) == NULL)
		return -ENOMEM;
	memcpy(st->v[st->n].digest, d, 32);
	st->slots[i] = (uint32_t)++st->n;
	return 0;
}

/* Decode the escaped name s[0..len) into out (room for len + 1).  false
 * if it is not a valid name: empty, a bad escape, a raw NUL, CR or tab.
 * The raw tab matters: it is how a record glued to a cut-off one is told
 * apart from a record. */
static bool
unescape(const char *s, size_t len, char *out)
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

/* Parse one line (without its newline) into name (room for len) and d.
 * false if it is not a record. */
static bool
parseline(const char *s, size_t len, char *name, unsigned char d[32])
{
	const char *hi, *lo;
	int i;

	if (len < 66 || s[64] != '\t')
		return false;
	for (i = 0; i < 32; i++) {
		/* strchr() finds the NUL too: a NUL is no digit. */
		if ((hi = strchr(digits, s[2 * i])) == NULL || *hi == '\0' ||
		    (lo = strchr(digits, s[2 * i + 1])) == NULL || *lo == '\0')
			return false;
		d[i] = (unsigned char)((hi - digits) << 4 | (lo - digits));
	}
	return unescape(s + 65, len - 65, name);
}

/* Load the records of buf[0..len), after the header.  Lines that are not
 * records make the file dirty, for the rewrite to drop them.  Sets *cut if
 * the last line lacks its newline.  0 or -ENOMEM. */
static int
load(struct wspx__state *st, const char *buf, size_t len, bool *cut)
{
	const char *p = buf, *end = buf + len, *nl;
	unsigned char d[32];
	char *name;
	int rc = 0;

	if ((name = malloc(len + 1)) == NULL)
		return -ENOMEM;
	while (rc == 0 && (nl = memchr(p, '\n', (size_t)(end - p))) != NULL) {
		if (parseline(p, (size_t)(nl - p), name, d))
			rc = put(st, name, d);
		else
			st->dirty = true;
		p = nl + 1;
	}
	if ((*cut = p < end))
		st->dirty = true;
	free(name);
	return rc;
}

/* Read all of fd into *buf (malloc'd, the caller's to free even on an
 * error) and *len.  0 or -errno. */
static int
readall(int fd, char **buf, size_t *len)
{
	size_t cap = 0;
	ssize_t r;
	char *p;

	*buf = NULL;
	for (*len = 0;; *len += (size_t)r) {
		if (*len >= STATE_MAX)
			return -EFBIG;
		if (*len == cap) {
			cap = cap != 0 ? cap * 2 : 65536;
			if ((p = realloc(*buf, cap)) == NULL)
				return -ENOMEM;
			*buf = p;
		}
		while ((r = read(fd, *buf + *len, cap - *len)) < 0 &&
		    errno == EINTR)
			continue;
		if (r <= 0)
			return r < 0 ? -errno : 0;
	}
}

/* Load the file buf[0..len) read from st->fd, and ready it for appends.
 * 0, -EINVAL (not a state file: untouched), -ENOMEM or -errno. */
static int
parse(struct wspx__state *st, const char *buf, size_t len)
{
	size_t hl = sizeof(header) - 1;
	bool cut;
	int rc;

	if (len == 0 || (len < hl && memcmp(buf, header, len) == 0)) {
		/* New, or a header cut off while the file was created. */
		if (len > 0 && ftruncate(st->fd, 0) != 0)
			return -errno;
		return wspx__proc_writeall(st->fd, header, hl);
	}
	if (len < hl || memcmp(buf, header, hl) != 0)
		return -EINVAL;
	if ((rc = load(st, buf + hl, len - hl, &cut)) != 0 || !cut)
		return rc;
	/* A cut-off last line goes, so that the next record starts a line
	 * (ended with a newline, it could read as a record of a name cut
	 * short).  The lock is held: no record is being appended. */
	while (buf[len - 1] != '\n')
		len--;
	return ftruncate(st->fd, (off_t)len) == 0 ? 0 : -errno;
}

/* Free st and what it holds; the file is left as it is. */
static void
freestate(struct wspx__state *st)
{
	if (st->fd >= 0)
		close(st->fd);
	while (st->n > 0)
		free(st->v[--st->n].name);
	WSPX_MUST(pthread_mutex_destroy(&st->lock));
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
	st->fd = -1;
	if (growslots(st) != 0) {
		freestate(st);
		return NULL;
	}
	return st;
}

/* flock(2) that waits through signals.  0 or -errno. */
static int
lockfile(int fd, int op)
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

/* Read st->fd from its start and load it (the lock held).  0, -EINVAL,
 * -EFBIG, -ENOMEM or -errno. */
static int
readstate(struct wspx__state *st)
{
	char *buf = NULL;
	size_t len;
	int rc;

	if (lseek(st->fd, 0, SEEK_SET) < 0)
		return -errno;
	if ((rc = readall(st->fd, &buf, &len)) == 0)
		rc = parse(st, buf, len);
	free(buf);
	return rc;
}

int
wspx__uptodate_open(struct wspx__state **out, const char *path)
{
	struct wspx__state *st;
	int rc;

	if ((st = newstate()) == NULL)
		return -ENOMEM;
	if ((st->fd = openstate(path)) < 0)
		rc = st->fd;
	else if ((st->path = strdup(path)) == NULL)
		rc = -ENOMEM;
	else if ((rc = lockfile(st->fd, LOCK_EX)) == 0) {
		rc = readstate(st);
		(void)lockfile(st->fd, LOCK_UN);
	}
	if (rc != 0) {
		freestate(st);
		return rc;
	}
	*out = st;
	return 0;
}

bool
wspx__uptodate_lookup(struct wspx__state *st, const char *job,
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

/* Format the record of name and d into line (room for 2 * strlen(name) +
 * 67 bytes).  Returns its length, newline included. */
static size_t
formatline(char *line, const char *name, const unsigned char d[32])
{
	const char *e;
	char *p = line;
	int i;

	for (i = 0; i < 32; i++) {
		*p++ = digits[d[i] >> 4];
		*p++ = digits[d[i] & 15];
	}
	*p++ = '\t';
	for (; *name != '\0'; name++) {
		if ((e = strchr(raw, *name)) != NULL)
			*p++ = '\\';
		*p++ = e != NULL ? esc[e - raw] : *name;
	}
	*p++ = '\n';
	return (size_t)(p - line);
}

int
wspx__uptodate_record(struct wspx__state *st, const char *job,
    const unsigned char digest[32])
{
	ssize_t r = 0;
	size_t len;
	char *line;
	int rc;

	if (*job == '\0')
		return -EINVAL;
	if ((line = malloc(2 * strlen(job) + 67)) == NULL)
		return -ENOMEM;
	len = formatline(line, job, digest);
	WSPX_MUST(pthread_mutex_lock(&st->lock));
	st->dirty = true;
	if ((rc = put(st, job, digest)) == 0)
		st->v[st->slots[findslot(st, job)] - 1].mine = true;
	if (rc == 0 && st->err == 0 && (st->err = lockfile(st->fd,
	    LOCK_EX)) == 0) {
		while ((r = write(st->fd, line, len)) < 0 && errno == EINTR)
			continue;
		/* A short write leaves a cut-off line that the next record
		 * would be glued to: append no more; close() saves all. */
		if (r < 0 || (size_t)r != len)
			st->err = r < 0 ? -errno : -EIO;
		(void)lockfile(st->fd, LOCK_UN);
	}
	rc = rc != 0 ? rc : st->err;
	WSPX_MUST(pthread_mutex_unlock(&st->lock));
	free(line);
	return rc;
}

/* Write the compacted records to fd, with one write(2) if it can. */
static int
writerecords(const struct wspx__state *st, int fd)
{
	size_t size = sizeof(header), len, i;
	char *buf;
	int rc;

	for (i = 0; i < st->n; i++)
		size += 2 * strlen(st->v[i].name) + 67;
	if ((buf = malloc(size)) == NULL)
		return -ENOMEM;
	memcpy(buf, header, len = sizeof(header) - 1);
	for (i = 0; i < st->n; i++)
		len += formatline(buf + len, st->v[i].name, st->v[i].digest);
	rc = wspx__proc_writeall(fd, buf, len);
	free(buf);
	return rc;
}

/* The records of the file as it is now (another run may have appended
 * to it), and this run's if its appends failed, into a new state; the
 * lock held.  NULL with *rc set on failure. */
static struct wspx__state *
merged(const struct wspx__state *st, int *rc)
{
	struct wspx__state *now;
	size_t i;

	if ((now = newstate()) == NULL) {
		*rc = -ENOMEM;
		return NULL;
	}
	now->fd = st->fd;
	*rc = readstate(now);
	for (i = 0; *rc == 0 && st->err != 0 && i < st->n; i++)
		if (st->v[i].mine)
			*rc = put(now, st->v[i].name, st->v[i].digest);
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

	if ((rc = lockfile(st->fd, LOCK_EX)) != 0)
		return rc;
	if ((now = merged(st, &rc)) != NULL) {
		if (ftruncate(st->fd, 0) != 0)
			rc = -errno;
		else if ((rc = writerecords(now, st->fd)) == 0 &&
		    fsync(st->fd) != 0)
			rc = -errno;
		freestate(now);
	}
	(void)lockfile(st->fd, LOCK_UN);
	return rc;
}

int
wspx__uptodate_close(struct wspx__state *st)
{
	int rc = 0;

	if (st == NULL)
		return 0;
	if (st->dirty)
		rc = compact(st);
	freestate(st);
	return rc;
}

/* One file of a job's digest. */
struct file {
	const char *path;	/* borrowed from wspx__glob()'s block */
	bool gen;		/* generated, not a source */
	int rc;			/* TOHASH; 0 hashed; -EISDIR; -errno */
	unsigned char sum[32];	/* its content's SHA-256 when rc is 0 */
};

#define TOHASH	1

struct files {
	struct file *v;
	size_t n, cap;
	int dirfd;
};

static int
addfile(struct files *fs, const char *path, bool gen, int rc)
{
	struct file *v;

	if (fs->n == fs->cap) {
		fs->cap = fs->cap != 0 ? fs->cap * 2 : 64;
		if ((v = realloc(fs->v, fs->cap * sizeof(*v))) == NULL)
			return -ENOMEM;
		fs->v = v;
	}
	fs->v[fs->n++] = (struct file){ .path = path, .gen = gen, .rc = rc };
	return 0;
}

/* Expand pats[0..np) into fs, keeping each pattern's block in blocks[].
 * A source must match; a generated file may be missing (rc -ENOENT).  On
 * an error *culprit is the pattern or path at fault. */
static int
expand(struct files *fs, const char *const *pats, size_t np, bool gen,
    char ***blocks, const char **culprit)
{
	size_t i, j, k;
	int rc;

	for (i = 0; i < np; i++) {
		rc = wspx__glob(fs->dirfd, pats[i], &blocks[i], &k);
		*culprit = rc == -ENOENT && k == 1 ? blocks[i][0] : pats[i];
		if (rc == -ENOENT && k == 1)	/* a literal, missing */
			rc = gen ? addfile(fs, blocks[i][0], gen, rc) : rc;
		else if (rc == 0 && k == 0 && !gen)
			rc = -ENOENT;
		else if (rc == 0 && k == 0)
			rc = addfile(fs, pats[i], gen, -ENOENT);
		else	/* matches, or an error and k is 0 */
			for (j = 0; rc == 0 && j < k; j++)
				rc = addfile(fs, blocks[i][j], gen, TOHASH);
		if (rc != 0)
			return rc;
	}
	*culprit = NULL;
	return 0;
}

/* Sources first, then by path; a missing entry after a found one. */
static int
cmpfile(const void *a, const void *b)
{
	const struct file *x = a, *y = b;
	int c = x->gen != y->gen ? x->gen - y->gen : strcmp(x->path, y->path);

	return c != 0 ? c : (x->rc < y->rc) - (x->rc > y->rc);
}

static void
sortfiles(struct files *fs)
{
	size_t i, k;

	if (fs->n == 0)
		return;
	qsort(fs->v, fs->n, sizeof(*fs->v), cmpfile);
	for (i = k = 1; i < fs->n; i++)
		if (fs->v[i].gen != fs->v[k - 1].gen ||
		    strcmp(fs->v[i].path, fs->v[k - 1].path) != 0)
			fs->v[k++] = fs->v[i];
	fs->n = k;
}

/* Hash the files of fs, halving the list down to one file per branch
 * (slices are copies of fs whose cap means nothing): a big file then holds
 * up one branch, and idle workers steal the others. */
static void
hashfiles(struct wspx_worker *w, void *arg)
{
	struct files *fs = arg, a, b;
	size_t i;

	if (w == NULL || fs->n <= 1) {
		for (i = 0; i < fs->n; i++)
			if (fs->v[i].rc == TOHASH)
				fs->v[i].rc = wspx__sha256_file(fs->dirfd,
				    fs->v[i].path, fs->v[i].sum);
		return;
	}
	a = b = *fs;
	a.n = fs->n / 2;
	b.v += a.n;
	b.n -= a.n;
	wspx_join(w, hashfiles, &a, hashfiles, &b);
}

/* Feed one file to c: a tag, its path with its NUL, and its content's
 * hash.  Lower-case tags are sources, upper-case generated files.  Sets
 * *culprit to a missing generated file, if none was set before. */
static int
feed(struct wspx__sha256 *c, const struct file *f, const char **culprit)
{
	char tag;

	if (f->rc == 0)
		tag = 'f';
	else if (f->rc == -EISDIR)
		tag = 'd';
	else if (f->gen && (f->rc == -ENOENT || f->rc == -ENOTDIR))
		tag = 'm';
	else {
		*culprit = f->path;
		return f->rc;
	}
	if (tag == 'm' && *culprit == NULL)
		*culprit = f->path;
	if (f->gen)
		tag = (char)(tag - 'a' + 'A');
	wspx__sha256_update(c, &tag, 1);
	wspx__sha256_update(c, f->path, strlen(f->path) + 1);
	if (f->rc == 0)
		wspx__sha256_update(c, f->sum, 32);
	return 0;
}

/* The digest of the command and the hashed files, in fs's order. */
static int
combine(const struct files *fs, const char *command, unsigned char out[32],
    const char **culprit)
{
	static const char version[] = "wspx-uptodate 2";
	struct wspx__sha256 c;
	size_t i;
	int rc = 0;

	/* Each string with its NUL, which no string holds, so that no
	 * command and list of files can be made to read as another. */
	wspx__sha256_init(&c);
	wspx__sha256_update(&c, version, sizeof(version));
	wspx__sha256_update(&c, command, strlen(command) + 1);
	for (i = 0; rc == 0 && i < fs->n; i++)
		rc = feed(&c, &fs->v[i], culprit);
	if (rc == 0)
		wspx__sha256_final(&c, out);
	return rc;
}

int
wspx__uptodate_digest(struct wspx_worker *w, int dirfd,
    const char *const *sources, size_t nsources,
    const char *const *generates, size_t ngenerates, const char *command,
    unsigned char out[32], char **missing)
{
	struct files fs = { .dirfd = dirfd };
	const char *culprit = NULL;
	char ***blocks;
	size_t i;
	int rc;

	*missing = NULL;
	if ((blocks = calloc(nsources + ngenerates + 1,
	    sizeof(*blocks))) == NULL)
		return -ENOMEM;
	rc = expand(&fs, sources, nsources, false, blocks, &culprit);
	if (rc == 0)
		rc = expand(&fs, generates, ngenerates, true,
		    blocks + nsources, &culprit);
	if (rc == 0) {
		sortfiles(&fs);
		hashfiles(w, &fs);
		rc = combine(&fs, command, out, &culprit);
	}
	/* Copied before the blocks it points into are freed. */
	if (rc != -ENOMEM && culprit != NULL &&
	    (*missing = strdup(culprit)) == NULL)
		rc = -ENOMEM;
	for (i = 0; i < nsources + ngenerates; i++)
		free(blocks[i]);
	free(blocks);
	free(fs.v);
	return rc;
}
