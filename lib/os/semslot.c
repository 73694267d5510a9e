/*
 * The semaphore's slots (see semslot.h).  Slot i is the file slot-I of
 * the directory, made by the first process that asks for it and never
 * removed: a file removed while a process holds it would let another lock
 * a new file of the same name, and a slot would have two holders.
 *
 * A waiter does not poll.  Before its first try it watches the directory
 * with inotify for a file opened for writing being closed for the last
 * time (IN_CLOSE_WRITE), which is what letting go of a slot is: every
 * process opens the slot files for writing, and a lock goes with the
 * last close of its open file, the end of its holder's process included.
 * A slot let go after a try therefore wakes the waiter, and a slot let go
 * before it was seen free by the try.  A waiter keeps its slot files open
 * while it waits, so that waiters do not wake one another by trying; a
 * last close that freed nothing (a waiter that took another slot) only
 * makes the others try again.
 */
#include "semslot.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/inotify.h>
#include <time.h>
#include <unistd.h>

#define SLOTPREFIX "slot-"

/* The fd of slot i of the directory dirfd, made if need be; or -errno. */
static int
openslot(int dirfd, unsigned i, bool create)
{
	char name[32];
	int fd;

	snprintf(name, sizeof(name), SLOTPREFIX "%u", i);
	fd = openat(dirfd, name, O_RDWR | O_CLOEXEC | O_NOFOLLOW |
	    (create ? O_CREAT : 0), 0600);
	return fd < 0 ? -errno : fd;
}

/* The index of the first of fds[0..n) whose lock was free and is now
 * taken; -EWOULDBLOCK if every one is held; or -errno. */
static int
trylock(const int *fds, unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++) {
		if (flock(fds[i], LOCK_EX | LOCK_NB) == 0)
			return (int)i;
		if (errno != EWOULDBLOCK && errno != EINTR)
			return -errno;
	}
	return -EWOULDBLOCK;
}

static int64_t
nowms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* Wait until the watch in has news, or until the monotonic time end in
 * ms (negative: no end), and read the news.  Returns 0 (also on a signal:
 * the caller tries again), -ETIMEDOUT or -errno. */
static int
awaitclose(int in, int64_t end)
{
	_Alignas(struct inotify_event) char buf[4096];
	struct pollfd pf = { in, POLLIN, 0 };
	int64_t left = end < 0 ? -1 : end - nowms();
	int r;

	if (end >= 0 && left <= 0)
		return -ETIMEDOUT;
	r = poll(&pf, 1, left > INT_MAX ? INT_MAX : (int)left);
	if (r < 0)
		return errno == EINTR ? 0 : -errno;
	while (read(in, buf, sizeof(buf)) > 0)
		;
	return 0;
}

/* With the n slot files open in fds, the watch in set up: take one.
 * Returns its index, -ETIMEDOUT or -errno. */
static int
waitslot(int in, const int *fds, unsigned n, int timeout_ms)
{
	int64_t end = timeout_ms < 0 ? -1 : nowms() + timeout_ms;
	int got, rc;

	while ((got = trylock(fds, n)) == -EWOULDBLOCK) {
		rc = awaitclose(in, end);
		if (rc == -ETIMEDOUT)
			/* (one last try: a slot let go at the deadline) */
			return (got = trylock(fds, n)) == -EWOULDBLOCK ?
			    -ETIMEDOUT : got;
		if (rc != 0)
			return rc;
	}
	return got;
}

int
wspx__semslot_take(const char *dir, unsigned n, int timeout_ms)
{
	int dirfd, in, *fds, got;
	unsigned i, nopen = 0;

	if (n == 0)
		return -EINVAL;
	if ((fds = calloc(n, sizeof(*fds))) == NULL)
		return -ENOMEM;
	got = dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0) {
		free(fds);
		return -errno;
	}
	if ((in = inotify_init1(IN_NONBLOCK | IN_CLOEXEC)) < 0 ||
	    inotify_add_watch(in, dir, IN_CLOSE_WRITE) < 0)
		got = -errno;
	while (got >= 0 && nopen < n)
		if ((got = fds[nopen] = openslot(dirfd, nopen, true)) >= 0)
			nopen++;
	if (got >= 0)
		got = waitslot(in, fds, n, timeout_ms);
	for (i = 0; i < nopen; i++)
		if ((int)i != got)
			close(fds[i]);
	got = got >= 0 ? fds[got] : got;
	if (in >= 0)
		close(in);
	close(dirfd);
	free(fds);
	return got;
}

/* One more than the highest slot number among the files of dirfd, or
 * -errno. */
static int
countslots(int dirfd)
{
	DIR *d;
	struct dirent *e;
	unsigned long i;
	char *end;
	int fd, n = 0;

	if ((fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY |
	    O_CLOEXEC)) < 0 || (d = fdopendir(fd)) == NULL) {
		n = -errno;
		if (fd >= 0)
			close(fd);
		return n;
	}
	while ((e = readdir(d)) != NULL) {
		if (strncmp(e->d_name, SLOTPREFIX, strlen(SLOTPREFIX)) != 0)
			continue;
		i = strtoul(e->d_name + strlen(SLOTPREFIX), &end, 10);
		if (*end == '\0' && i < INT_MAX && (int)i >= n)
			n = (int)i + 1;
	}
	closedir(d);
	return n;
}

/* Take slots from *held up to n (those not there skipped), blocking on
 * each, their fds in fds. */
static int
lockupto(int dirfd, int *fds, int *held, int n)
{
	for (; *held < n; (*held)++) {
		if ((fds[*held] = openslot(dirfd, (unsigned)*held,
		    false)) == -ENOENT)
			continue;
		if (fds[*held] < 0)
			return fds[*held];
		while (flock(fds[*held], LOCK_EX) != 0)
			if (errno != EINTR) {
				close(fds[*held]);
				fds[*held] = -1;
				return -errno;
			}
	}
	return 0;
}

int
wspx__semslot_drain(const char *dir)
{
	int dirfd, *fds = NULL, *more, held = 0, n, i, rc = 0;

	if ((dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return errno == ENOENT ? 0 : -errno;
	while (rc == 0 && (n = countslots(dirfd)) > held) {
		if ((more = realloc(fds, (size_t)n * sizeof(*fds))) == NULL) {
			rc = -ENOMEM;
			break;
		}
		fds = more;
		for (i = held; i < n; i++)
			fds[i] = -1;
		rc = lockupto(dirfd, fds, &held, n);
	}
	if (rc == 0 && n < 0)
		rc = n;
	for (i = 0; i < held; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	free(fds);
	close(dirfd);
	return rc;
}
