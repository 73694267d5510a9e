/*
 * A trial in a child process: work that ends is ENDED, in the child
 * alone; work that spins is stopped by the CPU limit (OVERTIME) after
 * about that much CPU time, also with SIGXCPU blocked and ignored in the
 * caller; work that crashes, or that something else kills, is FAILED;
 * and no child is left behind.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/time.h>
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
	volatile unsigned long n = 0;

	(void)arg;
	for (;;)
		n++;
}

static void
crash(void *arg)
{
	(void)arg;
	abort();
}

static void
killself(void *arg)
{
	(void)arg;
	kill(getpid(), SIGKILL);
}

/* No child of ours is left, running or unwaited for. */
static bool
nochild(void)
{
	return waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD;
}

/* The CPU time of the children waited for so far, in seconds. */
static double
childcpu(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_CHILDREN, &ru) != 0)
		return -1;
	return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
	    (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

static void
test_ended(void)
{
	enum wspx_trial how = WSPX_TRIAL_FAILED;
	int x = 0;

	CHECK(wspx__trial(setone, &x, 1, &how) == 0);
	CHECK(how == WSPX_TRIAL_ENDED);
	CHECK(x == 0);
	CHECK(nochild());
}

/* A spinning trial stopped at its limit: after 1 s of CPU, not 2 (a
 * second past a limit it missed, the hard limit would stop it too). */
static void
overtime(void)
{
	enum wspx_trial how = WSPX_TRIAL_ENDED;
	double before = childcpu(), used;

	CHECK(wspx__trial(spin, NULL, 1, &how) == 0);
	CHECK(how == WSPX_TRIAL_OVERTIME);
	used = childcpu() - before;
	CHECK(used >= 0.8 && used < 1.5);
	CHECK(nochild());
}

static void
test_overtime(void)
{
	sigset_t xcpu;

	overtime();
	/* (what wspx's threads inherit: its signals blocked) */
	sigemptyset(&xcpu);
	sigaddset(&xcpu, SIGXCPU);
	CHECK(sigprocmask(SIG_BLOCK, &xcpu, NULL) == 0);
	CHECK(signal(SIGXCPU, SIG_IGN) != SIG_ERR);
	overtime();
	CHECK(signal(SIGXCPU, SIG_DFL) != SIG_ERR);
	CHECK(sigprocmask(SIG_UNBLOCK, &xcpu, NULL) == 0);
}

static void
test_failed(void)
{
	enum wspx_trial how = WSPX_TRIAL_ENDED;

	CHECK(wspx__trial(crash, NULL, 1, &how) == 0);
	CHECK(how == WSPX_TRIAL_FAILED);
	CHECK(nochild());
	/* (a SIGKILL before the limit is not the limit's) */
	how = WSPX_TRIAL_ENDED;
	CHECK(wspx__trial(killself, NULL, 1, &how) == 0);
	CHECK(how == WSPX_TRIAL_FAILED);
	CHECK(nochild());
}

int
main(void)
{
	TEST(test_ended(), "a trial that ends, in the child alone");
	TEST(test_overtime(), "a trial that spins is stopped at its CPU "
	    "limit, also with SIGXCPU blocked and ignored");
	TEST(test_failed(), "a trial that crashes or is killed failed");
	return test_done();
}
