/*
 * Starting the library's threads, as both pools create theirs, and the
 * condition variables that time their waits by the monotonic clock.
 */
#ifndef WSPX_THREAD_H
#define WSPX_THREAD_H

#include <pthread.h>
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

#endif /* WSPX_THREAD_H */
