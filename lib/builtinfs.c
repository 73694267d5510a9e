/*
 * The builtins that work on files (see builtins.h): mkdir, touch, write,
 * copy, remove and sha256.  Every path is taken relative to the call's
 * directory fd, with the *at() calls, and every fd is close-on-exec: other
 * threads spawn children all the time.  What a builtin writes whole (write,
 * copy, sha256's `to`) goes to a temporary file next to its target, then
 * is renamed over it, so that a reader sees the old file or the new one,
 * never a part.  Each builtin goes on past a failing path, as mkdir -p and
 * rm -f do, and fails at the end.
 *
 * remove walks a tree without recursion, so a tree of any depth fits in
 * a worker's stack.  Its explicit stack holds names with their device and
 * inode, not open fds (10,000 levels would pass the fd limit) nor paths
 * (they would pass PATH_MAX): one directory is open at a time, and the
 * walk climbs back through "..", checked against the device and inode it
 * came down from.  Symbolic links are removed, never followed.
 */
#include "builtins.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "sha256.h"

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
 * failure, then end the call.  one returns 0, -errno, or 1 for a path
 * that remove refuses. */
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
		wspx__builtin_fail(c, "%s: %s", a->v[i], rc == 1 ?
		    "refusing to remove '.', '..' or '/'" : rc == -ESTALE ?
		    "a directory moved while being removed" : strerror(-rc));
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

/* A directory on the way down: its name in its parent, and who it is. */
struct level {
	char *name;		/* NULL for the top */
	dev_t dev;
	ino_t ino;
};

/* The directories from the top of a removal down to the current one. */
struct walk {
	struct level *v;
	size_t n, cap;
	DIR *d;			/* the current directory's, v[n - 1]'s */
};

static bool
isdots(const char *s)
{
	return strcmp(s, ".") == 0 || strcmp(s, "..") == 0;
}

/* Note the directory fd, name in the current one (NULL: the top). */
static int
push(struct walk *k, int fd, const char *name)
{
	struct level *v;
	struct stat st;

	if (k->n == k->cap) {
		k->cap = k->cap != 0 ? 2 * k->cap : 64;
		if ((v = realloc(k->v, k->cap * sizeof(*v))) == NULL)
			return -ENOMEM;
		k->v = v;
	}
	v = &k->v[k->n];
	if (fstat(fd, &st) != 0)
		return -errno;
	if ((v->name = name != NULL ? strdup(name) : NULL) == NULL &&
	    name != NULL)
		return -ENOMEM;
	v->dev = st.st_dev;
	v->ino = st.st_ino;
	k->n++;
	return 0;
}

/* Read the directory fd from now on; it takes ownership of fd. */
static int
readfrom(struct walk *k, int fd)
{
	DIR *d;

	if ((d = fdopendir(fd)) == NULL)
		return -errno;
	if (k->d != NULL)
		closedir(k->d);
	k->d = d;
	return 0;
}

/* Go down into the directory name of the current one. */
static int
descend(struct walk *k, const char *name)
{
	int fd, rc;

	if ((fd = openat(dirfd(k->d), name, O_RDONLY | O_DIRECTORY |
	    O_NOFOLLOW | O_CLOEXEC)) < 0)
		return -errno;
	if ((rc = push(k, fd, name)) == 0 && (rc = readfrom(k, fd)) != 0)
		free(k->v[--k->n].name);
	if (rc != 0)
		close(fd);
	return rc;
}

/* Climb from the current directory, now empty, to its parent, and remove
 * it there.  The parent is reached through "..", which must still be the
 * directory we came down from (-ESTALE if the tree was moved). */
static int
ascend(struct walk *k)
{
	struct level *top = &k->v[k->n - 1];
	struct stat st;
	int fd, rc;

	fd = openat(dirfd(k->d), "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) != 0)
		rc = -errno;
	else if (st.st_dev != top[-1].dev || st.st_ino != top[-1].ino)
		rc = -ESTALE;
	else	/* a fresh stream reads what is left from the start */
		rc = readfrom(k, fd);
	if (rc != 0) {
		close(fd);
		return rc;
	}
	if (unlinkat(fd, top->name, AT_REMOVEDIR) != 0 && errno != ENOENT)
		rc = -errno;
	free(top->name);
	k->n--;
	return rc;
}

/* Remove the entry name of the current directory, or descend into it if
 * it is a directory with entries.  Returns 0, 1 having descended, or
 * -errno.  An entry already gone is no error. */
static int
entry(struct walk *k, const char *name)
{
	struct stat st;
	int fd = dirfd(k->d), rc;

	if (fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
		return errno == ENOENT ? 0 : -errno;
	if (!S_ISDIR(st.st_mode))
		return unlinkat(fd, name, 0) == 0 || errno == ENOENT ? 0 :
		    -errno;
	if (unlinkat(fd, name, AT_REMOVEDIR) == 0 || errno == ENOENT)
		return 0;
	if (errno != ENOTEMPTY && errno != EEXIST)
		return -errno;
	return (rc = descend(k, name)) == 0 ? 1 : rc;
}

/* Empty the current directory up to its first subdirectory with entries,
 * and descend into that, or, if there is none, ascend.  Returns 1 to go
 * on, 0 once the top is empty, or -errno. */
static int
step(struct walk *k)
{
	struct dirent *e;
	int rc;

	for (;;) {
		errno = 0;
		if ((e = readdir(k->d)) == NULL)
			break;
		if (!isdots(e->d_name) && (rc = entry(k, e->d_name)) != 0)
			return rc;
	}
	if (errno != 0)
		return -errno;
	if (k->n == 1)
		return 0;
	return (rc = ascend(k)) == 0 ? 1 : rc;
}

/* rm -rf of the directory path, one level open at a time. */
static int
rmtree(int dirfd, const char *path)
{
	struct walk k = { NULL, 0, 0, NULL };
	int fd, rc;

	if ((fd = openat(dirfd, path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC)) < 0)
		return errno == ENOENT ? 0 : -errno;
	if ((rc = push(&k, fd, NULL)) != 0 || (rc = readfrom(&k, fd)) != 0)
		close(fd);
	while (rc == 0 && (rc = step(&k)) == 1)
		rc = 0;
	if (k.d != NULL)
		closedir(k.d);
	while (k.n > 0)
		free(k.v[--k.n].name);
	free(k.v);
	if (rc == 0 && unlinkat(dirfd, path, AT_REMOVEDIR) != 0 &&
	    errno != ENOENT)
		rc = -errno;
	return rc;
}

/* rm -rf path, but never ".", ".." or "/" (returns 1 for those).  The
 * slashes that end path are dropped: "dir/" would follow a symbolic link
 * named dir. */
static int
removepath(int dirfd, const char *path)
{
	size_t n = strlen(path);
	const char *base;
	struct stat st;
	char *p;
	int rc;

	while (n > 1 && path[n - 1] == '/')
		n--;
	if ((p = strndup(path, n)) == NULL)
		return -ENOMEM;
	base = strrchr(p, '/') != NULL ? strrchr(p, '/') + 1 : p;
	if (strcmp(p, "/") == 0 || isdots(base))
		rc = 1;
	else if (fstatat(dirfd, p, &st, AT_SYMLINK_NOFOLLOW) != 0)
		rc = errno == ENOENT ? 0 : -errno;
	else if (S_ISDIR(st.st_mode))
		rc = rmtree(dirfd, p);
	else
		rc = unlinkat(dirfd, p, 0) == 0 || errno == ENOENT ? 0 :
		    -errno;
	free(p);
	return rc;
}

void
wspx__builtin_remove(struct wspx_worker *w, struct wspx__bcall *c)
{
	eachpath(w, c, "paths", removepath);
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
