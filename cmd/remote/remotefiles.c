/*
 * A remote job's files: --transfer-file copies each to the job's host
 * before it runs (ssh host 'cat > PATH.tmp && chmod && mv' < FILE),
 * --return brings each back after it (ssh host 'cat PATH' into a
 * temporary file here, renamed into place once whole), --cleanup removes
 * both there.  ssh, cat, mkdir, chmod, mv and rm alone: nothing else is
 * needed on the host.  A relative name is under the job's directory there
 * and this directory here.
 *
 * --cleanup and jobs sharing a file: every job that sends the same file to
 * the same host holds a count on it (sent), so the last one to end
 * removes it, not the first while the others still read it; and a file
 * that was on the host before any job sent it is never removed (it may
 * be the very file sent, on a file system both machines share).
 */
#include "remotefiles.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "input/template.h"
#include "os/thread.h"
#include "os/tmp.h"
#include "util/buf.h"
#include "util/util.h"

enum { ERRLEN = 512 };

/* A file sent to a host, held by the jobs that use it. */
struct sent {
	size_t host;
	char *path;
	unsigned refs;		/* jobs holding it */
	bool ours;		/* a job of this run made it there */
};

struct remotefiles {
	struct template **tf, **ret;
	size_t ntf, nret;
	mode_t umask;		/* for the files brought back */
	pthread_mutex_t lock;	/* guards sent */
	struct sent *sent;
	size_t nsent;
};

static struct template **
templates(const char **v, size_t n, const struct replnames *names,
    int flags)
{
	struct template **t = xcalloc(n + 1, sizeof(*t));
	size_t i;

	for (i = 0; i < n; i++)
		t[i] = template_new((char **)&v[i], 1, names, flags |
		    TMPL_QUOTED);
	return t;
}

/* A template's value for the job: a file name, or "" */
static char *
expand(const struct template *t, const struct args *a, uint64_t seq,
    unsigned slot)
{
	char **v = template_argv(t, a, seq, slot);
	char *s = xstrdup(v[0] != NULL ? v[0] : "");

	free(v);
	return s;
}

char *
remotefiles_path(const char *dir, const char *name)
{
	struct buf b = { NULL, 0, 0 };

	if (name[0] != '/')
		bufprintf(&b, "%s/", dir);
	bufadds(&b, name);
	return buftake(&b);
}

/* The remote end of a transfer: the file is written beside its place,
 * given the mode it has here and renamed into place (so that a host
 * that is this machine under another name does not have cat empty the
 * file it reads); it exits 3 if the file was there before. */
static char *
receiveline(const char *path, mode_t mode)
{
	struct buf b = { NULL, 0, 0 };
	char *slash = strrchr(path, '/');

	bufadds(&b, "e=0; test -e ");
	quote(&b, path, SHELL_POSIX);
	bufadds(&b, " && e=3; mkdir -p -- ");
	if (slash != NULL && slash != path) {
		*slash = '\0';
		quote(&b, path, SHELL_POSIX);
		*slash = '/';
	} else {
		bufadds(&b, "/");
	}
	bufadds(&b, " && cat > ");
	quote(&b, path, SHELL_POSIX);
	bufprintf(&b, ".wspx-$$ && chmod %o ", (unsigned)(mode & 07777));
	quote(&b, path, SHELL_POSIX);
	bufadds(&b, ".wspx-$$ && mv -f -- ");
	quote(&b, path, SHELL_POSIX);
	bufadds(&b, ".wspx-$$ ");
	quote(&b, path, SHELL_POSIX);
	bufadds(&b, " && exit $e");
	return buftake(&b);
}

static void
addsent(struct rfsent *sent, char *path)
{
	sent->v = xrealloc(sent->v, (sent->n + 1) * sizeof(*sent->v));
	sent->v[sent->n++] = path;
}

/* The count of path on host, made if need be.  f->lock held. */
static struct sent *
findsent(struct remotefiles *f, size_t host, const char *path, bool make)
{
	size_t i;

	for (i = 0; i < f->nsent; i++)
		if (f->sent[i].host == host && strcmp(f->sent[i].path,
		    path) == 0)
			return &f->sent[i];
	if (!make)
		return NULL;
	f->sent = xrealloc(f->sent, (f->nsent + 1) * sizeof(*f->sent));
	f->sent[f->nsent].host = host;
	f->sent[f->nsent].path = xstrdup(path);
	f->sent[f->nsent].refs = 0;
	f->sent[f->nsent].ours = false;
	return &f->sent[f->nsent++];
}

/* Let go of the job's count on path; whether the file is to be removed
 * (the last count of one this run made).  f->lock held. */
static bool
dropsent(struct remotefiles *f, size_t host, const char *path)
{
	struct sent *s = findsent(f, host, path, false);
	bool last;

	if (s == NULL)		/* (a file brought back) */
		return true;
	if ((last = --s->refs == 0)) {
		last = s->ours;
		free(s->path);
		*s = f->sent[--f->nsent];
	}
	return last;
}

/* Open a file to send: a regular file, or -errno. */
static int
opensend(const char *name, mode_t *mode)
{
	struct stat st;
	int fd;

	if ((fd = open(name, O_RDONLY | O_CLOEXEC)) < 0)
		return -errno;
	if (fstat(fd, &st) != 0) {
		close(fd);
		return -errno;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
	}
	*mode = st.st_mode;
	return fd;
}

/* Send one file to the job's host, holding a count on it. */
static int
sendone(struct remotefiles *f, const struct rfjob *j, const char *name,
    char *path)
{
	char *line, err[ERRLEN];
	struct sent *s;
	mode_t mode = 0;
	int fd, st;

	if ((fd = opensend(name, &mode)) < 0) {
		warn("--transfer-file %s: %s", name, strerror(-fd));
		free(path);
		return fd;
	}
	WSPX_MUST(pthread_mutex_lock(&f->lock));
	findsent(f, j->host, path, true)->refs++;
	WSPX_MUST(pthread_mutex_unlock(&f->lock));
	line = receiveline(path, mode);
	st = j->ssh(j->ctx, line, fd, -1, err, ERRLEN);
	free(line);
	close(fd);
	WSPX_MUST(pthread_mutex_lock(&f->lock));
	if (st == 0 && (s = findsent(f, j->host, path, false)) != NULL)
		s->ours = true;
	WSPX_MUST(pthread_mutex_unlock(&f->lock));
	addsent(j->sent, path);
	if (st == 0 || st == 3)
		return 0;
	if (st == 255)		/* (ssh's: the host may be down) */
		return -ENOTCONN;
	warn("--transfer-file %s to host %s: %s", name, j->hostname,
	    *err != '\0' ? err : "failed");
	return -EIO;
}

int
remotefiles_send(struct remotefiles *f, const struct rfjob *j,
    const char *dir, const struct args *a, uint64_t seq, unsigned slot)
{
	char *name;
	size_t i;
	int rc = 0;

	for (i = 0; rc == 0 && i < f->ntf; i++) {
		if (*(name = expand(f->tf[i], a, seq, slot)) != '\0')
			rc = sendone(f, j, name, remotefiles_path(dir, name));
		free(name);
	}
	return rc;
}

/* Make the directories of path here, as mkdir -p does. */
static void
makeparents(const char *path)
{
	char *p = xstrdup(path), *s;

	for (s = strchr(p + 1, '/'); s != NULL; s = strchr(s + 1, '/')) {
		*s = '\0';
		(void)mkdir(p, 0777);
		*s = '/';
	}
	free(p);
}

/* Bring one file back: into a temporary file beside its place, renamed
 * there once whole.  Returns whether it came. */
static bool
fetchone(struct remotefiles *f, const struct rfjob *j, const char *name,
    const char *path)
{
	struct buf line = { NULL, 0, 0 }, pre = { NULL, 0, 0 };
	char err[ERRLEN], *tmp = NULL;
	bool ok = false;
	int fd;

	bufadds(&line, "cat -- ");
	quote(&line, path, SHELL_POSIX);
	bufprintf(&pre, "%s.wspx-", name);
	makeparents(name);
	if ((fd = wspx__tmp_file(NULL, pre.s, NULL, &tmp)) < 0) {
		errno = -fd;
		warn("--return %s: %sXXXXXX:", name, pre.s);
	} else if (fchmod(fd, 0666 & ~f->umask) != 0 ||
	    j->ssh(j->ctx, line.s, -1, fd, err, ERRLEN) != 0) {
		warn("--return %s from host %s: %s", name, j->hostname,
		    *err != '\0' ? err : "failed");
		unlink(tmp);
	} else if (rename(tmp, name) != 0) {
		warn("--return %s:", name);
		unlink(tmp);
	} else {
		ok = true;
	}
	if (fd >= 0)
		close(fd);
	free(line.s);
	free(pre.s);
	free(tmp);
	return ok;
}

void
remotefiles_fetch(struct remotefiles *f, const struct rfjob *j,
    const char *dir, const struct args *a, uint64_t seq, unsigned slot)
{
	char *name, *path;
	size_t i;

	for (i = 0; i < f->nret; i++) {
		if (*(name = expand(f->ret[i], a, seq, slot)) == '\0') {
			free(name);
			continue;
		}
		path = remotefiles_path(dir, name);
		/* (one that did not come is left there, never removed) */
		if (fetchone(f, j, name, path))
			addsent(j->sent, path);
		else
			free(path);
		free(name);
	}
}

/* Free the paths of sent and empty it. */
static void
freesent(struct rfsent *sent)
{
	size_t i;

	for (i = 0; i < sent->n; i++)
		free(sent->v[i]);
	free(sent->v);
	sent->v = NULL;
	sent->n = 0;
}

void
remotefiles_cleanup(struct remotefiles *f, const struct rfjob *j)
{
	struct buf line = { NULL, 0, 0 };
	char err[ERRLEN];
	size_t i, n = 0;

	bufadds(&line, "rm -f --");
	WSPX_MUST(pthread_mutex_lock(&f->lock));
	for (i = 0; i < j->sent->n; i++)
		if (dropsent(f, j->host, j->sent->v[i])) {
			bufaddc(&line, ' ');
			quote(&line, j->sent->v[i], SHELL_POSIX);
			n++;
		}
	WSPX_MUST(pthread_mutex_unlock(&f->lock));
	if (n > 0 && j->ssh(j->ctx, line.s, -1, -1, err, ERRLEN) != 0)
		warn("--cleanup on host %s: %s", j->hostname,
		    *err != '\0' ? err : "failed");
	free(line.s);
	freesent(j->sent);
}

void
remotefiles_forget(struct remotefiles *f, size_t host, struct rfsent *sent)
{
	size_t i;

	WSPX_MUST(pthread_mutex_lock(&f->lock));
	for (i = 0; i < sent->n; i++)
		(void)dropsent(f, host, sent->v[i]);
	WSPX_MUST(pthread_mutex_unlock(&f->lock));
	freesent(sent);
}

struct remotefiles *
remotefiles_new(const char **transfer, size_t ntransfer, const char **ret,
    size_t nret, const struct replnames *names, int flags)
{
	struct remotefiles *f = xcalloc(1, sizeof(*f));

	f->ntf = ntransfer;
	f->nret = nret;
	f->tf = templates(transfer, ntransfer, names, flags);
	f->ret = templates(ret, nret, names, flags);
	f->umask = umask(0);
	umask(f->umask);
	WSPX_MUST(pthread_mutex_init(&f->lock, NULL));
	return f;
}

void
remotefiles_free(struct remotefiles *f)
{
	size_t i;

	for (i = 0; i < f->ntf; i++)
		template_free(f->tf[i]);
	for (i = 0; i < f->nret; i++)
		template_free(f->ret[i]);
	for (i = 0; i < f->nsent; i++)
		free(f->sent[i].path);
	free(f->sent);
	free(f->tf);
	free(f->ret);
	WSPX_MUST(pthread_mutex_destroy(&f->lock));
	free(f);
}
