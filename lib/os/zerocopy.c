/*
 * Zero-copy moves (see zerocopy.h).  splice(2) from a file into a pipe
 * hands the pipe references to the page cache's pages, so a job's reader
 * copies each byte once, from the cache, as `wc -l < file` would; and
 * copy_file_range(2) lets the kernel copy a range between files; and
 * vmsplice(2) hands a pipe references to wspx's own pages, which saves
 * the copy into the pipe (the reader's copy out of it remains).  They
 * need _GNU_SOURCE, as the platform's calls may in os/ alone.  Where
 * they are missing, or refuse the files (-EINVAL: a file system that
 * cannot splice), read() and write() do the work, through a 64 KiB
 * buffer on the stack for files.
 */
#define _GNU_SOURCE
#include "zerocopy.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <sys/uio.h>
#include <unistd.h>

#define BOUNCE (64 * 1024)

/* The fallback: read into a buffer and write what the pipe takes; what it
 * does not take is read again next time, as *off advances only by what
 * was written. */
static ssize_t
bounce(int fd, uint64_t *off, int p, size_t n)
{
	char buf[BOUNCE];
	ssize_t got, put;

	got = pread(fd, buf, n < BOUNCE ? n : BOUNCE, (off_t)*off);
	if (got <= 0)
		return got < 0 ? -errno : 0;
	if ((put = write(p, buf, (size_t)got)) < 0)
		return -errno;
	*off += (uint64_t)put;
	return put;
}

ssize_t
wspx__zerocopy_filetopipe(int fd, uint64_t *off, int p, size_t n)
{
#ifdef SPLICE_F_MOVE
	loff_t o = (loff_t)*off;
	ssize_t moved;

	moved = splice(fd, &o, p, NULL, n, SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
	if (moved >= 0) {
		*off = (uint64_t)o;
		return moved;
	}
	if (errno != EINVAL && errno != ENOSYS)
		return -errno;
#endif
	return bounce(fd, off, p, n);
}

ssize_t
wspx__zerocopy_memtopipe(int p, const char *mem, size_t n)
{
	ssize_t moved;
#ifdef SPLICE_F_MOVE
	struct iovec iov = { (void *)(uintptr_t)mem, n };

	if ((moved = vmsplice(p, &iov, 1, SPLICE_F_NONBLOCK)) >= 0)
		return moved;
	if (errno != EINVAL && errno != ENOSYS)
		return -errno;
#endif
	moved = write(p, mem, n);
	return moved >= 0 ? moved : -errno;
}

int
wspx__zerocopy_copyrange(int fd, uint64_t off, uint64_t n, int dst)
{
	char buf[BOUNCE];
	ssize_t got, put;
	size_t done;
#ifdef SPLICE_F_MOVE
	loff_t o = (loff_t)off;

	while (n > 0 && (got = copy_file_range(fd, &o, dst, NULL, n, 0)) > 0)
		n -= (uint64_t)got;
	if (n == 0)
		return 0;
	off = (uint64_t)o;
#endif
	while (n > 0) {
		got = pread(fd, buf, n < BOUNCE ? n : BOUNCE, (off_t)off);
		if (got <= 0)
			return got < 0 ? -errno : -EIO;
		for (done = 0; done < (size_t)got;) {
			put = write(dst, buf + done, (size_t)got - done);
			if (put < 0 && errno != EINTR)
				return -errno;
			done += put > 0 ? (size_t)put : 0;
		}
		off += (uint64_t)got;
		n -= (uint64_t)got;
	}
	return 0;
}
