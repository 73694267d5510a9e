/*
 * A remote job's files: --transfer-file copies each to the job's host
 * before it runs (ssh host 'mkdir -p DIR && cat > PATH' < FILE), --return
 * brings each back after it (ssh host 'cat PATH' into a temporary file,
 * renamed into place once whole), --cleanup removes both there.  ssh and
 * cat alone: nothing else is needed on the host.  A relative name is
 * under the job's directory there and this directory here.
 */
#define _GNU_SOURCE		/* mkostemp() */
#include "remotefiles.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "remote.h"
#include "template.h"
#include "util.h"

enum { ERRLEN = 512 };

struct remotefiles {
	struct template **tf, **ret;
	size_t ntf, nret;
};

static struct template **
templates(const char **v, size_t n, const char *plain, int flags)
{
	struct template **t = xcalloc(n + 1, sizeof(*t));
	size_t i;

	for (i = 0; i < n; i++)
		t[i] = template_new((char **)&v[i], 1, plain, flags |
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

/* The remote path of a job's file: under the workdir unless absolute. */
char *
remotefiles_path(const char *dir, const char *name)
{
	struct buf b = { NULL, 0, 0 };

	if (name[0] != '/')
		bufprintf(&b, "%s/", dir);
	bufadds(&b, name);
	return buftake(&b);
}

/* "mkdir -p -- DIR && cat > PATH.wspx-PID && mv ...", the remote end of
 * a transfer, which exits 3 if PATH was there before (not to be removed
 * by --cleanup: it may be the very file sent, on a shared file system). */
static char *
receiveline(const char *path)
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
	/* (into a new file renamed into place: a host that is this machine
	 * under another name must not have cat empty the file it reads) */
	bufadds(&b, " && cat > ");
	quote(&b, path, SHELL_POSIX);
	bufadds(&b, ".wspx-$$ && mv -f -- ");
	quote(&b, path, SHELL_POSIX);
	bufadds(&b, ".wspx-$$ ");
	quote(&b, path, SHELL_POSIX);
	bufadds(&b, " && exit $e");
	return buftake(&b);
}

static void
addsent(struct remotejob *rj, char *path)
{
	rj->sent = xrealloc(rj->sent, (rj->nsent + 1) * sizeof(*rj->sent));
	rj->sent[rj->nsent++] = path;
}

/* Copy the job's --transfer-files to its host, with ssh and cat.
 * Returns 0, or -errno (a local file that cannot be read), or -EIO
 * (ssh failed). */
int
remotefiles_send(struct remotefiles *f, struct remote *rm,
    struct remotejob *rj, const char *dir, const struct args *a,
    uint64_t seq, unsigned slot)
{
	char *name, *path, *line, err[ERRLEN];
	size_t i;
	int fd, rc = 0, st;

	for (i = 0; rc == 0 && i < f->ntf; i++) {
		if (*(name = expand(f->tf[i], a, seq, slot)) == '\0') {
			free(name);
			continue;
		}
		if ((fd = open(name, O_RDONLY | O_CLOEXEC)) < 0) {
			rc = -errno;
			warn("--transfer-file %s:", name);
			free(name);
			break;
		}
		path = remotefiles_path(dir, name);
		line = receiveline(path);
		if ((st = remote_ssh(rm, rj, line, fd, -1, err, ERRLEN)) != 0 &&
		    st != 3) {
			warn("--transfer-file %s to host %s: %s", name,
			    remote_hostname(rm, rj), *err != '\0' ? err :
			    "failed");
			rc = -EIO;
		}
		if (st == 0)
			addsent(rj, path);
		else
			free(path);
		free(line);
		free(name);
		close(fd);
	}
	return rc;
}

/* Fetch the job's --return files from its host: each into a temporary
 * file beside its place, renamed there once whole. */
void
remotefiles_fetch(struct remotefiles *f, struct remote *rm,
    struct remotejob *rj, const char *dir, const struct args *a,
    uint64_t seq, unsigned slot)
{
	struct buf line = { NULL, 0, 0 }, tmp = { NULL, 0, 0 };
	char *name, *path, err[ERRLEN];
	size_t i;
	int fd;

	for (i = 0; i < f->nret; i++) {
		if (*(name = expand(f->ret[i], a, seq, slot)) == '\0') {
			free(name);
			continue;
		}
		path = remotefiles_path(dir, name);
		bufadds(&line, "cat -- ");
		quote(&line, path, SHELL_POSIX);
		bufprintf(&tmp, "%s.wspx-XXXXXX", name);
		if ((fd = mkostemp(tmp.s, O_CLOEXEC)) < 0) {
			warn("--return %s: %s:", name, tmp.s);
		} else if (remote_ssh(rm, rj, line.s, -1, fd, err,
		    ERRLEN) != 0) {
			warn("--return %s from host %s: %s", name,
			    remote_hostname(rm, rj), *err != '\0' ? err :
			    "failed");
			unlink(tmp.s);
		} else if (rename(tmp.s, name) != 0) {
			warn("--return %s:", name);
			unlink(tmp.s);
		}
		if (fd >= 0)
			close(fd);
		addsent(rj, path);
		free(name);
		line.len = tmp.len = 0;
	}
	free(line.s);
	free(tmp.s);
}

/* --cleanup: remove the job's files on its host. */
void
remotefiles_cleanup(struct remote *rm, struct remotejob *rj)
{
	struct buf line = { NULL, 0, 0 };
	char err[ERRLEN];
	size_t i;

	bufadds(&line, "rm -f --");
	for (i = 0; i < rj->nsent; i++) {
		bufaddc(&line, ' ');
		quote(&line, rj->sent[i], SHELL_POSIX);
	}
	if (remote_ssh(rm, rj, line.s, -1, -1, err, ERRLEN) != 0)
		warn("--cleanup on host %s: %s", remote_hostname(rm, rj),
		    *err != '\0' ? err : "failed");
	free(line.s);
	remotefiles_forget(rj);
}

struct remotefiles *
remotefiles_new(const struct remoteconf *rc, const char *plain, int flags)
{
	struct remotefiles *f = xcalloc(1, sizeof(*f));

	f->ntf = rc->ntransfer;
	f->nret = rc->nret;
	f->tf = templates(rc->transfer, rc->ntransfer, plain, flags);
	f->ret = templates(rc->ret, rc->nret, plain, flags);
	return f;
}

void
remotefiles_forget(struct remotejob *rj)
{
	size_t i;

	for (i = 0; i < rj->nsent; i++)
		free(rj->sent[i]);
	free(rj->sent);
	rj->sent = NULL;
	rj->nsent = 0;
}

void
remotefiles_free(struct remotefiles *f)
{
	size_t i;

	for (i = 0; i < f->ntf; i++)
		template_free(f->tf[i]);
	for (i = 0; i < f->nret; i++)
		template_free(f->ret[i]);
	free(f->tf);
	free(f->ret);
	free(f);
}
