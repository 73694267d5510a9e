/*
 * The semaphore's slots: n takers at most, the slot of a closed fd or of
 * a process killed with SIGKILL free again, a timeout when all are held,
 * and a drain that returns once no slot is held (a holder in another
 * process that lets go only after the drain began).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/wait.h>
#include <unistd.h>

#include "os/semslot.h"
#include "test.h"

static char dir[] = "/tmp/wspx-semslot.XXXXXX";

static void
test_count(void)
{
	int a = wspx__semslot_take(dir, 2, 0);
	int b = wspx__semslot_take(dir, 2, 0);
	int c;

	CHECK(a >= 0 && b >= 0);
	CHECK(wspx__semslot_take(dir, 2, 0) == -ETIMEDOUT);
	CHECK(wspx__semslot_take(dir, 2, 50) == -ETIMEDOUT);
	/* (a taker of 3 slots finds the third free) */
	c = wspx__semslot_take(dir, 3, 0);
	CHECK(c >= 0);
	CHECK(wspx__semslot_take(dir, 3, 0) == -ETIMEDOUT);
	close(c);
	close(b);
	close(a);
	a = wspx__semslot_take(dir, 2, 0);
	CHECK(a >= 0);
	close(a);
	CHECK(wspx__semslot_take(dir, 0, 0) == -EINVAL);
	CHECK(wspx__semslot_take("/nonexistent/wspx", 1, 0) == -ENOENT);
}

/* A child that takes the slot, says so on the pipe, and waits for the
 * parent's word (or its death) on the other. */
static pid_t
holder(int *said, int *told)
{
	int up[2], down[2];
	pid_t pid;
	char c;

	if (pipe(up) != 0 || pipe(down) != 0)
		abort();
	if ((pid = fork()) == 0) {
		close(up[0]);
		close(down[1]);
		if (wspx__semslot_take(dir, 1, 60000) < 0 || write(up[1], "t",
		    1) != 1)
			_exit(1);
		(void)read(down[0], &c, 1);
		_exit(0);
	}
	close(up[1]);
	close(down[0]);
	*said = up[0];
	*told = down[1];
	return pid;
}

static void
test_killed(void)
{
	int said, told, st, fd;
	pid_t pid = holder(&said, &told);
	char c;

	CHECK(read(said, &c, 1) == 1);
	CHECK(wspx__semslot_take(dir, 1, 0) == -ETIMEDOUT);
	kill(pid, SIGKILL);
	CHECK(waitpid(pid, &st, 0) == pid && WIFSIGNALED(st));
	fd = wspx__semslot_take(dir, 1, 0);
	CHECK(fd >= 0);
	close(fd);
	close(said);
	close(told);
}

/* The taker waits for a holder that lets go while it waits. */
static void
test_wait(void)
{
	int said, told, st, fd;
	pid_t pid = holder(&said, &told);
	char c;

	CHECK(read(said, &c, 1) == 1);
	if (fork() == 0) {
		/* (the holder goes once this child waits, or before) */
		close(told);
		_exit(0);
	}
	close(told);
	fd = wspx__semslot_take(dir, 1, 60000);
	CHECK(fd >= 0);
	CHECK(waitpid(pid, &st, 0) == pid && WIFEXITED(st) &&
	    WEXITSTATUS(st) == 0);
	close(fd);
	close(said);
	while (wait(NULL) > 0)
		;
}

static void
test_drain(void)
{
	int said, told, st, fd;
	pid_t pid = holder(&said, &told);
	char c;

	CHECK(wspx__semslot_drain("/nonexistent/wspx", 0) == 0);
	CHECK(read(said, &c, 1) == 1);
	CHECK(wspx__semslot_drain(dir, 0) == -ETIMEDOUT);
	CHECK(wspx__semslot_drain(dir, 50) == -ETIMEDOUT);
	/* (what a drain that timed out took is free again) */
	fd = wspx__semslot_take(dir, 3, 0);
	CHECK(fd >= 0);
	close(fd);
	close(told);	/* (the holder ends, now or while draining) */
	CHECK(wspx__semslot_drain(dir, 60000) == 0);
	/* every slot free once the drain returned */
	fd = wspx__semslot_take(dir, 3, 0);
	CHECK(fd >= 0);
	CHECK(waitpid(pid, &st, 0) == pid);
	close(fd);
	close(said);
}

/* With no inotify instance left to the user (128 by default: that many
 * waiters), a waiter still gets the slot, by napping. */
static void
test_noinotify(void)
{
	enum { MAXIN = 900 };
	int in[MAXIN], n = 0, said, told, st, fd;
	long open = sysconf(_SC_OPEN_MAX);
	pid_t pid = holder(&said, &told);
	char c;

	CHECK(read(said, &c, 1) == 1);
	while (n < MAXIN && (in[n] = inotify_init1(IN_CLOEXEC)) >= 0)
		n++;
	if (n == MAXIN || n + 32 > open)
		printf("# the fd limit, not inotify's, would stop the test: "
		    "not tried\n");
	close(told);	/* (the holder ends, now or while waiting) */
	if (n < MAXIN && n + 32 <= open) {
		fd = wspx__semslot_take(dir, 1, 60000);
		CHECK(fd >= 0);
		close(fd);
	}
	while (n > 0)
		close(in[--n]);
	CHECK(waitpid(pid, &st, 0) == pid);
	close(said);
}

int
main(void)
{
	char cmd[64];
	int rc;

	if (mkdtemp(dir) == NULL)
		return 2;
	TEST(test_count(), "take: n at most, free again when closed, "
	    "timeouts, bad arguments");
	TEST(test_killed(), "take: the slot of a process killed with SIGKILL "
	    "is free");
	TEST(test_wait(), "take: waits for a slot let go meanwhile");
	TEST(test_drain(), "drain: returns with every slot free, or times "
	    "out");
	TEST(test_noinotify(), "take: without inotify, by napping");
	rc = test_done();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd) != 0)
		rc = 1;
	return rc;
}
