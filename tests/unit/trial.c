/*
 * A trial in a child process: work that ends is ENDED, work that spins
 * is stopped by the CPU limit (OVERTIME) even with SIGXCPU blocked and
 * ignored in the caller, work that crashes is FAILED, and no child is
 * left behind; what the child writes stays in the child.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "os/trial.h"
#include "test.h"

static void
setone(void *arg)
{
	*(int *)arg = 1;
}

static void
spin(void *arg)
{
	volatile unsigned long *n = arg;

	for (;;)
		++*n;
}

static void
crash(void *arg)
{
	(void)arg;
	abort();
}

/* No child of ours is left, running or unwaited for. */
static bool
nochild(void)
{
	return waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD;
}

static void
test_ended(void)
{
	int x = 0;

	CHECK(wspx__trial(setone, &x, 1) == WSPX_TRIAL_ENDED);
	CHECK(x == 0);
	CHECK(nochild());
}

static void
test_overtime(void)
{
	volatile unsigned long n = 0;
	sigset_t xcpu;

	CHECK(wspx__trial((void (*)(void *))spin, (void *)&n, 1) ==
	    WSPX_TRIAL_OVERTIME);
	CHECK(nochild());
	/* (what wspx's threads inherit: its signals blocked) */
	sigemptyset(&xcpu);
	sigaddset(&xcpu, SIGXCPU);
	CHECK(sigprocmask(SIG_BLOCK, &xcpu, NULL) == 0);
	CHECK(signal(SIGXCPU, SIG_IGN) != SIG_ERR);
	CHECK(wspx__trial((void (*)(void *))spin, (void *)&n, 1) ==
	    WSPX_TRIAL_OVERTIME);
	CHECK(signal(SIGXCPU, SIG_DFL) != SIG_ERR);
	CHECK(sigprocmask(SIG_UNBLOCK, &xcpu, NULL) == 0);
	CHECK(n == 0);
	CHECK(nochild());
}

static void
test_failed(void)
{
	CHECK(wspx__trial(crash, NULL, 1) == WSPX_TRIAL_FAILED);
	CHECK(nochild());
}

int
main(void)
{
	TEST(test_ended(), "a trial that ends, in the child alone");
	TEST(test_overtime(), "a trial that spins is stopped at its CPU "
	    "limit, also with SIGXCPU blocked and ignored");
	TEST(test_failed(), "a trial that crashes failed");
	return test_done();
}
