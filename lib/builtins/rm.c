/*
 * The remove builtin (see builtin.h): rm -rf of each of its paths,
 * relative to the call's directory fd, but never ".", ".." or "/".  Like
 * rm -f it goes on past a failing path, reports each failure, and fails at
 * the end; a path already gone is no error.
 *
 * A directory's tree is walked without recursion, so a tree of any depth
 * fits in a worker's stack.  The walk's explicit stack holds names with
 * their device and inode, not open fds (10,000 levels would pass the fd
 * limit) nor paths (they would pass PATH_MAX): one directory is open at a
 * time, and the walk climbs back through "..", checked against the device
 * and inode it came down from.  Symbolic links are removed, never
 * followed.  Every fd is close-on-exec: other threads spawn children all
 * the time.
 */
#include "builtin_int.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

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
	const struct wspx__barg *a = wspx__builtin_need(c, "paths");
	size_t i;
	int rc;

	for (i = 0; a != NULL && i < a->n; i++) {
		if ((rc = removepath(c->dirfd, a->v[i])) == 0)
			continue;
		wspx__builtin_fail(c, "%s: %s", a->v[i], rc == 1 ?
		    "refusing to remove '.', '..' or '/'" : rc == -ESTALE ?
		    "a directory moved while being removed" : strerror(-rc));
	}
	c->done(w, c);
}
