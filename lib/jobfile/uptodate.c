/*
 * The parts of a job's up-to-date digest (see uptodate.h): its identity
 * and its files, expanded, sorted and hashed in parallel on the pool
 * through the state's stat cache (filecache.c); the digest over them; and
 * --explain's comparison of a job's parts with the record of its last run.
 */
#include "uptodate.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/sha256.h"
#include "glob.h"
#include "state_int.h"
#include "wspx.h"

int
wspx__uptodate_addpart(struct wspx__parts *p, char kind, char tag,
    const char *key, const unsigned char sum[32])
{
	struct wspx__part *v;
	char *k;

	if (p->n == p->cap) {
		if ((v = realloc(p->v, (p->cap != 0 ? p->cap * 2 : 8) *
		    sizeof(*v))) == NULL)
			return -ENOMEM;
		p->v = v;
		p->cap = p->cap != 0 ? p->cap * 2 : 8;
	}
	if ((k = strdup(key)) == NULL)
		return -ENOMEM;
	v = &p->v[p->n++];
	v->kind = kind;
	v->tag = tag;
	v->key = k;
	if (sum != NULL)
		memcpy(v->sum, sum, 32);
	else
		memset(v->sum, 0, 32);
	return 0;
}

int
wspx__uptodate_identity(struct wspx__parts *p, const char *key,
    const char *value)
{
	struct wspx__sha256 c;
	unsigned char sum[32];

	wspx__sha256_init(&c);
	wspx__sha256_update(&c, value, strlen(value));
	wspx__sha256_final(&c, sum);
	return wspx__uptodate_addpart(p, 'i', 0, key, sum);
}

void
wspx__uptodate_freeparts(struct wspx__parts *p)
{
	while (p->n > 0)
		free(p->v[--p->n].key);
	free(p->v);
	p->v = NULL;
	p->cap = 0;
}

/* SHA-256 over a version tag (with its NUL), then each part of p. */
static void
partsum(const char *version, const struct wspx__parts *p,
    unsigned char out[32])
{
	struct wspx__sha256 c;
	size_t i;

	/* Each string with its NUL, which no key holds, so that no list of
	 * parts can be made to read as another. */
	wspx__sha256_init(&c);
	wspx__sha256_update(&c, version, strlen(version) + 1);
	for (i = 0; i < p->n; i++) {
		wspx__sha256_update(&c, &p->v[i].kind, 1);
		wspx__sha256_update(&c, &p->v[i].tag, 1);
		wspx__sha256_update(&c, p->v[i].key, strlen(p->v[i].key) + 1);
		wspx__sha256_update(&c, p->v[i].sum, 32);
	}
	wspx__sha256_final(&c, out);
}

void
wspx__uptodate_sum(const struct wspx__parts *p, unsigned char out[32])
{
	/* (3: a job's files were each a part; 4: its patterns' groups) */
	partsum("wspx-uptodate 4", p, out);
}

/* One file of a job. */
struct file {
	const char *path;	/* borrowed from wspx__glob()'s block or
				 * the patterns */
	int rc;			/* TOHASH; 0 hashed; -EISDIR; -errno */
	unsigned char sum[32];	/* its content's SHA-256 when rc is 0 */
};

#define TOHASH	1

struct files {
	struct file *v;
	size_t n, cap;
	int dirfd;
	struct wspx__state *st;
	const char *prefix;
};

static int
addfile(struct files *fs, const char *path, int rc)
{
	struct file *v;

	if (fs->n == fs->cap) {
		fs->cap = fs->cap != 0 ? fs->cap * 2 : 64;
		if ((v = realloc(fs->v, fs->cap * sizeof(*v))) == NULL)
			return -ENOMEM;
		fs->v = v;
	}
	fs->v[fs->n++] = (struct file){ .path = path, .rc = rc };
	return 0;
}

/* Whether pattern has a wildcard of wspx__glob(). */
static bool
wild(const char *pattern)
{
	return strpbrk(pattern, "*?[\\") != NULL;
}

/* Whether pattern names one path, looked up, not expanded. */
static bool
literal(const char *pattern)
{
	return *pattern != '\0' && !wild(pattern) &&
	    pattern[strlen(pattern) - 1] != '/' && strstr(pattern, "//") == NULL;
}

/* Expand pats[0..np) into fs, keeping each pattern's block in blocks[].
 * A literal is not looked up here: its stat, when it is hashed, tells
 * whether it is there.  A source must match; a generated file may be
 * missing (rc -ENOENT).  On an error *culprit is the pattern at fault. */
static int
expand(struct files *fs, const char *const *pats, size_t np, bool gen,
    char ***blocks, const char **culprit)
{
	size_t i, j, k;
	int rc;

	for (i = 0; i < np; i++) {
		*culprit = pats[i];
		if (literal(pats[i])) {
			if ((rc = addfile(fs, pats[i], TOHASH)) != 0)
				return rc;
			continue;
		}
		rc = fs->st == NULL ? wspx__glob(fs->dirfd, pats[i], &blocks[i],
		    &k) : wspx__filecache_glob(fs->st, fs->dirfd, fs->prefix,
		    pats[i], &blocks[i], &k);
		if (rc == -ENOENT && k == 1)	/* a literal, missing */
			rc = gen ? addfile(fs, blocks[i][0], rc) : rc;
		else if (rc == 0 && k == 0 && !gen)
			rc = -ENOENT;
		else if (rc == 0 && k == 0)
			rc = addfile(fs, pats[i], -ENOENT);
		else	/* matches, or an error and k is 0 */
			for (j = 0; rc == 0 && j < k; j++)
				rc = addfile(fs, blocks[i][j], TOHASH);
		if (rc == -ENOENT && k == 1)
			*culprit = blocks[i][0];
		if (rc != 0)
			return rc;
	}
	*culprit = NULL;
	return 0;
}

/* By path; a missing entry after a found one. */
static int
cmpfile(const void *a, const void *b)
{
	const struct file *x = a, *y = b;
	int c = strcmp(x->path, y->path);

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
		if (strcmp(fs->v[i].path, fs->v[k - 1].path) != 0)
			fs->v[k++] = fs->v[i];
	fs->n = k;
}

/* Hash one file through the cache, its key its path after the prefix;
 * or if known (only), what the cache knows of it in this epoch, or
 * TOHASH. */
static int
hashone(const struct files *fs, const struct file *f, unsigned char sum[32],
    bool known)
{
	const char *key = f->path;
	char *k = NULL;
	int rc;

	if (*fs->prefix != '\0' && f->path[0] != '/') {
		if ((k = malloc(strlen(fs->prefix) + strlen(f->path) + 1)) ==
		    NULL)
			return -ENOMEM;
		key = strcat(strcpy(k, fs->prefix), f->path);
	}
	if (!known)
		rc = wspx__filecache_hash(fs->st, fs->dirfd, key, f->path,
		    sum);
	else if (!wspx__filecache_known(fs->st, key, sum, &rc))
		rc = TOHASH;
	free(k);
	return rc;
}

/* Hash the files of fs that are to be, halving the list down to one such
 * file per branch (slices are copies of fs whose cap means nothing): a
 * big file then holds up one branch, and idle workers steal the others.
 * The files the cache knows were looked up first, without forking. */
static void
hashfiles(struct wspx_worker *w, void *arg)
{
	struct files *fs = arg, a, b;
	size_t i, k;

	for (i = k = 0; i < fs->n; i++)
		k += fs->v[i].rc == TOHASH;
	if (w == NULL || k <= 1) {
		for (i = 0; i < fs->n; i++)
			if (fs->v[i].rc == TOHASH)
				fs->v[i].rc = hashone(fs, &fs->v[i],
				    fs->v[i].sum, false);
		return;
	}
	a = b = *fs;
	a.n = fs->n / 2;
	b.v += a.n;
	b.n -= a.n;
	wspx_join(w, hashfiles, &a, hashfiles, &b);
}

/* Add the part of one file to out.  Sets *culprit to a missing generated
 * file, if none was set before, or to a source that cannot be read. */
static int
addpart(struct wspx__parts *out, const struct file *f, bool gen,
    const char **culprit)
{
	char tag;

	if (f->rc == 0)
		tag = 'f';
	else if (f->rc == -EISDIR)
		tag = 'd';
	else if (gen && (f->rc == -ENOENT || f->rc == -ENOTDIR))
		tag = 'm';
	else {
		/* (a path through a file is not there, as wspx__glob()
		 * says) */
		*culprit = f->path;
		return f->rc == -ENOTDIR ? -ENOENT : f->rc;
	}
	if (tag == 'm' && *culprit == NULL)
		*culprit = f->path;
	return wspx__uptodate_addpart(out, gen ? 'g' : 's', tag, f->path,
	    tag == 'f' ? f->sum : NULL);
}

int
wspx__uptodate_files(struct wspx__state *st, struct wspx_worker *w,
    int dirfd, const char *prefix, const char *const *pats, size_t n,
    bool gen, struct wspx__parts *out, char **missing)
{
	struct files fs = { .dirfd = dirfd, .st = st, .prefix = prefix };
	const char *culprit = NULL;
	char ***blocks;
	size_t i;
	int rc;

	*missing = NULL;
	if ((blocks = calloc(n + 1, sizeof(*blocks))) == NULL)
		return -ENOMEM;
	if ((rc = expand(&fs, pats, n, gen, blocks, &culprit)) == 0) {
		sortfiles(&fs);
		for (i = 0; st != NULL && i < fs.n; i++)
			if (fs.v[i].rc == TOHASH)
				fs.v[i].rc = hashone(&fs, &fs.v[i],
				    fs.v[i].sum, true);
		hashfiles(w, &fs);
		for (i = 0; rc == 0 && i < fs.n; i++)
			rc = addpart(out, &fs.v[i], gen, &culprit);
	}
	/* Copied before the blocks it points into are freed. */
	if (rc != -ENOMEM && culprit != NULL &&
	    (*missing = strdup(culprit)) == NULL)
		rc = -ENOMEM;
	for (i = 0; i < n; i++)
		free(blocks[i]);
	free(blocks);
	free(fs.v);
	return rc;
}

/* The group of one pattern: its files' parts, made as
 * wspx__uptodate_files() makes them, hashed into sum; through the cache,
 * once per epoch.  Returns as wspx__uptodate_files() does. */
static int
group(struct wspx__state *st, struct wspx_worker *w, int dirfd,
    const char *prefix, const char *pattern, bool gen,
    unsigned char sum[32], char **missing)
{
	struct wspx__parts p = { NULL, 0, 0 };
	unsigned epoch = 0;
	int rc;

	if (st != NULL) {
		if (wspx__filecache_group(st, prefix, pattern, gen, sum,
		    missing))
			return 0;
		/* relaxed: see state_int.h; read before the files are looked
		 * at, so that a job ending meanwhile makes the group stale */
		epoch = atomic_load_explicit(&st->epoch, memory_order_relaxed);
	}
	rc = wspx__uptodate_files(st, w, dirfd, prefix, &pattern, 1, gen, &p,
	    missing);
	if (rc == 0) {
		partsum("wspx-group 1", &p, sum);
		if (st != NULL)
			wspx__filecache_setgroup(st, prefix, pattern, gen,
			    epoch, sum, *missing);
	}
	wspx__uptodate_freeparts(&p);
	return rc;
}

static int
cmpstr(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The part of pattern into out: a literal's file part, or the pattern's
 * group; a missing generated file into *missing if none is there yet. */
static int
grouppart(struct wspx__state *st, struct wspx_worker *w, int dirfd,
    const char *prefix, const char *pattern, bool gen,
    struct wspx__parts *out, char **missing)
{
	unsigned char sum[32];
	char *m = NULL;
	int rc;

	if (literal(pattern))
		rc = wspx__uptodate_files(st, w, dirfd, prefix, &pattern, 1,
		    gen, out, &m);
	else if ((rc = group(st, w, dirfd, prefix, pattern, gen, sum,
	    &m)) == 0)
		rc = wspx__uptodate_addpart(out, gen ? 'g' : 's', 'p', pattern,
		    sum);
	/* (the culprit of an error, else the first missing file) */
	if (rc != 0 || *missing == NULL) {
		free(*missing);
		*missing = m;
	} else
		free(m);
	return rc;
}

int
wspx__uptodate_groups(struct wspx__state *st, struct wspx_worker *w,
    int dirfd, const char *prefix, const char *const *pats, size_t n,
    bool gen, struct wspx__parts *out, char **missing)
{
	const char **sorted;
	size_t i;
	int rc = 0;

	*missing = NULL;
	if ((sorted = malloc((n + 1) * sizeof(*sorted))) == NULL)
		return -ENOMEM;
	if (n > 0) {	/* (pats may be NULL then) */
		memcpy(sorted, pats, n * sizeof(*sorted));
		qsort(sorted, n, sizeof(*sorted), cmpstr);
	}
	for (i = 0; rc == 0 && i < n; i++)
		if (i == 0 || strcmp(sorted[i], sorted[i - 1]) != 0)
			rc = grouppart(st, w, dirfd, prefix, sorted[i], gen,
			    out, missing);
	free(sorted);
	return rc;
}

int
wspx__uptodate_digest(struct wspx_worker *w, int dirfd,
    const char *const *sources, size_t nsources,
    const char *const *generates, size_t ngenerates, const char *command,
    unsigned char out[32], char **missing)
{
	struct wspx__parts p = { NULL, 0, 0 };
	int rc;

	*missing = NULL;
	if ((rc = wspx__uptodate_identity(&p, "command", command)) == 0)
		rc = wspx__uptodate_groups(NULL, w, dirfd, "", sources,
		    nsources, false, &p, missing);
	if (rc == 0 && *missing == NULL)
		rc = wspx__uptodate_groups(NULL, w, dirfd, "", generates,
		    ngenerates, true, &p, missing);
	if (rc == 0)
		wspx__uptodate_sum(&p, out);
	wspx__uptodate_freeparts(&p);
	return rc;
}
