/*
 * The summary of what failed, printed on stderr at the end of a run in
 * which a job failed: each failed job (the first ones, up to a limit),
 * its command shortened with control characters escaped, how it ended
 * (exit status, "killed by SIGSEGV", its timeout, why it could not start)
 * and the last lines of its stderr; the first to fail marked as such; the
 * jobs cancelled by the halt policy or a signal counted apart.
 */
#ifndef WSPX_FAILURES_H
#define WSPX_FAILURES_H

#include <stddef.h>
#include <stdint.h>

#include "exec/exec.h"
#include "util/buf.h"
#include "util/util.h"

struct failures;

/* The end of a failed job's stderr that failures_add() wants. */
#define FAILURES_TAIL	1024

struct failures *failures_new(void);
void failures_free(struct failures *f);

/* Job seq failed for good (no retry follows) with result res: name is a
 * job file's job's name (or NULL: "job SEQ"), command its text, errtail
 * (n bytes) the end of its stderr.  Any thread. */
void failures_add(struct failures *f, uint64_t seq, const char *name,
    const char *command, const struct wspx__result *res,
    const char *errtail, size_t n);

/* A job was cancelled: skipped, or killed by a stop or a halt.  Any
 * thread. */
void failures_cancelled(struct failures *f);

/* The summary, if a job failed: to b.  why says what cancelled jobs
 * ("by --halt now,fail=1"), or NULL. */
void failures_summary(struct failures *f, struct buf *b, const char *why);

/* Append s (n bytes) to b cut to about max bytes ("..." and the length
 * after the cut) with its control characters escaped (\n, \t, \xHH), so
 * that it shows as one line and cannot drive a terminal. */
void bufescaped(struct buf *b, const char *s, size_t n, size_t max);

/* How a job ended, in words: "exit status 2", "killed by SIGSEGV",
 * "killed after its --timeout (SIGTERM)", "could not start: reason",
 * "exit status 0, but what it left was refused (see its output)". */
void bufhowended(struct buf *b, const struct wspx__result *res);

#endif /* WSPX_FAILURES_H */
