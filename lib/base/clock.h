/*
 * The clocks, as every part of wspx reads them: a time is nanoseconds in
 * an int64_t (CLOCK_MONOTONIC for deadlines, timeouts and run times,
 * CLOCK_REALTIME for the times reports print), and a deadline becomes a
 * struct timespec only for a timed wait.  Inline, so that the runtime's
 * paths pay no call and the library needs no object of base/ for them.
 */
#ifndef WSPX_CLOCK_H
#define WSPX_CLOCK_H

#include <stdint.h>
#include <time.h>

#define WSPX_NS_PER_S	INT64_C(1000000000)

/* The time on clock (CLOCK_MONOTONIC, CLOCK_REALTIME) in nanoseconds.
 * Any thread. */
static inline int64_t
wspx__clock_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (int64_t)ts.tv_sec * WSPX_NS_PER_S + ts.tv_nsec;
}

/* The monotonic time in nanoseconds.  Any thread. */
static inline int64_t
wspx__clock_now(void)
{
	return wspx__clock_ns(CLOCK_MONOTONIC);
}

/* The time on clock in seconds, for what works in seconds (reports,
 * the options' durations).  Any thread. */
static inline double
wspx__clock_seconds(clockid_t clock)
{
	return (double)wspx__clock_ns(clock) / 1e9;
}

/* The time ns (nanoseconds on some clock, at least 0) as a timespec, for
 * a wait until then on a condition variable or timer of that clock. */
static inline struct timespec
wspx__clock_timespec(int64_t ns)
{
	struct timespec ts;

	ts.tv_sec = (time_t)(ns / WSPX_NS_PER_S);
	ts.tv_nsec = (long)(ns % WSPX_NS_PER_S);
	return ts;
}

#endif /* WSPX_CLOCK_H */
