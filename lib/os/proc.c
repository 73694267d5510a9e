/*
 * Starting and reaping job processes.  A spawn is a vfork-style clone, as
 * glibc's posix_spawn(3) makes it, but on a stack that each thread keeps:
 * glibc maps a new stack for every spawn and unmaps it after, and the unmap
 * makes the kernel flush the TLB of every CPU that runs a thread of this
 * process (pool workers hashing, recording), an interprocessor interrupt
 * that the spawning thread waits for; in a virtual machine that costs more
 * than the rest of the spawn.  A job leads its own process group, so that
 * the terminal's Ctrl-C reaches wspx alone, and wspx forwards exactly one
 * signal to each job's whole group.  Threads of this library block signals
 * and wspx ignores SIGPIPE; the child gets the caller's choice of mask and
 * default dispositions back, but for the signals the caller wants to stay
 * ignored (those ignored when wspx started, as under nohup): exec keeps an
 * ignored signal ignored.
 *
 * The child.  clone(CLONE_VM | CLONE_VFORK) runs childmain() in this
 * process's memory, on the thread's spawn stack, while the thread that
 * spawns waits until the child execs or exits.  So the child may write to
 * struct child (its error, the program's path), and must do nothing else
 * the parent or the other threads could see: it makes system calls alone,
 * through syscall(), which no sanitizer intercepts, and is compiled without
 * sanitizer instrumentation (whose per-thread state is the parent's: the
 * child runs on the parent thread's TLS).  Every signal is blocked around
 * the clone, so no handler of ours runs in the child; the child sets the
 * dispositions to default first, and its own mask last, before exec.
 *
 * Every fd the library opens must be close-on-exec from the instant it
 * exists: another thread may be spawning at that moment, and a pipe's write
 * end leaked into its child would hold back this job's end of file.  Hence
 * pipe2(), which needs _GNU_SOURCE, as the platform's calls may in os/
 * alone (tmp.c makes the temporary files).
 */
#define _GNU_SOURCE
#include "proc.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "thread.h"

/* The child's code: no sanitizer's instrumentation, and no loop made a
 * call to memcpy() or strlen(), whose sanitizer interceptors would run in
 * the child (see the top).  clang 14 needs no_sanitize besides
 * disable_sanitizer_instrumentation for ASan and UBSan. */
#if defined(__clang__)
#define CHILDCODE __attribute__((disable_sanitizer_instrumentation, \
    no_sanitize("address", "thread", "undefined", "memory"), no_builtin))
#else
#define CHILDCODE __attribute__((no_sanitize("address", "thread", \
    "undefined"), optimize("no-tree-loop-distribute-patterns")))
#endif

/* The kernel's signal structures as below are those of x86-64, arm64,
 * riscv64 and the other architectures of the generic layout. */
#if defined(__mips__) || defined(__alpha__) || defined(__sparc__) || \
    defined(__hppa__)
#error "lib/os/proc.c: the kernel's sigaction layout of this architecture"
#endif

/* ThreadSanitizer's clone() takes every clone for a fork, and its
 * bookkeeping in a child that shares our memory breaks the parent's:
 * glibc's other name for it, which no sanitizer intercepts, is called. */
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define WSPX_TSAN 1
#endif
#endif
#if defined(__SANITIZE_THREAD__) || defined(WSPX_TSAN)
extern int __clone(int (*fn)(void *), void *stack, int flags, void *arg,
    ...);
#define CLONE __clone
#else
#define CLONE clone
#endif

/* Signals as the kernel takes them: bit sig - 1. */
typedef uint64_t ksigset;

/* What the child does, and what it says back.  Filled by the parent. */
struct child {
	const struct wspx__proc_spec *spec;
	const char *path;	/* PATH, when the program is looked up */
	ksigset reset;		/* dispositions made default */
	ksigset mask;		/* the mask it execs with */
	int err;		/* written by a child that could not exec */
	char found[PATH_MAX];	/* the path that failed with ENOEXEC */
};

/* The kernel's struct sigaction, as rt_sigaction takes it. */
struct kaction {
	void (*handler)(int);
	unsigned long flags;
	void (*restorer)(void);
	ksigset mask;
};

/* The size of each thread's spawn stack, its lowest page a guard. */
#define SPAWNSTACK	(64 * 1024)

static pthread_key_t stackkey;
static pthread_once_t stackonce = PTHREAD_ONCE_INIT;

static void
freestack(void *stack)
{
	(void)munmap(stack, SPAWNSTACK);
}

static void
makestackkey(void)
{
	WSPX_MUST(pthread_key_create(&stackkey, freestack));
	/* Bind syscall() and errno's function now: bound lazily, at their
	 * first call, the dynamic linker would bind them in the child. */
	errno = 0;
	(void)syscall(SYS_getpid);
}

/* The calling thread's spawn stack, made at its first spawn and unmapped
 * when the thread ends.  Returns its base, or NULL. */
static char *
spawnstack(void)
{
	char *s;
	long page = sysconf(_SC_PAGESIZE);

	WSPX_MUST(pthread_once(&stackonce, makestackkey));
	if ((s = pthread_getspecific(stackkey)) != NULL)
		return s;
	s = mmap(NULL, SPAWNSTACK, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	if (s == MAP_FAILED)
		return NULL;
	if (mprotect(s, (size_t)page, PROT_NONE) != 0 ||
	    pthread_setspecific(stackkey, s) != 0) {
		freestack(s);
		return NULL;
	}
	return s;
}

static ksigset
ksigs(const sigset_t *set)
{
	ksigset k = 0;
	int sig;

	for (sig = 1; set != NULL && sig <= 64 && sig < NSIG; sig++)
		if (sigismember(set, sig) == 1)
			k |= (ksigset)1 << (sig - 1);
	return k;
}

/* The child's system calls: syscall() sets errno (the parent's, which the
 * parent thread does not read until it resumes) and returns -1. */
static CHILDCODE int
sys(long rc)
{
	return rc < 0 ? errno : 0;
}

static CHILDCODE int
childdup(int fd, int to)
{
	if (fd == to)
		return 0;
#ifdef SYS_dup2
	return sys(syscall(SYS_dup2, fd, to));
#else
	return sys(syscall(SYS_dup3, fd, to, 0));
#endif
}

/* The dispositions of c->reset to default; and of every other signal
 * that has a handler (one kept ignored that the caller catches now, or
 * glibc's own two): until exec, the handler would run in the child. */
static CHILDCODE void
childsignals(const struct child *c)
{
	struct kaction dfl = { SIG_DFL, 0, NULL, 0 }, now;
	int sig;

	for (sig = 1; sig <= 64; sig++) {
		if (sig == SIGKILL || sig == SIGSTOP)
			continue;
		if (!(c->reset & ((ksigset)1 << (sig - 1))) &&
		    (syscall(SYS_rt_sigaction, sig, NULL, &now,
		    sizeof(ksigset)) != 0 || now.handler == SIG_IGN ||
		    now.handler == SIG_DFL))
			continue;
		(void)syscall(SYS_rt_sigaction, sig, &dfl, NULL,
		    sizeof(ksigset));
	}
}

/* Dispositions, the new group, niceness, directory and fds 0-2, and the
 * mask. */
static CHILDCODE int
childsetup(const struct child *c)
{
	const struct wspx__proc_spec *s = c->spec;
	int err;

	childsignals(c);
	if (!s->samegroup && (err = sys(syscall(SYS_setpgid, 0, 0))) != 0)
		return err;
	if (s->renice)
		(void)syscall(SYS_setpriority, PRIO_PROCESS, 0, s->nice);
	if (s->dir != NULL && (err = sys(syscall(SYS_chdir, s->dir))) != 0)
		return err;
	if ((err = childdup(s->in_fd, 0)) != 0 ||
	    (err = childdup(s->out_fd, 1)) != 0 ||
	    (err = childdup(s->err_fd, 2)) != 0)
		return err;
	return sys(syscall(SYS_rt_sigprocmask, SIG_SETMASK, &c->mask, NULL,
	    sizeof(ksigset)));
}

/* Exec file; on ENOEXEC keep its path for the shell.  Returns the error. */
static CHILDCODE int
childexec(struct child *c, const char *file)
{
	int err;
	size_t i;

	err = sys(syscall(SYS_execve, file, c->spec->argv, c->spec->envp));
	if (err == ENOEXEC) {
		for (i = 0; file[i] != '\0' && i + 1 < sizeof(c->found); i++)
			c->found[i] = file[i];
		c->found[i] = '\0';
	}
	return err;
}

/* Look file up in c->path as execvp() does: an empty entry is the current
 * directory; EACCES is kept while the search goes on; a name too long,
 * or not there, goes on to the next; another error ends it. */
static CHILDCODE int
childsearch(struct child *c, const char *file)
{
	char buf[PATH_MAX];
	const char *p = c->path, *e;
	size_t flen, dlen, i;
	int err, seen = ENOENT;

	for (flen = 0; file[flen] != '\0'; flen++)
		;
	for (;; p = e + 1) {
		for (e = p; *e != ':' && *e != '\0'; e++)
			;
		dlen = (size_t)(e - p);
		if (dlen + 1 + flen < sizeof(buf)) {
			for (i = 0; i < dlen; i++)
				buf[i] = p[i];
			if (dlen > 0)
				buf[dlen++] = '/';
			for (i = 0; i <= flen; i++)
				buf[dlen + i] = file[i];
			err = childexec(c, buf);
			if (err == EACCES)
				seen = EACCES;
			else if (err != ENOENT && err != ENOTDIR &&
			    err != ESTALE && err != ENODEV && err != ETIMEDOUT)
				return err;
		}
		if (*e == '\0')
			return seen;
	}
}

static CHILDCODE int
childmain(void *arg)
{
	struct child *c = arg;
	const char *file = c->spec->file;
	int err;

	if ((err = childsetup(c)) == 0) {
		if (file[0] == '\0')
			err = ENOENT;
		else if (c->path == NULL)
			err = childexec(c, file);
		else
			err = childsearch(c, file);
	}
	c->err = err;
	return 127;
}

const char *
wspx__proc_envpath(char *const *envp)
{
	for (; envp != NULL && *envp != NULL; envp++)
		if (strncmp(*envp, "PATH=", 5) == 0)
			return *envp + 5;
	return NULL;
}

/* Where spec's file is looked for: its path, or its environment's PATH,
 * or the one execvp() takes when there is none. */
static const char *
searchpath(const struct wspx__proc_spec *spec)
{
	const char *p = spec->path;

	if (p == NULL)
		p = wspx__proc_envpath(spec->envp);
	return p != NULL ? p : "/bin:/usr/bin";
}

static bool
hasslash(const char *s)
{
	return strchr(s, '/') != NULL;
}

/* Clone the child of c and wait until it has exec'd or failed.  Returns
 * 0 and sets *pid, or the errno value of the failure (the child's is
 * reaped). */
static int
clonechild(struct child *c, pid_t *pid)
{
	ksigset all = ~(ksigset)0, old;
	char *stack;
	pid_t p;
	int rc;

	if ((stack = spawnstack()) == NULL)
		return ENOMEM;
	c->err = 0;
	/* (glibc's own two as well, which pthread_sigmask() leaves alone) */
	WSPX_MUST(syscall(SYS_rt_sigprocmask, SIG_SETMASK, &all, &old,
	    sizeof(ksigset)) == 0 ? 0 : errno);
	p = CLONE(childmain, stack + SPAWNSTACK, CLONE_VM | CLONE_VFORK |
	    SIGCHLD, c);
	rc = p < 0 ? errno : 0;
	WSPX_MUST(syscall(SYS_rt_sigprocmask, SIG_SETMASK, &old, NULL,
	    sizeof(ksigset)) == 0 ? 0 : errno);
	if (rc != 0)
		return rc;
	if (c->err != 0) {
		(void)wspx__proc_reap(p, &rc);
		return c->err;
	}
	*pid = p;
	return 0;
}

/* Run the file the kernel could not execute, c->found, as a shell script,
 * as execvp() does: /bin/sh file args...  Returns 0 or an errno value. */
static int
spawnscript(struct child *c, pid_t *pid)
{
	struct wspx__proc_spec sh = *c->spec;
	char **argv;
	size_t n;
	int rc;

	for (n = 0; sh.argv[n] != NULL; n++)
		;
	if ((argv = malloc((n + 2) * sizeof(*argv))) == NULL)
		return ENOMEM;
	argv[0] = (char *)"sh";
	argv[1] = c->found;
	memcpy(argv + 2, sh.argv + 1, n * sizeof(*argv));
	sh.file = "/bin/sh";
	sh.argv = argv;
	c->spec = &sh;
	c->path = NULL;
	rc = clonechild(c, pid);
	free(argv);
	return rc;
}

int
wspx__proc_spawn(const struct wspx__proc_spec *spec, pid_t *pid)
{
	struct child c;
	int rc;

	/* (every signal, glibc's own two included, which its sigfillset()
	 * leaves out: ignored when we started, they would stay so) */
	c.spec = spec;
	c.reset = ~ksigs(spec->ignore);
	c.mask = ksigs(spec->mask);
	c.path = spec->search && !hasslash(spec->file) ? searchpath(spec) :
	    NULL;
	rc = clonechild(&c, pid);
	/* no #! line: a script for the shell, as execvp() runs it */
	if (rc == ENOEXEC && spec->argv[0] != NULL)
		rc = spawnscript(&c, pid);
	return -rc;
}

int
wspx__proc_exited(pid_t pid, bool block)
{
	siginfo_t si;
	int r;

	si.si_pid = 0;
	do {
		r = waitid(P_PID, (id_t)pid, &si, WEXITED | WNOWAIT |
		    (block ? 0 : WNOHANG));
	} while (r < 0 && errno == EINTR);
	if (r < 0)
		return -errno;
	return si.si_pid == pid;
}

int
wspx__proc_reap(pid_t pid, int *status)
{
	pid_t r;

	do {
		r = waitpid(pid, status, 0);
	} while (r < 0 && errno == EINTR);
	return r == pid ? 0 : -errno;
}

int
wspx__proc_signal_group(pid_t pid, int sig)
{
	/* (a job that stayed in our group (samegroup) leads none: then it
	 * alone; its pid is not reused either until it is reaped) */
	if (kill(-pid, sig) == 0 || (errno == ESRCH && kill(pid, sig) == 0))
		return 0;
	return -errno;
}

int
wspx__proc_pipe(int fds[2])
{
	if (pipe2(fds, O_CLOEXEC) != 0)
		return -errno;
	return 0;
}

size_t
wspx__proc_pipe_grow(int fd)
{
#ifdef F_SETPIPE_SZ
	int n = fcntl(fd, F_SETPIPE_SZ, 1 << 20);

	if (n < 0)
		n = fcntl(fd, F_GETPIPE_SZ);
	return n > 0 ? (size_t)n : 0;
#else
	(void)fd;
	return 0;
#endif
}

void
wspx__proc_widen_pipe(int fd)
{
	struct stat st;

	if (fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode))
		(void)wspx__proc_pipe_grow(fd);
}

int
wspx__proc_reopen(int fd, int flags)
{
	char path[40];
	int r;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if ((r = open(path, flags | O_CLOEXEC)) < 0)
		return -errno;
	return r;
}

int
wspx__proc_exe(pid_t pid, char *buf, size_t n)
{
	static const char deleted[] = " (deleted)";
	size_t d = sizeof(deleted) - 1;
	char link[64];
	ssize_t k;

	snprintf(link, sizeof(link), "/proc/%ld/exe", (long)pid);
	if ((k = readlink(link, buf, n)) < 0)
		return -errno;
	if ((size_t)k >= n)
		return -ENAMETOOLONG;
	buf[k] = '\0';
	/* A program upgraded since it started: its new one is there. */
	if ((size_t)k > d && strcmp(buf + k - d, deleted) == 0)
		buf[k -= (ssize_t)d] = '\0';
	return (int)k;
}

int
wspx__proc_cmdline(pid_t pid, char *buf, size_t n)
{
	char path[64];
	ssize_t k;
	int fd;

	if (n == 0)
		return -EINVAL;
	snprintf(path, sizeof(path), "/proc/%ld/cmdline", (long)pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -errno;
	k = read(fd, buf, n - 1);
	close(fd);
	if (k < 0)
		return -errno;
	buf[k] = '\0';
	return (int)k;
}

int
wspx__proc_sh(const char *cmd, int in_fd, int out_fd, pid_t *pid)
{
	char *argv[] = { "sh", "-c", (char *)cmd, NULL };
	struct wspx__proc_spec spec;

	memset(&spec, 0, sizeof(spec));
	spec.file = "/bin/sh";
	spec.argv = argv;
	spec.envp = environ;
	spec.in_fd = in_fd;
	spec.out_fd = out_fd;
	spec.err_fd = 2;
	return wspx__proc_spawn(&spec, pid);
}

int
wspx__proc_write(int fd, const char *p, size_t n, size_t *done)
{
	ssize_t w;

	*done = 0;
	while (*done < n) {
		if ((w = write(fd, p + *done, n - *done)) < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		*done += (size_t)w;
	}
	return 0;
}

int
wspx__proc_writeall(int fd, const char *p, size_t n)
{
	size_t done;

	return wspx__proc_write(fd, p, n, &done);
}
