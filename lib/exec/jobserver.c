/*
 * GNU make's jobserver, so that wspx and make share one -j budget.
 *
 * The protocol.  A make run with -jN creates a pipe and writes N - 1
 * tokens into it (bytes, '+' by convention), then tells the makes it
 * starts where the pipe is through MAKEFLAGS: --jobserver-auth=R,W naming
 * two inherited fds (make 4.3, and make 4.4 with --jobserver-style=pipe;
 * --jobserver-fds=R,W before 4.2), or --jobserver-auth=fifo:PATH naming a
 * FIFO to open (make 4.4).  Every process in the tree owns one implicit
 * token, the one its parent spent to start it: its first job runs on that.
 * Each further job that runs at once needs a byte read from the pipe
 * first, and the same byte is written back when the job ends.  So at most
 * N jobs run in the whole tree, and the budget is conserved only if every
 * byte read is written back: tokens are handed out as the byte read, and
 * given back as that byte.  make 4.3 passes the fds only to recipes marked
 * '+' (or running $(MAKE)); to others it passes the option but closes the
 * fds at exec, and make 4.4 in pipe style overrides it with R,W = -2,-2.
 * The fds may then be unused or reused by something else, so a client
 * checks that R and W are the two ends of one pipe.
 *
 * Why our own file description.  Waiting must be interruptible (take
 * polls for a stop request), and several processes race for each byte,
 * so we read without blocking and treat EAGAIN as a lost race.  But
 * O_NONBLOCK belongs to the open file description, which R shares with
 * make and every other client: make before 4.2 relies on its reads
 * blocking, make 4.3 sets O_NONBLOCK on it itself, and changing the flag
 * would break one or the other.  Opening /proc/self/fd/R gives a new
 * description of the same pipe, non-blocking and close-on-exec, and
 * leaves make's alone.  W is used as it is: writing one byte to a pipe is
 * atomic and, since the pipe never holds more than N - 1 bytes, does not
 * block; if W is non-blocking anyway, EAGAIN is waited out with poll().
 * A FIFO we open ourselves, O_RDWR: one description for both directions,
 * and reads never see end of file.
 *
 * The implicit token is a flag under js->lock: one job at a time holds it.
 * A take that finds it held waits in poll() on the jobserver and on a
 * private wake pipe, counted in js->waiting; a give of the implicit token
 * that sees a waiter writes one byte to the wake pipe (js->woken), and
 * whoever takes the implicit token next reads it back.  Both happen under
 * the lock, so the wake pipe holds a byte exactly while js->woken, and a
 * waiter either sees the token free before it counts itself or is counted
 * before the give and so is woken, without waiting up to 50 ms for its
 * next poll.
 */
#include "jobserver.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "os/proc.h"
#include "os/thread.h"

#define IMPLICIT	(-1)	/* the implicit token's value for give */
#define TICK_MS		50	/* a waiting take asks stopping() this often */
#define MAXTOKENS	32769u	/* pipe bytes at most half of a 64 KiB pipe */
#define AUTH_OPT	"--jobserver-auth="
#define FDS_OPT		"--jobserver-fds="
#define FIFO_PREFIX	"fifo:"

struct wspx__jobserver {
	pthread_mutex_t lock;
	bool held;		/* lock: a job holds the implicit token */
	bool woken;		/* lock: wake[0] holds a byte */
	unsigned waiting;	/* lock: takes waiting in await() */
	int wake[2];		/* ours: the implicit token came free */
	int rfd;		/* ours, O_NONBLOCK: tokens are read here */
	int wfd;		/* tokens are written back here: make's W,
				 * rfd (a FIFO) or srv[1] */
	int srv[2];		/* a server's pipe, inheritable; else -1 */
};

/* A cursor over the words of a MAKEFLAGS value. */
struct words {
	const char *p;		/* where the next word is looked for */
	const char *w;		/* the current word */
	size_t len;		/* its length */
};

static bool
nextword(struct words *it)
{
	it->w = it->p + strspn(it->p, " \t");
	it->len = strcspn(it->w, " \t");
	it->p = it->w + it->len;
	return it->len > 0;
}

static bool
isword(const struct words *it, const char *s)
{
	return it->len == strlen(s) && memcmp(it->w, s, it->len) == 0;
}

static bool
hasprefix(const struct words *it, const char *s)
{
	return it->len >= strlen(s) && memcmp(it->w, s, strlen(s)) == 0;
}

static bool
isdigits(const char *s, size_t len)
{
	return len > 0 && strspn(s, "0123456789") >= len;
}

static bool
isauth(const struct words *it)
{
	return hasprefix(it, AUTH_OPT) || hasprefix(it, FDS_OPT);
}

/* Whether the word is a -j option: -j, -jN, --jobs, --jobs=N. */
static bool
isjobs(const struct words *it)
{
	return isword(it, "-j") || isword(it, "--jobs") ||
	    hasprefix(it, "--jobs=") || (hasprefix(it, "-j") &&
	    isdigits(it->w + 2, it->len - 2));
}

/* Start a cursor on makeflags past its first word if that holds
 * single-letter flags ("kn"; make writes no '-' there), so that nextword()
 * returns the options.  Returns the first word's length, or 0. */
static size_t
startwords(struct words *it, const char *makeflags)
{
	it->p = makeflags;
	if (!nextword(it) || it->w[0] == '-') {
		it->p = makeflags;
		return 0;
	}
	return it->len;
}

/* The value of the last jobserver option in makeflags, before any "--"
 * (variable definitions follow that).  Returns NULL if there is none. */
static const char *
findauth(const char *makeflags, size_t *len)
{
	struct words it;
	const char *val = NULL;

	(void)startwords(&it, makeflags);
	while (nextword(&it) && !isword(&it, "--")) {
		if (!isauth(&it))
			continue;
		val = (const char *)memchr(it.w, '=', it.len) + 1;
		*len = it.len - (size_t)(val - it.w);
	}
	return val;
}

/* Read the decimal int in s[0..len), maybe negative.  Returns 0 or
 * -EINVAL. */
static int
parsefd(const char *s, size_t len, int *fd)
{
	bool neg = len > 0 && s[0] == '-';
	long v = 0;
	size_t i;

	if (!isdigits(s + neg, len - neg))
		return -EINVAL;
	for (i = neg; i < len; i++)
		if ((v = v * 10 + (s[i] - '0')) > INT_MAX)
			return -EINVAL;
	*fd = neg ? -(int)v : (int)v;
	return 0;
}

/* Open our own non-blocking description of the pipe that fd reads from.
 * Returns the new fd or -errno. */
static int
ownreader(int fd)
{
	return wspx__proc_reopen(fd, O_RDONLY | O_NONBLOCK);
}

/* Whether fd is open for reading (or, with write, writing) on a pipe;
 * sets *st. */
static bool
pipeend(int fd, bool write, struct stat *st)
{
	int fl;

	if (fd < 0 || fstat(fd, st) != 0 || !S_ISFIFO(st->st_mode) ||
	    (fl = fcntl(fd, F_GETFL)) < 0)
		return false;
	fl &= O_ACCMODE;
	return fl == O_RDWR || fl == (write ? O_WRONLY : O_RDONLY);
}

/* Read the pipe form's "R,W" in val[0..len) into fds and check that they
 * are the two ends of one pipe.  Returns 0, -EINVAL or -EBADF. */
static int
pipefds(const char *val, size_t len, int fds[2])
{
	struct stat rst, wst;
	const char *comma;

	if ((comma = memchr(val, ',', len)) == NULL ||
	    parsefd(val, (size_t)(comma - val), &fds[0]) != 0 ||
	    parsefd(comma + 1, len - (size_t)(comma + 1 - val), &fds[1]) != 0)
		return -EINVAL;
	if (!pipeend(fds[0], false, &rst) || !pipeend(fds[1], true, &wst) ||
	    rst.st_dev != wst.st_dev || rst.st_ino != wst.st_ino)
		return -EBADF;
	return 0;
}

static bool
isfifo(const char *val, size_t len)
{
	return len >= strlen(FIFO_PREFIX) &&
	    memcmp(val, FIFO_PREFIX, strlen(FIFO_PREFIX)) == 0;
}

/* Open the FIFO at path[0..len).  Returns 0 or -errno. */
static int
usefifo(struct wspx__jobserver *js, const char *path, size_t len)
{
	struct stat st;
	char *p;

	if (len == 0)
		return -EINVAL;
	if ((p = strndup(path, len)) == NULL)
		return -ENOMEM;
	js->rfd = open(p, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	free(p);
	if (js->rfd < 0)
		return -errno;
	if (fstat(js->rfd, &st) != 0 || !S_ISFIFO(st.st_mode))
		return -EBADF;
	js->wfd = js->rfd;
	return 0;
}

static int
jsnew(struct wspx__jobserver **out)
{
	struct wspx__jobserver *js;
	int rc;

	if ((js = calloc(1, sizeof(*js))) == NULL)
		return -ENOMEM;
	js->rfd = js->wfd = -1;
	js->srv[0] = js->srv[1] = -1;
	if ((rc = wspx__proc_pipe(js->wake)) != 0) {
		free(js);
		return rc;
	}
	WSPX_MUST(pthread_mutex_init(&js->lock, NULL));
	*out = js;
	return 0;
}

int
wspx__jobserver_client(struct wspx__jobserver **js, const char *makeflags)
{
	struct wspx__jobserver *j;
	const char *val;
	size_t len;
	int rc, fds[2];

	*js = NULL;
	if (makeflags == NULL || (val = findauth(makeflags, &len)) == NULL)
		return 0;
	/* R and W first: an fd opened before the check could take the
	 * number of one that make did not pass, and pass for it. */
	if (!isfifo(val, len) && (rc = pipefds(val, len, fds)) != 0)
		return rc;
	if ((rc = jsnew(&j)) != 0)
		return rc;
	if (isfifo(val, len))
		rc = usefifo(j, val + strlen(FIFO_PREFIX),
		    len - strlen(FIFO_PREFIX));
	else if ((j->rfd = ownreader(fds[0])) < 0)
		rc = j->rfd;
	else
		j->wfd = fds[1];
	if (rc != 0)
		goto fail;
	*js = j;
	return 0;
fail:
	wspx__jobserver_free(j);
	return rc;
}

/* Write count tokens into the new pipe js->srv, through a non-blocking
 * description of our own: a pipe smaller than asked for (the user is over
 * /proc/sys/fs/pipe-user-pages-soft) fails instead of hanging. */
static int
fill(struct wspx__jobserver *js, unsigned count)
{
	char buf[4096];
	size_t n;
	ssize_t r;
	int fd, rc = 0;

	if ((fd = wspx__proc_reopen(js->srv[1], O_WRONLY | O_NONBLOCK)) < 0)
		return fd;
	memset(buf, '+', sizeof(buf));
	while (count > 0 && rc == 0) {
		n = count < sizeof(buf) ? count : sizeof(buf);
		if ((r = write(fd, buf, n)) > 0)
			count -= (unsigned)r;
		else if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			rc = -ENOBUFS;
		else if (r < 0 && errno != EINTR)
			rc = -errno;
	}
	close(fd);
	return rc;
}

/* Create the server's pipe, inheritable and blocking as the jobs' make
 * expects, and put count tokens in it. */
static int
serve(struct wspx__jobserver *js, unsigned count)
{
	if (pipe(js->srv) != 0)
		return -errno;
	if ((js->rfd = ownreader(js->srv[0])) < 0)
		return js->rfd;
	js->wfd = js->srv[1];
	return fill(js, count);
}

static char *
put(char *d, const char *s, size_t len)
{
	memcpy(d, s, len);
	return d + len;
}

/* Set *out to old less its jobserver and -j options, with "-j<n>" and the
 * jobserver option of srv (if srv[0] >= 0) after its flags word, as make
 * writes them.  Words from "--" on are variable definitions: kept as they
 * are. */
static int
exportflags(const char *old, unsigned n, const int srv[2], char **out)
{
	struct words it;
	bool jarg = false;
	size_t flags;
	char *s, *d;

	if (old == NULL)
		old = "";
	if ((s = malloc(strlen(old) + 80)) == NULL)
		return -ENOMEM;
	flags = startwords(&it, old);
	d = put(s, it.p - flags, flags);
	d += sprintf(d, " -j%u", n > 1 ? n : 1);
	if (srv[0] >= 0)
		d += sprintf(d, " " AUTH_OPT "%d,%d", srv[0], srv[1]);
	while (nextword(&it)) {
		if (isword(&it, "--")) {
			d += sprintf(d, " %s", it.w);
			break;
		}
		if (isauth(&it) || isjobs(&it) || (jarg &&
		    isdigits(it.w, it.len))) {
			jarg = isword(&it, "-j") || isword(&it, "--jobs");
			continue;
		}
		jarg = false;
		d = put(put(d, " ", 1), it.w, it.len);
	}
	*d = '\0';
	*out = s;
	return 0;
}

int
wspx__jobserver_server(struct wspx__jobserver **js, unsigned n,
    const char *oldmakeflags, char **makeflags)
{
	struct wspx__jobserver *j;
	int rc;

	*js = NULL;
	*makeflags = NULL;
	if (n > MAXTOKENS)
		return -EINVAL;
	if ((rc = jsnew(&j)) != 0)
		return rc;
	if (n > 1 && (rc = serve(j, n - 1)) != 0)
		goto fail;
	if ((rc = exportflags(oldmakeflags, n, j->srv, makeflags)) != 0)
		goto fail;
	*js = j;
	return 0;
fail:
	wspx__jobserver_free(j);
	return rc;
}

/* Take the implicit token if it is free.  js->lock is held. */
static bool
grabimplicit(struct wspx__jobserver *js)
{
	char c;

	if (js->held)
		return false;
	js->held = true;
	if (js->woken) {
		while (read(js->wake[0], &c, 1) < 0 && errno == EINTR)
			;
		js->woken = false;
	}
	return true;
}

static bool
tryimplicit(struct wspx__jobserver *js)
{
	bool got;

	WSPX_MUST(pthread_mutex_lock(&js->lock));
	got = grabimplicit(js);
	WSPX_MUST(pthread_mutex_unlock(&js->lock));
	return got;
}

/* Read a token.  Returns 1, 0 if another process was first, or -errno. */
static int
readtoken(struct wspx__jobserver *js, int *tok)
{
	unsigned char c;
	ssize_t r;

	if ((r = read(js->rfd, &c, 1)) == 1) {
		*tok = c;
		return 1;
	}
	if (r == 0)
		return -EPIPE;	/* no writer: not a jobserver any more */
	return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ?
	    0 : -errno;
}

/* Wait for the implicit token or a byte, as take says.  The caller is
 * counted in js->waiting. */
static int
await(struct wspx__jobserver *js, bool (*stopping)(void *), void *ctx,
    int *tok)
{
	struct pollfd pf[2];
	int rc;

	for (;;) {
		if (stopping != NULL && stopping(ctx))
			return 0;
		pf[0] = (struct pollfd){ .fd = js->wake[0], .events = POLLIN };
		pf[1] = (struct pollfd){ .fd = js->rfd, .events = POLLIN };
		if (poll(pf, js->rfd >= 0 ? 2 : 1, TICK_MS) < 0 &&
		    errno != EINTR)
			return -errno;
		if (tryimplicit(js)) {
			*tok = IMPLICIT;
			return 1;
		}
		if (pf[1].revents & POLLNVAL)
			return -EBADF;
		if (js->rfd >= 0 && pf[1].revents != 0 &&
		    (rc = readtoken(js, tok)) != 0)
			return rc;
	}
}

int
wspx__jobserver_take(struct wspx__jobserver *js, bool (*stopping)(void *),
    void *ctx, int *tok)
{
	int rc;

	WSPX_MUST(pthread_mutex_lock(&js->lock));
	if (grabimplicit(js)) {
		WSPX_MUST(pthread_mutex_unlock(&js->lock));
		*tok = IMPLICIT;
		return 1;
	}
	js->waiting++;
	WSPX_MUST(pthread_mutex_unlock(&js->lock));
	rc = await(js, stopping, ctx, tok);
	WSPX_MUST(pthread_mutex_lock(&js->lock));
	js->waiting--;
	WSPX_MUST(pthread_mutex_unlock(&js->lock));
	return rc;
}

/* Free the implicit token, waking a waiting take if there is one. */
static void
giveimplicit(struct wspx__jobserver *js)
{
	ssize_t r;

	WSPX_MUST(pthread_mutex_lock(&js->lock));
	assert(js->held);
	js->held = false;
	if (js->waiting > 0 && !js->woken) {
		while ((r = write(js->wake[1], "", 1)) < 0 && errno == EINTR)
			;
		js->woken = r == 1;
	}
	WSPX_MUST(pthread_mutex_unlock(&js->lock));
}

void
wspx__jobserver_give(struct wspx__jobserver *js, int tok)
{
	struct pollfd pf;
	unsigned char c;
	ssize_t r;

	if (tok == IMPLICIT) {
		giveimplicit(js);
		return;
	}
	assert(tok >= 0 && tok <= UCHAR_MAX && js->wfd >= 0);
	c = (unsigned char)tok;
	while ((r = write(js->wfd, &c, 1)) != 1) {
		if (r < 0 && errno == EINTR)
			continue;
		if (r == 0 || (errno != EAGAIN && errno != EWOULDBLOCK))
			return;		/* the token is lost */
		pf = (struct pollfd){ .fd = js->wfd, .events = POLLOUT };
		(void)poll(&pf, 1, TICK_MS);
	}
}

static void
closefd(int fd)
{
	if (fd >= 0)
		close(fd);
}

void
wspx__jobserver_free(struct wspx__jobserver *js)
{
	if (js == NULL)
		return;
	closefd(js->rfd);
	closefd(js->srv[0]);
	closefd(js->srv[1]);
	closefd(js->wake[0]);
	closefd(js->wake[1]);
	WSPX_MUST(pthread_mutex_destroy(&js->lock));
	free(js);
}
