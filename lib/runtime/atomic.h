/*
 * Platform choices for the lock-free code, kept in one place: the cache-line
 * size used to keep owner-written and thief-written fields apart, the pause
 * instruction for bounded spin loops, and the one spot where the build for
 * ThreadSanitizer differs from the normal one.
 */
#ifndef WSPX_ATOMIC_H
#define WSPX_ATOMIC_H

#include <stdatomic.h>

/* x86-64 and most AArch64 cores use 64-byte lines; adjacent-line prefetch
 * makes 128 safer against false sharing on both. */
#define WSPX_CACHELINE 128

/* Tell the core we are spinning: cheaper for the sibling hyperthread and
 * faster to leave the loop when the awaited store arrives. */
static inline void
cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__asm__ __volatile__("pause" ::: "memory");
#elif defined(__aarch64__)
	__asm__ __volatile__("yield" ::: "memory");
#else
	atomic_signal_fence(memory_order_seq_cst);
#endif
}

/*
 * ThreadSanitizer does not model atomic_thread_fence(): it neither sees the
 * ordering a fence gives nor checks it.  Two places rely on a seq_cst fence
 * for store-to-load ordering (the deque's pop/steal race, and the sleeper's
 * last look at the injection stack against an injector).  The fences there
 * publish no data, so TSan would not report a false race; but what it checks
 * should be what the protocol relies on, so under TSan those places use the
 * equivalent form it does model: the accesses on both sides of the fence are
 * themselves seq_cst, and the fence goes.  Both forms give the Dekker
 * guarantee the protocol comments rely on: of two threads that each write
 * one variable and then read the other, at least one sees the other's write.
 * The fence form runs in production and under ASan.  The spin model of the
 * sleep protocol (sleep.pml) lets a relaxed look at the injection stack miss
 * a push unless such a fence pair orders it, and fails without the fences.
 *
 * WSPX_FENCED(order) wraps the order of an access that sits next to such a
 * fence: it is `order` in the normal build and seq_cst under TSan, where
 * wspx__fence_seq_cst() does nothing.  The protocol comment of each use names
 * the partner on the other side.
 */
#if defined(__SANITIZE_THREAD__)
#define WSPX_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define WSPX_TSAN 1
#endif
#endif

#ifdef WSPX_TSAN
#define WSPX_FENCED(order) memory_order_seq_cst
static inline void
wspx__fence_seq_cst(void)
{
}
#else
#define WSPX_FENCED(order) (order)
static inline void
wspx__fence_seq_cst(void)
{
	atomic_thread_fence(memory_order_seq_cst);
}
#endif

#endif /* WSPX_ATOMIC_H */
