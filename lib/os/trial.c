/*
 * A trial in a child process (see trial.h).  The limit is RLIMIT_CPU,
 * set in the child alone: it counts the child's own time whatever else
 * the machine does, so a loaded machine does not stop a trial that an
 * idle one lets end.  The child may have inherited SIGXCPU blocked or
 * handled (wspx blocks the signals it handles in every thread but one):
 * both are undone, and the hard limit a second later, SIGKILL, ends it
 * whatever fn did to them.  Its core size limit is 0: SIGXCPU and a
 * crash would otherwise leave a core file in the caller's directory.
 * It leaves by exit_group(2) itself, not _exit(): the sanitizers take
 * _exit() over to look for leaks in the whole heap it copied, which in
 * a fuzz target's process took half a second for each trial.
 */
#define _GNU_SOURCE	/* syscall() */
#include "trial.h"

#include <errno.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* The child's end, at once. */
static _Noreturn void
leave(int status)
{
	syscall(SYS_exit_group, status);
	_exit(status);	/* (not reached) */
}

/* In the child: the limit, then fn; never returns. */
static void
child(void (*fn)(void *), void *arg, unsigned seconds)
{
	struct rlimit lim, nocore = { 0, 0 };
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	sigset_t xcpu;

	/* (under a lower hard limit of the caller's, that one; a child's
	 * CPU time starts at 0) */
	if (getrlimit(RLIMIT_CPU, &lim) != 0)
		leave(127);
	if (lim.rlim_max == RLIM_INFINITY || lim.rlim_max > seconds + 1)
		lim.rlim_max = (rlim_t)seconds + 1;
	lim.rlim_cur = lim.rlim_max > seconds ? seconds : lim.rlim_max;
	sigemptyset(&xcpu);
	sigaddset(&xcpu, SIGXCPU);
	if (sigaction(SIGXCPU, &dfl, NULL) != 0 ||
	    sigprocmask(SIG_UNBLOCK, &xcpu, NULL) != 0 ||
	    setrlimit(RLIMIT_CORE, &nocore) != 0 ||
	    setrlimit(RLIMIT_CPU, &lim) != 0)
		leave(127);
	fn(arg);
	leave(0);
}

int
wspx__trial(void (*fn)(void *), void *arg, unsigned seconds)
{
	pid_t pid;
	int status;

	if (seconds == 0)
		seconds = 1;
	if ((pid = fork()) < 0)
		return -errno;
	if (pid == 0)
		child(fn, arg, seconds);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return WSPX_TRIAL_ENDED;
	if (WIFSIGNALED(status) && (WTERMSIG(status) == SIGXCPU ||
	    WTERMSIG(status) == SIGKILL))
		return WSPX_TRIAL_OVERTIME;
	return WSPX_TRIAL_FAILED;
}
