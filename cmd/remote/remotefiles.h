/*
 * A remote job's --transfer-file, --return and --cleanup files (see
 * remotefiles.c).  They reach the job's host through the caller
 * (remote.c), which knows the connections.
 */
#ifndef WSPX_REMOTEFILES_H
#define WSPX_REMOTEFILES_H

#include <stddef.h>
#include <stdint.h>

struct args;
struct remotefiles;
struct replnames;

/* The files on its host that a job's attempt sent or brought back, to
 * remove with --cleanup; embedded in the job, empty at first. */
struct rfsent {
	char **v;		/* the paths there, malloc'd */
	size_t n;		/* how many */
};

/* A job's attempt on its host, as the caller gives it for a call. */
struct rfjob {
	size_t host;		/* the host's index (files count per host) */
	const char *hostname;	/* its name, for messages */
	struct rfsent *sent;	/* the attempt's files there */
	/* Run cmdline there with ssh, stdin from in_fd and stdout to out_fd
	 * (-1: /dev/null); ssh's last stderr line into err.  Returns ssh's
	 * exit value, or -errno. */
	int (*ssh)(void *ctx, const char *cmdline, int in_fd, int out_fd,
	    char *err, size_t errlen);
	void *ctx;
};

/* The file templates transfer[0..ntransfer) (--transfer-file) and
 * ret[0..nret) (--return), read as COMMAND's (names and flags:
 * template_new's); the arrays are borrowed. */
struct remotefiles *remotefiles_new(const char **transfer, size_t ntransfer,
    const char **ret, size_t nret, const struct replnames *names,
    int flags);

/* Copy the job's --transfer-files to its host under dir.  Returns 0, or
 * -errno (a local file that cannot be read, or is not a regular file),
 * -ENOTCONN (ssh's exit 255: the host may be down), or -EIO (the copy
 * failed there). */
int remotefiles_send(struct remotefiles *f, const struct rfjob *j,
    const char *dir, const struct args *a, uint64_t seq, unsigned slot);

/* Bring the job's --return files back from under dir on its host (each
 * that came back is then the job's, for --cleanup). */
void remotefiles_fetch(struct remotefiles *f, const struct rfjob *j,
    const char *dir, const struct args *a, uint64_t seq, unsigned slot);

/* --cleanup: remove on the job's host the files it brought back, and
 * those it sent that this run made there and no other job holds; then
 * forget them. */
void remotefiles_cleanup(struct remotefiles *f, const struct rfjob *j);

/* Forget the files of the attempt on host (its index), without
 * --cleanup. */
void remotefiles_forget(struct remotefiles *f, size_t host,
    struct rfsent *sent);

/* dir/name, or name if it is absolute; malloc'd. */
char *remotefiles_path(const char *dir, const char *name);

void remotefiles_free(struct remotefiles *f);

#endif /* WSPX_REMOTEFILES_H */
