/*
 * --results DIR: each job's stdout, stderr and exit status kept in files
 * of DIR/<seq>/ (stdout, stderr, exitval), written by the job itself: its
 * stdout and stderr are those files.  Everything under DIR is reached from
 * a descriptor of DIR with openat() and O_NOFOLLOW, so a symbolic link
 * planted in DIR or under it is refused, never followed; so is a file that
 * is not a regular one or has another hard link.  Files and directories
 * are created with the user's umask.
 */
#ifndef WSPX_RESULTS_H
#define WSPX_RESULTS_H

#include <stddef.h>
#include <stdint.h>

struct wspx__results;

/* One job's open files: its directory, stdout and stderr (-1: none). */
struct wspx__resultfiles {
	int dir;
	int out;
	int err;
};

/* The files of a job that has none open. */
#define WSPX__RESULTFILES_NONE { -1, -1, -1 }

/* Open the directory path for results, creating it and its parents if
 * missing (path itself may be a symbolic link: the user named it).
 * failed(ctx, err), if not NULL, is called once, at the first failure
 * of a job's files, from the thread that met it; it must not print.
 * Returns 0 and sets *r, or -errno. */
int wspx__results_open(struct wspx__results **r, const char *path,
    void (*failed)(void *ctx, int err), void *ctx);

/* Close r's directory and free r (NULL: nothing). */
void wspx__results_free(struct wspx__results *r);

/* Open job seq's directory and its stdout and stderr, emptied, for an
 * attempt of the job.  Any thread.  Returns 0 and fills f, or -errno
 * (f then holds no open file; the error is kept, see below). */
int wspx__results_start(struct wspx__results *r, uint64_t seq,
    struct wspx__resultfiles *f);

/* The attempt is over: write exitval (as text, with a newline) to the
 * job's exitval file and close f.  Returns 0 or -errno (kept too). */
int wspx__results_end(struct wspx__results *r, uint64_t seq,
    struct wspx__resultfiles *f, int exitval);

/* The sizes of the job's stdout and stderr files so far. */
void wspx__results_sizes(const struct wspx__resultfiles *f, uint64_t *out,
    uint64_t *err);

/* Copy up to n of the last bytes of the job's stderr file into buf.
 * Returns how many. */
size_t wspx__results_errtail(const struct wspx__resultfiles *f, char *buf,
    size_t n);

/* The first error met with a job's files (-errno, or 0), and the file's
 * path (DIR/seq/name) in buf, of size n. */
int wspx__results_error(struct wspx__results *r, char *buf, size_t n);

#endif /* WSPX_RESULTS_H */
