/*
 * Between the files of the up-to-date state (see uptodate.h): the state
 * itself and its file (statefile.c), and its cache of what each file's
 * stat was when its content was hashed (filecache.c).  Not installed.
 */
#ifndef WSPX_STATE_INT_H
#define WSPX_STATE_INT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "base/strtab.h"

/* The first line of a state file of this format. */
#define WSPX_STATE_HEADER "wspx-state 3\n"

/* The last record of one job. */
struct entry {
	char *name;			/* owned */
	unsigned char digest[32];
	char *parts;			/* its parts as written in the file
					 * (see uptodate.h), owned, or NULL:
					 * none, or not read yet (see
					 * stateread.c) */
	bool mine;			/* recorded by this run */
};

/* What stat(2) said of a file: what a change to it changes. */
struct fstat {
	int64_t size, mtime, ctime;	/* times in ns since the epoch */
	uint64_t ino, dev;
};

/* A file of the stat cache: its key is the path relative to the job
 * file's directory (a job's dir: prefixed), or absolute. */
struct fentry {
	char *key;			/* owned */
	struct fstat st;		/* when sum was taken */
	unsigned char sum[32];		/* the SHA-256 of its content */
	bool trusted;			/* st and sum were seen together and
					 * st is not racy: a file with st has
					 * sum (saved in the file) */
	bool unsaved;			/* trusted and not in the file yet */
	bool fresh;			/* sum was read in this run, st did
					 * not change while it was, and no
					 * later write can keep st: reused in
					 * later epochs while the stat stays
					 * (see filecache.c) */
	bool busy;			/* a thread is looking at the file:
					 * wait on the state's cond */
	unsigned epoch;			/* the epoch of this run's last look,
					 * or 0 */
	int rc;				/* that look: 0 a regular file (sum
					 * valid), -EISDIR, or -errno */
};

/* A pattern's expansion in this run (wspx__glob()'s results). */
struct gentry {
	char *key;			/* owned: the job's prefix and the
					 * pattern */
	char **paths;			/* wspx__glob()'s block, owned */
	size_t n;
	int rc;				/* 0 or -ENOENT */
	unsigned epoch;			/* when it was expanded */
	/* Its group (see wspx__uptodate_groups()), as sources [0] and as
	 * generated files [1], made in the epoch given (0: none): the
	 * digest of its files' parts, and its first missing file. */
	unsigned gepoch[2];
	unsigned char gsum[2][32];
	char *gmissing[2];		/* owned, or NULL */
};

struct wspx__state {
	pthread_mutex_t lock;	/* guards every field below but epoch */
	pthread_cond_t looked;	/* a busy file is done with */
	char *path;		/* the file, as given */
	int fd;			/* the file, to append to */
	int err;		/* an append failed: append no more */
	bool dirty;		/* the file differs from v[]: rewrite it */
	bool older;		/* it was of an older format: rebuilt */
	bool partsread;		/* the parts of the records read at the
				 * start were read (stateread.c) */
	struct entry *v;	/* in the order jobs were first seen */
	size_t n, cap;
	uint32_t *slots;	/* open addressing: index in v + 1, 0 empty */
	size_t nslots;		/* a power of two, at least twice n */
	struct fentry *files;	/* the stat cache, in the order seen */
	size_t nfiles, capfiles;
	struct wspx__strtab filetab;	/* key -> index in files (aux) */
	struct gentry *globs;		/* patterns expanded, in this run */
	size_t nglobs, capglobs;
	struct wspx__strtab globtab;	/* key -> index in globs (aux) */
	/* Bumped as each job ends: a file looked at in an earlier epoch is
	 * looked at again (the job may have written it).  Relaxed: an
	 * atomic read, under the lock or not, with the job's end ordered
	 * before it by the graph's release of its dependents. */
	_Atomic(unsigned) epoch;
};

/* The file entry of key, added (not trusted, epoch 0) if new: its index
 * in st->files, or -ENOMEM.  The lock held. */
long wspx__filecache_entry(struct wspx__state *st, const char *key);

/* Parse a file record (without its newline) into the stat cache: false if
 * it is not one.  The lock held, or st not yet shared. */
bool wspx__filecache_parse(struct wspx__state *st, const char *s,
    size_t len, bool *nomem);

/* The length of the record of fe, newline included, at most; then the
 * record itself into line, returning its length. */
size_t wspx__filecache_max(const struct fentry *fe);
size_t wspx__filecache_format(char *line, const struct fentry *fe);

/* The SHA-256 of the content of the regular file at path (relative to
 * dirfd), through st's stat cache under key (st NULL: none).  Returns 0,
 * -EISDIR for a directory, -EINVAL for another kind of file, -ENOMEM or
 * -errno.  Any thread; see filecache.c. */
int wspx__filecache_hash(struct wspx__state *st, int dirfd, const char *key,
    const char *path, unsigned char sum[32]);

/* wspx__glob() of pattern relative to dirfd, whose key prefix (see
 * wspx__uptodate_files()) is prefix, remembered for the epoch: a pattern
 * that many jobs name is expanded once while no job ends.  Returns as
 * wspx__glob() does, *paths a block of its own.  Any thread. */
int wspx__filecache_glob(struct wspx__state *st, int dirfd,
    const char *prefix, const char *pattern, char ***paths, size_t *n);

/* Whether the cache has the group of pattern (see wspx__filecache_glob())
 * as sources or, if gen, as generated files, made in this epoch: if so,
 * its digest into sum and a copy of its missing file (or NULL) into
 * *missing.  Any thread. */
bool wspx__filecache_group(struct wspx__state *st, const char *prefix,
    const char *pattern, bool gen, unsigned char sum[32], char **missing);

/* Remember that group as made in epoch (read before its files were
 * looked at, so that a job ending meanwhile makes it stale); out of
 * memory, it is not.  Any thread. */
void wspx__filecache_setgroup(struct wspx__state *st, const char *prefix,
    const char *pattern, bool gen, unsigned epoch,
    const unsigned char sum[32], const char *missing);

/* Free st's remembered expansions. */
void wspx__filecache_fini(struct wspx__state *st);

/* Whether the cache knows the file of key in this epoch (not being
 * looked at): if so, its sum and the look's result into *rc.  Any
 * thread. */
bool wspx__filecache_known(struct wspx__state *st, const char *key,
    unsigned char sum[32], int *rc);

/* flock(2) that waits through signals.  0 or -errno. */
int wspx__statefile_lock(int fd, int op);

/* The entry of name, or NULL.  The lock held, or st not yet shared. */
struct entry *wspx__statefile_find(struct wspx__state *st, const char *name);

/* Set name's digest and parts (name copied, parts taken, even on an
 * error), and mark the file dirty if name was there already.  0 or
 * -ENOMEM.  The lock held, or st not yet shared. */
int wspx__statefile_put(struct wspx__state *st, const char *name,
    const unsigned char d[32], char *parts);

/* Read st->fd from its start into st, the file locked (a file to be
 * restarted is emptied, with a header; a cut-off last line is cut away):
 * the job records with their parts if withparts, else without (read
 * later, if asked for, by wspx__stateread_parts()).  0, -EINVAL (not a
 * state file, left alone), -EFBIG, -ENOMEM or -errno. */
int wspx__stateread_load(struct wspx__state *st, bool withparts);

/* Read the parts of the records loaded without them, once (again only
 * after -ENOMEM): the file's records of the same job and digest.  0,
 * -EINVAL (no longer a state file), -EFBIG, -ENOMEM or -errno.  The lock
 * held. */
int wspx__stateread_parts(struct wspx__state *st);

/* A copy of the parts recorded for job (malloc'd), or NULL: none, or out
 * of memory; *found whether job has a record. */
char *wspx__statefile_parts(struct wspx__state *st, const char *job,
    bool *found);

/* Escape s into p (room for 2 * strlen(s)) as names and keys are written
 * in the file; returns the end. */
char *wspx__statefile_escape(char *p, const char *s);

/* Write d[0..n) at p as 2n lower-case hex digits; returns the end. */
char *wspx__statefile_hex(char *p, const unsigned char *d, int n);

/* Parse the 2n lower-case hex digits at s into d[0..n): false if they
 * are not (a NUL stops them). */
bool wspx__statefile_unhex(const char *s, unsigned char *d, int n);

/* Unescape s[0..len) into out (room for len + 1); false if it is not a
 * valid name or key. */
bool wspx__statefile_unescape(const char *s, size_t len, char *out);

#endif /* WSPX_STATE_INT_H */
