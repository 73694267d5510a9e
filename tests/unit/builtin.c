/*
 * Unit tests for the builtins: each one's effect on a fresh directory
 * (mkdir -p, touch, write whole and appended, copy, remove of a deep tree,
 * sha256 and its lines), sleep and wait-for as ticks of the timer that hold
 * no worker, the stop flag cancelling them, and the check of `with:` at
 * load time, on trees of nodes built by hand.
 *
 * usage: builtins [workers]
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/diag.h"
#include "base/sha256.h"
#include "base/yamldoc.h"
#include "builtins/builtin.h"
#include "runtime/timer.h"
#include "test.h"
#include "wspx.h"

static struct wspx_pool *pool;
static struct wspx__timer *timer;
static int dir;			/* the test directory */
static char dirpath[64];
static _Atomic(bool) stop;

/* A call with its arguments, its output and its end. */
struct call {
	struct wspx__bcall c;
	struct wspx_job start;	/* injected: runs the builtin */
	struct wspx__barg args[4];
	char *vals[64];
	size_t nv;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool over;		/* lock */
	double began, ended;
	char out[16384], err[4096];
	size_t nout, nerr;
};

static void
capture(struct wspx__bcall *c, int stream, const char *p, size_t n)
{
	struct call *k = wspx_container_of(c, struct call, c);
	char *buf = stream == 1 ? k->out : k->err;
	size_t *len = stream == 1 ? &k->nout : &k->nerr;
	size_t cap = stream == 1 ? sizeof(k->out) : sizeof(k->err);

	CHECK(stream == 1 || stream == 2);
	CHECK(*len + n < cap);
	if (*len + n < cap) {
		memcpy(buf + *len, p, n);
		*len += n;
		buf[*len] = '\0';
	}
}

static void
ended(struct wspx_worker *w, struct wspx__bcall *c)
{
	struct call *k = wspx_container_of(c, struct call, c);

	(void)w;
	pthread_mutex_lock(&k->lock);
	CHECK(!k->over);
	k->over = true;
	k->ended = test_now();
	pthread_cond_broadcast(&k->cond);
	pthread_mutex_unlock(&k->lock);
}

static void
startjob(struct wspx_worker *w, struct wspx_job *job)
{
	struct call *k = wspx_container_of(job, struct call, start);

	wspx__builtin_run(w, &k->c);
}

static struct call *
newcall(const char *name)
{
	struct call *k = calloc(1, sizeof(*k));

	k->c.name = name;
	k->c.args = k->args;
	k->c.dirfd = dir;
	k->c.timer = timer;
	k->c.stopping = &stop;
	k->c.prefix = "wspx: ";
	k->c.write = capture;
	k->c.done = ended;
	pthread_mutex_init(&k->lock, NULL);
	pthread_cond_init(&k->cond, NULL);
	return k;
}

/* Add key with the values that follow, up to NULL; list: a sequence. */
static void
arg(struct call *k, const char *key, int list, ...)
{
	struct wspx__barg *a = &k->args[k->c.nargs++];
	const char *s;
	va_list ap;

	a->key = key;
	a->list = list != 0;
	a->v = &k->vals[k->nv];
	va_start(ap, list);
	while ((s = va_arg(ap, const char *)) != NULL) {
		k->vals[k->nv++] = (char *)s;
		a->n++;
	}
	va_end(ap);
}

static void
start(struct call *k)
{
	k->began = test_now();
	k->start.run = startjob;
	CHECK(wspx_pool_inject(pool, &k->start) == 0);
}

static void
await(struct call *k)
{
	pthread_mutex_lock(&k->lock);
	while (!k->over)
		pthread_cond_wait(&k->cond, &k->lock);
	pthread_mutex_unlock(&k->lock);
}

static void
freecall(struct call *k)
{
	pthread_mutex_destroy(&k->lock);
	pthread_cond_destroy(&k->cond);
	free(k);
}

/* Run k to its end and return its status; k is kept for a look. */
static int
run(struct call *k)
{
	start(k);
	await(k);
	return k->c.status;
}

/* Run k, free it, and return its status. */
static int
run1(struct call *k)
{
	int rc = run(k);

	if (rc != 0)
		fprintf(stderr, "# %s: %s", k->c.name, k->err);
	freecall(k);
	return rc;
}

static bool
isdir(const char *path)
{
	struct stat st;

	return fstatat(dir, path, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    S_ISDIR(st.st_mode);
}

static bool
exists(const char *path)
{
	struct stat st;

	return fstatat(dir, path, &st, AT_SYMLINK_NOFOLLOW) == 0;
}

static void
put(const char *path, const char *text, mode_t mode)
{
	int fd = openat(dir, path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
	    mode);

	CHECK(fd >= 0);
	CHECK(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
	close(fd);
	CHECK(fchmodat(dir, path, mode, 0) == 0);
}

/* The contents of path, in a static buffer ("" if missing). */
static const char *
get(const char *path)
{
	static char buf[300000];
	ssize_t n = 0, k;
	int fd = openat(dir, path, O_RDONLY | O_CLOEXEC);

	while (fd >= 0 && (k = read(fd, buf + n, sizeof(buf) - 1 - n)) > 0)
		n += k;
	if (fd >= 0)
		close(fd);
	buf[n] = '\0';
	return buf;
}

/* No temporary file left behind in the test directory. */
static bool
notemp(void)
{
	DIR *d = opendir(dirpath);
	struct dirent *e;
	bool clean = true;

	while (d != NULL && (e = readdir(d)) != NULL)
		if (strstr(e->d_name, ".wspx-") != NULL)
			clean = false;
	if (d != NULL)
		closedir(d);
	return clean;
}

static void
test_noop_echo(void)
{
	struct call *k = newcall("noop");

	CHECK(run1(k) == 0);
	k = newcall("echo");
	arg(k, "text", false, "hello", NULL);
	CHECK(run(k) == 0);
	CHECK(strcmp(k->out, "hello\n") == 0);
	freecall(k);
	k = newcall("echo");
	arg(k, "text", true, "a", "", "b\n", NULL);
	CHECK(run(k) == 0);
	CHECK(strcmp(k->out, "a\n\nb\n") == 0);
	freecall(k);
	k = newcall("nosuch");
	CHECK(run(k) == 1);
	CHECK(strcmp(k->err, "wspx: nosuch: no such builtin\n") == 0);
	freecall(k);
	k = newcall("echo");
	CHECK(run(k) == 1);
	CHECK(strcmp(k->err, "wspx: echo: missing 'text'\n") == 0);
	freecall(k);
	/* The program's name is the caller's: without a prefix, none. */
	k = newcall("echo");
	k->c.prefix = NULL;
	CHECK(run(k) == 1);
	CHECK(strcmp(k->err, "echo: missing 'text'\n") == 0);
	freecall(k);
}

static void
test_mkdir(void)
{
	struct call *k = newcall("mkdir");

	arg(k, "paths", true, "m1/a/b/c", "m2//x/", "m1/a", NULL);
	CHECK(run1(k) == 0);
	CHECK(isdir("m1/a/b/c") && isdir("m2/x"));
	k = newcall("mkdir");
	arg(k, "paths", false, "m1/a/b/c", NULL);
	CHECK(run1(k) == 0);
	put("mfile", "x", 0644);
	k = newcall("mkdir");
	arg(k, "paths", true, "mfile", "mfile/sub", "m3", NULL);
	CHECK(run(k) == 1);
	CHECK(strcmp(k->err, "wspx: mkdir: mfile: File exists\n"
	    "wspx: mkdir: mfile/sub: Not a directory\n") == 0);
	CHECK(isdir("m3"));	/* it goes on past a failure */
	freecall(k);
}

static void
test_touch(void)
{
	struct timespec old[2] = { { 1000000, 0 }, { 1000000, 0 } };
	struct call *k = newcall("touch");
	struct stat st;

	arg(k, "paths", true, "t1", "t2", NULL);
	CHECK(run1(k) == 0);
	CHECK(exists("t1") && exists("t2") && *get("t1") == '\0');
	put("t1", "keep", 0644);
	CHECK(utimensat(dir, "t1", old, 0) == 0);
	k = newcall("touch");
	arg(k, "paths", false, "t1", NULL);
	CHECK(run1(k) == 0);
	CHECK(fstatat(dir, "t1", &st, 0) == 0);
	CHECK(st.st_mtime > time(NULL) - 60);
	CHECK(strcmp(get("t1"), "keep") == 0);
	k = newcall("touch");
	arg(k, "paths", false, "nodir/t", NULL);
	CHECK(run(k) == 1);
	CHECK(strcmp(k->err, "wspx: touch: nodir/t: No such file or "
	    "directory\n") == 0);
	freecall(k);
}

static int
write1(const char *path, bool list, const char *text, const char *append)
{
	struct call *k = newcall("write");
	int rc;

	arg(k, "path", false, path, NULL);
	arg(k, "text", list, text, NULL);
	if (append != NULL)
		arg(k, "append", false, append, NULL);
	rc = run(k);
	freecall(k);
	return rc;
}

/* A reader that must only ever see one whole version of the file. */
static _Atomic(bool) reading;
static _Atomic(long) torn, reads;

static void *
reader(void *arg)
{
	static char buf[300000];
	ssize_t n, k;
	int fd;

	(void)arg;
	while (atomic_load(&reading)) {
		if ((fd = openat(dir, "big", O_RDONLY | O_CLOEXEC)) < 0)
			continue;
		for (n = 0; (k = read(fd, buf + n, sizeof(buf) - n)) > 0; )
			n += k;
		close(fd);
		if (n != 200001 || buf[0] != buf[199999] ||
		    buf[200000] != '\n')
			atomic_fetch_add(&torn, 1);
		atomic_fetch_add(&reads, 1);
	}
	return NULL;
}

static void
test_write_atomic(void)
{
	char *a = malloc(200001), *b = malloc(200001);
	pthread_t t;
	int i;

	memset(a, 'a', 200000);
	memset(b, 'b', 200000);
	a[200000] = b[200000] = '\0';
	CHECK(write1("big", false, a, NULL) == 0);
	atomic_store(&reading, true);
	pthread_create(&t, NULL, reader, NULL);
	for (i = 0; i < 100 || atomic_load(&reads) < 20; i++)
		CHECK(write1("big", false, i % 2 ? a : b, NULL) == 0);
	atomic_store(&reading, false);
	pthread_join(t, NULL);
	CHECK(atomic_load(&torn) == 0);
	CHECK(notemp());
	free(a);
	free(b);
}

static void
test_write(void)
{
	struct call *k;
	struct stat st;

	CHECK(write1("w1", false, "one", NULL) == 0);
	CHECK(strcmp(get("w1"), "one\n") == 0);
	CHECK(write1("w1", false, "two\n", NULL) == 0);
	CHECK(strcmp(get("w1"), "two\n") == 0);
	CHECK(write1("w1", false, "three", "true") == 0);
	CHECK(strcmp(get("w1"), "two\nthree\n") == 0);
	CHECK(write1("w1", false, "", NULL) == 0);
	CHECK(strcmp(get("w1"), "") == 0);
	CHECK(write1("w2", false, "x", "false") == 0);
	CHECK(strcmp(get("w2"), "x\n") == 0);
	k = newcall("write");
	arg(k, "path", false, "w3", NULL);
	arg(k, "text", true, "l1", "", "l3", NULL);
	CHECK(run1(k) == 0);
	CHECK(strcmp(get("w3"), "l1\n\nl3\n") == 0);
	/* The mode of the file replaced is kept. */
	CHECK(fchmodat(dir, "w3", 0751, 0) == 0);
	CHECK(write1("w3", false, "y", NULL) == 0);
	CHECK(fstatat(dir, "w3", &st, 0) == 0 && (st.st_mode & 0777) == 0751);
	CHECK(write1("m1", false, "y", NULL) == 1);	/* a directory */
	CHECK(write1("w4", false, "y", "maybe") == 1);
	CHECK(!exists("w4"));
	CHECK(notemp());
}

static void
test_copy(void)
{
	struct call *k;
	struct stat st;

	put("c1", "first", 0750);
	put("c2", "second", 0604);
	k = newcall("copy");
	arg(k, "from", false, "c1", NULL);
	arg(k, "to", false, "c1copy", NULL);
	CHECK(run1(k) == 0);
	CHECK(strcmp(get("c1copy"), "first") == 0);
	CHECK(fstatat(dir, "c1copy", &st, 0) == 0 &&
	    (st.st_mode & 0777) == 0750);
	CHECK(mkdirat(dir, "cdir", 0755) == 0);
	k = newcall("copy");
	arg(k, "from", true, "c1", "c2", NULL);
	arg(k, "to", false, "cdir", NULL);
	CHECK(run1(k) == 0);
	CHECK(strcmp(get("cdir/c1"), "first") == 0);
	CHECK(strcmp(get("cdir/c2"), "second") == 0);
	CHECK(fstatat(dir, "cdir/c2", &st, 0) == 0 &&
	    (st.st_mode & 0777) == 0604);
	/* Onto an existing file, and a list of one into a file. */
	k = newcall("copy");
	arg(k, "from", true, "c2", NULL);
	arg(k, "to", false, "c1copy", NULL);
	CHECK(run1(k) == 0);
	CHECK(strcmp(get("c1copy"), "second") == 0);
}

static void
test_copy_fails(void)
{
	struct call *k = newcall("copy");

	arg(k, "from", true, "cdir", "nope.txt", "c1", NULL);
	arg(k, "to", false, "cdir/", NULL);
	CHECK(run(k) == 1);
	CHECK(strcmp(k->err, "wspx: copy: cdir: is a directory (copy copies "
	    "files)\nwspx: copy: nope.txt: No such file or directory\n") == 0);
	freecall(k);
	k = newcall("copy");
	arg(k, "from", true, "c1", "c2", NULL);
	arg(k, "to", false, "c1copy", NULL);
	CHECK(run(k) == 1);
	CHECK(strstr(k->err, "c1copy: is not a directory") != NULL);
	CHECK(strcmp(get("c1copy"), "second") == 0);
	freecall(k);
	CHECK(notemp());
}

static void
test_remove(void)
{
	struct call *k;

	CHECK(mkdirat(dir, "r", 0755) == 0);
	CHECK(mkdirat(dir, "r/sub", 0755) == 0);
	CHECK(mkdirat(dir, "r/empty", 0755) == 0);
	put("r/f", "x", 0644);
	put("r/sub/g", "y", 0400);
	CHECK(mkdirat(dir, "keep", 0755) == 0);
	put("keep/k", "k", 0644);
	CHECK(symlinkat("../keep", dir, "r/sub/link") == 0);
	CHECK(symlinkat("keep", dir, "rlink") == 0);
	put("rf", "x", 0644);
	k = newcall("remove");
	arg(k, "paths", true, "r", "rf", "missing", "rlink/", NULL);
	CHECK(run1(k) == 0);
	CHECK(!exists("r") && !exists("rf") && !exists("rlink"));
	CHECK(strcmp(get("keep/k"), "k") == 0);	/* links not followed */
	k = newcall("remove");
	arg(k, "paths", true, ".", "keep/..", "/", NULL);
	CHECK(run(k) == 1);
	CHECK(strcmp(k->err, "wspx: remove: .: refusing to remove '.', '..' "
	    "or '/'\nwspx: remove: keep/..: refusing to remove '.', '..' or "
	    "'/'\nwspx: remove: /: refusing to remove '.', '..' or '/'\n")
	    == 0);
	freecall(k);
	CHECK(exists("keep"));
}

/* A chain 10,000 deep: no recursion, one directory open at a time. */
static void
test_remove_deep(void)
{
	struct call *k;
	int fd, next, i;

	CHECK(mkdirat(dir, "deep", 0755) == 0);
	fd = openat(dir, "deep", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	for (i = 0; i < 10000 && fd >= 0; i++) {
		CHECK(mkdirat(fd, "d", 0755) == 0);
		if (i % 1000 == 0)
			close(openat(fd, "file", O_WRONLY | O_CREAT |
			    O_CLOEXEC, 0644));
		next = openat(fd, "d", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		close(fd);
		fd = next;
	}
	CHECK(fd >= 0);
	close(fd);
	k = newcall("remove");
	arg(k, "paths", false, "deep", NULL);
	CHECK(run1(k) == 0);
	CHECK(!exists("deep"));
}

/* The line sha256sum prints for text named name. */
static void
sumof(char *line, const char *text, const char *name)
{
	struct wspx__sha256 h;
	unsigned char d[32];
	int i;

	wspx__sha256_init(&h);
	wspx__sha256_update(&h, text, strlen(text));
	wspx__sha256_final(&h, d);
	for (i = 0; i < 32; i++)
		sprintf(line + 2 * i, "%02x", d[i]);
	sprintf(line + 64, "  %s\n", name);
}

static void
test_sha256(void)
{
	struct call *k;

	put("empty", "", 0644);
	put("abc", "abc", 0644);
	k = newcall("sha256");
	arg(k, "files", true, "empty", "abc", NULL);
	CHECK(run(k) == 0);
	CHECK(strcmp(k->out, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934c"
	    "a495991b7852b855  empty\nba7816bf8f01cfea414140de5dae2223b00361a3"
	    "96177a9cb410ff61f20015ad  abc\n") == 0);
	freecall(k);
	/* To a file; a name to escape, as sha256sum does. */
	put("a\\b", "abc", 0644);
	k = newcall("sha256");
	arg(k, "files", false, "a\\b", NULL);
	arg(k, "to", false, "sums", NULL);
	CHECK(run1(k) == 0);
	CHECK(strcmp(get("sums"), "\\ba7816bf8f01cfea414140de5dae2223b00361a3"
	    "96177a9cb410ff61f20015ad  a\\\\b\n") == 0);
	/* A missing file fails with its name; `to` is then not written. */
	k = newcall("sha256");
	arg(k, "files", true, "abc", "missing", NULL);
	arg(k, "to", false, "sums2", NULL);
	CHECK(run(k) == 1);
	CHECK(strcmp(k->err, "wspx: sha256: missing: No such file or "
	    "directory\n") == 0);
	CHECK(!exists("sums2"));
	freecall(k);
}

/* Many files, hashed in parallel, printed in the order given. */
static void
test_sha256_many(void)
{
	char want[20000] = "", line[200], name[32], *texts[40];
	struct call *k;
	int i;

	k = newcall("sha256");
	arg(k, "files", true, NULL);
	for (i = 0; i < 40; i++) {
		snprintf(name, sizeof(name), "h%02d", 39 - i);
		texts[i] = malloc(64);
		snprintf(texts[i], 64, "text %d", i * 7);
		put(name, texts[i], 0644);
		sumof(line, texts[i], name);
		strcat(want, line);
		k->vals[k->nv++] = strdup(name);
		k->args[0].n++;
	}
	CHECK(run(k) == 0);
	CHECK(strcmp(k->out, want) == 0);
	for (i = 0; i < 40; i++) {
		free(k->vals[i]);
		free(texts[i]);
	}
	freecall(k);
}

static struct call *
sleeper(const char *d)
{
	struct call *k = newcall("sleep");

	arg(k, "duration", false, d, NULL);
	return k;
}

static void
quick(struct wspx_worker *w, void *arg)
{
	(void)w;
	*(double *)arg = test_now();
}

static void
test_sleep(void)
{
	struct call *k = sleeper("0.2s"), *v[8];
	double t, t0;
	int i;

	CHECK(run(k) == 0);
	CHECK(k->ended - k->began >= 0.2);
	freecall(k);
	/* 8 sleeps of 0.3 s on 2 workers, at once: sleeping workers would
	 * need 1.2 s; and the pool still runs other work meanwhile. */
	t0 = test_now();
	for (i = 0; i < 8; i++)
		start(v[i] = sleeper("300ms"));
	CHECK(wspx_pool_call(pool, quick, &t) == 0);
	CHECK(t - t0 < 0.2);
	for (i = 0; i < 8; i++) {
		await(v[i]);
		CHECK(v[i]->c.status == 0);
		CHECK(v[i]->ended - v[i]->began >= 0.3);
		freecall(v[i]);
	}
	CHECK(test_now() - t0 < 1.0);
	k = sleeper("2x");
	CHECK(run(k) == 1);
	CHECK(strcmp(k->err, "wspx: sleep: 'duration': '2x' is not a duration"
	    " (like 2s, 500ms, 1m30s, 2h, 1d)\n") == 0);
	freecall(k);
}

static void
nap(double s)
{
	struct timespec ts = { 0, (long)(s * 1e9) };

	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

static void *
later(void *arg)
{
	(void)arg;
	nap(0.1);
	put("appeared", "", 0644);
	return NULL;
}

/* A port on 127.0.0.1: listening (fd returned), or closed again. */
static int
openport(int *port, bool listening)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t len = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	CHECK(bind(fd, (struct sockaddr *)&a, sizeof(a)) == 0);
	CHECK(getsockname(fd, (struct sockaddr *)&a, &len) == 0);
	*port = ntohs(a.sin_port);
	if (listening)
		CHECK(listen(fd, 8) == 0);
	else
		close(fd);
	return fd;
}

static void
test_waitfor(void)
{
	char portstr[16], msg[128];
	struct call *k;
	pthread_t t;
	int fd, port;

	k = newcall("wait-for");
	arg(k, "path", false, "appeared", NULL);
	start(k);
	pthread_create(&t, NULL, later, NULL);
	await(k);
	pthread_join(t, NULL);
	CHECK(k->c.status == 0);
	CHECK(k->ended - k->began >= 0.09);
	freecall(k);
	fd = openport(&port, true);
	snprintf(portstr, sizeof(portstr), "%d", port);
	k = newcall("wait-for");
	arg(k, "port", false, portstr, NULL);
	arg(k, "timeout", false, "5s", NULL);
	CHECK(run1(k) == 0);
	close(fd);
	openport(&port, false);
	snprintf(portstr, sizeof(portstr), "%d", port);
	k = newcall("wait-for");
	arg(k, "port", false, portstr, NULL);
	arg(k, "timeout", false, "0.3s", NULL);
	CHECK(run(k) == 1);
	CHECK(k->ended - k->began >= 0.3 && k->ended - k->began < 2);
	snprintf(msg, sizeof(msg), "wspx: wait-for: port %d did not accept a "
	    "connection within 0.3s\n", port);
	CHECK(strcmp(k->err, msg) == 0);
	freecall(k);
	k = newcall("wait-for");
	arg(k, "path", false, "never", NULL);
	arg(k, "timeout", false, "100ms", NULL);
	CHECK(run(k) == 1);
	CHECK(strcmp(k->err, "wspx: wait-for: never did not appear within "
	    "100ms\n") == 0);
	freecall(k);
}

static void
test_stop(void)
{
	struct call *s = sleeper("10s"), *wf = newcall("wait-for");
	double t0 = test_now();

	arg(wf, "path", false, "never", NULL);
	start(s);
	start(wf);
	nap(0.1);
	atomic_store_explicit(&stop, true, memory_order_relaxed);
	wspx__timer_fire_all(timer);
	await(s);
	await(wf);
	CHECK(s->c.status == -ECANCELED && wf->c.status == -ECANCELED);
	CHECK(test_now() - t0 < 2);
	freecall(s);
	freecall(wf);
	/* A sleep started once the run is stopping ends at once too. */
	s = sleeper("10s");
	CHECK(run(s) == -ECANCELED);
	freecall(s);
}

/*
 * The check at load time, on nodes built by hand.
 */

static struct wspx__ynode nodes[64];
static struct wspx__ynode *itemv[64];
static size_t nnodes, nitems;

static struct wspx__ynode *
node(enum wspx__ykind kind, unsigned line, unsigned col)
{
	struct wspx__ynode *n = &nodes[nnodes++];

	memset(n, 0, sizeof(*n));
	n->kind = kind;
	n->line = line;
	n->col = col;
	return n;
}

static struct wspx__ynode *
str(unsigned line, unsigned col, const char *s)
{
	struct wspx__ynode *n = node(WSPX__YSCALAR, line, col);

	n->str = s;
	n->len = strlen(s);
	n->plain = true;
	return n;
}

/* A mapping or sequence of the n nodes that follow. */
static struct wspx__ynode *
coll(enum wspx__ykind kind, unsigned line, unsigned col, size_t n, ...)
{
	struct wspx__ynode *c = node(kind, line, col);
	va_list ap;
	size_t i;

	c->items = &itemv[nitems];
	va_start(ap, n);
	for (i = 0; i < n; i++)
		itemv[nitems++] = va_arg(ap, struct wspx__ynode *);
	va_end(ap);
	c->n = kind == WSPX__YMAP ? n / 2 : n;
	return c;
}

/* Check name's with (the job's builtin: at 1:10) and compare the errors
 * with want, "L:C: msg" lines joined. */
static bool
checks(const char *name, const struct wspx__ynode *with, const char *want)
{
	const struct wspx__ynode *at = str(1, 10, name);
	char got[2048] = "";
	struct wspx__diag d;
	size_t i, n = 0;
	bool same;

	wspx__diag_init(&d, "jobs.yaml");
	wspx__builtin_check(name, with, at, &d);
	for (i = 0; i < d.n; i++)
		n += (size_t)snprintf(got + n, sizeof(got) - n, "%u:%u: %s\n",
		    d.v[i].line, d.v[i].col, d.v[i].msg);
	wspx__diag_fini(&d);
	nnodes = nitems = 0;
	if (!(same = strcmp(got, want) == 0))
		fprintf(stderr, "# %s: got\n%s# want\n%s", name, got, want);
	return same;
}

static void
test_check(void)
{
	CHECK(checks("sha256", coll(WSPX__YMAP, 3, 5, 2, str(3, 5, "fils"),
	    coll(WSPX__YSEQ, 3, 11, 1, str(3, 13, "a"))),
	    "3:5: unknown key 'fils' in with of sha256 (did you mean "
	    "'files'?)\n3:5: missing key 'files' in with of sha256\n"));
	CHECK(checks("echo", NULL, "1:10: builtin echo needs with: text\n"));
	CHECK(checks("copy", NULL, "1:10: builtin copy needs with: from\n"
	    "1:10: builtin copy needs with: to\n"));
	CHECK(checks("wait-for", NULL, "1:10: builtin wait-for needs with: "
	    "path or port\n"));
	CHECK(checks("echo", coll(WSPX__YMAP, 2, 3, 2, str(2, 3, "text"),
	    coll(WSPX__YMAP, 3, 5, 2, str(3, 5, "a"), str(3, 8, "b"))),
	    "3:5: 'text' in with of echo must be a string or a list of "
	    "strings, not a mapping\n"));
	CHECK(checks("echo", coll(WSPX__YSEQ, 2, 3, 0), "2:3: with of echo "
	    "must be a mapping, not a list\n"));
	CHECK(checks("echo", str(2, 3, ""), "2:3: missing key 'text' in with "
	    "of echo\n"));
	CHECK(checks("sleep", coll(WSPX__YMAP, 4, 7, 2, str(4, 7, "duration"),
	    str(4, 17, "2x")), "4:17: 'duration' in with of sleep: '2x' is "
	    "not a duration (like 2s, 500ms, 1m30s, 2h, 1d)\n"));
	CHECK(checks("sleep", coll(WSPX__YMAP, 4, 7, 2, str(4, 7, "duration"),
	    str(4, 17, "${{ vars.t }}")), ""));
}

static void
test_check_values(void)
{
	struct wspx__ynode *m;

	CHECK(checks("wait-for", coll(WSPX__YMAP, 5, 7, 4, str(5, 7, "port"),
	    str(5, 13, "0"), str(6, 7, "timeot"), str(6, 16, "1s")),
	    "5:13: 'port' in with of wait-for: '0' is not a port (1 to "
	    "65535)\n6:7: unknown key 'timeot' in with of wait-for (did you "
	    "mean 'timeout'?)\n"));
	CHECK(checks("wait-for", coll(WSPX__YMAP, 5, 7, 4, str(5, 7, "port"),
	    str(5, 13, "80"), str(6, 7, "path"), str(6, 13, "f")),
	    "6:13: with of wait-for takes 'path' or 'port', not both\n"));
	CHECK(checks("wait-for", coll(WSPX__YMAP, 5, 7, 2, str(5, 7,
	    "timeout"), str(5, 16, "1m")), "5:7: missing key 'path' or 'port' "
	    "in with of wait-for\n"));
	m = coll(WSPX__YMAP, 7, 3, 6, str(7, 3, "path"),
	    coll(WSPX__YSEQ, 7, 9, 1, str(7, 10, "x")), str(8, 3, "text"),
	    coll(WSPX__YSEQ, 8, 9, 2, str(8, 10, "ok"),
	    coll(WSPX__YSEQ, 8, 14, 0)), str(9, 3, "append"),
	    str(9, 11, "yes"));
	CHECK(checks("write", m, "7:9: 'path' in with of write must be a "
	    "string, not a list\n8:14: an item of 'text' in with of write "
	    "must be a string, not a list\n9:11: 'append' in with of write: "
	    "'yes' is not true or false\n"));
	CHECK(checks("noop", coll(WSPX__YMAP, 1, 1, 2, str(1, 1, "x"),
	    str(1, 4, "y")), "1:1: unknown key 'x' in with of noop (it takes "
	    "none)\n"));
	CHECK(checks("copy", coll(WSPX__YMAP, 1, 1, 4, str(1, 1, "from"),
	    str(1, 7, ""), str(2, 1, "zzz"), str(2, 6, "y")),
	    "1:7: 'from' in with of copy has no value\n2:1: unknown key 'zzz' "
	    "in with of copy (it takes 'from' or 'to')\n1:1: missing key 'to' "
	    "in with of copy\n"));
	CHECK(checks("mkdir", coll(WSPX__YMAP, 1, 1, 2, str(1, 1, "paths"),
	    coll(WSPX__YSEQ, 1, 8, 0)), "1:8: 'paths' in with of mkdir is an "
	    "empty list\n"));
	CHECK(checks("nosuch", NULL, ""));
}

static void
test_names(void)
{
	const char *const *v;
	size_t n, i;

	v = wspx__builtin_names(&n);
	CHECK(n == 10);
	for (i = 0; i < n; i++) {
		CHECK(wspx__builtin_exists(v[i]));
		CHECK(i == 0 || strcmp(v[i - 1], v[i]) < 0);
	}
	CHECK(!wspx__builtin_exists("cp"));
}

int
main(int argc, char **argv)
{
	struct wspx_pool_opts o;
	struct call *k;

	o.workers = (unsigned)test_arg(argc, argv, 1, 2);
	snprintf(dirpath, sizeof(dirpath), "/tmp/wspx-builtins.XXXXXX");
	if (mkdtemp(dirpath) == NULL || (dir = open(dirpath, O_RDONLY |
	    O_DIRECTORY | O_CLOEXEC)) < 0 || wspx_pool_new(&pool, &o) != 0 ||
	    wspx__timer_new(&timer, pool) != 0) {
		perror("builtins: setup");
		return 2;
	}
	TEST(test_names(), "names are sorted and exist");
	TEST(test_noop_echo(), "noop, echo, an unknown builtin");
	TEST(test_mkdir(), "mkdir -p, nested, and its failures");
	TEST(test_touch(), "touch creates, and updates the mtime");
	TEST(test_write(), "write: newline rule, lists, append, mode kept");
	TEST(test_write_atomic(), "write: a reader never sees half a file");
	TEST(test_copy(), "copy to a file and into a directory, perms kept");
	TEST(test_copy_fails(), "copy refuses directories, names the path");
	TEST(test_remove(), "remove: trees, links not followed, refusals");
	TEST(test_remove_deep(), "remove: a chain 10000 deep");
	TEST(test_sha256(), "sha256: digests, to, missing file");
	TEST(test_sha256_many(), "sha256: 40 files in parallel, in order");
	TEST(test_sleep(), "sleep holds no worker");
	TEST(test_waitfor(), "wait-for a path, a port, a timeout");
	TEST(test_check(), "check of with: keys, kinds, places");
	TEST(test_check_values(), "check of with: values, every error");
	TEST(test_stop(), "stopping cancels sleep and wait-for");
	/* The test directory goes with the builtin itself. */
	k = newcall("remove");
	k->c.dirfd = AT_FDCWD;
	arg(k, "paths", false, dirpath, NULL);
	CHECK(run1(k) == 0);
	wspx__timer_free(timer);
	wspx_pool_free(pool);
	close(dir);
	return test_done();
}
