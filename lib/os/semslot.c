/*
 * The semaphore's slots (see semslot.h).  Slot i is the file slot-I of
 * the directory, made by the first process that asks for it and never
 * removed: a file removed while a process holds it would let another lock
 * a new file of the same name, and a slot would have two holders.
 *
 * A waiter sleeps until a slot may have come free.  Before its first try
 * it watches the directory with inotify for a file opened for writing
 * being closed for the last time (IN_CLOSE_WRITE): every process opens
 * the slot files for writing, and a lock goes with the last close of its
 * open file, the end of its holder's process included.  The kernel sends
 * that event before it lets go of the lock (__fput: fsnotify_close, then
 * locks_remove_file), so a waiter that an event woke may still find the
 * slot held, with no event left to come: each sleep is therefore bounded,
 * 10 ms after an event, then twice as long each time up to a second.  A
 * slot let go after a try thus wakes the waiter at once, or within a
 * moment if it was still being let go; one let go before a try was seen
 * free by it.  Where inotify cannot be had (its limit of instances per
 * user, 128 by default, is reached by that many waiters) the waiter only
 * sleeps so.  A waiter keeps its slot files open while it waits, so that
 * waiters do not wake one another by trying; a last close that freed
 * nothing (a waiter that took another slot) only makes the others try
 * again.
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
#include <unistd.h>

#include "base/clock.h"

#define SLOTPREFIX "slot-"

/* A waiter's naps: after news, then twice as long each time up to the
 * most (see the top of the file). */
#define NAP_MIN_MS 10
#define NAP_MAX_MS 1000

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

/* The monotonic time in ms. */
static int64_t
nowms(void)
{
	return wspx__clock_now() / 1000000;
}

/* How a waiter sleeps: the watch (or -1: none), its deadline in
 * monotonic ms (negative: none), and its next nap. */
struct waiter {
	int in;
	int64_t end;
	int nap;
};

static void
waiter_init(struct waiter *w, const char *dir, int timeout_ms)
{
	w->end = timeout_ms < 0 ? -1 : nowms() + timeout_ms;
	w->nap = NAP_MIN_MS;
	if ((w->in = inotify_init1(IN_NONBLOCK | IN_CLOEXEC)) >= 0 &&
	    inotify_add_watch(w->in, dir, IN_CLOSE_WRITE) < 0) {
		close(w->in);
		w->in = -1;
	}
}

static void
waiter_fini(struct waiter *w)
{
	if (w->in >= 0)
		close(w->in);
}

/* Sleep until the watch has news or the nap is over, and read the news.
 * Returns 0 (also on a signal: the caller tries again), or -ETIMEDOUT
 * once the deadline has passed. */
static int
waiter_sleep(struct waiter *w)
{
	_Alignas(struct inotify_event) char buf[4096];
	struct pollfd pf = { w->in, POLLIN, 0 };
	int64_t left = w->end < 0 ? w->nap : w->end - nowms();
	int ms = left < w->nap ? (int)left : w->nap;

	if (w->end >= 0 && left <= 0)
		return -ETIMEDOUT;
	if (poll(&pf, w->in >= 0, ms) > 0) {
		while (read(w->in, buf, sizeof(buf)) > 0)
			;
		w->nap = NAP_MIN_MS;
	} else if (w->nap < NAP_MAX_MS) {
		w->nap = 2 * w->nap < NAP_MAX_MS ? 2 * w->nap : NAP_MAX_MS;
	}
	return 0;
}

/* With the n slot files open in fds: take one, waiting as w says.
 * Returns its index, -ETIMEDOUT or -errno. */
static int
waitslot(struct waiter *w, const int *fds, unsigned n)
{
	int got, rc;

	while ((got = trylock(fds, n)) == -EWOULDBLOCK)
		if ((rc = waiter_sleep(w)) != 0)
			/* (one last try: a slot let go at the deadline) */
			return (got = trylock(fds, n)) == -EWOULDBLOCK ? rc :
			    got;
	return got;
}

int
wspx__semslot_take(const char *dir, unsigned n, int timeout_ms)
{
	struct waiter w;
	int dirfd, *fds, got;
	unsigned i, nopen = 0;

	if (n == 0)
		return -EINVAL;
	if ((fds = calloc(n, sizeof(*fds))) == NULL)
		return -ENOMEM;
	if ((got = dirfd = open(dir, O_RDONLY | O_DIRECTORY |
	    O_CLOEXEC)) < 0) {
		free(fds);
		return -errno;
	}
	waiter_init(&w, dir, timeout_ms);
	while (got >= 0 && nopen < n)
		if ((got = fds[nopen] = openslot(dirfd, nopen, true)) >= 0)
			nopen++;
	if (got >= 0)
		got = waitslot(&w, fds, n);
	for (i = 0; i < nopen; i++)
		if ((int)i != got)
			close(fds[i]);
	got = got >= 0 ? fds[got] : got;
	waiter_fini(&w);
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

/* Take slots from *held up to n (those not there skipped), waiting for
 * each as w says, their fds in fds.  Returns 0, -ETIMEDOUT or -errno. */
static int
lockupto(struct waiter *w, int dirfd, int *fds, int *held, int n)
{
	int rc;

	for (; *held < n; (*held)++) {
		if ((fds[*held] = openslot(dirfd, (unsigned)*held,
		    false)) == -ENOENT)
			continue;
		if (fds[*held] < 0)
			return fds[*held];
		while ((rc = trylock(&fds[*held], 1)) == -EWOULDBLOCK &&
		    (rc = waiter_sleep(w)) == 0)
			;
		if (rc < 0) {
			close(fds[*held]);
			fds[*held] = -1;
			return rc;
		}
	}
	return 0;
}

int
wspx__semslot_drain(const char *dir, int timeout_ms)
{
	struct waiter w;
	int dirfd, *fds = NULL, *more, held = 0, n, i, rc = 0;

	if ((dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return errno == ENOENT ? 0 : -errno;
	waiter_init(&w, dir, timeout_ms);
	while (rc == 0 && (n = countslots(dirfd)) > held) {
		if ((more = realloc(fds, (size_t)n * sizeof(*fds))) == NULL) {
			rc = -ENOMEM;
			break;
		}
		fds = more;
		for (i = held; i < n; i++)
			fds[i] = -1;
		rc = lockupto(&w, dirfd, fds, &held, n);
	}
	if (rc == 0 && n < 0)
		rc = n;
	for (i = 0; i < held; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	free(fds);
	waiter_fini(&w);
	close(dirfd);
	return rc;
}
