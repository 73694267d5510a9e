/*
 * The clock of file times (see fsclock.h).  Linux stamps a file with the
 * coarse real-time clock (the time of the last tick), so reading the same
 * clock is what tells whether a later write could land in the same tick;
 * CLOCK_REALTIME_COARSE needs _GNU_SOURCE, which only os/ asks for.
 */
#define _GNU_SOURCE
#include "fsclock.h"

#include <time.h>

#include "base/clock.h"

int64_t
wspx__fsclock_ns(void)
{
#ifdef CLOCK_REALTIME_COARSE
	return wspx__clock_ns(CLOCK_REALTIME_COARSE);
#else
	/* (a second back: no file system ticks slower but FAT's 2 s, which
	 * the caller allows for) */
	return wspx__clock_ns(CLOCK_REALTIME) - WSPX_NS_PER_S;
#endif
}
