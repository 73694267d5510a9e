/*
 * Jobs on hosts over SSH, as GNU parallel's -S runs them, with one
 * multiplexed connection per host.
 *
 * At the start, each host gets a ControlMaster (ssh -M -N -f) with its
 * socket in a private directory; a job's ssh goes through it
 * (-S SOCKET -o ControlMaster=no), so a job costs a session, not a
 * handshake.  The masters are closed with -O exit at the end.
 * ControlPersist=600 ends a master that wspx could not close (killed by
 * SIGKILL) ten minutes after its last session.
 *
 * A remote job runs as `exec /bin/sh -c SCRIPT` (the login shell reads
 * only that line), and SCRIPT goes to the directory, exports --env's
 * variables and the job's numbers, and runs the command line in a
 * subshell with stdin from /dev/null.  Beside it a watcher reads the
 * session's stdin, which wspx keeps open and never writes: when the
 * local ssh goes away (killed by a timeout, a halt now, a signal), the
 * session closes, the read ends, and the watcher sends SIGTERM to the
 * session's process group (sshd made the login shell a session leader),
 * then SIGKILL after the grace of
 * --termtimeout.  Without it the remote job would go on
 * running with no one to read its output.
 *
 * Exit 255 is ssh's own failure, or the job's own exit value: after one,
 * the connection is checked (-O check, then one reconnect).  If it is
 * down, the attempt was lost with its host, which leaves the rotation;
 * the job runs again on another host.
 *
 * Host slots: a job takes a slot of the host with the most free ones
 * (its pinned host if it has one); the executor's slots are the sum of
 * the hosts', so a job waits here only when a host left the rotation.
 */
#define _GNU_SOURCE		/* mkdtemp() */
#include "remote.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../lib/atomic.h"
#include "../lib/job.h"
#include "../lib/proc.h"
#include "../lib/thread.h"
#include "optvalue.h"
#include "remotefiles.h"
#include "sidecmd.h"
#include "template.h"
#include "util.h"

enum { MAXFAILS = 3, ERRLEN = 512 };

struct rhost {
	const struct host *h;
	char *ctl;		/* its ControlMaster's socket, or NULL */
	unsigned slots;
	unsigned running;	/* rm->lock */
	bool out;		/* out of the rotation; rm->lock */
	unsigned fails;		/* lost attempts; check */
	pthread_mutex_t check;	/* one connection check at a time */
};

struct remote {
	const struct remoteconf *rc;
	struct rhost *hosts;
	size_t nhosts;
	char **ssh;		/* --ssh's words */
	size_t nssh;
	char ctldir[PATH_MAX];
	char *workdir;		/* the remote jobs' directory */
	char *exports;		/* "export A='v';" for --env */
	struct remotefiles *files;
	unsigned total;
	pthread_mutex_t lock;
	pthread_cond_t freed;	/* a host slot is free, or a host left */
};

/* ssh's words, then wspx's own for host h, then more (NULL-ended). */
static char **
sshargv(const struct remote *rm, const struct rhost *rh, char *const *more)
{
	struct buf b = { NULL, 0, 0 };
	size_t i, n = 0;

#define WORD(s) (bufadd(&b, (s), strlen(s) + 1), n++)
	for (i = 0; i < rm->nssh; i++)
		WORD(rm->ssh[i]);
	if (rh->ctl != NULL) {
		WORD("-S");
		WORD(rh->ctl);
	}
	if (rh->h->port != NULL) {
		WORD("-p");
		WORD(rh->h->port);
	}
	for (i = 0; more[i] != NULL; i++)
		WORD(more[i]);
#undef WORD
	return packwords(&b, n);
}

/* Run ssh to host rh with the options and remote command of more (after
 * "--" and the target, if cmdline is not NULL).  Returns as sidecmd_run. */
static int
sshrun(const struct remote *rm, const struct rhost *rh, const char *opt,
    const char *cmdline, int in_fd, int out_fd, char *err)
{
	char *more[8];
	char **argv;
	size_t n = 0;
	int rc;

	if (opt != NULL) {
		more[n++] = (char *)"-O";
		more[n++] = (char *)opt;
	} else {
		more[n++] = (char *)"-o";
		more[n++] = (char *)"ControlMaster=no";
	}
	more[n++] = (char *)"--";
	more[n++] = rh->h->target;
	if (cmdline != NULL)
		more[n++] = (char *)cmdline;
	more[n] = NULL;
	argv = sshargv(rm, rh, more);
	rc = sidecmd_run(argv, in_fd, out_fd, err, ERRLEN);
	free(argv);
	return rc;
}

/* Start host rh's ControlMaster: ssh returns once it is connected, the
 * master going on in the background (-f). */
static void
startmaster(const struct remote *rm, const struct rhost *rh,
    struct sidecmd *sc)
{
	char *more[] = { (char *)"-M", (char *)"-N", (char *)"-f",
		(char *)"-o", (char *)"ControlMaster=yes", (char *)"-o",
		(char *)"ControlPersist=600", (char *)"--", rh->h->target, NULL };
	char **argv = sshargv(rm, rh, more);

	sidecmd_start(sc, argv, -1, -1);
	free(argv);
}

static void
hostout(struct remote *rm, struct rhost *rh, const char *why)
{
	WSPX_MUST(pthread_mutex_lock(&rm->lock));
	if (!rh->out) {
		rh->out = true;
		rm->total -= rh->slots;
		warn("host %s: %s; not using it", rh->h->spec, why);
	}
	WSPX_MUST(pthread_cond_broadcast(&rm->freed));
	WSPX_MUST(pthread_mutex_unlock(&rm->lock));
}

/* Connect to every host at once; leave out those that fail. */
static void
connectall(struct remote *rm)
{
	struct sidecmd *sc = xcalloc(rm->nhosts, sizeof(*sc));
	char err[ERRLEN], why[ERRLEN + 64];
	size_t i;
	int rc;

	for (i = 0; i < rm->nhosts; i++)
		if (!rm->hosts[i].h->local)
			startmaster(rm, &rm->hosts[i], &sc[i]);
	for (i = 0; i < rm->nhosts; i++) {
		if (rm->hosts[i].h->local)
			continue;
		if ((rc = sidecmd_wait(&sc[i], err, sizeof(err))) == 0)
			continue;
		snprintf(why, sizeof(why), "cannot connect (ssh exit %d%s%s)",
		    rc, *err != '\0' ? ": " : "", err);
		rm->hosts[i].out = true;
		warn("host %s: %s; not using it", rm->hosts[i].h->spec, why);
	}
	free(sc);
}

/* The number of CPUs of host rh, asked over its connection; 0 if
 * unknown. */
static unsigned
askcpus(const struct remote *rm, const struct rhost *rh)
{
	char *more[] = { (char *)"-o", (char *)"ControlMaster=no",
		(char *)"--", rh->h->target,
		(char *)"nproc 2>/dev/null || getconf _NPROCESSORS_ONLN", NULL };
	char **argv = sshargv(rm, rh, more), *out, err[ERRLEN];
	long n = 0;

	if (sidecmd_read(argv, &out, err, sizeof(err)) == 0)
		n = strtol(out, NULL, 10);
	free(out);
	free(argv);
	return n > 0 && n < 100000 ? (unsigned)n : 0;
}

/* Each live host's slots: its N/, else -j against its CPUs. */
static void
setslots(struct remote *rm, unsigned localjobs)
{
	const char *j = rm->rc->jobsspec;
	bool relative = j == NULL || strchr(j, '%') != NULL || *j == '+' ||
	    *j == '-' || strcmp(j, "0") == 0;
	struct rhost *rh;
	unsigned cpus;
	size_t i;

	for (i = 0; i < rm->nhosts; i++) {
		rh = &rm->hosts[i];
		if (rh->h->slots > 0)
			rh->slots = rh->h->slots;
		else if (rh->h->local || !relative)
			rh->slots = localjobs;
		else if ((cpus = askcpus(rm, rh)) == 0)
			rh->slots = 1;
		else
			rh->slots = j != NULL ? parsejobs_for("-j", j, cpus) :
			    cpus;
		if (!rh->out)
			rm->total += rh->slots;
	}
}

/* The directory for the control sockets: short, as a socket's path is
 * (108 bytes). */
static void
makectldir(struct remote *rm)
{
	const char *t = getenv("TMPDIR");

	if (t == NULL || *t == '\0' || strlen(t) > 60)
		t = "/tmp";
	snprintf(rm->ctldir, sizeof(rm->ctldir), "%s/wspx-ssh-XXXXXX", t);
	if (mkdtemp(rm->ctldir) == NULL)
		fatal("-S: cannot make a directory for ssh's connections "
		    "in %s:", t);
}

/* "export A='v' B='w';" for the --env names that are set. */
static char *
makeexports(const struct remoteconf *rc)
{
	struct buf b = { NULL, 0, 0 };
	const char *v;
	size_t i;

	bufadds(&b, "");
	for (i = 0; i < rc->nenv; i++) {
		if ((v = getenv(rc->env[i])) == NULL)
			continue;
		bufprintf(&b, "export %s=", rc->env[i]);
		quote(&b, v, SHELL_POSIX);
		bufadds(&b, ";");
	}
	return buftake(&b);
}

static char *
thisdir(void)
{
	char *d = getcwd(NULL, 0);

	if (d == NULL)
		fatal("-S: the current directory:");
	return d;
}

struct remote *
remote_open(const struct remoteconf *rc, const char *plain, int tmplflags,
    unsigned localjobs)
{
	struct remote *rm;
	const char *ssh = rc->ssh;
	size_t i;

	if (rc->hosts.n == 0)
		return NULL;
	rm = xcalloc(1, sizeof(*rm));
	rm->rc = rc;
	if (ssh == NULL && (ssh = getenv("PARALLEL_SSH")) == NULL)
		ssh = "ssh";
	rm->ssh = line_argv(ssh);
	for (rm->nssh = 0; rm->ssh[rm->nssh] != NULL; rm->nssh++)
		;
	if (rm->nssh == 0)
		fatal("--ssh: no command given");
	makectldir(rm);
	rm->nhosts = rc->hosts.n;
	rm->hosts = xcalloc(rm->nhosts, sizeof(*rm->hosts));
	for (i = 0; i < rm->nhosts; i++) {
		rm->hosts[i].h = &rc->hosts.v[i];
		WSPX_MUST(pthread_mutex_init(&rm->hosts[i].check, NULL));
		if (!rc->hosts.v[i].local) {
			rm->hosts[i].ctl = xmalloc(strlen(rm->ctldir) + 24);
			sprintf(rm->hosts[i].ctl, "%s/%zu", rm->ctldir, i);
		}
	}
	rm->workdir = rc->workdir == NULL || strcmp(rc->workdir, ".") == 0 ?
	    thisdir() : xstrdup(rc->workdir);
	rm->exports = makeexports(rc);
	rm->files = remotefiles_new(rc, plain, tmplflags);
	WSPX_MUST(pthread_mutex_init(&rm->lock, NULL));
	WSPX_MUST(pthread_cond_init(&rm->freed, NULL));
	connectall(rm);
	setslots(rm, localjobs);
	if (rm->total == 0) {
		remote_close(rm);
		fatal("no host to run jobs on");
	}
	return rm;
}

unsigned
remote_slots(const struct remote *rm)
{
	return rm->total;
}

/* The host for an attempt, its slot taken: the pinned one, or the live
 * one with the most free slots; waits while all are busy.  -1 if none is
 * left. */
static int
takehost(struct remote *rm, const char *on)
{
	struct rhost *rh;
	size_t i;
	int best, live;

	WSPX_MUST(pthread_mutex_lock(&rm->lock));
	for (;;) {
		best = -1;
		live = 0;
		for (i = 0; i < rm->nhosts; i++) {
			rh = &rm->hosts[i];
			if (rh->out || (on != NULL && strcmp(on,
			    rh->h->spec) != 0))
				continue;
			live++;
			if (rh->running < rh->slots && (best < 0 ||
			    rh->slots - rh->running > rm->hosts[best].slots -
			    rm->hosts[best].running))
				best = (int)i;
		}
		if (best >= 0 || live == 0)
			break;
		WSPX_MUST(pthread_cond_wait(&rm->freed, &rm->lock));
	}
	if (best >= 0)
		rm->hosts[best].running++;
	WSPX_MUST(pthread_mutex_unlock(&rm->lock));
	return best;
}

static void
givehost(struct remote *rm, size_t host)
{
	WSPX_MUST(pthread_mutex_lock(&rm->lock));
	rm->hosts[host].running--;
	WSPX_MUST(pthread_cond_broadcast(&rm->freed));
	WSPX_MUST(pthread_mutex_unlock(&rm->lock));
}

/* Export what the job's own environment (a job file's env:) sets
 * beyond wspx's: the host's session has only its own. */
static void
ownenv(struct buf *b, char *const *envp)
{
	const char *eq, *v;
	char name[256];

	for (; envp != NULL && *envp != NULL; envp++) {
		if ((eq = strchr(*envp, '=')) == NULL || eq == *envp ||
		    (size_t)(eq - *envp) >= sizeof(name))
			continue;
		memcpy(name, *envp, (size_t)(eq - *envp));
		name[eq - *envp] = '\0';
		if (strncmp(name, "WSPX_", 5) == 0 ||
		    strncmp(name, "PARALLEL_", 9) == 0 ||
		    ((v = getenv(name)) != NULL && strcmp(v, eq + 1) == 0))
			continue;
		bufprintf(b, "export %s=", name);
		quote(b, eq + 1, SHELL_POSIX);
		bufadds(b, "; ");
	}
}

/* The job's script, run by /bin/sh on the host (see the top). */
static char *
script(const struct remote *rm, const char *dir,
    const struct wspx__cmd *cmd, uint64_t seq, unsigned slot)
{
	struct buf b = { NULL, 0, 0 };
	const char *line = cmd->text;

	bufadds(&b, "mkdir -p -- ");
	quote(&b, dir, SHELL_POSIX);
	bufadds(&b, " 2>/dev/null; cd -- ");
	quote(&b, dir, SHELL_POSIX);
	bufadds(&b, " || exit 1; ");
	bufadds(&b, rm->exports);
	ownenv(&b, cmd->envp);
	bufprintf(&b, "export WSPX_SEQ=%llu PARALLEL_SEQ=%llu WSPX_SLOT=%u "
	    "PARALLEL_JOBSLOT=%u; ", (unsigned long long)seq,
	    (unsigned long long)seq, slot, slot);
	/* (the watcher's own words then no longer hold the job's) */
	bufprintf(&b, "exec 3<&0; (trap '' TERM; while read -r _; do :; done; "
	    "exec /bin/sh -c \"kill -TERM 0; sleep %.3f; kill -KILL 0\") "
	    "<&3 >/dev/null 2>&1 & w=$!; exec 3<&-; (", rm->rc->grace);
	bufadds(&b, line);
	bufadds(&b, "\n) </dev/null; s=$?; kill -KILL $w 2>/dev/null; "
	    "exit $s");
	return buftake(&b);
}

/* cmd becomes the ssh that runs it on the job's host. */
static int
wrap(struct remote *rm, struct remotejob *rj, const char *dir,
    struct wspx__cmd *cmd, uint64_t seq, unsigned slot)
{
	const struct rhost *rh = &rm->hosts[rj->host];
	struct buf remote = { NULL, 0, 0 };
	char *s = script(rm, dir, cmd, seq, slot);
	char *more[6];
	int fds[2], rc;

	if ((rc = wspx__proc_pipe(fds)) != 0) {
		free(s);
		return rc;
	}
	bufadds(&remote, "exec /bin/sh -c ");
	quote(&remote, s, SHELL_POSIX);
	free(s);
	more[0] = (char *)"-o";
	more[1] = (char *)"ControlMaster=no";
	more[2] = (char *)"--";
	more[3] = rh->h->target;
	more[4] = remote.s;
	more[5] = NULL;
	free(cmd->argv);
	cmd->argv = sshargv(rm, rh, more);
	free(remote.s);
	cmd->file = NULL;
	cmd->search = true;
	cmd->dir = NULL;
	/* (closed by the executor when the job is told to end, or ends:
	 * the session's stdin ends, and the watcher ends the job) */
	cmd->in_fd = fds[0];
	cmd->hangup_fd = fds[1];
	return 0;
}

int
remote_place(struct remote *rm, struct remotejob *rj, const char *on,
    const struct args *a, uint64_t seq, unsigned slot,
    struct wspx__cmd *cmd)
{
	char *dir;
	int rc, host;

	remote_ended(rm, rj, NULL, 0, 0, NULL);
	if ((host = takehost(rm, on)) < 0)
		return -EHOSTDOWN;
	rj->host = (size_t)host;
	rj->placed = true;
	if (rm->hosts[rj->host].h->local)
		return 0;
	/* (a job file's dir: is the same path there, from the workdir) */
	dir = cmd->dir == NULL ? xstrdup(rm->workdir) : cmd->dir[0] == '/' ?
	    xstrdup(cmd->dir) : remotefiles_path(rm->workdir, cmd->dir);
	if ((rc = remotefiles_send(rm->files, rm, rj, dir, a, seq,
	    slot)) == 0)
		rc = wrap(rm, rj, dir, cmd, seq, slot);
	free(dir);
	return rc;
}

/* After ssh's exit 255 on host rh: 0 if its connection is up (the exit
 * value was the job's), 1 if it was down and is up again, -1 if it stays
 * down. */
static int
recheck(struct remote *rm, struct rhost *rh, char *err)
{
	struct sidecmd sc;

	if (sshrun(rm, rh, "check", NULL, -1, -1, err) == 0)
		return 0;
	startmaster(rm, rh, &sc);
	return sidecmd_wait(&sc, err, ERRLEN) == 0 ? 1 : -1;
}

bool
remote_lost(struct remote *rm, struct remotejob *rj,
    const struct wspx__result *r)
{
	struct rhost *rh;
	char err[ERRLEN], why[ERRLEN + 64];
	int state;
	bool out;

	if (!rj->placed || !r->started || !WIFEXITED(r->status) ||
	    WEXITSTATUS(r->status) != 255)
		return false;
	rh = &rm->hosts[rj->host];
	if (rh->h->local)
		return false;
	WSPX_MUST(pthread_mutex_lock(&rh->check));
	if ((state = recheck(rm, rh, err)) != 0)
		rh->fails++;
	out = state < 0 || rh->fails >= MAXFAILS;
	WSPX_MUST(pthread_mutex_unlock(&rh->check));
	if (state == 0)
		return false;	/* the job's own 255 */
	if (out) {
		snprintf(why, sizeof(why), "%s (ssh exit 255%s%s)",
		    state < 0 ? "connection lost" : "connection lost again",
		    *err != '\0' ? ": " : "", err);
		hostout(rm, rh, why);
	} else {
		warn("host %s: connection lost and made again (ssh exit 255); "
		    "the job runs again", rh->h->spec);
	}
	return true;
}

void
remote_ended(struct remote *rm, struct remotejob *rj, const struct args *a,
    uint64_t seq, unsigned slot, const struct wspx__result *r)
{
	if (!rj->placed)
		return;
	if (r != NULL && r->started && !r->lost && !rm->hosts[rj->host].out)
		remotefiles_fetch(rm->files, rm, rj, rm->workdir, a, seq,
		    slot);
	if (rm->rc->cleanup && rj->nsent > 0 && !rm->hosts[rj->host].out)
		remotefiles_cleanup(rm, rj);
	remotefiles_forget(rj);
	givehost(rm, rj->host);
	rj->placed = false;
}

int
remote_ssh(struct remote *rm, const struct remotejob *rj,
    const char *cmdline, int in_fd, int out_fd, char *err, size_t errlen)
{
	char buf[ERRLEN];
	int rc = sshrun(rm, &rm->hosts[rj->host], NULL, cmdline, in_fd,
	    out_fd, buf);

	snprintf(err, errlen, "%s", buf);
	return rc;
}

const char *
remote_hostname(const struct remote *rm, const struct remotejob *rj)
{
	return rm != NULL && rj->placed ? rm->hosts[rj->host].h->spec :
	    ":";
}

void
remote_close(struct remote *rm)
{
	char err[ERRLEN];
	size_t i;

	if (rm == NULL)
		return;
	for (i = 0; i < rm->nhosts; i++) {
		if (rm->hosts[i].ctl != NULL && access(rm->hosts[i].ctl,
		    F_OK) == 0)
			(void)sshrun(rm, &rm->hosts[i], "exit", NULL, -1, -1,
			    err);
		free(rm->hosts[i].ctl);
		WSPX_MUST(pthread_mutex_destroy(&rm->hosts[i].check));
	}
	(void)rmdir(rm->ctldir);
	remotefiles_free(rm->files);
	free(rm->hosts);
	free(rm->ssh);
	free(rm->workdir);
	free(rm->exports);
	WSPX_MUST(pthread_cond_destroy(&rm->freed));
	WSPX_MUST(pthread_mutex_destroy(&rm->lock));
	free(rm);
}
