/*
 * The builtins that make, write and hash files (see builtin.h): mkdir,
 * touch, write, copy and sha256; remove, which walks trees, has its own
 * file, rm.c.  Every path is taken relative to the call's directory
 * fd, with the *at() calls, and every fd is close-on-exec: other threads
 * spawn children all the time.  What a builtin writes whole (write, copy,
 * sha256's `to`) goes to a temporary file next to its target, then is
 * renamed over it, so that a reader sees the old file or the new one,
 * never a part.  Each builtin goes on past a failing path, as mkdir -p
 * does, and fails at the end.
 */
#include "builtin_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "base/sha256.h"

/* The size of copy's buffer. */
#define CHUNK 65536

static int
writeall(int fd, const char *p, size_t n)
{
	ssize_t k;

	while (n > 0) {
		if ((k = write(fd, p, n)) < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return -errno;
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

/* Create a new file beside path (relative to dirfd), named
 * ".BASE.wspx-PID-N", with mode and the umask.  Returns its fd and sets
 * *tmp to its path (the caller frees it), or -errno. */
static int
tmpopen(int dirfd, const char *path, mode_t mode, char **tmp)
{
	static _Atomic(unsigned long) seq;
	const char *base = strrchr(path, '/');
	size_t dir = base != NULL ? (size_t)(base - path) + 1 : 0;
	unsigned long n;
	int fd, tries, rc;
	char *t;

	base = base != NULL ? base + 1 : path;
	if (*base == '\0')
		return -EISDIR;
	if ((t = malloc(dir + strlen(base) + 64)) == NULL)
		return -ENOMEM;
	for (tries = 0; tries < 100; tries++) {
		/* relaxed: only a fresh number matters; O_EXCL decides. */
		n = atomic_fetch_add_explicit(&seq, 1, memory_order_relaxed);
		/* BASE cut to 100 bytes keeps the name within NAME_MAX. */
		sprintf(t, "%.*s.%.100s.wspx-%ld-%lu", (int)dir, path, base,
		    (long)getpid(), n);
		if ((fd = openat(dirfd, t, O_WRONLY | O_CREAT | O_EXCL |
		    O_CLOEXEC, mode)) >= 0) {
			*tmp = t;
			return fd;
		}
		if (errno != EEXIST)
			break;
	}
	rc = -errno;
	free(t);
	return rc;
}

/* Close fd, the temporary file tmp, and if rc is 0 rename it over path,
 * else remove it.  Frees tmp.  Returns rc, or the error of the close or
 * the rename. */
static int
tmpdone(int dirfd, int fd, char *tmp, const char *path, int rc)
{
	if (close(fd) != 0 && rc == 0)
		rc = -errno;
	if (rc == 0 && renameat(dirfd, tmp, dirfd, path) != 0)
		rc = -errno;
	if (rc != 0)
		(void)unlinkat(dirfd, tmp, 0);
	free(tmp);
	return rc;
}

/* Replace path with the n bytes at p, keeping the permissions of the file
 * replaced (a new one gets 0666 and the umask).  A symbolic link at path
 * is replaced, not written through: the rename acts on the link. */
static int
replace(int dirfd, const char *path, const char *p, size_t n)
{
	struct stat st;
	char *tmp;
	int fd, rc;

	if ((fd = tmpopen(dirfd, path, 0666, &tmp)) < 0)
		return fd;
	rc = writeall(fd, p, n);
	if (rc == 0 && fstatat(dirfd, path, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    S_ISREG(st.st_mode) && fchmod(fd, st.st_mode & 07777) != 0)
		rc = -errno;
	return tmpdone(dirfd, fd, tmp, path, rc);
}

/* mkdir -p: each missing directory of path, with 0777 and the umask. */
static int
mkdirs(int dirfd, const char *path)
{
	struct stat st;
	char *p, *s;
	int rc = 0;

	if (*path == '\0')
		return -ENOENT;
	if ((p = strdup(path)) == NULL)
		return -ENOMEM;
	for (s = p + 1; rc == 0 && *s != '\0'; s++) {
		if (*s != '/' || s[-1] == '/')
			continue;
		*s = '\0';
		if (mkdirat(dirfd, p, 0777) != 0 && errno != EEXIST)
			rc = -errno;
		*s = '/';
	}
	free(p);
	if (rc == 0 && mkdirat(dirfd, path, 0777) != 0) {
		rc = -errno;
		if (rc == -EEXIST && fstatat(dirfd, path, &st, 0) == 0 &&
		    S_ISDIR(st.st_mode))
			rc = 0;
	}
	return rc;
}

/* Run one(dirfd, path) for each of the paths in key, reporting each
 * failure, then end the call.  one returns 0 or -errno. */
static void
eachpath(struct wspx_worker *w, struct wspx__bcall *c, const char *key,
    int (*one)(int dirfd, const char *path))
{
	const struct wspx__barg *a = wspx__builtin_need(c, key);
	size_t i;
	int rc;

	for (i = 0; a != NULL && i < a->n; i++) {
		if ((rc = one(c->dirfd, a->v[i])) == 0)
			continue;
		wspx__builtin_fail(c, "%s: %s", a->v[i], strerror(-rc));
	}
	c->done(w, c);
}

void
wspx__builtin_mkdir(struct wspx_worker *w, struct wspx__bcall *c)
{
	eachpath(w, c, "paths", mkdirs);
}

/* touch: the times of path set to now, or path made, empty. */
static int
touch(int dirfd, const char *path)
{
	int fd;

	if (utimensat(dirfd, path, NULL, 0) == 0)
		return 0;
	if (errno != ENOENT)
		return -errno;
	/* O_NONBLOCK: a FIFO made there meanwhile must not block us. */
	if ((fd = openat(dirfd, path, O_WRONLY | O_CREAT | O_NOCTTY |
	    O_NONBLOCK | O_CLOEXEC, 0666)) < 0)
		return -errno;
	close(fd);
	return 0;
}

void
wspx__builtin_touch(struct wspx_worker *w, struct wspx__bcall *c)
{
	eachpath(w, c, "paths", touch);
}

/* The text to write, in *buf (the caller frees it) and *n.  A list is
 * lines, and a string one text; either way a newline ends what lacks one
 * (a block scalar, `text: |`, has its own).  An empty string is an empty
 * file, not an empty line: a way to make one. */
static int
gathertext(const struct wspx__barg *a, char **buf, size_t *n)
{
	size_t i, len, total = 0;
	char *p;

	for (i = 0; i < a->n; i++)
		total += strlen(a->v[i]) + 1;
	if ((p = malloc(total + 1)) == NULL)
		return -ENOMEM;
	*buf = p;
	for (i = 0; i < a->n; i++) {
		len = strlen(a->v[i]);
		memcpy(p, a->v[i], len);
		p += len;
		if ((len == 0 && a->list) || (len > 0 && p[-1] != '\n'))
			*p++ = '\n';
	}
	*n = (size_t)(p - *buf);
	return 0;
}

static int
appendto(int dirfd, const char *path, const char *p, size_t n)
{
	int fd, rc;

	if ((fd = openat(dirfd, path, O_WRONLY | O_CREAT | O_APPEND |
	    O_NOCTTY | O_CLOEXEC, 0666)) < 0)
		return -errno;
	rc = writeall(fd, p, n);
	if (close(fd) != 0 && rc == 0)
		rc = -errno;
	return rc;
}

void
wspx__builtin_write(struct wspx_worker *w, struct wspx__bcall *c)
{
	const struct wspx__barg *text;
	const char *path;
	bool append;
	size_t n;
	char *buf;
	int rc;

	if (wspx__builtin_str(c, "path", true, &path) &&
	    wspx__builtin_bool(c, "append", &append) &&
	    (text = wspx__builtin_need(c, "text")) != NULL) {
		if ((rc = gathertext(text, &buf, &n)) == 0) {
			rc = append ? appendto(c->dirfd, path, buf, n) :
			    replace(c->dirfd, path, buf, n);
			free(buf);
		}
		if (rc != 0)
			wspx__builtin_fail(c, "%s: %s", path, strerror(-rc));
	}
	c->done(w, c);
}

/* Copy what is left of in to a new file replacing path, with mode.
 * Returns 0 or -errno, with *reading set if reading failed. */
static int
copyfd(int dirfd, int in, mode_t mode, const char *path, bool *reading)
{
	ssize_t k;
	char *buf, *tmp;
	int fd, rc = 0;

	*reading = false;
	if ((buf = malloc(CHUNK)) == NULL)
		return -ENOMEM;
	if ((fd = tmpopen(dirfd, path, 0600, &tmp)) < 0) {
		free(buf);
		return fd;
	}
	while (rc == 0 && (k = read(in, buf, CHUNK)) != 0) {
		if (k < 0 && errno != EINTR)
			*reading = true, rc = -errno;
		else if (k > 0)
			rc = writeall(fd, buf, (size_t)k);
	}
	/* The source's permission bits exactly (cp -p's, not cp's, which
	 * takes the umask off): an executable stays one, a private file
	 * private. */
	if (rc == 0 && fchmod(fd, mode) != 0)
		rc = -errno;
	free(buf);
	return tmpdone(dirfd, fd, tmp, path, rc);
}

/* Copy the file src to dst.  Returns false having written why not. */
static bool
copyfile(struct wspx__bcall *c, const char *src, const char *dst)
{
	struct stat st;
	bool reading;
	int in, rc;

	/* O_NONBLOCK: opening a FIFO must not block (it is then refused). */
	if ((in = openat(c->dirfd, src, O_RDONLY | O_NONBLOCK | O_NOCTTY |
	    O_CLOEXEC)) < 0 || fstat(in, &st) != 0) {
		rc = -errno;
		if (in >= 0)
			close(in);
		return wspx__builtin_fail(c, "%s: %s", src, strerror(-rc));
	}
	if (!S_ISREG(st.st_mode)) {
		close(in);
		return wspx__builtin_fail(c, "%s: is %s", src,
		    S_ISDIR(st.st_mode) ? "a directory (copy copies files)" :
		    "not a regular file");
	}
	rc = copyfd(c->dirfd, in, st.st_mode & 0777, dst, &reading);
	close(in);
	if (rc != 0)
		return wspx__builtin_fail(c, "%s: %s", reading ? src : dst,
		    strerror(-rc));
	return true;
}

/* Copy src to to, or into it if it is a directory (intodir). */
static void
copyto(struct wspx__bcall *c, const char *src, const char *to, bool intodir)
{
	const char *base = strrchr(src, '/') != NULL ? strrchr(src, '/') + 1 :
	    src;
	size_t n = strlen(to);
	char *dst;

	if (!intodir) {
		copyfile(c, src, to);
	} else if ((dst = malloc(n + strlen(base) + 2)) == NULL) {
		wspx__builtin_fail(c, "%s: %s", src, strerror(ENOMEM));
	} else {
		sprintf(dst, "%s%s%s", to, n > 0 && to[n - 1] == '/' ? "" :
		    "/", base);
		copyfile(c, src, dst);
		free(dst);
	}
}

void
wspx__builtin_copy(struct wspx_worker *w, struct wspx__bcall *c)
{
	const struct wspx__barg *from;
	struct stat st;
	const char *to;
	bool intodir;
	size_t i;

	if ((from = wspx__builtin_need(c, "from")) != NULL &&
	    wspx__builtin_str(c, "to", true, &to)) {
		intodir = fstatat(c->dirfd, to, &st, 0) == 0 &&
		    S_ISDIR(st.st_mode);
		if (!intodir && from->n != 1)
			wspx__builtin_fail(c, "%s: is not a directory (copy "
			    "of a list copies into one)", to);
		for (i = 0; i < from->n && (intodir || from->n == 1); i++)
			copyto(c, from->v[i], to, intodir);
	}
	c->done(w, c);
}

/* What hashing one file gave. */
struct hashed {
	unsigned char digest[32];
	int err;		/* 0, or -errno */
};

/* Files lo..hi-1 to hash, a branch of the fork-join. */
struct hashes {
	int dirfd;
	char *const *paths;
	struct hashed *out;
	size_t lo, hi;		/* lo < hi */
};

/* Hash the files of arg, halving the range with wspx_join until one is
 * left, so that idle workers steal the halves: the depth is log2 of the
 * count. */
static void
hashsome(struct wspx_worker *w, void *arg)
{
	struct hashes *h = arg, a, b;

	if (h->hi - h->lo == 1) {
		h->out[h->lo].err = wspx__sha256_file(h->dirfd,
		    h->paths[h->lo], h->out[h->lo].digest);
		return;
	}
	a = b = *h;
	a.hi = b.lo = h->lo + (h->hi - h->lo) / 2;
	wspx_join(w, hashsome, &a, hashsome, &b);
}

/* Write at p the line sha256sum(1) prints for digest and path, and return
 * its end.  As coreutils does, a path with a backslash, newline or
 * carriage return has them escaped, and the line starts with a
 * backslash. */
static char *
sumline(char *p, const unsigned char *digest, const char *path)
{
	static const char hex[] = "0123456789abcdef";
	bool esc = strpbrk(path, "\\\n\r") != NULL;
	size_t i;

	if (esc)
		*p++ = '\\';
	for (i = 0; i < 32; i++) {
		*p++ = hex[digest[i] >> 4];
		*p++ = hex[digest[i] & 15];
	}
	*p++ = ' ';
	*p++ = ' ';
	for (; *path != '\0'; path++) {
		if (esc && strchr("\\\n\r", *path) != NULL) {
			*p++ = '\\';
			*p++ = *path == '\n' ? 'n' : *path == '\r' ? 'r' :
			    '\\';
		} else {
			*p++ = *path;
		}
	}
	*p++ = '\n';
	return p;
}

/* Hash the files of a and return their lines, in the order given, in a
 * buffer the caller frees (length *n); each failure is written.  Returns
 * NULL without memory (written too). */
static char *
sumlines(struct wspx_worker *w, struct wspx__bcall *c,
    const struct wspx__barg *a, size_t *n)
{
	struct hashed *out;
	struct hashes h;
	size_t i, size = 1;
	char *buf, *p;

	for (i = 0; i < a->n; i++)
		size += 68 + 2 * strlen(a->v[i]);
	if ((out = calloc(a->n + 1, sizeof(*out))) == NULL ||
	    (buf = malloc(size)) == NULL) {
		free(out);
		wspx__builtin_fail(c, "%s", strerror(ENOMEM));
		return NULL;
	}
	h = (struct hashes){ c->dirfd, a->v, out, 0, a->n };
	if (a->n > 0)
		hashsome(w, &h);
	for (i = 0, p = buf; i < a->n; i++) {
		if (out[i].err != 0)
			wspx__builtin_fail(c, "%s: %s", a->v[i],
			    strerror(-out[i].err));
		else
			p = sumline(p, out[i].digest, a->v[i]);
	}
	free(out);
	*n = (size_t)(p - buf);
	return buf;
}

/* The lines go to stdout, or to the file `to`; that one is written only
 * if every file could be hashed, since a list with lines missing would
 * pass for a complete one. */
void
wspx__builtin_sha256(struct wspx_worker *w, struct wspx__bcall *c)
{
	const struct wspx__barg *a;
	const char *to;
	char *buf;
	size_t n;
	int rc;

	if ((a = wspx__builtin_need(c, "files")) != NULL &&
	    wspx__builtin_str(c, "to", false, &to) &&
	    (buf = sumlines(w, c, a, &n)) != NULL) {
		if (to == NULL)
			c->write(c, 1, buf, n);
		else if (c->status == 0 &&
		    (rc = replace(c->dirfd, to, buf, n)) != 0)
			wspx__builtin_fail(c, "%s: %s", to, strerror(-rc));
		free(buf);
	}
	c->done(w, c);
}
