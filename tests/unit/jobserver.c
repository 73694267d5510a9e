/*
 * The make jobserver: MAKEFLAGS as make 4.3 and 4.4 write it (pipe and
 * FIFO forms, the last option winning, fds a recipe without '+' does not
 * have), a server's MAKEFLAGS and tokens, a client sharing them, a take
 * that is told to stop, and threads that never hold more than n tokens.
 * Usage: jobserver [threads [iterations]].
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "exec/jobserver.h"
#include "os/thread.h"
#include "test.h"

/* Stop once test_now() passes the deadline; note the widest gap between
 * calls. */
struct stopper {
	double deadline;
	double last;		/* the previous call, 0 before the first */
	double maxgap;
	int calls;
};

static bool
stopping(void *arg)
{
	struct stopper *s = arg;
	double now = test_now();

	if (s->last > 0 && now - s->last > s->maxgap)
		s->maxgap = now - s->last;
	s->last = now;
	s->calls++;
	return now >= s->deadline;
}

/* Take with a stop after secs; returns what take returned, *took the
 * seconds it took.  A stopped take asked more than once, and not a
 * second apart (50 ms, but for the scheduler). */
static int
take_for(struct wspx__jobserver *js, double secs, int *tok, double *took)
{
	struct stopper s = { test_now() + secs, 0, 0, 0 };
	double t0 = test_now();
	int rc;

	rc = wspx__jobserver_take(js, stopping, &s, tok);
	*took = test_now() - t0;
	CHECK(rc != 0 || s.calls >= 2);
	CHECK(s.maxgap < 1.0);
	return rc;
}

/* A client from the MAKEFLAGS value fmt, r and w filling in its %d. */
static int
client(struct wspx__jobserver **js, const char *fmt, int r, int w)
{
	char mf[256];

	snprintf(mf, sizeof(mf), fmt, r, w);
	return wspx__jobserver_client(js, mf);
}

static int
closedfd(void)
{
	int fd = open("/dev/null", O_RDONLY);

	close(fd);
	return fd;
}

static void
test_parse(void)
{
	static const char *none[] = { "", "s", "kn -j2", " -j", "-j4 -l2",
	    "s -j2 -- X=--jobserver-auth=3,4", "--jobserver-style=pipe" };
	static const char *bad[] = { "=", "=3", "=3,", "=,4", "=a,b", "=3;4",
	    "=3,4,5", "=99999999999,4", "=3,4x", "=-,4", "=fifo:",
	    "=gmake_semaphore_1" };
	struct wspx__jobserver *js = (void *)1;
	char mf[128];
	int p[2];
	size_t i;

	CHECK(wspx__jobserver_client(&js, NULL) == 0 && js == NULL);
	for (i = 0; i < sizeof(none) / sizeof(none[0]); i++) {
		js = (void *)1;
		CHECK(wspx__jobserver_client(&js, none[i]) == 0 && js == NULL);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(mf, sizeof(mf), " -j2 --jobserver-auth%s", bad[i]);
		CHECK(wspx__jobserver_client(&js, mf) == -EINVAL);
		CHECK(js == NULL);
	}
	CHECK(pipe(p) == 0);
	/* make 4.3's form, with and without a flags word */
	CHECK(client(&js, "s -j2 --jobserver-auth=%d,%d", p[0], p[1]) == 0 &&
	    js != NULL);
	wspx__jobserver_free(js);
	CHECK(client(&js, "kn -j2 --jobserver-auth=%d,%d -- V=a\\ b", p[0],
	    p[1]) == 0 && js != NULL);
	wspx__jobserver_free(js);
	/* make 4.0's */
	CHECK(client(&js, " --jobserver-fds=%d,%d -j", p[0], p[1]) == 0 &&
	    js != NULL);
	wspx__jobserver_free(js);
	/* the last wins: make 4.4 appends -2,-2 for a recipe without '+' */
	CHECK(client(&js, " -j2 --jobserver-auth=%d,%d --jobserver-auth=-2,-2",
	    p[0], p[1]) == -EBADF && js == NULL);
	CHECK(client(&js, " -j2 --jobserver-fds=-2,-2 --jobserver-auth=%d,%d",
	    p[0], p[1]) == 0 && js != NULL);
	wspx__jobserver_free(js);
	close(p[0]);
	close(p[1]);
}

/* The fds a recipe without '+' has: closed, or reused for other things.
 * And the client leaves make's fds, and their flags, as they were. */
static void
test_notpassed(void)
{
	struct wspx__jobserver *js = (void *)1;
	int p[2], q[2], fl, nul = open("/dev/null", O_RDWR);

	CHECK(client(&js, " -j2 --jobserver-auth=%d,%d", closedfd(),
	    closedfd()) == -EBADF && js == NULL);
	/* closed, and the lowest free: a pipe the client opened for itself
	 * before checking would get these very numbers (make 4.3, no '+') */
	CHECK(pipe(q) == 0);
	close(q[0]);
	close(q[1]);
	CHECK(client(&js, " -j2 --jobserver-auth=%d,%d", q[0], q[1]) ==
	    -EBADF && js == NULL);
	CHECK(pipe(p) == 0 && pipe(q) == 0);
	fl = fcntl(p[0], F_GETFL);
	CHECK(client(&js, " -j2 --jobserver-auth=%d,%d", nul, nul) == -EBADF);
	CHECK(client(&js, " -j2 --jobserver-auth=%d,%d", p[0], q[1]) ==
	    -EBADF);
	CHECK(client(&js, " -j2 --jobserver-auth=%d,%d", p[1], p[0]) ==
	    -EBADF);
	CHECK(client(&js, " -j2 --jobserver-auth=%d,%d", p[0], p[1]) == 0);
	wspx__jobserver_free(js);
	CHECK(fcntl(p[0], F_GETFL) == fl);
	CHECK(fcntl(p[0], F_GETFD) >= 0 && fcntl(p[1], F_GETFD) >= 0);
	close(p[0]);
	close(p[1]);
	close(q[0]);
	close(q[1]);
	close(nul);
}

static void
test_fifo(void)
{
	char dir[] = "/tmp/wspx-js-XXXXXX", path[64], mf[128];
	struct wspx__jobserver *js;
	int fd, t1, t2, t3, rc;
	double took;
	char c;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/GMfifo1", dir);
	snprintf(mf, sizeof(mf), "s -j2 --jobserver-auth=fifo:%s", path);
	CHECK(wspx__jobserver_client(&js, mf) == -ENOENT && js == NULL);
	fd = open(path, O_WRONLY | O_CREAT, 0600);
	close(fd);
	CHECK(wspx__jobserver_client(&js, mf) == -EBADF && js == NULL);
	unlink(path);
	CHECK(mkfifo(path, 0600) == 0);
	fd = open(path, O_RDWR | O_NONBLOCK);
	CHECK(write(fd, "+", 1) == 1);
	CHECK(wspx__jobserver_client(&js, mf) == 0 && js != NULL);
	CHECK(wspx__jobserver_take(js, NULL, NULL, &t1) == 1);
	CHECK(wspx__jobserver_take(js, NULL, NULL, &t2) == 1);
	CHECK(t2 == '+');
	CHECK(take_for(js, 0.1, &t3, &took) == 0);
	wspx__jobserver_give(js, t2);
	CHECK(read(fd, &c, 1) == 1 && c == '+');
	wspx__jobserver_give(js, t1);
	wspx__jobserver_free(js);
	close(fd);
	unlink(path);
	rc = rmdir(dir);
	CHECK(rc == 0);
}

/* The server's jobserver fds, read back from its MAKEFLAGS. */
static bool
authfds(const char *mf, int *r, int *w)
{
	const char *a = strstr(mf, "--jobserver-auth=");

	return a != NULL && sscanf(a, "--jobserver-auth=%d,%d", r, w) == 2;
}

/* Whether the server built from old exports want, with "%d,%d" in want
 * standing for its fds. */
static bool
exports(unsigned n, const char *old, const char *want)
{
	struct wspx__jobserver *js;
	char *mf, expect[256];
	int r = -1, w = -1;
	bool ok;

	if (wspx__jobserver_server(&js, n, old, &mf) != 0)
		return false;
	if (n > 1 && !authfds(mf, &r, &w))
		r = w = -1;
	snprintf(expect, sizeof(expect), want, r, w);
	ok = strcmp(mf, expect) == 0;
	if (!ok)
		fprintf(stderr, "# from [%s]: [%s], not [%s]\n",
		    old ? old : "(null)", mf, expect);
	free(mf);
	wspx__jobserver_free(js);
	return ok;
}

static void
test_makeflags(void)
{
	struct wspx__jobserver *js = (void *)1;
	char *mf = NULL;

	CHECK(exports(3, NULL, " -j3 --jobserver-auth=%d,%d"));
	CHECK(exports(3, "", " -j3 --jobserver-auth=%d,%d"));
	CHECK(exports(3, "s", "s -j3 --jobserver-auth=%d,%d"));
	CHECK(exports(3, "s -j2 --jobserver-auth=3,4", "s -j3 "
	    "--jobserver-auth=%d,%d"));
	CHECK(exports(3, "e -j8 -l4 --jobserver-auth=3,4 --no-print-directory"
	    " -- W=a\\ b V=--jobserver-auth=1,2",
	    "e -j3 --jobserver-auth=%d,%d -l4 --no-print-directory"
	    " -- W=a\\ b V=--jobserver-auth=1,2"));
	CHECK(exports(4, "k -j 5 --jobs=6 --jobs 7 -j --jobserver-fds=3,4 -k",
	    "k -j4 --jobserver-auth=%d,%d -k"));
	CHECK(exports(4, " -j2 --jobserver-auth=fifo:/tmp/GMfifo1 "
	    "--jobserver-auth=-2,-2", " -j4 --jobserver-auth=%d,%d"));
	CHECK(exports(1, "s -j2 --jobserver-auth=3,4", "s -j1"));
	CHECK(exports(0, NULL, " -j1"));
	CHECK(wspx__jobserver_server(&js, 40000, NULL, &mf) == -EINVAL);
	CHECK(js == NULL && mf == NULL);
}

static void
test_server(void)
{
	struct wspx__jobserver *js;
	int t[4], r, w, i;
	double took;
	char *mf;

	CHECK(wspx__jobserver_server(&js, 3, "s", &mf) == 0);
	CHECK(authfds(mf, &r, &w));
	/* inheritable and blocking, as the jobs' make expects */
	CHECK(fcntl(r, F_GETFD) == 0 && fcntl(w, F_GETFD) == 0);
	CHECK((fcntl(r, F_GETFL) & O_NONBLOCK) == 0);
	CHECK((fcntl(w, F_GETFL) & O_NONBLOCK) == 0);
	for (i = 0; i < 3; i++)
		CHECK(take_for(js, 5, &t[i], &took) == 1 && took < 1);
	CHECK(t[0] != t[1] && t[1] == '+' && t[2] == '+');
	CHECK(take_for(js, 0.1, &t[3], &took) == 0);
	CHECK(took >= 0.09 && took < 1);
	wspx__jobserver_give(js, t[1]);
	CHECK(take_for(js, 5, &t[3], &took) == 1 && took < 1);
	wspx__jobserver_give(js, t[0]);
	CHECK(take_for(js, 5, &t[0], &took) == 1 && took < 1);
	for (i = 0; i < 4; i++)
		wspx__jobserver_give(js, t[i]);
	CHECK((fcntl(r, F_GETFL) & O_NONBLOCK) == 0);
	wspx__jobserver_free(js);
	CHECK(fcntl(r, F_GETFD) < 0 && fcntl(w, F_GETFD) < 0);
	free(mf);
	/* -j1: the implicit token alone */
	CHECK(wspx__jobserver_server(&js, 1, NULL, &mf) == 0);
	CHECK(wspx__jobserver_take(js, NULL, NULL, &t[0]) == 1);
	CHECK(take_for(js, 0.1, &t[1], &took) == 0 && took >= 0.09);
	wspx__jobserver_give(js, t[0]);
	CHECK(take_for(js, 5, &t[1], &took) == 1 && took < 1);
	wspx__jobserver_give(js, t[1]);
	wspx__jobserver_free(js);
	free(mf);
	wspx__jobserver_free(NULL);
}

static void
test_shared(void)
{
	struct wspx__jobserver *srv, *cli;
	int s[3], c[3], r, w;
	double took;
	char *mf;

	CHECK(wspx__jobserver_server(&srv, 3, NULL, &mf) == 0);
	CHECK(authfds(mf, &r, &w));
	CHECK(wspx__jobserver_client(&cli, mf) == 0 && cli != NULL);
	/* each has its implicit token; the two bytes are shared */
	CHECK(take_for(cli, 5, &c[0], &took) == 1);
	CHECK(take_for(cli, 5, &c[1], &took) == 1 && c[1] == '+');
	CHECK(take_for(srv, 5, &s[0], &took) == 1);
	CHECK(take_for(srv, 5, &s[1], &took) == 1 && s[1] == '+');
	CHECK(take_for(srv, 0.1, &s[2], &took) == 0);
	CHECK(take_for(cli, 0.1, &c[2], &took) == 0);
	wspx__jobserver_give(cli, c[1]);
	CHECK(take_for(srv, 5, &s[2], &took) == 1 && took < 1);
	CHECK(take_for(cli, 0.1, &c[2], &took) == 0);
	wspx__jobserver_give(srv, s[2]);
	CHECK(take_for(cli, 5, &c[2], &took) == 1 && took < 1);
	wspx__jobserver_give(cli, c[2]);
	wspx__jobserver_give(cli, c[0]);
	wspx__jobserver_give(srv, s[1]);
	wspx__jobserver_give(srv, s[0]);
	/* the client leaves the server's fds (make's, to it) open */
	wspx__jobserver_free(cli);
	CHECK(fcntl(r, F_GETFD) >= 0 && fcntl(w, F_GETFD) >= 0);
	CHECK((fcntl(r, F_GETFL) & O_NONBLOCK) == 0);
	wspx__jobserver_free(srv);
	free(mf);
}

struct holder {
	struct wspx__jobserver *js;
	atomic_int *held;	/* tokens held now, by every thread */
	atomic_int *max;	/* the most held at once */
	pthread_barrier_t *start;
	double gave;		/* when the implicit token was given back */
	long iterations;
};

static void *
holdtoken(void *arg)
{
	struct holder *h = arg;
	int tok, now, max;
	long i;

	pthread_barrier_wait(h->start);
	for (i = 0; i < h->iterations; i++) {
		if (wspx__jobserver_take(h->js, NULL, NULL, &tok) != 1) {
			CHECK(!"take failed");
			break;
		}
		/* relaxed: a count; the tokens order the holders */
		now = atomic_fetch_add_explicit(h->held, 1,
		    memory_order_relaxed) + 1;
		max = atomic_load_explicit(h->max, memory_order_relaxed);
		while (now > max && !atomic_compare_exchange_weak_explicit(
		    h->max, &max, now, memory_order_relaxed,
		    memory_order_relaxed))
			;
		sched_yield();
		atomic_fetch_sub_explicit(h->held, 1, memory_order_relaxed);
		wspx__jobserver_give(h->js, tok);
	}
	return NULL;
}

/* Whether js has n tokens free: n takes succeed and one more stops. */
static bool
hasfree(struct wspx__jobserver *js, int n)
{
	int tok[64], i, got = 0, extra;
	double took;

	for (i = 0; i < n && i < 64; i++)
		got += take_for(js, 1, &tok[i], &took) == 1;
	extra = take_for(js, 0.06, &tok[n < 64 ? n : 63], &took);
	for (i = 0; i < got; i++)
		wspx__jobserver_give(js, tok[i]);
	return got == n && extra == 0;
}

/* threads threads take and give iterations tokens each, half of them
 * through a client of the server (another process's view: one more
 * implicit token).  At most n (+ 1) are held at once, none is lost. */
static void
test_threads(unsigned n, int threads, long iterations)
{
	struct wspx__jobserver *srv, *cli;
	struct holder h[64];
	pthread_barrier_t start;
	pthread_t t[64];
	atomic_int held, max;
	char *mf;
	int i, k;

	if (threads > 64)
		threads = 64;
	CHECK(wspx__jobserver_server(&srv, n, NULL, &mf) == 0);
	CHECK(wspx__jobserver_client(&cli, mf) == 0);
	for (k = 0; k < 2; k++) {
		atomic_init(&held, 0);
		atomic_init(&max, 0);
		WSPX_MUST(pthread_barrier_init(&start, NULL,
		    (unsigned)threads));
		for (i = 0; i < threads; i++) {
			h[i] = (struct holder){ srv, &held, &max, &start, 0,
			    iterations };
			if (k == 1 && i % 2 == 1)
				h[i].js = cli;
			CHECK(pthread_create(&t[i], NULL, holdtoken, &h[i]) ==
			    0);
		}
		for (i = 0; i < threads; i++)
			pthread_join(t[i], NULL);
		WSPX_MUST(pthread_barrier_destroy(&start));
		printf("# %s: at most %d of %u tokens held at once\n",
		    k == 0 ? "server" : "server and client",
		    atomic_load(&max), n + k);
		CHECK(atomic_load(&max) <= (int)n + k);
		CHECK(atomic_load(&held) == 0);
	}
	CHECK(hasfree(srv, (int)n));
	wspx__jobserver_free(cli);
	wspx__jobserver_free(srv);
	free(mf);
}

static void *
waitimplicit(void *arg)
{
	struct holder *h = arg;
	int tok;

	if (wspx__jobserver_take(h->js, NULL, NULL, &tok) == 1) {
		h->gave = test_now() - h->gave;
		wspx__jobserver_give(h->js, tok);
	}
	return NULL;
}

/* A take waiting for the implicit token (-j1) gets it as soon as it is
 * given back, not on its next 50 ms poll: the best of five is under
 * 25 ms. */
static void
test_wakeup(void)
{
	struct wspx__jobserver *js;
	struct holder h;
	pthread_t t;
	double best = 1;
	char *mf;
	int tok, i;

	CHECK(wspx__jobserver_server(&js, 1, NULL, &mf) == 0);
	for (i = 0; i < 5; i++) {
		CHECK(wspx__jobserver_take(js, NULL, NULL, &tok) == 1);
		h.js = js;
		CHECK(pthread_create(&t, NULL, waitimplicit, &h) == 0);
		nanosleep(&(struct timespec){ 0, 20000000 }, NULL);
		h.gave = test_now();
		wspx__jobserver_give(js, tok);
		pthread_join(t, NULL);
		if (h.gave < best)
			best = h.gave;
	}
	printf("# implicit token handed over in %.1f ms\n", best * 1000);
	CHECK(best < 0.025);
	wspx__jobserver_free(js);
	free(mf);
}

int
main(int argc, char **argv)
{
	int threads = (int)test_arg(argc, argv, 1, 8);
	long iterations = test_arg(argc, argv, 2, 2000);

	TEST(test_parse(), "jobserver: MAKEFLAGS pipe forms, last wins, "
	    "malformed");
	TEST(test_notpassed(), "jobserver: fds make did not pass");
	TEST(test_fifo(), "jobserver: make 4.4's fifo:PATH");
	TEST(test_makeflags(), "jobserver: a server's MAKEFLAGS");
	TEST(test_server(), "jobserver: server with 3 tokens, a stopped take");
	TEST(test_shared(), "jobserver: a client shares the server's tokens");
	TEST(test_threads(3, threads, iterations),
	    "jobserver: %d threads, %ld tokens each, never more than n held",
	    threads, iterations);
	TEST(test_wakeup(), "jobserver: the implicit token wakes a waiter");
	return test_done();
}
