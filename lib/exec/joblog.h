/*
 * The joblog, in GNU parallel's format: a header line, then one line per
 * attempt of a job, tab-separated: Seq Host Starttime JobRuntime Send
 * Receive Exitval Signal Command.  Writing appends each row with one
 * write(2), so that what a crash leaves is whole rows; reading gives the
 * rows to a callback, for --resume and its kin.
 */
#ifndef WSPX_JOBLOG_H
#define WSPX_JOBLOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct wspx__joblog;

/* One row.  Exitval is -1 and signal the signal sent for a job wspx
 * killed. */
struct wspx__joblog_row {
	uint64_t seq;
	const char *host;	/* ":" for this machine */
	double start;		/* Unix time, seconds */
	double runtime;		/* seconds */
	uint64_t send;		/* bytes sent to the job's stdin */
	uint64_t receive;	/* bytes of its stdout */
	int exitval;
	int signal;
	const char *command;	/* newlines are written as spaces */
};

/* Open path for rows: truncated and given a header, or with append
 * added to (a header only if it is empty).  Returns 0 and sets *jl, or
 * -errno. */
int wspx__joblog_open(struct wspx__joblog **jl, const char *path,
    bool append);

/* Append a row with one write.  Any thread.  Returns 0 or -errno (the
 * first error is also kept for wspx__joblog_close()). */
int wspx__joblog_write(struct wspx__joblog *jl,
    const struct wspx__joblog_row *row);

/* The header line, newline included. */
const char *wspx__joblog_header(void);

/* The row as its line, newline included, in a string of *len bytes (the
 * caller frees it), or NULL for no memory; for a joblog written
 * elsewhere (--joblog - puts each row after its job's output). */
char *wspx__joblog_line(const struct wspx__joblog_row *row, size_t *len);

/* Close jl (NULL: nothing).  Returns 0, or the first error writing or
 * closing. */
int wspx__joblog_close(struct wspx__joblog *jl);

/* Called for each row read; row->command points into the reader's
 * buffer, valid during the call.  Returns 0, or nonzero to stop. */
typedef int wspx__joblog_fn(void *ctx, const struct wspx__joblog_row *row);

/* Read the joblog at path, giving each row to fn.  A file that does not
 * exist or is empty has no rows.  Returns 0; -errno if it cannot be read
 * (*line 0); -EINVAL if line *line is not a header or row (the header
 * must be the first line); or what fn returned. */
int wspx__joblog_read(const char *path, wspx__joblog_fn *fn, void *ctx,
    size_t *line);

#endif /* WSPX_JOBLOG_H */
