/*
 * Jobs on hosts over SSH, as GNU parallel's -S runs them, with one
 * multiplexed connection per host.
 *
 * At the start, each host gets its ControlMasters (sshconn.c), one for
 * each SSHCONN_SESSIONS of its slots, and a job's ssh goes through the
 * master of its host slot, so a job costs a session, not a handshake.
 *
 * A remote job runs as the script of sshscript.c, whose stdin is a pipe
 * that the executor closes when it tells the job to end (hangup_fd): the
 * session's stdin ends, and the script's watcher ends the job there.
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
#include "remote.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "exec/exec.h"
#include "input/template.h"
#include "os/proc.h"
#include "os/thread.h"
#include "os/tmp.h"
#include "remotefiles.h"
#include "sshconn.h"
#include "sshscript.h"
#include "util/buf.h"
#include "util/slots.h"
#include "util/util.h"

enum { MAXFAILS = 3, ERRLEN = 512 };

struct rhost {
	struct sshhost *sh;	/* its connections */
	unsigned slots;
	unsigned *free;		/* its free slots, a stack; rm->lock */
	unsigned nfree;
	bool out;		/* out of the rotation; rm->lock */
	unsigned *gen;		/* each connection's: how many times it was
				 * found down; rm->lock */
	bool shared;		/* it sees this machine's files at the
				 * workdir's path: nothing to copy */
	unsigned fails;		/* lost attempts; check */
	pthread_mutex_t check;	/* one connection check at a time */
};

struct remote {
	const struct remoteconf *rc;
	struct sshconn *conn;
	struct sshhost *sh;	/* the hosts' connections, one each */
	struct rhost *hosts;
	size_t nhosts;
	char *workdir;		/* the remote jobs' directory */
	char *exports;		/* --nice's renice, "export A='v';" for
				 * --env */
	struct remotefiles *files;
	pthread_mutex_t lock;
	pthread_cond_t freed;	/* a host slot is free, or a host left */
};

static const struct host *
hostof(const struct rhost *rh)
{
	return rh->sh->h;
}

/* Take host rh out of the rotation, saying why. */
static void
hostout(struct remote *rm, struct rhost *rh, const char *why)
{
	WSPX_MUST(pthread_mutex_lock(&rm->lock));
	if (!rh->out) {
		rh->out = true;
		warn("host %s: %s; not using it", hostof(rh)->spec, why);
	}
	WSPX_MUST(pthread_cond_broadcast(&rm->freed));
	WSPX_MUST(pthread_mutex_unlock(&rm->lock));
}

/* Open every host's first connection; leave out those that fail. */
static void
connectall(struct remote *rm)
{
	unsigned *want = xcalloc(rm->nhosts, sizeof(*want));
	size_t i;

	for (i = 0; i < rm->nhosts; i++)
		want[i] = 1;
	sshconn_connect(rm->conn, rm->sh, rm->nhosts, want);
	for (i = 0; i < rm->nhosts; i++)
		if (!hostof(&rm->hosts[i])->local && rm->sh[i].nctl == 0) {
			rm->hosts[i].out = true;
			warn("host %s: cannot connect (%s); not using it",
			    rm->sh[i].h->spec, *rm->sh[i].err != '\0' ?
			    rm->sh[i].err : "ssh failed");
		}
	free(want);
}

/* Each live host's slots: its N/, else -j against its CPUs (asked of the
 * hosts, all at once, with their login shells). */
static void
setslots(struct remote *rm, unsigned localjobs)
{
	const char *j = rm->rc->jobsspec;
	bool relative = j == NULL || strchr(j, '%') != NULL || *j == '+' ||
	    *j == '-' || strcmp(j, "0") == 0;
	unsigned char *ask = xcalloc(rm->nhosts, 1);
	unsigned *cpus = xcalloc(rm->nhosts, sizeof(*cpus));
	const struct host *h;
	size_t i;

	for (i = 0; i < rm->nhosts; i++)
		ask[i] = !rm->hosts[i].out && !hostof(&rm->hosts[i])->local &&
		    hostof(&rm->hosts[i])->slots == 0 && relative;
	/* (the login shells too: every command line sent is quoted for
	 * its host's) */
	sshconn_probe(rm->conn, rm->sh, rm->nhosts, cpus);
	for (i = 0; i < rm->nhosts; i++) {
		h = hostof(&rm->hosts[i]);
		rm->hosts[i].slots = h->slots > 0 ? h->slots : !ask[i] ?
		    localjobs : cpus[i] == 0 ? 1 : cpus[i];
		/* (-j was read once already: it cannot fail here) */
		if (h->slots == 0 && ask[i] && cpus[i] > 0 && j != NULL &&
		    slots_parse(j, cpus[i], &rm->hosts[i].slots) != NULL)
			abort();
		/* (-j 0 on a host: one job per CPU, as many as its sshd
		 * serves sessions at a reasonable pace) */
		if (rm->hosts[i].slots == 0)
			rm->hosts[i].slots = cpus[i] == 0 ? 1 : cpus[i];
	}
	free(ask);
	free(cpus);
}

/* The further connections of the hosts with more slots than one carries
 * sessions, one more per host at a time (sshd drops new connections past
 * MaxStartups, 10 by default, that are not logged in yet); a host whose
 * connections fall short gets fewer slots. */
static void
connectmore(struct remote *rm)
{
	unsigned *want = xcalloc(rm->nhosts, sizeof(*want));
	unsigned *step = xcalloc(rm->nhosts, sizeof(*step)), most = 1;
	struct rhost *rh;
	size_t i;
	unsigned k;

	for (i = 0; i < rm->nhosts; i++) {
		if (!rm->hosts[i].out)
			want[i] = (rm->hosts[i].slots + SSHCONN_SESSIONS - 1) /
			    SSHCONN_SESSIONS;
		most = want[i] > most ? want[i] : most;
	}
	for (k = 2; k <= most; k++) {
		for (i = 0; i < rm->nhosts; i++)
			step[i] = want[i] >= k && rm->sh[i].nctl == k - 1 ?
			    k : rm->sh[i].nctl;
		sshconn_connect(rm->conn, rm->sh, rm->nhosts, step);
	}
	free(step);
	for (i = 0; i < rm->nhosts; i++) {
		rh = &rm->hosts[i];
		if (!hostof(rh)->local && !rh->out && rh->sh->nctl < want[i]) {
			rh->slots = rh->sh->nctl * SSHCONN_SESSIONS;
			warn("host %s: %u connections of %u (%s): running %u "
			    "jobs there at once", hostof(rh)->spec,
			    rh->sh->nctl, want[i], rh->sh->err, rh->slots);
		}
	}
	free(want);
}

/* Which hosts have this directory as their workdir (a shared file
 * system, or this machine by another name), found with a file made here
 * and looked for there: copying the files to them would copy each onto
 * itself, and --cleanup would remove the originals.  Only with those
 * options. */
static void
findshared(struct remote *rm)
{
	const struct remoteconf *rc = rm->rc;
	unsigned char *run, *ok;
	struct buf line = { NULL, 0, 0 };
	char *mark;
	size_t i;
	int fd;

	if ((rc->ntransfer == 0 && rc->nret == 0 && !rc->cleanup) ||
	    (fd = wspx__tmp_file(NULL, ".wspx-here-", NULL, &mark)) < 0)
		return;
	close(fd);
	bufadds(&line, "test -e ");
	quote(&line, rm->workdir, SHELL_POSIX);
	bufadds(&line, "/");
	bufadds(&line, mark);
	run = xcalloc(rm->nhosts, 1);
	ok = xcalloc(rm->nhosts, 1);
	for (i = 0; i < rm->nhosts; i++)
		run[i] = !rm->hosts[i].out && !hostof(&rm->hosts[i])->local;
	sshconn_each(rm->conn, rm->sh, rm->nhosts, run, line.s, ok);
	for (i = 0; i < rm->nhosts; i++)
		rm->hosts[i].shared = ok[i];
	(void)unlink(mark);
	free(mark);
	free(line.s);
	free(ok);
	free(run);
}

/* The hosts' free slot stacks, slot 0 on top. */
static void
setfree(struct remote *rm)
{
	struct rhost *rh;
	size_t i;
	unsigned k;

	for (i = 0; i < rm->nhosts; i++) {
		rh = &rm->hosts[i];
		rh->free = xcalloc(rh->slots + 1, sizeof(*rh->free));
		for (k = 0; k < rh->slots; k++)
			rh->free[k] = rh->slots - 1 - k;
		rh->nfree = rh->slots;
		rh->gen = xcalloc(rh->sh->nsock + 1, sizeof(*rh->gen));
	}
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
remote_open(const struct remoteconf *rc, const struct replnames *names,
    int tmplflags, unsigned localjobs)
{
	struct remote *rm;
	const char *ssh = rc->ssh;
	size_t i;

	if (rc->hosts.n == 0)
		return NULL;
	if (ssh == NULL && (ssh = getenv("PARALLEL_SSH")) == NULL)
		ssh = "ssh";
	rm = xcalloc(1, sizeof(*rm));
	rm->rc = rc;
	rm->conn = sshconn_new(ssh);
	rm->nhosts = rc->hosts.n;
	rm->sh = xcalloc(rm->nhosts, sizeof(*rm->sh));
	rm->hosts = xcalloc(rm->nhosts, sizeof(*rm->hosts));
	for (i = 0; i < rm->nhosts; i++) {
		rm->sh[i].h = &rc->hosts.v[i];
		rm->hosts[i].sh = &rm->sh[i];
		WSPX_MUST(pthread_mutex_init(&rm->hosts[i].check, NULL));
	}
	rm->workdir = rc->workdir == NULL || strcmp(rc->workdir, ".") == 0 ?
	    thisdir() : xstrdup(rc->workdir);
	rm->exports = sshscript_prologue(rc->env, rc->nenv,
	    rc->nice);
	rm->files = remotefiles_new(rc->transfer, rc->ntransfer, rc->ret,
	    rc->nret, names, tmplflags);
	WSPX_MUST(pthread_mutex_init(&rm->lock, NULL));
	WSPX_MUST(pthread_cond_init(&rm->freed, NULL));
	connectall(rm);
	setslots(rm, localjobs);
	connectmore(rm);
	findshared(rm);
	setfree(rm);
	if (remote_slots(rm) == 0) {
		remote_close(rm);
		fatal("no host to run jobs on");
	}
	return rm;
}

unsigned
remote_slots(const struct remote *rm)
{
	unsigned total = 0;
	size_t i;

	/* (at the start: then only this thread touches out) */
	for (i = 0; i < rm->nhosts; i++)
		if (!rm->hosts[i].out)
			total += rm->hosts[i].slots;
	return total;
}

/* A host for an attempt, and a slot of it, taken: the pinned host, or
 * the live one with the most free slots; waits while all are busy.
 * Returns false if no host is left. */
static bool
takehost(struct remote *rm, const char *on, struct remotejob *rj)
{
	struct rhost *rh, *best;
	size_t i;
	bool live;

	WSPX_MUST(pthread_mutex_lock(&rm->lock));
	for (;;) {
		best = NULL;
		live = false;
		for (i = 0; i < rm->nhosts; i++) {
			rh = &rm->hosts[i];
			if (rh->out || (on != NULL && strcmp(on,
			    hostof(rh)->spec) != 0))
				continue;
			live = true;
			if (rh->nfree > 0 && (best == NULL ||
			    rh->nfree > best->nfree))
				best = rh;
		}
		if (best != NULL || !live)
			break;
		WSPX_MUST(pthread_cond_wait(&rm->freed, &rm->lock));
	}
	if (best != NULL) {
		rj->host = (size_t)(best - rm->hosts);
		rj->hostslot = best->free[--best->nfree];
		rj->gen = hostof(best)->local ? 0 :
		    best->gen[rj->hostslot / SSHCONN_SESSIONS];
		rj->placed = true;
	}
	WSPX_MUST(pthread_mutex_unlock(&rm->lock));
	return best != NULL;
}

static bool
isout(struct remote *rm, const struct rhost *rh)
{
	bool out;

	WSPX_MUST(pthread_mutex_lock(&rm->lock));
	out = rh->out;
	WSPX_MUST(pthread_mutex_unlock(&rm->lock));
	return out;
}

static void
givehost(struct remote *rm, const struct remotejob *rj)
{
	struct rhost *rh = &rm->hosts[rj->host];

	WSPX_MUST(pthread_mutex_lock(&rm->lock));
	rh->free[rh->nfree++] = rj->hostslot;
	WSPX_MUST(pthread_cond_broadcast(&rm->freed));
	WSPX_MUST(pthread_mutex_unlock(&rm->lock));
}

/* The connection of the job's host slot. */
static unsigned
masterof(const struct remotejob *rj)
{
	return rj->hostslot / SSHCONN_SESSIONS;
}

/* cmd becomes the ssh that runs it on the job's host. */
static int
wrap(struct remote *rm, struct remotejob *rj, const char *dir,
    struct wspx__cmd *cmd, uint64_t seq, unsigned slot)
{
	char *s = sshscript(dir, rm->exports, cmd, seq, slot, rm->rc->grace);
	int fds[2], rc;

	if ((rc = wspx__proc_pipe(fds)) != 0) {
		free(s);
		return rc;
	}
	free(cmd->argv);
	cmd->argv = sshconn_argv(rm->conn, &rm->sh[rj->host], masterof(rj), s);
	free(s);
	cmd->file = NULL;
	cmd->search = true;
	cmd->dir = NULL;
	/* (closed by the executor when the job is told to end, or ends:
	 * the session's stdin ends, and the watcher ends the job) */
	cmd->in_fd = fds[0];
	cmd->hangup_fd = fds[1];
	return 0;
}

/* After ssh's exit 255 through the connection of rj's slot: whether the
 * connection was down (the attempt was lost with it), checking it (and
 * making it again) unless another job did since rj started; a host whose
 * connection cannot be made again, or lost MAXFAILS times, leaves the
 * rotation. */
static bool
lostwith(struct remote *rm, struct remotejob *rj)
{
	struct rhost *rh = &rm->hosts[rj->host];
	unsigned k = masterof(rj);
	char err[ERRLEN], why[ERRLEN + 64];
	int state;
	bool out, seen;

	WSPX_MUST(pthread_mutex_lock(&rh->check));
	WSPX_MUST(pthread_mutex_lock(&rm->lock));
	seen = rh->out || rh->gen[k] != rj->gen;
	WSPX_MUST(pthread_mutex_unlock(&rm->lock));
	if (seen) {	/* (found down since this job started) */
		WSPX_MUST(pthread_mutex_unlock(&rh->check));
		return true;
	}
	if ((state = sshconn_recheck(rm->conn, rh->sh, k, err)) != 0) {
		rh->fails++;
		WSPX_MUST(pthread_mutex_lock(&rm->lock));
		rh->gen[k]++;
		WSPX_MUST(pthread_mutex_unlock(&rm->lock));
	}
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
		    "its jobs run again", hostof(rh)->spec);
	}
	return true;
}

/* Run cmdline with ssh on the host of rj's attempt (placed), stdin from
 * in_fd and stdout to out_fd (-1: /dev/null); ssh's last stderr line
 * into err.  Returns ssh's exit value, or -errno. */
static int
sshon(struct remote *rm, const struct remotejob *rj, const char *cmdline,
    int in_fd, int out_fd, char *err, size_t errlen)
{
	char buf[ERRLEN];
	int rc = sshconn_run(rm->conn, &rm->sh[rj->host], masterof(rj),
	    cmdline, in_fd, out_fd, buf);

	snprintf(err, errlen, "%s", buf);
	return rc;
}

/* rj's attempt, for the files of remotefiles.c. */
struct via {
	struct remote *rm;
	struct remotejob *rj;
};

static int
viassh(void *ctx, const char *cmdline, int in_fd, int out_fd, char *err,
    size_t errlen)
{
	const struct via *v = ctx;

	return sshon(v->rm, v->rj, cmdline, in_fd, out_fd, err, errlen);
}

/* The job's attempt at rj as remotefiles reaches it, through v. */
static struct rfjob
rfjobof(struct remote *rm, struct remotejob *rj, struct via *v)
{
	struct rfjob j;

	v->rm = rm;
	v->rj = rj;
	j.host = rj->host;
	j.hostname = remote_hostname(rm, rj);
	j.sent = &rj->sent;
	j.ssh = viassh;
	j.ctx = v;
	return j;
}

/* The job's directory there: a job file's dir: is the same path there,
 * from the workdir. */
static char *
jobdir(const struct remote *rm, const struct wspx__cmd *cmd)
{
	if (cmd->dir == NULL)
		return xstrdup(rm->workdir);
	return cmd->dir[0] == '/' ? xstrdup(cmd->dir) :
	    remotefiles_path(rm->workdir, cmd->dir);
}

int
remote_place(struct remote *rm, struct remotejob *rj, const char *on,
    const struct args *a, uint64_t seq, unsigned slot,
    struct wspx__cmd *cmd)
{
	struct rfjob j;
	struct via v;
	int rc;

	remote_release(rm, rj);
	for (;;) {
		if (!takehost(rm, on, rj))
			return -EHOSTDOWN;
		if (hostof(&rm->hosts[rj->host])->local) {
			if (cmd->dir == NULL)
				cmd->dir = rm->rc->workdir;
			return 0;
		}
		rj->dir = jobdir(rm, cmd);
		j = rfjobof(rm, rj, &v);
		rc = rm->hosts[rj->host].shared ? 0 : remotefiles_send(
		    rm->files, &j, rj->dir, a, seq, slot);
		/* (a host found down while sending: try another) */
		if (rc != -ENOTCONN || !lostwith(rm, rj))
			break;
		remote_release(rm, rj);
	}
	if (rc == -ENOTCONN)
		rc = -EIO;
	return rc == 0 ? wrap(rm, rj, rj->dir, cmd, seq, slot) : rc;
}

bool
remote_lost(struct remote *rm, struct remotejob *rj,
    const struct wspx__result *r)
{
	if (!rj->placed || !r->started || !WIFEXITED(r->status) ||
	    WEXITSTATUS(r->status) != 255 ||
	    hostof(&rm->hosts[rj->host])->local)
		return false;
	return lostwith(rm, rj);
}

void
remote_ended(struct remote *rm, struct remotejob *rj, const struct args *a,
    uint64_t seq, unsigned slot, const struct wspx__result *r)
{
	const struct rhost *rh;
	struct rfjob j;
	struct via v;

	if (!rj->placed)
		return;
	rh = &rm->hosts[rj->host];
	j = rfjobof(rm, rj, &v);
	/* (the job's own outcome decides: a host that left the rotation
	 * since may still have its files) */
	if (r->started && !r->lost && !hostof(rh)->local && !rh->shared)
		remotefiles_fetch(rm->files, &j, rj->dir, a, seq, slot);
	if (rm->rc->cleanup && rj->sent.n > 0 && !hostof(rh)->local &&
	    !rh->shared && !isout(rm, rh))
		remotefiles_cleanup(rm->files, &j);
	/* (a last attempt keeps its slot until the job is counted, so that
	 * a job waiting for the host sees a halt it brings) */
	if (r->retry)
		remote_release(rm, rj);
}

void
remote_release(struct remote *rm, struct remotejob *rj)
{
	if (!rj->placed)
		return;
	remotefiles_forget(rm->files, rj->host, &rj->sent);
	free(rj->dir);
	rj->dir = NULL;
	givehost(rm, rj);
	rj->placed = false;
}

const char *
remote_hostname(const struct remote *rm, const struct remotejob *rj)
{
	return rm != NULL && rj->placed ? rm->sh[rj->host].h->spec : ":";
}

void
remote_close(struct remote *rm)
{
	size_t i;

	if (rm == NULL)
		return;
	sshconn_close(rm->conn, rm->sh, rm->nhosts);
	for (i = 0; i < rm->nhosts; i++) {
		free(rm->hosts[i].free);
		free(rm->hosts[i].gen);
		WSPX_MUST(pthread_mutex_destroy(&rm->hosts[i].check));
	}
	remotefiles_free(rm->files);
	free(rm->hosts);
	free(rm->sh);
	free(rm->workdir);
	free(rm->exports);
	WSPX_MUST(pthread_cond_destroy(&rm->freed));
	WSPX_MUST(pthread_mutex_destroy(&rm->lock));
	free(rm);
}
