/*
 * The builtins that wait (see builtin.h): sleep, and wait-for, which
 * waits for a path to appear or a TCP port on 127.0.0.1 to accept a
 * connection.  Both are ticks: a job of the bcall injected by the timer,
 * which looks at the clock, the stop flag and what it waits for, and
 * either ends the call or adds itself to the timer again; between ticks
 * the call holds no worker.  A port is tried with a non-blocking connect,
 * whose result the next tick polls for, so no tick blocks either.
 */
#include "builtin_int.h"

#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/clock.h"
#include "runtime/timer.h"

/* How often wait-for looks again. */
#define TICK_NS 50000000

static bool
stopping(const struct wspx__bcall *c)
{
	/* relaxed: the flag orders nothing.  A stop sets it and then calls
	 * wspx__timer_fire_all(), whose mutex and injection make it visible
	 * to the ticks that the stop sends early; a tick added just after
	 * that is sent by the caller's next fire_all. */
	return c->stopping != NULL &&
	    atomic_load_explicit(c->stopping, memory_order_relaxed);
}

static void
sleeptick(struct wspx_worker *w, struct wspx_job *job)
{
	struct wspx__bcall *c = wspx_container_of(job, struct wspx__bcall,
	    job);

	if (stopping(c)) {
		c->status = -ECANCELED;
	} else if (wspx__clock_now() < c->deadline) {
		/* Not yet (the first tick, or one sent early). */
		wspx__timer_add(c->timer, &c->timeout, c->deadline, &c->job);
		return;
	}
	c->done(w, c);
}

void
wspx__builtin_sleep(struct wspx_worker *w, struct wspx__bcall *c)
{
	const char *s;
	int64_t ns;

	if (!wspx__builtin_str(c, "duration", true, &s) ||
	    !wspx__builtin_duration(c, "duration", s, &ns)) {
		c->done(w, c);
		return;
	}
	c->deadline = wspx__clock_now() + ns;
	c->job.run = sleeptick;
	sleeptick(w, &c->job);
}

/* Start a connect to the port on 127.0.0.1.  Returns true if it is
 * made; false if it is under way (c->fd set) or failed (refused at once,
 * as loopback does with no listener). */
static bool
connectnow(struct wspx__bcall *c)
{
	struct sockaddr_in a;
	int fd;

	fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return false;
	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_port = htons((uint16_t)c->port);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (connect(fd, (struct sockaddr *)&a, sizeof(a)) == 0) {
		close(fd);
		return true;
	}
	if (errno == EINPROGRESS)
		c->fd = fd;
	else
		close(fd);
	return false;
}

/* Whether the port accepted a connection: the one under way since the
 * last tick, or a new one. */
static bool
portready(struct wspx__bcall *c)
{
	struct pollfd p = { .fd = c->fd, .events = POLLOUT };
	socklen_t len = sizeof(int);
	int err = 0;

	if (c->fd >= 0) {
		if (poll(&p, 1, 0) == 0)
			return false;
		if (getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &err, &len) == 0 &&
		    err == 0)
			return true;
		close(c->fd);
		c->fd = -1;
	}
	return connectnow(c);
}

static void
waitend(struct wspx_worker *w, struct wspx__bcall *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	c->done(w, c);
}

static void
waittick(struct wspx_worker *w, struct wspx_job *job)
{
	struct wspx__bcall *c = wspx_container_of(job, struct wspx__bcall,
	    job);
	struct stat st;
	int64_t now;
	bool ready;

	if (stopping(c)) {
		c->status = -ECANCELED;
		waitend(w, c);
		return;
	}
	ready = c->port != 0 ? portready(c) :
	    fstatat(c->dirfd, c->what, &st, 0) == 0;
	now = wspx__clock_now();
	if (ready) {
		waitend(w, c);
	} else if (now >= c->deadline) {
		wspx__builtin_fail(c, "%s%s did not %s within %s",
		    c->port != 0 ? "port " : "", c->what, c->port != 0 ?
		    "accept a connection" : "appear", c->within);
		waitend(w, c);
	} else {
		/* The last look is at the deadline itself. */
		wspx__timer_add(c->timer, &c->timeout, now + TICK_NS <
		    c->deadline ? now + TICK_NS : c->deadline, &c->job);
	}
}

/* Read wait-for's arguments into c. */
static bool
waitsetup(struct wspx__bcall *c)
{
	const char *path, *port;
	int64_t ns;

	if (!wspx__builtin_str(c, "path", false, &path) ||
	    !wspx__builtin_str(c, "port", false, &port) ||
	    !wspx__builtin_str(c, "timeout", false, &c->within))
		return false;
	if ((path == NULL) == (port == NULL))
		return wspx__builtin_fail(c, "needs 'path' or 'port' (one)");
	if (c->within == NULL)
		c->within = "30s";
	if (!wspx__builtin_duration(c, "timeout", c->within, &ns))
		return false;
	c->what = path != NULL ? path : port;
	c->port = 0;
	if (port != NULL && !wspx__builtin_port(c, "port", port, &c->port))
		return false;
	c->deadline = wspx__clock_now() + ns;
	return true;
}

void
wspx__builtin_waitfor(struct wspx_worker *w, struct wspx__bcall *c)
{
	if (!waitsetup(c)) {
		c->done(w, c);
		return;
	}
	c->job.run = waittick;
	waittick(w, &c->job);
}
