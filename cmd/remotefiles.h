/*
 * A remote job's --transfer-file, --return and --cleanup files (see
 * remotefiles.c).
 */
#ifndef WSPX_REMOTEFILES_H
#define WSPX_REMOTEFILES_H

#include <stdint.h>

struct args;
struct remote;
struct remoteconf;
struct remotejob;
struct remotefiles;

/* The file templates of rc, read as COMMAND's (plain: -I; flags:
 * template_new's). */
struct remotefiles *remotefiles_new(const struct remoteconf *rc,
    const char *plain, int flags);

/* Copy the job's --transfer-files to its host under dir.  Returns 0, or
 * -errno (a local file that cannot be read, or is not a regular file),
 * -ENOTCONN (ssh's exit 255: the host may be down), or -EIO (the copy
 * failed there). */
int remotefiles_send(struct remotefiles *f, struct remote *rm,
    struct remotejob *rj, const char *dir, const struct args *a,
    uint64_t seq, unsigned slot);

/* Bring the job's --return files back from under dir on its host (each
 * that came back is then the job's, for --cleanup). */
void remotefiles_fetch(struct remotefiles *f, struct remote *rm,
    struct remotejob *rj, const char *dir, const struct args *a,
    uint64_t seq, unsigned slot);

/* --cleanup: remove on the job's host the files it brought back, and
 * those it sent that this run made there and no other job holds; then
 * forget them. */
void remotefiles_cleanup(struct remotefiles *f, struct remote *rm,
    struct remotejob *rj);

/* Forget the job's files, without --cleanup. */
void remotefiles_forget(struct remotefiles *f, struct remotejob *rj);

/* dir/name, or name if it is absolute; malloc'd. */
char *remotefiles_path(const char *dir, const char *name);

void remotefiles_free(struct remotefiles *f);

#endif /* WSPX_REMOTEFILES_H */
