/*
 * The up-to-date check of `wspx run`: a job with `sources` or `generates`
 * is skipped when the digest of its command, sources and generated files
 * equals the one recorded in the state file after its last successful run
 * and every generated file exists.
 *
 * The state file is text.  The first line is "wspx-state 1"; each other
 * line is one record, "HEX<TAB>NAME": the digest as 64 lower-case hex
 * digits, then the job's name with a backslash written "\\", a tab "\t",
 * a newline "\n" and a carriage return "\r".  Records are appended as jobs
 * finish, so a name may appear more than once: the last one counts.  A
 * line that is not such a record, or lacks its final newline, is ignored.
 */
#ifndef WSPX_UPTODATE_H
#define WSPX_UPTODATE_H

#include <stdbool.h>
#include <stddef.h>

struct wspx__state;
struct wspx_worker;

/* Open the state file at path (borrowed) and read it into *st; it stays
 * open for appending records, so one that cannot be written is an error
 * before any job runs.  A file that does not exist is created, with a
 * header.  A line that is not a record is ignored; so is a cut-off last
 * line, which is cut away so that the next record starts a line.  A cut-off header is rewritten.  Other runs may use the
 * same file at the same time (see uptodate.c).  Returns 0, -ENOMEM,
 * -errno opening, reading or writing it, -ELOOP if it is a symbolic link
 * (not followed), -ENXIO if it is not a regular file, -EFBIG if it is
 * larger than 256 MiB, or -EINVAL if its first line is not the header
 * (not a state file).  The file is left alone on an error. */
int wspx__uptodate_open(struct wspx__state **st, const char *path);

/* Copy the digest last recorded for job into digest and return true, or
 * return false if there is none.  Any thread, concurrently with records;
 * O(1). */
bool wspx__uptodate_lookup(struct wspx__state *st, const char *job,
    unsigned char digest[32]);

/* Record digest for job, in memory and by appending one line to the file
 * with one write(2), so that a run killed midway keeps what finished.  Any
 * thread, concurrently.  Returns 0; -EINVAL for an empty name or -ENOMEM
 * (nothing recorded); or -errno writing the file (recorded in memory all
 * the same, for wspx__uptodate_close() to save; later records are then kept
 * in memory only). */
int wspx__uptodate_record(struct wspx__state *st, const char *job,
    const unsigned char digest[32]);

/* If anything changed (a record, or duplicate or corrupt lines read),
 * rewrite the file with one line per job, the last record of each in the
 * file as it is now (another run's included), in the order jobs were
 * first seen, in place and synced.  Then free st, whatever the outcome.
 * No other thread may use st once this has begun.  Returns 0 or -errno
 * (the file is then as the appends left it, still valid).  NULL does
 * nothing. */
int wspx__uptodate_close(struct wspx__state *st);

/* The digest of a job into out: SHA-256 over a version tag, its command,
 * then each source file in strcmp() order of path (its path, then the
 * SHA-256 of its content), then each generated file likewise.  Patterns
 * are expanded with wspx__glob(); the paths of all of sources (and of all
 * of generates) are merged, sorted and deduplicated.  A directory
 * contributes its path only.  Files are hashed in parallel: w is the
 * calling worker of a pool (wspx_join() halves the list), or NULL to hash
 * on this thread.  Borrows everything; dirfd is where relative patterns
 * start (AT_FDCWD allowed).  Any thread.
 *
 * Returns 0 with *missing NULL if every generated file exists, or with
 * *missing the first (in that order) generated path that does not: a
 * literal path, or a pattern that matched nothing; out is valid either way
 * (a missing file contributes its path and a marker).  Returns -errno, out
 * undefined, when the digest cannot be made: -ENOENT if a source pattern
 * matched nothing or a source does not exist (a literal, or a dangling
 * symbolic link that a pattern matched), or the error expanding a pattern
 * (wspx__glob()) or opening or reading a source or an existing generated
 * file.  *missing then names the pattern or path at fault (the first in
 * order), or is NULL for -ENOMEM.  *missing is malloc'd, the caller's to
 * free. */
int wspx__uptodate_digest(struct wspx_worker *w, int dirfd,
    const char *const *sources, size_t nsources,
    const char *const *generates, size_t ngenerates, const char *command,
    unsigned char out[32], char **missing);

#endif /* WSPX_UPTODATE_H */
