/*
 * Helper commands run to their end.  Their stderr goes to an unnamed
 * temporary file, read once the command is over: an ssh that forks a
 * connection into the background (-f) keeps a pipe open long after, but
 * not the file's end.
 */
#include "sidecmd.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "os/proc.h"
#include "os/tmp.h"
#include "util/util.h"

extern char **environ;

/* Where the stderr files go: they are small and have no name. */
static const char *
tmpdir(void)
{
	const char *d = getenv("TMPDIR");

	return d != NULL && *d != '\0' ? d : "/tmp";
}

/* The last non-empty line of the file fd, into err. */
static void
lastline(int fd, char *err, size_t errlen)
{
	char buf[4096], *s, *e;
	off_t end = lseek(fd, 0, SEEK_END), from;
	ssize_t n;

	err[0] = '\0';
	from = end > (off_t)sizeof(buf) - 1 ? end - (off_t)sizeof(buf) + 1 :
	    0;
	if (end <= 0 || (n = pread(fd, buf, (size_t)(end - from), from)) <= 0)
		return;
	buf[n] = '\0';
	e = buf + n;
	while (e > buf && (e[-1] == '\n' || e[-1] == '\r'))
		*--e = '\0';
	s = strrchr(buf, '\n') != NULL ? strrchr(buf, '\n') + 1 : buf;
	snprintf(err, errlen, "%s", s);
}

void
sidecmd_start(struct sidecmd *sc, char *const *argv, int in_fd, int out_fd)
{
	struct wspx__proc_spec spec;

	memset(sc, 0, sizeof(*sc));
	sc->name = argv[0];
	sc->efd = sc->null = -1;
	if ((sc->null = open("/dev/null", O_RDWR | O_CLOEXEC)) < 0 ||
	    (sc->efd = wspx__tmp_anon(tmpdir())) < 0) {
		sc->rc = sc->null < 0 ? -errno : sc->efd;
		return;
	}
	memset(&spec, 0, sizeof(spec));
	spec.file = argv[0];
	spec.argv = argv;
	spec.envp = environ;
	spec.search = true;
	spec.in_fd = in_fd >= 0 ? in_fd : sc->null;
	spec.out_fd = out_fd >= 0 ? out_fd : sc->null;
	spec.err_fd = sc->efd;
	if ((sc->rc = wspx__proc_spawn(&spec, &sc->pid)) != 0)
		sc->pid = 0;
}

int
sidecmd_wait(struct sidecmd *sc, char *err, size_t errlen)
{
	int rc = sc->rc, status;

	err[0] = '\0';
	if (sc->pid > 0 && (rc = wspx__proc_reap(sc->pid, &status)) == 0) {
		rc = WIFEXITED(status) ? WEXITSTATUS(status) :
		    128 + WTERMSIG(status);
		lastline(sc->efd, err, errlen);
	}
	if (rc < 0)
		snprintf(err, errlen, "%s: %s", sc->name, strerror(-rc));
	if (sc->efd >= 0)
		close(sc->efd);
	if (sc->null >= 0)
		close(sc->null);
	return rc;
}

int
sidecmd_tmpfile(void)
{
	return wspx__tmp_anon(tmpdir());
}

int
sidecmd_run(char *const *argv, int in_fd, int out_fd, char *err,
    size_t errlen)
{
	struct sidecmd sc;

	sidecmd_start(&sc, argv, in_fd, out_fd);
	return sidecmd_wait(&sc, err, errlen);
}

int
sidecmd_read(char *const *argv, char **out, char *err, size_t errlen)
{
	enum { KEEP = 64 * 1024 };
	int fd = wspx__tmp_anon(tmpdir()), rc;
	ssize_t n;

	*out = NULL;
	if (fd < 0)
		return fd;
	rc = sidecmd_run(argv, -1, fd, err, errlen);
	*out = xmalloc(KEEP + 1);
	n = pread(fd, *out, KEEP, 0);
	(*out)[n > 0 ? n : 0] = '\0';
	close(fd);
	return rc;
}
