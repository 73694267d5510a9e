/*
 * A run's numbers (see stats.h).
 *
 * Every counter is a relaxed atomic: each is exact on its own, and a
 * reader wants no ordering between them, only a picture good enough for a
 * status line.  Read downstream first (ended before started before
 * submitted), the differences are rarely negative, and are clamped to 0
 * when they are.  The final figures are read after every job's callback
 * has returned and the pools have stopped, so they are exact.
 */
#include "stats.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "base/clock.h"
#include "os/proc.h"
#include "util/buf.h"
#include "util/util.h"

void
stats_init(struct stats *s)
{
	size_t i;

	atomic_init(&s->submitted, 0);
	atomic_init(&s->started, 0);
	atomic_init(&s->ran, 0);
	atomic_init(&s->ended, 0);
	atomic_init(&s->failed, 0);
	atomic_init(&s->skipped, 0);
	atomic_init(&s->total, -1);
	atomic_init(&s->positions, 0);
	atomic_init(&s->maxns, 0);
	for (i = 0; i < STATS_BUCKETS; i++)
		atomic_init(&s->hist[i], 0);
	s->t0 = wspx__clock_now();
	s->t0real = wspx__clock_seconds(CLOCK_REALTIME);
}

/* The bucket of a runtime: exact below STATS_SUB ns, then STATS_SUB per
 * power of two. */
static size_t
bucket(uint64_t ns)
{
	unsigned e;

	if (ns < STATS_SUB)
		return (size_t)ns;
	e = 63 - (unsigned)__builtin_clzll(ns);	/* 6 .. 63 */
	return STATS_SUB + (size_t)(e - 6) * STATS_SUB +
	    (size_t)((ns >> (e - 6)) & (STATS_SUB - 1));
}

/* The largest runtime in bucket b. */
static uint64_t
bucketmax(size_t b)
{
	size_t e, m;

	if (b < STATS_SUB)
		return b;
	e = (b - STATS_SUB) / STATS_SUB + 6;
	m = (b - STATS_SUB) % STATS_SUB;
	return ((uint64_t)(STATS_SUB + m + 1) << (e - 6)) - 1;
}

static void
relaxed_add(_Atomic(uint64_t) *c, uint64_t n)
{
	atomic_fetch_add_explicit(c, n, memory_order_relaxed);
}

void
stats_ended(struct stats *s, int64_t runtime_ns, bool failed, bool skipped)
{
	int64_t max;
	size_t b;

	if (runtime_ns >= 0) {
		b = bucket((uint64_t)runtime_ns);
		relaxed_add(&s->hist[b < STATS_BUCKETS ? b : STATS_BUCKETS - 1],
		    1);
		max = atomic_load_explicit(&s->maxns, memory_order_relaxed);
		while (runtime_ns > max && !atomic_compare_exchange_weak_explicit(
		    &s->maxns, &max, runtime_ns, memory_order_relaxed,
		    memory_order_relaxed))
			;
		relaxed_add(&s->ran, 1);
	}
	if (failed)
		relaxed_add(&s->failed, 1);
	if (skipped)
		relaxed_add(&s->skipped, 1);
	relaxed_add(&s->ended, 1);
}

uint64_t
stats_position(struct stats *s)
{
	/* relaxed: a count; each caller gets its own */
	return atomic_fetch_add_explicit(&s->positions, 1,
	    memory_order_relaxed) + 1;
}

static uint64_t
load(const _Atomic(uint64_t) *c)
{
	return atomic_load_explicit(c, memory_order_relaxed);
}

static uint64_t
minus(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

double
stats_elapsed(const struct stats *s)
{
	return (double)(wspx__clock_now() - s->t0) / 1e9;
}

void
stats_read(const struct stats *s, struct stats_now *now)
{
	uint64_t ran, ended, started, submitted;

	ended = load(&s->ended);
	ran = load(&s->ran);
	now->failed = load(&s->failed);
	now->skipped = load(&s->skipped);
	started = load(&s->started);
	submitted = load(&s->submitted);
	now->done = ended;
	now->submitted = submitted;
	now->running = minus(started, ran);
	/* queued: submitted, and neither started nor ended unstarted */
	now->queued = minus(submitted, started + minus(ended, ran));
	now->total = atomic_load_explicit(&s->total, memory_order_relaxed);
	now->elapsed = stats_elapsed(s);
}

/* The runtime at or below which a fraction p of the jobs that ran are,
 * to the histogram's precision, and never above the longest. */
static double
percentile(const struct stats *s, uint64_t n, double p, uint64_t maxns)
{
	uint64_t want = (uint64_t)(p * (double)n), seen = 0, v;
	size_t b;

	if (n == 0)
		return 0;
	if ((double)want < p * (double)n || want == 0)
		want++;		/* rounded up: the p99 of 10 jobs is the 10th */
	for (b = 0; b < STATS_BUCKETS; b++) {
		seen += load(&s->hist[b]);
		if (seen >= want)
			break;
	}
	v = b < STATS_BUCKETS ? bucketmax(b) : maxns;
	return (double)(v < maxns ? v : maxns) / 1e9;
}

static double
seconds(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

void
stats_finish(const struct stats *s, struct stats_final *f)
{
	struct rusage self, kids;
	uint64_t ran = load(&s->ran), maxns;

	stats_read(s, &f->now);
	f->started = load(&s->started);
	f->succeeded = minus(f->now.done, f->now.failed + f->now.skipped);
	maxns = (uint64_t)atomic_load_explicit(&s->maxns,
	    memory_order_relaxed);
	f->p50 = percentile(s, ran, 0.50, maxns);
	f->p90 = percentile(s, ran, 0.90, maxns);
	f->p99 = percentile(s, ran, 0.99, maxns);
	f->max = (double)maxns / 1e9;
	getrusage(RUSAGE_SELF, &self);
	getrusage(RUSAGE_CHILDREN, &kids);
	f->user = seconds(self.ru_utime);
	f->sys = seconds(self.ru_stime);
	f->child_user = seconds(kids.ru_utime);
	f->child_sys = seconds(kids.ru_stime);
}

void
stats_duration(char *b, size_t size, double t)
{
	long s = (long)(t + 0.5);

	if (t < 60)
		snprintf(b, size, "%.1fs", t);
	else if (s < 3600)
		snprintf(b, size, "%ld:%02ld", s / 60, s % 60);
	else
		snprintf(b, size, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60,
		    s % 60);
}

/* "1.23ms" and the like. */
static void
shorttime(char *b, size_t size, double t)
{
	if (t < 1e-3)
		snprintf(b, size, "%.0fus", t * 1e6);
	else if (t < 1)
		snprintf(b, size, "%.3gms", t * 1e3);
	else
		snprintf(b, size, "%.3gs", t);
}

int
stats_print(const struct stats_final *f, int fd)
{
	struct buf b = { NULL, 0, 0 };
	char t[4][32];
	int rc;

	bufmsg(&b, "%llu jobs: %llu succeeded, %llu failed, %llu "
	    "skipped; wall %.3fs, %.1f jobs/s\n",
	    (unsigned long long)f->now.done,
	    (unsigned long long)f->succeeded, (unsigned long long)f->now.failed,
	    (unsigned long long)f->now.skipped, f->now.elapsed,
	    f->now.elapsed > 0 ? (double)f->now.done / f->now.elapsed : 0);
	shorttime(t[0], sizeof(t[0]), f->p50);
	shorttime(t[1], sizeof(t[1]), f->p90);
	shorttime(t[2], sizeof(t[2]), f->p99);
	shorttime(t[3], sizeof(t[3]), f->max);
	bufprintf(&b, "  job runtime: p50 %s, p90 %s, p99 %s, max %s\n",
	    t[0], t[1], t[2], t[3]);
	bufprintf(&b, "  work-stealing pool, %u worker(s): executed %llu, "
	    "stolen %llu, injected %llu, sleeps %llu, wakes %llu\n",
	    f->workers, (unsigned long long)f->pool.executed,
	    (unsigned long long)f->pool.stolen,
	    (unsigned long long)f->pool.injected,
	    (unsigned long long)f->pool.sleeps,
	    (unsigned long long)f->pool.wakes);
	bufprintf(&b, "  blocking pool, cap %u: executed %llu; at the end "
	    "%u threads, %u idle, %u queued\n", f->slots,
	    (unsigned long long)f->blocking.executed, f->blocking.threads,
	    f->blocking.idle, f->blocking.queued);
	bufprintf(&b, "  CPU: wspx %.3fs user, %.3fs system; jobs %.3fs "
	    "user, %.3fs system\n", f->user, f->sys, f->child_user,
	    f->child_sys);
	rc = wspx__proc_writeall(fd, b.s, b.len);
	free(b.s);
	return rc;
}

int
stats_json(const struct stats_final *f, int fd)
{
	struct buf b = { NULL, 0, 0 };
	int rc;

	bufprintf(&b, "{\"version\": 1,\n \"jobs\": {\"total\": %llu, "
	    "\"executed\": %llu, \"succeeded\": %llu, \"failed\": %llu, "
	    "\"skipped\": %llu},\n",
	    (unsigned long long)f->now.done, (unsigned long long)f->started,
	    (unsigned long long)f->succeeded, (unsigned long long)f->now.failed,
	    (unsigned long long)f->now.skipped);
	bufprintf(&b, " \"runtime\": {\"p50\": %.9f, \"p90\": %.9f, "
	    "\"p99\": %.9f, \"max\": %.9f},\n", f->p50, f->p90, f->p99,
	    f->max);
	bufprintf(&b, " \"pool\": {\"workers\": %u, \"executed\": %llu, "
	    "\"stolen\": %llu, \"injected\": %llu, \"sleeps\": %llu, "
	    "\"wakes\": %llu},\n", f->workers,
	    (unsigned long long)f->pool.executed,
	    (unsigned long long)f->pool.stolen,
	    (unsigned long long)f->pool.injected,
	    (unsigned long long)f->pool.sleeps,
	    (unsigned long long)f->pool.wakes);
	bufprintf(&b, " \"blocking\": {\"cap\": %u, \"threads\": %u, "
	    "\"idle_threads\": %u, \"queue_depth\": %u, \"executed\": %llu, "
	    "\"spawn_failures\": %llu},\n", f->slots, f->blocking.threads,
	    f->blocking.idle, f->blocking.queued,
	    (unsigned long long)f->blocking.executed,
	    (unsigned long long)f->blocking.spawn_failures);
	bufprintf(&b, " \"wall\": %.6f, \"cpu\": {\"user\": %.6f, "
	    "\"system\": %.6f},\n \"jobs_cpu\": {\"user\": %.6f, "
	    "\"system\": %.6f},\n \"exit_status\": %d}\n", f->now.elapsed,
	    f->user, f->sys, f->child_user, f->child_sys, f->exitstatus);
	rc = wspx__proc_writeall(fd, b.s, b.len);
	free(b.s);
	return rc;
}
