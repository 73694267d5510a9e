/*
 * Thread creation for both pools.  The library's threads block every
 * signal: a program like wspx handles SIGINT, SIGCHLD or SIGUSR1 in a thread
 * of its own choosing, and a pool thread that happened to receive one would
 * run the handler at an arbitrary point of a job.
 */
#include "thread.h"

#include <errno.h>
#include <signal.h>
#include <time.h>
#include <stdlib.h>

int
wspx__thread_start(pthread_t *t, size_t stack_size, void *(*fn)(void *),
    void *arg)
{
	pthread_attr_t attr;
	sigset_t all, old;
	int rc;

	WSPX_MUST(pthread_attr_init(&attr));
	if (stack_size > 0 &&
	    (rc = pthread_attr_setstacksize(&attr, stack_size)) != 0) {
		WSPX_MUST(pthread_attr_destroy(&attr));
		return -rc;
	}
	sigfillset(&all);
	WSPX_MUST(pthread_sigmask(SIG_SETMASK, &all, &old));
	rc = pthread_create(t, &attr, fn, arg);
	WSPX_MUST(pthread_sigmask(SIG_SETMASK, &old, NULL));
	WSPX_MUST(pthread_attr_destroy(&attr));
	return -rc;
}

void
wspx__thread_cond_monotonic(pthread_cond_t *cond)
{
	pthread_condattr_t ca;

	WSPX_MUST(pthread_condattr_init(&ca));
	WSPX_MUST(pthread_condattr_setclock(&ca, CLOCK_MONOTONIC));
	WSPX_MUST(pthread_cond_init(cond, &ca));
	WSPX_MUST(pthread_condattr_destroy(&ca));
}

int
wspx__thread_loop_start(struct wspx__thread_loop *l, void *(*fn)(void *),
    void *arg)
{
	int rc;

	l->ending = false;
	WSPX_MUST(pthread_mutex_init(&l->lock, NULL));
	wspx__thread_cond_monotonic(&l->cond);
	if ((rc = wspx__thread_start(&l->thread, 0, fn, arg)) != 0) {
		WSPX_MUST(pthread_cond_destroy(&l->cond));
		WSPX_MUST(pthread_mutex_destroy(&l->lock));
	}
	return rc;
}

void
wspx__thread_loop_stop(struct wspx__thread_loop *l)
{
	WSPX_MUST(pthread_mutex_lock(&l->lock));
	l->ending = true;
	WSPX_MUST(pthread_cond_signal(&l->cond));
	WSPX_MUST(pthread_mutex_unlock(&l->lock));
	WSPX_MUST(pthread_join(l->thread, NULL));
	WSPX_MUST(pthread_cond_destroy(&l->cond));
	WSPX_MUST(pthread_mutex_destroy(&l->lock));
}
