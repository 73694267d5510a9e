/*
 * Unit tests for the timer: jobs are injected in the order of their
 * deadlines and never before them, from many adding threads at once;
 * a job may add itself again; an earlier deadline added later shortens the
 * wait; fire_all injects what is pending at once, and what is added after
 * it waits for its deadline again; free injects what is left.
 *
 * usage: timer [threads [timeouts]]
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/clock.h"
#include "runtime/timer.h"
#include "test.h"
#include "wspx.h"

static struct wspx_pool *pool;

/* A timeout that notes when its job ran, and in which place. */
struct tick {
	struct wspx__timeout e;
	struct wspx_job job;
	int64_t ran;
	long order;
	int again;		/* times left to add itself again */
	struct wspx__timer *t;
};

static _Atomic(long) ran;	/* jobs run so far */
static _Atomic(long) seq;	/* places handed out */

static void
ticked(struct wspx_worker *w, struct wspx_job *job)
{
	struct tick *k = wspx_container_of(job, struct tick, job);

	(void)w;
	k->ran = wspx__clock_now();
	if (k->again > 0) {
		k->again--;
		wspx__timer_add(k->t, &k->e, k->ran + 1000000, &k->job);
		return;
	}
	/* relaxed: the place only; ran publishes it. */
	k->order = atomic_fetch_add_explicit(&seq, 1, memory_order_relaxed);
	/* release: ran and order are written before the count, which the
	 * test reads with acquire in waitran(). */
	atomic_fetch_add_explicit(&ran, 1, memory_order_release);
}

static void
add(struct wspx__timer *t, struct tick *k, int64_t at)
{
	k->job.run = ticked;
	k->t = t;
	wspx__timer_add(t, &k->e, at, &k->job);
}

static void
waitran(long n)
{
	double t0 = test_now();

	while (atomic_load_explicit(&ran, memory_order_acquire) < n &&
	    test_now() - t0 < 10)
		sched_yield();
	CHECK(atomic_load_explicit(&ran, memory_order_acquire) == n);
}

static void
test_order(void)
{
	/* 50 ms apart: the order jobs run in is the order they were
	 * injected in only for jobs injected apart (one batch of due jobs
	 * runs in the pool's order). */
	static const int ms[] = { 250, 50, 200, 100, 150, 0, 300 };
	struct tick k[7];
	struct wspx__timer *t;
	int64_t now = wspx__clock_now();
	int i;

	memset(k, 0, sizeof(k));
	atomic_store(&ran, 0);
	atomic_store(&seq, 0);
	CHECK(wspx__timer_new(&t, pool) == 0);
	for (i = 0; i < 7; i++)
		add(t, &k[i], now + ms[i] * 1000000);
	waitran(7);
	for (i = 0; i < 7; i++) {
		CHECK(k[i].ran >= now + ms[i] * 1000000);
		CHECK(k[i].order == ms[i] / 50);
	}
	wspx__timer_free(t);
}

/* A later add of an earlier deadline wakes the thread to wait less. */
static void
test_shorten(void)
{
	struct tick far, near;
	struct wspx__timer *t;
	int64_t now = wspx__clock_now();

	memset(&far, 0, sizeof(far));
	memset(&near, 0, sizeof(near));
	atomic_store(&ran, 0);
	CHECK(wspx__timer_new(&t, pool) == 0);
	add(t, &far, now + 5000000000);
	add(t, &near, now + 20000000);
	waitran(1);
	CHECK(near.ran >= now + 20000000 && near.ran < now + 2000000000);
	wspx__timer_fire_all(t);
	waitran(2);
	CHECK(far.ran < now + 2000000000);
	/* After fire_all, an add waits for its deadline again. */
	add(t, &far, wspx__clock_now() + 30000000);
	waitran(3);
	CHECK(far.ran >= far.e.at);
	wspx__timer_free(t);
}

struct adder {
	struct wspx__timer *t;
	struct tick *k;
	long n;
	unsigned seed;
};

static void *
adding(void *arg)
{
	struct adder *a = arg;
	int64_t now = wspx__clock_now();
	long i;

	for (i = 0; i < a->n; i++) {
		a->seed = a->seed * 1103515245 + 12345;
		a->k[i].again = (int)(a->seed >> 16) % 3;
		add(a->t, &a->k[i], now + (a->seed >> 8) % 100000000);
	}
	return NULL;
}

/* Threads add timeouts at random times, some of which add themselves
 * again from their job: every one runs, once, after its deadline. */
static void
test_many(long threads, long n)
{
	struct adder *a = calloc((size_t)threads, sizeof(*a));
	pthread_t *th = calloc((size_t)threads, sizeof(*th));
	struct wspx__timer *t;
	long i, j;

	atomic_store(&ran, 0);
	CHECK(wspx__timer_new(&t, pool) == 0);
	for (i = 0; i < threads; i++) {
		a[i] = (struct adder){ t, calloc((size_t)n,
		    sizeof(struct tick)), n, (unsigned)i + 1 };
		pthread_create(&th[i], NULL, adding, &a[i]);
	}
	for (i = 0; i < threads; i++)
		pthread_join(th[i], NULL);
	waitran(threads * n);
	for (i = 0; i < threads; i++) {
		for (j = 0; j < n; j++)
			CHECK(a[i].k[j].ran >= a[i].k[j].e.at &&
			    a[i].k[j].again == 0);
		free(a[i].k);
	}
	wspx__timer_free(t);
	free(a);
	free(th);
}

/* Free injects what is still pending, at once. */
static void
test_free(void)
{
	struct tick k[100];
	struct wspx__timer *t;
	int64_t now = wspx__clock_now();
	int i;

	memset(k, 0, sizeof(k));
	atomic_store(&ran, 0);
	CHECK(wspx__timer_new(&t, pool) == 0);
	for (i = 0; i < 100; i++)
		add(t, &k[i], now + 3600000000000 + i);
	wspx__timer_free(t);
	waitran(100);
	CHECK(test_now() * 1e9 < (double)now + 2e9);
	wspx__timer_free(NULL);
}

int
main(int argc, char **argv)
{
	struct wspx_pool_opts o = { .workers = 2 };
	long threads = test_arg(argc, argv, 1, 4);
	long n = test_arg(argc, argv, 2, 2000);

	if (wspx_pool_new(&pool, &o) != 0) {
		fprintf(stderr, "timer: no pool\n");
		return 2;
	}
	TEST(test_order(), "jobs run in deadline order, not before");
	TEST(test_shorten(), "an earlier deadline shortens the wait; "
	    "fire_all");
	TEST(test_many(threads, n), "%ld threads add %ld timeouts each",
	    threads, n);
	TEST(test_free(), "free injects what is pending");
	wspx_pool_free(pool);
	return test_done();
}
