/*
 * The clock the kernel stamps file times with, for the up-to-date state's
 * racy case: a file whose mtime is not before this clock's time when its
 * content was read may be written again with the same mtime.
 */
#ifndef WSPX_FSCLOCK_H
#define WSPX_FSCLOCK_H

#include <stdint.h>

/* The time of the coarse real-time clock Linux stamps files with, in ns
 * since the epoch (where there is no such clock, CLOCK_REALTIME a second
 * back).  Any thread. */
int64_t wspx__fsclock_ns(void);

#endif /* WSPX_FSCLOCK_H */
