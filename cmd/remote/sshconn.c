/*
 * ssh's connections (see sshconn.h).  A master is `ssh -M -N -f`: ssh
 * returns once it is connected and goes on in the background, so opening
 * many is starting them all and waiting for each to return.  Its socket
 * is in a private directory (0700, short: a socket's path has at most 108
 * bytes); ControlPersist=600 ends a master that wspx could not close
 * (killed by SIGKILL) ten minutes after its last session.  A job's ssh
 * goes through a master with -S SOCKET -o ControlMaster=no.
 */
#include "sshconn.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "input/template.h"
#include "os/tmp.h"
#include "sidecmd.h"
#include "util/buf.h"
#include "util/util.h"

struct sshconn {
	char **ssh;		/* --ssh's words */
	size_t nssh;
	char *dir;		/* the sockets' directory */
};

struct sshconn *
sshconn_new(const char *ssh)
{
	struct sshconn *c = xcalloc(1, sizeof(*c));
	const char *t = getenv("TMPDIR");

	c->ssh = line_argv(ssh);
	for (c->nssh = 0; c->ssh[c->nssh] != NULL; c->nssh++)
		;
	if (c->nssh == 0)
		fatal("--ssh: no command given");
	if (t == NULL || *t == '\0' || strlen(t) > 60)
		t = "/tmp";
	if ((errno = -wspx__tmp_dir(t, "wspx-ssh-", &c->dir)) != 0)
		fatal("-S: cannot make a directory for ssh's connections "
		    "in %s:", t);
	return c;
}

/* ssh's words, the socket (or none), the port, then opts, "--", the
 * host and cmdline (if not NULL). */
static char **
argv(const struct sshconn *c, const struct sshhost *sh, const char *ctl,
    char *const *opts, const char *cmdline)
{
	struct buf b = { NULL, 0, 0 };
	size_t i, n = 0;
	char **v;

#define WORD(s) (bufadd(&b, (s), strlen(s) + 1), n++)
	for (i = 0; i < c->nssh; i++)
		WORD(c->ssh[i]);
	if (ctl != NULL) {
		WORD("-S");
		WORD(ctl);
	}
	if (sh->h->port != NULL) {
		WORD("-p");
		WORD(sh->h->port);
	}
	for (i = 0; opts[i] != NULL; i++)
		WORD(opts[i]);
	WORD("--");
	WORD(sh->h->target);
	if (cmdline != NULL)
		WORD(cmdline);
#undef WORD
	v = packwords(&b, n);
	free(b.s);
	return v;
}

static char *const viamaster[] = { (char *)"-o", (char *)"ControlMaster=no",
	NULL };

char **
sshconn_argv(const struct sshconn *c, const struct sshhost *sh, unsigned k,
    const char *script)
{
	struct buf line = { NULL, 0, 0 };
	char **v;

	/* (whatever the login shell, /bin/sh runs the script) */
	bufadds(&line, "exec /bin/sh -c ");
	quote(&line, script, sh->kind);
	v = argv(c, sh, sh->ctl[k], viamaster, line.s);
	free(line.s);
	return v;
}

int
sshconn_run(const struct sshconn *c, const struct sshhost *sh, unsigned k,
    const char *script, int in_fd, int out_fd, char *err)
{
	char **v = sshconn_argv(c, sh, k, script);
	int rc = sidecmd_run(v, in_fd, out_fd, err, sizeof(sh->err));

	free(v);
	return rc;
}

/* The socket of master k of host sh: DIR/HOST.K, HOST its place in the
 * list (hosts may share names). */
static char *
socketpath(const struct sshconn *c, const struct sshhost *sh,
    const struct sshhost *first, unsigned k)
{
	char *p = xmalloc(strlen(c->dir) + 48);

	sprintf(p, "%s/%zu.%u", c->dir, (size_t)(sh - first), k);
	return p;
}

static void
startmaster(const struct sshconn *c, const struct sshhost *sh,
    const char *ctl, struct sidecmd *sc)
{
	static char *const opts[] = { (char *)"-M", (char *)"-N", (char *)"-f",
		(char *)"-o", (char *)"ControlMaster=yes", (char *)"-o",
		(char *)"ControlPersist=600", NULL };
	char **v = argv(c, sh, ctl, opts, NULL);

	sidecmd_start(sc, v, -1, -1);
	free(v);
}

void
sshconn_connect(struct sshconn *c, struct sshhost *hs, size_t n,
    const unsigned *want)
{
	struct sidecmd *sc;
	unsigned *from = xcalloc(n, sizeof(*from)), k;
	size_t i, m = 0, total = 0;
	char err[sizeof(hs->err)];
	bool ok;

	for (i = 0; i < n; i++)
		total += want[i] > hs[i].nctl ? want[i] - hs[i].nctl : 0;
	sc = xcalloc(total + 1, sizeof(*sc));
	for (i = 0; i < n; i++) {
		from[i] = hs[i].nctl;
		if (hs[i].h->local || want[i] <= hs[i].nctl)
			continue;
		if (want[i] > hs[i].nsock)
			hs[i].ctl = xrealloc(hs[i].ctl, want[i] *
			    sizeof(*hs[i].ctl));
		for (k = hs[i].nctl; k < want[i]; k++) {
			if (k >= hs[i].nsock)
				hs[i].ctl[hs[i].nsock++] = socketpath(c, &hs[i],
				    hs, k);
			startmaster(c, &hs[i], hs[i].ctl[k], &sc[m++]);
		}
	}
	for (i = 0, m = 0; i < n; i++) {
		if (hs[i].h->local)
			continue;
		for (ok = true, k = from[i]; k < want[i]; k++) {
			/* (one failed: those after it are not used) */
			if (sidecmd_wait(&sc[m++], err, sizeof(err)) != 0 &&
			    ok) {
				snprintf(hs[i].err, sizeof(hs[i].err), "%s",
				    err);
				ok = false;
			}
			if (ok)
				hs[i].nctl = k + 1;
		}
	}
	free(sc);
	free(from);
}

void
sshconn_probe(struct sshconn *c, struct sshhost *hs, size_t n,
    unsigned *cpus)
{
	struct sidecmd *sc = xcalloc(n + 1, sizeof(*sc));
	int *out = xcalloc(n + 1, sizeof(*out));
	char **v, buf[512], *nl, err[sizeof(hs->err)];
	ssize_t got;
	size_t i;

	for (i = 0; i < n; i++) {
		cpus[i] = 0;
		out[i] = -1;
		if (hs[i].nctl == 0 || (out[i] = sidecmd_tmpfile()) < 0)
			continue;
		/* (quoted as for sh, which csh and fish read alike here) */
		v = sshconn_argv(c, &hs[i], 0, "echo \"$SHELL\"; nproc "
		    "2>/dev/null || getconf _NPROCESSORS_ONLN");
		sidecmd_start(&sc[i], v, -1, out[i]);
		free(v);
	}
	for (i = 0; i < n; i++) {
		if (out[i] < 0)
			continue;
		if (sidecmd_wait(&sc[i], err, sizeof(err)) == 0 &&
		    (got = pread(out[i], buf, sizeof(buf) - 1, 0)) > 0) {
			buf[got] = '\0';
			if ((nl = strchr(buf, '\n')) != NULL) {
				*nl = '\0';
				hs[i].kind = shell_kind(buf);
				cpus[i] = (unsigned)strtoul(nl + 1, NULL, 10);
			}
		}
		close(out[i]);
	}
	free(out);
	free(sc);
}

void
sshconn_each(struct sshconn *c, struct sshhost *hs, size_t n,
    const unsigned char *run, const char *script, unsigned char *ok)
{
	struct sidecmd *sc = xcalloc(n + 1, sizeof(*sc));
	char **v, err[sizeof(hs->err)];
	size_t i;

	for (i = 0; i < n; i++) {
		ok[i] = 0;
		if (!run[i] || hs[i].nctl == 0)
			continue;
		v = sshconn_argv(c, &hs[i], 0, script);
		sidecmd_start(&sc[i], v, -1, -1);
		free(v);
	}
	for (i = 0; i < n; i++)
		if (run[i] && hs[i].nctl > 0)
			ok[i] = sidecmd_wait(&sc[i], err, sizeof(err)) == 0;
	free(sc);
}

int
sshconn_recheck(struct sshconn *c, struct sshhost *sh, unsigned k,
    char *err)
{
	static char *const check[] = { (char *)"-O", (char *)"check", NULL };
	struct sidecmd sc;
	char **v = argv(c, sh, sh->ctl[k], check, NULL);
	int rc = sidecmd_run(v, -1, -1, err, sizeof(sh->err));

	free(v);
	if (rc == 0)
		return 0;
	/* (a master killed outright leaves its socket, and ssh -M would
	 * then run without one) */
	(void)unlink(sh->ctl[k]);
	startmaster(c, sh, sh->ctl[k], &sc);
	return sidecmd_wait(&sc, err, sizeof(sh->err)) == 0 ? 1 : -1;
}

void
sshconn_close(struct sshconn *c, struct sshhost *hs, size_t n)
{
	static char *const quit[] = { (char *)"-O", (char *)"exit", NULL };
	struct sidecmd *sc;
	char **v, err[sizeof(hs->err)];
	size_t i, m = 0, total = 0;
	unsigned k;

	for (i = 0; i < n; i++)
		total += hs[i].nsock;
	sc = xcalloc(total + 1, sizeof(*sc));
	for (i = 0; i < n; i++)
		for (k = 0; k < hs[i].nsock; k++) {
			v = argv(c, &hs[i], hs[i].ctl[k], quit, NULL);
			sidecmd_start(&sc[m++], v, -1, -1);
			free(v);
		}
	for (i = 0; i < m; i++)
		(void)sidecmd_wait(&sc[i], err, sizeof(err));
	for (i = 0; i < n; i++) {
		for (k = 0; k < hs[i].nsock; k++)
			free(hs[i].ctl[k]);
		free(hs[i].ctl);
	}
	(void)rmdir(c->dir);
	free(c->dir);
	free(c->ssh);
	free(sc);
	free(c);
}
