/*
 * The clock the kernel stamps file times with, for the up-to-date state's
 * racy case: a file whose mtime is not before this clock's time when its
 * content was read may be written again with the same mtime.
 */
#ifndef WSPX_FSCLOCK_H
#define WSPX_FSCLOCK_H

#include <stdbool.h>
#include <stdint.h>

/* The time of the coarse real-time clock Linux stamps files with, in ns
 * since the epoch (where there is no such clock, CLOCK_REALTIME a second
 * back).  Any thread. */
int64_t wspx__fsclock_ns(void);

/* Whether the file system of fd is one of Linux's local ones that stamp
 * times with that clock, to the nanosecond (ext4, XFS, Btrfs, tmpfs,
 * F2FS, overlayfs, ZFS): not a network or FUSE file system, whose times
 * may come from another machine's clock, nor one of coarse times.  false
 * if it cannot be told.  Any thread. */
bool wspx__fsclock_local(int fd);

#endif /* WSPX_FSCLOCK_H */
