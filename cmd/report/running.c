/*
 * The running jobs, for SIGUSR1 (see running.h).
 */
#include "running.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "os/thread.h"
#include "failures.h"
#include "stats.h"

#define COMMAND_SHOWN	200	/* bytes of a command shown */

struct entry {
	uint64_t seq;		/* 0: the slot is free */
	const char *name;	/* a job file's job's, or NULL; borrowed */
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
    const char *name, const char *command)
{
	struct entry *e = &r->e[slot - 1];
	double start = wspx__clock_seconds(CLOCK_MONOTONIC);

	WSPX_MUST(pthread_mutex_lock(&r->lock));
	e->seq = seq;
	e->name = name;
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
		e->name = NULL;
		e->command = NULL;
	}
	WSPX_MUST(pthread_mutex_unlock(&r->lock));
}

void
running_longest(struct running *r, char *b, size_t size)
{
	const struct entry *e, *old = NULL;
	unsigned i, n = 0;
	char t[32];
	double at = wspx__clock_seconds(CLOCK_MONOTONIC);
	int k = 0;

	WSPX_MUST(pthread_mutex_lock(&r->lock));
	for (i = 0; i < r->n; i++) {
		e = &r->e[i];
		if (e->seq == 0)
			continue;
		n++;
		if (old == NULL || e->start < old->start)
			old = e;
	}
	/* (copied under the lock: the strings are the job's until its
	 * end) */
	if (old != NULL) {
		stats_duration(t, sizeof(t), at - old->start);
		k = snprintf(b, size, "%.60s %s", old->name != NULL ?
		    old->name : old->command, t);
	}
	WSPX_MUST(pthread_mutex_unlock(&r->lock));
	if (old == NULL)
		b[0] = '\0';
	else if (n > 1 && k > 0 && (size_t)k < size)
		snprintf(b + k, size - (size_t)k, " (+%u)", n - 1);
	/* (a command's newline would break the line) */
	for (; *b != '\0'; b++)
		if (*b == '\n' || *b == '\t')
			*b = ' ';
}

unsigned
running_list(struct running *r, struct buf *b)
{
	char t[32];
	unsigned i, n = 0;
	size_t len;
	double at = wspx__clock_seconds(CLOCK_MONOTONIC);

	WSPX_MUST(pthread_mutex_lock(&r->lock));
	for (i = 0; i < r->n; i++) {
		if (r->e[i].seq == 0)
			continue;
		stats_duration(t, sizeof(t), at - r->e[i].start);
		if (r->e[i].name != NULL)
			bufmsg(b, "running: %s (seq %llu, slot %u, %s): ",
			    r->e[i].name, (unsigned long long)r->e[i].seq,
			    i + 1, t);
		else
			bufmsg(b, "running: seq %llu, slot %u, %s: ",
			    (unsigned long long)r->e[i].seq, i + 1, t);
		/* (a script's last newline is no line of its own) */
		len = strlen(r->e[i].command);
		while (len > 0 && r->e[i].command[len - 1] == '\n')
			len--;
		bufescaped(b, r->e[i].command, len, COMMAND_SHOWN);
		bufaddc(b, '\n');
		n++;
	}
	WSPX_MUST(pthread_mutex_unlock(&r->lock));
	if (n == 0)
		bufmsg(b, "running: no job\n");
	return n;
}
