/*
 * The clock of file times (see fsclock.h).  Linux stamps a file with the
 * coarse real-time clock (the time of the last tick), so reading the same
 * clock is what tells whether a later write could land in the same tick;
 * CLOCK_REALTIME_COARSE needs _GNU_SOURCE, which only os/ asks for.
 */
#define _GNU_SOURCE
#include "fsclock.h"

#include <time.h>

#ifdef __linux__
#include <sys/vfs.h>
#endif

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

bool
wspx__fsclock_local(int fd)
{
#ifdef __linux__
	/* (their magic numbers, as linux/magic.h has them) */
	static const unsigned long local[] = {
		0xef53,		/* ext2, ext3, ext4 */
		0x58465342,	/* XFS */
		0x9123683e,	/* Btrfs */
		0x01021994,	/* tmpfs */
		0xf2f52010,	/* F2FS */
		0x794c7630,	/* overlayfs, over one of these */
		0x2fc12fc1,	/* ZFS */
	};
	struct statfs sb;
	size_t i;

	if (fstatfs(fd, &sb) != 0)
		return false;
	for (i = 0; i < sizeof(local) / sizeof(local[0]); i++)
		if ((unsigned long)sb.f_type == local[i])
			return true;
#else
	(void)fd;
#endif
	return false;
}
