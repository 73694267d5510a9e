/*
 * The up-to-date check of `wspx run`: a job with `sources` or `generates`
 * is skipped when the digest of its parts equals the one recorded in the
 * state file after its last successful run and every generated file
 * exists.  Its parts are its identity (the lines of its command, shell,
 * environment settings and directory, each a part) and, for its digest,
 * each pattern of its sources and generates (a literal path's file, or
 * the digest of the files a wildcard matches: wspx__uptodate_groups());
 * the record keeps a digest of each identity part and each file, so that
 * --explain can say which one changed.
 *
 * The state file is text.  The first line is "wspx-state 3"; each other
 * line is a record.  A job's: the digest as 64 lower-case hex digits, a
 * tab, the job's name, then for each part a tab, the first 8 bytes of its
 * digest in hex, its kind ('i', 's' or 'g') and its key.  A file's (the
 * stat cache): "@", then tab-separated, its size, mtime and ctime (ns),
 * inode, device, the SHA-256 of its content in hex and its path relative
 * to the job file's directory.  Names, keys and paths are written with a
 * backslash as "\\", a tab "\t", a newline "\n" and a carriage return
 * "\r".  Records are appended as jobs finish, so a name may appear more
 * than once: the last one counts.  A line that is not a record, or lacks
 * its final newline, is ignored.  A file of format 1 (no parts, no stat
 * cache, another digest) or 2 (a job's digest over each of its files) is
 * emptied: every job runs once.
 *
 * The stat cache is git's index's: a file whose stat is what it was when
 * its content was hashed is not read again.  A file written so recently,
 * when it was hashed, that a later write could leave its times as they
 * were (the racy case: within 2 s, the coarsest granularity of a file
 * system's times) is hashed again the next time.
 */
#ifndef WSPX_UPTODATE_H
#define WSPX_UPTODATE_H

#include <stdbool.h>
#include <stddef.h>

struct wspx__state;
struct wspx_worker;

/* A part of a job's digest. */
struct wspx__part {
	char kind;		/* 'i' identity, 's' source, 'g' generated */
	char tag;		/* a file's: 'f' a file, 'd' a directory,
				 * 'm' missing; 0 for identity */
	char *key;		/* "run", "env CC", or the file's path;
				 * owned */
	unsigned char sum[32];	/* an identity's value's SHA-256, a file's
				 * content's, or zero */
};

/* A job's parts, in the order they are digested. */
struct wspx__parts {
	struct wspx__part *v;
	size_t n, cap;
};

/* Add a part (key copied) to p.  0 or -ENOMEM. */
int wspx__uptodate_addpart(struct wspx__parts *p, char kind, char tag,
    const char *key, const unsigned char sum[32]);

/* Add an identity part: key, and the SHA-256 of value.  0 or -ENOMEM. */
int wspx__uptodate_identity(struct wspx__parts *p, const char *key,
    const char *value);

/* Free the parts of p; p is then empty. */
void wspx__uptodate_freeparts(struct wspx__parts *p);

/* The digest of a job: SHA-256 over a version tag and each part in
 * order (kind, tag, key and its digest). */
void wspx__uptodate_sum(const struct wspx__parts *p, unsigned char out[32]);

/* Open the state file at path (borrowed) and read it into *st; it stays
 * open for appending records, so one that cannot be written is an error
 * before any job runs.  A file that does not exist is created, with a
 * header.  A line that is not a record is ignored; so is a cut-off last
 * line, which is cut away so that the next record starts a line.  A
 * cut-off header is rewritten; a file of format 1 is emptied (see
 * wspx__statefile_older()).  Other runs may use the same file at the same
 * time (see statefile.c).  Returns 0, -ENOMEM, -errno opening, reading
 * or writing it, -ELOOP if it is a symbolic link (not followed), -ENXIO
 * if it is not a regular file, -EFBIG if it is larger than 256 MiB, or
 * -EINVAL if its first line is not a header (not a state file).  The
 * file is left alone on an error. */
int wspx__statefile_open(struct wspx__state **st, const char *path);

/* Whether the file was of format 1, and was emptied. */
bool wspx__statefile_older(const struct wspx__state *st);

/* Copy the digest last recorded for job into digest and return true, or
 * return false if there is none.  Any thread, concurrently with records;
 * O(1). */
bool wspx__statefile_lookup(struct wspx__state *st, const char *job,
    unsigned char digest[32]);

/* Why job's parts now differ from its record, for --explain: "no record",
 * "env CC changed", "src/a.c changed", "out/a.o missing", "src/b.c is
 * new", ..., the first in the order of now, then " (and N more)"; or NULL
 * if none differs (or out of memory).  malloc'd.  Any thread. */
char *wspx__explain_job(struct wspx__state *st, const char *job,
    const struct wspx__parts *now);

/* Record digest and parts (NULL: none) for job, in memory and by
 * appending one line to the file, with the stat cache's new files, with
 * one write(2), so that a run killed midway keeps what finished.  Any
 * thread, concurrently.  Returns 0; -EINVAL for an empty name or -ENOMEM
 * (nothing recorded, or recorded in memory only and lost at close: the
 * job runs again next time); or -errno writing the file (recorded in
 * memory all the same, for wspx__statefile_close() to save; later
 * records are then kept in memory only). */
int wspx__statefile_record(struct wspx__state *st, const char *job,
    const unsigned char digest[32], const struct wspx__parts *parts);

/* A job ended: files looked at before are looked at again.  Any thread. */
void wspx__statefile_epoch(struct wspx__state *st);

/* If anything changed (a record, a file hashed, or duplicate or corrupt
 * lines read), rewrite the file with one line per job and per file, the
 * last record of each in the file as it is now (another run's included),
 * jobs in the order first seen, in place and synced.  Then free st,
 * whatever the outcome.  No other thread may use st once this has begun.
 * Returns 0 or -errno (the file is then as the appends left it, still
 * valid).  NULL does nothing. */
int wspx__statefile_close(struct wspx__state *st);

/* Expand the patterns pats[0..n) (sources, or generated files if gen)
 * relative to dirfd (AT_FDCWD allowed) with wspx__glob() (a pattern with
 * no wildcard is looked up, not expanded), merge, sort by strcmp() and
 * deduplicate their paths, and add a part for each to out.  A directory
 * is its path only.  Contents are hashed through st's stat cache (NULL:
 * none), each file's key there its path after prefix ("" or a job's
 * directory and '/'), in parallel: w is the calling worker of a pool
 * (wspx_join() halves the list), or NULL to hash on this thread.
 * Borrows everything.  Any thread.
 *
 * Returns 0 with *missing NULL if every file exists, or with *missing the
 * first generated path that does not (a literal path, or a pattern that
 * matched nothing; its part's tag is 'm').  Returns -errno, parts
 * undefined, if a part cannot be made: -ENOENT if a source pattern
 * matched nothing or a source does not exist, or the error expanding a
 * pattern (wspx__glob()) or reading a file.  *missing then names the
 * pattern or path at fault (the first in order), or is NULL for -ENOMEM.
 * *missing is malloc'd, the caller's to free. */
int wspx__uptodate_files(struct wspx__state *st, struct wspx_worker *w,
    int dirfd, const char *prefix, const char *const *pats, size_t n,
    bool gen, struct wspx__parts *out, char **missing);

/* The parts of pats[0..n) as a job's digest takes them: each pattern
 * once, in strcmp() order; a literal path's part as
 * wspx__uptodate_files() makes it; a pattern with a wildcard (or a
 * directory's) one part, kind 's' or 'g', tag 'p', key the pattern, its
 * digest that of the parts wspx__uptodate_files() makes of its files.
 * Through st (NULL: none), a pattern's group is made once per epoch,
 * however many jobs name it: a graph of a hundred compile jobs that each
 * name all the headers hashes their parts once, not a hundred times.  The
 * parts of each file, for --explain, are wspx__uptodate_files()'s.
 * Returns as that does; *missing the culprit of an error, else the first
 * missing generated file, in that order. */
int wspx__uptodate_groups(struct wspx__state *st, struct wspx_worker *w,
    int dirfd, const char *prefix, const char *const *pats, size_t n,
    bool gen, struct wspx__parts *out, char **missing);

/* The digest of a job of one identity part, command, sources and
 * generates, with no stat cache: wspx__uptodate_groups() for both, into
 * out.  Returns as that does. */
int wspx__uptodate_digest(struct wspx_worker *w, int dirfd,
    const char *const *sources, size_t nsources,
    const char *const *generates, size_t ngenerates, const char *command,
    unsigned char out[32], char **missing);

#endif /* WSPX_UPTODATE_H */
