/*
 * Starting and reaping job processes with posix_spawn(3).  glibc implements
 * it with a vfork-style clone, so a spawn costs little more than the exec
 * itself, and the exec's own failure comes back as the return value.  A job
 * leads its own process group, so that the terminal's Ctrl-C reaches wspx
 * alone, and wspx forwards exactly one signal to each job's whole group.
 * Threads of this library block signals and wspx ignores SIGPIPE; the
 * child gets the caller's choice of mask and default dispositions back,
 * but for the signals the caller wants to stay ignored (those ignored when
 * wspx started, as under nohup): exec keeps an ignored signal ignored.
 *
 * Every fd the library opens must be close-on-exec from the instant it
 * exists: another thread may be spawning at that moment, and a pipe's write
 * end leaked into its child would hold back this job's end of file.  Hence
 * pipe2(), which needs _GNU_SOURCE, as the platform's calls may in os/
 * alone (tmp.c makes the temporary files).
 */
#define _GNU_SOURCE
#include "proc.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "thread.h"

static void
setupattr(posix_spawnattr_t *attr, const struct wspx__proc_spec *spec)
{
	sigset_t none, reset;
	int sig;

	sigemptyset(&none);
	sigfillset(&reset);
	sigdelset(&reset, SIGKILL);
	sigdelset(&reset, SIGSTOP);
	for (sig = 1; spec->ignore != NULL && sig <= SIGRTMAX; sig++)
		if (sigismember(spec->ignore, sig) == 1)
			sigdelset(&reset, sig);
	WSPX_MUST(posix_spawnattr_init(attr));
	WSPX_MUST(posix_spawnattr_setflags(attr, POSIX_SPAWN_SETPGROUP |
	    POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF));
	WSPX_MUST(posix_spawnattr_setpgroup(attr, 0));
	WSPX_MUST(posix_spawnattr_setsigmask(attr, spec->mask != NULL ?
	    spec->mask : &none));
	WSPX_MUST(posix_spawnattr_setsigdefault(attr, &reset));
}

/* Make fd the child's fd `to`, unless it already is. */
static int
dupto(posix_spawn_file_actions_t *fa, int fd, int to)
{
	if (fd == to)
		return 0;
	return posix_spawn_file_actions_adddup2(fa, fd, to);
}

/* Run the file of spec, which the kernel could not execute, as a shell
 * script, as execvp() does: /bin/sh file args...  Returns 0 or an errno. */
static int
spawnscript(const struct wspx__proc_spec *spec, posix_spawn_file_actions_t *fa,
    posix_spawnattr_t *attr, pid_t *pid)
{
	char **argv;
	size_t n;
	int rc;

	for (n = 0; spec->argv[n] != NULL; n++)
		;
	if ((argv = malloc((n + 2) * sizeof(*argv))) == NULL)
		return ENOMEM;
	argv[0] = (char *)"sh";
	argv[1] = (char *)spec->file;
	memcpy(argv + 2, spec->argv + 1, n * sizeof(*argv));
	rc = posix_spawn(pid, "/bin/sh", fa, attr, argv, spec->envp);
	free(argv);
	return rc;
}

int
wspx__proc_spawn(const struct wspx__proc_spec *spec, pid_t *pid)
{
	posix_spawnattr_t attr;
	posix_spawn_file_actions_t fa;
	int rc;

	setupattr(&attr, spec);
	WSPX_MUST(posix_spawn_file_actions_init(&fa));
	/* (glibc 2.29 and later; an error shows as the exec's -ENOENT, so
	 * the caller checks the directory first, to say which it was) */
	if (spec->dir != NULL)
		WSPX_MUST(posix_spawn_file_actions_addchdir_np(&fa, spec->dir));
	if ((rc = dupto(&fa, spec->in_fd, 0)) == 0 &&
	    (rc = dupto(&fa, spec->out_fd, 1)) == 0 &&
	    (rc = dupto(&fa, spec->err_fd, 2)) == 0) {
		if (spec->search)
			rc = posix_spawnp(pid, spec->file, &fa, &attr,
			    spec->argv, spec->envp);
		else
			rc = posix_spawn(pid, spec->file, &fa, &attr,
			    spec->argv, spec->envp);
		/* no #! line: a script for the shell, to execvp() */
		if (rc == ENOEXEC && spec->argv[0] != NULL)
			rc = spawnscript(spec, &fa, &attr, pid);
	}
	WSPX_MUST(posix_spawn_file_actions_destroy(&fa));
	WSPX_MUST(posix_spawnattr_destroy(&attr));
	return -rc;
}

int
wspx__proc_exited(pid_t pid, bool block)
{
	siginfo_t si;
	int r;

	si.si_pid = 0;
	do {
		r = waitid(P_PID, (id_t)pid, &si, WEXITED | WNOWAIT |
		    (block ? 0 : WNOHANG));
	} while (r < 0 && errno == EINTR);
	if (r < 0)
		return -errno;
	return si.si_pid == pid;
}

int
wspx__proc_reap(pid_t pid, int *status)
{
	pid_t r;

	do {
		r = waitpid(pid, status, 0);
	} while (r < 0 && errno == EINTR);
	return r == pid ? 0 : -errno;
}

int
wspx__proc_signal_group(pid_t pid, int sig)
{
	return kill(-pid, sig) == 0 ? 0 : -errno;
}

int
wspx__proc_pipe(int fds[2])
{
	if (pipe2(fds, O_CLOEXEC) != 0)
		return -errno;
	return 0;
}

size_t
wspx__proc_pipe_grow(int fd)
{
#ifdef F_SETPIPE_SZ
	int n = fcntl(fd, F_SETPIPE_SZ, 1 << 20);

	if (n < 0)
		n = fcntl(fd, F_GETPIPE_SZ);
	return n > 0 ? (size_t)n : 0;
#else
	(void)fd;
	return 0;
#endif
}

void
wspx__proc_widen_pipe(int fd)
{
	struct stat st;

	if (fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode))
		(void)wspx__proc_pipe_grow(fd);
}

int
wspx__proc_reopen(int fd, int flags)
{
	char path[40];
	int r;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if ((r = open(path, flags | O_CLOEXEC)) < 0)
		return -errno;
	return r;
}

int
wspx__proc_exe(pid_t pid, char *buf, size_t n)
{
	static const char deleted[] = " (deleted)";
	size_t d = sizeof(deleted) - 1;
	char link[64];
	ssize_t k;

	snprintf(link, sizeof(link), "/proc/%ld/exe", (long)pid);
	if ((k = readlink(link, buf, n)) < 0)
		return -errno;
	if ((size_t)k >= n)
		return -ENAMETOOLONG;
	buf[k] = '\0';
	/* A program upgraded since it started: its new one is there. */
	if ((size_t)k > d && strcmp(buf + k - d, deleted) == 0)
		buf[k -= (ssize_t)d] = '\0';
	return (int)k;
}

int
wspx__proc_cmdline(pid_t pid, char *buf, size_t n)
{
	char path[64];
	ssize_t k;
	int fd;

	if (n == 0)
		return -EINVAL;
	snprintf(path, sizeof(path), "/proc/%ld/cmdline", (long)pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -errno;
	k = read(fd, buf, n - 1);
	close(fd);
	if (k < 0)
		return -errno;
	buf[k] = '\0';
	return (int)k;
}

int
wspx__proc_write(int fd, const char *p, size_t n, size_t *done)
{
	ssize_t w;

	*done = 0;
	while (*done < n) {
		if ((w = write(fd, p + *done, n - *done)) < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		*done += (size_t)w;
	}
	return 0;
}

int
wspx__proc_writeall(int fd, const char *p, size_t n)
{
	size_t done;

	return wspx__proc_write(fd, p, n, &done);
}
