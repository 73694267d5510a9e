/*
 * Starting a child (os/proc.c): its process group, fds, directory, signal
 * mask and dispositions as the child sees them (/proc/self/status), the
 * PATH search as execvp() does it, a script without #!, the exec's errors
 * with no child left behind, and spawns from several threads at once.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "os/proc.h"
#include "test.h"

extern char **environ;

/* Run argv (searched in PATH unless it has a '/') with its stdout into a
 * pipe; put what it wrote in out and its wait status in *status.  Returns
 * the spawn's result. */
static int
runcapture(char *const *argv, const char *dir, const sigset_t *ignore,
    const sigset_t *mask, char *out, size_t n, int *status)
{
	struct wspx__proc_spec spec = { 0 };
	int fds[2], rc;
	size_t got = 0;
	ssize_t k;
	pid_t pid;

	if (wspx__proc_pipe(fds) != 0)
		return -EIO;
	spec.file = argv[0];
	spec.argv = argv;
	spec.envp = environ;
	spec.search = true;
	spec.in_fd = 0;
	spec.out_fd = fds[1];
	spec.err_fd = 2;
	spec.ignore = ignore;
	spec.mask = mask;
	spec.dir = dir;
	rc = wspx__proc_spawn(&spec, &pid);
	close(fds[1]);
	while (rc == 0 && got + 1 < n &&
	    (k = read(fds[0], out + got, n - 1 - got)) > 0)
		got += (size_t)k;
	out[got] = '\0';
	close(fds[0]);
	if (rc == 0)
		CHECK(wspx__proc_reap(pid, status) == 0);
	return rc;
}

/* No child of ours is left, running or unreaped. */
static bool
nochildleft(void)
{
	return waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD;
}

static void
test_fds_dir_group(void)
{
	char *const pwd[] = { "pwd", NULL };
	char *const cat[] = { "cat", NULL };
	struct wspx__proc_spec spec = { 0 };
	char out[256];
	int st = -1, in[2];
	pid_t pid;

	CHECK(runcapture(pwd, "/", NULL, NULL, out, sizeof(out), &st) == 0);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	CHECK(strcmp(out, "/\n") == 0);
	/* a group of its own, stdin from our pipe */
	CHECK(wspx__proc_pipe(in) == 0);
	spec.file = "cat";
	spec.argv = cat;
	spec.envp = environ;
	spec.search = true;
	spec.in_fd = in[0];
	spec.out_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	spec.err_fd = 2;
	CHECK(wspx__proc_spawn(&spec, &pid) == 0);
	CHECK(getpgid(pid) == pid);
	close(in[0]);
	close(in[1]);
	close(spec.out_fd);
	CHECK(wspx__proc_reap(pid, &st) == 0 && WIFEXITED(st) &&
	    WEXITSTATUS(st) == 0);
	CHECK(nochildleft());
}

/* The hexadecimal mask of field name ("SigBlk:") in /proc/self/status. */
static uint64_t
statusmask(const char *status, const char *name)
{
	const char *p = strstr(status, name);

	return p != NULL ? strtoull(p + strlen(name), NULL, 16) : ~0ull;
}

static void
handler(int sig)
{
	(void)sig;
}

/* The kernel's struct sigaction, to ignore glibc's signal 32, which
 * its sigaction() refuses to touch. */
struct kaction {
	void (*handler)(int);
	unsigned long flags;
	void (*restorer)(void);
	uint64_t mask;
};

static void
test_signals(void)
{
	char *const cat[] = { "cat", "/proc/self/status", NULL };
	sigset_t ignore, mask, all, old;
	struct sigaction sa, oldusr1, oldusr2, oldhup;
	char out[4096];
	struct kaction ign = { SIG_IGN, 0, NULL, 0 }, old32;
	uint64_t bit = 1;
	int st = -1;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	sigaction(SIGUSR1, &sa, &oldusr1);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGUSR2, &sa, &oldusr2);
	sigaction(SIGHUP, &sa, &oldhup);
	sigemptyset(&ignore);
	sigaddset(&ignore, SIGUSR2);
	sigemptyset(&mask);
	sigaddset(&mask, SIGTERM);
	/* our own mask does not reach the child, the one asked for does */
	/* ignored as a child of glibc's posix_spawn() finds it */
	CHECK(syscall(SYS_rt_sigaction, 32, &ign, &old32, 8) == 0);
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	CHECK(runcapture(cat, NULL, &ignore, &mask, out, sizeof(out),
	    &st) == 0);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	CHECK(statusmask(out, "SigBlk:") == bit << (SIGTERM - 1));
	CHECK(statusmask(out, "SigIgn:") == bit << (SIGUSR2 - 1));
	/* SIGUSR1's handler is not the child's: it is at the default */
	CHECK(statusmask(out, "SigCgt:") == 0);
	CHECK(runcapture(cat, NULL, NULL, NULL, out, sizeof(out), &st) == 0);
	CHECK(statusmask(out, "SigBlk:") == 0 &&
	    statusmask(out, "SigIgn:") == 0);
	sigaction(SIGUSR1, &oldusr1, NULL);
	sigaction(SIGUSR2, &oldusr2, NULL);
	sigaction(SIGHUP, &oldhup, NULL);
	CHECK(syscall(SYS_rt_sigaction, 32, &old32, NULL, 8) == 0);
}

static void
writefile(const char *path, const char *text, mode_t mode)
{
	test_putfile(path, text);
	CHECK(chmod(path, mode) == 0);
}

static void
test_search(void)
{
	char dir[] = "/tmp/wspx-proc-XXXXXX";
	char a[64], b[64], path[256], out[512], want[128];
	char *const prog[] = { "wspx-prog", "x", NULL };
	char *const plain[] = { "wspx-plain", "y", NULL };
	char *const none[] = { "wspx-no-such", NULL };
	char *const empty[] = { "", NULL };
	const char *saved = getenv("PATH");
	char *keep = saved != NULL ? strdup(saved) : NULL;
	int st = -1;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(a, sizeof(a), "%s/a", dir);
	snprintf(b, sizeof(b), "%s/b", dir);
	CHECK(mkdir(a, 0755) == 0 && mkdir(b, 0755) == 0);
	/* a/ holds one that cannot run: the search goes on to b/ */
	snprintf(path, sizeof(path), "%s/wspx-prog", a);
	writefile(path, "#!/bin/sh\necho a\n", 0644);
	snprintf(path, sizeof(path), "%s/wspx-prog", b);
	writefile(path, "#!/bin/sh\necho \"b $1\"\n", 0755);
	/* no #! line: sh runs it by the path found, as execvp() does */
	snprintf(path, sizeof(path), "%s/wspx-plain", b);
	writefile(path, "echo \"$0 $1\"\n", 0755);
	snprintf(path, sizeof(path), "/no-such-dir:%s:%s", a, b);
	setenv("PATH", path, 1);
	CHECK(runcapture(prog, NULL, NULL, NULL, out, sizeof(out), &st) == 0);
	CHECK(strcmp(out, "b x\n") == 0);
	CHECK(runcapture(plain, NULL, NULL, NULL, out, sizeof(out), &st) == 0);
	snprintf(want, sizeof(want), "%s/wspx-plain y\n", b);
	CHECK(strcmp(out, want) == 0);
	/* only one that cannot run: EACCES; none: ENOENT */
	snprintf(path, sizeof(path), "%s", a);
	setenv("PATH", path, 1);
	CHECK(runcapture(prog, NULL, NULL, NULL, out, sizeof(out), &st) ==
	    -EACCES);
	CHECK(runcapture(none, NULL, NULL, NULL, out, sizeof(out), &st) ==
	    -ENOENT);
	CHECK(runcapture(empty, NULL, NULL, NULL, out, sizeof(out), &st) ==
	    -ENOENT);
	/* an empty entry is the current directory */
	setenv("PATH", ":/no-such-dir", 1);
	CHECK(runcapture(prog, b, NULL, NULL, out, sizeof(out), &st) == 0);
	CHECK(strcmp(out, "b x\n") == 0);
	if (keep != NULL)
		setenv("PATH", keep, 1);
	free(keep);
	/* a directory that is not there: its error, no child left */
	CHECK(runcapture(prog, "/no-such-dir", NULL, NULL, out, sizeof(out),
	    &st) == -ENOENT);
	CHECK(nochildleft());
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	CHECK(system(path) == 0);
}

enum { THREADS = 4, SPAWNS = 40 };

static void *
spawner(void *arg)
{
	char *const echo[] = { "/bin/echo", "ok", NULL };
	char out[16];
	int i, st, *bad = arg;

	for (i = 0; i < SPAWNS; i++) {
		st = -1;
		if (runcapture(echo, NULL, NULL, NULL, out, sizeof(out),
		    &st) != 0 || strcmp(out, "ok\n") != 0 ||
		    !WIFEXITED(st) || WEXITSTATUS(st) != 0)
			(*bad)++;
	}
	return NULL;
}

static void
test_threads(void)
{
	pthread_t t[THREADS];
	int bad[THREADS] = { 0 };
	int i;

	for (i = 0; i < THREADS; i++)
		CHECK(pthread_create(&t[i], NULL, spawner, &bad[i]) == 0);
	for (i = 0; i < THREADS; i++) {
		CHECK(pthread_join(t[i], NULL) == 0);
		CHECK(bad[i] == 0);
	}
	CHECK(nochildleft());
}

int
main(void)
{
	TEST(test_fds_dir_group(), "spawn: fds, directory, a group of its "
	    "own");
	TEST(test_signals(), "spawn: the mask asked for, dispositions "
	    "default but those kept ignored");
	TEST(test_search(), "spawn: PATH as execvp() searches it, a script "
	    "without #!, errors with no child left");
	TEST(test_threads(), "spawn: four threads at once");
	return test_done();
}
