/*
 * Waiting for files to change (Linux inotify), for `wspx run --watch`: a
 * set of directories, each watched for the names that match a pattern,
 * and a wait that returns once a change has come and the directory has
 * been quiet for a moment (an editor's save, a checkout, is one change),
 * or when one of the given signals comes.
 */
#ifndef WSPX_FSWATCH_H
#define WSPX_FSWATCH_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

struct wspx__fswatch;

/* An empty set.  Returns 0 and sets *w, or -errno. */
int wspx__fswatch_new(struct wspx__fswatch **w);

/* Watch directory dir (and with recursive each directory under it, as
 * it is now) for a file whose name matches the fnmatch(3) pattern name
 * being written, made, moved or removed.  A directory that is not there
 * is not watched.  Returns 0 or -errno (-ENOSPC: the system's limit on
 * watches). */
int wspx__fswatch_add(struct wspx__fswatch *w, const char *dir,
    bool recursive, const char *name);

/* How many directories are watched. */
size_t wspx__fswatch_count(const struct wspx__fswatch *w);

/* Forget the changes seen so far (those the run that just ended made). */
void wspx__fswatch_drain(struct wspx__fswatch *w);

/* Wait for a change, then until none has come for quiet_ms; or for one
 * of sigs, which the caller has blocked.  Returns 0 with *sig 0 after a
 * change, 0 with *sig the signal, or -errno. */
int wspx__fswatch_wait(struct wspx__fswatch *w, int quiet_ms,
    const sigset_t *sigs, int *sig);

void wspx__fswatch_free(struct wspx__fswatch *w);

#endif /* WSPX_FSWATCH_H */
