/*
 * Starting the library's threads, as both pools create theirs, and the
 * condition variables that time their waits by the monotonic clock.
 */
#ifndef WSPX_THREAD_H
#define WSPX_THREAD_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>

/* A pthread call that can fail only if the calling code is wrong. */
#define WSPX_MUST(call) do { if ((call) != 0) abort(); } while (0)

/* Start fn(arg) on a new thread with every signal blocked, so that the
 * program's signals reach only its own threads; stack_size 0 keeps the
 * system's default.  Returns 0 or a negative errno value (-EAGAIN when the
 * system is out of threads or memory for a stack). */
int wspx__thread_start(pthread_t *t, size_t stack_size, void *(*fn)(void *),
    void *arg);

/* Initialize cond to time its waits by CLOCK_MONOTONIC, which a change
 * of the time of day does not move. */
void wspx__thread_cond_monotonic(pthread_cond_t *cond);

/* A thread of the library's own that waits on its lock and monotonic
 * condition variable for news until it is told to end (the timer's, the
 * watchdog's).  Its owner embeds it; fn reads ending under the lock. */
struct wspx__thread_loop {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;	/* signalled for news, and for the end */
	bool ending;		/* lock: the owner wants the thread gone */
};

/* Set up l and start fn(arg) on its thread.  Returns 0, or -errno with
 * nothing left to stop. */
int wspx__thread_loop_start(struct wspx__thread_loop *l, void *(*fn)(void *),
    void *arg);

/* Tell l's thread to end (ending set and cond signalled, under the
 * lock), join it, and destroy the lock and cond.  Not from that
 * thread. */
void wspx__thread_loop_stop(struct wspx__thread_loop *l);

#endif /* WSPX_THREAD_H */
