/*
 * Pattern expansion (see glob.h), for the up-to-date check, which must
 * find the same files in the same order every time it hashes a job's
 * sources.  glob(3) is not used: it has no `**`, works only relative to
 * the working directory, and cannot report an unreadable directory
 * precisely.  The walk is iterative: a stack of (path so far, next segment)
 * items, so a deep tree costs heap, not C stack, and the order found does
 * not matter because the matches are sorted at the end.
 */
#include "glob.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "os/direntry.h"

/* A partial match: path matched segments [0, seg) of the pattern. */
struct item {
	char *path;		/* owned; "": where a relative walk starts */
	size_t seg;		/* the next segment to match */
	bool check;		/* made of a literal segment: may not exist */
};

struct walk {
	int dirfd;
	char **segs;		/* the pattern's non-empty segments, a run
				 * of ** made one */
	size_t nseg;
	struct item *stack;	/* partial matches still to extend */
	size_t nstack, capstack;
	char **out;		/* matches, owned, unsorted */
	size_t nout, capout;
	struct seen {		/* every partial match queued, so that
				 * none is walked twice: a ** after a
				 * wildcard reaches a directory by many
				 * routes */
		uint64_t *hash;	/* 0: empty */
		size_t n, cap;	/* cap a power of two, or 0 */
	} seen;
};

/* Whether s has a character fnmatch() treats specially. */
static bool
haswild(const char *s)
{
	return strpbrk(s, "*?[\\") != NULL;
}

/* prefix/name, without doubling the '/' of the root.  NULL: no memory. */
static char *
join(const char *prefix, const char *name)
{
	size_t lp = strlen(prefix), ln = strlen(name);
	bool slash = lp > 0 && prefix[lp - 1] != '/';
	char *p;

	if ((p = malloc(lp + slash + ln + 1)) == NULL)
		return NULL;
	memcpy(p, prefix, lp);
	if (slash)
		p[lp] = '/';
	memcpy(p + lp + slash, name, ln + 1);
	return p;
}

/* Grow *v (of elements of size sz) to hold one more than n.  0 or
 * -ENOMEM. */
static int
reserve(void *v, size_t *cap, size_t n, size_t sz)
{
	void *p;
	size_t c;

	if (n < *cap)
		return 0;
	c = *cap != 0 ? *cap * 2 : 16;
	if ((p = realloc(*(void **)v, c * sz)) == NULL)
		return -ENOMEM;
	*(void **)v = p;
	*cap = c;
	return 0;
}

/* A 64-bit FNV-1a hash of (path, seg), never 0. */
static uint64_t
hashitem(const char *path, size_t seg)
{
	uint64_t h = 14695981039346656037u ^ (uint64_t)seg;

	for (; *path != '\0'; path++)
		h = (h ^ (unsigned char)*path) * 1099511628211u;
	return h != 0 ? h : 1;
}

/* Add h to the set; returns 1 if it was there, else 0. */
static int
insert(struct seen *sn, uint64_t h)
{
	size_t i;

	for (i = (size_t)h & (sn->cap - 1); sn->hash[i] != 0;
	    i = (i + 1) & (sn->cap - 1))
		if (sn->hash[i] == h)
			return 1;
	sn->hash[i] = h;
	sn->n++;
	return 0;
}

/* Whether (path, seg) was queued before (1; else 0, and now it is).  A
 * 64-bit hash stands for the pair: a collision, once in 2^64, would
 * lose one partial match.  -ENOMEM without memory. */
static int
seenbefore(struct seen *sn, const char *path, size_t seg)
{
	uint64_t *old = sn->hash;
	size_t i, oldcap = sn->cap;

	if (2 * (sn->n + 1) > sn->cap) {
		if ((sn->hash = calloc(oldcap > 0 ? 2 * oldcap : 64,
		    sizeof(*sn->hash))) == NULL) {
			sn->hash = old;
			return -ENOMEM;
		}
		sn->cap = oldcap > 0 ? 2 * oldcap : 64;
		sn->n = 0;
		for (i = 0; i < oldcap; i++)
			if (old[i] != 0)
				(void)insert(sn, old[i]);
		free(old);
	}
	return insert(sn, hashitem(path, seg));
}

/* Queue path (taken, even on failure) to match from segment seg, unless
 * it was queued before. */
static int
push(struct walk *wk, char *path, size_t seg, bool check)
{
	int seen;

	if (path == NULL || (seen = seenbefore(&wk->seen, path, seg)) < 0 ||
	    reserve(&wk->stack, &wk->capstack, wk->nstack,
	    sizeof(*wk->stack)) != 0) {
		free(path);
		return -ENOMEM;
	}
	if (seen) {
		free(path);
		return 0;
	}
	wk->stack[wk->nstack].path = path;
	wk->stack[wk->nstack].seg = seg;
	wk->stack[wk->nstack++].check = check;
	return 0;
}

/* Keep path (taken, even on failure) as a match; "" is none. */
static int
emit(struct walk *wk, char *path)
{
	if (path == NULL || reserve(&wk->out, &wk->capout, wk->nout,
	    sizeof(*wk->out)) != 0) {
		free(path);
		return -ENOMEM;
	}
	if (*path == '\0')
		free(path);
	else
		wk->out[wk->nout++] = path;
	return 0;
}

/* Open the directory path.  NULL with *rc 0 if it is not one (no match),
 * or with *rc -errno on an error. */
static DIR *
opendirat(struct walk *wk, const char *path, int *rc)
{
	DIR *d;
	int fd;

	*rc = 0;
	fd = openat(wk->dirfd, *path != '\0' ? path : ".",
	    O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		if (errno != ENOENT && errno != ENOTDIR)
			*rc = -errno;
		return NULL;
	}
	if ((d = fdopendir(fd)) == NULL) {
		*rc = -errno;
		close(fd);
	}
	return d;
}

/* The next entry of d other than "." and "..", or NULL at the end (*rc 0)
 * or on an error (*rc -errno). */
static struct dirent *
nextent(DIR *d, int *rc)
{
	struct dirent *e;

	for (;;) {
		errno = 0;
		if ((e = readdir(d)) == NULL) {
			*rc = -errno;
			return NULL;
		}
		if (strcmp(e->d_name, ".") != 0 &&
		    strcmp(e->d_name, "..") != 0)
			return e;
	}
}

/* One step of `**` at it->path: itself, its entries that are real
 * directories (not to be entered if their name starts with '.') and, when
 * `**` ends the pattern, every other such entry as a match. */
static int
globstar(struct walk *wk, const struct item *it)
{
	bool last = it->seg + 1 == wk->nseg;
	struct dirent *e;
	struct stat st;
	DIR *d;
	int rc, kind;

	if ((d = opendirat(wk, it->path, &rc)) == NULL)
		return rc;
	rc = push(wk, strdup(it->path), it->seg + 1, false);
	while (rc == 0 && (e = nextent(d, &rc)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		/* lstat, where the entry does not say: a link to a directory
		 * is a leaf, so no loop. */
		if ((kind = wspx__direntry_kind(e)) == '?' && fstatat(dirfd(d),
		    e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
			rc = errno == ENOENT ? 0 : -errno;
			continue;
		}
		if (kind == 'd' || (kind == '?' && S_ISDIR(st.st_mode)))
			rc = push(wk, join(it->path, e->d_name), it->seg,
			    false);
		else if (last)
			rc = emit(wk, join(it->path, e->d_name));
	}
	closedir(d);
	return rc;
}

/* Match segment it->seg, which has wildcards, against it->path's
 * entries. */
static int
wild(struct walk *wk, const struct item *it)
{
	const char *seg = wk->segs[it->seg];
	bool last = it->seg + 1 == wk->nseg;
	struct dirent *e;
	DIR *d;
	int rc;

	if ((d = opendirat(wk, it->path, &rc)) == NULL)
		return rc;
	while (rc == 0 && (e = nextent(d, &rc)) != NULL) {
		if (fnmatch(seg, e->d_name, FNM_PERIOD) != 0)
			continue;
		if (last)
			rc = emit(wk, join(it->path, e->d_name));
		else
			rc = push(wk, join(it->path, e->d_name), it->seg + 1,
			    false);
	}
	closedir(d);
	return rc;
}

/* Extend one partial match (it->path is the caller's). */
static int
step(struct walk *wk, const struct item *it)
{
	const char *seg;
	struct stat st;

	if (it->seg == wk->nseg) {
		/* Follow links: a dangling one names no file. */
		if (it->check && fstatat(wk->dirfd, it->path, &st, 0) != 0)
			return errno == ENOENT || errno == ENOTDIR ? 0 :
			    -errno;
		return emit(wk, strdup(it->path));
	}
	seg = wk->segs[it->seg];
	if (strcmp(seg, "**") == 0)
		return globstar(wk, it);
	if (haswild(seg))
		return wild(wk, it);
	/* A literal is not looked for in the directory: cheaper, and the
	 * next step (or the final check) finds out if it is missing. */
	return push(wk, join(it->path, seg), it->seg + 1, true);
}

static int
cmpstr(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sort and deduplicate wk->out, then copy it into one block at *paths.
 * The strings left in wk->out stay the caller's to free. */
static int
pack(struct walk *wk, char ***paths, size_t *n)
{
	size_t i, k, bytes, len;
	char **v, *s;

	if (wk->nout == 0)
		return 0;
	qsort(wk->out, wk->nout, sizeof(*wk->out), cmpstr);
	for (i = k = 1; i < wk->nout; i++) {
		if (strcmp(wk->out[i], wk->out[k - 1]) == 0)
			free(wk->out[i]);
		else
			wk->out[k++] = wk->out[i];
	}
	wk->nout = k;
	for (i = 0, bytes = k * sizeof(char *); i < k; i++)
		bytes += strlen(wk->out[i]) + 1;
	if ((v = malloc(bytes)) == NULL)
		return -ENOMEM;
	for (i = 0, s = (char *)(v + k); i < k; i++, s += len) {
		len = strlen(wk->out[i]) + 1;
		v[i] = memcpy(s, wk->out[i], len);
	}
	*paths = v;
	*n = k;
	return 0;
}

/* A pattern without wildcards: the path itself, found or not. */
static int
literal(int dirfd, const char *pattern, char ***paths, size_t *n)
{
	size_t len = strlen(pattern) + 1;
	struct stat st;
	char **v;
	int rc = 0;

	if (fstatat(dirfd, pattern, &st, 0) != 0) {
		if (errno != ENOENT && errno != ENOTDIR)
			return -errno;
		rc = -ENOENT;
	}
	if ((v = malloc(sizeof(char *) + len)) == NULL)
		return -ENOMEM;
	v[0] = memcpy(v + 1, pattern, len);
	*paths = v;
	*n = 1;
	return rc;
}

/* Split a copy of pattern (*buf, the caller's to free) into its
 * non-empty segments. */
static int
split(struct walk *wk, const char *pattern, char **buf)
{
	size_t len = strlen(pattern), i;
	char *s;

	/* At most one segment for each two characters, "a/". */
	if ((*buf = strdup(pattern)) == NULL ||
	    (wk->segs = malloc((len / 2 + 1) * sizeof(char *))) == NULL)
		return -ENOMEM;
	for (s = *buf, i = 0; *s != '\0'; s++)
		if (*s == '/')
			*s = '\0';
	/* (** then ** matches what one ** matches) */
	for (s = *buf; s < *buf + len; s += strlen(s) + 1)
		if (*s != '\0' && (i == 0 || strcmp(s, "**") != 0 ||
		    strcmp(wk->segs[i - 1], "**") != 0))
			wk->segs[i++] = s;
	wk->nseg = i;
	return 0;
}

/* Run the walk from its first item to the end; the matches are left in
 * wk->out. */
static int
walk(struct walk *wk, const char *pattern)
{
	struct item it;
	int rc;

	rc = push(wk, strdup(pattern[0] == '/' ? "/" : ""), 0, false);
	while (rc == 0 && wk->nstack > 0) {
		it = wk->stack[--wk->nstack];
		rc = step(wk, &it);
		free(it.path);
	}
	return rc;
}

int
wspx__glob(int dirfd, const char *pattern, char ***paths, size_t *n)
{
	struct walk wk = { .dirfd = dirfd };
	char *buf = NULL;
	size_t i;
	int rc;

	*paths = NULL;
	*n = 0;
	if (*pattern == '\0')
		return -EINVAL;
	if (!haswild(pattern))
		return literal(dirfd, pattern, paths, n);
	if ((rc = split(&wk, pattern, &buf)) == 0 &&
	    (rc = walk(&wk, pattern)) == 0)
		rc = pack(&wk, paths, n);
	for (i = 0; i < wk.nstack; i++)
		free(wk.stack[i].path);
	for (i = 0; i < wk.nout; i++)
		free(wk.out[i]);
	free(wk.stack);
	free(wk.out);
	free(wk.segs);
	free(wk.seen.hash);
	free(buf);
	return rc;
}
