/*
 * The unit tests' harness: CHECK() records a failure with its file, line
 * and expression; TEST() runs one test function and prints a TAP line.
 */
#ifndef WSPX_TEST_H
#define WSPX_TEST_H

#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static int test_failures;	/* failed checks in the current test */
static int test_number;
static int tests_failed;

#define CHECK(cond) do {						\
	if (!(cond)) {							\
		fprintf(stderr, "%s:%d: check failed: %s\n",		\
		    __FILE__, __LINE__, #cond);				\
		test_failures++;					\
	}								\
} while (0)

/* A test that hangs (a lost job, a lost wake-up) fails instead: SIGALRM
 * after WSPX_TEST_TIMEOUT seconds (default 600) prints a TAP failure and
 * exits. */
static void
test_timedout(int sig)
{
	static const char msg[] = "not ok - timed out: a job or a wake-up "
	    "was lost, or a thread hung\n";

	(void)sig;
	if (write(STDOUT_FILENO, msg, sizeof(msg) - 1) < 0)
		_exit(3);
	_exit(1);
}

static inline void
test_arm(void)
{
	const char *e = getenv("WSPX_TEST_TIMEOUT");

	signal(SIGALRM, test_timedout);
	alarm(e != NULL ? (unsigned)strtoul(e, NULL, 10) : 600);
}

#define TEST(call, ...) do {						\
	test_failures = 0;						\
	test_arm();							\
	call;								\
	alarm(0);							\
	printf("%s %d - ", test_failures ? "not ok" : "ok", ++test_number); \
	printf(__VA_ARGS__);						\
	printf("\n");							\
	fflush(stdout);							\
	if (test_failures)						\
		tests_failed++;						\
} while (0)

/* The exit status of a test program. */
static inline int
test_done(void)
{
	printf("1..%d\n", test_number);
	return tests_failed ? 1 : 0;
}

/* Replace the file at path by text (CHECKed). */
static inline void
test_putfile(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	CHECK(f != NULL);
	if (f == NULL)
		return;
	CHECK(fputs(text, f) >= 0);
	CHECK(fclose(f) == 0);
}

/* argv[i] as a positive count, or def if absent. */
static inline long
test_arg(int argc, char **argv, int i, long def)
{
	long v;

	if (argc <= i)
		return def;
	v = strtol(argv[i], NULL, 10);
	if (v <= 0) {
		fprintf(stderr, "%s: bad count %s\n", argv[0], argv[i]);
		exit(2);
	}
	return v;
}

static inline double
test_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Wait up to 5 s for cond to become true, yielding, then check it. */
#define WAITFOR(cond) do {						\
	double t_ = test_now();						\
	while (!(cond) && test_now() - t_ < 5.0)			\
		sched_yield();						\
	CHECK(cond);							\
} while (0)

#endif /* WSPX_TEST_H */
