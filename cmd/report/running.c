/*
 * The running jobs, for SIGUSR1 (see running.h).
 */
#include "running.h"

#include <pthread.h>
#include <stdlib.h>

#include "base/clock.h"
#include "os/thread.h"
#include "stats.h"

struct entry {
	uint64_t seq;		/* 0: the slot is free */
	const char *command;	/* borrowed until running_end() */
	double start;		/* monotonic seconds */
};

struct running {
	pthread_mutex_t lock;
	unsigned n;
	struct entry *e;	/* e[slot - 1] */
};

struct running *
running_new(unsigned slots)
{
	struct running *r = xcalloc(1, sizeof(*r));

	WSPX_MUST(pthread_mutex_init(&r->lock, NULL));
	r->n = slots;
	r->e = xcalloc(slots, sizeof(*r->e));
	return r;
}

void
running_free(struct running *r)
{
	if (r == NULL)
		return;
	free(r->e);
	WSPX_MUST(pthread_mutex_destroy(&r->lock));
	free(r);
}

void
running_start(struct running *r, unsigned slot, uint64_t seq,
    const char *command)
{
	struct entry *e = &r->e[slot - 1];
	double start = wspx__clock_seconds(CLOCK_MONOTONIC);

	WSPX_MUST(pthread_mutex_lock(&r->lock));
	e->seq = seq;
	e->command = command;
	e->start = start;
	WSPX_MUST(pthread_mutex_unlock(&r->lock));
}

void
running_end(struct running *r, unsigned slot, uint64_t seq)
{
	struct entry *e = &r->e[slot - 1];

	WSPX_MUST(pthread_mutex_lock(&r->lock));
	if (e->seq == seq) {
		e->seq = 0;
		e->command = NULL;
	}
	WSPX_MUST(pthread_mutex_unlock(&r->lock));
}

void
running_list(struct running *r, struct buf *b)
{
	char t[32];
	unsigned i, n = 0;
	double at = wspx__clock_seconds(CLOCK_MONOTONIC);

	WSPX_MUST(pthread_mutex_lock(&r->lock));
	for (i = 0; i < r->n; i++) {
		if (r->e[i].seq == 0)
			continue;
		stats_duration(t, sizeof(t), at - r->e[i].start);
		bufmsg(b, "running: seq %llu, slot %u, %s: %s\n",
		    (unsigned long long)r->e[i].seq, i + 1, t,
		    r->e[i].command);
		n++;
	}
	WSPX_MUST(pthread_mutex_unlock(&r->lock));
	if (n == 0)
		bufmsg(b, "running: no job\n");
}
