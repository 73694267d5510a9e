/*
 * Waiting for files to change (see fswatch.h), with inotify: one watch
 * per directory (the kernel gives one descriptor for a directory however
 * often it is added), and for each the name patterns asked for it.  The
 * signals come through a signalfd, polled with the inotify fd, so that a
 * Ctrl-C while waiting ends the wait at once and no handler runs.
 */
#include "fswatch.h"

#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <unistd.h>

/* What a change is: a file written and closed, made, moved in or out,
 * removed, or its metadata changed (touch). */
#define EVENTS (IN_CLOSE_WRITE | IN_CREATE | IN_MOVED_TO | IN_MOVED_FROM | \
    IN_DELETE | IN_ATTRIB)

/* A long stream of changes (a big checkout) runs at the latest then. */
#define MAX_SETTLE_MS 2000

struct entry {
	int wd;
	char *name;		/* the pattern of the names that count */
};

struct wspx__fswatch {
	int fd;
	struct entry *v;
	size_t n, cap;
	size_t dirs;		/* distinct directories */
};

int
wspx__fswatch_new(struct wspx__fswatch **out)
{
	struct wspx__fswatch *w = calloc(1, sizeof(*w));

	if (w == NULL)
		return -ENOMEM;
	if ((w->fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC)) < 0) {
		free(w);
		return -errno;
	}
	*out = w;
	return 0;
}

/* Whether wd is watched already (for any pattern). */
static bool
known(const struct wspx__fswatch *w, int wd)
{
	size_t i;

	for (i = 0; i < w->n; i++)
		if (w->v[i].wd == wd)
			return true;
	return false;
}

/* Watch the one directory dir for name. */
static int
addone(struct wspx__fswatch *w, const char *dir, const char *name)
{
	struct entry *v;
	int wd = inotify_add_watch(w->fd, dir, EVENTS | IN_ONLYDIR);

	if (wd < 0)
		return errno == ENOENT || errno == ENOTDIR || errno == EACCES ?
		    0 : -errno;
	if (w->n == w->cap) {
		if ((v = realloc(w->v, (w->cap * 2 + 8) * sizeof(*v))) == NULL)
			return -ENOMEM;
		w->v = v;
		w->cap = w->cap * 2 + 8;
	}
	if ((w->v[w->n].name = strdup(name)) == NULL)
		return -ENOMEM;
	w->dirs += !known(w, wd);
	w->v[w->n++].wd = wd;
	return 0;
}

/* Watch dir and every directory under it (not through links), with a
 * stack of paths: no recursion for a deep tree. */
static int
addtree(struct wspx__fswatch *w, const char *top, const char *name)
{
	char **stack = NULL, **grown, *dir, *sub;
	size_t n = 0, cap = 0, len;
	struct dirent *e;
	struct stat st;
	DIR *d;
	int rc = 0;

	if ((dir = strdup(top)) == NULL)
		return -ENOMEM;
	for (;;) {
		if (rc == 0)
			rc = addone(w, dir, name);
		if (rc == 0 && (d = opendir(dir)) != NULL) {
			while (rc == 0 && (e = readdir(d)) != NULL) {
				if (strcmp(e->d_name, ".") == 0 ||
				    strcmp(e->d_name, "..") == 0)
					continue;
				len = strlen(dir) + strlen(e->d_name) + 2;
				if ((sub = malloc(len)) == NULL) {
					rc = -ENOMEM;
					break;
				}
				strcpy(sub, dir);
				strcat(sub, "/");
				strcat(sub, e->d_name);
				if (lstat(sub, &st) != 0 || !S_ISDIR(st.st_mode)) {
					free(sub);
					continue;
				}
				if (n == cap && (grown = realloc(stack, (cap * 2 +
				    8) * sizeof(*stack))) == NULL) {
					free(sub);
					rc = -ENOMEM;
					break;
				} else if (n == cap) {
					stack = grown;
					cap = cap * 2 + 8;
				}
				stack[n++] = sub;
			}
			closedir(d);
		}
		free(dir);
		if (n == 0)
			break;
		dir = stack[--n];
	}
	free(stack);
	return rc;
}

int
wspx__fswatch_add(struct wspx__fswatch *w, const char *dir, bool recursive,
    const char *name)
{
	return recursive ? addtree(w, dir, name) : addone(w, dir, name);
}

size_t
wspx__fswatch_count(const struct wspx__fswatch *w)
{
	return w->dirs;
}

/* Whether the event names a file a pattern of its directory asks for. */
static bool
counts(const struct wspx__fswatch *w, const struct inotify_event *ev)
{
	size_t i;

	if (ev->len == 0 || (ev->mask & EVENTS) == 0)
		return false;
	for (i = 0; i < w->n; i++)
		if (w->v[i].wd == ev->wd && fnmatch(w->v[i].name, ev->name,
		    FNM_PERIOD) == 0)
			return true;
	return false;
}

/* Read the events there are: 1 if one of them counts, 0 if none, or
 * -errno. */
static int
readevents(struct wspx__fswatch *w)
{
	_Alignas(struct inotify_event) char buf[8192];
	const struct inotify_event *ev;
	ssize_t r;
	size_t at;
	int found = 0;

	for (;;) {
		if ((r = read(w->fd, buf, sizeof(buf))) < 0)
			return errno == EAGAIN ? found : errno == EINTR ?
			    found : -errno;
		for (at = 0; at < (size_t)r; at += sizeof(*ev) + ev->len) {
			ev = (const struct inotify_event *)(buf + at);
			found |= counts(w, ev) || (ev->mask & IN_Q_OVERFLOW);
		}
	}
}

void
wspx__fswatch_drain(struct wspx__fswatch *w)
{
	(void)readevents(w);
}

/* Poll the watch and the signals for at most ms (-1: no limit): 1 a
 * change, 0 nothing, 2 a signal (in *sig), or -errno. */
static int
pollonce(struct wspx__fswatch *w, int sfd, int ms, int *sig)
{
	struct pollfd pf[2] = { { w->fd, POLLIN, 0 }, { sfd, POLLIN, 0 } };
	struct signalfd_siginfo si;
	int rc;

	if ((rc = poll(pf, 2, ms)) < 0)
		return errno == EINTR ? 0 : -errno;
	if (pf[1].revents & POLLIN) {
		if (read(sfd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
			*sig = (int)si.ssi_signo;
			return 2;
		}
	}
	return pf[0].revents & POLLIN ? readevents(w) : 0;
}

int
wspx__fswatch_wait(struct wspx__fswatch *w, int quiet_ms,
    const sigset_t *sigs, int *sig)
{
	int sfd = signalfd(-1, sigs, SFD_NONBLOCK | SFD_CLOEXEC), rc, waited;

	*sig = 0;
	if (sfd < 0)
		return -errno;
	while ((rc = pollonce(w, sfd, -1, sig)) == 0)
		;
	/* (then quiet: each change starts the wait again, up to a limit) */
	for (waited = 0; rc == 1 && waited < MAX_SETTLE_MS; waited += quiet_ms)
		rc = pollonce(w, sfd, quiet_ms, sig);
	close(sfd);
	return rc < 0 ? rc : 0;
}

void
wspx__fswatch_free(struct wspx__fswatch *w)
{
	size_t i;

	if (w == NULL)
		return;
	close(w->fd);
	for (i = 0; i < w->n; i++)
		free(w->v[i].name);
	free(w->v);
	free(w);
}
