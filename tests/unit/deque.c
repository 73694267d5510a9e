/*
 * Unit tests for the Chase-Lev deque: the order of push, pop and steal on
 * one thread, and conservation under concurrency: every job taken exactly
 * once, never lost, never twice, with many thieves (more threads than
 * cores) racing the owner's pops and the ring's growth.
 *
 * usage: deque [thieves [jobs]]
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "runtime/deque.h"
#include "test.h"
#include "wspx.h"

static void
test_order(void)
{
	struct wspx__deque d;
	struct wspx_job jobs[100];
	bool empty = false;
	int i;

	CHECK(wspx__deque_init(&d, 2) == 0);
	CHECK(wspx__deque_pop(&d) == NULL);
	CHECK(wspx__deque_steal(&d) == NULL);
	for (i = 0; i < 100; i++) {
		CHECK(wspx__deque_push(&d, &jobs[i], &empty) == 0);
		CHECK(empty == (i == 0));
	}
	CHECK(wspx__deque_len(&d) == 100);
	/* Thieves take the oldest, the owner the newest, across growths. */
	CHECK(wspx__deque_steal(&d) == &jobs[0]);
	CHECK(wspx__deque_steal(&d) == &jobs[1]);
	CHECK(wspx__deque_pop(&d) == &jobs[99]);
	CHECK(wspx__deque_pop(&d) == &jobs[98]);
	for (i = 97; i >= 2; i--)
		CHECK(wspx__deque_pop(&d) == &jobs[i]);
	CHECK(wspx__deque_pop(&d) == NULL);
	CHECK(wspx__deque_steal(&d) == NULL);
	CHECK(wspx__deque_len(&d) == 0);
	/* Empty pops must leave indices consistent for later pushes. */
	CHECK(wspx__deque_pop(&d) == NULL);
	CHECK(wspx__deque_push(&d, &jobs[0], &empty) == 0 && empty);
	CHECK(wspx__deque_steal(&d) == &jobs[0]);
	wspx__deque_fini(&d);
}

/* Shared state of the conservation test. */
struct race {
	struct wspx__deque d;
	struct wspx_job *jobs;
	_Atomic(unsigned char) *taken;	/* times each job was taken */
	long njobs, round_jobs;
	_Atomic(long) remaining;	/* jobs of this round not yet taken */
	_Atomic(bool) finished;
	pthread_barrier_t start, end;
};

static void
take(struct race *r, struct wspx_job *job)
{
	/* relaxed: a count; the barriers order it with the final check. */
	atomic_fetch_add_explicit(&r->taken[job - r->jobs], 1,
	    memory_order_relaxed);
	atomic_fetch_sub_explicit(&r->remaining, 1, memory_order_relaxed);
}

static void *
thief(void *arg)
{
	struct race *r = arg;
	struct wspx_job *job;

	for (;;) {
		pthread_barrier_wait(&r->start);
		if (atomic_load(&r->finished))
			return NULL;
		while (atomic_load_explicit(&r->remaining,
		    memory_order_relaxed) > 0) {
			if ((job = wspx__deque_steal(&r->d)) != NULL)
				take(r, job);
		}
		pthread_barrier_wait(&r->end);
	}
}

/* The owner's part of one round: push the jobs first..first+n-1 in bursts,
 * popping some between bursts, then pop until the round is done. */
static void
ownerround(struct race *r, long first, long n, unsigned *seed)
{
	struct wspx_job *job;
	long i = 0, burst, k;
	bool empty = false;

	while (i < n) {
		burst = 1 + rand_r(seed) % 300;
		for (k = 0; k < burst && i < n; k++, i++)
			CHECK(wspx__deque_push(&r->d, &r->jobs[first + i],
			    &empty) == 0);
		for (k = rand_r(seed) % (burst + 1); k > 0; k--)
			if ((job = wspx__deque_pop(&r->d)) != NULL)
				take(r, job);
	}
	while (atomic_load_explicit(&r->remaining, memory_order_relaxed) > 0)
		if ((job = wspx__deque_pop(&r->d)) != NULL)
			take(r, job);
}

static void
test_conservation(int nthieves, long njobs)
{
	struct race r;
	pthread_t *t = calloc((size_t)nthieves, sizeof(*t));
	unsigned seed = 12345;
	long first, n, i, bad = 0;

	r.njobs = njobs;
	r.round_jobs = 4096;
	r.jobs = calloc((size_t)njobs, sizeof(*r.jobs));
	r.taken = calloc((size_t)njobs, sizeof(*r.taken));
	atomic_init(&r.finished, false);
	pthread_barrier_init(&r.start, NULL, (unsigned)nthieves + 1);
	pthread_barrier_init(&r.end, NULL, (unsigned)nthieves + 1);
	for (i = 0; i < nthieves; i++)
		pthread_create(&t[i], NULL, thief, &r);
	for (first = 0; first < njobs; first += n) {
		n = njobs - first < r.round_jobs ? njobs - first : r.round_jobs;
		/* A fresh 2-slot ring each round: about 11 growths while the
		 * thieves steal. */
		CHECK(wspx__deque_init(&r.d, 2) == 0);
		atomic_store(&r.remaining, n);
		pthread_barrier_wait(&r.start);
		ownerround(&r, first, n, &seed);
		pthread_barrier_wait(&r.end);
		CHECK(wspx__deque_len(&r.d) == 0);
		wspx__deque_fini(&r.d);
	}
	atomic_store(&r.finished, true);
	pthread_barrier_wait(&r.start);
	for (i = 0; i < nthieves; i++)
		pthread_join(t[i], NULL);
	for (i = 0; i < njobs; i++)
		bad += atomic_load(&r.taken[i]) != 1;
	CHECK(bad == 0);
	if (bad)
		fprintf(stderr, "%ld of %ld jobs not taken exactly once\n",
		    bad, njobs);
	pthread_barrier_destroy(&r.start);
	pthread_barrier_destroy(&r.end);
	free(r.jobs);
	free(r.taken);
	free(t);
}

int
main(int argc, char **argv)
{
	int thieves = (int)test_arg(argc, argv, 1, 16);
	long jobs = test_arg(argc, argv, 2, 1000000);

	TEST(test_order(), "deque: LIFO pop, FIFO steal, across growth");
	TEST(test_conservation(thieves, jobs),
	    "deque: %ld jobs each taken once, %d thieves, growth", jobs,
	    thieves);
	return test_done();
}
