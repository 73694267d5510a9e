/*
 * Child processes for jobs: start one in its own process group, wait for
 * it, signal its group.  The platform's spawning primitive (a vfork-style
 * clone, on a stack each thread keeps) stays behind this header.
 */
#ifndef WSPX_PROC_H
#define WSPX_PROC_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* What to start.  The fds are the caller's and stay open in the parent. */
struct wspx__proc_spec {
	const char *file;	/* program; looked up in path if search */
	char *const *argv;	/* argv[0] first, NULL-terminated */
	char *const *envp;	/* the child's environment */
	bool search;		/* look file up in path when it has no '/',
				 * as execvp() does */
	const char *path;	/* a PATH value; NULL: the PATH of envp */
	int in_fd;		/* the child's stdin */
	int out_fd;		/* the child's stdout */
	int err_fd;		/* the child's stderr */
	const sigset_t *ignore;	/* signals it keeps ignored, or NULL */
	const sigset_t *mask;	/* its signal mask; NULL: none blocked */
	const char *dir;	/* the directory it starts in, or NULL */
	bool samegroup;		/* stay in the caller's process group, as
				 * a job that reads the terminal must
				 * (then signals reach it alone) */
	bool renice;		/* set its niceness to nice (a failure,
				 * such as lowering it unprivileged, is
				 * ignored: it keeps ours) */
	int nice;
};

/* The value of PATH in envp, or NULL. */
const char *wspx__proc_envpath(char *const *envp);

/* Start spec as a child that leads a new process group, with every signal
 * at its default disposition but those of spec->ignore, which stay as the
 * caller has them (ignored), the signal mask spec->mask, and only fds 0-2
 * open (the library opens everything else close-on-exec).  Any thread.
 * Returns 0 and sets *pid, or the negative errno value of the failure,
 * including the program's own exec failure (-ENOENT, -EACCES, -ENOEXEC,
 * ...). */
int wspx__proc_spawn(const struct wspx__proc_spec *spec, pid_t *pid);

/* Start "/bin/sh -c cmd", a helper of wspx's own (a --compress filter),
 * with stdin in_fd, stdout out_fd, wspx's stderr and environment, every
 * signal at its default, in a process group of its own (the terminal's
 * Ctrl-C reaches wspx, which lets it finish).  Returns 0 and sets *pid,
 * or -errno. */
int wspx__proc_sh(const char *cmd, int in_fd, int out_fd, pid_t *pid);

/* Whether the child pid has ended, without reaping it: while it is not
 * reaped its process id, and its group's, cannot be reused, so its group
 * can still be signalled safely.  With block, wait until it ends.  Returns
 * 1 if it ended, 0 if not (only without block), or a negative errno value. */
int wspx__proc_exited(pid_t pid, bool block);

/* Reap the child pid, waiting for it to end, and set *status (a wait
 * status).  Returns 0 or a negative errno value. */
int wspx__proc_reap(pid_t pid, int *status);

/* Send sig to the process group led by pid, or to pid alone if it leads
 * none (it stayed in ours: samegroup); pid must not have been reaped.
 * Returns 0 or a negative errno value (-ESRCH once it is all gone). */
int wspx__proc_signal_group(pid_t pid, int sig);

/* Open a pipe whose two ends are close-on-exec.  Returns 0 or -errno. */
int wspx__proc_pipe(int fds[2]);

/* Ask for 1 MiB of room in the pipe fd (best effort: the kernel may
 * refuse, over /proc/sys/fs/pipe-max-size).  Returns the room it has then,
 * in bytes, or 0 if unknown. */
size_t wspx__proc_pipe_grow(int fd);

/* If fd is a pipe, ask for 1 MiB of room in it (best effort): a reader
 * that takes big outputs from wspx then wakes up less often. */
void wspx__proc_widen_pipe(int fd);

/* Open a new description of what fd refers to (through /proc/self/fd),
 * with flags and O_CLOEXEC: a pipe's end of one's own, whose O_NONBLOCK
 * no other holder of fd sees.  Returns the new fd or -errno. */
int wspx__proc_reopen(int fd, int flags);

/* The path of the program that process pid runs (/proc/PID/exe), into
 * buf of n bytes, without the " (deleted)" of a program replaced since it
 * started.  Returns its length, or -errno (-ENAMETOOLONG if it does not
 * fit). */
int wspx__proc_exe(pid_t pid, char *buf, size_t n);

/* The arguments of process pid (/proc/PID/cmdline), NUL-separated, into
 * buf of n bytes, NUL-terminated and cut to fit.  Returns their length,
 * or -errno. */
int wspx__proc_cmdline(pid_t pid, char *buf, size_t n);

/* Write all n bytes of p to fd, again after EINTR, and set *done to how
 * many were written (n unless it fails).  Returns 0 or -errno. */
int wspx__proc_write(int fd, const char *p, size_t n, size_t *done);

/* wspx__proc_write() when the count does not matter. */
int wspx__proc_writeall(int fd, const char *p, size_t n);

#endif /* WSPX_PROC_H */
