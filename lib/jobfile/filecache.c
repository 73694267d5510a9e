/*
 * The stat cache of the up-to-date state (see uptodate.h): the digest of
 * a file's content, kept with what stat(2) said of it when it was read,
 * so that a no-op build stats its files and reads none.
 *
 * A file is looked at once per epoch (state_int.h): the first thread to
 * want it marks it busy, stats it and, unless its stat is the one
 * recorded with a trusted digest, hashes it, the lock not held; the
 * others wait for it on the state's cond.  The one hashing never waits
 * for anything but its read, so a worker that waits cannot deadlock the
 * pool.  A digest is trusted, and saved, when the file's stat was the same
 * before and after the read, and its mtime or its ctime was, before the
 * clock of file times (lib/os/fsclock.h) read before the first stat, by
 * more than the file system's granularity (racy() below: 20 ms on a local
 * file system with fine times, else 2 s): a write
 * after that stamps both with a later time, so the stat tells it.  A file
 * written more recently is read again the next time, once.
 *
 * Within a run, a digest read from a file whose stat did not change while
 * it was read, on a local file system stamped by this kernel's clock to
 * the nanosecond, and whose ctime was before that clock's time read before
 * the first stat, is reused in later epochs while the stat stays the same,
 * however young the file: a job's generated file, hashed when the job
 * ends, is not read again by the jobs that need it.  Any later write
 * stamps the ctime with that clock's time or a later one, so the stat
 * tells it (on another file system, or for a file changed in the tick of
 * the read, the file is looked at again in each epoch).
 */
#include "uptodate.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/sha256.h"
#include "glob.h"
#include "os/fsclock.h"
#include "os/thread.h"
#include "state_int.h"
#include "wspx.h"

long
wspx__filecache_entry(struct wspx__state *st, const char *key)
{
	struct wspx__strtab_entry *te;
	struct fentry *v;
	size_t cap, len = strlen(key);
	char *copy;

	if ((te = wspx__strtab_get(&st->filetab, key, len)) != NULL)
		return (long)te->aux;
	if (st->nfiles == st->capfiles) {
		cap = st->capfiles != 0 ? st->capfiles * 2 : 256;
		if ((v = realloc(st->files, cap * sizeof(*v))) == NULL)
			return -ENOMEM;
		st->files = v;
		st->capfiles = cap;
	}
	/* (the table borrows the entry's own copy of the key) */
	if ((copy = strdup(key)) == NULL ||
	    wspx__strtab_put(&st->filetab, copy, len, &te) != 0) {
		free(copy);
		return -ENOMEM;
	}
	st->files[st->nfiles] = (struct fentry){ .key = copy };
	te->val = st;
	te->aux = st->nfiles;
	return (long)st->nfiles++;
}

/* Parse a decimal number (with an optional '-', *neg) at *s, before end,
 * that ends with a tab, into its magnitude *v; *s is then after the tab.
 * false if there is none, or it passes UINT64_MAX. */
static bool
number(const char **s, const char *end, bool *neg, uint64_t *v)
{
	const char *p = *s;
	unsigned d;

	*neg = p < end && *p == '-';
	p += *neg;
	if (p >= end || *p < '0' || *p > '9')
		return false;
	for (*v = 0; p < end && *p >= '0' && *p <= '9'; p++) {
		d = (unsigned)(*p - '0');
		if (*v > UINT64_MAX / 10 ||
		    (*v == UINT64_MAX / 10 && d > UINT64_MAX % 10))
			return false;
		*v = *v * 10 + d;
	}
	if (p >= end || *p != '\t')
		return false;
	*s = p + 1;
	return true;
}

/* A size or a time: a signed number. */
static bool
signednum(const char **s, const char *end, int64_t *out)
{
	uint64_t v;
	bool neg;

	if (!number(s, end, &neg, &v) || v > (uint64_t)INT64_MAX)
		return false;
	*out = neg ? -(int64_t)v : (int64_t)v;
	return true;
}

/* An inode or a device number: unsigned, up to UINT64_MAX, as
 * wspx__filecache_format() writes them. */
static bool
unsignednum(const char **s, const char *end, uint64_t *out)
{
	bool neg;

	return number(s, end, &neg, out) && !neg;
}

bool
wspx__filecache_parse(struct wspx__state *st, const char *s, size_t len,
    bool *nomem)
{
	const char *p = s + 2, *end = s + len;
	struct fentry fe = { 0 };
	int64_t n[3];
	uint64_t ino, dev;
	char *key;
	long k;
	int i;

	if (len < 2 || s[0] != '@' || s[1] != '\t')
		return false;
	for (i = 0; i < 3; i++)
		if (!signednum(&p, end, &n[i]))
			return false;
	if (!unsignednum(&p, end, &ino) || !unsignednum(&p, end, &dev))
		return false;
	if (end - p < 66 || p[64] != '\t' ||
	    !wspx__statefile_unhex(p, fe.sum, 32))
		return false;
	if ((key = malloc((size_t)(end - p))) == NULL) {
		*nomem = true;
		return true;
	}
	if (!wspx__statefile_unescape(p + 65, (size_t)(end - p - 65), key)) {
		free(key);
		return false;
	}
	fe.st = (struct fstat){ n[0], n[1], n[2], ino, dev };
	if ((k = wspx__filecache_entry(st, key)) < 0)
		*nomem = true;
	else {
		st->files[k].st = fe.st;
		memcpy(st->files[k].sum, fe.sum, 32);
		st->files[k].trusted = true;
		st->files[k].unsaved = false;
	}
	free(key);
	return true;
}

size_t
wspx__filecache_max(const struct fentry *fe)
{
	/* "@", 5 numbers of at most 20 digits and a sign, the digest, the
	 * tabs and the newline */
	return 2 + 5 * 22 + 65 + 2 * strlen(fe->key) + 1;
}

size_t
wspx__filecache_format(char *line, const struct fentry *fe)
{
	char *p = line;

	p += sprintf(p, "@\t%lld\t%lld\t%lld\t%llu\t%llu\t",
	    (long long)fe->st.size, (long long)fe->st.mtime,
	    (long long)fe->st.ctime, (unsigned long long)fe->st.ino,
	    (unsigned long long)fe->st.dev);
	p = wspx__statefile_hex(p, fe->sum, 32);
	*p++ = '\t';
	p = wspx__statefile_escape(p, fe->key);
	*p++ = '\n';
	return (size_t)(p - line);
}

static struct fstat
fstatof(const struct stat *sb)
{
	return (struct fstat){ (int64_t)sb->st_size,
	    (int64_t)sb->st_mtim.tv_sec * WSPX_NS_PER_S + sb->st_mtim.tv_nsec,
	    (int64_t)sb->st_ctim.tv_sec * WSPX_NS_PER_S + sb->st_ctim.tv_nsec,
	    (uint64_t)sb->st_ino, (uint64_t)sb->st_dev };
}

static bool
samestat(const struct fstat *a, const struct fstat *b)
{
	return a->size == b->size && a->mtime == b->mtime &&
	    a->ctime == b->ctime && a->ino == b->ino && a->dev == b->dev;
}

/* Whether t's nanoseconds are not a whole number of 10 ms: times kept
 * finer than exFAT's 10 ms, a 1 s file system's or FAT's 2 s. */
static bool
finegrained(int64_t t)
{
	int64_t ns = t % WSPX_NS_PER_S;

	if (ns < 0)
		ns += WSPX_NS_PER_S;
	return ns % (10 * (WSPX_NS_PER_S / 1000)) != 0;
}

/* Whether a write after now could leave f's times as they are: it
 * stamps both with its time, rounded down to the file system's
 * granularity, so only if both are that close to now already.  On a local
 * file system (wspx__fsclock_local(): stamped with the kernel's clock, to
 * the nanosecond) whose times show a finer grain than 10 ms, a file
 * younger than 20 ms, the tick of the slowest kernel clock twice, is
 * racy: so a no-op build just after a build trusts what the build wrote.
 * Elsewhere the grain may be exFAT's 10 ms, 1 s (ext4 with small inodes,
 * HFS+), FAT's 2 s, or the times those of a server whose clock is not
 * ours: younger than 2 s, a file is racy. */
static bool
racy(const struct fstat *f, int64_t now, bool local)
{
	int64_t t = f->mtime < f->ctime ? f->mtime : f->ctime;

	return t >= now - (local && finegrained(t) ? 20 * (WSPX_NS_PER_S /
	    1000) : 2 * WSPX_NS_PER_S);
}

/* Hash the regular file at path into fe, as it is now; now is the clock
 * of file times before it was first looked at.  0 or -errno. */
static int
hash(int dirfd, const char *path, int64_t now, struct fentry *fe)
{
	struct stat before, after;
	struct fstat was;
	bool local = false, same;
	int fd, rc;

	/* O_NONBLOCK: a FIFO put there since must not hold the worker */
	if ((fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) < 0)
		return -errno;
	if (fstat(fd, &before) != 0)
		rc = -errno;
	else if (!S_ISREG(before.st_mode))
		rc = S_ISDIR(before.st_mode) ? -EISDIR : -EINVAL;
	else if ((rc = wspx__sha256_fd(fd, fe->sum)) == 0 &&
	    fstat(fd, &after) != 0)
		rc = -errno;
	if (rc == 0)
		local = wspx__fsclock_local(fd);
	close(fd);
	if (rc != 0)
		return rc;
	fe->st = fstatof(&after);
	was = fstatof(&before);
	same = samestat(&fe->st, &was);
	/* (fresh: changed last before the tick of now, which every later
	 * write's ctime is at or after, on a file system stamped by this
	 * kernel's clock) */
	fe->fresh = same && local && finegrained(fe->st.ctime) &&
	    fe->st.ctime < now;
	fe->trusted = same && !racy(&fe->st, now, local);
	fe->unsaved = fe->trusted;
	return 0;
}

/* Look at the file at path, whose entry was fe (a copy, updated). */
static int
look(int dirfd, const char *path, struct fentry *fe)
{
	int64_t now = wspx__fsclock_ns();
	struct fstat cur;
	struct stat sb;

	if (fstatat(dirfd, path, &sb, 0) != 0)
		return -errno;
	if (S_ISDIR(sb.st_mode))
		return -EISDIR;
	if (!S_ISREG(sb.st_mode))
		return -EINVAL;
	cur = fstatof(&sb);
	if ((fe->trusted || fe->fresh) && samestat(&cur, &fe->st))
		return 0;
	return hash(dirfd, path, now, fe);
}

bool
wspx__filecache_known(struct wspx__state *st, const char *key,
    unsigned char sum[32], int *rc)
{
	struct wspx__strtab_entry *te;
	const struct fentry *fe;
	bool known;

	WSPX_MUST(pthread_mutex_lock(&st->lock));
	te = wspx__strtab_get(&st->filetab, key, strlen(key));
	fe = te != NULL ? &st->files[te->aux] : NULL;
	/* relaxed: see state_int.h */
	if ((known = fe != NULL && !fe->busy && fe->epoch ==
	    atomic_load_explicit(&st->epoch, memory_order_relaxed))) {
		memcpy(sum, fe->sum, 32);
		*rc = fe->rc;
	}
	WSPX_MUST(pthread_mutex_unlock(&st->lock));
	return known;
}

int
wspx__filecache_hash(struct wspx__state *st, int dirfd, const char *key,
    const char *path, unsigned char sum[32])
{
	struct fentry *fe, copy;
	unsigned epoch;
	long k;
	int rc;

	if (st == NULL)
		return wspx__sha256_file(dirfd, path, sum);
	WSPX_MUST(pthread_mutex_lock(&st->lock));
	if ((k = wspx__filecache_entry(st, key)) < 0) {
		WSPX_MUST(pthread_mutex_unlock(&st->lock));
		return -ENOMEM;
	}
	while (st->files[k].busy)
		WSPX_MUST(pthread_cond_wait(&st->looked, &st->lock));
	fe = &st->files[k];
	/* relaxed: see state_int.h */
	epoch = atomic_load_explicit(&st->epoch, memory_order_relaxed);
	if (fe->epoch == epoch) {
		memcpy(sum, fe->sum, 32);
		rc = fe->rc;
		WSPX_MUST(pthread_mutex_unlock(&st->lock));
		return rc;
	}
	fe->busy = true;
	copy = *fe;
	WSPX_MUST(pthread_mutex_unlock(&st->lock));
	rc = look(dirfd, path, &copy);
	WSPX_MUST(pthread_mutex_lock(&st->lock));
	fe = &st->files[k];
	if (rc == 0) {
		fe->st = copy.st;
		memcpy(fe->sum, copy.sum, 32);
		fe->trusted = copy.trusted;
		fe->fresh = copy.fresh;
		/* (unchanged if the stat was: a new sum is saved only if
		 * trusted) */
		fe->unsaved = copy.unsaved;
	}
	fe->rc = rc;
	fe->epoch = epoch;
	fe->busy = false;
	memcpy(sum, fe->sum, 32);
	st->dirty |= copy.unsaved;
	WSPX_MUST(pthread_cond_broadcast(&st->looked));
	WSPX_MUST(pthread_mutex_unlock(&st->lock));
	return rc;
}

/* A copy of the block paths[0..n) as wspx__glob() makes it: the
 * pointers, then the strings.  NULL if out of memory (or n is 0). */
static char **
copyblock(char *const *paths, size_t n)
{
	size_t size = n * sizeof(char *), i;
	char **b, *p;

	for (i = 0; i < n; i++)
		size += strlen(paths[i]) + 1;
	if (n == 0 || (b = malloc(size)) == NULL)
		return NULL;
	p = (char *)(b + n);
	for (i = 0; i < n; i++) {
		b[i] = p;
		p = stpcpy(p, paths[i]) + 1;
	}
	return b;
}

/* The entry of key[0..len) in st's expansions, added empty if new: its
 * index, or -ENOMEM.  The lock held. */
static long
globentry(struct wspx__state *st, const char *key, size_t len)
{
	struct wspx__strtab_entry *te;
	struct gentry *v;
	size_t cap;
	char *copy;

	if ((te = wspx__strtab_get(&st->globtab, key, len)) != NULL)
		return (long)te->aux;
	if (st->nglobs == st->capglobs) {
		cap = st->capglobs != 0 ? st->capglobs * 2 : 64;
		if ((v = realloc(st->globs, cap * sizeof(*v))) == NULL)
			return -ENOMEM;
		st->globs = v;
		st->capglobs = cap;
	}
	if ((copy = malloc(len)) == NULL ||
	    wspx__strtab_put(&st->globtab, memcpy(copy, key, len), len,
	    &te) != 0) {
		free(copy);
		return -ENOMEM;
	}
	st->globs[st->nglobs] = (struct gentry){ .key = copy };
	te->val = st;
	te->aux = st->nglobs;
	return (long)st->nglobs++;
}

/* Look key[0..len) up in the expansions of this epoch: true, with a copy
 * of the paths, if it is there. */
static bool
remembered(struct wspx__state *st, const char *key, size_t len,
    char ***paths, size_t *n, int *rc)
{
	struct wspx__strtab_entry *te;
	const struct gentry *g;
	bool hit = false;

	WSPX_MUST(pthread_mutex_lock(&st->lock));
	te = wspx__strtab_get(&st->globtab, key, len);
	g = te != NULL ? &st->globs[te->aux] : NULL;
	/* relaxed: see state_int.h */
	if (g != NULL && g->epoch == atomic_load_explicit(&st->epoch,
	    memory_order_relaxed) && (g->n == 0 ||
	    (*paths = copyblock(g->paths, g->n)) != NULL)) {
		if (g->n == 0)
			*paths = NULL;
		*n = g->n;
		*rc = g->rc;
		hit = true;
	}
	WSPX_MUST(pthread_mutex_unlock(&st->lock));
	return hit;
}

/* Remember paths[0..n) and rc as key[0..len)'s expansion in epoch; out
 * of memory, it is not remembered. */
static void
remember(struct wspx__state *st, const char *key, size_t len,
    char *const *paths, size_t n, int rc, unsigned epoch)
{
	char **copy = copyblock(paths, n);
	long k;

	if (n > 0 && copy == NULL)
		return;
	WSPX_MUST(pthread_mutex_lock(&st->lock));
	if ((k = globentry(st, key, len)) >= 0) {
		free(st->globs[k].paths);
		st->globs[k].paths = copy;
		st->globs[k].n = n;
		st->globs[k].rc = rc;
		st->globs[k].epoch = epoch;
		copy = NULL;
	}
	WSPX_MUST(pthread_mutex_unlock(&st->lock));
	free(copy);
}

/* The key of pattern in a job of key prefix prefix, malloc'd, its length
 * into *len; NULL if out of memory.  The prefix, a NUL, the pattern:
 * "*.c" in a job whose dir: is sub and the same pattern after "sub/" in
 * a job without one match the same files, but each writes them from its
 * own directory. */
static char *
globkey(const char *prefix, const char *pattern, size_t *len)
{
	size_t lp = strlen(prefix);
	char *key;

	*len = lp + 1 + strlen(pattern);
	if ((key = malloc(*len)) == NULL)
		return NULL;
	memcpy(key, prefix, lp + 1);
	memcpy(key + lp + 1, pattern, *len - lp - 1);
	return key;
}

int
wspx__filecache_glob(struct wspx__state *st, int dirfd, const char *prefix,
    const char *pattern, char ***paths, size_t *n)
{
	unsigned epoch;
	size_t len;
	char *key;
	int rc;

	if ((key = globkey(prefix, pattern, &len)) == NULL)
		return -ENOMEM;
	if (remembered(st, key, len, paths, n, &rc)) {
		free(key);
		return rc;
	}
	/* relaxed: see state_int.h; read before the expansion, so that a
	 * job ending during it makes it stale */
	epoch = atomic_load_explicit(&st->epoch, memory_order_relaxed);
	rc = wspx__glob(dirfd, pattern, paths, n);
	/* (an error reading a directory is not remembered) */
	if (rc == 0 || rc == -ENOENT)
		remember(st, key, len, *paths, *n, rc, epoch);
	free(key);
	return rc;
}

bool
wspx__filecache_group(struct wspx__state *st, const char *prefix,
    const char *pattern, bool gen, unsigned char sum[32], char **missing)
{
	struct wspx__strtab_entry *te;
	const struct gentry *g;
	bool hit = false;
	size_t len;
	char *key;

	if ((key = globkey(prefix, pattern, &len)) == NULL)
		return false;
	WSPX_MUST(pthread_mutex_lock(&st->lock));
	te = wspx__strtab_get(&st->globtab, key, len);
	g = te != NULL ? &st->globs[te->aux] : NULL;
	/* relaxed: see state_int.h */
	if (g != NULL && g->gepoch[gen] == atomic_load_explicit(&st->epoch,
	    memory_order_relaxed) && (g->gmissing[gen] == NULL ||
	    (*missing = strdup(g->gmissing[gen])) != NULL)) {
		if (g->gmissing[gen] == NULL)
			*missing = NULL;
		memcpy(sum, g->gsum[gen], 32);
		hit = true;
	}
	WSPX_MUST(pthread_mutex_unlock(&st->lock));
	free(key);
	return hit;
}

void
wspx__filecache_setgroup(struct wspx__state *st, const char *prefix,
    const char *pattern, bool gen, unsigned epoch,
    const unsigned char sum[32], const char *missing)
{
	char *key, *copy = NULL;
	struct gentry *g;
	size_t len;
	long k;

	if ((key = globkey(prefix, pattern, &len)) == NULL ||
	    (missing != NULL && (copy = strdup(missing)) == NULL)) {
		free(key);
		return;
	}
	WSPX_MUST(pthread_mutex_lock(&st->lock));
	if ((k = globentry(st, key, len)) >= 0) {
		g = &st->globs[k];
		free(g->gmissing[gen]);
		g->gmissing[gen] = copy;
		memcpy(g->gsum[gen], sum, 32);
		g->gepoch[gen] = epoch;
		copy = NULL;
	}
	WSPX_MUST(pthread_mutex_unlock(&st->lock));
	free(copy);
	free(key);
}

void
wspx__filecache_fini(struct wspx__state *st)
{
	while (st->nglobs > 0) {
		st->nglobs--;
		free(st->globs[st->nglobs].key);
		free(st->globs[st->nglobs].paths);
		free(st->globs[st->nglobs].gmissing[0]);
		free(st->globs[st->nglobs].gmissing[1]);
	}
	free(st->globs);
	wspx__strtab_fini(&st->globtab);
}
