/*
 * The work-stealing pool's sleep/wake protocol: when idle workers block,
 * and how many of them new work wakes.  See sleep.c for the protocol and
 * the argument that no wake-up is lost.
 */
#ifndef WSPX_SLEEP_H
#define WSPX_SLEEP_H

#include <pthread.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "atomic.h"

struct wspx__stack;

/* An idle worker yields this many rounds, announces itself sleepy, searches
 * one more round and then blocks. */
#define WSPX__ROUNDS_UNTIL_SLEEPY	32
#define WSPX__ROUNDS_UNTIL_SLEEPING	(WSPX__ROUNDS_UNTIL_SLEEPY + 1)

/* Most worker slots: the counters give sleeping and inactive 16 bits. */
#define WSPX__MAX_SLOTS			65535u

/* The packed counters word: sleeping threads in bits 0-15, inactive
 * (looking for work, sleeping included) in bits 16-31, the jobs event
 * counter (JEC) in bits 32-63. */
#define WSPX__ONE_SLEEPING	((uint64_t)1)
#define WSPX__ONE_INACTIVE	((uint64_t)1 << 16)
#define WSPX__ONE_JEC		((uint64_t)1 << 32)

static inline unsigned
wspx__sleeping(uint64_t c)
{
	return (unsigned)(c & 0xffff);
}

static inline unsigned
wspx__inactive(uint64_t c)
{
	return (unsigned)((c >> 16) & 0xffff);
}

static inline uint32_t
wspx__jec(uint64_t c)
{
	return (uint32_t)(c >> 32);
}

/* The 4-state latch a worker waits on (its own terminate latch, a join's
 * stolen half, a scope).  Only the waiting worker moves it out of UNSET
 * towards SLEEPING and back; anyone may set it. */
enum wspx__latch_state {
	WSPX__LATCH_UNSET,	/* the waiter is active */
	WSPX__LATCH_SLEEPY,	/* the waiter is doing its last checks */
	WSPX__LATCH_SLEEPING,	/* the waiter is (about to be) blocked */
	WSPX__LATCH_SET		/* the awaited event happened */
};

/* One worker slot's blocking state, on its own cache line. */
struct wspx__sleeper {
	alignas(WSPX_CACHELINE) pthread_mutex_t lock;
	pthread_cond_t cond;
	bool blocked;			/* waiting on cond; lock held */
	_Atomic(uint64_t) sleeps;	/* times blocked (written under lock) */
	_Atomic(uint64_t) wakes;	/* times woken (written under lock) */
};

struct wspx__sleep {
	alignas(WSPX_CACHELINE) _Atomic(uint64_t) counters;
	alignas(WSPX_CACHELINE) struct wspx__sleeper *sleepers;
	unsigned nslots;
};

/* A worker's progress through one idle period. */
struct wspx__idle {
	unsigned index;		/* the worker's slot */
	unsigned rounds;	/* fruitless searches so far */
	uint32_t jec;		/* JEC after our sleepy announcement */
};

/* Set up the protocol for nslots worker slots.  Returns 0 or -ENOMEM. */
int wspx__sleep_init(struct wspx__sleep *s, unsigned nslots);

/* Free what init allocated; no worker may be waiting. */
void wspx__sleep_fini(struct wspx__sleep *s);

/* The worker in slot index starts looking for work: counted inactive. */
void wspx__sleep_start_looking(struct wspx__sleep *s, struct wspx__idle *idle,
    unsigned index);

/* The looking worker stops looking, having found a job or seen its latch
 * set: no longer inactive.  If some workers sleep, it wakes up to two of
 * them while work visibly remains: more (the caller saw jobs on its own
 * deque or another worker's), or jobs on injected, which an injector may
 * have left to it.  A lone job wakes nobody more. */
void wspx__sleep_work_found(struct wspx__sleep *s, bool more,
    struct wspx__stack *injected);

/* The looking worker found nothing this round: yield, announce itself
 * sleepy, or block until woken, as idle->rounds says.  It blocks only if
 * latch is UNSET, no job was posted since its announcement, and injected
 * is empty after it registered as sleeping. */
void wspx__sleep_no_work_found(struct wspx__sleep *s, struct wspx__idle *idle,
    _Atomic(int) *latch, struct wspx__stack *injected);

/* n jobs were pushed on a worker's deque (was_empty: onto an empty one).
 * Out of line: the part that toggles the JEC and wakes sleepers. */
void wspx__sleep_new_jobs(struct wspx__sleep *s, unsigned n, bool was_empty);

/* n jobs were pushed on the pusher's own deque.  The common case (no
 * sleepy worker, none sleeping) is one load. */
static inline void
wspx__sleep_new_internal_jobs(struct wspx__sleep *s, unsigned n,
    bool was_empty)
{
	uint64_t c;

	/* seq_cst: the same load the JEC toggle in wspx__sleep_new_jobs()
	 * starts with; an odd JEC means no worker announced itself sleepy
	 * since the last job was posted. */
	c = atomic_load_explicit(&s->counters, memory_order_seq_cst);
	if ((wspx__jec(c) & 1) != 0 && wspx__sleeping(c) == 0)
		return;
	wspx__sleep_new_jobs(s, n, was_empty);
}

/* n jobs were pushed on the injection stack: the seq_cst fence that pairs
 * with the sleeper's, then as for internal jobs. */
void wspx__sleep_new_injected_jobs(struct wspx__sleep *s, unsigned n,
    bool was_empty);

/* Whether latch has been set.  Any thread; acquire, so what the setter did
 * before setting it is visible. */
static inline bool
wspx__sleep_latch_probe(_Atomic(int) *latch)
{
	/* acquire: pairs with the release exchange in
	 * wspx__sleep_latch_set(). */
	return atomic_load_explicit(latch, memory_order_acquire) ==
	    WSPX__LATCH_SET;
}

/* Set latch, waited on by the worker in slot owner, and wake it if it is
 * blocked.  After the exchange it touches only s, so the waiter may free
 * the latch as soon as it sees it set. */
void wspx__sleep_latch_set(struct wspx__sleep *s, _Atomic(int) *latch,
    unsigned owner);

/* Wake the worker in slot index if it is blocked.  Returns whether it was. */
bool wspx__sleep_wake_specific(struct wspx__sleep *s, unsigned index);

#endif /* WSPX_SLEEP_H */
