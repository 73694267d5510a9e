/*
 * When idle workers of the work-stealing pool block, and who wakes them.
 * This follows Rayon's sleep module (rayon-core/src/sleep, its README) as
 * Blitz describes it (the "Blitz sleep/wake protocol" notes); the
 * Promela model sleep.pml beside this file checks it.
 *
 * State.
 *   counters, one 64-bit word: sleeping (bits 0-15), inactive (16-31) and
 *   the jobs event counter JEC (32-63).  inactive counts workers looking for
 *   work, sleeping ones included; sleeping counts workers registered as
 *   blocked and not yet woken.  The JEC is even ("sleepy": a worker
 *   announced itself since the last job was posted) or odd ("active").
 *   Every update is a seq_cst read-modify-write of the one word.
 *   Per waited-on event, a 4-state latch: UNSET -> SLEEPY -> SLEEPING, each
 *   step a CAS by the waiting worker; SET by anyone, with an exchange.
 *   Per worker slot, on its own cache line: a mutex, a condvar and
 *   `blocked`, written under the mutex.
 *
 * Idle worker (wspx__sleep_no_work_found, once per fruitless search):
 *   rounds 0-31: yield.  Round 32: announce sleepy: if the JEC is odd, add
 *   one (now even); keep the JEC as it is after the toggle.  Keeping the
 *   value from before would make the worker see its own toggle as new work
 *   and never sleep.  Round 33: one more search.  Then sleepnow():
 *     1. CAS latch UNSET -> SLEEPY; if it is SET, stop waiting.
 *     2. lock the slot; CAS latch SLEEPY -> SLEEPING (fails only if SET).
 *     3. if the JEC differs from the kept value, a job was posted: unlock,
 *        latch back to UNSET, announce again next round.
 *     4. CAS sleeping + 1 into counters, expecting the JEC read in 3.
 *     5. seq_cst fence (fence 2); look at the injection stack: if it holds
 *        a job, take our sleeping registration back and return.
 *     6. blocked = true; wait on the condvar until a waker clears it.
 * Poster (wspx__sleep_new_jobs, after pushing n jobs):
 *   injected jobs only: seq_cst fence first (fence 1).  If the JEC is even
 *   add one (now odd).  If nobody sleeps, done.  Otherwise wake as many
 *   sleepers as the work needs: awake idle workers (inactive - sleeping)
 *   will find it by themselves when the queue was empty; when it was not,
 *   up to n more.  A worker that finds work wakes up to two sleepers, so a
 *   burst spreads to the whole pool; one that stops looking because its
 *   latch was set wakes them only if the injection stack holds a job,
 *   checked after a seq_cst fence (fence 3), as it may be the idle worker
 *   an injector counted on.
 * Waker (wspx__sleep_wake_specific): under the slot's mutex, if blocked:
 *   clear it, signal, and decrement sleeping itself.  Were the sleeper to
 *   decrement after waking, a woken worker would still count as asleep for
 *   a while: posters would wake more workers than the work needs, and the
 *   count that wspx_pool_stats() reports would be off.
 * Setter (wspx__sleep_latch_set): exchange SET; if the old state was SLEEPING,
 *   wake that slot.
 *
 * Why no wake-up is lost.
 *   (a) Latch events.  The waiter blocks only in state SLEEPING, reached by
 *   CAS from SLEEPY while holding its mutex, and sets `blocked` under that
 *   mutex before it waits.  A setter's exchange either comes before the
 *   CAS UNSET -> SLEEPY or SLEEPY -> SLEEPING, which then fails and the
 *   waiter does not block; or after, when it returns SLEEPING and the
 *   setter locks the mutex, which it gets only once the waiter is waiting
 *   (or gave up), and clears `blocked`.
 *   (b) Injected jobs, which no awake worker is bound to run.  The injector
 *   pushes (CAS on the stack head), fence 1, reads counters.  The sleeper
 *   registers (CAS on counters), fence 2, reads the stack head.  The two
 *   fences are ordered in the single order S of seq_cst operations.  If
 *   fence 2 comes first, the injector's read sees the registration (C11
 *   [atomics.fences]), counts the sleeper and wakes someone unless enough
 *   idle workers are awake; if fence 1 comes first, the sleeper's read sees
 *   the push or a later change of the head (a take by a worker that then
 *   runs the job), so it does not block.  When the injector wakes nobody
 *   because an awake idle worker exists, that worker either finds the job,
 *   or registers after the injector's read and so sees the job at step 5,
 *   or finds other work and, leaving the idle set, wakes up to two
 *   sleepers (a worker that finishes a job searches again), or leaves the
 *   idle set because its latch was set, perhaps for good (the caller of
 *   wspx_pool_call leaving the main slot).  Then fence 3 pairs with fence
 *   1 as fence 2 does: the injector's read of the counters saw it idle, so
 *   its look at the stack after its decrement sees the job, and it wakes
 *   up to two sleepers.  So the pool
 *   cannot reach a state where every worker blocks with the job queued.
 *   (c) Jobs on a deque.  Only the owner pushes on its deque and it blocks
 *   only after its own pop found the deque empty, and the main slot's
 *   caller empties its deque before it leaves the slot, so every queued
 *   deque job has an owner that will run it.  That owner may be busy in a
 *   job; the job may block outside the pool (on I/O, a lock), but not on
 *   work it queued on its own deque, which only it is sure to run: wspx.h
 *   says so.  The JEC toggle (fence-free) only
 *   makes sleepy workers come back to help sooner: a worker that announced
 *   sleepy and then sees the JEC moved does not block (step 3).
 *   The JEC wraps after 2^31 announcements; a worker fooled by a wrap to
 *   the exact kept value is still caught by (b) and (c).
 *
 * The model.  sleep.pml checks this protocol with spin: safety, and under
 *   weak fairness that every injected job is taken and run, that shutdown
 *   ends and that idle workers go to sleep.  Its interleaving stands for
 *   the order S of the seq_cst operations, which is exact for the
 *   counters, while the relaxed looks at the injection stack are weakened:
 *   a worker that has neither read the head since the stack was last empty
 *   nor synchronized with the push may read the old NULL again and again,
 *   and a look after fence 2 or 3 may miss only a batch whose injector has
 *   not yet executed fence 1.  One job at a time may block outside the
 *   pool until the other worker has taken every injected job, which covers
 *   a worker that leaves the idle set and stays away (the main slot's part
 *   in (b)).  tests/model.sh also builds known-bad variants (step 5
 *   removed, the look moved before the registration without a fence, each
 *   of fences 1, 2 and 3 removed, work_found without its look or without
 *   waking) and requires spin to reject each, so the model checks the
 *   fences and not only the protocol's logic.  It does not model stale
 *   deque lengths, several injectors or the main slot itself.
 */
#include "sleep.h"

#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "os/thread.h"
#include "stack.h"

int
wspx__sleep_init(struct wspx__sleep *s, unsigned nslots)
{
	size_t size;
	unsigned i;

	size = (size_t)nslots * sizeof(s->sleepers[0]);
	s->sleepers = aligned_alloc(WSPX_CACHELINE, size);
	if (s->sleepers == NULL)
		return -ENOMEM;
	memset(s->sleepers, 0, size);
	for (i = 0; i < nslots; i++) {
		WSPX_MUST(pthread_mutex_init(&s->sleepers[i].lock, NULL));
		WSPX_MUST(pthread_cond_init(&s->sleepers[i].cond, NULL));
		atomic_init(&s->sleepers[i].sleeps, 0);
		atomic_init(&s->sleepers[i].wakes, 0);
	}
	s->nslots = nslots;
	atomic_init(&s->counters, 0);
	return 0;
}

void
wspx__sleep_fini(struct wspx__sleep *s)
{
	unsigned i;

	for (i = 0; i < s->nslots; i++) {
		WSPX_MUST(pthread_mutex_destroy(&s->sleepers[i].lock));
		WSPX_MUST(pthread_cond_destroy(&s->sleepers[i].cond));
	}
	free(s->sleepers);
}

void
wspx__sleep_start_looking(struct wspx__sleep *s, struct wspx__idle *idle,
    unsigned index)
{
	/* seq_cst: posters read inactive to decide how many to wake. */
	atomic_fetch_add_explicit(&s->counters, WSPX__ONE_INACTIVE,
	    memory_order_seq_cst);
	idle->index = index;
	idle->rounds = 0;
	idle->jec = 0;
}

/* Wake up to n blocked workers, lowest slots first. */
static void
wakeany(struct wspx__sleep *s, unsigned n)
{
	unsigned i;

	for (i = 0; i < s->nslots && n > 0; i++) {
		if (wspx__sleep_wake_specific(s, i))
			n--;
	}
}

void
wspx__sleep_work_found(struct wspx__sleep *s, bool more,
    struct wspx__stack *injected)
{
	uint64_t old;
	unsigned sleeping;

	/* seq_cst: pairs with the posters' reads of inactive. */
	old = atomic_fetch_sub_explicit(&s->counters, WSPX__ONE_INACTIVE,
	    memory_order_seq_cst);
	sleeping = wspx__sleeping(old);
	if (sleeping == 0)
		return;
	if (!more) {
		/* seq_cst fence 3: our leaving the idle set is ordered before
		 * the look at the stack; pairs with fence 1 (see (b)). */
		wspx__fence_seq_cst();
		if (!wspx__stack_has_jobs(injected))
			return;
	}
	wakeany(s, sleeping < 2 ? sleeping : 2);
}

/* Give the JEC the parity `odd` by adding one if it has the other: posters
 * want it odd ("active"), a worker announcing itself even ("sleepy").
 * Returns the counters as they are afterwards. */
static uint64_t
togglejec(struct wspx__sleep *s, unsigned odd)
{
	uint64_t c;

	/* seq_cst: the JEC and the counts are one word; each toggle is
	 * ordered with every registration (CAS in sleepnow) and read. */
	c = atomic_load_explicit(&s->counters, memory_order_seq_cst);
	for (;;) {
		if ((wspx__jec(c) & 1) == odd)
			return c;
		if (atomic_compare_exchange_weak_explicit(&s->counters, &c,
		    c + WSPX__ONE_JEC, memory_order_seq_cst,
		    memory_order_seq_cst))
			return c + WSPX__ONE_JEC;
	}
}

void
wspx__sleep_new_jobs(struct wspx__sleep *s, unsigned n, bool was_empty)
{
	uint64_t c;
	unsigned sleeping, idle, wake;

	c = togglejec(s, 1);
	sleeping = wspx__sleeping(c);
	if (sleeping == 0)
		return;
	idle = wspx__inactive(c) > sleeping ? wspx__inactive(c) - sleeping : 0;
	if (was_empty)
		wake = idle < n ? n - idle : 0;
	else
		wake = n;
	wakeany(s, wake < sleeping ? wake : sleeping);
}

void
wspx__sleep_new_injected_jobs(struct wspx__sleep *s, unsigned n,
    bool was_empty)
{
	/* seq_cst fence 1: the push on the injection stack is ordered before
	 * our read of the counters; pairs with fence 2 in sleepnow(). */
	wspx__fence_seq_cst();
	wspx__sleep_new_jobs(s, n, was_empty);
}

bool
wspx__sleep_wake_specific(struct wspx__sleep *s, unsigned index)
{
	struct wspx__sleeper *z = &s->sleepers[index];
	bool woke = false;

	WSPX_MUST(pthread_mutex_lock(&z->lock));
	if (z->blocked) {
		z->blocked = false;
		WSPX_MUST(pthread_cond_signal(&z->cond));
		/* seq_cst: the waker, not the sleeper, takes the sleeper out
		 * of the count (see the protocol comment). */
		atomic_fetch_sub_explicit(&s->counters, WSPX__ONE_SLEEPING,
		    memory_order_seq_cst);
		woke = true;
	}
	WSPX_MUST(pthread_mutex_unlock(&z->lock));
	return woke;
}

void
wspx__sleep_latch_set(struct wspx__sleep *s, _Atomic(int) *latch,
    unsigned owner)
{
	/* release: what the setter did (a job's results) is visible to the
	 * waiter's acquire probe.  The exchange reads the state the waiter's
	 * CASes left, so SLEEPING here means it may be blocked. */
	if (atomic_exchange_explicit(latch, WSPX__LATCH_SET,
	    memory_order_release) == WSPX__LATCH_SLEEPING)
		wspx__sleep_wake_specific(s, owner);
}

/* Move latch from `from` to `to` if nobody set it; waiter only.  acquire:
 * when it fails because the latch is SET, pairs with the setter's release
 * (the waiter probes again anyway). */
static bool
latchstep(_Atomic(int) *latch, int from, int to)
{
	return atomic_compare_exchange_strong_explicit(latch, &from, to,
	    memory_order_acquire, memory_order_acquire);
}

/* Try to count ourselves as sleeping while the JEC is the one we announced.
 * Returns false if a job was posted since. */
static bool
registersleeping(struct wspx__sleep *s, struct wspx__idle *idle)
{
	uint64_t c;

	/* seq_cst: the registration is in the single order with the
	 * posters' toggles and reads of the counters. */
	c = atomic_load_explicit(&s->counters, memory_order_seq_cst);
	for (;;) {
		if (wspx__jec(c) != idle->jec)
			return false;
		if (atomic_compare_exchange_weak_explicit(&s->counters, &c,
		    c + WSPX__ONE_SLEEPING, memory_order_seq_cst,
		    memory_order_seq_cst))
			return true;
	}
}

/* Block on the slot's condvar until a waker clears `blocked`.  The slot's
 * lock is held. */
static void
block(struct wspx__sleeper *z)
{
	z->blocked = true;
	/* relaxed: statistics, written only under the lock. */
	atomic_store_explicit(&z->sleeps, atomic_load_explicit(&z->sleeps,
	    memory_order_relaxed) + 1, memory_order_relaxed);
	while (z->blocked)
		WSPX_MUST(pthread_cond_wait(&z->cond, &z->lock));
	atomic_store_explicit(&z->wakes, atomic_load_explicit(&z->wakes,
	    memory_order_relaxed) + 1, memory_order_relaxed);
}

/* Steps 1-6 of the protocol comment. */
static void
sleepnow(struct wspx__sleep *s, struct wspx__idle *idle, _Atomic(int) *latch,
    struct wspx__stack *injected)
{
	struct wspx__sleeper *z = &s->sleepers[idle->index];

	if (!latchstep(latch, WSPX__LATCH_UNSET, WSPX__LATCH_SLEEPY))
		return;
	WSPX_MUST(pthread_mutex_lock(&z->lock));
	if (!latchstep(latch, WSPX__LATCH_SLEEPY, WSPX__LATCH_SLEEPING)) {
		WSPX_MUST(pthread_mutex_unlock(&z->lock));
		idle->rounds = 0;
		return;
	}
	if (!registersleeping(s, idle)) {
		WSPX_MUST(pthread_mutex_unlock(&z->lock));
		latchstep(latch, WSPX__LATCH_SLEEPING, WSPX__LATCH_UNSET);
		idle->rounds = WSPX__ROUNDS_UNTIL_SLEEPY;
		return;
	}
	/* seq_cst fence 2: our registration is ordered before the read of
	 * the injection stack; pairs with fence 1 in new_injected_jobs. */
	wspx__fence_seq_cst();
	if (wspx__stack_has_jobs(injected)) {
		/* seq_cst: nobody will wake us, so we undo our own count. */
		atomic_fetch_sub_explicit(&s->counters, WSPX__ONE_SLEEPING,
		    memory_order_seq_cst);
	} else {
		block(z);
	}
	WSPX_MUST(pthread_mutex_unlock(&z->lock));
	idle->rounds = 0;
	latchstep(latch, WSPX__LATCH_SLEEPING, WSPX__LATCH_UNSET);
}

void
wspx__sleep_no_work_found(struct wspx__sleep *s, struct wspx__idle *idle,
    _Atomic(int) *latch, struct wspx__stack *injected)
{
	if (idle->rounds < WSPX__ROUNDS_UNTIL_SLEEPY) {
		idle->rounds++;
		sched_yield();
	} else if (idle->rounds == WSPX__ROUNDS_UNTIL_SLEEPY) {
		idle->jec = wspx__jec(togglejec(s, 0));
		idle->rounds++;
		sched_yield();
	} else {
		sleepnow(s, idle, latch, injected);
	}
}
