/*
 * --results DIR (see results.h).  A job's files are opened without
 * O_TRUNC and emptied only once they are known to be regular files with
 * one link, so a hard link planted to another file never truncates it;
 * with O_NONBLOCK, so a FIFO planted in their place does not block the
 * open (it is then refused as not a regular file).
 */
#include "results.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "os/proc.h"
#include "os/thread.h"

struct wspx__results {
	int fd;			/* DIR */
	char *path;		/* DIR as given */
	void (*failed)(void *ctx, int err);
	void *ctx;
	pthread_mutex_t lock;	/* guards the first error */
	int err;		/* the first error, or 0 */
	char errmsg[512];	/* "DIR/seq/name: why" */
};

/* mkdir -p: each missing directory of path, with the umask. */
static int
makepath(const char *path)
{
	char *p = strdup(path), *s, c;
	int rc = 0;

	if (p == NULL)
		return -ENOMEM;
	for (s = p + 1; rc == 0; s++) {
		if (*s != '/' && *s != '\0')
			continue;
		c = *s;
		*s = '\0';
		if (mkdir(p, 0777) != 0 && errno != EEXIST)
			rc = -errno;
		*s = c;
		if (c == '\0')
			break;
	}
	free(p);
	return rc;
}

int
wspx__results_open(struct wspx__results **out, const char *path,
    void (*failed)(void *ctx, int err), void *ctx)
{
	struct wspx__results *r;
	int rc;

	if ((rc = makepath(path)) != 0)
		return rc;
	if ((r = calloc(1, sizeof(*r))) == NULL)
		return -ENOMEM;
	if ((r->path = strdup(path)) == NULL) {
		free(r);
		return -ENOMEM;
	}
	if ((r->fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0) {
		rc = -errno;
		free(r->path);
		free(r);
		return rc;
	}
	WSPX_MUST(pthread_mutex_init(&r->lock, NULL));
	r->failed = failed;
	r->ctx = ctx;
	*out = r;
	return 0;
}

void
wspx__results_free(struct wspx__results *r)
{
	if (r == NULL)
		return;
	close(r->fd);
	WSPX_MUST(pthread_mutex_destroy(&r->lock));
	free(r->path);
	free(r);
}

/* Keep the first error, about DIR/seq/name, and tell the caller once.
 * Returns err. */
static int
fail(struct wspx__results *r, uint64_t seq, const char *name, int err,
    const char *why)
{
	bool first;

	WSPX_MUST(pthread_mutex_lock(&r->lock));
	if ((first = r->err == 0)) {
		r->err = err;
		snprintf(r->errmsg, sizeof(r->errmsg), "%s/%llu%s%s: %s",
		    r->path, (unsigned long long)seq, *name != '\0' ? "/" :
		    "", name, why != NULL ? why : err == -ELOOP ?
		    "a symbolic link (not followed)" : strerror(-err));
	}
	WSPX_MUST(pthread_mutex_unlock(&r->lock));
	if (first && r->failed != NULL)
		r->failed(r->ctx, err);
	return err;
}

/* Open name in dir, emptied, to write (and read back the end of stderr):
 * a regular file with one link.
 * Returns the fd, or -errno with *why set when errno would not say. */
static int
openfile(int dir, const char *name, const char **why)
{
	struct stat st;
	int fd, rc = 0;

	fd = openat(dir, name, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK |
	    O_CLOEXEC, 0666);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) != 0)
		rc = -errno;
	else if (!S_ISREG(st.st_mode))
		*why = "not a regular file", rc = -EINVAL;
	else if (st.st_nlink != 1)
		*why = "has another hard link (not written)", rc = -EMLINK;
	else if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0 ||
	    ftruncate(fd, 0) != 0)
		rc = -errno;
	if (rc != 0) {
		close(fd);
		return rc;
	}
	return fd;
}

/* Why name in dir, which O_DIRECTORY refused, is not a directory. */
static const char *
notdir(int dir, const char *name)
{
	struct stat st;

	if (fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    S_ISLNK(st.st_mode))
		return "a symbolic link (not followed)";
	return "not a directory";
}

static void
closefiles(struct wspx__resultfiles *f)
{
	if (f->out >= 0)
		close(f->out);
	if (f->err >= 0)
		close(f->err);
	if (f->dir >= 0)
		close(f->dir);
	f->dir = f->out = f->err = -1;
}

int
wspx__results_start(struct wspx__results *r, uint64_t seq,
    struct wspx__resultfiles *f)
{
	const char *why = NULL, *name = "";
	char dir[24];
	int rc;

	f->dir = f->out = f->err = -1;
	snprintf(dir, sizeof(dir), "%llu", (unsigned long long)seq);
	if (mkdirat(r->fd, dir, 0777) != 0 && errno != EEXIST)
		return fail(r, seq, name, -errno, NULL);
	if ((f->dir = openat(r->fd, dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC)) < 0)
		return fail(r, seq, name, -errno, errno == ENOTDIR ?
		    notdir(r->fd, dir) : NULL);
	if ((rc = openfile(f->dir, name = "stdout", &why)) >= 0) {
		f->out = rc;
		if ((rc = openfile(f->dir, name = "stderr", &why)) >= 0)
			f->err = rc;
	}
	if (rc < 0) {
		closefiles(f);
		return fail(r, seq, name, rc, why);
	}
	return 0;
}

int
wspx__results_end(struct wspx__results *r, uint64_t seq,
    struct wspx__resultfiles *f, int exitval)
{
	const char *why = NULL;
	char text[16];
	int fd, rc = 0;

	if (f->dir < 0)
		return 0;
	if ((fd = openfile(f->dir, "exitval", &why)) < 0) {
		rc = fail(r, seq, "exitval", fd, why);
	} else {
		snprintf(text, sizeof(text), "%d\n", exitval);
		if ((rc = wspx__proc_writeall(fd, text, strlen(text))) != 0 ||
		    (close(fd) != 0 && (rc = -errno) != 0))
			fail(r, seq, "exitval", rc, NULL);
		if (rc != 0)
			close(fd);
	}
	closefiles(f);
	return rc;
}

void
wspx__results_sizes(const struct wspx__resultfiles *f, uint64_t *out,
    uint64_t *err)
{
	struct stat st;

	*out = f->out >= 0 && fstat(f->out, &st) == 0 ? (uint64_t)st.st_size :
	    0;
	*err = f->err >= 0 && fstat(f->err, &st) == 0 ? (uint64_t)st.st_size :
	    0;
}

size_t
wspx__results_errtail(const struct wspx__resultfiles *f, char *buf,
    size_t n)
{
	struct stat st;
	off_t from;
	ssize_t got;

	if (f->err < 0 || fstat(f->err, &st) != 0)
		return 0;
	from = st.st_size > (off_t)n ? st.st_size - (off_t)n : 0;
	got = pread(f->err, buf, (size_t)(st.st_size - from), from);
	return got > 0 ? (size_t)got : 0;
}

int
wspx__results_error(struct wspx__results *r, char *buf, size_t n)
{
	int err;

	WSPX_MUST(pthread_mutex_lock(&r->lock));
	err = r->err;
	snprintf(buf, n, "%s", r->errmsg);
	WSPX_MUST(pthread_mutex_unlock(&r->lock));
	return err;
}
