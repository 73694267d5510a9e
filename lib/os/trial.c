/*
 * A trial in a child process (see trial.h).  The limit is RLIMIT_CPU,
 * set in the child alone, soft and hard the same: the kernel then kills
 * the child with SIGKILL at the limit (with a lower soft limit it would
 * first send SIGXCPU, whose default action dumps core and which the
 * child may have inherited blocked or ignored).  It counts the child's
 * own time whatever else the machine does, so a loaded machine does not
 * stop a trial that an idle one lets end; the child's CPU time, from
 * wait4(), tells the limit's SIGKILL from another's (it reads a little
 * under the limit: the kernel checks at a clock tick, and wait4() adds
 * user and system time sampled at ticks).  Its core size limit
 * is 0: a crash would otherwise leave a core file in the caller's
 * directory.  It leaves by exit_group(2) itself, not _exit(): the
 * sanitizers take _exit() over to look for leaks in the whole heap it
 * copied, which in a fuzz target's process took half a second a trial.
 * The wall-time bound, for a child that blocks, waits on a pidfd where
 * the kernel has them (Linux 5.3), else there is none.
 */
#define _GNU_SOURCE	/* syscall(), wait4() */
#include "trial.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define SETUPFAILED 125		/* the child could not set its limits */
#define WALLTIMES 30		/* the wall-time bound, in CPU limits */

/* The child's end, at once. */
static _Noreturn void
leave(int status)
{
	syscall(SYS_exit_group, status);
	_exit(status);	/* (not reached) */
}

/* In the child: the limits, then fn; never returns. */
static _Noreturn void
child(void (*fn)(void *), void *arg, const struct rlimit *cpu)
{
	struct rlimit nocore = { 0, 0 };

	if (setrlimit(RLIMIT_CORE, &nocore) != 0 ||
	    setrlimit(RLIMIT_CPU, cpu) != 0)
		leave(SETUPFAILED);
	fn(arg);
	leave(0);
}

/* Wait up to ms for child pid to end; kill it if it has not.  Returns
 * whether it was killed so. */
static bool
outlived(pid_t pid, long ms)
{
	struct pollfd p = { .events = POLLIN };
	struct timespec now, end;
	int rc;

	if ((p.fd = (int)syscall(SYS_pidfd_open, pid, 0)) < 0)
		return false;
	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += ms / 1000;
	do {
		clock_gettime(CLOCK_MONOTONIC, &now);
		ms = (end.tv_sec - now.tv_sec) * 1000 +
		    (end.tv_nsec - now.tv_nsec) / 1000000;
		rc = poll(&p, 1, ms > 0 ? (int)ms : 0);
	} while (rc < 0 && errno == EINTR);
	close(p.fd);
	if (rc != 0)
		return false;
	kill(pid, SIGKILL);
	return true;
}

int
wspx__trial(void (*fn)(void *), void *arg, unsigned seconds,
    enum wspx_trial *how)
{
	struct rusage ru;
	struct rlimit lim;
	pid_t pid;
	int status;
	bool killed;
	double cpu;

	/* (under a lower hard limit of the caller's, that one; a child's
	 * CPU time starts at 0) */
	if (getrlimit(RLIMIT_CPU, &lim) != 0)
		return -errno;
	if (lim.rlim_max == RLIM_INFINITY || lim.rlim_max > (rlim_t)seconds)
		lim.rlim_max = seconds > 0 ? seconds : 1;
	lim.rlim_cur = lim.rlim_max;
	if ((pid = fork()) < 0)
		return -errno;
	if (pid == 0)
		child(fn, arg, &lim);
	killed = outlived(pid, (long)lim.rlim_max * WALLTIMES * 1000);
	while (wait4(pid, &status, 0, &ru) < 0)
		if (errno != EINTR)
			return -errno;
	if (WIFEXITED(status) && WEXITSTATUS(status) == SETUPFAILED)
		return -EPERM;
	cpu = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
	    (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		*how = WSPX_TRIAL_ENDED;
	else if (killed || (WIFSIGNALED(status) &&
	    WTERMSIG(status) == SIGKILL && cpu >= (double)lim.rlim_max * 0.9))
		*how = WSPX_TRIAL_OVERTIME;
	else
		*how = WSPX_TRIAL_FAILED;
	return 0;
}
